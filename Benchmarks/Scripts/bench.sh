#!/usr/bin/env bash
# make bench: every package-benchmark suite (full tables), then bench-report's summary: Swift vs
# the C reference vs the numpy peer, ingest, smoothing, with the targets. The summary is also
# written to .build/bench-summary.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

swift build -c release --product bench-report
echo "== package-benchmark suites"
swift package benchmark --no-progress
echo
echo "== summary"
.build/release/bench-report summary --rounds "${BENCH_ROUNDS:-5}" --out .build/bench-summary.md
