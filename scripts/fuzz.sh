#!/usr/bin/env bash
# Fuzzes every reader of outside input for longer than CI does, with a fresh seed each time (printed, so a
# failure can be replayed): the mutation fuzz tests (pipeline, pbxproj, xcconfig, Info.plist, XcodeGen, Mach-O,
# zip, CMS), then 10,000 mutated pipeline files through the release binary, each of which must exit 0 or 65
# within 2 s with a location on every error.
#
#   scripts/fuzz.sh [ITERATIONS_PER_READER] [PIPELINE_FILES]      (defaults: 20000, 10000)
#   RELEASE_FUZZ_SEED=123 scripts/fuzz.sh                          (replay a seed)
set -euo pipefail
cd "$(dirname "$0")/.."
iterations="${1:-20000}"
files="${2:-10000}"
seed="${RELEASE_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "fuzz: seed $seed, $iterations inputs per reader, $files pipeline files" >&2
swift build --build-tests >&2
RELEASE_FUZZ_ITERATIONS="$iterations" RELEASE_FUZZ_SEED="$seed" swift test --skip-build --filter ReaderFuzzTests
swift build -c release --product release >&2
python3 scripts/fuzz-pipelines.py --count "$files" --seed "$seed" --release "$(swift build -c release --show-bin-path)/release"
