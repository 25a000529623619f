#!/usr/bin/env bash
# portability: linux-only (measures the Linux package with GNU time, stat and find; bench-lib.sh stops elsewhere)
# Upload benchmark: ours against `curl -T`, uploading the same 1 GB file to the same local GitHub server in
# the same run, several paired rounds: `release run` with a one-step `github.release` pipeline (what users
# run), `release upload-asset` (the same converging publisher without the engine) and its --transfer-only.
# Prints throughput and peak RSS side by side, then a re-run that must upload 0 bytes.
#
#   scripts/bench-upload.sh                 # 1 GiB, 5 rounds, builds the release binary first
#   SIZE_MB=256 ROUNDS=5 scripts/bench-upload.sh
#   RELEASE_BIN=/path/to/release scripts/bench-upload.sh   # skip the build
#
# Needs: curl, /usr/bin/time (apt-get install time), python3.
set -euo pipefail

SIZE_MB=${SIZE_MB:-1024}
ROUNDS=${ROUNDS:-5}
source "$(dirname "$0")/bench-lib.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-upload.XXXXXX")
# The server keeps assets in memory-backed /dev/shm when it can, so the disk's write-back does not
# decide the result: the benchmark measures the clients. STORAGE=DIR overrides.
if [[ -z "${STORAGE:-}" ]]; then
    if [[ -d /dev/shm && -w /dev/shm ]]; then STORAGE=$(mktemp -d /dev/shm/bench-upload.XXXXXX); else STORAGE="$WORK/server"; fi
fi
SERVER_PID=""
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK" "$STORAGE"
}
trap cleanup EXIT

