#!/usr/bin/env bash
# portability: linux-only (measures the Linux package with GNU time, stat and find; bench-lib.sh stops elsewhere)
# App Store Connect upload benchmark: ours (`release run` of one appstore.upload step: find the app, create the
# upload, reserve the file, send the parts, commit with the SHA-256, wait until COMPLETE) against `curl -T` of the
# same bytes to the same local App Store Connect stand-in, several rounds, each on a fresh server. Prints throughput
# and peak RSS side by side, then a re-run that must send 0 bytes.
#
#   scripts/bench-appstore.sh                       # 1 GiB .ipa, 3 rounds, one 1 GiB part (as curl sends it)
#   SIZE_MB=256 ROUNDS=5 PART_MB=64 scripts/bench-appstore.sh
#   RELEASE_BIN=/path/to/release scripts/bench-appstore.sh
#
# curl gets its upload operation the way any client would: a JWT signed with the same key (openssl), the upload
# created and the file reserved through the API, then `curl -T` of the whole file with the operation's headers.
# Needs: curl, openssl, python3, /usr/bin/time (apt-get install time).
set -euo pipefail

SIZE_MB=${SIZE_MB:-1024}
ROUNDS=${ROUNDS:-3}
source "$(dirname "$0")/bench-lib.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-appstore.XXXXXX")
# The server keeps uploads in memory-backed /dev/shm when it can, so the disk's write-back does not decide the
# result: the benchmark measures the clients.
if [[ -d /dev/shm && -w /dev/shm ]]; then SHM=$(mktemp -d /dev/shm/bench-appstore.XXXXXX); else SHM="$WORK/servers"; fi
SERVER_PID=""
stop_server() { [[ -n "$SERVER_PID" ]] && kill -TERM "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }
cleanup() { stop_server; rm -rf "$WORK" "$SHM"; }
trap cleanup EXIT

KEY_ID=BENCH12345
ISSUER=57246542-96fe-1a63-e053-0824d011072a
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$WORK/key.p8" 2>/dev/null
openssl pkey -in "$WORK/key.p8" -pubout -out "$WORK/public.pem" 2>/dev/null
SIZE=$((SIZE_MB * 1024 * 1024))
PART=${PART_MB:+$((PART_MB * 1024 * 1024))}
PART=${PART:-$((SIZE + 1048576))}

# A real .ipa layout: Payload/Bench.app/Info.plist and a big stored (uncompressible) binary.
python3 - "$WORK/Bench.ipa" "$SIZE" <<'PY'
import os, sys, zipfile
path, size = sys.argv[1], int(sys.argv[2])
plist = b"""<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>com.example.bench</string>
<key>CFBundleShortVersionString</key><string>1.0.0</string>
<key>CFBundleVersion</key><string>7</string>
<key>CFBundleSupportedPlatforms</key><array><string>iPhoneOS</string></array>
</dict></plist>"""
with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
    archive.writestr("Payload/Bench.app/Info.plist", plist)
    with archive.open("Payload/Bench.app/Bench", "w", force_zip64=True) as out:
        left = size - 4096
        while left > 0:
            chunk = os.urandom(min(left, 1 << 22))
            out.write(chunk)
            left -= len(chunk)
PY
IPA="$WORK/Bench.ipa"
BYTES=$(stat -c %s "$IPA")
cat "$IPA" > /dev/null  # both tools read it from the page cache

cat > "$WORK/bench.json" <<'JSON'
{"version": 1, "steps": [
  {"id": "upload", "uses": "appstore.upload",
   "with": {"ipa": "Bench.ipa", "wait": "uploaded", "poll_interval": 0.05, "concurrency": 4,
            "key_id": "${env.APP_STORE_CONNECT_KEY_ID}", "issuer_id": "${env.APP_STORE_CONNECT_ISSUER_ID}",
            "key": "${secrets.APP_STORE_CONNECT_KEY}"}}
]}
JSON
export APP_STORE_CONNECT_KEY_ID=$KEY_ID APP_STORE_CONNECT_ISSUER_ID=$ISSUER
APP_STORE_CONNECT_KEY=$(cat "$WORK/key.p8")
export APP_STORE_CONNECT_KEY

start_server() { # storage
    "$RELEASE_BIN" appstore-server --storage "$1" --key-id "$KEY_ID" --issuer-id "$ISSUER" --public-key "$WORK/public.pem" \
        --part-size "$PART" --processing-polls 0 --auto-create > "$WORK/url" 2> "$WORK/server.log" &
    SERVER_PID=$!
    : > "$WORK/url.wait"
    for _ in $(seq 100); do [[ -s "$WORK/url" ]] && break; sleep 0.1; done
    API=$(head -1 "$WORK/url")
    [[ -n "$API" ]] || { echo "bench-appstore: the server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }
    export APP_STORE_CONNECT_API_URL=$API
}

# curl's upload operation: a token, the app, an upload of build 100N and its file, through the API.
reserve_for_curl() { # build
    python3 - "$API" "$WORK/key.p8" "$KEY_ID" "$ISSUER" "$BYTES" "$1" <<'PY'
import base64, json, subprocess, sys, time, urllib.request
api, key, kid, issuer, size, build = sys.argv[1:7]
b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
now = int(time.time())
signing_input = b64(json.dumps({"alg": "ES256", "kid": kid, "typ": "JWT"}).encode()) + "." + \
    b64(json.dumps({"iss": issuer, "iat": now, "exp": now + 600, "aud": "appstoreconnect-v1"}).encode())
der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=signing_input.encode(), capture_output=True, check=True).stdout
# DER ECDSA-Sig-Value (SEQUENCE of two INTEGERs) to JWS's raw r || s.
def integers(data):
    i = 2 if data[1] < 0x80 else 2 + (data[1] & 0x7f)
    out = []
    while i < len(data):
        length = data[i + 1]; out.append(int.from_bytes(data[i + 2:i + 2 + length], "big")); i += 2 + length
    return out
r, s = integers(der)
token = signing_input + "." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
def call(method, path, body=None):
    request = urllib.request.Request(api + path, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))
app = call("GET", "/v1/apps?filter%5BbundleId%5D=com.example.bench")["data"][0]["id"]
upload = call("POST", "/v1/buildUploads", {"data": {"type": "buildUploads",
    "attributes": {"cfBundleShortVersionString": "1.0.0", "cfBundleVersion": build, "platform": "IOS"},
    "relationships": {"app": {"data": {"type": "apps", "id": app}}}}})["data"]["id"]
file = call("POST", "/v1/buildUploadFiles", {"data": {"type": "buildUploadFiles",
    "attributes": {"fileName": "Bench.ipa", "fileSize": int(size), "uti": "com.apple.ipa", "assetType": "ASSET"},
    "relationships": {"buildUpload": {"data": {"type": "buildUploads", "id": upload}}}}})["data"]
operations = file["attributes"]["uploadOperations"]
if len(operations) != 1: sys.exit(f"bench-appstore: expected one operation for curl, got {len(operations)} (PART_MB smaller than the file)")
operation = operations[0]
print(operation["url"])
for header in operation["requestHeaders"]: print(f"{header['name']}: {header['value']}")
PY
}


