#!/usr/bin/env bash
# Proves `release export github-actions` without GitHub, on the demo (Pipelines/demo.json, Fixtures/DemoApp):
#  1. lays out the demo repository (scripts/prepare-demo.sh) and commits the exported workflow into it;
#  2. releases it on one machine: `release run Pipelines/demo.json` against a local GitHub server;
#  3. plays the workflow (scripts/simulate-actions.py): each job on a fresh clone, only what the workflow uploads
#     carried between jobs, against a second local GitHub server;
#  4. checks that both servers hold the same release (tag, name, body, every asset's name, size and SHA-256);
#  5. plays each job once more on its own (a re-run on GitHub) and checks the release has not changed.
#
#   scripts/simulate-actions.sh [WORK_DIR]     # default: a new temporary folder
#   RELEASE_BINARY=PATH                        # the release to use (default: swift build, .build/debug/release)
#
# The one-machine run builds in the folder the macOS jobs build in (as two macOS runners would): the demo's
# Mach-O UUIDs, hence its assets' digests, depend on the build folder, as Xcode's do without prefix maps.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d "${TMPDIR:-/tmp}/simulate-actions.XXXXXX")}"
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
token=simulated-token
export GIT_AUTHOR_NAME="Release Simulation" GIT_AUTHOR_EMAIL=simulation@example.com
export GIT_COMMITTER_NAME="Release Simulation" GIT_COMMITTER_EMAIL=simulation@example.com
unset GITHUB_ACTIONS GITHUB_HEAD_REF RELEASE_BRANCH

origin="$work/origin/demo"
rm -rf "$work/origin" "$work/artifacts" "$work/macos" "$work/linux" "$work/github-"*
"$root/scripts/prepare-demo.sh" "$origin" >&2
(cd "$origin" && "$release" export github-actions Pipelines/demo.json --output .github/workflows/release.yml >&2 \
  && git add .github && git commit -q -m "The release workflow")
workflow="$origin/.github/workflows/release.yml"

servers=()
trap 'for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT
serve() { # NAME: starts a local GitHub server keeping releases in $work/github-NAME; its URL goes to $work/github-NAME.url
  "$release" github-server --storage "$work/github-$1" --token "$token" < /dev/null > "$work/github-$1.url" 2>/dev/null &
  servers+=($!)
}
url_of() { # NAME: the server's URL, once it has printed it
  for _ in $(seq 100); do [[ -s "$work/github-$1.url" ]] && break; sleep 0.1; done
  head -1 "$work/github-$1.url"
}
serve single
serve simulated
single_url="$(url_of single)"
simulated_url="$(url_of simulated)"

summary() { # URL: the release as lines: tag, name, body, then each asset's name, size and digest
  "$python" - "$1" "$token" <<'EOF'
import json, sys, urllib.request
url, token = sys.argv[1], sys.argv[2]
request = urllib.request.Request(url + "/repos/demo/client-releases/releases", headers={"Authorization": "token " + token})
for release in sorted(json.load(urllib.request.urlopen(request)), key=lambda r: r["tag_name"]):
    print(f"release {release['tag_name']} name={release['name']!r} body={release['body']!r} draft={release['draft']}")
    for asset in sorted(release["assets"], key=lambda a: a["name"]):
        print(f"  asset {asset['name']} {asset['size']} {asset['digest']}")
EOF
}

echo "simulate-actions: one machine" >&2
single="$work/macos/Users/runner/work/demo/demo"
git clone -q --no-local --branch "$branch" "$origin" "$single"
(cd "$single" && GITHUB_REF_NAME="$branch" GITHUB_API_URL="$single_url" GITHUB_TOKEN="$token" \
  "$release" run Pipelines/demo.json --log-format plain >&2)
rm -rf "$work/macos"
summary "$single_url" > "$work/single.txt"

play() {
  "$python" "$root/scripts/simulate-actions.py" "$workflow" --origin "$origin" --branch "$branch" --release "$release" \
    --work "$work" --env "GITHUB_API_URL=$simulated_url" --secret "GITHUB_TOKEN=$token" "$@"
}
echo "simulate-actions: the workflow, job by job" >&2
play
summary "$simulated_url" > "$work/simulated.txt"
if ! diff -u "$work/single.txt" "$work/simulated.txt" >&2; then
  echo "simulate-actions: the workflow's release differs from the one-machine release (above)" >&2
  exit 1
fi
if ! grep -q "asset" "$work/single.txt"; then
  echo "simulate-actions: nothing was published" >&2
  exit 1
fi

for job in $("$python" -c 'import sys, yaml; print(" ".join(yaml.safe_load(open(sys.argv[1]))["jobs"]))' "$workflow"); do
  echo "simulate-actions: job $job again" >&2
  play --job "$job"
  summary "$simulated_url" > "$work/rerun-$job.txt"
  if ! diff -u "$work/single.txt" "$work/rerun-$job.txt" >&2; then
    echo "simulate-actions: re-running job $job changed the release (above)" >&2
    exit 1
  fi
done
echo "simulate-actions: the workflow's release equals the one-machine release, and every job re-runs to the same release:" >&2
cat "$work/single.txt"
