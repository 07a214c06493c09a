#!/usr/bin/env node
// Runs the real Pressure.js over touch traces and records the callbacks it makes, for the
// fidelity tests of the `pressure-js` (3D Touch adapter) and `pressure-js-pointer` (Pointer
// Events adapter) replicas: Tests/TouchRecognizersTests/Fixtures/pressurejs-fidelity.json.
//
// Library: Pressure.js 2.2.0 (npm `pressure@2.2.0`, banner "Pressure v2.2.0 | Created By Stuart
// Yamartino | MIT License | 2015 - 2020"), minified build. It is not part of this repository
// (MIT, but code from public material stays out of it): pass its path with --library. The
// fixture in the repository was produced from the build as bundled in
// seleb/flickguy-hacks dist/pressure.js (the factory unchanged; the bundler rewrote the UMD
// prologue to `module.exports = t()`), SHA-256 of the extracted text
// 074093c9c0405b5a0559b8a9681d75516d786feb34bb5fa4dab3fd84a61097d1; the script refuses a file
// with another digest unless --any-build is given. The npm registry was not reachable from the
// machine that made it.
//
// How traces are delivered (the same rules as touchtrace's replay harness):
// - the first sample is touchstart / pointerdown;
// - each later sample but the last whose force or position changed is a move: touchforcechange
//   when the force changed (the 3D Touch adapter binds no touchmove), pointermove otherwise;
//   unchanged samples are dropped;
// - the last sample is touchend / pointerup, or, for a cancelled trace, touchcancel /
//   pointercancel followed by pointerleave (the Pointer Events spec's order);
// - Touch.force and PointerEvent.pressure are force / max_force.
// The clock is virtual and exact: times are integers of microseconds; a setTimeout(f, 10) made
// at time T runs at T + 10 000 µs, before any event at that time or later ("timers first"), in
// the order the timers were made. After the last event timers keep running (the polyfill's
// ramp-down) until none is left or 10 s have passed.
//
// Traces: every trace of the samples (from --samples, JSON Lines as `touchtrace smooth samples/
// --method median --window 1 --format jsonl` writes them: the traces unchanged), recorded by id,
// and a seeded set of adversarial traces written into the fixture with their samples.
//
// Usage:
//   touchtrace smooth samples/ --method median --window 1 --format jsonl --output /tmp/samples.jsonl
//   node Scripts/make-pressurejs-fixtures.mjs --library pressure.min.js --samples /tmp/samples.jsonl \
//     --output Tests/TouchRecognizersTests/Fixtures/pressurejs-fidelity.json

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import vm from 'node:vm';

const pinnedDigest = '074093c9c0405b5a0559b8a9681d75516d786feb34bb5fa4dab3fd84a61097d1';

function parseArguments(argv) {
  const options = { library: null, samples: null, output: null, anyBuild: false, seed: 20261127 };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--library') options.library = argv[++i];
    else if (a === '--samples') options.samples = argv[++i];
    else if (a === '--output') options.output = argv[++i];
    else if (a === '--seed') options.seed = Number(argv[++i]);
    else if (a === '--any-build') options.anyBuild = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!options.library || !options.output) throw new Error('--library and --output are required');
  // The fixture never replaces an input of the run.
  const resolved = (p) => (p ? resolve(p) : null);
  if ([options.library, options.samples].map(resolved).includes(resolve(options.output))) {
    throw new Error(`--output ${options.output} is an input of this run`);
  }
  return options;
}

// ---------- the browser: a virtual clock, one element, feature detection per adapter ----------

