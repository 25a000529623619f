# Shared by scripts/simulate-actions.sh and scripts/simulate-starter.sh (sourced, not run): the release to play,
# the Python to play it with, and this build served as a release's tarballs.
#
# simulate_tools ROOT          sets `release` (RELEASE_BINARY, else `swift build` in ROOT) and `python` (the
#                              project's venv when it has PyYAML, else python3)
# serve_this_build ROOT WORK NAME
#                              packs `release` as the three platform tarballs and SHA256SUMS in WORK/downloads/vVERSION
#                              (linux-arm64 and darwin-universal are this build relabelled: this machine cannot build
#                              them), serves WORK/downloads on 127.0.0.1, and sets `version`, `downloads` and
#                              `tool_source` (the --tool-source that installs from it); the server's pid joins `servers`.

simulate_tools() {
  release="${RELEASE_BINARY:-}"
  if [[ -z "$release" ]]; then
    swift build --package-path "$1" --product release >&2
    release="$(swift build --package-path "$1" --show-bin-path)/release"
  fi
  python="python3"
  if [[ -x "$1/.tools/venv/bin/python3" ]] && "$1/.tools/venv/bin/python3" -c "import yaml" 2>/dev/null; then
    python="$1/.tools/venv/bin/python3"
  fi
}

serve_this_build() {
  local root="$1" work="$2" name="$3" platform stage
  version="$("$release" --version | awk '{print $NF}')"
  downloads="$work/downloads/v$version"
  mkdir -p "$downloads"
  for platform in linux-x86_64 linux-arm64 darwin-universal; do
    stage="$work/downloads/stage/release-$version-$platform"
    mkdir -p "$stage"
    cp "$release" "$stage/release"
    cp "$root/README.md" "$stage/"
    "$release" schema > "$stage/release.schema.json"
    tar -C "$work/downloads/stage" -czf "$downloads/release-$version-$platform.tar.gz" "release-$version-$platform"
  done
  rm -rf "$work/downloads/stage"
  (cd "$downloads" && sha256sum release-*.tar.gz > SHA256SUMS)
  echo "$name: serving this build as release $version (linux-arm64 and darwin-universal are this Linux build relabelled: this machine cannot build them)" >&2
  "$python" -c '
import functools, http.server, signal, sys
# A test runner may start us with SIGTERM blocked or ignored (the mask survives exec): take it back, so the trap that
# stops the servers stops this one too.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
signal.signal(signal.SIGTERM, signal.SIG_DFL)
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
handler.func.log_message = lambda *a: None
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(f"http://127.0.0.1:{server.server_port}", flush=True)
server.serve_forever()' "$work/downloads" < /dev/null > "$work/downloads.url" 2>/dev/null &
  servers+=($!)
  for _ in $(seq 600); do [[ -s "$work/downloads.url" ]] && break; sleep 0.1; done
  if [[ ! -s "$work/downloads.url" ]]; then
    echo "$name: the download server did not start" >&2
    exit 1
  fi
  tool_source="download:$(head -1 "$work/downloads.url")/v{version}/release-{version}-{platform}.tar.gz"
}
