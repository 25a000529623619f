#!/usr/bin/env bash
# Sets up the machine, checks the code's shape (platform seam, Python 3.9; after the build, that each file imports only
# modules of ours its target declares, and the order of Rehearsal's folders from the compiler's index), and runs the whole test suite (unit and end-to-end), printing swift test's summary.
#
# Everything slow or CPU-heavy that tests need is built first, so no test blocks Swift's cooperative thread pool
# (two threads on a two-core runner) for minutes while timing-sensitive tests wait on it:
# - the example Swift plugin (PluginStepTests), into .build/examples;
# - with RELEASE_SLOW_TESTS=1, the static release binary scripts/package.sh makes (SelfReleaseTests).
# The unit tests (ReleaseKitTests) and the end-to-end tests (EndToEndTests, which wait on `release` processes
# synchronously) then run as two `swift test` processes, one after the other, so each has the pool to itself.
# Arguments (e.g. --filter NAME) run one `swift test` with them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/check-portability.sh
./scripts/check-python.sh
# The code is as swift-format 6.3 (Swift 6.3's, 603) writes it with .swift-format: `swift format format -i -r -p Sources
# Tests`. The formatter is pinned: 6.2's (602, in Xcode 26.0-26.3) lays some constructs out differently under
# --strict, so another version skips the lint, saying so (CI's Linux job, swift:6.3.1, always runs it).
format_version="$(swift format --version 2>/dev/null || true)"
if [[ "$format_version" == 6.3* || "$format_version" == 603.* ]]; then
  swift format lint --strict -r -p Sources Tests Package.swift
else
  echo "test: swift-format ${format_version:-(none)} is not 6.3, which the code is formatted with: format lint skipped here" >&2
fi
swift build --build-tests
# ReleaseKit's layers are targets, so the compiler refuses a use of a layer a file does not import; the layer check
# refuses an import of one of our modules (a layer, CCurl, CArchive, CZlib) that the target does not declare, which
# would otherwise compile whenever that module happens to be built already, and keeps Rehearsal's folders in order
# from the index store the debug build just wrote (.build/debug/index/store). Its self-test first proves it reports
# planted offences.
python3 scripts/check-layers.py --self-test
python3 scripts/check-layers.py

export RELEASE_EXAMPLE_PLUGIN_SEMVER="$PWD/.build/examples/semver-check/debug/release-step-semver.check"
swift build --package-path Examples/Plugins/semver-check --scratch-path .build/examples/semver-check 2>&1 | tail -1

if [[ "${RELEASE_SLOW_TESTS:-}" == "1" && -z "${RELEASE_STATIC_BINARY:-}" ]]; then
  dist="$(mktemp -d)"
  tarball="$(RELEASE_SCRATCH_PATH=.build/static ./scripts/package.sh "$dist" | tail -1)"
  tar -C "$dist" -xzf "$tarball"
  export RELEASE_STATIC_BINARY="${tarball%.tar.gz}/release"
fi

if (($#)); then
  exec swift test --skip-build "$@"
fi
# Each run's output is kept to count what was skipped: tests that read ../shared (the team's reference data beside
# the checkout, absent from a fresh clone) skip without it, each saying what is missing and how to get it, unless
# RELEASE_REQUIRE_SHARED=1 (.ci/run) makes that a failure.
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
status=0
swift test --skip-build --filter '^ReleaseKitTests\.' 2>&1 | tee "$logs/unit" || status=$?
swift test --skip-build --filter '^EndToEndTests\.' 2>&1 | tee "$logs/end-to-end" || status=$?
# Swift Testing prints one line per skipped test (and one more per skipped suite): `➜ Test name() skipped: "reason"`.
skipped=$(cat "$logs/unit" "$logs/end-to-end" | grep -cE '^[^ ]+ Test .* skipped' || true)
shared=$(cat "$logs/unit" "$logs/end-to-end" | grep -E '^[^ ]+ Test .* skipped' | grep -c '\.\./shared/' || true)
echo "test: $skipped tests skipped, $shared of them for want of ../shared (reasons above)"
if ((shared)); then
  echo "test: ../shared is the team's reference data beside the checkout (README, \"Tests\"); with it there, or with" \
    "RELEASE_REQUIRE_SHARED=1, those tests run"
fi
exit "$status"
