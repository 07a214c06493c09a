#!/usr/bin/env bash
# make bench-ci: the deterministic benchmark gates (see README.md, "Gates").
#   1. allocations:   zero mallocs in every gated benchmark's measured loop (package-benchmark)
#   2. instructions:  callgrind instructions per sample under committed ceilings, canaries caught
#   3. time ratio:    Swift/C per kernel, median of interleaved rounds, fails above 2x
# Every gate runs even when an earlier one fails; the exit status is non-zero if any failed.
set -euo pipefail
source "$(dirname "$0")/common.sh"

if ! command -v valgrind >/dev/null 2>&1; then
  echo "bench-ci: valgrind is required (apt-get install -y valgrind)" >&2
  exit 1
fi

start=$(date +%s)
echo "== bench-ci: build (release)"
swift build -c release --product ir-probe
swift build -c release --product bench-report

failed=()
echo "== bench-ci 1/3: allocation counts"
Scripts/malloc-gate.sh || failed+=("allocations")
echo "== bench-ci 2/3: instructions per sample (callgrind)"
python3 Scripts/instruction-gate.py .build/release/ir-probe || failed+=("instructions")
echo "== bench-ci 3/3: Swift/C time ratio"
.build/release/bench-report gate --rounds 5 --max-ratio 2 || failed+=("time ratio")

elapsed=$(( $(date +%s) - start ))
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench-ci: FAILED gates: ${failed[*]} (${elapsed} s)" >&2
  exit 1
fi
echo "bench-ci: all gates passed (${elapsed} s)"
