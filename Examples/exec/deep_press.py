#!/usr/bin/env python3
"""deep-press (FlexMonkey's DeepPressGestureRecognizer) as an exec: recognizer for TouchTrace.

    touchtrace sweep samples/ --recognizer 'exec:python3 Examples/exec/deep_press.py' \
        --vary threshold=0.1:0.9:0.1

It speaks the exec protocol (Sources/TouchExec/Documentation.docc/TheExecProtocol.md): a hello
line, then one answer per request, in order. Rule: on each delivered sample (phase `began` or
`moved`), force / max_force >= threshold with force != 0 is the action; the press then ends for
the contact. Parameter: threshold (normalized force, default 0.75).
"""
import json
import sys


def decide(request):
    threshold = request["params"].get("threshold", 0.75)
    for s in request["samples"]:
        if s["phase"] in ("began", "moved") and s["force"] != 0 and s["force"] / s["max_force"] >= threshold:
            return [{"t": s["t"], "stage": 1}]
    return []


def main():
    hello = json.loads(sys.stdin.readline())
    if hello.get("version") != 1:
        sys.exit(f"deep_press.py: unsupported protocol version {hello.get('version')}")
    print(json.dumps({"touchtrace": "exec", "version": 1, "name": "deep-press (Python)"}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        answer = {"seq": request["seq"], "actions": decide(request)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
