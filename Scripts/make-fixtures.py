#!/usr/bin/env python3
"""Reference outputs for the TouchSignal tests, computed independently of GSL and of TouchSignal.

Run from the repository root:

    python3 Scripts/make-fixtures.py

It writes small JSON files to Tests/TouchSignalTests/Fixtures/. The Swift tests read them (they do
not need Python). Every reference comes from NumPy / SciPy or from a direct transcription of a
published definition:

- gaussian.json   GSL's documented Gaussian kernel G(k) = exp(-1/2 (alpha k / H)^2), |k| <= H,
                  normalized to sum 1, and its analytic first derivative -k/sigma^2 G(k)
                  (sigma = H / alpha), applied by numpy.convolve to the signal padded with
                  numpy.pad (mode "edge" = pad-value, "constant" = pad-zero).
- savgol.json     scipy.signal.savgol_filter (modes "interp", "nearest", "constant"; deriv 0, 1).
- median.json     scipy.signal.medfilt (pad-zero), scipy.ndimage.median_filter(mode="nearest")
                  (pad-value), numpy.median over the samples that exist (truncate), and the
                  recursive median y[i] = median(y[i-H..i-1], x[i..i+H]) written out directly.
- movstat.json    numpy.mean / numpy.median over centred and trailing windows (padded or shrunk).
- impulse.json    the Hampel rule written out with numpy.median and the MAD scale
                  1 / Phi^-1(3/4) (scipy.stats.norm.ppf), with and without a scale floor.
- ema.json        scipy.signal.lfilter([a], [1, a - 1], x, zi=[(1 - a) x0]).
- interp.json     numpy.interp on a uniform grid t0 + k / rate, and Steffen's (1990) monotone
                  cubic written out from the paper (eqs. 2-11; end slopes = end secants, the
                  paper's "simplest possibility").
- peaks.json      scipy.signal.find_peaks(x, prominence=p) indices and prominences.
- logistic.json   scipy.optimize.curve_fit (Levenberg-Marquardt) on a seeded noisy logistic ramp,
                  and the true parameters of a noiseless one.
- trapezoid.json  numpy.trapezoid for the force impulse.
- algal-peaks.json  per-touch scipy.signal.find_peaks counts (prominence 0.2 x the touch's peak) of
                  the real iPhone 6s recording in shared/realdata/algal-3dtouch, when that folder is
                  next to the repository (only derived numbers are stored, never the recording).
"""

import json
import warnings
import os

import numpy as np
import scipy
from scipy import ndimage, optimize, signal, stats

warnings.simplefilter("ignore", UserWarning)  # medfilt: "kernel_size exceeds volume extent" (zero padding is the point)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "TouchSignalTests", "Fixtures")


