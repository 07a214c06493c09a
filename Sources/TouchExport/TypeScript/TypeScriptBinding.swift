/// The template of the Pointer Events binding (see ``TypeScriptTemplate`` for the marks):
/// `bindPointerEvents(element, onAction, options?)` drives a core from an element's pointer
/// events, DOM API only.
enum TypeScriptBinding {
  /// The binding's template for `c`; it imports the core from `./KEBAB.js`.
  static func template(_ c: ExportConfiguration, coreModule kebab: String) -> String {
    let T = c.typeName
    return #"""
      /**
       * A Pointer Events binding for \#(T) (`\#(c.recognizerName)`): drives the core from an
       * element's pointer events and calls back with its actions. DOM API only.
       *
       * - pointerdown → `began` (the element captures the pointer), pointermove → `moved` for each
       *   of `getCoalescedEvents()` (the event itself where that is missing or empty), pointerup →
       *   `ended`, pointercancel → `cancelled`.
       * - t = `event.timeStamp / 1000` (seconds), force = `event.pressure` with maxForce 1, x and y =
       *   `clientX`, `clientY` (CSS pixels, the web's points).
       * - Only the first pointer is tracked (the primary one: one finger, the pen or the mouse);
       *   others are ignored until it lifts. `options.pointerType` limits the pointer types.
       * - Timers: while the core's `timerDeadline` is finite, a `setTimeout` calls
       *   `tick(performance.now() / 1000)`. `event.timeStamp` and `performance.now()` share a clock
       *   (both count from the document's time origin), so the timer's actions carry the
       *   deadline's time exactly as the replay gives it. A timer can only fire late (a busy main
       *   thread), never at another time; a lift already queued behind a due timer lands after it.
       *
       * Give the element `touch-action: none` (CSS) so that the browser does not take a touch or a
       * pen stroke for scrolling or zooming, which would cancel the pointer (pointercancel) after a
       * few samples. Pressure is reported by pens and by some touch screens; a mouse reports 0.5
       * while a button is down, and a touch screen without pressure 0.5 too (or 0).
       *
       * ```js
       * import { bindPointerEvents } from "./pointer-binding.js";
       * const unbind = bindPointerEvents(document.getElementById("target"), (action) => {
       *   if (action.stage === "action") console.log("pressed at", action.t);
       * }, { pointerType: ["pen", "touch"] });
       * ```
       */

      import { \#(T) } from "./\#(kebab).js";
      ⟪import type { Action, Phase } from "./\#(kebab).js";⟫

      ⟪/** Options of `bindPointerEvents`. */
      export interface PointerBindingOptions {
        /** The pointer types to track (`"pen"`, `"touch"`, `"mouse"`): one or a list; default all. */
        readonly pointerType?: string | readonly string[];
        /** The core to drive (default a new \#(T)); a subclass can observe every sample it is fed. */
        readonly core?: \#(T);
      }⟫
      ⟦/**
       * @typedef {object} PointerBindingOptions
       * @property {string | string[]} [pointerType] the pointer types to track; default all
       * @property {\#(T)} [core] the core to drive (default a new \#(T))
       */⟧

      /**
       * Binds `element`'s pointer events to a \#(T) and calls `onAction` with each action it
       * reports (and the core, whose `state` and `transitions` are then current). Returns the
       * function that unbinds: it removes the listeners, clears the timer and cancels a contact in
       * progress (its actions are not reported).
       ⟦*
       * @param {HTMLElement} element
       * @param {(action: import("./\#(kebab).js").Action, core: \#(T)) => void} onAction
       * @param {PointerBindingOptions} [options]
       * @returns {() => void}⟧
       */
      export function bindPointerEvents(
        element⟪: HTMLElement⟫,
        onAction⟪: (action: Action, core: \#(T)) => void⟫,
        options⟪: PointerBindingOptions⟫ = {},
      )⟪: () => void⟫ {
        const core = options.core ?? new \#(T)();
        const wanted = options.pointerType;
        const types⟪: readonly string[] | null⟫ = wanted === undefined ? null : typeof wanted === "string" ? [wanted] : wanted;
        /** The tracked pointer, null between contacts. */
        let pointerId⟪: number | null⟫ = null;
        /** The tracked pointer's last event (for the cancel on unbind). */
        let last⟪: PointerEvent | null⟫ = null;
        let timer⟪: ReturnType<typeof setTimeout> | undefined⟫ = undefined;

        const report = (actions⟪: readonly Action[]⟫)⟪: void⟫ => {
          for (const action of actions) onAction(action, core);
        };
        const feed = (event⟪: PointerEvent⟫, phase⟪: Phase⟫)⟪: void⟫ => {
          last = event;
          report(core.feed(event.timeStamp / 1000, event.pressure, 1, event.clientX, event.clientY, phase));
        };
        /** Keeps one timeout for the core's deadline while a contact is open. */
        const schedule = ()⟪: void⟫ => {
          if (timer !== undefined) {
            clearTimeout(timer);
            timer = undefined;
          }
          const deadline = core.timerDeadline;
          if (pointerId === null || !Number.isFinite(deadline)) return;
          const delay = Math.max(0, (deadline - performance.now() / 1000) * 1000);
          timer = setTimeout(() => {
            timer = undefined;
            report(core.tick(performance.now() / 1000));
            schedule();
          }, delay);
        };

        const down = (event⟪: PointerEvent⟫)⟪: void⟫ => {
          if (pointerId !== null || !event.isPrimary) return;
          if (types !== null && !types.includes(event.pointerType)) return;
          pointerId = event.pointerId;
          try {
            element.setPointerCapture(event.pointerId);
          } catch {
            // The pointer is already gone: its pointerup or pointercancel follows.
          }
          feed(event, "began");
          schedule();
        };
        const move = (event⟪: PointerEvent⟫)⟪: void⟫ => {
          if (event.pointerId !== pointerId) return;
          const coalesced = typeof event.getCoalescedEvents === "function" ? event.getCoalescedEvents() : [];
          for (const sample of coalesced.length > 0 ? coalesced : [event]) feed(sample, "moved");
          schedule();
        };
        const lift = (event⟪: PointerEvent⟫, phase⟪: Phase⟫)⟪: void⟫ => {
          if (event.pointerId !== pointerId) return;
          pointerId = null;
          feed(event, phase);
          schedule();
        };
        const up = (event⟪: PointerEvent⟫)⟪: void⟫ => lift(event, "ended");
        const cancel = (event⟪: PointerEvent⟫)⟪: void⟫ => lift(event, "cancelled");

        element.addEventListener("pointerdown", down);
        element.addEventListener("pointermove", move);
        element.addEventListener("pointerup", up);
        element.addEventListener("pointercancel", cancel);
        return () => {
          element.removeEventListener("pointerdown", down);
          element.removeEventListener("pointermove", move);
          element.removeEventListener("pointerup", up);
          element.removeEventListener("pointercancel", cancel);
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
          if (pointerId !== null && last !== null) {
            const id = pointerId;
            pointerId = null;
            core.feed(performance.now() / 1000, 0, 1, last.clientX, last.clientY, "cancelled");
            try {
              element.releasePointerCapture(id);
            } catch {
              // Not captured any more.
            }
          }
        };
      }

      """#
  }
}
