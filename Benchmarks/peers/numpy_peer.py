#!/usr/bin/env python3
"""The numpy peer of TouchTrace's benchmarks: the threshold recognizer and the threshold sweep
written the way a typical analyst writes them with numpy (a Python loop over traces, numpy
inside each trace), timed on the same data as the Swift and C code.

Usage: numpy_peer.py DATA.bin [--reps N] [--sweeps 1,64,1000]

DATA.bin is written by `bench-report` (BenchData.write): the bytes b"TTBENCH1", the number of
traces and samples (int64), offsets (int64, traces + 1), t (float64 seconds), force (float32).
Prints one JSON object on stdout: per task the median time per sample over the repetitions and
the results, which bench-report compares with its own (event digest; sweep counts exactly and
latencies to a relative 1e-9).
"""
import json
import sys
import time

import numpy as np

THRESHOLD = np.float32(1.0)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:8] != b"TTBENCH1":
        raise SystemExit(f"{path}: not a TouchTrace benchmark data file")
    traces, samples = np.frombuffer(raw, dtype="<i8", count=2, offset=8)
    pos = 24
    offsets = np.frombuffer(raw, dtype="<i8", count=traces + 1, offset=pos)
    pos += 8 * (traces + 1)
    t = np.frombuffer(raw, dtype="<f8", count=samples, offset=pos)
    pos += 8 * samples
    force = np.frombuffer(raw, dtype="<f4", count=samples, offset=pos)
    return offsets, t, force


def sweep_thresholds(k):
    # Same as SweepSize.thresholds: 0.1 + 6.4 j/(K-1) in float32; K = 1 is the threshold level.
    if k == 1:
        return np.array([THRESHOLD], dtype=np.float32)
    return np.array([0.1 + 6.4 * j / (k - 1) for j in range(k)], dtype=np.float32)


def threshold_recognizer(offsets, force):
    """Per trace, the index of the first sample above the threshold (the typical per-trace code)."""
    events = []
    for k in range(len(offsets) - 1):
        s, e = offsets[k], offsets[k + 1]
        above = force[s:e] > THRESHOLD
        i = above.argmax()
        if above[i]:
            events.append((k, s + i))
    return events


def sweep(offsets, t, force, thresholds):
    """Per trace: running maximum, then each threshold's first crossing by searchsorted."""
    count = np.zeros(len(thresholds), dtype=np.int64)
    latency = np.zeros(len(thresholds), dtype=np.float64)
    for k in range(len(offsets) - 1):
        s, e = offsets[k], offsets[k + 1]
        running = np.maximum.accumulate(force[s:e])
        first = np.searchsorted(running, thresholds, side="right")
        crossed = first < (e - s)
        count += crossed
        tt = t[s:e]
        latency += np.where(crossed, tt[np.minimum(first, e - s - 1)] - tt[0], 0.0)
    return count, latency


def digest(events):
    """FNV-1a over (trace, kind 0, index), as EventDigest in Swift."""
    h = 0xCBF29CE484222325
    mask = (1 << 64) - 1
    for k, i in events:
        for v in (int(k), 0, int(i)):
            h = ((h ^ v) * 0x100000001B3) & mask
    return format(h, "x")


def timed(reps, fn, samples):
    runs, result = [], None
    for _ in range(reps):
        start = time.perf_counter()
        result = fn()
        runs.append((time.perf_counter() - start) * 1e9 / samples)
    return float(np.median(runs)), runs, result


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    path, reps, sizes = args[0], 3, [1, 64, 1000]
    if "--reps" in args:
        reps = int(args[args.index("--reps") + 1])
    if "--sweeps" in args:
        sizes = [int(x) for x in args[args.index("--sweeps") + 1].split(",")]
    offsets, t, force = load(path)
    samples = len(t)
    out = {"samples": samples, "traces": len(offsets) - 1, "reps": reps, "numpy": np.__version__}
    med, runs, events = timed(reps, lambda: threshold_recognizer(offsets, force), samples)
    out["threshold"] = {"ns_per_sample": med, "runs": runs, "events": len(events), "digest": digest(events)}
    out["sweep"] = {}
    for k in sizes:
        th = sweep_thresholds(k)
        med, runs, (count, latency) = timed(reps, lambda: sweep(offsets, t, force, th), samples)
        out["sweep"][str(k)] = {
            "ns_per_sample": med, "runs": runs,
            "count": count.tolist(), "latency": latency.tolist(),
        }
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
