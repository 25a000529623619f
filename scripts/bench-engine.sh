#!/usr/bin/env bash
# portability: linux-only (measures the Linux package with GNU time, stat and find; bench-lib.sh stops elsewhere)
# Engine benchmark (not a test): plan and run a generated DAG of no-op steps, start-up, and plan of a
# shipped pipeline. Prints medians of several runs. Usage: scripts/bench-engine.sh [STEPS] [RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
steps="${1:-10000}"
runs="${2:-5}"
cd "$root"
source scripts/bench-lib.sh
binary=$RELEASE_BIN
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 scripts/bench/generate-dag.py "$steps" > "$work/dag.json"

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
measure() { # prints milliseconds of one run of "$@"
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
row() { # label, command...
  local label="$1"; shift
  local values=()
  for _ in $(seq "$runs"); do values+=("$(measure "$@")"); done
  printf '%-48s %8s ms   (runs: %s)\n' "$label" "$(printf '%s\n' "${values[@]}" | median)" "${values[*]}"
}
peak_rss() { # kilobytes of peak RSS of "$@"
  /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1
}

echo "release engine benchmark — $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, median of $runs"
row "release --version" "$binary" --version
row "release validate ($steps-step DAG)" "$binary" validate "$work/dag.json"
row "release plan ($steps-step DAG)" "$binary" plan "$work/dag.json"
row "release run --jobs 2 ($steps-step DAG, plan + run)" "$binary" run "$work/dag.json" --jobs 2 --log-format plain
for pipeline in Pipelines/distribute.json Pipelines/demo.json; do
  [[ -f "$pipeline" ]] && row "release plan $pipeline" "$binary" plan "$pipeline"
done
if [[ -x /usr/bin/time ]]; then
  echo "peak RSS of run ($steps steps): $(peak_rss "$binary" run "$work/dag.json" --jobs 2 --log-format plain) KB"
fi
