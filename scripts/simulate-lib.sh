# Shared by scripts/simulate-actions.sh and scripts/simulate-starter.sh (sourced, not run): the release to play,
# the Python to play it with, and this build served as a release's tarballs.
#
# simulate_begin NAME [WORK]   what every simulation starts with: `work` (WORK, else a new temporary folder NAME.*,
#                              made and absolute), `release` and `python` (simulate_tools $root), the laptop's git identity, the
#                              CI variables of the calling shell unset, and `servers`, whose pids are stopped at exit
# simulate_tools ROOT          sets `release` (RELEASE_BINARY, else `swift build` in ROOT) and `python` (the
#                              project's venv when it has PyYAML, else python3)
# serve_this_build ROOT WORK NAME
#                              packs `release` as the three platform tarballs and SHA256SUMS in WORK/downloads/vVERSION
#                              (linux-arm64 and darwin-universal are this build relabelled: this machine cannot build
#                              them), serves WORK/downloads on 127.0.0.1, and sets `version`, `downloads` and
#                              `tool_source` (the --tool-source that installs from it); the server's pid joins `servers`.
# serve_github WORK NAME...    starts a local GitHub server (token $token) per NAME keeping releases in
#                              WORK/github-NAME; its URL goes to WORK/github-NAME.url, its pid joins `servers`
# serve_appstore WORK NAME KEY_ID ISSUER_ID PUBLIC_KEY [POLLS [TEAM]]
#                              starts a local App Store Connect (accepting that key; apps and TestFlight groups made
#                              when first looked up; an upload processed after POLLS reads, default 1) keeping its state in WORK/appstore-NAME; its URL goes to
#                              WORK/appstore-NAME.url, its pid joins `servers`
# appstore_summary STATE_JSON  what that App Store Connect holds, as lines without ids or dates
# sha256 FILE...               SHA-256 lines as sha256sum prints them (`HEX  NAME`; a Mac has shasum, not sha256sum)
# url_of WORK SERVER           the URL that server (github-NAME, appstore-NAME) printed to WORK/SERVER.url, once it has
# release_summary URL REPO [zip-contents]
#                              the releases of REPO on the GitHub server at URL as lines: tag, name, body (the server's
#                              URL in it written SERVER), then each asset's name, size and digest, or for a .zip with
#                              zip-contents its entries' names, sizes and CRC-32s (token $token)

sha256() {
  if command -v shasum >/dev/null; then shasum -a 256 "$@"; else sha256sum "$@"; fi
}

simulate_begin() {
  work="${2:-$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")}"
  mkdir -p "$work"
  work="$(cd "$work" && pwd)"
  simulate_tools "$root"
  # The laptop that lays out each repository has a git identity, as a developer's machine does (its own global
  # configuration file); every job simulate-actions.py plays has none, as a hosted runner has none.
  printf '[user]\n\tname = Release Simulation\n\temail = simulation@example.com\n' > "$work/laptop.gitconfig"
  export GIT_CONFIG_GLOBAL="$work/laptop.gitconfig"
  unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL EMAIL
  unset GITHUB_ACTIONS GITHUB_HEAD_REF RELEASE_BRANCH GITHUB_REPOSITORY RUNNER_ARCH RUNNER_OS CI_RUNNER_EXECUTABLE_ARCH
  servers=()
  trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
}

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
  (cd "$downloads" && sha256 release-*.tar.gz > SHA256SUMS)
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

serve_github() {
  local name
  for name in "${@:2}"; do
    "$release" github-server --storage "$1/github-$name" --token "$token" < /dev/null > "$1/github-$name.url" 2>/dev/null &
    servers+=($!)
  done
}

url_of() {
  for _ in $(seq 600); do [[ -s "$1/$2.url" ]] && break; sleep 0.1; done
  head -1 "$1/$2.url"
}

