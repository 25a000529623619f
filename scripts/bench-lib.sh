# Shared by the upload benchmarks (bench-upload.sh, bench-appstore.sh); sourced, not run.
# Sets RELEASE_BIN (building the release binary unless it is given) and reads /usr/bin/time -v reports.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -z "${RELEASE_BIN:-}" ]]; then
    (cd "$ROOT" && swift build -c release --product release >&2)
    RELEASE_BIN="$ROOT/.build/release/release"
fi
[[ -x /usr/bin/time ]] || { echo "$(basename "$0"): /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

# Peak RSS in KB, and wall-clock seconds, from a `/usr/bin/time -v -o FILE` report.
rss_kb() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }
seconds() { awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$1"; }
