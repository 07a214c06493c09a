#!/usr/bin/env python3
"""The browser test of `touchtrace capture` (run by Scripts/check-capture.sh and
`make check-capture`): real capture runs driven by headless Chromium with W3C pen actions.

    check-capture.py TOUCHTRACE SCREENSHOT.png

Run 1, a whole session as a participant does it: `touchtrace capture` on a free loopback port
with a study file (welcome, consent, texts for two intents), --practice 2 and --device. The page
opens on the welcome screen: Start stays disabled until the consent box is ticked. Two practice
contacts follow (never sent: no file appears). Then for every prompt it reads
#prompt[data-intent] and performs a pen contact on #capture-area at pressures chosen per prompt;
while the pen is down #force-meter[data-force] shows the pressure of the latest event; after
each contact #ack[data-recorded] counts it and shows "Recorded". The first contact is redone at
once, the last one after the last prompt (redo up to the end); then Finish ends the run, and the
command must exit 0 with its session summary (JSON, --output -) after the URL line. The dataset
is read back with `touchtrace inspect DIR --format json` and file by file: one trace per prompt
with the intent the page showed, the participant, the device name (the browser kept in the label
user_agent), forces equal to the pressures sent as the shortest decimal of their float32,
phases began, moved x4, ended, times from 0 and never decreasing; redone files gone.

Run 2: SIGINT after two contacts: exit 0 within 10 s, the summary in DATASET/.sessions marked
interrupted with those two files. Screenshots of the welcome screen and of a prompt are written
(SCREENSHOT and SCREENSHOT with -welcome before .png). Fails (exit 1) on any console message of
level SEVERE. Needs Debian's chromium and chromium-driver, and selenium.
"""
import json
import os
import signal
import struct
import subprocess
import time

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

import browser
from browser import start_server, wait_for

INTENTS = ["press", "tap", "hold", "drag", "pop"]
PARTICIPANT = "browser test"
SEED = 42
DEVICE = "check tablet"
PRACTICE = 2
STUDY = """
[capture]
welcome = "Thank you for taking part. You will touch the box on the screen a few times, each time as asked."
consent = "Your touches are saved with the name you were given. Nothing else about you is kept."

[capture.intents.press]
prompt = "Press firmly"
instructions = "Press down hard on the box, then lift."

[capture.intents.pop]
prompt = "Press, then press harder"
instructions = "Press down firmly, pause, then press even harder before you lift."

[capture.intents.tap]
prompt = "Tap"
[capture.intents.hold]
prompt = "Touch and hold"
[capture.intents.drag]
prompt = "Drag"
"""


def float32_shortest(value):
    """The shortest decimal that reads back to the float32 nearest `value` (as the page's pressures are)."""
    single = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 18):
        text = "%.*g" % (digits, single)
        if struct.unpack("f", struct.pack("f", float(text)))[0] == single:
            return float(text)
    return single


def pressures_for(contact):
    """Pressures of pointerdown and the four moves of contact number `contact` (from 0); pointerup is 0."""
    base = 0.05 + 0.04 * contact
    return [round(base + step, 3) for step in (0.0, 0.2, 0.45, 0.7, 0.35)]


def pen_contact(driver, area, pressures, meter=None, shot=None):
    """A pen contact: down, four moves, up. With `meter` (a list), the #force-meter reading while
    the pen is still down after the third event is appended to it (and a screenshot saved to
    `shot` then, when given)."""
    pen = PointerInput(interaction.POINTER_PEN, "pen")
    actions = ActionBuilder(driver, mouse=pen)
    actions.pointer_action.move_to(area, 0, 0)
    actions.pointer_action.pointer_down(pressure=pressures[0])
    for k, pressure in enumerate(pressures[1:], 1):
        actions.pointer_action.pause(0.02)
        actions.pointer_action.move_to(area, 6 * k, 4 * k, pressure=pressure)
        if k == 2 and meter is not None:
            # The pen stays down between the two action chains (W3C input state persists).
            actions.perform()
            meter.append(float(driver.find_element("id", "force-meter").get_attribute("data-force")))
            if shot is not None:
                driver.save_screenshot(shot)
            actions = ActionBuilder(driver, mouse=pen)
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
                instructions: document.getElementById("instructions").textContent,
                recorded: Number(document.getElementById("ack").dataset.recorded),
                ack: document.getElementById("ack").textContent,
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


def start_capture(touchtrace, arguments):
    return start_server([touchtrace, "capture"] + arguments, "capture")


def new_driver():
    return browser.new_driver(1000, 900)


def wait_state(driver, what, **wanted):
    def matches():
        s = page_state(driver)
        return s if all(s[key] == value for key, value in wanted.items()) else None
    return wait_for(matches, what)


def json_files(dataset):
    return sorted(os.path.join(dataset, name) for name in os.listdir(dataset) if name.endswith(".json"))


