#!/usr/bin/env python3
# peek-pop as a TouchTrace exec recognizer.
# Written from the exec protocol page (Sources/TouchExec/Documentation.docc/TheExecProtocol.md)
# and the `peek-pop` rule text of `touchtrace recognizers --format md/json` alone;
# no TouchTrace source, examples or tests were read.  Standard library only.
#
# Rule: candidates are the touch-down sample and moved samples (index 1..n-2);
# peek (stage 1) at the first candidate with force/max >= peekThreshold,
# pop (stage 2) at the first candidate at or after the peek with force/max >= popThreshold.
import json
import math
import sys

DEFAULTS = {"peekThreshold": 0.2, "popThreshold": 0.75}


def param(params, name):
    v = params.get(name, DEFAULTS[name]) if isinstance(params, dict) else DEFAULTS[name]
    if v is None:          # the protocol sends nan as null
        return math.nan
    return float(v)


def recognize(req):
    params = req.get("params") or {}
    peek = param(params, "peekThreshold")
    pop = param(params, "popThreshold")
    samples = req.get("samples") or []
    n = len(samples)
    actions = []
    peeked = False
    for i, s in enumerate(samples):
        phase = s.get("phase")
        if i == 0:
            if phase != "began":
                continue
        elif i >= n - 1 or phase != "moved":
            continue
        mf = s.get("max_force")
        if mf is None:
            mf = req.get("max_force")
        if mf is None or not (mf > 0):
            continue                      # needs the maximum possible force
        f = s["force"] / mf
        if not peeked:
            if f >= peek:
                peeked = True
                actions.append({"t": s["t"], "stage": 1})
        if peeked and f >= pop:            # at or after the peek
            actions.append({"t": s["t"], "stage": 2})
            break                          # the pop ends the gesture
    return actions


def main():
    out = sys.stdout
    hello = sys.stdin.readline()
    if not hello:
        return 0
    try:
        h = json.loads(hello)
    except ValueError:
        h = None
    if not isinstance(h, dict) or h.get("touchtrace") != "exec" or h.get("version") != 1:
        sys.stderr.write("peek_pop_from_spec: unsupported hello: %r\n" % hello[:200])
        return 2
    out.write(json.dumps({"touchtrace": "exec", "version": 1, "stages": 2,
                          "name": "peek-pop (from spec)"}) + "\n")
    out.flush()
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        if not line.strip():
            continue
        req = json.loads(line)
        ans = {"seq": req["seq"], "id": req["id"], "touch": req["touch"],
               "actions": recognize(req)}
        out.write(json.dumps(ans, allow_nan=False) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
