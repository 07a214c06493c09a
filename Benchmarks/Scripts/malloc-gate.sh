#!/usr/bin/env bash
# The allocation gate: package-benchmark's mallocCountTotal (malloc interposer) against the p90
# thresholds committed in Thresholds/ — zero for every gated benchmark:
#   Replay.<variant>.1k / .200k   every variant through the replay harness, ~1 000 and ~200 000
#                                 samples: zero at both sizes = nothing allocated per sample
#   Kernel.<kernel>.hot.Swift     the product kernels
#   Smoothing.*                   the smoothing workspaces with a reused output
#   Sweep.K<k>.<hot|cold>.Swift   the product's one-pass sweep (TouchEvaluation), buffers from init
# `thresholds check` only checks benchmarks that have a file, so this script first requires a
# file for every gated benchmark (a new variant cannot slip through ungated).
#
#   Scripts/malloc-gate.sh            check
#   Scripts/malloc-gate.sh --record   write {"mallocCountTotal":0} for gated benchmarks lacking one
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(RecognizerBenchmarks SmoothingBenchmarks SweepBenchmarks)
filters=('Replay\..*' 'Kernel\..*\.hot\.Swift' 'Smoothing\..*' 'Sweep\..*\.Swift')
gated='^(Replay\..*|Kernel\..*\.hot\.Swift|Smoothing\..*|Sweep\..*\.Swift)$'

missing=0
for target in "${targets[@]}"; do
  names=$(swift package benchmark list --target "$target" 2>/dev/null \
    | sed -n "/^Target '$target' available benchmarks:/,\$p" | tail -n +2 | grep -E "$gated" || true)
  if [ -z "$names" ]; then
    echo "malloc gate: no gated benchmarks found in $target" >&2
    exit 1
  fi
  while IFS= read -r name; do
    file="Thresholds/$target.$name.p90.json"
    if [ ! -f "$file" ]; then
      if [ "${1:-}" = "--record" ]; then
        printf '{\n  "mallocCountTotal" : 0\n}\n' > "$file"
        echo "recorded $file"
      else
        echo "malloc gate: $target:$name has no committed threshold ($file)" >&2
        missing=1
      fi
    fi
  done <<< "$names"
done
[ "$missing" -eq 0 ] || { echo "malloc gate: FAILED (run Scripts/malloc-gate.sh --record for new benchmarks)" >&2; exit 1; }
[ "${1:-}" = "--record" ] && exit 0

args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
for filter in "${filters[@]}"; do args+=(--filter "$filter"); done
if swift package benchmark thresholds check "${args[@]}" --no-progress; then
  echo "malloc gate: passed (every gated benchmark allocates nothing in its measured loop)"
else
  echo "malloc gate: FAILED (see the deviations above)" >&2
  exit 1
fi
