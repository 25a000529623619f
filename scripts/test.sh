#!/usr/bin/env bash
# Sets up the machine and runs the whole test suite (unit and end-to-end), printing swift test's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
