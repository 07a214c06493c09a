#!/usr/bin/env python3
"""Reference values for sums and shards, computed independently in Python.

- Tests/TouchSignalTests/Fixtures/exact-sum.json: lists of doubles of mixed magnitudes and signs
  (NumPy's PCG64 with fixed seeds) with `math.fsum` of each (the correctly rounded sum), which
  `ExactSumTests` compares with `ExactSum`, exactly, in the given order and reversed.
- Tests/TouchPartialsTests/Fixtures/shard-hash.json: trace ids with their 64-bit FNV-1a hash
  mixed by the SplitMix64 finalizer, written from the published constants, which `ShardTests`
  compares with `Shard.hash`.

Usage (from the repository root): Scripts/make-partial-fixtures.py
"""
import json
import math
import os

import numpy as np

SUM = "Tests/TouchSignalTests/Fixtures/exact-sum.json"
HASH = "Tests/TouchPartialsTests/Fixtures/shard-hash.json"
MASK = (1 << 64) - 1


def fnv1a_splitmix(text):
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 0x100000001B3) & MASK
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & MASK
    return h ^ (h >> 31)


def main():
    cases = []
    for seed in range(8):
        rng = np.random.Generator(np.random.PCG64(seed))
        n = int(rng.integers(2, 400))
        scale = 10.0 ** rng.integers(-12, 12, size=n)
        values = (rng.standard_normal(n) * scale).tolist()
        if seed % 2:
            # Latency-like values: sample-time differences, seconds.
            values = np.round(rng.uniform(-0.25, 0.25, n), 6).tolist()
        cases.append({"values": values, "sum": math.fsum(values)})
    cases.append({"values": [1e100, 1.0, -1e100], "sum": 1.0})
    cases.append({"values": [0.1] * 10, "sum": math.fsum([0.1] * 10)})
    cases.append({"values": [1.0, 1e-16, 1e-16], "sum": math.fsum([1.0, 1e-16, 1e-16])})
    os.makedirs(os.path.dirname(SUM), exist_ok=True)
    with open(SUM, "w") as f:
        json.dump({"cases": cases}, f, indent=1)
        f.write("\n")
    ids = ["a", "iphone6s-s7-0001", "u01-press-017", "evemu:pen", "ünïcode-id", "0", "x" * 100]
    ids += [f"trace-{k:05d}" for k in range(0, 2000, 97)]
    hashes = [{"id": i, "hash": str(fnv1a_splitmix(i))} for i in ids]
    os.makedirs(os.path.dirname(HASH), exist_ok=True)
    with open(HASH, "w") as f:
        json.dump({"ids": hashes}, f, indent=1)
        f.write("\n")


main()
