#!/bin/sh
# The browser test of `touchtrace capture`: a whole capture run in headless Chromium with W3C pen
# actions at known pressures, one contact redone, the dataset read back (Scripts/check-capture.py).
#
#   Scripts/check-capture.sh [TOUCHTRACE] [SCREENSHOT]
#
# TOUCHTRACE defaults to .build/debug/touchtrace, SCREENSHOT to out/capture-page.png. Needs
# Debian's chromium and chromium-driver (apt-get install chromium chromium-driver); installs
# selenium with pip when it is missing.
set -eu
cd "$(dirname "$0")/.."
TOUCHTRACE=${1:-.build/debug/touchtrace}
SCREENSHOT=${2:-out/capture-page.png}
CHECK=check-capture
. Scripts/browser-prerequisites.sh
mkdir -p "$(dirname "$SCREENSHOT")"
python3 Scripts/check-capture.py "$TOUCHTRACE" "$SCREENSHOT"
