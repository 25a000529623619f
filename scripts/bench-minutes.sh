#!/usr/bin/env bash
# Minutes benchmark (not a test): the runner minutes and their price of one release, the exported workflow against
# the single-job lane that polls on one Mac (what fastlane does), with scripted durations (archive 12 min, export
# 2 min, processing 25 min, App Review 1 day). Two workflows: the demo's (Pipelines/distribute.json) and the starter
# `release init` writes for a real project (../shared/real-projects/isowords by default).
#
#  1. exports each pipeline with `release export github-actions`;
#  2. scripts/bench/minutes.py reads the jobs (the runner kind of each, the steps its `release run --only …` runs)
#     and writes one run report per job as `release run --report` writes them: ours with every wait on Apple ending
#     its job in the waiting state (0 runner minutes) and a short scheduled resume on the same kind of runner; the
#     lane as one macOS job that also polls through processing;
#  3. prices both with `release report --cost --json` (per-job rounding up to whole minutes, GitHub's list rates)
#     and prints them side by side. Goal: macOS minutes at most one third of the lane's, 0 minutes waiting.
#
#   scripts/bench-minutes.sh [WORK_DIR]      # default: a new temporary folder
#   RELEASE_BIN=PATH                         # the release to use (default: .build/debug/release, built if missing)
#   REAL_APP=NAME                            # the real project for the starter (default: isowords)
#   ARCHIVE_MIN=12 EXPORT_MIN=2 PROCESSING_MIN=25 REVIEW_MIN=1440 STEP_MIN=0.5 SETUP_MIN=1   # the script
#
# Bash 3.2 and BSD userland (macOS) as well as Linux; Python 3.9 with PyYAML (scripts/setup.sh installs it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
release="${RELEASE_BIN:-$root/.build/debug/release}"
if [ ! -x "$release" ]; then
  echo "building release (swift build)..." >&2
  swift build --product release >&2
fi
work="${1:-}"
if [ -z "$work" ]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/bench-minutes.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/reports"
app="${REAL_APP:-isowords}"
corpus="$root/../shared/real-projects/$app/head"
tool_source="mint:example/release@1.0.0"  # where the jobs would get release: irrelevant to minutes

# 1. The demo's workflow, and a real project's starter.
"$release" export github-actions Pipelines/distribute.json --tool-source "$tool_source" --output "$work/distribute.yml" 2>"$work/export-demo.log" \
  || { cat "$work/export-demo.log" >&2; exit 1; }
workflows="distribute|$work/distribute.yml|$root/Pipelines/distribute.json"
if [ -d "$corpus" ]; then
  rm -rf "$work/$app"
  cp -R "$corpus" "$work/$app"
  (
    cd "$work/$app"
    git init -q -b main
    git -c core.excludesFile=/dev/null add -A
    git -c user.email=bench@example.com -c user.name=bench commit -q -m "upstream head"
    "$release" init --yes >"$work/init.log" 2>&1 || { cat "$work/init.log" >&2; exit 1; }
    "$release" export github-actions Pipelines/release.json --tool-source "$tool_source" --output "$work/starter.yml" 2>"$work/export-starter.log" \
      || { cat "$work/export-starter.log" >&2; exit 1; }
  )
  workflows="$workflows $app-starter|$work/starter.yml|$work/$app/Pipelines/release.json"
else
  echo "bench-minutes: $corpus is missing (../shared/real-projects): the real starter is left out" >&2
fi

# 2 and 3. Reports per job, priced.
echo "release minutes benchmark — $(date -u +%Y-%m-%dT%H:%M:%SZ); scripted: archive ${ARCHIVE_MIN:-12} min, export ${EXPORT_MIN:-2} min," \
  "processing ${PROCESSING_MIN:-25} min, review ${REVIEW_MIN:-1440} min, other steps ${STEP_MIN:-0.5} min, job setup ${SETUP_MIN:-1} min"
for entry in $workflows; do
  name="${entry%%|*}"
  rest="${entry#*|}"
  yml="${rest%%|*}"
  pipeline="${rest#*|}"
  python3 scripts/bench/minutes.py "$yml" "$pipeline" "$work/reports" "$name" > "$work/$name-model.json"
  ours_files=$(python3 -c 'import json,sys; print("\n".join(j["report"] for j in json.load(open(sys.argv[1]))["jobs"]))' "$work/$name-model.json")
  # shellcheck disable=SC2086  # one report path a line, no spaces (mktemp folders)
  "$release" report --cost $ours_files --json > "$work/$name-ours-cost.json"
  "$release" report --cost "$work/reports/$name-lane.json" --json > "$work/$name-lane-cost.json"
  python3 - "$work/$name-model.json" "$work/$name-ours-cost.json" "$work/$name-lane-cost.json" "$name" <<'PY'
import json, sys
model, ours, lane = (json.load(open(path)) for path in sys.argv[1:4])
name = sys.argv[4]
def runner(cost, kind, key):
    return (cost["runners"].get(kind) or {}).get(key) or 0
jobs = ", ".join("%s on %s (%d steps)" % (job["job"], job["runner"], job["steps"]) for job in model["jobs"])
print("")
print("%s: %s" % (name, jobs))
print("%-40s %12s %12s %10s %12s %5s" % ("metric", "ours", "lane (peer)", "ratio", "target", "met"))
mac_ours, mac_lane = runner(ours, "macos", "minutes"), runner(lane, "macos", "minutes")
ratio = mac_ours / mac_lane if mac_lane else 0
print("%-40s %12s %12s %9.2fx %12s %5s" % ("macOS minutes", mac_ours, mac_lane, ratio, "<= 1/3", "yes" if mac_ours * 3 <= mac_lane else "NO"))
print("%-40s %12s %12s" % ("Linux minutes", runner(ours, "linux", "minutes"), runner(lane, "linux", "minutes")))
wait_ours, wait_lane = model["waiting_minutes"]["ours"], model["waiting_minutes"]["lane"]
print("%-40s %12g %12g %10s %12s %5s" % ("runner minutes waiting for Apple", wait_ours, wait_lane, "", "0", "yes" if wait_ours == 0 else "NO"))
print("%-40s %12s %12s %9.2fx" % ("price at list rates (USD)", "%.3f" % ours["total_price"], "%.3f" % lane["total_price"],
                                   ours["total_price"] / lane["total_price"] if lane["total_price"] else 0))
PY
done
if [ -n "${1:-}" ]; then
  echo ""
  echo "reports: $work/reports (release report --cost FILE… prices any of them)"
fi
