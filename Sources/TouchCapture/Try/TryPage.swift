/// The try page: one self-contained HTML document (no external resources).
///
/// Elements: `#try-area` (where one presses), `#plot` (an SVG of the contact's force over time,
/// seconds from touch-down, force 0–1), `#configurations` (one `li` per configuration with its
/// colour, name and decision, `data-configuration` its index), `#marks` (one `li` per action of
/// each configuration: `data-configuration`, `data-kind`, `data-t` (seconds, the replay's value
/// written as JavaScript's shortest round-trip text), `data-index` (the sample), `data-final`
/// (`true` once the whole contact is replayed)), `#save-intent` and `#save` (a tried contact saved
/// as a labeled trace), `#status`, and `data-state` on `body` (`ready`, `pressing`, `deciding`,
/// `decided`).
///
/// While the contact lasts, the page sends its events so far (`POST /replay`) whenever no request
/// is in flight and draws the events the server returns as provisional marks (dashed): the
/// replay of the prefix up to, not including, the newest sample's time, which the whole contact's
/// replay also has. On lift it sends the whole contact and draws its replay (solid marks).
enum TryPage {
  /// The page with `state` (``TrySession/stateJSON()``) built in, the token its requests carry
  /// and the session's secret its `POST` requests send.
  static func html(state: [UInt8], token: String?, secret: String) -> [UInt8] {
    Array((head + body + PageDocument.closing(state: state, token: token, secret: secret, script: script)).utf8)
  }

  private static let head =
    PageDocument.opening(title: "touchtrace try") + """
      html, body { margin: 0; font: 17px/1.4 system-ui, sans-serif; background: #f6f6f4; color: #222; }
      header { padding: 12px 16px 4px; }
      h1 { font-size: 1.4em; margin: 0 0 4px; }
      header p { margin: 0; color: #555; }
      #configurations { list-style: none; margin: 8px 16px; padding: 0; display: flex; flex-wrap: wrap; gap: 8px 20px; }
      #configurations li { display: flex; align-items: baseline; gap: 8px; }
      .swatch { width: 14px; height: 14px; border-radius: 3px; display: inline-block; align-self: center; }
      .name { font-weight: 600; }
      .decision { color: #444; font-variant-numeric: tabular-nums; }
      #try-area { margin: 0 16px; height: 56vh; border: 3px dashed #8a8a8a; border-radius: 16px; background: #fff;
        touch-action: none; user-select: none; -webkit-user-select: none; -webkit-touch-callout: none; position: relative; }
      #try-area.active { border-color: #1d6fd8; }
      #plot { width: 100%; height: 100%; display: block; }
      #hint { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; color: #999;
        pointer-events: none; font-size: 1.2em; }
      body[data-state="pressing"] #hint, body[data-state="deciding"] #hint, body[data-state="decided"] #hint { display: none; }
      footer { padding: 10px 16px; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
      footer button, footer select { font: inherit; padding: 6px 12px; border-radius: 8px; }
      #status { color: #555; }
      #status.error { color: #b00020; }
      #marks { margin: 0 16px 16px; padding-left: 20px; color: #333; font-variant-numeric: tabular-nums; }
      </style>
      </head>
      <body data-state="ready">

      """

  private static let body = """
    <header><h1>Press and see when each configuration acts</h1>
    <p>Press the area below with a finger or a pen. The line is the force; each coloured mark is the moment a
    configuration acts. Dashed marks come while you press; solid ones are the replay of the whole contact.</p></header>
    <ul id="configurations"></ul>
    <div id="try-area"><svg id="plot" xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="none"></svg>
    <div id="hint">press here</div></div>
    <footer><label>Save this contact as <select id="save-intent"></select></label>
    <button id="save" type="button" disabled>Save</button><span id="status"></span></footer>
    <ol id="marks"></ol>

    """

  private static let script = #"""
    "use strict";
    const state = JSON.parse(document.getElementById("state").textContent);
    const COLOURS = ["#1d6fd8", "#d8481d", "#2a9d3a", "#8e3ad8", "#c79100", "#0aa5a5", "#d81d8c", "#555555"];
    const area = document.getElementById("try-area");
    const plot = document.getElementById("plot");
    const list = document.getElementById("configurations");
    const marksList = document.getElementById("marks");
    const saveButton = document.getElementById("save");
    const saveIntent = document.getElementById("save-intent");
    const statusElement = document.getElementById("status");
    const SVG = "http://www.w3.org/2000/svg";
    let contact = null;      // the contact under way or last finished
    let number = 0;          // contacts started
    let inFlight = false;
    let answer = null;       // the newest replay answer of the current contact
    let decided = null;      // the finished contact once its whole replay is back

