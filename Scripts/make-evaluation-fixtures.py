#!/usr/bin/env python3
"""Reference scores for TouchEvaluation, computed independently of its Swift code.

For a few configurations on the bundled samples/, this script takes each trace's events from
`touchtrace run` (the replay harness, tested in TouchRecognizers) and scores them with its own
implementation of the definitions in Sources/TouchEvaluation/Documentation.docc/Metrics.md:
exhaustive one-to-one matching (most pairs, then least total distance) inside an inclusive window
with NumPy's round(x, 6) edge rule, per-event counts on positives and per-trace counts on
negatives, NumPy percentiles (linear, = R type 7), mean and sample standard deviation.

Usage (from the repository root, after `swift build`):

    Scripts/make-evaluation-fixtures.py .build/debug/touchtrace

It writes Tests/TouchEvaluationTests/Fixtures/samples-scores.json, which the test
`SamplesFixtureTests` compares with `touchtrace sweep`'s library results.
"""
import csv
import json
import subprocess
import sys

import numpy as np

SAMPLES = ["samples/synth-iphone6s.csv", "samples/synth-android.csv", "samples/synth-touchpad.csv"]
OUT = "Tests/TouchEvaluationTests/Fixtures/samples-scores.json"

# (name, recognizer, required, settings, positives, tolerance)
CASES = [
    ("deep-press 0.35", "deep-press", None, {"threshold": "0.35"}, ["press", "pop"], 0.25),
    ("deep-press 0.6, tolerance 0.1", "deep-press", None, {"threshold": "0.6"}, ["press", "pop"], 0.1),
    ("hysteresis 0.2/0.1", "hysteresis", None, {"pressThreshold": "0.2", "releaseThreshold": "0.1"}, ["press", "pop"], 0.25),
    ("peek-pop 0.3/0.6", "peek-pop", None, {"peekThreshold": "0.3", "popThreshold": "0.6"}, ["press", "pop"], 0.25),
    ("shunkit 2.5, press only", "shunkit", None, {"minimumForce": "2.5"}, ["press"], 0.25),
    ("pressure-js 0.5", "pressure-js", None, {"deepPressThreshold": "0.5"}, ["press", "pop"], 0.25),
    ("long-press+deep-press", "long-press", "deep-press", {}, ["press", "pop"], 0.25),
]


def truths():
    table = {}
    for path in SAMPLES:
        for row in csv.DictReader(open(path)):
            if row["trace"] not in table:
                press = [float(x) for x in row["press_at"].split(";")] if row["press_at"] else []
                table[row["trace"]] = (row["intent"], press, float(row["t"]))
    return table


def within(a, r, tolerance):
    return np.round(abs(a - r) - tolerance, 6) <= 0


def match(actions, references, tolerance):
    """The matching with the most pairs, then the least total |a - r|, by exhaustive search."""
    best = (0, 0.0, [])

    def visit(i, used, count, cost, pairs):
        nonlocal best
        if i == len(actions):
            if count > best[0] or (count == best[0] and cost < best[1]):
                best = (count, cost, list(pairs))
            return
        visit(i + 1, used, count, cost, pairs)
        for j, r in enumerate(references):
            if j not in used and within(actions[i], r, tolerance):
                visit(i + 1, used | {j}, count + 1, cost + abs(actions[i] - r), pairs + [(actions[i], r)])

    visit(0, frozenset(), 0, 0.0, [])
    return best[2]


def summary(values):
    v = np.array(sorted(values), dtype=float)
    def q(p):
        return float(np.percentile(v, p)) if len(v) else None
    return {
        "n": len(v), "mean": float(v.mean()) if len(v) else None,
        "sd": float(v.std(ddof=1)) if len(v) > 1 else None,
        "min": float(v[0]) if len(v) else None, "p50": q(50), "p90": q(90), "p95": q(95), "p99": q(99),
        "max": float(v[-1]) if len(v) else None, "early": int((v < 0).sum()),
    }


def score(events, truth, positives, tolerance, stage2):
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    fp_by_intent = {}
    latency, from_down = [], []
    for trace, actions in events.items():
        intent, press, touch_down = truth[trace]
        if stage2:
            positive = intent == "pop"
            references = press[1::2]
        else:
            positive = intent in positives
            references = press[0::2] if intent == "pop" else press
        if positive:
            pairs = match(actions, references, tolerance)
            counts["tp"] += len(pairs)
            counts["fn"] += len(references) - len(pairs)
            extra = len(actions) - len(pairs)
            latency += [a - r for a, r in pairs]
            from_down += [a - touch_down for a, r in pairs]
        else:
            extra = 1 if actions else 0
            counts["tn"] += 0 if actions else 1
        counts["fp"] += extra
        fp_by_intent[intent] = fp_by_intent.get(intent, 0) + extra
    return {**counts, "fp_by_intent": fp_by_intent, "latency": summary(latency), "latency_from_down": summary(from_down)}


def main():
    binary = sys.argv[1]
    truth = truths()
    cases = []
    for name, recognizer, required, settings, positives, tolerance in CASES:
        command = [binary, "run", *SAMPLES, "--recognizer", recognizer, "--format", "json", "--output", "-"]
        if required:
            command += ["--require-failure-of", required]
        for key, value in settings.items():
            command += ["--set", f"{key}={value}"]
        run = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
        actions = {r["trace"]: [a["t"] for a in r["actions"] if a["kind"] == "action"] for r in run["results"]}
        case = {
            "name": name, "recognizer": recognizer, "required": required, "settings": settings,
            "positives": positives, "tolerance": tolerance,
            "stage1": score(actions, truth, positives, tolerance, stage2=False),
        }
        if any(a["kind"] == "stage2" for r in run["results"] for a in r["actions"]) or recognizer == "peek-pop":
            stage2 = {r["trace"]: [a["t"] for a in r["actions"] if a["kind"] == "stage2"] for r in run["results"]}
            case["stage2"] = score(stage2, truth, positives, tolerance, stage2=True)
        if required:
            # action − held, 0 when the dependent acted without being held.
            acted = [r for r in run["results"] if r["action_t"] is not None]
            case["added_latency"] = summary([r["action_t"] - r["held_t"] if r["held_t"] is not None else 0.0 for r in acted])
            case["waited"] = sum(1 for r in acted if r["held_t"] is not None)
        flaps = [r["flaps"] for r in run["results"]]
        case["flaps"] = None if any(f is None for f in flaps) else sum(flaps)
        cases.append(case)
    with open(OUT, "w") as out:
        json.dump({"generator": "Scripts/make-evaluation-fixtures.py", "cases": cases}, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
