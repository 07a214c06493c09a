#!/usr/bin/env python3
"""Reference values of Durkalski's clustered McNemar test (Durkalski, Palesch, Lipsitz and Rust,
2003), computed with NumPy and SciPy, for `ClusteredMcNemarTest`.

For clusters k with n_k paired decisions, b_k and c_k the proportions of cluster k's pairs that
only A, respectively only B, gets right:

    X2 = (sum_k (b_k - c_k))^2 / sum_k (b_k - c_k)^2,   p = scipy.stats.chi2.sf(X2, 1)

Cases: hand-made ones (one pair per cluster, where X2 is McNemar's uncorrected statistic; equal
discordance in every cluster; a cluster-level effect) and seeded random clustered data sets.

Usage (from the repository root):

    Scripts/make-clustered-mcnemar-fixtures.py

It writes Tests/TouchTuningTests/Fixtures/clustered-mcnemar.json, which `ClusteredMcNemarTests`
compares with the Swift implementation (to 1e-12 relative).
"""
import json

import numpy as np
from scipy.stats import chi2

OUT = "Tests/TouchTuningTests/Fixtures/clustered-mcnemar.json"


def durkalski(a, b, clusters):
    a = np.asarray(a, dtype=bool)
    b = np.asarray(b, dtype=bool)
    d = np.array([(np.sum(a[m] & ~b[m]) - np.sum(b[m] & ~a[m])) / len(m) for m in clusters if len(m) > 0])
    denominator = float(np.sum(d ** 2))
    if denominator == 0:
        return 0.0, 1.0
    x2 = float(np.sum(d)) ** 2 / denominator
    return x2, float(chi2.sf(x2, 1))


def case(name, a, b, clusters):
    x2, p = durkalski(a, b, clusters)
    return {"name": name, "a": [bool(x) for x in a], "b": [bool(x) for x in b],
            "clusters": [list(map(int, m)) for m in clusters], "statistic": x2, "p_value": p}


def main():
    cases = []
    # One pair per cluster: McNemar's uncorrected statistic, (b - c)^2 / (b + c) = (7 - 2)^2 / 9.
    a = [True] * 7 + [False] * 2 + [True] * 5 + [False] * 3
    b = [False] * 7 + [True] * 2 + [True] * 5 + [False] * 3
    cases.append(case("singletons", a, b, [[i] for i in range(len(a))]))
    # No discordance at all.
    cases.append(case("concordant", [True, False, True], [True, False, True], [[0, 1], [2]]))
    # The same effect in every cluster.
    a, b, clusters = [], [], []
    for k in range(5):
        start = len(a)
        a += [True, True, False, True]
        b += [False, True, False, True]
        clusters.append(list(range(start, len(a))))
    cases.append(case("same-in-every-cluster", a, b, clusters))
    # Seeded clustered data with cluster-level effects of both signs, and empty clusters.
    rng = np.random.default_rng(20031001)
    for trial in range(6):
        a, b, clusters = [], [], []
        for k in range(int(rng.integers(3, 25))):
            n = int(rng.integers(1, 30))
            base = rng.uniform(0.3, 0.9)
            shift = rng.normal(0.05 * (trial % 3), 0.15)
            pa, pb = np.clip(base + shift, 0, 1), np.clip(base - shift, 0, 1)
            start = len(a)
            a += list(rng.random(n) < pa)
            b += list(rng.random(n) < pb)
            clusters.append(list(range(start, len(a))))
        clusters.append([])
        cases.append(case(f"random-{trial}", a, b, clusters))
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(cases)} cases")


if __name__ == "__main__":
    main()
