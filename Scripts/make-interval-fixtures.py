#!/usr/bin/env python3
"""Reference 95 % Wilson score intervals from SciPy, for the intervals in TouchTrace's reports.

Two parts:
- `pairs`: (k, n, low, high) over a grid of counts, edge cases included (k = 0, k = n, n = 1),
  from `scipy.stats.binomtest(k, n).proportion_ci(method="wilson")`.
- `sweep`: for `touchtrace sweep` of three recognizers on samples/, each configuration's
  precision, recall and FPR intervals computed by SciPy from the report's counts (TP, FP, FN,
  negative traces with an action, negative traces), stage 1 and stage 2.

Usage (from the repository root, after `swift build`):

    Scripts/make-interval-fixtures.py .build/debug/touchtrace

It writes Tests/TouchEvaluationTests/Fixtures/wilson-pairs.json, which `ProportionIntervalTests`
compares with `ProportionInterval.wilson`, and Tests/touchtraceTests/Fixtures/stats/wilson.json,
which `IntervalTests` compares with the `precision_ci`, `recall_ci`, `fpr_ci` fields and columns
of the sweep's JSON and CSV reports (both to 1e-9).
"""
import json
import subprocess
import sys

from scipy.stats import binomtest

OUT = "Tests/touchtraceTests/Fixtures/stats/wilson.json"
PAIRS = "Tests/TouchEvaluationTests/Fixtures/wilson-pairs.json"
SAMPLES = ["samples/synth-android.csv", "samples/synth-iphone6s.csv", "samples/synth-touchpad.csv"]
RECOGNIZERS = "deep-press,peek-pop,long-press"


def wilson(k, n):
    if n == 0:
        return None
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [float(ci.low), float(ci.high)]


def stage(s):
    return {
        "precision_ci": wilson(s["tp"], s["tp"] + s["fp"]),
        "recall_ci": wilson(s["tp"], s["tp"] + s["fn"]),
        "fpr_ci": wilson(s["fp_traces"], s["negative_traces"]),
    }


def main():
    binary = sys.argv[1]
    pairs = []
    for n in [1, 2, 3, 5, 6, 10, 20, 49, 98, 147, 183, 245, 1000, 100000]:
        for k in sorted({0, 1, 2, n // 3, n // 2, n - 1, n}):
            if 0 <= k <= n:
                low, high = wilson(k, n)
                pairs.append({"k": k, "n": n, "low": low, "high": high})
    command = [binary, "sweep", *SAMPLES, "--recognizer", RECOGNIZERS, "--format", "json", "--quiet"]
    report = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
    sweep = []
    for r in report["results"]:
        entry = {"recognizer": r["recognizer"], "params": r["params"], "stage1": stage(r)}
        if r["stage2"] is not None:
            entry["stage2"] = stage(r["stage2"])
        sweep.append(entry)
    with open(OUT, "w") as out:
        json.dump(
            {"generator": "Scripts/make-interval-fixtures.py", "samples": SAMPLES, "recognizers": RECOGNIZERS,
             "sweep": sweep},
            out, indent=1, sort_keys=True)
        out.write("\n")
    with open(PAIRS, "w") as out:
        json.dump({"generator": "Scripts/make-interval-fixtures.py", "pairs": pairs}, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
