"""What the headless-Chromium checks share (check-capture.py, check-try.py, check-html-report.py,
check-export-web.py): a Chromium driven through chromedriver, polling the page, and starting a
touchtrace page server and reading the URL it prints.

Imported by the scripts beside it (their directory is on Python's path when they run).
"""

import select
import shutil
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def begin(name, usage):
    """Starts a check run as `check-NAME.py TOUCHTRACE SCREENSHOT.png`: returns the two paths and
    a fresh work directory (touchtrace-NAME-...); exits with `usage` on any other command line."""
    if len(sys.argv) != 3:
        sys.exit(usage)
    touchtrace, screenshot = sys.argv[1:]
    return touchtrace, screenshot, tempfile.mkdtemp(prefix="touchtrace-%s-" % name)


def new_driver(width, height):
    """Headless Chromium (Debian's /usr/bin/chromium and chromedriver) with a window of
    `width` x `height` CSS pixels, keeping the console log (driver.get_log("browser"))."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--window-size=%d,%d" % (width, height), "--disable-gpu"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def wait_for(condition, what, timeout=15):
    """Calls `condition` every 50 ms until it returns something true, and returns that; raises
    AssertionError naming `what` after `timeout` seconds."""
    end = time.time() + timeout
    while time.time() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def start_server(command, name):
    """Starts `command` (a touchtrace capture or try run on port 0) and returns the process and
    the URL it prints first, within 20 s; the URL must be a loopback one ending in /."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([server.stdout], [], [], 20)
    assert ready, "touchtrace %s printed no URL within 20 s" % name
    url = server.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:") and url.endswith("/"), "first line is not the URL: %r" % url
    print("check-%s: %s" % (name, url))
    return server, url


def close(driver, server):
    """Quits `driver` (when one was started) and kills `server` when it still runs."""
    if driver is not None:
        driver.quit()
    if server.poll() is None:
        server.kill()
        server.wait()


def conclude(check, failures, work, kept, success=None):
    """Ends a check: prints each failure, or `success` when there is none and removes `work`;
    with failures, says where `work` (holding `kept`) stays. Exits 1 on failure, else 0."""
    for failure in failures:
        print("%s: FAIL %s" % (check, failure), file=sys.stderr)
    if not failures:
        if success:
            print("%s: %s" % (check, success))
        shutil.rmtree(work)
    else:
        print("%s: %s kept in %s" % (check, kept, work), file=sys.stderr)
    sys.exit(1 if failures else 0)
