#!/usr/bin/env python3
"""The browser test of `touchtrace try` (run by Scripts/check-capture.sh and `make check-capture`):
a pen pressed on the try page in headless Chromium, two configurations at once.

    check-try.py TOUCHTRACE SCREENSHOT.png

Starts `touchtrace try --recognizer deep-press:threshold=0.35 --recognizer stable-press` with a
dataset on a free loopback port, opens the printed URL and performs a W3C pen contact on
#try-area whose pressure rises to 0.9 and falls. While the pen is still down, the provisional
marks (#marks li[data-final=false]) must all lie before the newest sample and be among the final
ones. After the lift the page shows the final marks (data-final=true); the contact is saved with
the intent "press" (#save-intent, #save), and `touchtrace run` on the saved file, once per
configuration, must give the same actions: kinds, sample indices and times equal as numbers
(the page writes the replay's doubles as JavaScript's shortest round-trip text). Both
configurations must act. Fails (exit 1) on any console message of level SEVERE. Writes a
screenshot of the page after the contact. Needs Debian's chromium and chromium-driver, and
selenium.
"""
import json
import os
import subprocess
import time

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from browser import begin, conclude, new_driver, start_server, wait_for

CONFIGURATIONS = [("deep-press", {"threshold": "0.35"}), ("stable-press", {})]
# A firm press: pressures of pointerdown and the moves (pointerup is 0).
PRESSURES = [0.05, 0.12, 0.22, 0.35, 0.5, 0.62, 0.75, 0.86, 0.9, 0.88, 0.8, 0.6, 0.4, 0.2, 0.08]
SPLIT = 8  # events sent before the mid-contact look


def marks(driver, final):
    return driver.execute_script(
        """
        return Array.from(document.querySelectorAll("#marks li")).filter(li => li.dataset.final === arguments[0])
          .map(li => ({configuration: Number(li.dataset.configuration), kind: li.dataset.kind,
                       t: li.dataset.t, index: Number(li.dataset.index)}));
        """, "true" if final else "false")


def main():
    touchtrace, screenshot, work = begin("try", __doc__)
    failures = []
    dataset = os.path.join(work, "tried")
    command = [touchtrace, "try", "--dataset", dataset, "--participant", "browser", "--port", "0", "--quiet"]
    for name, parameters in CONFIGURATIONS:
        command += ["--recognizer", name + (":" + ",".join("%s=%s" % p for p in parameters.items()) if parameters else "")]
    server, url = start_server(command, "try")
    driver = None
    try:
        driver = new_driver(1100, 900)
        driver.get(url)
        wait_for(lambda: driver.execute_script("return document.body.dataset.state") == "ready", "the page", 20)
        area = driver.find_element("id", "try-area")
        names = driver.execute_script(
            "return Array.from(document.querySelectorAll('#configurations li')).map(li => li.dataset.configuration)")
        assert names == ["0", "1"], "the page lists configurations %s" % names

        pen = PointerInput(interaction.POINTER_PEN, "pen")
        actions = ActionBuilder(driver, mouse=pen)
        actions.pointer_action.move_to(area, -100, 0)
        actions.pointer_action.pointer_down(pressure=PRESSURES[0])
        for k, pressure in enumerate(PRESSURES[1:SPLIT], 1):
            actions.pointer_action.pause(0.03)
            actions.pointer_action.move_to(area, -100 + k % 2, 0, pressure=pressure)
        actions.perform()
        # The pen is still down: the replies to the prefixes so far.
        time.sleep(0.5)
        state = driver.execute_script("return document.body.dataset.state")
        assert state in ("pressing", "deciding"), "while the pen is down the page is %r" % state
        provisional = marks(driver, final=False)

        actions = ActionBuilder(driver, mouse=pen)
        for k, pressure in enumerate(PRESSURES[SPLIT:], SPLIT):
            actions.pointer_action.pause(0.03)
            actions.pointer_action.move_to(area, -100 + k % 2, 0, pressure=pressure)
        actions.pointer_action.pause(0.03)
        actions.pointer_action.pointer_up()
        actions.perform()
        wait_for(
            lambda: driver.execute_script("return document.body.dataset.state") == "decided", "the final replay", 20)
        final = marks(driver, final=True)
        assert not marks(driver, final=False), "provisional marks are left after the final replay"
        for k in range(len(CONFIGURATIONS)):
            assert any(m["configuration"] == k for m in final), "configuration %d did not act on a firm press" % k
        for mark in provisional:
            if mark not in final:
                failures.append("provisional mark %s is not among the final ones %s" % (mark, final))
        driver.save_screenshot(screenshot)

        driver.execute_script("document.getElementById('save-intent').value = 'press'")
        driver.find_element("id", "save").click()
        saved = wait_for(lambda: driver.execute_script("return document.body.dataset.savedFile"), "the saved file", 20)
        assert os.path.dirname(saved) == dataset, saved
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                failures.append("console error: " + entry["message"])

        with open(saved, encoding="utf-8") as f:
            trace = json.load(f)["traces"][0]
        assert trace["intent"] == "press" and trace["user"] == "browser", trace
        for k, (name, parameters) in enumerate(CONFIGURATIONS):
            run = [touchtrace, "run", saved, "--recognizer", name, "--format", "json", "--output", "-", "--quiet"]
            for item in parameters.items():
                run += ["--set", "%s=%s" % item]
            result = json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout)["results"][0]
            expected = [(a["kind"], a["index"], a["t"]) for a in result["actions"]]
            shown = [(m["kind"], m["index"], float(m["t"])) for m in final if m["configuration"] == k]
            if shown != expected:
                failures.append("%s: the page marked %s, touchtrace run on the saved trace gives %s" % (name, shown, expected))
            else:
                print("check-try: %s: %d action(s) at t = %s s, equal to touchtrace run on the saved trace"
                      % (name, len(shown), ", ".join(m["t"] for m in final if m["configuration"] == k)))
        print("check-try: %d provisional mark(s) while the pen was down, all final" % len(provisional))
    except AssertionError as error:
        failures.append(str(error))
    finally:
        if driver is not None:
            driver.quit()
        if server.poll() is None:
            server.terminate()
            try:
                code = server.wait(timeout=10)
                if code != 0:
                    failures.append("touchtrace try exited %d on SIGTERM: %s" % (code, server.stderr.read()))
            except subprocess.TimeoutExpired:
                server.kill()
                failures.append("touchtrace try did not end within 10 s of SIGTERM")
    conclude("check-try", failures, work, "dataset")


if __name__ == "__main__":
    main()
