#!/usr/bin/env bash
# Proves that the state one exported job changes reaches the next (issue 24 item 2) on the starter `release init`
# writes, not only on the demo: the starter bumps the version on Linux and archives on macOS, so the macOS job must
# build the bumped sources.
#  1. lays out a repository that is a copy of Fixtures/DemoApp (with scripts/build-demo-archive.sh under tools/,
#     pointed at the checkout itself), runs `release init --yes` in it and commits whatever starter it writes;
#  2. serves tarballs of this build on 127.0.0.1 (as scripts/simulate-actions.sh does) and exports the starter with
#     `--tool-source download:` that server;
#  3. plays the workflow with scripts/simulate-actions.py, a stand-in `xcodebuild` first on PATH: it records the
#     version `release version` reads in the checkout it runs in, builds a real archive with
#     scripts/build-demo-archive.sh for `archive`, and writes a stand-in .ipa for `-exportArchive`;
#  4. checks that the stand-in saw the version the bump wrote in the earlier job, not the committed one.
#
#   scripts/simulate-starter.sh [WORK_DIR]     # default: a new temporary folder
#   RELEASE_BINARY=PATH                        # the release to use (default: swift build, .build/debug/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/simulate-starter.XXXXXX")}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
release="${RELEASE_BINARY:-}"
if [[ -z "$release" ]]; then
  swift build --package-path "$root" --product release >&2
  release="$(swift build --package-path "$root" --show-bin-path)/release"
fi
python="python3"
[[ -x "$root/.tools/venv/bin/python3" ]] && "$root/.tools/venv/bin/python3" -c "import yaml" 2>/dev/null && python="$root/.tools/venv/bin/python3"
branch=release/3.0.1
export GIT_AUTHOR_NAME="Release Simulation" GIT_AUTHOR_EMAIL=simulation@example.com
export GIT_COMMITTER_NAME="Release Simulation" GIT_COMMITTER_EMAIL=simulation@example.com
unset GITHUB_ACTIONS GITHUB_HEAD_REF RELEASE_BRANCH
rm -rf "$work/origin" "$work/artifacts" "$work/macos" "$work/linux" "$work/downloads" "$work/stubs"
servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT

# 1. The app, and the starter `release init` writes for it.
origin="$work/origin/starter"
mkdir -p "$(dirname "$origin")"
cp -R "$root/Fixtures/DemoApp" "$origin"
# The archive builder builds TOOLS/Fixtures/DemoApp: here, the checkout it runs in (with the bump, or without).
mkdir -p "$origin/tools/scripts" "$origin/tools/Fixtures"
cp "$root/scripts/build-demo-archive.sh" "$origin/tools/scripts/"
ln -s ../.. "$origin/tools/Fixtures/DemoApp"
(cd "$origin" && git init -q -b "$branch" && printf 'build/\n' > .gitignore && git add -A && git commit -q -m "The app")
(cd "$origin" && "$release" init --yes >&2 && git add -A && git commit -q -m "The starter release pipeline")
pipeline="$(cd "$origin" && ls Pipelines/*.json | head -1)"
version_of() { # DIR: the app's version as `release version` reads it there
  (cd "$1" && "$release" version --json) | "$python" -c 'import json, sys; print(json.load(sys.stdin)["entries"][0]["version"])'
}
committed="$(version_of "$origin")"

# 2. This build, served; the workflow exported to install it from there.
version="$("$release" --version | awk '{print $NF}')"
downloads="$work/downloads/v$version"
mkdir -p "$downloads"
for platform in linux-x86_64 linux-arm64 darwin-universal; do
  stage="$work/downloads/stage/release-$version-$platform"
  mkdir -p "$stage"
  cp "$release" "$stage/release"
  tar -C "$work/downloads/stage" -czf "$downloads/release-$version-$platform.tar.gz" "release-$version-$platform"
done
rm -rf "$work/downloads/stage"
(cd "$downloads" && sha256sum release-*.tar.gz > SHA256SUMS)
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
[[ -s "$work/downloads.url" ]] || { echo "simulate-starter: the download server did not start" >&2; exit 1; }
tool_source="download:$(head -1 "$work/downloads.url")/v{version}/release-{version}-{platform}.tar.gz"
(cd "$origin" && "$release" export github-actions "$pipeline" --output .github/workflows/release.yml --tool-source "$tool_source" >&2 \
  && git add .github && git commit -q -m "The release workflow")

# 3. A stand-in xcodebuild, and the play.
mkdir -p "$work/stubs"
cat > "$work/stubs/xcodebuild" <<EOF
#!/usr/bin/env bash
set -euo pipefail
seen="\$("$release" version --json | "$python" -c 'import json, sys; print(json.load(sys.stdin)["entries"][0]["version"])')"
echo "xcodebuild (stand-in): MARKETING_VERSION = \$seen" >&2
echo "\$seen" >> "$work/xcodebuild-saw"
archive= export_path= exporting=0
while [[ \$# -gt 0 ]]; do
  case "\$1" in
    -archivePath) archive="\$2"; shift ;;
    -exportPath) export_path="\$2"; shift ;;
    -exportArchive) exporting=1 ;;
  esac
  shift
done
if [[ \$exporting == 1 ]]; then
  mkdir -p "\$export_path" && printf 'ipa' > "\$export_path/Demo.ipa"
else
  tools/scripts/build-demo-archive.sh "\$(dirname "\$archive")" >&2
fi
EOF
chmod +x "$work/stubs/xcodebuild"
rm -f "$work/xcodebuild-saw"
echo "simulate-starter: $pipeline as $(cd "$origin" && git log -1 --format=%h), version $committed committed" >&2
PATH="$work/stubs:$PATH" "$python" "$root/scripts/simulate-actions.py" "$origin/.github/workflows/release.yml" \
  --origin "$origin" --branch "$branch" --work "$work"

# 4. What the archive job saw.
saw="$(sort -u "$work/xcodebuild-saw" | tr '\n' ' ')"
if [[ "$saw" == *"$committed "* ]]; then
  echo "simulate-starter: the archive job built version $committed, the committed one: the bump did not reach it" >&2
  exit 1
fi
echo "simulate-starter: the archive job built version $saw(committed: $committed): the bump of the earlier job reached it" >&2
