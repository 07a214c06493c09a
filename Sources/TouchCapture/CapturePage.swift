import TouchCore

/// The capture page: one self-contained HTML document (no external resources).
///
/// Elements the contract names: `#prompt` (the prompt in words; `data-intent` holds the intent
/// word, empty when done) and `#capture-area` (where contacts are recorded). Also `#progress`
/// ("k of n", with `data-index` and `data-total`), `#redo`, `#status`, and `data-state` on
/// `body` (`ready`, `sending`, `done`).
enum CapturePage {
  /// The page with `state` (the JSON of `CaptureSession.stateJSON()`) built in, the current
  /// prompt already in `#prompt` and `#progress` (the script keeps them current), the token its
  /// requests carry, and the session's secret its `POST` requests send (`X-Capture-Secret`).
  static func html(state: [UInt8], prompt: Intent?, index: Int, total: Int, token: String?, secret: String) -> [UInt8] {
    // JSON inside a script element: "<" written as \u003c, so no "</script>" can end it early.
    var stateText: [UInt8] = []
    for byte in state {
      if byte == UInt8(ascii: "<") { stateText += Array(#"\u003c"#.utf8) } else { stateText.append(byte) }
    }
    let stateJSON = String(decoding: stateText, as: UTF8.self)
    // The token holds only URL-unreserved characters (checked by CaptureConfiguration.validate),
    // the secret only hexadecimal digits.
    let query = token.map { "?token=" + $0 } ?? ""
    // Intent words and prompt words are fixed ASCII text without markup characters.
    let header =
      if let prompt {
        "<header><div id=\"prompt\" data-intent=\"\(prompt.rawValue)\">\(PromptWords.words(for: prompt))</div>"
          + "<div id=\"progress\" data-index=\"\(index)\" data-total=\"\(total)\">\(index + 1) of \(total)</div></header>\n"
      } else {
        "<header><div id=\"prompt\" data-intent=\"\">All done.</div>"
          + "<div id=\"progress\" data-index=\"\(index)\" data-total=\"\(total)\">\(total) of \(total)</div></header>\n"
      }
    return Array((head + header + body + "<script type=\"application/json\" id=\"state\">" + stateJSON + "</script>\n"
      + "<script>\nconst QUERY = \"" + query + "\";\nconst SECRET = \"" + secret + "\";\n" + script + "</script>\n</body>\n</html>\n").utf8)
  }

  private static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
    <link rel="icon" href="data:,">
    <title>touchtrace capture</title>
    <style>
    html, body { margin: 0; font: 18px/1.4 system-ui, sans-serif; background: #f6f6f4; color: #222; }
    header { display: flex; align-items: baseline; gap: 1em; padding: 12px 16px; flex-wrap: wrap; }
    #prompt { font-size: 2em; font-weight: 600; flex: 1 1 auto; }
    #progress { font-variant-numeric: tabular-nums; color: #555; }
    #capture-area { margin: 0 16px; height: 62vh; border: 3px dashed #8a8a8a; border-radius: 16px;
      background: #fff; touch-action: none; user-select: none; -webkit-user-select: none;
      -webkit-touch-callout: none; display: flex; align-items: center; justify-content: center; color: #999; }
    #capture-area.active { border-color: #1d6fd8; background: #eef5ff; }
    body[data-state="sending"] #capture-area { opacity: 0.6; }
    body[data-state="done"] #capture-area { display: none; }
    footer { padding: 12px 16px; display: flex; gap: 1em; align-items: center; flex-wrap: wrap; }
    #redo { font: inherit; padding: 8px 16px; border-radius: 8px; }
    #status { color: #555; }
    #status.error { color: #b00020; }
    </style>
    </head>
    <body data-state="ready">

    """

  private static let body = """
    <div id="capture-area">touch here — one contact per prompt</div>
    <footer><button id="redo" type="button">Redo the last contact (that was wrong)</button>
    <span id="status"></span></footer>

    """

  private static let script = #"""
    "use strict";
    let state = JSON.parse(document.getElementById("state").textContent);
    const area = document.getElementById("capture-area");
    const promptElement = document.getElementById("prompt");
    const progress = document.getElementById("progress");
    const statusElement = document.getElementById("status");
    const redoButton = document.getElementById("redo");
    let contact = null;
    let busy = false;

    function render() {
      if (state.done) {
        promptElement.dataset.intent = "";
        promptElement.textContent = "All done, thank you. The recording has ended; you can close this page.";
        progress.textContent = state.total + " of " + state.total;
      } else {
        promptElement.dataset.intent = state.intent;
        promptElement.textContent = state.words;
        progress.textContent = (state.index + 1) + " of " + state.total;
      }
      progress.dataset.index = String(state.index);
      progress.dataset.total = String(state.total);
      redoButton.disabled = busy || !state.canRedo;
      document.body.dataset.state = state.done ? "done" : (busy ? "sending" : "ready");
    }

    function say(text, isError) {
      statusElement.textContent = text;
      statusElement.className = isError ? "error" : "";
    }

    function sample(event, type) {
      const box = area.getBoundingClientRect();
      return {
        type: type, timeStamp: event.timeStamp, pressure: event.pressure, touchForce: null,
        tiltX: event.tiltX || 0, tiltY: event.tiltY || 0, width: event.width || 0, height: event.height || 0,
        x: event.clientX - box.left, y: event.clientY - box.top, pointerType: event.pointerType || ""
      };
    }

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
        say("Not saved (" + response.status + "): " + text, true);
      } catch (error) {
        say("Not sent: " + error, true);
      } finally {
        busy = false;
        render();
      }
      return false;
    }

    async function send(finished) {
      const upload = {
        prompt: state.index, intent: state.intent, participant: state.participant,
        device: {
          userAgent: navigator.userAgent,
          screen: screen.width + "x" + screen.height + "@" + window.devicePixelRatio,
          pointerType: finished.pointerType
        },
        events: finished.events
      };
      const intent = state.intent;
      if (await post("/contact", JSON.stringify(upload))) {
        say("Saved: " + intent + " (" + finished.events.length + " events).", false);
      }
    }

    area.addEventListener("pointerdown", (event) => {
      if (busy || state.done || contact !== null) return;
      event.preventDefault();
      try { area.setPointerCapture(event.pointerId); } catch (error) { /* capture is optional */ }
      contact = { pointerId: event.pointerId, pointerType: event.pointerType || "", events: [sample(event, "pointerdown")] };
      area.classList.add("active");
    });
    area.addEventListener("pointermove", (event) => {
      if (contact !== null && event.pointerId === contact.pointerId) contact.events.push(sample(event, "pointermove"));
    });
    for (const type of ["pointerup", "pointercancel"]) {
      area.addEventListener(type, (event) => {
        if (contact === null || event.pointerId !== contact.pointerId) return;
        contact.events.push(sample(event, type));
        const finished = contact;
        contact = null;
        area.classList.remove("active");
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
    redoButton.addEventListener("click", async () => {
      if (busy || !state.canRedo) return;
      if (await post("/redo", "")) say("Removed the last contact: do prompt " + (state.index + 1) + " again.", false);
    });
    render();
    """#
}
