#!/usr/bin/env bash
# Sets up the machine, builds `release` and runs the main job: Pipelines/demo.json end to end, in a scratch
# copy so the repository's own files are never changed, publishing to the local GitHub server (--rehearse).
# It runs twice: the second run shows the publish converging (nothing uploaded). Extra arguments go to both runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# Only what the main job needs: the test tools (Python packages, Ruby, zip peers) are the tests' (scripts/test.sh).
./scripts/setup.sh --main
swift build -c release --product release >&2
binary="$(swift build -c release --show-bin-path)/release"
scratch="${RELEASE_SCRATCH:-$(mktemp -d "${TMPDIR:-/tmp}/release-demo.XXXXXX")}"
echo "main: working in $scratch" >&2
"$root/scripts/prepare-demo.sh" "$scratch"
cd "$scratch"
echo "main: first run" >&2
"$binary" run Pipelines/demo.json --rehearse "$@"
echo "main: second run of the same release" >&2
"$binary" run Pipelines/demo.json --rehearse "$@"
