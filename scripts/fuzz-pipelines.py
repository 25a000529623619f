#!/usr/bin/env python3
"""Generates mutated pipeline files from the shipped ones and checks that `release validate` answers each with
exit 0 or 65 within a time limit, and that every error it prints has a location (file:line:col).

Mutations: byte flips, truncations, inserted bytes, type swaps, huge and odd numbers, deep nesting, long names,
minified layout, duplicated members, control characters and invalid UTF-8. Seeded, so a failure can be replayed:

    scripts/fuzz-pipelines.py --count 10000 --seed 1 [--keep DIR] [--release .build/debug/release]

Prints one line per failure (the file is kept under --keep) and a summary with the figures.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ERROR_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error: ")


def seeds():
    paths = sorted(glob.glob(os.path.join(ROOT, "Pipelines", "*.json"))
                   + glob.glob(os.path.join(ROOT, "Fixtures", "Pipelines", "*", "*.json")))
    return [(p, open(p, "rb").read()) for p in paths]


def walk(value, rng, fn, depth=0):
    """Applies fn to a random node of a decoded JSON value; returns the new value."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        value = dict(value)
        value[key] = walk(value[key], rng, fn, depth + 1)
        return value
    if isinstance(value, list) and value and rng.random() < 0.7:
        index = rng.randrange(len(value))
        value = list(value)
        value[index] = walk(value[index], rng, fn, depth + 1)
        return value
    return fn(value, rng)


ODD_NUMBERS = [1e19, -1e19, 1e308, 9223372036854775807, 9223372036854775808, -0.0, 1.5, 3e-324, 1 << 70]


def swap_type(value, rng):
    return rng.choice([None, True, 0, -1, rng.choice(ODD_NUMBERS), "", "x" * rng.randrange(1, 50), [], {}, [value], {"k": value}])


def long_name(value, rng):
    name = rng.choice(["a", "${", "step-", "\u00e9", "\u0000"]) * rng.randrange(1000, 70000)
    if isinstance(value, dict):
        value = dict(value)
        value[name] = 1
        return value
    return name if rng.random() < 0.5 else "${" + name + "}"


def deep(value, rng):
    depth = rng.randrange(100, 60000)
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    return {"__raw__": opener * depth + "1" + closer * depth}


def structural(data, rng):
    try:
        value = json.loads(data)
    except ValueError:
        return None
    kind = rng.randrange(6)
    if kind == 0:
        value = walk(value, rng, swap_type)
    elif kind == 1:
        value = walk(value, rng, long_name)
    elif kind == 2:
        value = walk(value, rng, lambda v, r: r.choice(ODD_NUMBERS))
    elif kind == 3:
        value = walk(value, rng, deep)
    elif kind == 4 and isinstance(value, dict) and isinstance(value.get("steps"), list) and value["steps"]:
        steps = value["steps"]
        value["steps"] = steps + [rng.choice(steps) for _ in range(rng.randrange(1, 5))]  # duplicate ids
        if rng.random() < 0.3:  # a long needs chain (one line when minified)
            value["steps"] = [{"id": f"s{i}", "uses": "noop", "needs": [f"s{i - 1}"] if i else []} for i in range(rng.randrange(1000, 20000))]
    else:
        value = walk(value, rng, lambda v, r: r.choice(["${steps.x.outputs.y}", "${secrets.}", "${now:", "${env.A:-", "\u001b[31m", "\udcff"]))
    text = json.dumps(value, separators=(",", ":") if rng.random() < 0.5 else (", ", ": "), ensure_ascii=rng.random() < 0.5)
    text = re.sub(r'\{"__raw__":\s*"(.*?)"\}', lambda m: json.loads('"' + m.group(1) + '"'), text)
    return text.encode("utf-8", "surrogatepass")


def bytewise(data, rng):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        kind = rng.randrange(5)
        if not data:
            break
        position = rng.randrange(len(data))
        if kind == 0:
            data[position] ^= 1 << rng.randrange(8)
        elif kind == 1:
            del data[position:]
        elif kind == 2:
            data[position:position] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        elif kind == 3:
            data[position:position] = rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x00", b"\x1b[2J", b"\\u0000"])
        else:
            end = min(len(data), position + rng.randrange(1, 200))
            data[position:position] = data[position:end]
    return bytes(data)


def mutate(data, rng):
    if rng.random() < 0.5:
        result = structural(data, rng)
        if result is not None:
            return result
    return bytewise(data, rng)


def check(release, path, limit):
    started = time.monotonic()
    try:
        done = subprocess.run([release, "validate", path], capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return f"took over {limit:g} s", time.monotonic() - started
    elapsed = time.monotonic() - started
    if done.returncode not in (0, 65):
        return f"exit {done.returncode} (signal {-done.returncode})" if done.returncode < 0 else f"exit {done.returncode}", elapsed
    stderr = done.stderr.decode("utf-8", "replace")
    for line in stderr.splitlines():
        if " error: " in line and not line.startswith(path + ": error: no such file") and not ERROR_LINE.match(line):
            return f"error without a location: {line[:200]}", elapsed
    if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", stderr.replace("\x1b", "\x00") if False else stderr):
        return "control character in the output", elapsed
    if len(stderr) > 2_000_000:
        return f"{len(stderr)} bytes of output", elapsed
    return None, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=2.0, help="seconds allowed per file")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep", help="folder for the files that failed (default: a temporary folder)")
    parser.add_argument("--release", default=os.path.join(ROOT, ".build", "debug", "release"))
    args = parser.parse_args()

    rng = random.Random(args.seed)
    corpus = seeds()
    work = tempfile.mkdtemp(prefix="release-fuzz-")
    keep = args.keep or os.path.join(work, "failures")
    os.makedirs(keep, exist_ok=True)
    files = []
    for index in range(args.count):
        name, data = rng.choice(corpus)
        path = os.path.join(work, f"{index:05d}-{os.path.basename(name)}")
        with open(path, "wb") as handle:
            handle.write(mutate(data, rng))
        files.append(path)

    failures, slowest, exits = [], (0.0, ""), {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, (problem, elapsed) in zip(files, pool.map(lambda p: check(args.release, p, args.limit), files)):
            if elapsed > slowest[0]:
                slowest = (elapsed, path)
            if problem:
                failures.append((path, problem))
                os.replace(path, os.path.join(keep, os.path.basename(path)))
                print(f"FAIL {os.path.basename(path)}: {problem}")
    print(f"fuzz-pipelines: {args.count} files from {len(corpus)} seeds (seed {args.seed}), "
          f"{args.count - len(failures)} answered with exit 0 or 65 and located errors within {args.limit:g} s; "
          f"slowest {slowest[0]:.2f} s ({os.path.basename(slowest[1])}); failures kept in {keep}")
    print(f"{args.count - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
