#!/bin/sh
# The browser test of the HTML report: renders the sweep report of the samples (the `make run`
# sweep) in headless Chromium and checks it with Scripts/check-html-report.py (no console
# errors, every figure present and drawn, nothing loaded from elsewhere); keeps a screenshot.
#
#   Scripts/check-html-report.sh [TOUCHTRACE] [SCREENSHOT]
#
# TOUCHTRACE defaults to .build/release/touchtrace, SCREENSHOT to out/sweep-report.png. Needs
# Debian's chromium and chromium-driver (apt-get install chromium chromium-driver); installs
# selenium with pip when it is missing. Writes out/sweep.html and out/sweep-html.json, and the
# exact sweep's out/exact.html, out/exact.json and out/exact-report.png.
set -eu
cd "$(dirname "$0")/.."
TOUCHTRACE=${1:-.build/release/touchtrace}
SCREENSHOT=${2:-out/sweep-report.png}
CHECK=check-html
. Scripts/browser-prerequisites.sh
mkdir -p out
"$TOUCHTRACE" sweep samples/ --recognizer all,tap+deep-press,long-press+deep-press \
  --format html --output out/sweep.html --json-output out/sweep-html.json
# The same inputs give the same bytes.
"$TOUCHTRACE" sweep samples/ --recognizer all,tap+deep-press,long-press+deep-press \
  --format html --output out/sweep-again.html --threads 1
cmp out/sweep.html out/sweep-again.html || { echo "check-html: the HTML report differs between runs" >&2; exit 1; }
rm -f out/sweep-again.html
# The study file the page shows must be the one --print-config gives for the same command.
"$TOUCHTRACE" sweep samples/ --recognizer all,tap+deep-press,long-press+deep-press --print-config > out/sweep-config.toml
python3 Scripts/check-html-report.py out/sweep.html out/sweep-html.json "$SCREENSHOT" out/sweep-config.toml
# The exact sweep's page (issue 29): the verdict ships the recommended value, the steps figure drawn.
"$TOUCHTRACE" sweep samples/ --recognizer deep-press --exact --format html --output out/exact.html --json-output out/exact.json
"$TOUCHTRACE" sweep samples/ --recognizer deep-press --exact --format html --output out/exact-again.html --threads 1
cmp out/exact.html out/exact-again.html || { echo "check-html: the exact HTML report differs between runs" >&2; exit 1; }
rm -f out/exact-again.html
"$TOUCHTRACE" sweep samples/ --recognizer deep-press --exact --print-config > out/exact-config.toml
python3 Scripts/check-html-report.py out/exact.html out/exact.json out/exact-report.png out/exact-config.toml
