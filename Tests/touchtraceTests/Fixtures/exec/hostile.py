#!/usr/bin/env python3
"""An exec: recognizer that tests how TouchTrace contains its children, one way per mode (argv[1]):

  progress   answers the hello, then draws a progress bar with \\r and never ends a line
  flood      answers the hello, then writes bytes without a line break as fast as it can
  grandchild starts `sleep 300` in the background, writes its pid to argv[2], answers well
  fds        writes what each of its descriptors is (readlink /proc/self/fd/N) to argv[2], answers well
  plain      answers well (the tests list its environment with `env` before starting it)
  stray      omits the optional-looking "seq" and prints one stray answer-shaped line at request 2
"""
import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
sys.stdin.readline()
if mode == "grandchild":
    sleeper = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    with open(sys.argv[2], "w") as f:
        f.write(str(sleeper.pid))
if mode == "fds":
    lines = []
    for name in sorted(os.listdir("/proc/self/fd"), key=int):
        try:
            lines.append(name + " " + os.readlink("/proc/self/fd/" + name))
        except OSError:
            pass
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(lines) + "\n")
print(json.dumps({"touchtrace": "exec", "version": 1}), flush=True)
if mode == "progress":
    sys.stdin.readline()
    k = 0
    while True:
        sys.stdout.write("\rworking %3d%%" % (k % 100))
        sys.stdout.flush()
        k += 1
        time.sleep(0.01)
if mode == "flood":
    sys.stdin.readline()
    block = "=" * 65536
    while True:
        sys.stdout.write(block)
        sys.stdout.flush()
for n, line in enumerate(sys.stdin, start=1):
    request = json.loads(line)
    if mode == "stray":
        if n == 2:
            print(json.dumps({"actions": []}), flush=True)
        samples = request["samples"]
        # Acts at the touch-down of hard presses: a valid answer for any contact.
        hard = max(s["force"] for s in samples) > 0.5 * (request["max_force"] or 1)
        print(json.dumps({"actions": [{"t": samples[0]["t"]}] if hard else []}), flush=True)
    else:
        print(json.dumps({"seq": request["seq"], "actions": []}), flush=True)
