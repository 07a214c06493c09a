#!/usr/bin/env bash
# The scale benchmark of issue 16: `touchtrace sweep --recognizer all` over synthesized iPhone 6s
# CSVs of about 100 MB, 1 GB and 3 GB, streamed (the default), with its peak resident memory
# (the kernel's maximum RSS of the process, /usr/bin/time) and its throughput (input bytes per
# wall second); the same sweep reading each file whole in one batch (--whole-files
# --batch-traces 1000000000, memory growing with the input, as every release before streaming
# did) as the yardstick at 100 MB and 1 GB; and the partials of a 4-shard run of the 1 GB input.
#
# Issue 34's runs: with 1G, `compare --bootstrap 200 --group-by user`, `tune --folds 5
# --bootstrap 200 --group-by user`, `sweep --recognizer all --output report.html` and `sweep
# --recognizer deep-press --outcomes out.csv --output report.html` of the 1 GB input; `json`,
# `inspect` and `sweep` of a JSON document of 200 000 contacts (297 MB), read trace object by
# trace object; `pipe`, `synth --count 2000000 --format jsonl --output - | sweep - --recognizer
# all`, each process's peak; `tune --export` of the 1 GB input, and each of its 4 shards' and
# their merge's peak.
#
# Usage: Benchmarks/Scripts/scale.sh [SIZES]   (from the repository root; SIZES: any of 100M 1G 3G
# json pipe, default all). Data and outputs go to $SCALE_DIR (default /tmp/touchtrace-scale, about
# 5 GB for all); the release build is made first. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=${*:-100M 1G 3G json pipe}
dir=${SCALE_DIR:-/tmp/touchtrace-scale}
mkdir -p "$dir"
swift build -c release --product touchtrace >/dev/null
tool=$PWD/.build/release/touchtrace
[ -x /usr/bin/time ] || { echo "scale: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

count() { case $1 in 100M) echo 24000 ;; 1G) echo 240000 ;; 3G) echo 720000 ;; *) echo "scale: unknown size $1" >&2; exit 64 ;; esac; }

# row LABEL BYTES LOG: prints "| label | size | wall s | MB/s | peak MiB |" from a /usr/bin/time log.
row() {
  local wall kb
  read -r wall kb <"$3"
  awk -v l="$1" -v b="$2" -v w="$wall" -v k="$kb" \
    'BEGIN { printf "| %s | %.0f MB | %.2f s | %.1f MB/s | %.0f MiB |\n", l, b / 1e6, w, b / 1e6 / w, k / 1024 }'
}

# run LABEL FILE COMMAND ARGS…: one run of `touchtrace COMMAND FILE ARGS…`, its row.
run() {
  local label=$1 file=$2 command=$3
  shift 3
  local log
  log=$(mktemp)
  /usr/bin/time -f "%e %M" -o "$log" "$tool" "$command" "$file" --quiet "$@"
  row "$label" "$(stat -L -c %s "$file")" "$log"
  rm -f "$log"
}

# measure LABEL FILE ARGS…: `sweep FILE --recognizer all ARGS…`.
measure() {
  local label=$1 file=$2
  shift 2
  run "$label" "$file" sweep --recognizer all "$@"
}

echo "| run | input | wall | throughput | peak RSS |"
echo "|---|--:|--:|--:|--:|"
for size in $sizes; do
  [ "$size" != json ] && [ "$size" != pipe ] || continue
  file=$dir/synth-$size.csv
  [ -s "$file" ] || "$tool" synth --profile iphone6s --count "$(count "$size")" --seed 7 --users 40 --output "$file" --quiet
  measure "streamed ($size)" "$file" --output "$dir/sweep-$size.json"
  if [ "$size" != 3G ]; then
    measure "whole file, one batch ($size)" "$file" --whole-files --batch-traces 1000000000 --output "$dir/whole-$size.json"
    # The same report but for the recorded `whole-files` option.
    python3 - "$dir/sweep-$size.json" "$dir/whole-$size.json" <<'PY' || { echo "scale: streamed and whole reports differ" >&2; exit 1; }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b):
    d["configuration"]["options"].pop("whole-files")
sys.exit(0 if a == b else 1)
PY
  fi
done

