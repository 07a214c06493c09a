#!/usr/bin/env python3
"""A test recognizer for TouchTrace's exec protocol: it acts once per contact, `offset` seconds
after the sample of peak force (the traces it is tested on put their reference there), when that
peak reaches half the maximum force. Parameter: offset (seconds, default 0)."""
import json
import sys

hello = json.loads(sys.stdin.readline())
print(json.dumps({"touchtrace": "exec", "version": 1, "name": "offset-press"}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    offset = float(request["params"].get("offset", 0))
    samples = request["samples"]
    peak = max(samples, key=lambda s: s["force"])
    actions = []
    if peak["force"] >= 0.5 * peak["max_force"]:
        actions.append({"t": peak["t"] + offset, "stage": 1})
    sys.stdout.write(json.dumps({"seq": request["seq"], "actions": actions}) + "\n")
    sys.stdout.flush()
