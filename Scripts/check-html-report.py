#!/usr/bin/env python3
"""Renders a touchtrace HTML report in headless Chromium and checks it (the browser test of the
HTML report; run by Scripts/check-html-report.sh and `make check-html`).

    check-html-report.py REPORT.html REPORT.json SCREENSHOT.png [PRINT-CONFIG.toml]

REPORT.json is the JSON report of the same sweep (`--json-output`; an exact sweep's
`touchtrace-exact` report too: then fig-exact-<group> per group, and the verdict names its `ship`
text): the expected figure ids are
derived from it independently of the HTML writer: fig-metrics-<r> and fig-examples-<r> for every
recognizer <r> with results, fig-roc, fig-pr, fig-latency-cdf, fig-latency-param, fig-tradeoff,
fig-fp-intent, and fig-confusion when some result has a confusion matrix. <r> is the recognizer's
name with every character outside A-Z a-z 0-9 - replaced by _.

Also fails on: a plot with more than 8 data series (legend entries other than annotations); a
point of the latency-against-threshold plots without its n; text boxes that overlap in an
example figure or a plot title wider than its plot; and, given PRINT-CONFIG.toml (the output of
the same command's --print-config), a study file in the page that is not that file (as TOML,
and line for line) but for the options that change no number.

Fails (exit 1) on: a page whose first section is not the verdict (`<section id="verdict">`,
heading "Verdict", at the top of the page) or whose verdict does not name the configuration the
JSON report recommends; any console message of level SEVERE (errors), a missing figure, a figure
without a visible area, an SVG plot with nothing drawn in its data area, a resource loaded from
anywhere (the page must be self-contained), a page wider than the window, a section toggle
that does not hide and show its section, or printing to PDF failing. Saves a screenshot of the top of the page (the verdict).
Needs Debian's chromium and chromium-driver, and selenium (pip).
"""
import json
import re
import sys

from browser import new_driver


def expected_ids(report):
    if report["format"] == "touchtrace-exact":
        # One figure per group of an exact sweep of one parameter: fig-exact-<recognizer[-fixed…]>,
        # every character outside A-Z a-z 0-9 replaced by -.
        if len(report["axes"]) != 1:
            return []
        groups = []
        for interval in report["intervals"]:
            key = report["recognizer"] + "".join("-" + f for f in interval.get("fixed", []))
            if key not in groups:
                groups.append(key)
        return ["fig-exact-" + re.sub(r"[^A-Za-z0-9]", "-", g) for g in groups]
    names = []
    for result in report["results"]:
        if result["recognizer"] not in names:
            names.append(result["recognizer"])
    part = lambda name: re.sub(r"[^A-Za-z0-9-]", "_", name)
    ids = ["fig-metrics-" + part(n) for n in names] + ["fig-examples-" + part(n) for n in names]
    ids += ["fig-roc", "fig-pr", "fig-latency-cdf", "fig-latency-param", "fig-tradeoff", "fig-fp-intent"]
    if any(r.get("confusion") for r in report["results"]):
        ids.append("fig-confusion")
    return ids


# Legend entries that annotate rather than draw a data series.
ANNOTATIONS = {"chosen configuration", "Pareto front", "threshold", "reference time", "action", "stage 2",
               "force", "n < 5", "chance"}
# The options a report leaves out of its study file (StudyFile.Effective.presentation): the global
# options (GlobalOptions: quiet, verbose, threads; config and print-config are never written) and
# where the outputs go.
PRESENTATION = {"output", "format", "quiet", "verbose", "threads", "json-output", "csv-output", "csv-dir",
                "outcomes", "outcomes-filter", "junit", "export", "export-json", "export-swift", "write-baseline",
                "shard", "partial", "batch-traces"}


def study_file_failures(page_text, config_path):
    import tomllib
    with open(config_path, encoding="utf-8") as f:
        printed = f.read()
    expected_lines = [line for line in printed.splitlines()
                      if not line.startswith("#") and line.split(" = ")[0] not in PRESENTATION]
    shown_lines = page_text.splitlines()
    failures = []
    if [l for l in shown_lines if l] != [l for l in expected_lines if l]:
        failures.append("the study file in the page differs, line for line, from --print-config")
    def kept(document):
        return {table: {k: v for k, v in values.items() if k not in PRESENTATION} if isinstance(values, dict) else values
                for table, values in document.items()}
    try:
        if tomllib.loads(page_text) != kept(tomllib.loads(printed)):
            failures.append("the study file in the page is not the TOML --print-config gives")
    except tomllib.TOMLDecodeError as error:
        failures.append(f"the study file in the page is not TOML: {error}")
    return failures


