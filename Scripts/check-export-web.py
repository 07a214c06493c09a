#!/usr/bin/env python3
"""The web check of `touchtrace export`: the TypeScript core and the Pointer Events binding, in
Node and in headless Chromium, against the replay.

    check-export-web.py TOUCHTRACE EXPORT_DIR RECOGNIZER [--set P=V ...] [--screenshot PNG] [--browser-only]

EXPORT_DIR is what `touchtrace export --recognizer RECOGNIZER [--set P=V ...] --output EXPORT_DIR`
wrote; give the same recognizer and --set values here (they are passed to `touchtrace run`).

1. Toolchain: compiles EXPORT_DIR/typescript/KEBAB.ts and pointer-binding.ts with tsc
   (--strict --target es2020 --module es2020) into a temporary directory, then runs
   conformance-check.mjs on EXPORT_DIR/vectors.txt (when present) twice: with the emitted
   KEBAB.js and with tsc's output. Both must report 0 differences.
2. Browser: copies the emitted KEBAB.js and pointer-binding.js into a temporary directory beside
   a small page, serves it on 127.0.0.1 (a free port; ES modules need http) and opens it in
   headless Chromium. The page binds an element with bindPointerEvents through a subclass of the
   core that records every sample the binding feeds (t, force, x, y, phase as JavaScript's
   String(number), the shortest text that reads back to the same double), every tick and every
   action reported. Three pen contacts are sent with CDP Input.dispatchMouseEvent (pointerType
   "pen", force = pressure): a press that rises through 0.1 … 0.4 to 1, holds still for 0.4 s
   with no events and releases; a light drag; a press that rests at 0.05 for 0.15 s, jumps to 1
   and holds 0.4 s (a dwell timer falls due while no event comes, so only tick can fire it,
   whatever the thresholds). The samples
   become a trace CSV (trace,t,force,phase,max_force,x,y; max_force 1), replayed with
   `TOUCHTRACE run TRACE.csv --recognizer RECOGNIZER [--set ...] --output run.json`; each
   contact's actions and state transitions must equal the replay's bit for bit. A recognizer with
   timers must have reported at least one action from a tick. The page must log no console error.

Prints what it compared; exits 0 when everything is equal, 1 on any difference or failure.
Needs node, tsc (Debian's node-typescript), chromium, chromium-driver and selenium.
"""
import argparse
import csv
import functools
import http.server
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PAGE = """<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>touchtrace export: pointer binding check</title>
<link rel="icon" href="data:,">
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; }
  #target { position: absolute; left: 40px; top: 40px; width: 320px; height: 320px;
    background: #d8dce8; touch-action: none; display: grid; place-items: center; }
  #target[data-stage="action"] { background: #8fd19e; }
  #target[data-stage="stage2"] { background: #7fb2f0; }
  #target[data-stage="release"] { background: #e8d18f; }
  #log { position: absolute; left: 390px; top: 30px; white-space: pre; font: 12px monospace; }
</style>
<div id="target">press here</div>
<div id="log"></div>
<script type="module">
import * as coreModule from "./CORE_MODULE";
import { bindPointerEvents } from "./pointer-binding.js";

const Core = coreModule["TYPE_NAME"];
const log = document.getElementById("log");
const target = document.getElementById("target");
const recognizer = Core.recognizer;

/** The core, recording what the binding feeds it and which actions came from a tick. */
class RecordingCore extends Core {
  constructor() {
    super();
    this.recContacts = [];
    this.recCurrent = null;
    this.recFromTick = new Set();
  }
  feed(t, force, maxForce, x, y, phase) {
    if (phase === "began" || this.recCurrent === null) {
      this.recCurrent = { samples: [], ticks: [], actions: [], transitions: null, done: false };
      this.recContacts.push(this.recCurrent);
      log.textContent += `contact ${this.recContacts.length}:\\n`;
    }
    this.recCurrent.samples.push(
      { t: String(t), force: String(force), maxForce: String(maxForce), x: String(x), y: String(y), phase });
    const out = super.feed(t, force, maxForce, x, y, phase);
    if (phase === "ended" || phase === "cancelled") {
      this.recCurrent.transitions =
        this.transitions.map((e) => ({ state: e.state, t: String(e.t), implicit: e.implicit }));
      this.recCurrent.done = true;
      log.textContent += `  ${phase} after ${this.recCurrent.samples.length} samples: ${this.state}\\n`;
    }
    return out;
  }
  tick(t) {
    const out = super.tick(t);
    if (this.recCurrent !== null) this.recCurrent.ticks.push({ t: String(t), actions: out.length });
    for (const a of out) this.recFromTick.add(a);
    return out;
  }
}

const core = new RecordingCore();
bindPointerEvents(target, (action, c) => {
  const fromTick = c.recFromTick.has(action);
  c.recCurrent.actions.push({ stage: action.stage, t: String(action.t), fromTick });
  target.dataset.stage = action.stage;
  log.textContent += `  ${action.stage} at ${action.t}${fromTick ? " (timer, through tick)" : ""}\\n`;
}, { pointerType: "pen", core });
window.checkCore = { recognizer: Core.recognizer, usesTimers: Core.usesTimers, contacts: core.recContacts };
log.textContent = `${recognizer}: bound to #target\\n`;
window.checkReady = true;
</script>
</html>
"""