declare -a OURS_T OURS_R CURL_T CURL_R
for round in $(seq "$ROUNDS"); do
    start_server "$SHM/round-$round"
    mapfile -t operation < <(reserve_for_curl "$((1000 + round))")
    headers=()
    for header in "${operation[@]:1}"; do headers+=(-H "$header"); done
    /usr/bin/time -v -o "$WORK/curl.time" curl -sf -o /dev/null -X PUT -T "$IPA" -H "Expect:" "${headers[@]}" "${operation[0]}"
    CURL_T+=("$(seconds "$WORK/curl.time")"); CURL_R+=("$(rss_kb "$WORK/curl.time")")
    find "$SHM/round-$round" -type f -size +1M -delete  # free the stored bytes; the records stay

    (cd "$WORK" && /usr/bin/time -v -o "$WORK/ours.time" "${WRAP[@]}" "$RELEASE_BIN" run bench.json --report "ours-$round.json" > /dev/null 2> "$WORK/ours-$round.log") \
        || { cat "$WORK/ours-$round.log" >&2; exit 1; }
    OURS_T+=("$(seconds "$WORK/ours.time")"); OURS_R+=("$(rss_kb "$WORK/ours.time")")
    if [[ $round -lt $ROUNDS ]]; then stop_server; rm -rf "$SHM/round-$round"; fi
done

# Re-run against the last server, which has the upload: nothing is sent.
(cd "$WORK" && "${WRAP[@]}" "$RELEASE_BIN" run bench.json --report rerun.json > /dev/null 2> "$WORK/rerun.log")

PYTHONPATH="$ROOT/scripts/bench" python3 - "$BYTES" "$WORK/rerun.json" "$WORK/ours-$ROUNDS.json" "${#OURS_T[@]}" "${OURS_T[@]}" "${OURS_R[@]}" "${CURL_T[@]}" "${CURL_R[@]}" <<'PY'
import json, statistics, sys
import table
size = int(sys.argv[1]); rerun = json.load(open(sys.argv[2])); last = json.load(open(sys.argv[3])); n = int(sys.argv[4])
values = sys.argv[5:]
ours_t = [float(v) for v in values[0:n]]; ours_r = [int(v) for v in values[n:2*n]]
curl_t = [float(v) for v in values[2*n:3*n]]; curl_r = [int(v) for v in values[3*n:4*n]]
mb = size / 1e6
def row(name, times, rss):
    return table.row(name, times, rss, mb, 34)
def outputs(report):
    return next(step for step in report["steps"] if step["id"] == "upload")["outputs"]
print(f"upload of a {mb:.0f} MB .ipa to the local App Store Connect stand-in, median of {n} rounds (wall clock, peak RSS)")
table.header(34)
c = row("curl -T (one PUT, no API calls)", curl_t, curl_r)
o = row("release run (appstore.upload)", ours_t, ours_r)
print(f"ratio ours / curl -T: {o / c:.2f}x (target >= 0.9x); peak RSS {statistics.median(ours_r) / 1024:.1f} MB (target <= 32 MB)")
print("ours = start-up, pipeline load, find app, create upload, reserve file, SHA-256 of the file, the parts, commit, wait for COMPLETE")
print(f"last round sent {int(outputs(last)['bytes_sent'])} bytes; re-run of the same upload sent {int(outputs(rerun)['bytes_sent'])} bytes (target 0)")
PY
