/// The Node conformance check: `node conformance-check.mjs VECTORS [CORE_MODULE_PATH]` runs the
/// core (by default `./KEBAB.js` beside the script; give tsc's output to check that instead) on
/// every contact of the vectors, plain and ticking, and compares its actions and transitions
/// with the replay's, bit for bit.
enum TypeScriptCheck {
  /// The check's source (without the header comment).
  static func source(_ c: ExportConfiguration, coreModule kebab: String) -> String {
    #"""
    // Usage: node conformance-check.mjs VECTORS [CORE_MODULE_PATH]
    //
    // Runs the core (default ./\#(kebab).js beside this file) on every contact of VECTORS (the
    // vectors.txt `touchtrace export` writes) twice: plain (every sample fed in order) and ticking
    // (before each sample after the first, tick(timerDeadline) when that deadline is due by the
    // sample's time, and tick() halfway between the two samples). Each run's actions (stage and time
    // bits) and state transitions (state, time bits, implicit) must equal the replay's, in order.
    // Prints `typescript: N contacts, A actions, E transitions, D differences` and the first 10
    // differences; exits 0 when there are none, 1 when there are, 2 when it cannot run.

    import { readFileSync } from "node:fs";
    import { resolve } from "node:path";
    import { pathToFileURL } from "node:url";

    const TYPE = "\#(c.typeName)";
    const PHASES = new Set(["began", "moved", "ended", "cancelled"]);
    const STAGES = new Set(["action", "stage2", "release"]);
    const STATES = new Set(["possible", "began", "changed", "ended", "cancelled", "failed"]);

    function fail(message) {
      console.error(`conformance-check: ${message}`);
      process.exit(2);
    }

    const args = process.argv.slice(2);
    if (args.length < 1 || args.length > 2) fail("usage: node conformance-check.mjs VECTORS [CORE_MODULE_PATH]");
    const moduleURL =
      args.length === 2 ? pathToFileURL(resolve(args[1])).href : new URL("./\#(kebab).js", import.meta.url).href;
    const Core = (await import(moduleURL))[TYPE];
    if (typeof Core !== "function") fail(`${moduleURL} exports no class ${TYPE}`);

    // Doubles travel as the 16 hexadecimal digits of their IEEE 754 bits.
    const bits = new DataView(new ArrayBuffer(8));
    function fromHex(text, where) {
      if (!/^[0-9a-fA-F]{16}$/.test(text)) fail(`${where}: '${text}' is not 16 hexadecimal digits`);
      bits.setBigUint64(0, BigInt("0x" + text));
      return bits.getFloat64(0);
    }
    function toHex(value) {
      bits.setFloat64(0, value);
      return bits.getBigUint64(0).toString(16).padStart(16, "0");
    }
    const show = (value) => `${toHex(value)} (${value})`;

    // Parse the vectors.
    let text;
    try {
      text = readFileSync(args[0], "utf8");
    } catch (error) {
      fail(`cannot read ${args[0]}: ${error.message}`);
    }
    const lines = text.split("\n");
    const head = lines[0].split(" ");
    if (head.length !== 3 || head[0] !== "touchtrace-vectors" || head[1] !== "1") {
      fail(`${args[0]}:1: not touchtrace-vectors version 1`);
    }
    if (head[2] !== Core.recognizer) {
      fail(`${args[0]} holds vectors of '${head[2]}', the core is '${Core.recognizer}'`);
    }
    const contacts = [];
    let contact = null;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (line === "") continue;
      const where = `${args[0]}:${i + 1}`;
      const f = line.split(" ");
      const expect = (n) => {
        if (f.length !== n) fail(`${where}: expected ${n} fields, found ${f.length}`);
        if (f[0] !== "contact" && contact === null) fail(`${where}: '${f[0]}' outside a contact`);
      };
      switch (f[0]) {
        case "contact":
          expect(2);
          if (contact !== null) fail(`${where}: contact ${contact.name} has no end`);
          contact = { name: f[1], samples: [], actions: [], transitions: [] };
          break;
        case "s":
          expect(7);
          if (!PHASES.has(f[1])) fail(`${where}: unknown phase '${f[1]}'`);
          contact.samples.push({
            phase: f[1], t: fromHex(f[2], where), force: fromHex(f[3], where), maxForce: fromHex(f[4], where),
            x: fromHex(f[5], where), y: fromHex(f[6], where),
          });
          break;
        case "a":
          expect(3);
          if (!STAGES.has(f[1])) fail(`${where}: unknown stage '${f[1]}'`);
          contact.actions.push({ stage: f[1], t: fromHex(f[2], where) });
          break;
        case "e":
          expect(4);
          if (!STATES.has(f[1]) || (f[3] !== "0" && f[3] !== "1")) fail(`${where}: bad transition '${line}'`);
          contact.transitions.push({ state: f[1], t: fromHex(f[2], where), implicit: f[3] === "1" });
          break;
        case "end":
          expect(1);
          if (contact.samples.length === 0) fail(`${where}: contact ${contact.name} has no samples`);
          contacts.push(contact);
          contact = null;
          break;
        default:
          fail(`${where}: unknown record '${f[0]}'`);
      }
    }
    if (contact !== null) fail(`${args[0]}: contact ${contact.name} has no end`);

