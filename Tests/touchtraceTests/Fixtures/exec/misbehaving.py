#!/usr/bin/env python3
"""An exec: recognizer that breaks the protocol on purpose, one way per mode (argv[1]), for the
tests of TouchTrace's error handling. Well-behaved until its 3rd request, then:

  nohello  answers the hello with text that is not JSON
  version  answers the hello with another protocol version
  exit     writes a message to standard error and exits with status 3
  garbage  writes a line that is not JSON
  noactions writes an object without "actions"
  order    answers with the next request's seq
  silent   writes to standard error and stops answering
  early    acts before the touch-down
  late     acts 10 s after the lift-off
  stage2   acts at stage 2 without declaring two stages
"""
import json
import sys
import time

mode = sys.argv[1]
sys.stdin.readline()
if mode == "nohello":
    print("hello there", flush=True)
    sys.exit(0)
print(json.dumps({"touchtrace": "exec", "version": 2 if mode == "version" else 1}), flush=True)
for n, line in enumerate(sys.stdin, start=1):
    request = json.loads(line)
    seq, samples = request["seq"], request["samples"]
    answer = {"seq": seq, "actions": []}
    if n == 3:
        if mode == "exit":
            print("misbehaving.py: giving up on purpose", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "garbage":
            print("{not json", flush=True)
            continue
        if mode == "noactions":
            answer = {"seq": seq}
        if mode == "order":
            answer["seq"] = seq + 1
        if mode == "silent":
            print("misbehaving.py: thinking forever", file=sys.stderr, flush=True)
            time.sleep(60)
        if mode == "early":
            answer["actions"] = [{"t": samples[0]["t"] - 1}]
        if mode == "late":
            answer["actions"] = [{"t": samples[-1]["t"] + 10}]
        if mode == "stage2":
            answer["actions"] = [{"t": samples[0]["t"], "stage": 2}]
    print(json.dumps(answer), flush=True)
