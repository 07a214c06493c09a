import TouchCore

/// The capture page: one self-contained HTML document (no external resources), written for a
/// participant: what to do in plain words, practice that is not recorded, a live force meter, a
/// clear acknowledgment of each contact, redo up to the end and Finish.
///
/// Elements the contract names: `#prompt` (the prompt in words; `data-intent` holds the intent
/// word, empty when no contact is asked for) and `#capture-area` (where contacts are recorded).
/// Also `#instructions`, `#progress` ("k of n", with `data-index` and `data-total`; "Practice k
/// of n" during practice), `#welcome` with `#welcome-text`, `#consent-text`, `#consent-agree` and
/// `#start`, `#force-meter` (`data-force`: the pressure of the latest event while a contact lasts,
/// 0 otherwise), `#ack` (`data-recorded`: contacts recorded; it flashes "Recorded" after each),
/// `#redo`, `#finish`, `#status`, and `data-state` on `body` (`welcome`, `practice`, `ready`,
/// `sending`, `review` after the last prompt, `done`).
enum CapturePage {
  /// The page with `state` (the JSON of `CaptureSession.stateJSON()`) built in, the current
  /// prompt already in `#prompt` and `#progress` (the script keeps them current), the token its
  /// requests carry, and the session's secret its `POST` requests send (`X-Capture-Secret`).
  static func html(
    state: [UInt8], prompt: Intent?, words: String, index: Int, total: Int, token: String?, secret: String
  ) -> [UInt8] {
    // Intent words are fixed ASCII; prompt texts may be the study's own, so they are escaped.
    let header =
      if let prompt {
        "<header><div id=\"prompt\" data-intent=\"\(prompt.rawValue)\">\(escaped(words))</div>"
          + "<div id=\"progress\" data-index=\"\(index)\" data-total=\"\(total)\">\(index + 1) of \(total)</div></header>\n"
      } else {
        "<header><div id=\"prompt\" data-intent=\"\">That was the last one.</div>"
          + "<div id=\"progress\" data-index=\"\(index)\" data-total=\"\(total)\">\(total) of \(total)</div></header>\n"
      }
    return Array(
      (head + header + body + PageDocument.closing(state: state, token: token, secret: secret, script: script)).utf8)
  }

  /// `text` with `&`, `<`, `>` and `"` as character references.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }

  private static let head =
    PageDocument.opening(title: "Touch recording") + """
      html, body { margin: 0; font: 18px/1.45 system-ui, sans-serif; background: #f6f6f4; color: #222; }
      header { display: flex; align-items: baseline; gap: 1em; padding: 14px 16px 0; flex-wrap: wrap; }
      #prompt { font-size: 2em; font-weight: 650; flex: 1 1 auto; }
      #progress { font-variant-numeric: tabular-nums; color: #555; }
      #instructions { margin: 4px 16px 10px; color: #333; max-width: 46em; min-height: 1.45em; }
      #welcome { margin: 16px; padding: 20px 24px; background: #fff; border-radius: 16px; max-width: 46em;
        box-shadow: 0 1px 4px #0002; }
      #welcome h1 { font-size: 1.6em; margin: 0 0 0.6em; }
      #welcome p { white-space: pre-wrap; margin: 0 0 1em; }
      #consent-text { border-left: 4px solid #1d6fd8; padding-left: 12px; }
      #welcome button, footer button { font: inherit; padding: 10px 22px; border-radius: 10px; border: 1px solid #888;
        background: #fff; }
      #welcome #start, footer #finish { background: #1d6fd8; color: #fff; border-color: #1d6fd8; font-weight: 600; }
      button:disabled { opacity: 0.45; }
      .stage { position: relative; margin: 0 16px; }
      #capture-area { height: 56vh; border: 3px dashed #8a8a8a; border-radius: 16px;
        background: #fff; touch-action: none; user-select: none; -webkit-user-select: none;
        -webkit-touch-callout: none; display: flex; align-items: center; justify-content: center; color: #888; }
      #capture-area.active { border-color: #1d6fd8; background: #eef5ff; }
      #force-meter { display: flex; align-items: center; gap: 10px; margin: 10px 0 0; color: #555; font-size: 0.9em; }
      #force-track { flex: 1 1 auto; height: 14px; border-radius: 7px; background: #e3e3e0; overflow: hidden; }
      #force-level { height: 100%; width: 0; background: linear-gradient(90deg, #6aa7f0, #1d6fd8); }
      #ack { position: absolute; top: 38%; left: 50%; transform: translateX(-50%); padding: 8px 28px; border-radius: 14px;
        background: #e6f5ec; font-size: 2.2em; font-weight: 700; color: #137a3a; opacity: 0; transition: opacity 0.25s;
        pointer-events: none; white-space: nowrap; }
      #ack.show { opacity: 1; }
      body[data-state="sending"] #capture-area { opacity: 0.6; }
      body[data-state="practice"] #capture-area { border-color: #c48a00; }
      body[data-state="welcome"] .stage, body[data-state="welcome"] header, body[data-state="welcome"] #instructions,
      body[data-state="welcome"] footer { display: none; }
      body:not([data-state="welcome"]) #welcome { display: none; }
      body[data-state="review"] #capture-area, body[data-state="done"] .stage { display: none; }
      body:not([data-state="review"]) #finish { display: none; }
      body[data-state="done"] #redo, body[data-state="practice"] #redo { display: none; }
      footer { padding: 12px 16px; display: flex; gap: 1em; align-items: center; flex-wrap: wrap; }
      #status { color: #444; }
      #status.error { color: #b00020; }
      </style>
      </head>
      <body data-state="ready">

      """