    // Run and compare.
    function run(c, ticking) {
      const core = new Core();
      const actions = [];
      let previous = null;
      for (const s of c.samples) {
        if (ticking && previous !== null) {
          if (core.timerDeadline <= s.t) actions.push(...core.tick(core.timerDeadline));
          actions.push(...core.tick((previous.t + s.t) / 2));
        }
        actions.push(...core.feed(s.t, s.force, s.maxForce, s.x, s.y, s.phase));
        previous = s;
      }
      return { actions, kept: [...core.actions], transitions: [...core.transitions] };
    }

    const actionText = (a) => (a === undefined ? "nothing" : `${a.stage} at ${show(a.t)}`);
    const transitionText = (e) =>
      e === undefined ? "nothing" : `${e.state} at ${show(e.t)}${e.implicit ? " (implicit)" : ""}`;
    const sameAction = (a, b) => a !== undefined && b !== undefined && a.stage === b.stage && toHex(a.t) === toHex(b.t);
    const sameTransition = (a, b) =>
      a !== undefined && b !== undefined && a.state === b.state && toHex(a.t) === toHex(b.t) && a.implicit === b.implicit;

    // A difference is a run (plain or ticking) of a contact that differs anywhere, as the Swift
    // and Kotlin checks count; the details name each record that differs.
    const differences = [];
    let differingRuns = 0;
    let actionCount = 0;
    let transitionCount = 0;
    for (const c of contacts) {
      actionCount += c.actions.length;
      transitionCount += c.transitions.length;
      for (const ticking of [false, true]) {
        const label = `contact ${c.name} (${ticking ? "ticking" : "plain"})`;
        const got = run(c, ticking);
        const before = differences.length;
        const compare = (what, expected, actual, same, describe) => {
          for (let k = 0; k < Math.max(expected.length, actual.length); k++) {
            if (!same(expected[k], actual[k])) {
              differences.push(`${label}: ${what} ${k + 1}: expected ${describe(expected[k])}, got ${describe(actual[k])}`);
            }
          }
        };
        compare("action", c.actions, got.actions, sameAction, actionText);
        compare("transition", c.transitions, got.transitions, sameTransition, transitionText);
        compare("action (in core.actions)", got.actions, got.kept, sameAction, actionText);
        if (differences.length > before) differingRuns++;
      }
    }

    console.log(
      `typescript: ${contacts.length} contacts, ${actionCount} actions, ${transitionCount} transitions, ` +
        `${differingRuns} differences`,
    );
    for (const d of differences.slice(0, 10)) console.log(`  ${d}`);
    process.exit(differingRuns > 0 ? 1 : 0);

    """#
  }
}