release_summary() {
  "$python" - "$1" "$2" "$token" "${3:-}" <<'EOF'
import io, json, sys, urllib.request, zipfile
url, repository, token, zips = sys.argv[1:5]
request = urllib.request.Request(f"{url}/repos/{repository}/releases", headers={"Authorization": "token " + token})
for release in sorted(json.load(urllib.request.urlopen(request)), key=lambda r: r["tag_name"]):
    body = (release["body"] or "").replace(url, "SERVER")
    print(f"release {release['tag_name']} name={release['name']!r} body={body!r} draft={release['draft']}")
    for asset in sorted(release["assets"], key=lambda a: a["name"]):
        if zips == "zip-contents" and asset["name"].endswith(".zip"):
            # Two builds of one commit differ in their files' dates and, as Xcode links them, in their Mach-O UUIDs
            # (the linker hashes its output): compare what is inside, binaries by name and size, the rest by content.
            data = urllib.request.urlopen(asset["browser_download_url"]).read()
            print(f"  asset {asset['name']} {asset['state']}, inside (dates and Mach-O UUIDs aside):")
            archive = zipfile.ZipFile(io.BytesIO(data))
            for entry in archive.infolist():
                head = archive.read(entry)[:4] if entry.file_size >= 4 else b""
                if head in (b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe"):
                    print(f"    {entry.filename} {entry.file_size} Mach-O")
                else:
                    print(f"    {entry.filename} {entry.file_size} crc32:{entry.CRC:08x}")
        else:
            print(f"  asset {asset['name']} {asset['size']} {asset['digest']}")
EOF
}

serve_appstore() { # WORK NAME KEY_ID ISSUER_ID PUBLIC_KEY [PROCESSING_POLLS [TEAM]]: TEAM's certificates and profiles
  rm -rf "$1/appstore-$2"
  local team=()
  if [[ -n "${7:-}" ]]; then team=(--team "$7"); fi
  "$release" appstore-server --storage "$1/appstore-$2" --key-id "$3" --issuer-id "$4" --public-key "$5" \
    --processing-polls "${6:-1}" --auto-create ${team[@]+"${team[@]}"} < /dev/null > "$1/appstore-$2.url" 2>/dev/null &
  servers+=($!)
}

appstore_summary() {
  "$python" - "$1" <<'EOF'
import json, sys
state = json.load(open(sys.argv[1]))
apps = {app["id"]: app["bundleID"] for app in state.get("apps", [])}
versions = {v["id"]: v["version"] for v in state.get("preReleaseVersions", [])}
builds = {b["id"]: f"{versions.get(b['preReleaseVersionID'], '?')} ({b['version']})" for b in state.get("builds", [])}
for upload in sorted(state.get("buildUploads", []), key=lambda u: (u["version"], u["build"])):
    build = next((b for b in state.get("builds", []) if b["id"] == upload.get("buildID")), None)
    print(f"upload {apps.get(upload['appID'], '?')} {upload['version']} ({upload['build']}) {upload['platform']} {upload['state']}"
          + (f" build {build['processingState']}" if build else ""))
    for file in sorted((f for f in state.get("files", []) if f["uploadID"] == upload["id"]), key=lambda f: f["fileName"]):
        # An .ipa holds the profile it was signed with, whose UUID, dates and signature each App Store Connect makes
        # anew (as Apple's does): only its name and state can agree between two accounts.
        detail = "" if file["fileName"].endswith(".ipa") else f" {file['fileSize']} {file['checksumAlgorithm']}:{file['checksumHash']}"
        print(f"  file {file['fileName']} {file['assetType']} {file['state']}{detail}")
for group in sorted(state.get("betaGroups", []), key=lambda g: g["name"]):
    print(f"group {group['name']}: " + ", ".join(sorted(builds.get(b, b) for b in group["buildIDs"])))
for text in sorted(state.get("localizations", []), key=lambda l: l["locale"]):
    print(f"what to test {text['locale']} for {builds.get(text['buildID'], '?')}: {text['whatsNew']!r}")
for version in sorted(state.get("appStoreVersions", []), key=lambda v: v["versionString"]):
    phased = [p["state"] for p in state.get("phasedReleases", []) if p["versionID"] == version["id"]]
    print(f"app store version {apps.get(version['appID'], '?')} {version['versionString']} {version['platform']} {version['appStoreState']}"
          f" build {builds.get(version.get('buildID'), 'none')} release {version.get('releaseType')} phased {phased[0] if phased else 'none'}")
    for text in state.get("versionLocalizations", []):
        if text["versionID"] == version["id"]:
            print(f"  what's new {text['locale']}: {text.get('whatsNew')!r}")
for submission in state.get("reviewSubmissions", []):
    items = [v["versionString"] for i in state.get("reviewItems", []) if i["submissionID"] == submission["id"] and i["state"] != "REMOVED"
             for v in state.get("appStoreVersions", []) if v["id"] == i["versionID"]]
    print(f"review submission {submission['platform']} {submission['state']}: {', '.join(items) or 'no items'}")
signing = state.get("signing", {})
for certificate in sorted(signing.get("certificates", []), key=lambda c: c["name"]):
    print(f"certificate {certificate['certificateType']} {certificate['name']!r}")
identifiers = {b["id"]: b["identifier"] for b in signing.get("bundleIDs", [])}
for identifier in sorted(signing.get("bundleIDs", []), key=lambda b: b["identifier"]):
    print(f"bundle id {identifier['identifier']} {identifier['platform']}")
for profile in sorted(signing.get("profiles", []), key=lambda p: p["name"]):
    print(f"profile {profile['name']!r} {profile['profileType']} {profile['profileState']} for {identifiers.get(profile['bundleIDResource'], '?')}"
          f" with {len(profile['certificateIDs'])} certificate(s)")
EOF
}