  private static let body = """
    <div id="instructions"></div>
    <section id="welcome"><h1>Welcome</h1><p id="welcome-text"></p><p id="consent-text"></p>
    <p id="consent-line"><label><input type="checkbox" id="consent-agree"> I have read this and agree.</label></p>
    <button id="start" type="button">Start</button></section>
    <div class="stage"><div id="capture-area">touch here</div><div id="ack" data-recorded="0"></div>
    <div id="force-meter" data-force="0"><span>Force</span><div id="force-track"><div id="force-level"></div></div></div></div>
    <footer><button id="redo" type="button">Redo the last one</button><button id="finish" type="button">Finish</button>
    <span id="status"></span></footer>

    """

  private static let script = #"""
    "use strict";
    let state = JSON.parse(document.getElementById("state").textContent);
    const area = document.getElementById("capture-area");
    const promptElement = document.getElementById("prompt");
    const progress = document.getElementById("progress");
    const instructions = document.getElementById("instructions");
    const statusElement = document.getElementById("status");
    const redoButton = document.getElementById("redo");
    const finishButton = document.getElementById("finish");
    const startButton = document.getElementById("start");
    const agree = document.getElementById("consent-agree");
    const meter = document.getElementById("force-meter");
    const level = document.getElementById("force-level");
    const ack = document.getElementById("ack");
    const practiceKey = "touchtrace-practice-" + state.session;
    let practiced = Number(sessionStorage.getItem(practiceKey) || 0);
    let contact = null;
    let busy = false;
    let ackTimer = null;

    function practiceTrial() {
      if (!state.started || state.recorded > 0 || state.complete || state.done) return null;
      return practiced < state.practice.length ? state.practice[practiced] : null;
    }

    function render() {
      const trial = practiceTrial();
      let mode;
      if (state.done) {
        mode = "done";
        promptElement.dataset.intent = "";
        promptElement.textContent = "All done, thank you.";
        instructions.textContent = "The recording has ended. You can close this page.";
        progress.textContent = state.total + " of " + state.total;
      } else if (!state.started) {
        mode = "welcome";
        document.getElementById("welcome-text").textContent = state.welcome || "";
        document.getElementById("consent-text").textContent = state.consent || "";
        document.getElementById("consent-text").hidden = !state.consent;
        document.getElementById("consent-line").hidden = !state.consent;
        startButton.disabled = busy || (state.consent !== null && !agree.checked);
      } else if (trial !== null) {
        mode = "practice";
        promptElement.dataset.intent = trial.intent;
        promptElement.textContent = trial.words;
        instructions.textContent = trial.instructions + " This is practice: it is not recorded.";
        progress.textContent = "Practice " + (practiced + 1) + " of " + state.practice.length;
      } else if (state.complete) {
        mode = "review";
        promptElement.dataset.intent = "";
        promptElement.textContent = "That was the last one.";
        instructions.textContent = "If the last touch did not go as asked, redo it. Otherwise press Finish.";
        progress.textContent = state.total + " of " + state.total;
      } else {
        mode = busy ? "sending" : "ready";
        promptElement.dataset.intent = state.intent;
        promptElement.textContent = state.words;
        instructions.textContent = state.instructions;
        progress.textContent = (state.index + 1) + " of " + state.total;
      }
      progress.dataset.index = String(state.index);
      progress.dataset.total = String(state.total);
      ack.dataset.recorded = String(state.recorded);
      redoButton.disabled = busy || !state.canRedo;
      finishButton.disabled = busy || !state.canFinish;
      document.body.dataset.state = mode;
    }

