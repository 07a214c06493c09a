#!/usr/bin/env python3
"""The browser test of `touchtrace capture` (run by Scripts/check-capture.sh and
`make check-capture`): a real capture run driven by headless Chromium with W3C pen actions.

    check-capture.py TOUCHTRACE SCREENSHOT.png

Starts `touchtrace capture` on a free loopback port with a new dataset directory, reads the URL
from its first line of standard output, opens it, and for every prompt reads
#prompt[data-intent] and performs a pen contact on #capture-area: pointer down, four moves, up,
at pressures chosen per prompt. After the first contact it presses #redo and records that prompt
again. When the page says it is done, the command must exit 0 with its session summary (JSON,
--output -) after the URL line. Then the dataset is read back twice, with
`touchtrace inspect DIR --format json` and by reading the trace files here, and checked:
one trace per prompt, each with the intent the page showed, the participant, forces equal to the
pressures sent (float32 precision: 1e-6), phases began, moved x4, ended, time from 0 and never
decreasing; the redone contact's file is gone; the summary counts match. Fails (exit 1) on any
console message of level SEVERE. Needs Debian's chromium and chromium-driver, and selenium.
"""
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

INTENTS = ["press", "tap", "hold", "drag", "pop"]
PARTICIPANT = "browser test"
SEED = 42
TOLERANCE = 1e-6


def pressures_for(contact):
    """Pressures of pointerdown and the four moves of contact number `contact` (from 0); pointerup is 0."""
    base = 0.05 + 0.04 * contact
    return [round(base + step, 3) for step in (0.0, 0.2, 0.45, 0.7, 0.35)]


def wait_for(condition, what, timeout=15):
    end = time.time() + timeout
    while time.time() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def pen_contact(driver, area, pressures):
    pen = PointerInput(interaction.POINTER_PEN, "pen")
    actions = ActionBuilder(driver, mouse=pen)
    actions.pointer_action.move_to(area, 0, 0)
    actions.pointer_action.pointer_down(pressure=pressures[0])
    for k, pressure in enumerate(pressures[1:], 1):
        actions.pointer_action.pause(0.02)
        actions.pointer_action.move_to(area, 6 * k, 4 * k, pressure=pressure)
    actions.pointer_action.pause(0.02)
    actions.pointer_action.pointer_up()
    actions.perform()


def page_state(driver):
    return driver.execute_script(
        """
        const p = document.getElementById("progress");
        return {state: document.body.dataset.state, index: Number(p.dataset.index),
                total: Number(p.dataset.total), progress: p.textContent,
                intent: document.getElementById("prompt").dataset.intent,
                words: document.getElementById("prompt").textContent,
                status: document.getElementById("status").textContent};
        """)