class Browser {
  constructor(source, adapter, options) {
    this.now = 0;
    this.timers = [];
    this.sequence = 0;
    this.listeners = new Map();
    this.events = [];
    const browser = this;
    const element = {
      nodeType: 1,
      nodeName: 'DIV',
      style: {},
      addEventListener(type, handler) {
        if (!browser.listeners.has(type)) browser.listeners.set(type, []);
        browser.listeners.get(type).push(handler);
      },
      contains(target) { return target === element; },
    };
    this.element = element;
    // Feature detection happens when the library loads: the document offers exactly the
    // handlers of the browser being modelled.
    const document = adapter === 'pointer'
      ? { ontouchstart: null, onpointermove: null }            // iOS Safari 13+, Android Chrome
      : { ontouchstart: null, ontouchforcechange: null };      // iOS Safari <= 12 with 3D Touch
    function Touch() {}
    Touch.prototype.force = 0;
    const sandbox = {
      window: { document },
      document,
      Touch,
      module: { exports: {} },
      commonjsGlobal: {},
      setTimeout: (f, ms) => browser.setTimeout(f, ms),
      Math, Object, Array, Symbol, Reflect, Proxy, Date, TypeError, ReferenceError, String,
    };
    vm.createContext(sandbox);
    vm.runInContext(source, sandbox);
    const Pressure = sandbox.module.exports;
    const record = (name) => function () { browser.events.push([name, browser.now]); };
    Pressure.set(element, {
      start: record('start'),
      end: record('end'),
      startDeepPress: record('startDeepPress'),
      endDeepPress: record('endDeepPress'),
      unsupported: record('unsupported'),
    }, options);
  }

  setTimeout(f, ms) {
    this.timers.push({ due: this.now + Math.round(ms * 1000), sequence: this.sequence++, f });
  }

  runTimers(limit) {
    for (;;) {
      let next = -1;
      for (let i = 0; i < this.timers.length; i++) {
        const timer = this.timers[i];
        if (timer.due > limit) continue;
        if (next < 0 || timer.due < this.timers[next].due
            || (timer.due === this.timers[next].due && timer.sequence < this.timers[next].sequence)) next = i;
      }
      if (next < 0) return;
      const [timer] = this.timers.splice(next, 1);
      this.now = timer.due;
      timer.f();
    }
  }

  dispatch(type, at, event) {
    this.runTimers(at);
    this.now = at;
    for (const handler of this.listeners.get(type) ?? []) handler(event);
  }
}

/** Replays one trace; returns the callbacks as [name, seconds]. */
function replay(source, adapter, options, trace) {
  const browser = new Browser(source, adapter, options);
  const el = browser.element;
  const n = trace.t.length;
  const micros = trace.t.map((t) => Math.round(t * 1e6));
  const normalized = (i) => trace.force[i] / trace.max_force;
  const hasPosition = Array.isArray(trace.x) && trace.x.length === n;
  const touch = (i) => ({ force: normalized(i), target: el });
  const pointer = (i) => ({ pressure: normalized(i), pointerType: trace.pointer_type ?? 'touch', target: el });
  if (adapter === 'pointer') browser.dispatch('pointerdown', micros[0], pointer(0));
  else browser.dispatch('touchstart', micros[0], { touches: [touch(0)], target: el });
  for (let i = 1; i < n - 1; i++) {
    const forceChanged = trace.force[i] !== trace.force[i - 1];
    const moved = hasPosition && (trace.x[i] !== trace.x[i - 1] || trace.y[i] !== trace.y[i - 1]);
    if (!forceChanged && !moved) continue;
    if (adapter === 'pointer') browser.dispatch('pointermove', micros[i], pointer(i));
    else if (forceChanged) browser.dispatch('touchforcechange', micros[i], { touches: [touch(i)], target: el });
  }
  const last = n - 1;
  if (trace.cancelled) {
    if (adapter === 'pointer') {
      browser.dispatch('pointercancel', micros[last], pointer(last));
      browser.dispatch('pointerleave', micros[last], pointer(last));
    } else {
      browser.dispatch('touchcancel', micros[last], { touches: [], target: el });
    }
  } else if (adapter === 'pointer') {
    browser.dispatch('pointerup', micros[last], pointer(last));
  } else {
    browser.dispatch('touchend', micros[last], { touches: [], target: el });
  }
  browser.runTimers(micros[last] + 10_000_000);
  return browser.events.map(([name, at]) => [name, at / 1e6]);
}

// ---------- adversarial traces (seeded) ----------

function splitmix(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = BigInt.asUintN(64, state + 0x9E3779B97F4A7C15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94D049BB133111EBn);
    z = z ^ (z >> 31n);
    return Number(z >> 11n) / 2 ** 53;
  };
}