def fail(message):
    print("check-export-web: FAIL: " + message)
    sys.exit(1)


def bits(value):
    """The IEEE 754 bits of a double, 16 hexadecimal digits."""
    return struct.pack(">d", value).hex()


def show(value):
    return "%s (%s)" % (bits(value), repr(value))


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def toolchain(typescript, vectors, work):
    """Compiles the .ts files with tsc and runs the conformance check on the emitted .js and on
    tsc's output."""
    kebab = core_module(typescript)[:-3]
    tsc = shutil.which("tsc")
    node = shutil.which("node")
    if tsc is None or node is None:
        fail("node and tsc are needed (apt-get install nodejs node-typescript)")
    out = os.path.join(work, "tsc")
    flags = ["--strict", "--target", "es2020", "--module", "es2020"]
    r = run([tsc, *flags, "--outDir", out, kebab + ".ts", "pointer-binding.ts"], cwd=typescript)
    if r.returncode != 0:
        fail("tsc %s:\n%s%s" % (" ".join(flags), r.stdout, r.stderr))
    print("tsc %s: %s.ts and pointer-binding.ts compile" % (" ".join(flags), kebab))
    if not os.path.exists(vectors):
        print("no %s: conformance check skipped" % vectors)
        return
    check = os.path.join(typescript, "conformance-check.mjs")
    for label, module in (("emitted %s.js" % kebab, None), ("tsc's %s.js" % kebab, os.path.join(out, kebab + ".js"))):
        r = run([node, check, vectors] + ([module] if module else []))
        print("conformance (%s): %s" % (label, r.stdout.strip()))
        if r.returncode != 0:
            fail("conformance check on %s exited %d\n%s" % (label, r.returncode, r.stderr))


def core_module(typescript):
    """The core module pointer-binding.js imports (`force-press-core.js`) and its class name."""
    with open(os.path.join(typescript, "pointer-binding.js"), encoding="utf-8") as f:
        m = re.search(r'^import \{ (\w+) \} from "\./([\w-]+\.js)";$', f.read(), re.M)
    if m is None:
        fail("pointer-binding.js imports no core")
    return m.group(2)


def type_name(typescript):
    with open(os.path.join(typescript, "pointer-binding.js"), encoding="utf-8") as f:
        return re.search(r'^import \{ (\w+) \} from', f.read(), re.M).group(1)


class Pen:
    """A pen on the page, through CDP Input.dispatchMouseEvent (pointerType pen, force)."""

    def __init__(self, driver):
        self.driver = driver

    def send(self, kind, x, y, force, down):
        event = {"type": kind, "x": x, "y": y, "pointerType": "pen", "force": force,
                 "button": "left", "buttons": 1 if down else 0}
        if kind != "mouseMoved":
            event["clickCount"] = 1
        self.driver.execute_cdp_cmd("Input.dispatchMouseEvent", event)

    def contact(self, x, y, steps):
        """Hover, press at the first step's force, move through the others, lift. A step is
        (dx, dy, force, pause before it, seconds)."""
        self.send("mouseMoved", x, y, 0, False)
        dx, dy, force, _ = steps[0]
        self.send("mousePressed", x + dx, y + dy, force, True)
        for dx, dy, force, pause in steps[1:]:
            time.sleep(pause)
            self.send("mouseMoved", x + dx, y + dy, force, True)
        time.sleep(0.02)
        self.send("mouseReleased", x + dx, y + dy, 0, False)


