import TouchRecognizers

/// The template of the TypeScript/JavaScript core (see ``TypeScriptTemplate`` for the marks):
/// the delivery of ``Replay`` and the rules of the configured recognizer and filter, nothing
/// else, with the configuration's values as `static readonly` constants.
enum TypeScriptCore {
  /// The core's template for `c`.
  static func template(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    let timers = c.core.usesTimers
    let f = c.filter == nil ? "force" : "this.filterStep(force, t, maxForce)"
    let constants = TypeScriptExport.constants(c).map { k in
      "  /** \(k.doc) */\n  static ⟪readonly ⟫\(k.name)⟪: \(k.type)⟫ = \(k.value);\n"
    }.joined()
    let moveTimers =
      timers
      ? """
          this.fireTimers(t);
          if (this.finished) return;

      """ : ""
    let lift =
      timers
      ? """
            this.fireTimers(t);
            if (!this.finished) this.lift(\(f), t, x, y, maxForce, cancelled);

      """
      : "      this.lift(\(f), t, x, y, maxForce, cancelled);\n"
    return #"""
      /**
       * \#(T): the `\#(c.recognizerName)` force-press recognizer of touchtrace, as a
       * self-contained ES module (no imports, no DOM). Feed it the samples of a touch one at a
       * time; it returns the actions they cause, equal to the bit to what `touchtrace run`
       * reports for the same samples.
       *
       * Delivery, as touchtrace's replay (a UIKit-like harness): the `began` sample restarts
       * everything; a later sample whose filtered force or position differs from the previous
       * sample's is a move, an unchanged one is dropped (so `moved` and `stationary` are the
       * same to the core); the `ended` or `cancelled` sample closes the contact (a recognizer
       * still open then fails or is cancelled). Once the recognizer reaches a terminal state
       * (ended, cancelled, failed), nothing more of the contact is delivered.
       *
       * Units: t in seconds (any clock, non-decreasing), force and maxForce in the device's units
       * (normalized force = force / maxForce), x and y in points (CSS pixels on the web).
       */

      ⟪/** A sample's phase: `began` at touch-down, `moved` or `stationary` in between, `ended` at lift, `cancelled` when the system takes the touch. */
      export type Phase = "began" | "moved" | "stationary" | "ended" | "cancelled";⟫
      ⟪/** The recognizer's state, as UIKit's `UIGestureRecognizer.State` names it. */
      export type State = "possible" | "began" | "changed" | "ended" | "cancelled" | "failed";⟫
      ⟪/** An action's kind: `action` (the press, stage 1), `stage2` (the pop), `release`. */
      export type Stage = "action" | "stage2" | "release";⟫
      ⟪/** An action the app acts on: its kind and its time, seconds (the samples' clock). */
      export interface Action {
        readonly t: number;
        readonly stage: Stage;
      }⟫
      ⟪/** A state change at time `t`; `implicit` when the end of the contact closed the recognizer. */
      export interface Transition {
        readonly state: State;
        readonly t: number;
        readonly implicit: boolean;
      }⟫
      ⟦/**
       * @typedef {"began" | "moved" | "stationary" | "ended" | "cancelled"} Phase
       * @typedef {"possible" | "began" | "changed" | "ended" | "cancelled" | "failed"} State
       * @typedef {"action" | "stage2" | "release"} Stage
       * @typedef {{ t: number, stage: Stage }} Action
       * @typedef {{ state: State, t: number, implicit: boolean }} Transition
       */⟧

      /** Whether `state` is terminal: the contact is decided. */
      function isTerminal(state⟪: State⟫)⟪: boolean⟫ {
        return state === "ended" || state === "cancelled" || state === "failed";
      }

      /** The `\#(c.recognizerName)` recognizer core; one instance per simultaneous touch. */
      export class \#(T) {
        /** The recognizer's name in touchtrace's catalog (filter prefix included). */
        static ⟪readonly ⟫recognizer⟪: string⟫ = "\#(c.recognizerName)";
        /** Whether the recognizer keeps timers: then call `tick` when `timerDeadline` comes. */
        static ⟪readonly ⟫usesTimers⟪: boolean⟫ = \#(timers);
      \#(constants)
        ⟪private ⟫currentState⟪: State⟫ = "possible";
        ⟪private ⟫actionList⟪: Action[]⟫ = [];
        ⟪private ⟫transitionList⟪: Transition[]⟫ = [];
        /** Where the actions of the current call start in `actionList`. */
        ⟪private ⟫mark = 0;
        /** A contact is being delivered. */
        ⟪private ⟫open = false;
        /** The state is terminal: nothing more of the contact is delivered. */
        ⟪private ⟫finished = false;
        /** The previous sample's force (after the filter) and position. */
        ⟪private ⟫prevForce = 0;
        ⟪private ⟫prevX = 0;
        ⟪private ⟫prevY = 0;
      \#(filterFields(c))\#(recognizerFields(c.core))
        /** The current state. */
        get state()⟪: State⟫ {
          return this.currentState;
        }

        /** When the pending timer fires, seconds; `Infinity` when none is pending.\#(timers ? "" : " This recognizer keeps no timers.") */
        get timerDeadline()⟪: number⟫ {
          return \#(timers ? "this.deadline" : "Infinity");
        }

        /** The actions of the current contact so far (cleared at `began`; do not modify). */
        get actions()⟪: readonly Action[]⟫ {
          return this.actionList;
        }

        /** The state changes of the current contact so far (cleared at `began`; do not modify). */
        get transitions()⟪: readonly Transition[]⟫ {
          return this.transitionList;
        }

        /**
         * Delivers one sample and returns the actions it caused: timers that fell due before it
         * first (at their own deadlines), then the sample's own.
         */
        feed(t⟪: number⟫, force⟪: number⟫, maxForce⟪: number⟫, x⟪: number⟫, y⟪: number⟫, phase⟪: Phase⟫)⟪: Action[]⟫ {
          this.mark = this.actionList.length;
          switch (phase) {
            case "began":
              this.begin(t, force, maxForce, x, y);
              break;
            case "moved":
            case "stationary":
              this.move(t, force, maxForce, x, y);
              break;
            case "ended":
              this.end(t, force, maxForce, x, y, false);
              break;
            case "cancelled":
              this.end(t, force, maxForce, x, y, true);
              break;
            default:
              throw new RangeError(`unknown phase: ${String(phase)}`);
          }
          return this.actionList.slice(this.mark);
        }

      \#(tick(timers))
        ⟪private ⟫begin(t⟪: number⟫, force⟪: number⟫, maxForce⟪: number⟫, x⟪: number⟫, y⟪: number⟫)⟪: void⟫ {
          this.currentState = "possible";
          this.actionList = [];
          this.transitionList = [];
          this.mark = 0;
      \#(filterReset(c.filter))\#(recognizerReset(c.core))    this.open = true;
          this.finished = false;
          const f = \#(f);
          this.prevForce = f;
          this.prevX = x;
          this.prevY = y;
          this.touchesBegan(f, t, x, y, maxForce);
          if (isTerminal(this.currentState)) this.finished = true;
        }

        ⟪private ⟫move(t⟪: number⟫, force⟪: number⟫, maxForce⟪: number⟫, x⟪: number⟫, y⟪: number⟫)⟪: void⟫ {
          if (!this.open || this.finished) return;
      \#(moveTimers)    const f = \#(f);
          const changed = f !== this.prevForce || x !== this.prevX || y !== this.prevY;
          this.prevForce = f;
          this.prevX = x;
          this.prevY = y;
          if (changed) {
            this.touchesMoved(f, t, x, y, maxForce);
            if (isTerminal(this.currentState)) this.finished = true;
          }
        }

        ⟪private ⟫end(t⟪: number⟫, force⟪: number⟫, maxForce⟪: number⟫, x⟪: number⟫, y⟪: number⟫, cancelled⟪: boolean⟫)⟪: void⟫ {
          if (!this.open) {
            // A contact of one sample: touch-down and lift at once (the filter steps once).
            this.begin(t, force, maxForce, x, y);
            if (!this.finished) this.lift(this.prevForce, t, x, y, maxForce, cancelled);
          } else if (!this.finished) {
      \#(lift)    }
          this.closeSequence(t);
          this.open = false;
        }

        ⟪private ⟫lift(f⟪: number⟫, t⟪: number⟫, x⟪: number⟫, y⟪: number⟫, maxForce⟪: number⟫, cancelled⟪: boolean⟫)⟪: void⟫ {
          if (cancelled) this.touchesCancelled(f, t, x, y, maxForce);
          else this.touchesEnded(f, t, x, y, maxForce);
        }
      \#(timers ? fireTimers : "")
        ⟪private ⟫setState(state⟪: State⟫, t⟪: number⟫)⟪: void⟫ {
          if (state === this.currentState || isTerminal(this.currentState)) return;
          this.currentState = state;
          this.transitionList.push({ state, t, implicit: false });
        }

        ⟪private ⟫setStateActing(state⟪: State⟫, stage⟪: Stage⟫, t⟪: number⟫)⟪: void⟫ {
          this.setState(state, t);
          this.actionList.push({ t, stage });
        }
      \#(usesFinish(c.core) ? finish : "")
        /** The end of the contact closes a recognizer left open: possible → failed, began/changed → cancelled. */
        ⟪private ⟫closeSequence(t⟪: number⟫)⟪: void⟫ {
          const s = this.currentState;
          if (isTerminal(s)) return;
          const closed = s === "possible" ? "failed" : "cancelled";
          this.currentState = closed;
          this.transitionList.push({ state: closed, t, implicit: true });
        }
      \#(filterStep(c))
        // The `\#(c.core.name)` rules.
      \#(recognizer(c))}

      """#
  }

  /// `tick`, with timers or without.
  static func tick(_ timers: Bool) -> String {
    timers
      ? """
        /**
         * Tells the core that time `t` has come without a sample (from `setTimeout`, a frame
         * callback) and returns the actions of the timers due by then, at their deadlines.
         */
        tick(t⟪: number⟫)⟪: Action[]⟫ {
          this.mark = this.actionList.length;
          if (this.open && !this.finished) this.fireTimers(t);
          return this.actionList.slice(this.mark);
        }

      """
      : """
        /** Tells the core that time `t` has come; this recognizer keeps no timers, so nothing happens. */
        tick(_t⟪: number⟫)⟪: Action[]⟫ {
          return [];
        }

      """
  }

  /// Fires the timers due at or before a time.
  static let fireTimers = """

      /** Fires every timer due at or before `limit`, each at its deadline, with the last sample's values. */
      ⟪private ⟫fireTimers(limit⟪: number⟫)⟪: void⟫ {
        while (this.deadline <= limit && this.deadline < Infinity) {
          this.timerFired(this.deadline);
          if (isTerminal(this.currentState)) {
            this.finished = true;
            return;
          }
        }
      }

    """

  /// `finish`, for the recognizers that end continuous gestures with it.
  static let finish = """

      /** Ends the gesture: `outcome` once it has begun, failed while still possible. */
      ⟪private ⟫finish(outcome⟪: State⟫, t⟪: number⟫)⟪: void⟫ {
        this.setState(this.currentState === "possible" ? "failed" : outcome, t);
      }

    """

  /// Whether the recognizer calls `finish`.
  static func usesFinish(_ core: ExportConfiguration.Core) -> Bool {
    switch core {
    case .hysteresis, .peekPop: true
    case .deepPress, .stablePress: false
    }
  }

  // MARK: Filter

  /// The filter's fields.
  static func filterFields(_ c: ExportConfiguration) -> String {
    switch c.filter {
    case nil:
      return ""
    case .ema?:
      return """
          /** The filter's last output; NaN before the first sample. */
          ⟪private ⟫filterY = NaN;

        """
    case .movingMean?:
      return """
          /** The moving mean's last inputs (a ring), how many it holds and where the next goes. */
          ⟪private ⟫filterRing = new Float64Array(\(c.typeName).movingMeanWindow);
          ⟪private ⟫filterCount = 0;
          ⟪private ⟫filterNext = 0;

        """
    case .oneEuro?:
      return """
          /** The filter's last output (NaN before the first sample), time and filtered speed. */
          ⟪private ⟫filterY = NaN;
          ⟪private ⟫filterLastT = NaN;
          ⟪private ⟫filterDY = 0;

        """
    }
  }

  /// Restarts the filter at touch-down (the moving mean's ring keeps old values it never reads).
  static func filterReset(_ filter: CausalFilter?) -> String {
    switch filter {
    case nil: ""
    case .ema?: "    this.filterY = NaN;\n"
    case .movingMean?: "    this.filterCount = 0;\n    this.filterNext = 0;\n"
    case .oneEuro?: "    this.filterY = NaN;\n    this.filterLastT = NaN;\n    this.filterDY = 0;\n"
    }
  }

  /// `filterStep` and its helpers.
  static func filterStep(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    let clamp = """
          if (out < 0) out = 0;
          if (out > maxForce) out = maxForce; // false for NaN: no maximum, no upper clamp
      """
    switch c.filter {
    case nil:
      return ""
    case .ema?:
      return #"""

          /** The exponential moving average of force, clamped to 0…maxForce. */
          ⟪private ⟫filterStep(x⟪: number⟫, _t⟪: number⟫, maxForce⟪: number⟫)⟪: number⟫ {
            let out = Number.isNaN(this.filterY) ? x : \#(T).emaAlpha * x + (1 - \#(T).emaAlpha) * this.filterY;
        \#(clamp)
            this.filterY = out;
            return out;
          }

        """#
    case .movingMean?:
      return #"""

          /** The trailing moving mean of force (summed oldest first), clamped to 0…maxForce. */
          ⟪private ⟫filterStep(x⟪: number⟫, _t⟪: number⟫, maxForce⟪: number⟫)⟪: number⟫ {
            const w = \#(T).movingMeanWindow;
            this.filterRing[this.filterNext] = x;
            this.filterNext = this.filterNext + 1 === w ? 0 : this.filterNext + 1;
            if (this.filterCount < w) this.filterCount += 1;
            let j = this.filterCount === w ? this.filterNext : 0;
            let sum = 0;
            for (let k = 0; k < this.filterCount; k++) {
              sum += this.filterRing[j];
              j = j + 1 === w ? 0 : j + 1;
            }
            let out = sum / this.filterCount;
        \#(clamp)
            return out;
          }

        """#
    case .oneEuro?:
      return #"""

          /** The 1€ filter of force on the samples' own time steps, clamped to 0…maxForce. */
          ⟪private ⟫filterStep(x⟪: number⟫, t⟪: number⟫, maxForce⟪: number⟫)⟪: number⟫ {
            let out⟪: number⟫;
            if (Number.isNaN(this.filterY)) {
              out = x;
            } else {
              const dt = t - this.filterLastT;
              if (!(dt > 0)) return this.filterY; // same instant: nothing new to learn
              const dx = (x - this.filterY) / dt;
              this.filterDY += \#(T).smoothingFactor(\#(T).oneEuroDerivativeCutoff, dt) * (dx - this.filterDY);
              const cutoff = \#(T).oneEuroMinCutoff + \#(T).oneEuroBeta * Math.abs(this.filterDY);
              out = this.filterY + \#(T).smoothingFactor(cutoff, dt) * (x - this.filterY);
            }
            this.filterLastT = t;
        \#(clamp)
            this.filterY = out;
            return out;
          }

          /** The 1€ filter's weight for a cutoff (hertz) and a time step (seconds): 1 / (1 + τ/Δt), τ = 1/(2π·cutoff). */
          ⟪private ⟫static smoothingFactor(cutoff⟪: number⟫, dt⟪: number⟫)⟪: number⟫ {
            const tau = 1 / (2 * Math.PI * cutoff);
            return 1 / (1 + tau / dt);
          }

        """#
    }
  }

  // MARK: Recognizers

  /// The recognizer's fields.
  static func recognizerFields(_ core: ExportConfiguration.Core) -> String {
    switch core {
    case .deepPress:
      return "  /** The press is down (force at or above the threshold). */\n  ⟪private ⟫deepPressed = false;\n"
    case .hysteresis:
      return "  /** The latch is pressed. */\n  ⟪private ⟫pressed = false;\n"
    case .stablePress:
      return """
          /** Touch-down time and position. */
          ⟪private ⟫downT = 0;
          ⟪private ⟫downX = 0;
          ⟪private ⟫downY = 0;
          /** 0 idle, 1 arming (the dwell timer runs), 2 pressed, 3 done (released without rearm). */
          ⟪private ⟫phase = 0;
          /** The press deadline while arming; Infinity otherwise. */
          ⟪private ⟫deadline = Infinity;
          /** A press happened in this contact. */
          ⟪private ⟫everPressed = false;

        """
    case .peekPop:
      return ""
    }
  }

  /// Resets the recognizer at touch-down.
  static func recognizerReset(_ core: ExportConfiguration.Core) -> String {
    switch core {
    case .deepPress: "    this.deepPressed = false;\n"
    case .hysteresis: "    this.pressed = false;\n"
    case .stablePress:
      "    this.phase = 0;\n    this.deadline = Infinity;\n    this.everPressed = false;\n"
    case .peekPop: ""
    }
  }

  /// The parameters of a recognizer method (`force, t, x, y, maxForce`), those it does not use
  /// prefixed with `_` (so `noUnusedParameters` accepts them too).
  static func parameters(_ used: String...) -> String {
    ["force", "t", "x", "y", "maxForce"].map { (used.contains($0) ? $0 : "_" + $0) + "⟪: number⟫" }
      .joined(separator: ", ")
  }

  /// The recognizer's methods: `touchesBegan`, `touchesMoved`, `touchesEnded`,
  /// `touchesCancelled` (and `timerFired`), specialized for the configuration (a comparison's
  /// operator chosen, a feature that is off left out).
  /// `touchesBegan` and `touchesMoved` of a recognizer that treats both alike: `handle`.
  static func handled(_ sample: String) -> String {
    """
      ⟪private ⟫touchesBegan(\(sample))⟪: void⟫ {
        this.handle(force, t, maxForce);
      }

      ⟪private ⟫touchesMoved(\(sample))⟪: void⟫ {
        this.handle(force, t, maxForce);
      }

    """
  }

  static func recognizer(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    let sample = parameters("force", "t", "maxForce")
    let time = parameters("t")
    switch c.core {
    case .deepPress:
      return #"""
        \#(handled(sample))
          /** Samples with force 0 are ignored; the same threshold presses (>=) and releases (<). */
          ⟪private ⟫handle(force⟪: number⟫, t⟪: number⟫, maxForce⟪: number⟫)⟪: void⟫ {
            if (force === 0 || maxForce === 0) return;
            const n = force / maxForce;
            if (!this.deepPressed && n >= \#(T).threshold) {
              this.setStateActing("began", "action", t);
              this.deepPressed = true;
            } else if (this.deepPressed && n < \#(T).threshold) {
              this.setStateActing("ended", "release", t);
              this.deepPressed = false;
            }
          }

          ⟪private ⟫touchesEnded(\#(time))⟪: void⟫ {
            this.setState(this.deepPressed ? "ended" : "failed", t);
            this.deepPressed = false;
          }

          /** Not handled (as in the original): the end of the contact closes the gesture. */
          ⟪private ⟫touchesCancelled(\#(parameters()))⟪: void⟫ {}

        """#
    case .hysteresis(_, _, let palm, let strict, let inclusive):
      let palmTest =
        palm.isNaN
        ? "    // palmThreshold is NaN: palm rejection is off.\n"
        : """
            if (n > \(T).palmThreshold) {
              this.finish("cancelled", t);
              return;
            }

        """
      let release = inclusive ? "n <= \(T).releaseThreshold" : "n < \(T).releaseThreshold"
      let press = strict ? "n > \(T).pressThreshold" : "n >= \(T).pressThreshold"
      return #"""
          ⟪private ⟫touchesBegan(\#(sample))⟪: void⟫ {
            this.pressed = false;
            this.handle(force, t, maxForce);
          }

          ⟪private ⟫touchesMoved(\#(sample))⟪: void⟫ {
            this.handle(force, t, maxForce);
          }

          /** Palm first (sticky), then press (\#(strict ? ">" : ">=")) or release (\#(inclusive ? "<=" : "<")). */
          ⟪private ⟫handle(force⟪: number⟫, t⟪: number⟫, maxForce⟪: number⟫)⟪: void⟫ {
            const n = force / maxForce;
        \#(palmTest)    if (this.pressed) {
              if (\#(release)) {
                this.pressed = false;
                this.setStateActing("changed", "release", t);
              }
            } else if (\#(press)) {
              this.pressed = true;
              this.setStateActing(this.currentState === "possible" ? "began" : "changed", "action", t);
            }
          }

          ⟪private ⟫touchesEnded(\#(time))⟪: void⟫ {
            this.finish("ended", t);
          }

          ⟪private ⟫touchesCancelled(\#(time))⟪: void⟫ {
            this.finish("cancelled", t);
          }

        """#
    case .stablePress(_, _, _, _, let movement, let rearm):
      let gate =
        movement.isNaN
        ? "    // movementLimit is NaN: the drag gate is off.\n"
        : """
            if (!this.everPressed) {
              const dx = x - this.downX;
              const dy = y - this.downY;
              if (dx * dx + dy * dy > \(T).movementLimit * \(T).movementLimit) {
                this.deadline = Infinity;
                this.setState("failed", t);
                return;
              }
            }

        """
      let handle = movement.isNaN ? sample : parameters("force", "t", "x", "y", "maxForce")
      let released = rearm ? "0; // rearm: the next press needs a new dwell" : "3; // no rearm: done"
      return #"""
          ⟪private ⟫touchesBegan(\#(parameters("force", "t", "x", "y", "maxForce")))⟪: void⟫ {
            this.downT = t;
            this.downX = x;
            this.downY = y;
            this.phase = 0;
            this.everPressed = false;
            this.deadline = Infinity;
            this.handle(force, t, x, y, maxForce);
          }

          ⟪private ⟫touchesMoved(\#(parameters("force", "t", "x", "y", "maxForce")))⟪: void⟫ {
            this.handle(force, t, x, y, maxForce);
          }

          /** Drag gate before the first press, then dwell (a timer), press and release with hysteresis. */
          ⟪private ⟫handle(\#(handle))⟪: void⟫ {
        \#(gate)    const n = force / maxForce;
            switch (this.phase) {
              case 0:
                if (n >= \#(T).pressThreshold) {
                  const dwellEnd = t + \#(T).dwellTime;
                  const tapEnd = this.downT + \#(T).tapTimeout;
                  const due = tapEnd >= dwellEnd ? tapEnd : dwellEnd; // Swift's max(dwellEnd, tapEnd)
                  if (due <= t) {
                    this.press(t);
                  } else {
                    this.phase = 1;
                    this.deadline = due;
                  }
                }
                break;
              case 1:
                if (n < \#(T).pressThreshold) {
                  this.phase = 0;
                  this.deadline = Infinity;
                }
                break;
              case 2:
                if (n < \#(T).releaseThreshold) {
                  this.phase = \#(released)
                  this.setStateActing("changed", "release", t);
                }
                break;
              default:
                break;
            }
          }

          /** The press: the action. */
          ⟪private ⟫press(t⟪: number⟫)⟪: void⟫ {
            this.phase = 2;
            this.deadline = Infinity;
            this.everPressed = true;
            this.setStateActing(this.currentState === "possible" ? "began" : "changed", "action", t);
          }

          /** The dwell timer: the force stayed at or above the threshold long enough. */
          ⟪private ⟫timerFired(t⟪: number⟫)⟪: void⟫ {
            this.press(t);
          }

          ⟪private ⟫touchesEnded(\#(time))⟪: void⟫ {
            this.deadline = Infinity;
            this.setState(this.everPressed ? "ended" : "failed", t);
          }

          ⟪private ⟫touchesCancelled(\#(time))⟪: void⟫ {
            this.deadline = Infinity;
            this.setState(this.everPressed ? "cancelled" : "failed", t);
          }

        """#
    case .peekPop:
      return #"""
        \#(handled(sample))
          /** Peek (stage 1) and pop (stage 2), both possibly on one sample; less force undoes nothing. */
          ⟪private ⟫handle(force⟪: number⟫, t⟪: number⟫, maxForce⟪: number⟫)⟪: void⟫ {
            const n = force / maxForce;
            if (this.currentState === "possible" && n >= \#(T).peekThreshold) {
              this.setStateActing("began", "action", t);
            }
            if (this.currentState === "began" && n >= \#(T).popThreshold) {
              this.setStateActing("ended", "stage2", t);
            }
          }

          /** Lift after a peek without pop: cancelled; before a peek: failed. */
          ⟪private ⟫touchesEnded(\#(time))⟪: void⟫ {
            this.finish("cancelled", t);
          }

          ⟪private ⟫touchesCancelled(\#(time))⟪: void⟫ {
            this.finish("cancelled", t);
          }

        """#
    }
  }
}
