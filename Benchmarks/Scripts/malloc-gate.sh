#!/usr/bin/env bash
# The allocation gate: package-benchmark's mallocCountTotal (malloc interposer) against a p90
# threshold of zero for every gated benchmark:
#   Replay.<variant>.1k / .200k   every variant through the replay harness, ~1 000 and ~200 000
#                                 samples: zero at both sizes = nothing allocated per sample
#   Kernel.<kernel>.hot.Swift     the product kernels
#   Smoothing.*                   the smoothing workspaces with a reused output
#   Sweep.K<k>.<hot|cold>.Swift   the product's one-pass sweep (TouchEvaluation), buffers from init
# The rule is the same for every gated benchmark — zero — so the thresholds are not committed per
# benchmark: this script lists the gated benchmarks of each suite (every catalog recognizer's
# Replay.* among them, the moment it is listed) and writes a zero threshold for each into a
# scratch directory under .build that `thresholds check --path` reads. Nothing to record when a recognizer is
# added.
#
#   Scripts/malloc-gate.sh            check
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(RecognizerBenchmarks SmoothingBenchmarks SweepBenchmarks)
filters=('Replay\..*' 'Kernel\..*\.hot\.Swift' 'Smoothing\..*' 'Sweep\..*\.Swift')
gated='^(Replay\..*|Kernel\..*\.hot\.Swift|Smoothing\..*|Sweep\..*\.Swift)$'

thresholds=.build/malloc-gate-thresholds
rm -rf "$thresholds"
mkdir -p "$thresholds"
count=0
for target in "${targets[@]}"; do
  names=$(swift package benchmark list --target "$target" 2>/dev/null \
    | sed -n "/^Target '$target' available benchmarks:/,\$p" | tail -n +2 | grep -E "$gated" || true)
  if [ -z "$names" ]; then
    echo "malloc gate: no gated benchmarks found in $target" >&2
    exit 1
  fi
  while IFS= read -r name; do
    printf '{\n  "mallocCountTotal" : 0\n}\n' > "$thresholds/$target.$name.p90.json"
    count=$((count + 1))
  done <<< "$names"
done
echo "malloc gate: $count gated benchmarks, each must allocate nothing in its measured loop"

args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
for filter in "${filters[@]}"; do args+=(--filter "$filter"); done
if swift package benchmark thresholds check "${args[@]}" --path "$thresholds" --no-progress; then
  echo "malloc gate: passed (every gated benchmark allocates nothing in its measured loop)"
else
  echo "malloc gate: FAILED (see the deviations above)" >&2
  exit 1
fi
