#!/usr/bin/env bash
# Sets up the machine, checks the code's shape (platform seam, layer order), and runs the whole test suite
# (unit and end-to-end), printing swift test's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/check-portability.sh
python3 scripts/check-layers.py
swift build --build-tests
swift test --skip-build "$@"
