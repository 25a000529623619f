# Shared by the benchmarks (bench-zip.sh, bench-engine.sh, bench-upload.sh, bench-appstore.sh); sourced, not run.
# Sets RELEASE_BIN: the binary users download, which scripts/build-static.sh builds (in .build/static, like the
# tests) unless it is given. Sets WRAP from RELEASE_WRAP, a command the measured client runs go through
# (scripts/order-file.sh runs them under valgrind). Reads /usr/bin/time -v reports.

# portability: linux-only. Peak memory comes from GNU time's -v report (BSD time has no -v), sizes from GNU stat
# and find: these measure the Linux package, and stop at once elsewhere rather than print wrong numbers.
if [[ "$(uname -s)" != "Linux" ]]; then
    echo "$(basename "$0"): the benchmarks run on Linux only (GNU time, stat and find)" >&2
    exit 2
fi
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -z "${RELEASE_BIN:-}" ]]; then
    echo "building release (scripts/build-static.sh)..." >&2
    RELEASE_BIN=$(RELEASE_SCRATCH_PATH="${RELEASE_SCRATCH_PATH:-$ROOT/.build/static}" "$ROOT/scripts/build-static.sh")
fi
read -r -a WRAP <<< "${RELEASE_WRAP:-}"
[[ -x /usr/bin/time ]] || { echo "$(basename "$0"): /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

# Peak RSS in KB, and wall-clock seconds, from a `/usr/bin/time -v -o FILE` report.
rss_kb() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }
seconds() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$1"; }