    for (const [k, name] of state.configurations.entries()) {
      const item = document.createElement("li");
      item.dataset.configuration = String(k);
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = COLOURS[k % COLOURS.length];
      const label = document.createElement("span");
      label.className = "name";
      label.textContent = name;
      const decision = document.createElement("span");
      decision.className = "decision";
      decision.id = "decision-" + k;
      decision.textContent = "—";
      item.append(swatch, label, decision);
      list.append(item);
    }
    for (const intent of state.intents) {
      const option = document.createElement("option");
      option.value = intent;
      option.textContent = intent;
      saveIntent.append(option);
    }
    if (!state.canSave) {
      saveIntent.disabled = true;
      saveButton.title = "start touchtrace try with --dataset DIR to save contacts";
    }

    function say(text, isError) {
      statusElement.textContent = text;
      statusElement.className = isError ? "error" : "";
    }

    function setState(value) { document.body.dataset.state = value; }

    \#(PageDocument.sampleFunction)

    function upload(current, intent) {
      return JSON.stringify({
        prompt: 0, intent: intent, participant: state.participant,
        device: { userAgent: navigator.userAgent, screen: screen.width + "x" + screen.height + "@" + window.devicePixelRatio,
                  pointerType: current.pointerType },
        events: current.events
      });
    }

    function element(name, attributes) {
      const node = document.createElementNS(SVG, name);
      for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
      return node;
    }

    // The plot: force (0–1) over seconds from touch-down; the server's times and forces once an
    // answer is back (the values the replay saw), the browser's own before.
    function draw() {
      const box = area.getBoundingClientRect();
      const width = Math.max(box.width, 1), height = Math.max(box.height, 1);
      plot.setAttribute("viewBox", "0 0 " + width + " " + height);
      plot.replaceChildren();
      if (contact === null) return;
      let t = contact.events.map((e) => (e.timeStamp - contact.events[0].timeStamp) / 1000);
      let force = contact.events.map((e) => e.pressure);
      if (answer !== null && answer.samples === contact.events.length) { t = answer.t; force = answer.force; }
      const span = Math.max(1, t[t.length - 1] * 1.1);
      const left = 44, right = 12, top = 12, bottom = 28;
      const x = (s) => left + (width - left - right) * s / span;
      const y = (f) => top + (height - top - bottom) * (1 - f);
      for (const f of [0, 0.25, 0.5, 0.75, 1]) {
        plot.append(element("line", { x1: left, x2: width - right, y1: y(f), y2: y(f), stroke: "#e4e4e4" }));
        const text = element("text", { x: left - 6, y: y(f) + 4, "text-anchor": "end", "font-size": 11, fill: "#777" });
        text.textContent = f.toFixed(2);
        plot.append(text);
      }
      for (let s = 0; s <= span; s += span > 4 ? 1 : 0.25) {
        const text = element("text", { x: x(s), y: height - 8, "text-anchor": "middle", "font-size": 11, fill: "#777" });
        text.textContent = s.toFixed(2) + " s";
        plot.append(text);
      }
      plot.append(element("polyline", {
        points: t.map((s, k) => x(s).toFixed(1) + "," + y(force[k]).toFixed(1)).join(" "),
        fill: "none", stroke: "#222", "stroke-width": 2
      }));
      if (answer === null) return;
      for (const [k, result] of answer.results.entries()) {
        for (const action of result.actions) {
          const colour = COLOURS[k % COLOURS.length];
          const line = element("line", {
            x1: x(action.t), x2: x(action.t), y1: top, y2: height - bottom, stroke: colour, "stroke-width": 2.5,
            "stroke-dasharray": answer.complete ? "none" : "6 4"
          });
          line.classList.add("mark");
          plot.append(line);
          const label = element("text", { x: x(action.t) + 4, y: top + 14 + 14 * k, "font-size": 12, fill: colour });
          label.textContent = action.kind;
          plot.append(label);
        }
      }
    }