    function say(text, isError) {
      statusElement.textContent = text;
      statusElement.className = isError ? "error" : "";
    }

    function acknowledge(text) {
      ack.textContent = text;
      ack.classList.add("show");
      if (ackTimer !== null) clearTimeout(ackTimer);
      ackTimer = setTimeout(() => { ack.classList.remove("show"); ackTimer = null; }, 1200);
    }

    function showForce(pressure) {
      const value = Math.max(0, Math.min(1, Number(pressure) || 0));
      meter.dataset.force = String(Math.round(value * 1000) / 1000);
      level.style.width = (value * 100) + "%";
    }

    \#(PageDocument.sampleFunction)

    async function post(path, body) {
      busy = true;
      render();
      try {
        const response = await fetch(path + QUERY, {
          method: "POST", headers: { "Content-Type": "application/json", "X-Capture-Secret": SECRET }, body: body
        });
        const text = await response.text();
        if (response.ok) {
          state = JSON.parse(text);
          return true;
        }
        say("That did not go through: " + text.trim() + " Please try again.", true);
      } catch (error) {
        say("The connection to the recording computer failed. Please try again.", true);
      } finally {
        busy = false;
        render();
      }
      return false;
    }

    async function send(finished) {
      if (practiceTrial() !== null) {
        practiced += 1;
        sessionStorage.setItem(practiceKey, String(practiced));
        acknowledge("Practice done");
        const next = practiceTrial();
        say(next !== null ? "Good. One more practice." : "Good. Now the real ones: they are recorded.", false);
        render();
        return;
      }
      const upload = {
        prompt: state.index, intent: state.intent, participant: state.participant,
        device: {
          userAgent: navigator.userAgent,
          screen: screen.width + "x" + screen.height + "@" + window.devicePixelRatio,
          pointerType: finished.pointerType
        },
        events: finished.events
      };
      if (await post("/contact", JSON.stringify(upload))) {
        acknowledge("\u2713 Recorded");
        say(state.complete ? "Recorded. That was the last one." : "Recorded. Next: " + state.words + ".", false);
      }
    }

    area.addEventListener("pointerdown", (event) => {
      if (busy || state.done || !state.started || state.complete || contact !== null) return;
      event.preventDefault();
      try { area.setPointerCapture(event.pointerId); } catch (error) { /* capture is optional */ }
      contact = { pointerId: event.pointerId, pointerType: event.pointerType || "", events: [sample(event, "pointerdown")] };
      area.classList.add("active");
      showForce(event.pressure);
    });
    area.addEventListener("pointermove", (event) => {
      if (contact === null || event.pointerId !== contact.pointerId) return;
      contact.events.push(sample(event, "pointermove"));
      showForce(event.pressure);
    });
    for (const type of ["pointerup", "pointercancel"]) {
      area.addEventListener(type, (event) => {
        if (contact === null || event.pointerId !== contact.pointerId) return;
        contact.events.push(sample(event, type));
        const finished = contact;
        contact = null;
        area.classList.remove("active");
        showForce(0);
        send(finished);
      });
    }
    // Touch.force, where the browser has it, belongs to the pointer event just recorded.
    for (const type of ["touchstart", "touchmove"]) {
      area.addEventListener(type, (event) => {
        if (contact === null || contact.pointerType !== "touch") return;
        const touch = event.changedTouches[0];
        const last = contact.events[contact.events.length - 1];
        if (touch && touch.force > 0 && last.touchForce === null) last.touchForce = touch.force;
      }, { passive: true });
    }
    area.addEventListener("contextmenu", (event) => event.preventDefault());
    agree.addEventListener("change", render);
    startButton.addEventListener("click", async () => {
      if (busy) return;
      if (await post("/start", JSON.stringify({ agree: agree.checked }))) {
        say(practiceTrial() !== null ? "First, a practice: it is not recorded." : "", false);
      }
    });
    redoButton.addEventListener("click", async () => {
      if (busy || !state.canRedo) return;
      if (await post("/redo", "")) say("The last one was removed. Please do it again: " + state.words + ".", false);
    });
    finishButton.addEventListener("click", async () => {
      if (busy || !state.canFinish) return;
      if (await post("/finish", "")) say("", false);
    });
    render();
    """#
}