# The pen contacts, at (x, y) on the page, as steps (dx, dy, pressure, pause before it, seconds):
# a press rising through 0.1 … 0.4 to 1, held still for 0.4 s without events, released; a light
# drag; a press that waits 0.15 s at 0.05, jumps to 1 and holds 0.4 s (whatever the thresholds, a
# dwell timer then falls due while no event comes: only tick can fire it).
PRESS = [(0, 0, 0.05, 0)] + [(k % 2, 0, f, 0.02) for k, f in enumerate((0.1, 0.2, 0.3, 0.4), 1)] \
    + [(0, 0, 1.0, 0.02), (0, 0, 1.0, 0.4)] \
    + [(k % 2, 1, f, 0.02) for k, f in enumerate((0.6, 0.4, 0.2, 0.05))]
DRAG = [(0, 0, 0.2, 0)] + [(6 * k, 2 * k, 0.3, 0.02) for k in range(1, 6)]
HOLD = [(0, 0, 0.05, 0), (0, 0, 1.0, 0.15), (0, 0, 1.0, 0.4), (1, 0, 0.05, 0.02)]
CONTACTS = [(150, 150, PRESS), (120, 260, DRAG), (200, 200, HOLD)]


def browser(typescript, work, screenshot):
    """Runs the pen contacts in headless Chromium; returns the recorded contacts, the core's
    recognizer name and whether it keeps timers."""
    site = os.path.join(work, "site")
    os.makedirs(site)
    module = core_module(typescript)
    for name in (module, "pointer-binding.js"):
        shutil.copy(os.path.join(typescript, name), site)
    with open(os.path.join(site, "index.html"), "w", encoding="utf-8") as f:
        f.write(PAGE.replace("CORE_MODULE", module).replace("TYPE_NAME", type_name(typescript)))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--window-size=900,520"):
        options.add_argument(a)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        url = "http://127.0.0.1:%d/index.html" % server.server_address[1]
        driver.get(url)
        deadline = time.monotonic() + 10
        while not driver.execute_script("return window.checkReady === true"):
            if time.monotonic() > deadline:
                fail("the page did not load its modules: %s" % driver.get_log("browser"))
            time.sleep(0.05)
        print("browser: Chromium %s, headless, page %s" % (driver.capabilities.get("browserVersion"), url))
        pen = Pen(driver)
        for x, y, steps in CONTACTS:
            pen.contact(x, y, steps)
        deadline = time.monotonic() + 5
        while True:
            state = driver.execute_script("return window.checkCore")
            if len(state["contacts"]) == len(CONTACTS) and all(c["done"] for c in state["contacts"]):
                break
            if time.monotonic() > deadline:
                fail("the page did not record %d finished contacts: %s" % (len(CONTACTS), json.dumps(state)[:2000]))
            time.sleep(0.05)
        if screenshot:
            driver.save_screenshot(screenshot)
            print("screenshot: %s" % screenshot)
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        if errors:
            fail("console errors: %s" % errors)
        return state
    finally:
        driver.quit()
        server.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("touchtrace")
    parser.add_argument("export_dir")
    parser.add_argument("recognizer")
    parser.add_argument("--set", action="append", default=[], metavar="P=V")
    parser.add_argument("--screenshot", metavar="PNG")
    parser.add_argument(
        "--browser-only", action="store_true",
        help="skip step 1 (tsc and the conformance check), already run by the caller")
    args = parser.parse_args()
    typescript = os.path.join(args.export_dir, "typescript")
    if not os.path.isdir(typescript):
        fail("%s has no typescript/ directory" % args.export_dir)

    with tempfile.TemporaryDirectory(prefix="check-export-web-") as work:
        if not args.browser_only:
            toolchain(typescript, os.path.join(args.export_dir, "vectors.txt"), work)
        state = browser(typescript, work, args.screenshot)
        if state["recognizer"] != args.recognizer:
            fail("the export is of '%s', not '%s'" % (state["recognizer"], args.recognizer))
        contacts = state["contacts"]

        # The samples the binding fed, as a trace file; the replay of it.
        trace = os.path.join(work, "web.csv")
        with open(trace, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["trace", "t", "force", "phase", "max_force", "x", "y"])
            for k, c in enumerate(contacts, 1):
                for s in c["samples"]:
                    w.writerow(["web-%d" % k, s["t"], s["force"], s["phase"], s["maxForce"], s["x"], s["y"]])
        report = os.path.join(work, "run.json")
        command = [args.touchtrace, "run", trace, "--recognizer", args.recognizer]
        for s in args.set:
            command += ["--set", s]
        command += ["--output", report, "--quiet"]
        r = run(command)
        if r.returncode != 0:
            fail("%s exited %d:\n%s%s" % (" ".join(command), r.returncode, r.stdout, r.stderr))
        print("replay: touchtrace run web.csv --recognizer %s%s" % (
            args.recognizer, "".join(" --set " + s for s in args.set)))
        with open(report, encoding="utf-8") as f:
            results = json.load(f)["results"]
        if [x["trace"] for x in results] != ["web-%d" % k for k in range(1, len(contacts) + 1)]:
            fail("the replay reports traces %s" % [x["trace"] for x in results])

        differences = []
        actions = transitions = from_tick = 0
        for k, (c, result) in enumerate(zip(contacts, results), 1):
            phases = [s["phase"] for s in c["samples"]]
            print("contact web-%d: %d samples fed (%s), ticks: %d; the page's actions: %s" % (
                k, len(phases), ", ".join("%s x%d" % (p, phases.count(p)) for p in dict.fromkeys(phases)),
                len(c["ticks"]),
                "; ".join("%s at %s%s" % (a["stage"], a["t"], " (timer, through tick)" if a["fromTick"] else "")
                          for a in c["actions"]) or "none"))
            print("  replay's actions: %s" % ("; ".join(
                "%s at %r" % (a["kind"], a["t"]) for a in result["actions"]) or "none"))
            page = [(a["stage"], float(a["t"])) for a in c["actions"]]
            replay = [(a["kind"], float(a["t"])) for a in result["actions"]]
            for i in range(max(len(page), len(replay))):
                p = page[i] if i < len(page) else None
                q = replay[i] if i < len(replay) else None
                if p is None or q is None or p[0] != q[0] or bits(p[1]) != bits(q[1]):
                    differences.append("web-%d action %d: page %s, replay %s" % (
                        k, i + 1, p and "%s at %s" % (p[0], show(p[1])), q and "%s at %s" % (q[0], show(q[1]))))
            page = [(e["state"], float(e["t"]), e["implicit"]) for e in c["transitions"]]
            replay = [(e["state"], float(e["t"]), e.get("implicit", False)) for e in result["events"]]
            for i in range(max(len(page), len(replay))):
                p = page[i] if i < len(page) else None
                q = replay[i] if i < len(replay) else None
                if p is None or q is None or p[0] != q[0] or bits(p[1]) != bits(q[1]) or p[2] != q[2]:
                    differences.append("web-%d transition %d: page %s, replay %s" % (k, i + 1, p, q))
            actions += len(result["actions"])
            transitions += len(result["events"])
            from_tick += sum(1 for a in c["actions"] if a["fromTick"])

        if actions == 0:
            differences.append("no action at all: the contacts exercised nothing")
        if state["usesTimers"] and from_tick == 0:
            differences.append("the recognizer keeps timers but no action came from a tick")
        print("compared with the replay: %d contacts, %d actions (%d from a timer through tick), "
              "%d transitions, bit for bit: %d differences" % (
                  len(contacts), actions, from_tick, transitions, len(differences)))
        for d in differences[:10]:
            print("  " + d)
        if differences:
            sys.exit(1)


if __name__ == "__main__":
    main()