    function describe(result) {
      if (result.actions.length === 0) return "no action (" + result.final_state + ")";
      return result.actions.map((a) => a.kind + " at " + a.t.toFixed(3) + " s").join(", ");
    }

    function show(reply, current) {
      if (current !== contact) return;
      answer = reply;
      marksList.replaceChildren();
      for (const [k, result] of reply.results.entries()) {
        document.getElementById("decision-" + k).textContent =
          reply.complete ? describe(result) : (result.actions.length ? describe(result) + " …" : "…");
        for (const action of result.actions) {
          const item = document.createElement("li");
          item.dataset.configuration = String(k);
          item.dataset.kind = action.kind;
          item.dataset.t = String(action.t);
          item.dataset.index = String(action.index);
          item.dataset.final = String(reply.complete);
          // Milliseconds, as the legend shows them; data-t keeps the exact time.
          item.textContent =
            state.configurations[k] + ": " + action.kind + " at " + action.t.toFixed(3) + " s (sample " + action.index + ")";
          marksList.append(item);
        }
      }
      draw();
    }

    // One request at a time: the newest events whenever the last answer is back; the whole
    // contact once it has ended.
    async function pump() {
      if (inFlight || contact === null) return;
      const current = contact;
      if (current.sent === current.events.length) return;
      inFlight = true;
      const count = current.events.length;
      const body = upload({ pointerType: current.pointerType, events: current.events.slice(0, count) }, "press");
      try {
        const response = await fetch("/replay" + QUERY, {
          method: "POST", headers: { "Content-Type": "application/json", "X-Capture-Secret": SECRET }, body: body
        });
        const text = await response.text();
        current.sent = count;
        if (!response.ok) {
          say("Not replayed (" + response.status + "): " + text, true);
        } else {
          const reply = JSON.parse(text);
          show(reply, current);
          if (reply.complete && current === contact) {
            decided = current;
            setState("decided");
            saveButton.disabled = !state.canSave;
            say("Replayed: the solid marks are what each configuration does on this contact.", false);
          }
        }
      } catch (error) {
        current.sent = count;
        say("Not sent: " + error, true);
      } finally {
        inFlight = false;
      }
      if (current === contact && current.sent < current.events.length) pump();
    }

    area.addEventListener("pointerdown", (event) => {
      if (contact !== null && !contact.ended) return;
      event.preventDefault();
      try { area.setPointerCapture(event.pointerId); } catch (error) { /* capture is optional */ }
      number += 1;
      contact = { number: number, pointerId: event.pointerId, pointerType: event.pointerType || "",
                  events: [sample(event, "pointerdown")], sent: 0, ended: false };
      answer = null;
      decided = null;
      saveButton.disabled = true;
      marksList.replaceChildren();
      for (const k of state.configurations.keys()) document.getElementById("decision-" + k).textContent = "…";
      area.classList.add("active");
      setState("pressing");
      say("", false);
      draw();
      pump();
    });
    area.addEventListener("pointermove", (event) => {
      if (contact === null || contact.ended || event.pointerId !== contact.pointerId) return;
      contact.events.push(sample(event, "pointermove"));
      draw();
      pump();
    });
    for (const type of ["pointerup", "pointercancel"]) {
      area.addEventListener(type, (event) => {
        if (contact === null || contact.ended || event.pointerId !== contact.pointerId) return;
        contact.events.push(sample(event, type));
        contact.ended = true;
        area.classList.remove("active");
        setState("deciding");
        draw();
        pump();
      });
    }
    area.addEventListener("contextmenu", (event) => event.preventDefault());
    saveButton.addEventListener("click", async () => {
      if (decided === null || !state.canSave) return;
      const current = decided;
      saveButton.disabled = true;
      try {
        const response = await fetch("/save" + QUERY, {
          method: "POST", headers: { "Content-Type": "application/json", "X-Capture-Secret": SECRET },
          body: upload(current, saveIntent.value)
        });
        const text = await response.text();
        if (response.ok) {
          const saved = JSON.parse(text);
          document.body.dataset.savedFile = saved.file;
          say("Saved as " + saved.intent + ": " + saved.file + " (" + saved.saved + " saved in this run).", false);
        } else {
          saveButton.disabled = false;
          say("Not saved (" + response.status + "): " + text, true);
        }
      } catch (error) {
        saveButton.disabled = false;
        say("Not sent: " + error, true);
      }
    });
    window.addEventListener("resize", draw);
    """#
}
