#!/usr/bin/env python3
"""Checks `ema/deep-press` against `deep-press` on traces EMA-filtered beforehand, by this script.

The causal filter in front of a recognizer must be exactly the filter applied to the recording
first: this script filters the force of every trace of the given CSV files itself
(y0 = x0; yk = alpha*xk + (1 - alpha)*y(k-1), restarted per trace, alpha = 0.5), writes the
filtered files, and compares `touchtrace sweep --recognizer ema/deep-press` on the originals
with `touchtrace sweep --recognizer deep-press` on the filtered copies over a threshold grid:
every count and latency statistic must be equal.

Usage: Scripts/check-filter-equivalence.py TOUCHTRACE FILE.csv...
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

ALPHA = 0.5
GRID = "0.1:0.9:0.05"
FIELDS = ["tp", "fp", "tn", "fn", "actions", "fp_traces", "flaps", "latency", "latency_from_down", "fp_by_intent"]


def prefilter(source, target):
    with open(source, newline="") as f:
        reader = csv.DictReader(f)
        columns = reader.fieldnames
        rows = list(reader)
    previous = {}
    for row in rows:
        x = float(row["force"])
        y = x if row["trace"] not in previous else ALPHA * x + (1 - ALPHA) * previous[row["trace"]]
        y = min(max(y, 0.0), float(row["max_force"]))
        previous[row["trace"]] = y
        row["force"] = repr(y)
    with open(target, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def sweep(tool, files, recognizer, extra):
    out = subprocess.run(
        [tool, "sweep", *files, "--recognizer", recognizer, "--vary", f"threshold={GRID}", *extra, "--format", "json"],
        check=True, capture_output=True, text=True).stdout
    return {r["params"]["threshold"]: r for r in json.loads(out)["results"]}


def main():
    tool, files = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        filtered = []
        for path in files:
            target = os.path.join(tmp, os.path.basename(path))
            prefilter(path, target)
            filtered.append(target)
        online = sweep(tool, files, "ema/deep-press", ["--set", f"ema.alpha={ALPHA}"])
        offline = sweep(tool, filtered, "deep-press", [])
    assert online.keys() == offline.keys() and online, "the two sweeps have different grids"
    failures = 0
    for threshold in sorted(online):
        a, b = online[threshold], offline[threshold]
        for field in FIELDS:
            if a[field] != b[field]:
                failures += 1
                print(f"threshold {threshold}: {field} differs: ema/deep-press {a[field]} vs pre-filtered {b[field]}")
    total = sum(r["tp"] + r["fp"] + r["fn"] for r in online.values())
    print(f"ema/deep-press (alpha {ALPHA}) vs deep-press on pre-filtered traces: {len(online)} thresholds, "
          f"{total} scored events, {failures} differences")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
