# Sourced by the browser tests (check-html-report.sh, check-capture.sh, check-export.sh) with CHECK set to the
# test's name: stops when Debian's chromium or chromium-driver is missing, and installs selenium
# with pip when it is missing.
command -v chromium >/dev/null || { echo "$CHECK: chromium is not installed (apt-get install chromium chromium-driver)" >&2; exit 1; }
command -v chromedriver >/dev/null || { echo "$CHECK: chromedriver is not installed (apt-get install chromium-driver)" >&2; exit 1; }
python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet selenium \
  || python3 -m pip install --quiet --break-system-packages selenium