def format_value(value):
    """A parameter value as the reports print it (Swift's description of a Double)."""
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return str(value)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    html, report_path, screenshot = sys.argv[1:4]
    config_path = sys.argv[4] if len(sys.argv) == 5 else None
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    ids = expected_ids(report)
    exact = report["format"] == "touchtrace-exact"
    if exact:
        shipped = report["verdict"]["ship"]
    else:
        recommended = report["verdict"]["recommended"]
        shipped = " ".join([recommended["recognizer"]] + [
            f"{name}={format_value(recommended['params'][name])}" for name in recommended["varied"]])

    driver = new_driver(1400, 1300)
    failures = []
    pages = 0
    try:
        driver.get("file://" + __import__("os").path.abspath(html))
        for id in ids:
            state = driver.execute_script(
                """
                const f = document.getElementById(arguments[0]);
                if (!f) return null;
                const box = f.getBoundingClientRect();
                const plots = Array.from(f.querySelectorAll('svg.plot'));
                const drawn = plots.map(svg => {
                  const area = svg.querySelector('g[clip-path]');
                  if (!area) return 0;
                  return Array.from(area.children).filter(c => {
                    const b = c.getBBox(); return b.width > 0 || b.height > 0;
                  }).length;
                });
                return {width: box.width, height: box.height, plots: plots.length, drawn: drawn};
                """,
                id,
            )
            if state is None:
                failures.append(f"{id}: missing")
            elif state["width"] <= 0 or state["height"] <= 0:
                failures.append(f"{id}: no visible area ({state['width']} × {state['height']})")
            elif state["plots"] == 0:
                failures.append(f"{id}: no plot")
            elif min(state["drawn"]) == 0:
                failures.append(f"{id}: a plot with nothing drawn in its data area ({state['drawn']})")
        verdict = driver.execute_script(
            """
            const first = document.querySelector('body > section');
            if (!first) return null;
            const heading = first.querySelector('h2');
            return {id: first.id, heading: heading ? heading.textContent.trim() : '',
                    top: first.getBoundingClientRect().top + window.scrollY, text: first.textContent};
            """
        )
        if verdict is None or verdict["id"] != "verdict" or verdict["heading"] != "Verdict":
            failures.append(f"the first section is not the verdict: {verdict and (verdict['id'], verdict['heading'])}")
        elif verdict["top"] > 400:
            failures.append(f"the verdict starts {verdict['top']:.0f} px down the page, not at its top")
        elif "Ship " + shipped not in verdict["text"]:
            failures.append(f"the verdict does not name the recommended configuration `{shipped}`")
        # No plot draws more than 8 data series.
        crowded = driver.execute_script(
            """
            const annotations = new Set(arguments[0]);
            return Array.from(document.querySelectorAll('svg.plot')).map(svg => {
              const labels = Array.from(svg.querySelectorAll('g.legend text.legend-label')).map(t => t.textContent);
              return [svg.closest('figure').id, svg.querySelector('title').textContent,
                      labels.filter(l => !annotations.has(l)).length];
            }).filter(p => p[2] > 8);
            """,
            sorted(ANNOTATIONS),
        )
        for figure, title, count in crowded:
            failures.append(f"{figure}: the plot '{title}' draws {count} series (more than 8)")
        # Every quantile point says its n.
        bare = driver.execute_script(
            """
            const f = document.getElementById('fig-latency-param');
            if (!f) return -1;
            return Array.from(f.querySelectorAll('g[clip-path] circle')).filter(c => {
              const t = c.querySelector('title'); return !t || !/n = [0-9]+/.test(t.textContent);
            }).length;
            """
        )
        if bare != 0 and not exact:
            failures.append(f"fig-latency-param: {bare} quantile points without their n" if bare > 0 else "fig-latency-param: missing")
        # No text overlaps in the example figures; titles fit their plots.
        overlaps = driver.execute_script(
            """
            const out = [];
            document.querySelectorAll('figure[id^="fig-examples-"] svg.plot').forEach(svg => {
              const frame = svg.getBoundingClientRect();
              const boxes = Array.from(svg.querySelectorAll('text')).map(t => [t, t.getBoundingClientRect()]);
              const name = svg.querySelector('title').textContent;
              boxes.forEach(([t, b]) => {
                if (t.classList.contains('plot-title') && b.right > frame.right + 0.5) out.push(name + ': title wider than the plot');
              });
              for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                const a = boxes[i][1], b = boxes[j][1];
                if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
                  out.push(name + ': "' + boxes[i][0].textContent + '" overlaps "' + boxes[j][0].textContent + '"');
              }
            });
            return out;
            """
        )
        failures += overlaps
        if config_path:
            study = driver.execute_script(
                "const c = document.querySelector('pre code.language-toml'); return c ? c.textContent : null")
            if study is None:
                failures.append("no study file (<pre><code class=language-toml>) in the page")
            else:
                failures += study_file_failures(study, config_path)
        figures = driver.execute_script("return document.querySelectorAll('figure.report-figure').length")
        resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        if resources:
            failures.append(f"the page loaded resources: {resources}")
        overflow = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if overflow[0] > overflow[1]:
            failures.append(f"the page is wider ({overflow[0]} px) than the window ({overflow[1]} px)")
        toggled = driver.execute_script(
            """
            const b = document.querySelector('button.toggle');
            if (!b) return 'no toggle';
            const t = document.getElementById(b.dataset.target);
            b.click(); const hidden = t.offsetHeight === 0;
            b.click(); const shown = t.offsetHeight > 0;
            return hidden && shown ? 'ok' : 'toggle failed';
            """
        )
        if toggled != "ok":
            failures.append(toggled)
        # It prints: Chromium's print to PDF, A4, with the print style sheet.
        import base64
        from selenium.webdriver.common.print_page_options import PrintOptions
        pdf = base64.b64decode(driver.print_page(PrintOptions()))
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        if not pdf.startswith(b"%PDF") or pages == 0:
            failures.append("printing to PDF failed")
        # The top of the page: the title and the verdict a reader acts on.
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(screenshot)
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        for entry in errors:
            failures.append(f"console error: {entry['message']}")
    finally:
        driver.quit()

    print(f"{html}: {len(ids)} expected figures, {figures} figures on the page, {pages} printed pages; screenshot {screenshot}")
    if failures:
        for failure in failures:
            print("FAIL: " + failure)
        sys.exit(1)
    print(f"OK: the verdict first, shipping {shipped}; no console errors, every figure present and drawn, nothing loaded, toggles work")


if __name__ == "__main__":
    main()
