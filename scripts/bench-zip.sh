#!/usr/bin/env bash
# portability: linux-only (measures the Linux package with GNU time, stat and find; bench-lib.sh stops elsewhere)
# Zip throughput: `release zip` (the archive.zip step's parallel writer) beside `zip -ryq -6` and
# `bsdtar --format zip` on the same generated tree, in the same run; then the seed's packaging (zip the
# dSYM, then zip the archive that contains the same dSYM) with `zip` and with `release zip --reuse`.
# Not part of `swift test`.
#
#   scripts/bench-zip.sh [SIZE_MB] [RUNS]      (defaults: 300 MB, 3 runs; prints medians)
#
# The tree (in a temporary folder, removed at the end) looks like an .xcarchive with dSYMs: big binary-like
# files that compress to roughly a third, ~3,000 small text files, and framework symlinks. Every tool reads
# it from the page cache (it is read once before timing) and writes into the same temporary folder.
# Needs: swift, python3 (3.9+), zip, bsdtar, awk (Debian: apt-get install zip libarchive-tools python3).
set -euo pipefail

size_mb=${1:-300}
runs=${2:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

for tool in python3 zip bsdtar swift; do
    command -v "$tool" >/dev/null 2>&1 || { echo "bench-zip: '$tool' is missing (apt-get install zip libarchive-tools python3)" >&2; exit 3; }
done

source "$here/scripts/bench-lib.sh"
release=$RELEASE_BIN

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-zip.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree"

echo "generating a ${size_mb} MB tree in $tree..." >&2
python3 - "$tree/App.xcarchive" "$size_mb" <<'PY'
import os, random, sys
root, size_mb = sys.argv[1], int(sys.argv[2])
rng = random.Random(4146)
target = size_mb << 20
written = 0

def binary_like(path, size):
    # 4 KiB blocks: 1 KiB of noise (like code and compressed sections) and 3 KiB of structured
    # records (like symbol tables and DWARF), so deflate -6 gives roughly 35-45 %.
    global written
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as out:
        left = size
        counter = rng.randrange(1 << 20)
        while left > 0:
            block = bytearray(rng.randbytes(1024))
            for _ in range(192):
                counter += rng.choice((1, 1, 2, 16))
                block += counter.to_bytes(4, "little") + b"\x00\x00\x00\x01" + rng.choice((b"_obj", b"_sym", b"_str", b"_dbg")) + b"\x00" * 4
            out.write(block[:left])
            left -= len(block)
    written += size

def text_like(path, size):
    global written
    os.makedirs(os.path.dirname(path), exist_ok=True)
    words = ["let", "var", "func", "return", "self", "view", "model", "import", "struct", "if", "else", "guard", "{", "}", "(", ")"]
    lines = []
    total = 0
    while total < size:
        line = "    " * rng.randrange(4) + " ".join(rng.choice(words) for _ in range(rng.randrange(3, 12))) + "\n"
        lines.append(line)
        total += len(line)
    data = "".join(lines).encode()[:size]
    with open(path, "wb") as out:
        out.write(data)
    written += len(data)

# About 85 % in big dSYM-like binaries, the rest in many small files.
big_total = target * 85 // 100
count = 0
while written < big_total:
    size = min(rng.randrange(8 << 20, 40 << 20), big_total - written)
    name = f"Module{count}"
    binary_like(f"{root}/dSYMs/{name}.framework.dSYM/Contents/Resources/DWARF/{name}", size)
    count += 1
files = 0
while written < target:
    group = files // 100
    text_like(f"{root}/Products/Applications/App.app/Resources/Group{group}/file{files}.strings", rng.randrange(1024, 64 << 10))
    files += 1
for index in range(50):
    fw = f"{root}/Products/Applications/App.app/Frameworks/Kit{index}.framework"
    os.makedirs(f"{fw}/Versions/A/Resources", exist_ok=True)
    binary_like(f"{fw}/Versions/A/Kit{index}", 4096)
    os.symlink("A", f"{fw}/Versions/Current")
    os.symlink(f"Versions/Current/Kit{index}", f"{fw}/Kit{index}")
    os.symlink("Versions/Current/Resources", f"{fw}/Resources")
print(f"{count} big files, {files} small files, 150 links", file=sys.stderr)
PY

# The seed's layout: the dSYMs beside the archive and inside it.
cp -a "$tree/App.xcarchive/dSYMs" "$tree/App.app.dSYM"
input_bytes=$(find "$tree/App.xcarchive" -type f -printf '%s\n' | awk '{ total += $1 } END { print total }')
cat $(find "$tree" -type f) > /dev/null  # warm the page cache for everyone

median() { sort -n | awk '{ values[NR] = $1 } END { print values[int((NR + 1) / 2)] }'; }

# Rows: name, the row it is compared with, and the command (run in the tree, writing $work/out.zip). The
# rows take turns within each round, so a slow spell on a shared machine hits them all alike.
rows=("release zip -6" "zip -ryq -6" "bsdtar --format zip" "seed: zip dSYM + archive" "release: dSYM + archive --reuse")
declare -A seconds sizes references commands times
references=([${rows[0]}]=${rows[1]} [${rows[1]}]=${rows[1]} [${rows[2]}]=${rows[1]} [${rows[3]}]=${rows[3]} [${rows[4]}]=${rows[3]})
commands[${rows[0]}]="'$release' zip App.xcarchive --output '$work/out.zip' --level 6"
commands[${rows[1]}]="zip -ryq -6 '$work/out.zip' App.xcarchive"
commands[${rows[2]}]="bsdtar --format zip --options zip:compression-level=6 -cf '$work/out.zip' App.xcarchive"
commands[${rows[3]}]="rm -f '$work/dsym.zip' && zip -ryq '$work/dsym.zip' App.app.dSYM && zip -ryq '$work/out.zip' App.xcarchive"
commands[${rows[4]}]="'$release' zip App.app.dSYM --output '$work/dsym.zip' && '$release' zip App.xcarchive --output '$work/out.zip' --reuse '$work/dsym.zip'"
for _ in $(seq "$runs"); do
    for name in "${rows[@]}"; do
        rm -f "$work/out.zip"
        start=$(date +%s.%N)
        (cd "$tree" && bash -c "${commands[$name]}") >/dev/null
        end=$(date +%s.%N)
        times[$name]+="$(awk -v start="$start" -v end="$end" 'BEGIN { print end - start }') "
        sizes[$name]=$(stat -c %s "$work/out.zip")
    done
done
for name in "${rows[@]}"; do
    seconds[$name]=$(printf '%s\n' ${times[$name]} | median)
done

{
    for name in "${rows[@]}"; do
        printf '%s\t%s\t%s\t%s\n' "$name" "${seconds[$name]}" "${sizes[$name]}" "${references[$name]}"
    done
} | awk -F '\t' -v input="$input_bytes" -v runs="$runs" '
    { name[NR] = $1; time[NR] = $2; size[NR] = $3; reference[NR] = $4; byName[$1] = $2 }
    END {
        mb = input / 1048576
        printf "\ninput: %.1f MB (the archive; the dSYM zip adds its dSYMs again for the packaging rows), %d runs each, medians\n", mb, runs
        printf "%-32s %9s %9s %11s %8s %10s  %s\n", "tool", "seconds", "MB/s", "output MB", "ratio", "speed-up", "vs"
        for (i = 1; i <= NR; i++)
            printf "%-32s %9.2f %9.1f %11.1f %7.1f%% %9.2fx  %s\n", name[i], time[i], mb / time[i], size[i] / 1048576, 100 * size[i] / input, byName[reference[i]] / time[i], reference[i]
    }'