function adversarialTraces(seed) {
  const random = splitmix(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const integer = (low, high) => low + Math.floor(random() * (high - low + 1));
  const traces = [];
  const touchDowns = [0, 1_000_000, 12_345_000, 3_210_000, 100_007_000, 7_770_000, 123_456_789_000];
  const devices = [
    { max: 20 / 3, step: 1 / 60 },          // iPhone 6s: 1/60 steps up to 20/3
    { max: 1, step: 1 / 1024 },             // a pen
    { max: 255, step: 1 },                  // evdev ABS_MT_PRESSURE
    { max: 1, step: 0.5 },                  // a pressure-less pointer: 0, 0.5, 1
  ];
  // 1. Constant force (no force events): the polyfill, with lifts on and around its ticks.
  for (const t0 of touchDowns) {
    for (const liftAfter of [70_000, 490_000, 500_000, 559_999, 560_000, 560_001, 570_000, 1_200_000]) {
      for (const constant of [0, 0.5, 0.3]) {
        const t = [];
        for (let at = 0; at < liftAfter; at += 16_667) t.push(t0 + at);
        t.push(t0 + liftAfter);
        traces.push({
          id: `constant-${t0}-${liftAfter}-${constant}`, max_force: 1,
          t: t.map((x) => x / 1e6), force: t.map(() => constant),
          x: t.map(() => 100), y: t.map(() => 200), cancelled: false,
        });
      }
    }
  }
  // 2. Random presses: quantized force walks that cross 0.5, samples on and off the timer grid,
  // position-only moves, repeated values, cancellations.
  for (let k = 0; k < 240; k++) {
    const device = pick(devices);
    const t0 = pick(touchDowns) + (random() < 0.5 ? 0 : integer(0, 999_999));
    const n = integer(2, 45);
    const t = [t0];
    const levels = Math.round(device.max / device.step);
    let level = pick([0, 0, Math.round(levels / 2), integer(0, levels)]);
    const force = [level * device.step];
    let x = 100, y = 200;
    const xs = [x], ys = [y];
    let at = t0;
    for (let i = 1; i < n; i++) {
      at += pick([10_000, 16_667, 8_333, 5_000, 0, integer(1, 120_000)]);
      t.push(at);
      const r = random();
      if (r < 0.35) level = Math.max(0, Math.min(levels, level + integer(-Math.ceil(levels / 8), Math.ceil(levels / 6))));
      else if (r < 0.45) level = pick([0, Math.round(levels / 2), levels]);
      if (random() < 0.3) x += pick([-1, 0.5, 1]);
      if (random() < 0.1) y += 1;
      force.push(level * device.step);
      xs.push(x);
      ys.push(y);
    }
    traces.push({
      id: `random-${k}`, max_force: device.max, t: t.map((v) => v / 1e6), force, x: xs, y: ys,
      cancelled: random() < 0.15,
    });
  }
  return traces;
}

// ---------- main ----------

const options = parseArguments(process.argv);
const source = readFileSync(options.library, 'utf8');
const digest = createHash('sha256').update(source).digest('hex');
if (digest !== pinnedDigest && !options.anyBuild) {
  throw new Error(`${options.library}: SHA-256 ${digest}, not the pinned build ${pinnedDigest} (--any-build to accept it)`);
}
const optionSets = [
  { name: 'defaults', options: {} },
  { name: 'polyfillSpeedUp=0', options: { polyfillSpeedUp: 0 } },
  { name: 'polyfillSpeedUp=300', options: { polyfillSpeedUp: 300 } },
  { name: 'polyfill=false', options: { polyfill: false } },
];
function run(trace) {
  const result = {};
  for (const adapter of ['touch', 'pointer']) {
    result[adapter] = {};
    for (const set of optionSets) result[adapter][set.name] = replay(source, adapter, set.options, trace);
  }
  return result;
}
const fixture = {
  generator: 'Scripts/make-pressurejs-fixtures.mjs',
  library: 'pressure@2.2.0 (minified build)',
  library_sha256: digest,
  option_sets: optionSets,
  samples: [],
  traces: [],
};
if (options.samples) {
  for (const line of readFileSync(options.samples, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const trace = JSON.parse(line);
    trace.cancelled = Array.isArray(trace.phase) && trace.phase[trace.phase.length - 1] === 'cancelled';
    fixture.samples.push({ id: trace.id, events: run(trace) });
  }
}
for (const trace of adversarialTraces(options.seed)) {
  fixture.traces.push({ ...trace, events: run(trace) });
}
writeFileSync(options.output, JSON.stringify(fixture) + '\n');
console.error(`${options.output}: ${fixture.samples.length} sample traces, ${fixture.traces.length} adversarial traces, ${optionSets.length} option sets × 2 adapters`);