if [[ " $sizes " == *" 1G "* ]]; then
  file=$dir/synth-1G.csv
  # Issue 34's paired comparison and tuning on the 1 GB input (target: 300 MB each).
  run "compare --bootstrap 200 --group-by user (1G)" "$file" compare --a deep-press --b shunkit \
    --bootstrap 200 --group-by user --output "$dir/compare-1G.json"
  run "tune --folds 5 --bootstrap 200 --group-by user (1G)" "$file" tune --recognizer deep-press --folds 5 \
    --bootstrap 200 --group-by user --output "$dir/tune-1G.json"
  # The same without --group-by: every trace its own unit, 240 000 of them drawn per resample.
  run "compare --bootstrap 200 (1G)" "$file" compare --a deep-press --b shunkit --bootstrap 200 \
    --output "$dir/compare-traces-1G.json"
  run "tune --folds 5 --bootstrap 200 (1G)" "$file" tune --recognizer deep-press --folds 5 --bootstrap 200 \
    --output "$dir/tune-traces-1G.json"
  # The HTML report: its figures come from a second read of the input (target: 300 MB).
  run "sweep --recognizer all, HTML report (1G)" "$file" sweep --recognizer all --output "$dir/sweep-1G.html"
  # --outcomes with the HTML report: the table from a second read, its rows spilled (target: 300 MB).
  run "sweep --recognizer deep-press --outcomes, HTML report (1G)" "$file" sweep --recognizer deep-press \
    --outcomes "$dir/outcomes-1G.csv" --output "$dir/sweep-outcomes-1G.html"
  rm -f "$dir/outcomes-1G.csv"
  # tune --export: its conformance vectors (about the input's size) written as a second read passes.
  rm -rf "$dir/export-1G"
  run "tune --recognizer deep-press --export (1G)" "$file" tune --recognizer deep-press --export "$dir/export-1G" \
    --output "$dir/tune-export-1G.md"
  rm -rf "$dir/export-1G"
  rm -rf "$dir/parts"
  mkdir -p "$dir/parts"
  for i in 0 1 2 3; do
    run "sweep --recognizer all, shard $i/4 (1G)" "$file" sweep --recognizer all --shard $i/4 \
      --partial "$dir/parts/sweep-$i.partial"
  done
  configurations=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$dir/sweep-1G.json")
  total=$(cat "$dir"/parts/*.partial | wc -c)
  log=$(mktemp)
  /usr/bin/time -f "%e %M" -o "$log" "$tool" merge "$dir/parts" --output "$dir/merged-1G.json" --quiet
  row "merge of the 4 partials (1G; its verdict reads the input again)" "$(stat -L -c %s "$file")" "$log"
  rm -f "$log"
  cmp "$dir/sweep-1G.json" "$dir/merged-1G.json" || { echo "scale: merged and unsharded reports differ" >&2; exit 1; }
  echo
  echo "Partials of 4 shards of the 1 GB input ($configurations configurations): $total bytes in all," \
    "$((total / configurations)) bytes per configuration; merged report identical to the unsharded one."
  ls -l "$dir"/parts/*.partial | awk '{ print "- " $NF ": " $5 " bytes" }'
fi

if [[ " $sizes " == *" json "* ]]; then
  file=$dir/synth-200k.json
  [ -s "$file" ] || "$tool" synth --profile iphone6s --count 200000 --seed 7 --users 40 --output "$file" --quiet
  run "inspect, JSON document (200 000 contacts)" "$file" inspect --format json --output "$dir/inspect-json.json"
  measure "streamed, JSON document (200 000 contacts)" "$file" --output "$dir/sweep-json.json"
fi

if [[ " $sizes " == *" pipe "* ]]; then
  writer=$(mktemp)
  reader=$(mktemp)
  counter=$(mktemp)
  /usr/bin/time -f "%e %M" -o "$writer" "$tool" synth --profile iphone6s --count 2000000 --seed 7 --users 40 \
    --format jsonl --output - --quiet |
    tee >(wc -c >"$counter") |
    /usr/bin/time -f "%e %M" -o "$reader" "$tool" sweep - --recognizer all --quiet --output "$dir/sweep-pipe.json"
  sleep 1  # wc's count
  bytes=$(cat "$counter")
  row "synth, 2 000 000 contacts as JSON Lines to standard output" "$bytes" "$writer"
  row "sweep - of that pipe" "$bytes" "$reader"
  rm -f "$writer" "$reader" "$counter"
fi
