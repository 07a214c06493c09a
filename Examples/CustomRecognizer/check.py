#!/usr/bin/env python3
"""An independent check of `example-first-crossing`, written from its rules alone: for every trace
of the CSV files given, the first delivered sample (the touch-down, a later sample whose force or
x/y changed, or the lift) with force / max_force >= threshold. Compares with what
`custom-touchtrace` reports: per-trace action times at the default threshold (`run`), and the
number of actions at each of the sweep's default thresholds (`sweep`). Exit 1 on a difference.

Usage: check.py CUSTOM_TOUCHTRACE FILE.csv...
"""
import csv
import io
import subprocess
import sys


def traces(paths):
    out = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                out.setdefault(row["trace"], []).append(row)
    return out


def first_crossing(rows, threshold):
    previous = None
    for i, row in enumerate(rows):
        force, maximum = float(row["force"]), float(row["max_force"])
        position = (row.get("x"), row.get("y"))
        last = i == len(rows) - 1
        delivered = (
            i == 0
            or (last and row["phase"] != "cancelled")
            or (previous is not None and (force != previous[0] or position != previous[1]))
        )
        if delivered and force / maximum >= threshold:
            return float(row["t"])
        previous = (force, position)
    return None


def main():
    tool, paths = sys.argv[1], sys.argv[2:]
    data = traces(paths)
    failures = 0
    run = subprocess.run([tool, "run", *paths, "--recognizer", "example-first-crossing", "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    reported = {r["trace"]: (float(r["action_t"]) if r["action_t"] else None) for r in csv.DictReader(io.StringIO(run))}
    for name, rows in data.items():
        expected = first_crossing(rows, 0.5)
        if reported.get(name, "missing") != expected:
            print(f"trace {name}: expected action at {expected}, custom-touchtrace says {reported.get(name)}")
            failures += 1
    sweep = subprocess.run([tool, "sweep", *paths, "--recognizer", "example-first-crossing", "--format", "csv"],
                           capture_output=True, text=True, check=True).stdout
    rows = list(csv.DictReader(io.StringIO(sweep)))
    for row in rows:
        threshold = float(row["param_threshold"])
        expected = sum(first_crossing(r, threshold) is not None for r in data.values())
        if int(row["actions"]) != expected:
            print(f"threshold {threshold}: expected {expected} actions, the sweep counts {row['actions']}")
            failures += 1
    print(f"check: {len(data)} traces, {len(rows)} thresholds, {failures} difference(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