def write(name, payload):
    payload = {"generator": "Scripts/make-fixtures.py", "numpy": np.__version__, "scipy": scipy.__version__, **payload}
    # One line per top-level member and per case: compact, and still readable in a diff.
    compact = {"separators": (",", ":")}
    lines = []
    for key, value in payload.items():
        if key == "cases":
            body = ",\n".join("  " + json.dumps(case, **compact) for case in value)
            lines.append(f'"cases":[\n{body}\n]')
        else:
            lines.append(json.dumps(key) + ":" + json.dumps(value, **compact))
    with open(os.path.join(OUT, name), "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def floats(a):
    return [float(v) for v in a]


# ---------------------------------------------------------------------------------------------
# Inputs: a press-like force curve at 60 Hz (resting start, ramp, wobbling plateau, a one-sample
# spike, release), quantized to 1/60 like an iPhone 6s; and a short 5-sample tap.
rng = np.random.default_rng(20240611)
n = 48
t = np.arange(n) / 60.0
ramp = 3.0 / (1 + np.exp(-40 * (t - 0.25))) - 3.0 / (1 + np.exp(-30 * (t - 0.68)))
noisy = ramp + rng.normal(0, 0.04, n)
noisy[:8] = 0.0
press = np.clip(np.round(noisy * 60) / 60, 0, None)
press[30] += 1.5  # a spike
short = np.array([0.0, 0.5, 1.25, 0.75, 0.1])
SIGNALS = {"press": press, "short": short}


def pad(x, h, ends):
    return np.pad(x, h, mode="edge" if ends == "pad-value" else "constant")


# ---------------------------------------------------------------------------------------------
def gaussian_kernel(K, alpha, order):
    H = K // 2
    k = np.arange(-H, H + 1, dtype=float)
    if H == 0:
        return np.array([1.0 if order == 0 else 0.0])
    g = np.exp(-0.5 * (alpha * k / H) ** 2)
    g /= g.sum()
    if order == 1:
        sigma = H / alpha
        g = -k / sigma**2 * g
    return g


cases = []
for name, x in SIGNALS.items():
    for K, alpha in [(5, 2.0), (9, 3.0), (15, 2.5)]:
        for order in (0, 1):
            for ends in ("pad-value", "pad-zero"):
                H = K // 2
                y = np.convolve(pad(x, H, ends), gaussian_kernel(K, alpha, order), mode="valid")
                cases.append({"signal": name, "K": K, "alpha": alpha, "order": order, "ends": ends,
                              "input": floats(x), "expected": floats(y)})
write("gaussian.json", {"cases": cases})

# ---------------------------------------------------------------------------------------------
cases = []
mode_of = {"polynomial-fit": "interp", "pad-value": "nearest", "pad-zero": "constant"}
for K, order in [(5, 2), (7, 2), (9, 3), (11, 4), (7, 1)]:
    for deriv in (0, 1):
        for ends, mode in mode_of.items():
            delta = 1 / 60
            y = signal.savgol_filter(press, K, order, deriv=deriv, delta=delta, mode=mode, cval=0.0)
            cases.append({"signal": "press", "K": K, "order": order, "derivative": deriv, "ends": ends,
                          "delta": delta, "input": floats(press), "expected": floats(y)})
write("savgol.json", {"cases": cases})

# ---------------------------------------------------------------------------------------------
def recursive_median(x, K, ends):
    H = K // 2
    xp = pad(x, H, ends)  # xp[i + H] = x[i]
    y = list(xp[:H])      # outputs before the signal are the padding
    for i in range(len(x)):
        window = y[len(y) - H:] + list(xp[i + H: i + 2 * H + 1])
        y.append(float(np.median(window)))
    return np.array(y[H:])


cases = []
for name, x in SIGNALS.items():
    for K in (3, 5, 7):
        H = K // 2
        cases.append({"signal": name, "kind": "median", "K": K, "ends": "pad-zero", "input": floats(x),
                      "expected": floats(signal.medfilt(x, K))})
        cases.append({"signal": name, "kind": "median", "K": K, "ends": "pad-value", "input": floats(x),
                      "expected": floats(ndimage.median_filter(x, size=K, mode="nearest"))})
        trunc = [np.median(x[max(0, i - H): i + H + 1]) for i in range(len(x))]
        cases.append({"signal": name, "kind": "median", "K": K, "ends": "truncate", "input": floats(x),
                      "expected": floats(trunc)})
        for ends in ("pad-value", "pad-zero"):
            cases.append({"signal": name, "kind": "recursive-median", "K": K, "ends": ends, "input": floats(x),
                          "expected": floats(recursive_median(x, K, ends))})
write("median.json", {"cases": cases})

# ---------------------------------------------------------------------------------------------
cases = []
for name, x in SIGNALS.items():
    nx = len(x)
    for K in (4, 5, 8):
        for alignment in ("centered", "trailing"):
            Kc = K | 1 if alignment == "centered" else K
            before, after = (Kc // 2, Kc // 2) if alignment == "centered" else (Kc - 1, 0)
            for ends in ("pad-value", "pad-zero", "truncate"):
                for statistic, fn in (("mean", np.mean), ("median", np.median)):
                    out = []
                    for i in range(nx):
                        idx = range(i - before, i + after + 1)
                        if ends == "truncate":
                            w = [x[j] for j in idx if 0 <= j < nx]
                        elif ends == "pad-value":
                            w = [x[min(max(j, 0), nx - 1)] for j in idx]
                        else:
                            w = [x[j] if 0 <= j < nx else 0.0 for j in idx]
                        out.append(fn(w))
                    cases.append({"signal": name, "statistic": statistic, "K": K, "alignment": alignment,
                                  "ends": ends, "input": floats(x), "expected": floats(out)})
write("movstat.json", {"cases": cases})

# ---------------------------------------------------------------------------------------------
MAD_SCALE = 1 / stats.norm.ppf(0.75)
flat_spike = np.array([0.0] * 10 + [0.05, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0] + [0.3, 0.7, 1.2, 1.6, 1.9, 2.0, 2.1, 2.0, 4.0, 2.0, 1.9, 1.5])
cases = []
for name, x in {"press": press, "flat-spike": flat_spike}.items():
    nx = len(x)
    for K, thr, floor in [(5, 3.0, 0.0), (7, 2.0, 0.0), (7, 3.0, 1 / 60), (9, 3.0, 0.1)]:
        H = K // 2
        xp = pad(x, H, "pad-value")
        y = x.copy()
        outliers = []
        zero = 0
        for i in range(nx):
            w = xp[i: i + K]
            m = np.median(w)
            s = MAD_SCALE * np.median(np.abs(w - m))
            if s == 0:
                zero += 1
            if abs(x[i] - m) > thr * max(s, floor):
                y[i] = m
                outliers.append(i)
        cases.append({"signal": name, "K": K, "threshold": thr, "minimumScale": floor, "ends": "pad-value",
                      "input": floats(x), "expected": floats(y), "outliers": outliers, "zeroScaleWindows": zero})
write("impulse.json", {"mad_scale": MAD_SCALE, "cases": cases})

# ---------------------------------------------------------------------------------------------
cases = []
for a in (0.2, 0.5, 2 / (7 + 1)):
    y, _ = signal.lfilter([a], [1, a - 1], press, zi=[(1 - a) * press[0]])
    cases.append({"alpha": a, "input": floats(press), "expected": floats(y)})
write("ema.json", {"cases": cases})

# ---------------------------------------------------------------------------------------------
def steffen(xa, ya, xs):
    h = np.diff(xa)
    s = np.diff(ya) / h
    m = len(xa)
    d = np.empty(m)
    d[0] = s[0]
    d[-1] = s[-1]
    for i in range(1, m - 1):
        p = (s[i - 1] * h[i] + s[i] * h[i - 1]) / (h[i - 1] + h[i])
        d[i] = (np.sign(s[i - 1]) + np.sign(s[i])) * min(abs(s[i - 1]), abs(s[i]), 0.5 * abs(p))
    out = []
    for x in xs:
        i = min(np.searchsorted(xa, x, side="right") - 1, m - 2)
        dx = x - xa[i]
        a = (d[i] + d[i + 1] - 2 * s[i]) / h[i] ** 2
        b = (3 * s[i] - 2 * d[i] - d[i + 1]) / h[i]
        out.append(ya[i] + dx * (d[i] + dx * (b + dx * a)))
    return np.array(out)


irregular_t = np.cumsum(np.concatenate([[0.5], rng.uniform(0.010, 0.024, 30)]))
irregular_f = np.clip(2.5 / (1 + np.exp(-25 * (irregular_t - irregular_t[12]))) + rng.normal(0, 0.05, 31), 0, None)
cases = []
for rate in (240.0, 100.0):
    kmax = int(np.floor((irregular_t[-1] - irregular_t[0]) * rate + 1e-9))
    grid = irregular_t[0] + np.arange(kmax + 1) / rate
    cases.append({"method": "linear", "rate": rate, "t": floats(irregular_t), "force": floats(irregular_f),
                  "grid": floats(grid), "expected": floats(np.interp(grid, irregular_t, irregular_f))})
    cases.append({"method": "steffen", "rate": rate, "t": floats(irregular_t), "force": floats(irregular_f),
                  "grid": floats(grid), "expected": floats(steffen(irregular_t, irregular_f, grid))})
# Repeated timestamps: merged by the mean of each group, then interpolated.
dup_t = np.array([0.0, 0.01, 0.01, 0.025, 0.04, 0.04, 0.04, 0.05, 0.07])
dup_f = np.array([0.0, 0.2, 0.4, 0.9, 1.5, 1.2, 1.8, 2.0, 1.0])
ut, inverse = np.unique(dup_t, return_inverse=True)
uf = np.bincount(inverse, weights=dup_f) / np.bincount(inverse)
grid = ut[0] + np.arange(int(np.floor((ut[-1] - ut[0]) * 200 + 1e-9)) + 1) / 200
cases.append({"method": "linear", "rate": 200.0, "t": floats(dup_t), "force": floats(dup_f), "grid": floats(grid),
              "expected": floats(np.interp(grid, ut, uf)), "merged": int(len(dup_t) - len(ut))})
write("interp.json", {"cases": cases})

# ---------------------------------------------------------------------------------------------
plateau = np.array([0, 1, 2, 2, 2, 1, 1.5, 1.5, 0.5, 3, 3, 3, 3, 2.8, 3, 1, 0, 0.2, 0.1, 0.4, 0.4])
cases = []
for name, x in {"press": press, "plateau": plateau}.items():
    for p in (0.0, 0.05, 0.5, 1.0, 2.0):
        idx, props = signal.find_peaks(x, prominence=p)
        cases.append({"signal": name, "minimumProminence": p, "input": floats(x), "indices": [int(i) for i in idx],
                      "prominences": floats(props["prominences"])})
write("peaks.json", {"cases": cases})

# ---------------------------------------------------------------------------------------------
def logistic(t, b, a, m, k):
    return b + a / (1 + np.exp(-k * (t - m)))


truth = [0.05, 3.2, 0.21, 35.0]
lt = np.arange(40) / 120.0 + 0.1
clean = logistic(lt, *truth)
noisy_y = clean + np.random.default_rng(7).normal(0, 0.05, lt.size)
guess = [noisy_y[0], noisy_y.max() - noisy_y[0], lt[lt.size // 2], 10.0]
fit, _ = optimize.curve_fit(logistic, lt, noisy_y, p0=guess, method="lm", xtol=1e-15, ftol=1e-15, gtol=1e-15,
                            maxfev=100000)
rms = float(np.sqrt(np.mean((logistic(lt, *fit) - noisy_y) ** 2)))
write("logistic.json", {"truth": truth, "t": floats(lt), "clean": floats(clean), "noisy": floats(noisy_y),
                        "noise_sd": 0.05, "noise_seed": 7, "scipy_fit": floats(fit), "scipy_rms": rms})

# ---------------------------------------------------------------------------------------------
write("trapezoid.json", {"t": floats(irregular_t), "force": floats(irregular_f),
                         "impulse": float(np.trapezoid(irregular_f, irregular_t))})
# ---------------------------------------------------------------------------------------------
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RECORDING = "shared/realdata/algal-3dtouch/data-60secondsVariedForce/04317CA4-3AD0-4776-861E-78040D8BC3E2.json"
for parent in (os.path.dirname(ROOT), os.path.dirname(os.path.dirname(ROOT))):
    path = os.path.join(parent, RECORDING)
    if os.path.exists(path):
        with open(path) as f:
            values = np.array(json.load(f), dtype=float)
        starts = list(np.flatnonzero(values == 0)) + [len(values)]
        counts = []
        for a, b in zip(starts, starts[1:]):
            touch = values[a:b]
            peak = touch.max()
            counts.append(int(len(signal.find_peaks(touch, prominence=0.2 * peak)[0])) if peak > 0 else 0)
        write("algal-peaks.json", {"minimum_prominence_fraction": 0.2, "peak_counts": counts})
        break
else:
    print("shared/realdata not found: algal-peaks.json left as it is")

print("wrote", sorted(os.listdir(OUT)))
