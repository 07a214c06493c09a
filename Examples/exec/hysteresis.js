#!/usr/bin/env node
// hysteresis (a libinput-style press/release latch) as an exec: recognizer for TouchTrace.
//
//   touchtrace sweep samples/ --recognizer 'exec:node Examples/exec/hysteresis.js' \
//       --vary pressThreshold=0.1:0.5:0.1 --set releaseThreshold=0.08
//
// It speaks the exec protocol (Sources/TouchExec/Documentation.docc/TheExecProtocol.md): a hello
// line, then one answer per request, in order. Rule, on each delivered sample (phase `began` or
// `moved`), with n = force / max_force: n > palmThreshold rejects the contact for good (before
// any press the recognizer fails there); released and n >= pressThreshold presses (an action);
// pressed and n < releaseThreshold releases. Parameters (normalized force): pressThreshold
// (0.12), releaseThreshold (0.10), palmThreshold (off unless given); strictPress and
// inclusiveRelease (0 or 1) switch the press to `>` and the release to `<=`.
"use strict";
const readline = require("readline");

function decide(request) {
  const p = request.params;
  const press = p.pressThreshold ?? 0.12;
  const release = p.releaseThreshold ?? 0.1;
  const palm = p.palmThreshold ?? NaN;
  const strict = (p.strictPress ?? 0) !== 0;
  const inclusive = (p.inclusiveRelease ?? 0) !== 0;
  const actions = [];
  let pressed = false;
  for (const s of request.samples) {
    if (s.phase !== "began" && s.phase !== "moved") continue;
    const n = s.force / s.max_force;
    if (n > palm) {
      return actions.length === 0 ? { actions, failed: s.t } : { actions };
    }
    if (pressed) {
      if (inclusive ? n <= release : n < release) pressed = false;
    } else if (strict ? n > press : n >= press) {
      pressed = true;
      actions.push({ t: s.t, stage: 1 });
    }
  }
  return { actions };
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let greeted = false;
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (!greeted) {
    if (message.version !== 1) {
      process.stderr.write(`hysteresis.js: unsupported protocol version ${message.version}\n`);
      process.exit(1);
    }
    greeted = true;
    process.stdout.write(JSON.stringify({ touchtrace: "exec", version: 1, name: "hysteresis (node)" }) + "\n");
    return;
  }
  process.stdout.write(JSON.stringify({ seq: message.seq, ...decide(message) }) + "\n");
});
