#!/usr/bin/env bash
# Sets up the machine, builds `release` and runs the main job: Pipelines/demo.json end to end, in a scratch
# copy so the repository's own files are never changed. Extra arguments go to `release run`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
./scripts/setup.sh
swift build -c release --product release >&2
binary="$(swift build -c release --show-bin-path)/release"
scratch="${RELEASE_SCRATCH:-$(mktemp -d "${TMPDIR:-/tmp}/release-demo.XXXXXX")}"
echo "main: working in $scratch" >&2
"$root/scripts/prepare-demo.sh" "$scratch"
cd "$scratch"
"$binary" run Pipelines/demo.json "$@"
