#!/usr/bin/env bash
# make bench-ci: the deterministic benchmark gates (see README.md, "Gates").
#   1. allocations:   zero mallocs in every gated benchmark's measured loop (package-benchmark)
#   2. instructions:  callgrind instructions per sample under committed ceilings, canaries caught
#   3. time ratio:    Swift/C per kernel, median of interleaved rounds, fails above 2x
# Every gate runs even when an earlier one fails; the exit status is non-zero if any failed.
#
#   Scripts/bench-ci.sh                       build, then the three gates
#   Scripts/bench-ci.sh build                 only the build (release: the gates' executables and
#                                             the suites the allocation gate runs)
#   Scripts/bench-ci.sh GATE...               build, then these gates, in this order:
#                                             allocations, instructions, time-ratio
# .ci/run builds beside the toolkit's release build, runs the allocation and instruction gates in
# the background (their counts are exact whatever else runs), and the time ratio alone at the end.
set -euo pipefail
source "$(dirname "$0")/common.sh"

if ! command -v valgrind >/dev/null 2>&1; then
  echo "bench-ci: valgrind is required (apt-get install -y valgrind)" >&2
  exit 1
fi

gates=("$@")
[ ${#gates[@]} -gt 0 ] || gates=(allocations instructions time-ratio)
for gate in "${gates[@]}"; do
  case "$gate" in
    build | allocations | instructions | time-ratio) ;;
    *) echo "bench-ci: unknown gate '$gate' (allocations, instructions, time-ratio; or build)" >&2; exit 64 ;;
  esac
done

start=$(date +%s)
echo "== bench-ci: build (release)"
swift build -c release --product ir-probe
swift build -c release --product bench-report
if [ "${gates[0]}" = build ]; then
  # The suites the allocation gate runs (package-benchmark builds them in release too).
  for suite in RecognizerBenchmarks SmoothingBenchmarks SweepBenchmarks; do
    swift build -c release --product "$suite"
  done
  echo "bench-ci: built ($(( $(date +%s) - start )) s)"
  exit 0
fi

failed=()
for gate in "${gates[@]}"; do
  gate_start=$(date +%s)
  case "$gate" in
    allocations)
      echo "== bench-ci 1/3: allocation counts"
      Scripts/malloc-gate.sh || failed+=("allocations")
      ;;
    instructions)
      echo "== bench-ci 2/3: instructions per sample (callgrind)"
      python3 Scripts/instruction-gate.py .build/release/ir-probe || failed+=("instructions")
      ;;
    time-ratio)
      echo "== bench-ci 3/3: Swift/C time ratio"
      .build/release/bench-report gate --rounds 5 --max-ratio 2 || failed+=("time ratio")
      ;;
    build) ;;
  esac
  echo "bench-ci: $gate: $(( $(date +%s) - gate_start )) s"
done

elapsed=$(( $(date +%s) - start ))
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench-ci: FAILED gates: ${failed[*]} (${elapsed} s)" >&2
  exit 1
fi
echo "bench-ci: gates passed: ${gates[*]} (${elapsed} s)"
