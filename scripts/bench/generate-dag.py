#!/usr/bin/env python3
"""Writes a pipeline of N no-op steps in a random DAG (each step needs up to 3 earlier ones)."""
import json
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 42
rng = random.Random(seed)
steps = []
for index in range(count):
    step = {"id": f"s{index}", "uses": "noop"}
    if index > 0:
        step["needs"] = sorted({f"s{rng.randrange(index)}" for _ in range(rng.randint(0, 3))})
    steps.append(step)
json.dump({"version": 1, "name": f"dag-{count}", "steps": steps}, sys.stdout, indent=1)