def whole_session(touchtrace, work, screenshot, failures):
    """Run 1: welcome, consent, practice, every prompt, redo at the start and at the end, Finish."""
    dataset = os.path.join(work, "dataset")
    study = os.path.join(work, "study.toml")
    with open(study, "w", encoding="utf-8") as f:
        f.write(STUDY)
    server, url = start_capture(touchtrace, [
        "--config", study, "--dataset", dataset, "--port", "0", "--participant", PARTICIPANT,
        "--count", "1", "--seed", str(SEED), "--practice", str(PRACTICE), "--device", DEVICE,
        "--output", "-", "--format", "json", "--quiet"])
    driver = None
    try:
        driver = new_driver()
        driver.get(url)
        welcome = wait_state(driver, "the welcome screen", state="welcome")
        start = driver.find_element("id", "start")
        assert not start.is_enabled(), "Start is enabled before the consent box is ticked"
        text = driver.find_element("id", "welcome-text").text
        assert text.startswith("Thank you for taking part"), text
        driver.save_screenshot(screenshot[:-4] + "-welcome.png")
        driver.find_element("id", "consent-agree").click()
        wait_for(lambda: start.is_enabled(), "Start to be enabled after agreeing")
        start.click()

        area = driver.find_element("id", "capture-area")
        for k in range(PRACTICE):
            trial = wait_state(driver, "practice %d" % (k + 1), state="practice")
            assert trial["progress"] == "Practice %d of %d" % (k + 1, PRACTICE), trial["progress"]
            assert "not recorded" in trial["instructions"], trial["instructions"]
            pen_contact(driver, area, [0.2, 0.4, 0.6, 0.4, 0.2])
            wait_for(lambda: page_state(driver)["progress"] != trial["progress"], "practice %d to end" % (k + 1))
            assert os.listdir(dataset) == [], "a practice contact was saved: %s" % os.listdir(dataset)

        first = wait_state(driver, "the first prompt", state="ready", index=0)
        total = first["total"]
        assert total == len(INTENTS), "the page shows %d prompts, expected %d" % (total, len(INTENTS))
        assert first["progress"] == "1 of %d" % total, first["progress"]
        assert first["instructions"], "no instructions under the prompt"
        if first["intent"] == "press":
            assert first["instructions"] == "Press down hard on the box, then lift.", first["instructions"]

        shown, kept, meters = [], [], []
        contact = 0
        index = 0
        redone_first = redone_last = False
        while index < total:
            state = wait_state(driver, "prompt %d" % (index + 1), state="ready", index=index)
            intent = state["intent"]
            assert intent in INTENTS, "data-intent %r is not an intent" % intent
            pressures = pressures_for(contact)
            # The screenshot of a prompt as the participant sees it, the pen pressing.
            shot = screenshot if index == 1 and not os.path.exists(screenshot) else None
            pen_contact(driver, area, pressures, meters, shot)
            assert meters[-1] == round(float32_shortest(pressures[2]), 3), \
                "force meter %s while the pen pressed at %s" % (meters[-1], pressures[2])
            contact += 1
            recorded = wait_for(lambda: (lambda s: s if s["recorded"] == index + 1 and s["state"] in ("ready", "review") else None)(page_state(driver)),
                                "contact %d to be recorded" % (index + 1))
            assert "Recorded" in recorded["ack"], "no acknowledgment: %r" % recorded["ack"]
            assert recorded["status"].startswith("Recorded."), recorded["status"]
            if index == 0 and not redone_first:
                driver.find_element("id", "redo").click()
                back = wait_state(driver, "redo of prompt 1", state="ready", index=0)
                assert back["intent"] == intent and back["recorded"] == 0, back
                redone_first = True
                continue
            shown.append(intent)
            kept.append((intent, pressures))
            index += 1
            if index == total and not redone_last:
                review = wait_state(driver, "the review after the last prompt", state="review")
                assert review["intent"] == "", review
                assert driver.find_element("id", "finish").is_displayed(), "no Finish after the last prompt"
                driver.find_element("id", "redo").click()
                again = wait_state(driver, "redo of the last prompt", state="ready", index=total - 1)
                assert again["intent"] == intent, again
                shown.pop()
                kept.pop()
                index -= 1
                redone_last = True
        wait_state(driver, "the review", state="review")
        driver.find_element("id", "finish").click()
        done = wait_state(driver, "the end page", state="done")
        assert "All done" in done["words"], done
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                failures.append("console error: " + entry["message"])

        try:
            code = server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            raise AssertionError("touchtrace capture did not exit after Finish")
        rest = server.stdout.read()
        errors = server.stderr.read()
        assert code == 0, "touchtrace capture exited with %d: %s" % (code, errors)
        assert errors == "", "--quiet, yet standard error says: " + errors
        summary = json.loads(rest)

        assert summary["seed"] == SEED and summary["participant"] == PARTICIPANT, summary
        assert summary["prompts"] == shown, "summary prompt order %s, page showed %s" % (summary["prompts"], shown)
        assert summary["completed"] == total and summary["total"] == total and not summary["interrupted"], summary
        assert summary["counts"] == {intent: shown.count(intent) for intent in INTENTS}, summary["counts"]
        assert [r["prompt"] for r in summary["redone"]] == [0, total - 1], summary["redone"]
        for r in summary["redone"]:
            assert not os.path.exists(r["file"]), "the redone contact's file is still there: " + r["file"]

        inspect = json.loads(subprocess.run([touchtrace, "inspect", dataset, "--format", "json"],
                                            capture_output=True, text=True, check=True).stdout)
        assert inspect["traces"] == {"total": total, "analyzed": total, "skipped": 0}, inspect["traces"]
        for intent in INTENTS:
            assert inspect["intents"][intent] == shown.count(intent), (intent, inspect["intents"])
        assert inspect["users"] == [{"user": PARTICIPANT, "traces": total}], inspect["users"]
        assert inspect["phases"] == {"cancelled": 0, "unterminated": 0}, inspect["phases"]

        files = [entry["file"] for entry in summary["files"]]
        assert json_files(dataset) == sorted(files)
        for k, (path, (intent, pressures)) in enumerate(zip(files, kept)):
            trace = read_trace_file(path)
            expected = [float32_shortest(p) for p in pressures] + [0.0]
            where = "%s (prompt %d)" % (os.path.basename(path), k + 1)
            if trace["intent"] != intent:
                failures.append("%s: intent %s, the page showed %s" % (where, trace["intent"], intent))
            if trace["user"] != PARTICIPANT or trace["max_force"] != 1.0 or trace["device"] != DEVICE:
                failures.append("%s: user/max_force/device %r %r %r" % (where, trace["user"], trace["max_force"], trace["device"]))
            if "Chrome" not in trace.get("labels", {}).get("user_agent", trace.get("user_agent", "")):
                failures.append("%s: the browser is not kept in the label user_agent: %r" % (where, trace))
            if str(SEED) not in trace["session"]:
                failures.append("%s: session %r does not record the seed" % (where, trace["session"]))
            if trace["force"] != expected:
                failures.append("%s: forces %s, sent %s (float32, shortest)" % (where, trace["force"], expected))
            if trace["phase"] != ["began", "moved", "moved", "moved", "moved", "ended"]:
                failures.append("%s: phases %s" % (where, trace["phase"]))
            t = trace["t"]
            if t[0] != 0 or any(b < a for a, b in zip(t, t[1:])) or t[-1] <= 0:
                failures.append("%s: times %s" % (where, t))
        return total
    finally:
        browser.close(driver, server)


