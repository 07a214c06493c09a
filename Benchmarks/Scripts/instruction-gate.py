#!/usr/bin/env python3
"""The instruction-count gate: instructions per sample of each product kernel, counted by
valgrind's callgrind (deterministic: the same binary and inputs give the same count whatever the
machine is doing), against the ceilings committed in Gates/instructions.txt.

For each kernel, `ir-probe KERNEL 11` runs once under `valgrind --tool=callgrind --instr-atstart=no`:
the probe runs a warm-up pass, then switches callgrind's instrumentation on for passes 2 to 11 and
off after them (client requests, Sources/CallgrindControl), so the total collected divided by
10 x samples is the per-sample cost of the kernel's loop alone: start-up, data generation and the
warm-up pass are not counted (and run at valgrind's uninstrumented speed). This counts the same
passes as the former two runs per kernel (1 and 11 passes, totals subtracted) in one run; the
probe must report its callgrind window on (built with valgrind's headers), or the gate stops. Rows marked `fail` are canaries (deliberately slower copies, see
Sources/ir-probe/Canary.swift): the gate requires them to exceed their ceiling, which proves the
ceiling catches an existential or a non-inlined call in the loop. Rows marked `ref` are the C
reference, measured and printed for comparison (a drift of more than 10 % from the recorded count
is reported, not failed: it means the toolchain changed and the ceilings should be reviewed).

A row whose kernel ends in `.*` is a pattern: every probe `ir-probe list` names with that prefix and
no row of its own gets its ceiling. So every recognizer of the catalog is gated (`traces.*`) the
moment it is listed, and a recorded row tightens the gate for one.

A row whose kernel is `A/B` is a ratio: A's instructions per sample over B's (each measured once,
whether or not it has a row of its own), gated against the row's ceiling like a kernel. Issue 13's
row `user.example-first-crossing/traces.deep-press-alg-squeeze` holds a recognizer of a user's own
package within 1.5x the built-in of the same logic.

Replay probes (`traces.*`, `user.*`, `direct*`, `canary.replay-*`) run 3 passes (2 counted), class
sweeps (`classes.*`, and the exact sweeps `exact.*` with their grids `grid20.*`) 2 (1 counted), kernels 11 (10 counted).

Usage: instruction-gate.py IR_PROBE [GATES_FILE]     exit 0 = all within, 1 = gate failed
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PASSES = 11


def instructions(probe, kernel, passes):
    """Instructions callgrind counted in the probe's window (passes 2..passes), the passes counted and
    the samples per pass."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
         probe, kernel, str(passes)],
        capture_output=True, text=True,
        # Swift seeds its hash function per process: fixed, the dictionaries a sweep uses probe
        # the same slots on every run and the counts repeat exactly.
        env={**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"})
    if run.returncode != 0:
        raise SystemExit(f"instruction gate: {kernel}: valgrind failed:\n{run.stderr[-2000:]}")
    total = re.search(r"Collected : (\d+)", run.stderr)
    samples = re.search(r"over (\d+) samples, (\d+) counted, callgrind window ([a-z]+)", run.stdout)
    if not total or not samples:
        raise SystemExit(f"instruction gate: {kernel}: no instruction count in valgrind's output")
    if samples.group(3) != "on":
        raise SystemExit(f"instruction gate: {kernel}: the probe's callgrind window is not on ({run.stdout.strip()}):"
                         " build ir-probe with valgrind's headers installed (valgrind/callgrind.h)")
    return int(total.group(1)), int(samples.group(2)), int(samples.group(1))


def passes(kernel):
    if kernel.startswith(("classes.", "exact.", "grid20.")):
        return 2  # whole sweeps: one counted pass after the warm-up (which makes their data) is exact
    return 3 if kernel.startswith(("traces.", "user.", "direct", "canary.replay")) else PASSES


MEASURED = {}
SECONDS = {}


def per_sample(probe, kernel):
    if "/" in kernel:
        numerator, denominator = kernel.split("/", 1)
        return per_sample(probe, numerator) / per_sample(probe, denominator)
    if kernel not in MEASURED:
        MEASURED[kernel] = measure(probe, kernel)
    return MEASURED[kernel]


def measure(probe, kernel):
    """Instructions per sample of one probe's loop: the counted passes (all but the warm-up), divided.
    The run's wall time goes to SECONDS (printed, to see what the gate's time is spent on)."""
    start = time.monotonic()
    total, counted, samples = instructions(probe, kernel, passes(kernel))
    SECONDS[kernel] = time.monotonic() - start
    return total / (counted * samples)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = sys.argv[1]
    gates = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "Gates", "instructions.txt")
    rows = []
    patterns = []
    for line in open(gates):
        line = line.split("#", 1)[0].split()
        if line:
            kernel, recorded, ceiling, expect = line[0], line[1], line[2], line[3]
            row = (kernel, None if recorded == "-" else float(recorded), None if ceiling == "-" else float(ceiling), expect)
            (patterns if kernel.endswith(".*") else rows).append(row)
    listed = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout.split()
    named = {row[0] for row in rows}
    for kernel, _, _, _ in rows:
        for part in kernel.split("/") if "/" in kernel else []:
            if part not in listed:
                raise SystemExit(f"instruction gate: {kernel}: no probe {part}")
    for pattern, _, ceiling, expect in patterns:
        prefix = pattern[:-1]
        matches = [name for name in listed if name.startswith(prefix) and name not in named]
        if not matches and not any(name.startswith(prefix) for name in listed):
            raise SystemExit(f"instruction gate: no probe matches {pattern}")
        rows += [(name, None, ceiling, expect) for name in matches]
    # valgrind 3.19 cannot read the DWARF 5 the toolchain emits: measure a copy without debug info.
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "ir-probe")
        subprocess.run(["strip", "-g", "-o", probe, binary], check=True)
        # Measure every probe first, as many at once as there are cores (each count is exact
        # whatever else runs), then print in the file's order.
        kernels = sorted({part for row in rows for part in row[0].split("/")})
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            for kernel, value in zip(kernels, pool.map(lambda k: measure(probe, k), kernels)):
                MEASURED[kernel] = value
        failures = []
        width = max([30] + [len(row[0]) for row in rows])
        print(f"{'kernel':{width}} {'Ir/sample':>10} {'recorded':>9} {'ceiling':>8} {'seconds':>7}  result")
        for kernel, recorded, ceiling, expect in rows:
            ir = per_sample(probe, kernel)
            if expect == "ref" and recorded is None:
                result = "reference"
            elif expect == "ref":
                drift = abs(ir - recorded) / recorded
                result = "reference" + (f" (drifted {drift:.0%} from the recorded count)" if drift > 0.10 else "")
            elif expect == "pass":
                result = "pass" if ir <= ceiling else "FAIL: above the ceiling"
                if ir > ceiling:
                    what = "has the ratio" if "/" in kernel else "needs"
                    unit = "" if "/" in kernel else " instructions per sample"
                    failures.append(f"{kernel} {what} {ir:.2f}{unit}, ceiling {ceiling}")
            else:
                result = "canary caught" if ir > ceiling else "FAIL: the canary passed, the gate is blind"
                if ir <= ceiling:
                    failures.append(f"canary {kernel} ({ir:.2f}) stays under its ceiling {ceiling}")
            shown = "-" if ceiling is None else f"{ceiling:.1f}"
            shown_recorded = "-" if recorded is None else f"{recorded:.2f}"
            seconds = "" if "/" in kernel else f"{SECONDS.get(kernel, 0):.0f}"
            print(f"{kernel:{width}} {ir:10.2f} {shown_recorded:>9} {shown:>8} {seconds:>7}  {result}", flush=True)
    if failures:
        print("instruction gate: FAILED: " + "; ".join(failures))
        return 1
    print(f"instruction gate: passed ({len(SECONDS)} probes, {sum(SECONDS.values()):.0f} s of valgrind runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