def read_trace_file(path):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    assert document["format"] == "touchtrace" and len(document["traces"]) == 1, path
    trace = document["traces"][0]
    n = len(trace["t"])
    # The writer leaves out the phase column when it is the default: began, moved..., ended.
    trace.setdefault("phase", ["began"] + ["moved"] * (n - 2) + ["ended"])
    return trace


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    touchtrace, screenshot = sys.argv[1:]
    failures = []
    work = tempfile.mkdtemp(prefix="touchtrace-capture-")
    dataset = os.path.join(work, "dataset")
    command = [touchtrace, "capture", "--dataset", dataset, "--port", "0", "--participant", PARTICIPANT,
               "--intents", ",".join(INTENTS), "--count", "1", "--seed", str(SEED), "--output", "-",
               "--format", "json", "--quiet"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    driver = None
    try:
        ready, _, _ = select.select([server.stdout], [], [], 20)
        assert ready, "touchtrace capture printed no URL within 20 s"
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/"), "first line is not the URL: %r" % url
        print("check-capture: " + url)

        options = webdriver.ChromeOptions()
        for argument in ("--headless=new", "--no-sandbox", "--window-size=1200,900", "--disable-gpu"):
            options.add_argument(argument)
        options.binary_location = "/usr/bin/chromium"
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        driver.get(url)
        area = driver.find_element("id", "capture-area")
        first = wait_for(lambda: page_state(driver) if page_state(driver)["state"] == "ready" else None, "the page")
        total = first["total"]
        assert total == len(INTENTS), "the page shows %d prompts, expected %d" % (total, len(INTENTS))
        assert first["progress"] == "1 of %d" % total, first["progress"]
        driver.save_screenshot(screenshot)

        shown = []       # the intent the page showed for each prompt, in order
        kept = []        # (intent, pressures) of each contact that stays in the dataset
        contact = 0
        redone = False
        index = 0
        while index < total:
            state = wait_for(lambda: (lambda s: s if s["state"] == "ready" and s["index"] == index else None)(page_state(driver)),
                             "prompt %d" % (index + 1))
            intent = state["intent"]
            assert intent in INTENTS, "data-intent %r is not an intent" % intent
            pressures = pressures_for(contact)
            pen_contact(driver, area, pressures)
            contact += 1
            if index == 0 and not redone:
                # Recorded, then redone: the page goes back to prompt 1, and this contact is not kept.
                wait_for(lambda: (lambda s: s if s["state"] == "ready" and s["index"] == 1 else None)(page_state(driver)),
                         "the first contact to be saved")
                driver.find_element("id", "redo").click()
                back = wait_for(lambda: (lambda s: s if s["state"] == "ready" and s["index"] == 0 else None)(page_state(driver)),
                                "redo")
                assert back["intent"] == intent, "after redo the prompt is %r, not %r" % (back["intent"], intent)
                redone = True
                continue
            shown.append(intent)
            kept.append((intent, pressures))
            index += 1
        done = wait_for(lambda: (lambda s: s if s["state"] == "done" else None)(page_state(driver)), "the end page")
        assert done["intent"] == "" and "All done" in done["words"], done
        assert done["progress"] == "%d of %d" % (total, total), done["progress"]
        severe = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        for entry in severe:
            failures.append("console error: " + entry["message"])

        try:
            code = server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            raise AssertionError("touchtrace capture did not exit after the last prompt")
        rest = server.stdout.read()
        errors = server.stderr.read()
        assert code == 0, "touchtrace capture exited with %d: %s" % (code, errors)
        assert errors == "", "--quiet, yet standard error says: " + errors
        summary = json.loads(rest)

        # The session summary.
        assert summary["seed"] == SEED and summary["participant"] == PARTICIPANT, summary
        assert summary["prompts"] == shown, "summary prompt order %s, page showed %s" % (summary["prompts"], shown)
        assert summary["completed"] == total and summary["total"] == total and not summary["interrupted"], summary
        assert summary["counts"] == {intent: shown.count(intent) for intent in INTENTS}, summary["counts"]
        assert len(summary["redone"]) == 1 and summary["redone"][0]["prompt"] == 0, summary["redone"]
        assert not os.path.exists(summary["redone"][0]["file"]), "the redone contact's file is still there"

        # The dataset as touchtrace reads it.
        inspect = json.loads(subprocess.run([touchtrace, "inspect", dataset, "--format", "json"],
                                            capture_output=True, text=True, check=True).stdout)
        assert inspect["traces"] == {"total": total, "analyzed": total, "skipped": 0}, inspect["traces"]
        for intent in INTENTS:
            assert inspect["intents"][intent] == shown.count(intent), (intent, inspect["intents"])
        assert inspect["users"] == [{"user": PARTICIPANT, "traces": total}], inspect["users"]
        assert inspect["phases"] == {"cancelled": 0, "unterminated": 0}, inspect["phases"]

        # The files themselves, in the order written.
        files = [entry["file"] for entry in summary["files"]]
        assert sorted(os.path.join(dataset, name) for name in os.listdir(dataset) if name.endswith(".json")) == sorted(files)
        for k, (path, (intent, pressures)) in enumerate(zip(files, kept)):
            trace = read_trace_file(path)
            expected = pressures + [0.0]
            where = "%s (prompt %d)" % (os.path.basename(path), k + 1)
            if trace["intent"] != intent:
                failures.append("%s: intent %s, the page showed %s" % (where, trace["intent"], intent))
            if trace["user"] != PARTICIPANT or trace["max_force"] != 1.0 or not trace["device"].startswith("pen;"):
                failures.append("%s: user/max_force/device %r %r %r" % (where, trace["user"], trace["max_force"], trace["device"]))
            if str(SEED) not in trace["session"]:
                failures.append("%s: session %r does not record the seed" % (where, trace["session"]))
            if len(trace["force"]) != len(expected) or any(abs(a - b) > TOLERANCE for a, b in zip(trace["force"], expected)):
                failures.append("%s: forces %s, sent %s" % (where, trace["force"], expected))
            if trace["phase"] != ["began", "moved", "moved", "moved", "moved", "ended"]:
                failures.append("%s: phases %s" % (where, trace["phase"]))
            t = trace["t"]
            if t[0] != 0 or any(b < a for a, b in zip(t, t[1:])) or t[-1] <= 0:
                failures.append("%s: times %s" % (where, t))
    except AssertionError as error:
        failures.append(str(error))
    finally:
        if driver is not None:
            driver.quit()
        if server.poll() is None:
            server.kill()
            server.wait()
    for failure in failures:
        print("check-capture: FAIL " + failure, file=sys.stderr)
    if not failures:
        print("check-capture: %d prompts captured in Chromium (one redone); forces, phases, intents and the summary check out" % len(INTENTS))
        shutil.rmtree(work)
    else:
        print("check-capture: dataset kept in " + work, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
