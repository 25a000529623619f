#!/usr/bin/env bash
# Records which of the packaged binary's functions everyday commands run, into Packaging/release.order, which
# scripts/build-static.sh gives lld so those functions sit next to each other. The kernel maps code in blocks of
# 64 KB or more around each function that runs: scattered over 23 MB of code, a 1 GB upload's few thousand
# functions kept 17 MB of it resident; together, about 8 MB. Run it after changes that move much code (a stale
# entry is only skipped: the build stays right, the layout gets less tight). Not part of the build or the tests.
#
#   scripts/order-file.sh                       # builds the static binary first (in .build/static)
#   RELEASE_BIN=PATH scripts/order-file.sh      # an unstripped build of scripts/build-static.sh
#
# The commands, each under valgrind's callgrind: --version, help, steps, schema, validate and plan of every
# shipped pipeline, `version` of the demo project, `zip`, and the two upload benchmarks at 16 MB (a GitHub publish
# of a file with upload-asset and with a `release run` of a one-step github.release pipeline, a `release run` of
# appstore.upload against the local App Store Connect stand-in).
# Needs valgrind (apt-get install valgrind) and what bench-upload.sh and bench-appstore.sh need.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
command -v valgrind >/dev/null || { echo "order-file: valgrind is missing (apt-get install valgrind)" >&2; exit 3; }
work=$(mktemp -d "${TMPDIR:-/tmp}/order-file.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Every run below, and the benchmarks' client runs, go through callgrind (bench-lib.sh sets WRAP from this).
export RELEASE_WRAP="valgrind --tool=callgrind --demangle=no -q --callgrind-out-file=$work/callgrind.%p"
source "$here/bench-lib.sh"
# valgrind does not read the DWARF swiftc writes; the symbol table is all it needs.
strip --strip-debug -o "$work/release" "$RELEASE_BIN"
binary=$work/release

cd "$root"
"${WRAP[@]}" "$binary" --version > /dev/null
"${WRAP[@]}" "$binary" --help > /dev/null
"${WRAP[@]}" "$binary" steps > /dev/null
"${WRAP[@]}" "$binary" schema > /dev/null
for pipeline in Pipelines/*.json; do
    "${WRAP[@]}" "$binary" validate "$pipeline" > /dev/null 2>&1 || true
    "${WRAP[@]}" "$binary" plan "$pipeline" > /dev/null 2>&1 || true
done
(cd Fixtures/DemoApp && "${WRAP[@]}" "$binary" version > /dev/null 2>&1 || true)
"${WRAP[@]}" "$binary" zip Fixtures/DemoApp --output "$work/demo.zip" > /dev/null
SIZE_MB=16 ROUNDS=1 RELEASE_BIN=$binary "$here/bench-upload.sh" > /dev/null
SIZE_MB=16 ROUNDS=1 RELEASE_BIN=$binary "$here/bench-appstore.sh" > /dev/null

# Every function callgrind saw run inside the binary (callgrind's own "'N" recursion suffixes dropped), by name.
python3 - "$binary" "$root/Packaging/release.order" "$work"/callgrind.* <<'PY'
import bisect, os, re, subprocess, sys
binary, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
# For each function, the runs it ran in. Functions that ran in the same runs go together, the ones every command
# runs (start-up) first: a command then touches a few contiguous stretches, not every page of the list.
runs = {}
for index, path in enumerate(sorted(files, key=lambda path: int(path.rsplit(".", 1)[1]))):
    objects, functions, current = {}, {}, None
    for line in open(path, errors="replace"):
        key, _, rest = line.partition("=")
        if key not in ("ob", "fn", "cob", "cfn"):
            continue
        match = re.match(r"\((\d+)\)(?: (.*))?", rest.strip())
        if not match:
            continue
        table = objects if key in ("ob", "cob") else functions
        if match.group(2):
            table[match.group(1)] = match.group(2)
        if key == "ob":
            current = objects[match.group(1)]
        elif key == "fn" and current == binary:
            runs.setdefault(re.sub(r"'\d+$", "", functions[match.group(1)]), set()).add(index)
# Where callgrind shows an address instead of a name, the address is inside a named function (an outlined part of
# it) or in a function with no symbol at all (release-layout.ld gathers those). The address is the symbol table's
# already: valgrind loads the position-independent binary at 0x108000, but callgrind names an unnamed function by its
# offset in the object (as for the shared libraries' 0x1060), not by where it was loaded. Taking 0x108000 off, as
# this did, named about 20 functions per run that never ran (the regex compiler among them).
symbols = []
for line in subprocess.run(["nm", "-n", "-S", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 4 and fields[2] in "tTwW":
        symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
starts = [start for start, _, _ in symbols]
for name in [name for name in runs if name.startswith("0x")]:
    seen, address = runs.pop(name), int(name, 16)
    index = bisect.bisect_right(starts, address) - 1
    if index >= 0 and address < symbols[index][0] + symbols[index][1]:
        runs.setdefault(symbols[index][2], set()).update(seen)
names = sorted(runs, key=lambda name: (-len(runs[name]), sorted(runs[name]), name))
if len(names) < 1000:
    sys.exit(f"order-file: only {len(names)} functions recorded; is {binary} unstripped?")
with open(out + ".tmp", "w") as file:
    file.write("\n".join(names) + "\n")
os.replace(out + ".tmp", out)
print(f"order-file: {len(names)} functions from {len(files)} runs -> {out}")
PY
