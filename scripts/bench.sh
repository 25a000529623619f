#!/usr/bin/env bash
# portability: linux-only (measures the Linux package with GNU time, stat and find; bench-lib.sh stops elsewhere)
# Every benchmark in one run: zip throughput and the seed's packaging (bench-zip.sh), start-up and the
# engine (bench-engine.sh), upload (bench-upload.sh), App Store Connect upload (bench-appstore.sh); then one table of medians and ratios against the
# tools users would pick instead, with the targets of the performance issue. Not part of `swift test`.
#
#   scripts/bench.sh                      # 300 MB zip tree, 1 GiB upload, 3 runs each (5 paired upload rounds)
#   ZIP_MB=200 UPLOAD_MB=512 RUNS=5 ENGINE_STEPS=1000 scripts/bench.sh
#
# Needs what the three scripts need: swift, python3, zip, bsdtar, curl, /usr/bin/time
# (Debian: apt-get install zip libarchive-tools curl time python3). Full outputs are kept in $OUT
# (default: a temporary folder, printed at the end).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
zip_mb=${ZIP_MB:-300}
upload_mb=${UPLOAD_MB:-1024}
runs=${RUNS:-3}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX")}
mkdir -p "$out"

source "$here/bench-lib.sh"
export RELEASE_BIN

echo "zip..." >&2
"$here/bench-zip.sh" "$zip_mb" "$runs" > "$out/zip.txt"
echo "engine..." >&2
"$here/bench-engine.sh" "${ENGINE_STEPS:-10000}" "$(( runs < 5 ? 5 : runs ))" > "$out/engine.txt"
echo "upload..." >&2
SIZE_MB=$upload_mb ROUNDS=${UPLOAD_ROUNDS:-$(( runs < 5 ? 5 : runs ))} "$here/bench-upload.sh" > "$out/upload.txt"
echo "App Store Connect upload..." >&2
SIZE_MB=$upload_mb ROUNDS=$runs "$here/bench-appstore.sh" > "$out/appstore.txt"

python3 - "$out" "${ENGINE_STEPS:-10000}" <<'PY'
import re, sys
out, steps = sys.argv[1], int(sys.argv[2])
zip_text = open(f"{out}/zip.txt").read()
engine = open(f"{out}/engine.txt").read()
upload = open(f"{out}/upload.txt").read()
appstore = open(f"{out}/appstore.txt").read()

def zip_row(name):
    for line in zip_text.splitlines():
        if line.startswith(name):
            parts = line[32:].split()
            return {"seconds": float(parts[0]), "mb": float(parts[2]), "speedup": float(parts[4].rstrip("x"))}
    raise SystemExit(f"bench: no row '{name}' in zip.txt")

def engine_ms(label):
    for line in engine.splitlines():
        if line.startswith(label):
            # The value is the first "N ms" after the label (labels may be longer than their column).
            match = re.search(r"(\d+(?:\.\d+)?) ms", line[len(label):])
            return float(match.group(1)) if match else None
    return None

rows = []
def add(metric, ours, peer, ratio, target, met):
    rows.append((metric, ours, peer, ratio, target, "yes" if met else "NO"))

ours, zip6 = zip_row("release zip -6"), zip_row("zip -ryq -6")
growth = ours["mb"] / zip6["mb"] - 1
add("zip throughput vs zip -ryq -6", f"{ours['seconds']:.2f} s", f"{zip6['seconds']:.2f} s",
    f"{ours['speedup']:.2f}x, size {growth * 100:+.1f}%", ">= 1.8x, <= +1%", ours["speedup"] >= 1.8 and growth <= 0.01)
bsd = zip_row("bsdtar --format zip")
add("  same, vs bsdtar --format zip (libarchive)", f"{ours['seconds']:.2f} s", f"{bsd['seconds']:.2f} s", f"{bsd['seconds'] / ours['seconds']:.2f}x", "", True)
seed, reuse = zip_row("seed: zip dSYM + archive"), zip_row("release: dSYM + archive --reuse")
add("seed packaging (dSYM zip + archive zip)", f"{reuse['seconds']:.2f} s", f"{seed['seconds']:.2f} s",
    f"{reuse['speedup']:.2f}x", ">= 3x", reuse["speedup"] >= 3)

version = engine_ms("release --version")
add("release --version", f"{version:.0f} ms", "", "", "<= 30 ms", version is not None and version <= 30)
plan = engine_ms("release plan Pipelines/distribute.json") or engine_ms("release plan Pipelines/demo.json")
add("release plan (shipped pipeline)", f"{plan:.0f} ms" if plan else "n/a", "", "", "<= 60 ms", plan is not None and plan <= 60)
dag = engine_ms("release run --jobs 2")
add(f"{steps:,}-step DAG plan + run", f"{dag:.0f} ms" if dag else "n/a", "", "", "<= 1000 ms" if steps == 10000 else "", dag is not None and dag <= 1000)

m = re.search(r"ratio ours / curl -T: ([\d.]+)x publish, ([\d.]+)x transfer only.*peak RSS ([\d.]+) MB", upload)
curl_rss = re.search(r"^curl -T.*?([\d.]+) MB\s+runs", upload, re.M)
if m:
    add("upload vs curl -T (publish)", f"{m.group(1)}x", "1.00x", f"{m.group(1)}x", ">= 0.95x", float(m.group(1)) >= 0.95)
    add("upload vs curl -T (transfer only)", f"{m.group(2)}x", "1.00x", f"{m.group(2)}x", "", True)
    add("upload peak RSS", f"{m.group(3)} MB", f"{curl_rss.group(1)} MB" if curl_rss else "", "", "<= 32 MB", float(m.group(3)) <= 32)
p = re.search(r"ratio release run / curl -T: ([\d.]+)x publish.*peak RSS ([\d.]+) MB", upload)
if p:
    add("release run publish vs curl -T", f"{p.group(1)}x", "1.00x", f"{p.group(1)}x", ">= 0.95x", float(p.group(1)) >= 0.95)
    add("release run publish peak RSS", f"{p.group(2)} MB", "", "", "<= 32 MB", float(p.group(2)) <= 32)
r = re.search(r"re-run of the published release: (\d+) bytes uploaded, (\d+) API calls for (\d+)", upload)
if r:
    add("re-run of a published release", f"{r.group(1)} bytes, {r.group(2)} calls", "", "", f"0 bytes, <= {3 * int(r.group(3))} calls",
        r.group(1) == "0" and int(r.group(2)) <= 3 * int(r.group(3)))

a = re.search(r"ratio ours / curl -T: ([\d.]+)x .*peak RSS ([\d.]+) MB", appstore)
if a:
    add("App Store Connect upload vs curl -T", f"{a.group(1)}x", "1.00x", f"{a.group(1)}x", ">= 0.9x", float(a.group(1)) >= 0.9)
    add("App Store Connect upload peak RSS", f"{a.group(2)} MB", "", "", "<= 32 MB", float(a.group(2)) <= 32)
z = re.search(r"re-run of the same upload sent (\d+) bytes", appstore)
if z:
    add("re-run of an App Store Connect upload", f"{z.group(1)} bytes", "", "", "0 bytes", z.group(1) == "0")

print(f"\n{'metric':<42} {'ours':>18} {'peer':>10} {'ratio':>22} {'target':>18}  met")
for row in rows:
    print(f"{row[0]:<42} {row[1]:>18} {row[2]:>10} {row[3]:>22} {row[4]:>18}  {row[5] if row[4] else ''}")
PY
echo "full outputs: $out" >&2
