#!/bin/sh
# The browser tests of `touchtrace capture` and `touchtrace try` in headless Chromium with W3C pen
# actions at known pressures: a participant's whole capture session read back from the dataset and
# a session ended by SIGINT (Scripts/check-capture.py); the try page's marks against `touchtrace
# run` on the contact it saved (Scripts/check-try.py).
#
#   Scripts/check-capture.sh [TOUCHTRACE] [CAPTURE-SCREENSHOT] [TRY-SCREENSHOT]
#
# TOUCHTRACE defaults to .build/debug/touchtrace, the screenshots to out/capture-page.png (and
# out/capture-page-welcome.png) and out/try-page.png. Needs
# Debian's chromium and chromium-driver (apt-get install chromium chromium-driver); installs
# selenium with pip when it is missing.
set -eu
cd "$(dirname "$0")/.."
TOUCHTRACE=${1:-.build/debug/touchtrace}
SCREENSHOT=${2:-out/capture-page.png}
TRY_SCREENSHOT=${3:-out/try-page.png}
CHECK=check-capture
. Scripts/browser-prerequisites.sh
mkdir -p "$(dirname "$SCREENSHOT")"
mkdir -p "$(dirname "$TRY_SCREENSHOT")"
python3 Scripts/check-capture.py "$TOUCHTRACE" "$SCREENSHOT"
python3 Scripts/check-try.py "$TOUCHTRACE" "$TRY_SCREENSHOT"
