#!/usr/bin/env python3
"""Per-trace outcome rows (TP, FP, FN, TN) computed independently of TouchTrace's scoring code.

For a few configurations on the bundled samples/, this script takes each trace's action times
from `touchtrace run` (the replay harness, tested in TouchRecognizers) and scores every trace
with the matching of Scripts/make-evaluation-fixtures.py (exhaustive one-to-one search inside the
inclusive window): a positive trace gives a TP row per matched action, an FP row per unmatched
action and an FN row per unmatched reference; a negative trace gives one FP row (its first
action) when it acted, else a TN row. Stage 2 of a two-stage recognizer is scored against pop
traces with the even-position press_at times.

Usage (from the repository root, after `swift build`):

    Scripts/make-outcome-fixtures.py .build/debug/touchtrace

It writes Tests/touchtraceTests/Fixtures/stats/outcomes.json, which `OutcomeTests` compares,
row for row, with `touchtrace sweep --outcomes`.
"""
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("evaluation", os.path.join(HERE, "make-evaluation-fixtures.py"))
evaluation = importlib.util.module_from_spec(spec)
spec.loader.exec_module(evaluation)

OUT = "Tests/touchtraceTests/Fixtures/stats/outcomes.json"
SAMPLES = evaluation.SAMPLES

# (name, recognizer for sweep, run arguments, settings, positives, tolerance)
CASES = [
    ("deep-press 0.35", "deep-press", ["--recognizer", "deep-press"], {"threshold": "0.35"}, ["press", "pop"], 0.25),
    ("deep-press 0.6, tolerance 0.1", "deep-press", ["--recognizer", "deep-press"], {"threshold": "0.6"}, ["press", "pop"], 0.1),
    ("peek-pop 0.3/0.6", "peek-pop", ["--recognizer", "peek-pop"], {"peekThreshold": "0.3", "popThreshold": "0.6"},
     ["press", "pop"], 0.25),
    ("shunkit 2.5, press only", "shunkit", ["--recognizer", "shunkit"], {"minimumForce": "2.5"}, ["press"], 0.25),
    ("long-press+deep-press", "long-press+deep-press",
     ["--recognizer", "long-press", "--require-failure-of", "deep-press"], {}, ["press", "pop"], 0.25),
]


def rows(events, truth, positives, tolerance, stage):
    out = []
    for trace, actions in events.items():
        intent, press, _ = truth[trace]
        if stage == 2:
            positive = intent == "pop"
            references = press[1::2]
        else:
            positive = intent in positives
            references = press[0::2] if intent == "pop" else press
        if not positive:
            out.append([trace, stage, "FP", actions[0], None] if actions else [trace, stage, "TN", None, None])
            continue
        pairs = evaluation.match(actions, references, tolerance)
        out += [[trace, stage, "TP", a, r] for a, r in pairs]
        left_actions = list(actions)
        left_references = list(references)
        for a, r in pairs:
            left_actions.remove(a)
            left_references.remove(r)
        out += [[trace, stage, "FP", a, None] for a in left_actions]
        out += [[trace, stage, "FN", None, r] for r in left_references]
    return out


def main():
    binary = sys.argv[1]
    truth = evaluation.truths()
    cases = []
    for name, recognizer, run_arguments, settings, positives, tolerance in CASES:
        command = [binary, "run", *SAMPLES, *run_arguments, "--format", "json", "--output", "-"]
        for key, value in settings.items():
            command += ["--set", f"{key}={value}"]
        run = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)
        # Unlabelled traces are not scored.
        results = [r for r in run["results"] if truth[r["trace"]][0]]
        stage1 = {r["trace"]: [a["t"] for a in r["actions"] if a["kind"] == "action"] for r in results}
        case_rows = rows(stage1, truth, positives, tolerance, 1)
        if recognizer == "peek-pop":
            stage2 = {r["trace"]: [a["t"] for a in r["actions"] if a["kind"] == "stage2"] for r in results}
            case_rows += rows(stage2, truth, positives, tolerance, 2)
        cases.append({
            "name": name, "recognizer": recognizer, "settings": settings, "positives": positives,
            "tolerance": tolerance, "rows": case_rows,
        })
    with open(OUT, "w") as out:
        json.dump({"generator": "Scripts/make-outcome-fixtures.py", "samples": SAMPLES, "cases": cases}, out, indent=0,
                  sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
