#!/usr/bin/env python3
"""The instruction-count gate: instructions per sample of each product kernel, counted by
valgrind's callgrind (deterministic: the same binary and inputs give the same count whatever the
machine is doing), against the ceilings committed in Gates/instructions.txt.

For each kernel, `ir-probe KERNEL 1` and `ir-probe KERNEL 11` run under callgrind; the difference
of their totals divided by 10 x samples is the per-sample cost of the kernel's loop alone (start-up
and data generation cancel out). Rows marked `fail` are canaries (deliberately slower copies, see
Sources/ir-probe/Canary.swift): the gate requires them to exceed their ceiling, which proves the
ceiling catches an existential or a non-inlined call in the loop. Rows marked `ref` are the C
reference, measured and printed for comparison (a drift of more than 10 % from the recorded count
is reported, not failed: it means the toolchain changed and the ceilings should be reviewed).

Usage: instruction-gate.py IR_PROBE [GATES_FILE]     exit 0 = all within, 1 = gate failed
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PASSES = 11


def instructions(probe, kernel, passes):
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", probe, kernel, str(passes)],
        capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"instruction gate: {kernel}: valgrind failed:\n{run.stderr[-2000:]}")
    total = re.search(r"Collected : (\d+)", run.stderr)
    samples = re.search(r"over (\d+) samples", run.stdout)
    if not total or not samples:
        raise SystemExit(f"instruction gate: {kernel}: no instruction count in valgrind's output")
    return int(total.group(1)), int(samples.group(1))


def per_sample(probe, kernel):
    one, samples = instructions(probe, kernel, 1)
    many, _ = instructions(probe, kernel, PASSES)
    return (many - one) / ((PASSES - 1) * samples)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = sys.argv[1]
    gates = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "Gates", "instructions.txt")
    rows = []
    for line in open(gates):
        line = line.split("#", 1)[0].split()
        if line:
            kernel, recorded, ceiling, expect = line[0], float(line[1]), line[2], line[3]
            rows.append((kernel, recorded, None if ceiling == "-" else float(ceiling), expect))
    # valgrind 3.19 cannot read the DWARF 5 the toolchain emits: measure a copy without debug info.
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "ir-probe")
        subprocess.run(["strip", "-g", "-o", probe, binary], check=True)
        failures = []
        print(f"{'kernel':26} {'Ir/sample':>10} {'recorded':>9} {'ceiling':>8}  result")
        for kernel, recorded, ceiling, expect in rows:
            ir = per_sample(probe, kernel)
            if expect == "ref":
                drift = abs(ir - recorded) / recorded
                result = "reference" + (f" (drifted {drift:.0%} from the recorded count)" if drift > 0.10 else "")
            elif expect == "pass":
                result = "pass" if ir <= ceiling else "FAIL: above the ceiling"
                if ir > ceiling:
                    failures.append(f"{kernel} needs {ir:.2f} instructions per sample, ceiling {ceiling}")
            else:
                result = "canary caught" if ir > ceiling else "FAIL: the canary passed, the gate is blind"
                if ir <= ceiling:
                    failures.append(f"canary {kernel} ({ir:.2f}) stays under its ceiling {ceiling}")
            shown = "-" if ceiling is None else f"{ceiling:.1f}"
            print(f"{kernel:26} {ir:10.2f} {recorded:9.2f} {shown:>8}  {result}", flush=True)
    if failures:
        print("instruction gate: FAILED: " + "; ".join(failures))
        return 1
    print("instruction gate: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
