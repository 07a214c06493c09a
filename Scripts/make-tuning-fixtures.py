#!/usr/bin/env python3
"""Reference values for TouchSignal's random numbers and distributions, computed without GSL.

Run from the repository root:

    python3 Scripts/make-tuning-fixtures.py

It writes Tests/TouchSignalTests/Fixtures/random.json. The references:

- mt19937     NumPy's MT19937 seeded the legacy way (init_genrand, the seeding GSL's
              gsl_rng_mt19937 uses: gsl_rng_set(r, s) with s = 0 replaced by 4357); a seed of 2^32
              or more through init_by_array with the key [low 32 bits, high 32 bits]. From its raw
              32-bit outputs x: uniform = x / 2^32 (gsl_rng_uniform); uniform_int(n) = the first
              x // (0xffffffff // n) below n (GSL's rejection rule in gsl_rng_uniform_int);
              sample = k independent uniform_int(n) draws (gsl_ran_sample with replacement);
              shuffle = for i = n-1 down to 1, swap i with uniform_int(i + 1) (gsl_ran_shuffle).
- binomial    scipy.stats.binom.cdf and .sf (P(X <= k), P(X > k)).
- chisquare   scipy.stats.chi2.cdf and .sf.
"""

import json
import os

import numpy as np
from scipy import stats


class Stream:
    def __init__(self, seed):
        self.bg = np.random.MT19937(0)
        if seed < 2**32:
            self.bg._legacy_seeding(4357 if seed == 0 else seed)
        else:
            # A seed of 2^32 or more: init_by_array with the key [low 32 bits, high 32 bits].
            key = np.array([seed & 0xFFFFFFFF, seed >> 32], dtype=np.uint32)
            self.bg._legacy_seeding(key)

    def raw(self):
        return int(self.bg.random_raw())

    def uniform(self):
        return self.raw() / 4294967296.0

    def uniform_int(self, n):
        scale = 0xFFFFFFFF // n
        while True:
            k = self.raw() // scale
            if k < n:
                return k

    def sample(self, k, n):
        return [self.uniform_int(n) for _ in range(k)]

    def shuffle(self, values):
        values = list(values)
        for i in range(len(values) - 1, 0, -1):
            j = self.uniform_int(i + 1)
            values[i], values[j] = values[j], values[i]
        return values


def random_cases():
    cases = []
    for seed in [1, 0, 4357, 42, 4294967295, 4294967296, 18446744073709551615, 12345678901234567]:
        s = Stream(seed)
        uniform = [s.uniform() for _ in range(5)]
        ints = {str(n): [s.uniform_int(n) for _ in range(6)] for n in [1, 2, 7, 343, 1000003]}
        sample = s.sample(12, 343)
        shuffle = s.shuffle(range(10))
        cases.append({"seed": seed, "uniform": uniform, "uniform_int": ints, "sample": sample, "shuffle": shuffle})
    return cases


def binomial_cases():
    out = []
    for n, p in [(12, 0.5), (24, 0.5), (1, 0.5), (30, 0.25), (200, 0.5), (1000, 0.01)]:
        for k in sorted({0, 1, n // 4, n // 2, n - 1}):
            out.append({"k": k, "n": n, "p": p, "cdf": float(stats.binom.cdf(k, n, p)), "sf": float(stats.binom.sf(k, n, p))})
    return out


def chisquare_cases():
    out = []
    for dof in [1.0, 2.0, 5.5]:
        for x in [1e-6, 0.5, 1.0, 3.841458820694124, 5.6, 10.0, 50.0]:
            out.append({"x": x, "dof": dof, "cdf": float(stats.chi2.cdf(x, dof)), "sf": float(stats.chi2.sf(x, dof))})
    return out


def main():
    path = os.path.join("Tests", "TouchSignalTests", "Fixtures", "random.json")
    document = {"mt19937": random_cases(), "binomial": binomial_cases(), "chisquare": chisquare_cases()}
    with open(path, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