TOKEN="bench-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"
export GITHUB_TOKEN="$TOKEN"
"$RELEASE_BIN" github-server --storage "$STORAGE" > "$WORK/url" 2> "$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 50); do [[ -s "$WORK/url" ]] && break; sleep 0.1; done
API=$(head -1 "$WORK/url")
[[ -n "$API" ]] || { echo "bench-upload: the server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }

FILE="$WORK/payload.bin"
dd if=/dev/urandom of="$FILE" bs=1M count="$SIZE_MB" status=none
BYTES=$(stat -c %s "$FILE")
cat "$FILE" > /dev/null  # both tools read it from the page cache

# Free the stored bytes after each upload, so every run starts with the same memory (the server's
# records, which the re-run compares against, stay).
free_storage() { find "$STORAGE/assets" -type f -delete; }

# A release for curl to upload into, made through the API like any client would.
CURL_UPLOAD=$(curl -sf -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \
    -d '{"tag_name":"curl-bench","draft":true}' "$API/repos/bench/app/releases" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["upload_url"].split("{")[0])')

# The step users run: a pipeline with one `github.release` step publishing the file, one tag per round.
mkdir -p "$WORK/project"
cat > "$WORK/project/publish.json" <<JSON
{"version": 1, "name": "bench-upload", "variables": {"tag": "run"},
 "steps": [{"id": "publish", "uses": "github.release",
            "with": {"repo": "bench/app", "token": "\${secrets.GITHUB_TOKEN}", "api": "$API", "tag": "\${tag}",
                     "assets": ["$FILE"]}}]}
JSON

declare -a OURS_T OURS_R CURL_T CURL_R RAW_T RAW_R RUN_T RUN_R
for round in $(seq "$ROUNDS"); do
    /usr/bin/time -v -o "$WORK/curl.time" curl -sf -o /dev/null -X POST -T "$FILE" -H "Expect:" \
        -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/octet-stream" \
        "$CURL_UPLOAD?name=payload-$round.bin"
    CURL_T+=("$(seconds "$WORK/curl.time")"); CURL_R+=("$(rss_kb "$WORK/curl.time")"); free_storage

    (cd "$WORK/project" && /usr/bin/time -v -o "$WORK/run.time" "${WRAP[@]}" "$RELEASE_BIN" run publish.json \
        --var "tag=run-$round" --log-format plain > "$WORK/run-$round.log" 2>&1) \
        || { echo "bench-upload: release run failed" >&2; cat "$WORK/run-$round.log" >&2; exit 1; }
    RUN_T+=("$(seconds "$WORK/run.time")"); RUN_R+=("$(rss_kb "$WORK/run.time")"); free_storage

    /usr/bin/time -v -o "$WORK/ours.time" "${WRAP[@]}" "$RELEASE_BIN" upload-asset --api "$API" --repo bench/app \
        --tag "ours-$round" --json "$FILE" > "$WORK/ours-$round.json" 2> "$WORK/ours-$round.log"
    OURS_T+=("$(seconds "$WORK/ours.time")"); OURS_R+=("$(rss_kb "$WORK/ours.time")"); free_storage

    /usr/bin/time -v -o "$WORK/raw.time" "${WRAP[@]}" "$RELEASE_BIN" upload-asset --api "$API" --repo bench/app \
        --tag "raw-$round" --transfer-only "$FILE" > /dev/null 2> "$WORK/raw-$round.log"
    RAW_T+=("$(seconds "$WORK/raw.time")"); RAW_R+=("$(rss_kb "$WORK/raw.time")"); free_storage
done

# What peak RSS costs before any work: the runtime and shared libraries (Foundation, ICU, libcurl, libarchive).
/usr/bin/time -v -o "$WORK/idle.time" "${WRAP[@]}" "$RELEASE_BIN" --version > /dev/null
IDLE_R=$(rss_kb "$WORK/idle.time")

# Re-run of the last published release: nothing to upload.
"${WRAP[@]}" "$RELEASE_BIN" upload-asset --api "$API" --repo bench/app --tag "ours-$ROUNDS" --json "$FILE" > "$WORK/rerun.json" 2> "$WORK/rerun.log"

PYTHONPATH="$ROOT/scripts/bench" python3 - "$BYTES" "$WORK/rerun.json" "$IDLE_R" "${#OURS_T[@]}" "${OURS_T[@]}" "${OURS_R[@]}" "${CURL_T[@]}" "${CURL_R[@]}" "${RAW_T[@]}" "${RAW_R[@]}" \
    "${RUN_T[@]}" "${RUN_R[@]}" <<'PY'
import json, statistics, sys
import table
size = int(sys.argv[1]); rerun = json.load(open(sys.argv[2])); idle = int(sys.argv[3]); n = int(sys.argv[4])
values = sys.argv[5:]
ours_t = [float(v) for v in values[0:n]]; ours_r = [int(v) for v in values[n:2*n]]
curl_t = [float(v) for v in values[2*n:3*n]]; curl_r = [int(v) for v in values[3*n:4*n]]
raw_t = [float(v) for v in values[4*n:5*n]]; raw_r = [int(v) for v in values[5*n:6*n]]
run_t = [float(v) for v in values[6*n:7*n]]; run_r = [int(v) for v in values[7*n:8*n]]
mb = size / 1e6
def row(name, times, rss):
    return table.row(name, times, rss, mb, 28)
print(f"upload of {mb:.0f} MB to the local GitHub server, median of {n} rounds (wall clock, peak RSS)")
table.header(28)
c = row("curl -T", curl_t, curl_r)
p = row("release run (github.release)", run_t, run_r)
o = row("release upload-asset", ours_t, ours_r)
r = row("  --transfer-only", raw_t, raw_r)
print(f"ratio ours / curl -T: {o / c:.2f}x publish, {r / c:.2f}x transfer only (target >= 0.95x); "
      f"peak RSS {statistics.median(ours_r) / 1024:.1f} MB (target <= 32 MB)")
print(f"ratio release run / curl -T: {p / c:.2f}x publish (target >= 0.95x); "
      f"peak RSS {statistics.median(run_r) / 1024:.1f} MB (target <= 32 MB)")
print(f"baseline: 'release --version' alone peaks at {idle / 1024:.1f} MB (Swift runtime, Foundation + ICU, libcurl, libarchive mapped)")
print("publish = preflight, draft, upload while a thread of its own hashes the file (SHA-256, ~0.5 s CPU/GB), verify, publish;")
print("release run = the same publish as a pipeline step: load, validate, plan, verify (preflight), run, report;")
print("transfer only = the same libcurl streaming upload without the digest, apples to apples with curl -T")
calls = rerun["api_calls"]; assets = len(rerun["assets"])
print(f"re-run of the published release: {rerun['bytes_uploaded']} bytes uploaded, {calls} API calls for {assets} asset(s) "
      f"(target 0 bytes, <= {3 * assets} calls)")
PY
