#!/usr/bin/env python3
"""Reference outputs of the causal filters (`ema/…`, `movmean/…`, `one-euro/…`), computed
independently of TouchTrace's Swift code, from the definitions:

- EMA: y0 = x0; yk = alpha*xk + (1 - alpha)*y(k-1).
- Trailing moving mean: yk = mean of x[max(0, k-w+1) .. k] (NumPy's mean of the slice).
- 1€ filter (Casiez, Roussel & Vogel, CHI 2012): alpha(fc, dt) = 1 / (1 + tau/dt), tau = 1/(2 pi fc);
  dx = (x - y_prev)/dt, dx_hat low-passed at dcutoff; cutoff = mincutoff + beta*|dx_hat|;
  y low-passed at that cutoff; dt from the samples' times (a step of 0 keeps the last output).
Every output is clipped to [0, max_force].

Usage (from the repository root): Scripts/make-filter-fixtures.py
It writes Tests/TouchRecognizersTests/Fixtures/causal-filters.json: for a few traces of samples/,
their times, forces and maximum force, and each filter's outputs. Numbers are written as strings
(Python's repr, shortest round-trip) so that the test reads them with Swift's correctly rounded
Double(String), not a JSON parser's own conversion.
"""
import csv
import json
import math

import numpy as np

SAMPLES = ["samples/synth-iphone6s.csv", "samples/synth-android.csv"]
OUT = "Tests/TouchRecognizersTests/Fixtures/causal-filters.json"
PER_FILE = 4

FILTERS = [
    ("ema", {"alpha": 0.3}),
    ("ema", {"alpha": 0.5}),
    ("movmean", {"window": 1}),
    ("movmean", {"window": 4}),
    ("one-euro", {"mincutoff": 1.0, "beta": 0.0, "dcutoff": 1.0}),
    ("one-euro", {"mincutoff": 2.0, "beta": 0.5, "dcutoff": 1.5}),
]


def ema(t, x, top, alpha):
    y = []
    for k, v in enumerate(x):
        y.append(v if k == 0 else alpha * v + (1 - alpha) * y[-1])
    return np.clip(y, 0, top)


def movmean(t, x, top, window):
    x = np.asarray(x)
    return np.clip([np.mean(x[max(0, k - window + 1): k + 1]) for k in range(len(x))], 0, top)


def one_euro(t, x, top, mincutoff, beta, dcutoff):
    def alpha(fc, dt):
        tau = 1.0 / (2 * math.pi * fc)
        return 1.0 / (1.0 + tau / dt)

    out, y, dx_hat, t_prev = [], None, 0.0, None
    for tk, xk in zip(t, x):
        if y is None:
            y = xk
        elif tk - t_prev > 0:
            dt = tk - t_prev
            dx_hat = dx_hat + alpha(dcutoff, dt) * ((xk - y) / dt - dx_hat)
            y = y + alpha(mincutoff + beta * abs(dx_hat), dt) * (xk - y)
        else:
            out.append(min(max(y, 0), top))
            continue
        y = min(max(y, 0), top)
        t_prev = tk
        out.append(y)
    return out


def main():
    cases = []
    for path in SAMPLES:
        traces = {}
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                traces.setdefault(row["trace"], []).append(row)
        for name in list(traces)[:PER_FILE]:
            rows = traces[name]
            t = [float(r["t"]) for r in rows]
            x = [float(r["force"]) for r in rows]
            top = float(rows[0]["max_force"])
            outputs = []
            for kind, params in FILTERS:
                fn = {"ema": ema, "movmean": movmean, "one-euro": one_euro}[kind]
                outputs.append({"filter": kind, "params": params, "y": [repr(float(v)) for v in fn(t, x, top, **params)]})
            cases.append({"trace": name, "t": [repr(v) for v in t], "force": [repr(v) for v in x],
                          "max_force": repr(top), "outputs": outputs})
    with open(OUT, "w") as f:
        json.dump({"generator": "Scripts/make-filter-fixtures.py", "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