def interrupted_session(touchtrace, work, failures):
    """Run 2: SIGINT after two contacts ends the run with its summary, marked interrupted."""
    dataset = os.path.join(work, "interrupted")
    server, url = start_capture(touchtrace, [
        "--dataset", dataset, "--port", "0", "--participant", "sigint", "--count", "2", "--seed", "7"])
    driver = None
    try:
        driver = new_driver()
        driver.get(url)
        area = driver.find_element("id", "capture-area")
        for index in range(2):
            wait_state(driver, "prompt %d" % (index + 1), state="ready", index=index)
            pen_contact(driver, area, pressures_for(index))
            wait_state(driver, "contact %d to be recorded" % (index + 1), recorded=index + 1)
        started = time.time()
        server.send_signal(signal.SIGINT)
        try:
            code = server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise AssertionError("touchtrace capture did not end within 10 s of SIGINT")
        seconds = time.time() - started
        errors = server.stderr.read()
        assert code == 0, "SIGINT: exit %d: %s" % (code, errors)
        assert "interrupted after 2 of 10 traces" in errors, errors
        sessions = os.path.join(dataset, ".sessions")
        names = os.listdir(sessions)
        assert len(names) == 1 and names[0].endswith(".json"), names
        with open(os.path.join(sessions, names[0]), encoding="utf-8") as f:
            summary = json.load(f)
        assert summary["interrupted"] and summary["completed"] == 2 and summary["total"] == 10, summary
        assert sorted(entry["file"] for entry in summary["files"]) == json_files(dataset), summary["files"]
        print("check-capture: SIGINT after 2 of 10 contacts: exit 0 in %.2f s, summary marked interrupted" % seconds)
    finally:
        browser.close(driver, server)


def main():
    touchtrace, screenshot, work = browser.begin("capture", __doc__)
    failures = []
    total = 0
    try:
        total = whole_session(touchtrace, work, screenshot, failures)
        interrupted_session(touchtrace, work, failures)
    except AssertionError as error:
        failures.append(str(error))
    browser.conclude(
        "check-capture", failures, work, "datasets",
        "welcome, consent, %d practice contacts (not saved), %d prompts captured in Chromium "
        "(the first and the last redone), Finish; forces, phases, intents, device and the summary check out"
        % (PRACTICE, total))


if __name__ == "__main__":
    main()
