import TouchRecognizers

/// The Kotlin export: a core class (Kotlin standard library only, Kotlin 1.3 or later), an
/// Android `View.OnTouchListener` over `MotionEvent.getPressure()` (Android platform API only)
/// and a conformance check (`main`, reading the vectors file named by its argument with
/// `java.io`).
///
/// Every file is in package ``packageName``. The core holds the configuration's values as
/// constants of its `companion object` and only the code of the configuration's filter and
/// recognizer, chosen here by `switch`.
enum KotlinExport {
  /// The package of every generated Kotlin file.
  static let packageName = "touchtrace.export"

  /// The core (`kotlin/TYPE.kt`), the adapter (`kotlin/TYPETouchListener.kt`) and the check
  /// (`kotlin/ConformanceCheck.kt`) for `c`.
  static func files(_ c: ExportConfiguration) -> [ExportFile] {
    [
      ExportFile(path: "kotlin/\(c.typeName).kt", contents: core(c), role: .core),
      ExportFile(path: "kotlin/\(c.typeName)TouchListener.kt", contents: adapter(c), role: .adapter),
      ExportFile(path: "kotlin/ConformanceCheck.kt", contents: check(c), role: .check),
    ]
  }

  /// `value` as a Kotlin `Double` expression: the shortest round-trip decimal, always with a `.`
  /// or an exponent (so it is typed `Double`), or `Double.NaN` / `Double.POSITIVE_INFINITY`.
  static func literal(_ value: Double) -> String {
    ExportText.double(value, nan: "Double.NaN", infinity: "Double.POSITIVE_INFINITY")
  }

  /// `text` as a Kotlin string literal (`\`, `"` and `$` escaped, control characters as `\uXXXX`).
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "$": out += "\\$"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let digits = String(scalar.value, radix: 16, uppercase: true)
          out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// A lower camel-case name as a Kotlin constant name: `oneEuroMinCutoff` → `ONE_EURO_MIN_CUTOFF`.
  static func constantName(_ name: String) -> String {
    var out = ""
    for character in name {
      if character.isUppercase && !out.isEmpty { out += "_" }
      out += character.uppercased()
    }
    return out
  }

  /// One constant of the core's `companion object`.
  struct Constant {
    /// The KDoc line.
    var doc: String
    /// The name in lower camel case, as the catalog spells the parameter.
    var name: String
    /// The Kotlin type: `Double`, `Int` or `Boolean`.
    var type: String
    /// The value as a Kotlin expression.
    var value: String
    /// Whether the value is a compile-time constant (`const val`); Kotlin 1.3 does not accept
    /// `Double.NaN` or the infinities in a `const val`, so those are plain `val`s.
    var isConst: Bool
  }

  /// A `Double` constant.
  static func double(_ doc: String, _ name: String, _ value: Double) -> Constant {
    Constant(doc: doc, name: name, type: "Double", value: literal(value), isConst: value.isFinite)
  }

  /// A `Boolean` constant.
  static func flag(_ doc: String, _ name: String, _ value: Bool) -> Constant {
    Constant(doc: doc, name: name, type: "Boolean", value: "\(value)", isConst: true)
  }

  /// The configuration's values: the filter's first, then the recognizer's.
  static func constants(_ c: ExportConfiguration) -> [Constant] {
    var out: [Constant] = []
    switch c.filter {
    case .ema(let alpha)?:
      out.append(double("Filter (exponential moving average, `ema.alpha`): weight of each new sample.", "emaAlpha", alpha))
    case .movingMean(let window)?:
      out.append(
        Constant(
          doc: "Filter (trailing moving mean, `movmean.window`): samples averaged.", name: "movingMeanWindow",
          type: "Int", value: "\(window)", isConst: true))
    case .oneEuro(let minCutoff, let beta, let dCutoff)?:
      out.append(double("Filter (1€, `one-euro.mincutoff`): cutoff when the force is still, hertz.", "oneEuroMinCutoff", minCutoff))
      out.append(double("Filter (1€, `one-euro.beta`): cutoff increase per force unit per second of speed.", "oneEuroBeta", beta))
      out.append(double("Filter (1€, `one-euro.dcutoff`): cutoff of the speed estimate, hertz.", "oneEuroDerivativeCutoff", dCutoff))
    case nil:
      break
    }
    switch c.core {
    case .deepPress(let threshold):
      out.append(double("Normalized force that begins the press (>=); below it the press ends.", "threshold", threshold))
    case .hysteresis(let press, let release, let palm, let strict, let inclusive):
      out.append(double("Normalized force that presses (>=, > when STRICT_PRESS).", "pressThreshold", press))
      out.append(double("Normalized force below which a press releases (<, <= when INCLUSIVE_RELEASE).", "releaseThreshold", release))
      out.append(double("Normalized force above which the contact is rejected for good (NaN: off).", "palmThreshold", palm))
      out.append(flag("Press with > instead of >=.", "strictPress", strict))
      out.append(flag("Release with <= instead of <.", "inclusiveRelease", inclusive))
    case .stablePress(let press, let release, let dwell, let tap, let movement, let rearm):
      out.append(double("Normalized force that arms a press (>=).", "pressThreshold", press))
      out.append(double("Normalized force below which a press releases (<).", "releaseThreshold", release))
      out.append(double("Time the force must stay at or above PRESS_THRESHOLD, seconds.", "dwellTime", dwell))
      out.append(double("Shortest contact before a press, seconds.", "tapTimeout", tap))
      out.append(double("Movement before the first press that fails the contact, points (NaN: off).", "movementLimit", movement))
      out.append(flag("A released press can press again in the same contact.", "rearm", rearm))
    case .peekPop(let peek, let pop):
      out.append(double("Normalized force of the peek (>=).", "peekThreshold", peek))
      out.append(double("Normalized force of the pop (>=).", "popThreshold", pop))
    }
    return out
  }

  /// The constants as `companion object` members (8 spaces of indentation).
  static func constantDeclarations(_ c: ExportConfiguration) -> String {
    constants(c).map { k in
      let keyword = k.isConst ? "const val" : "val"
      return "\n        /** \(k.doc) */\n        \(keyword) \(constantName(k.name)): \(k.type) = \(k.value)\n"
    }.joined()
  }

  /// The file's header comment (`//` lines): what generated it, the configuration, the provenance.
  static func prologue(_ c: ExportConfiguration, file: String) -> String {
    ExportText.comment(ExportText.header(c, file: file), prefix: "//")
  }
}

// MARK: - Core

extension KotlinExport {
  /// The core class: delivery (as the replay delivers samples), the filter and the recognizer.
  static func core(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    let filtered = c.filter == nil ? "" : " behind a causal filter"
    var out = prologue(c, file: "\(T).kt")
    out += #"""
      //
      // The recognizer core: Kotlin standard library only (Kotlin 1.3 or later). The recognizer's
      // hooks share one signature, so some ignore parameters: hence the file-wide suppression.

      @file:Suppress("UNUSED_PARAMETER")

      package \#(packageName)

      /**
       * The `\#(c.recognizerName)` recognizer\#(filtered) as exported by touchtrace: a state machine fed
       * one sample at a time, returning the actions each sample causes. It delivers samples as
       * `touchtrace run` replays a trace (touch-down; later samples whose filtered force or position
       * changed; timers on the samples' clock; lift or cancel) and applies the recognizer's rules, so
       * its actions and state changes equal the replay's, to the bit.
       *
       * Units: t in seconds, force and maxForce in the device's units (normalized force =
       * force / maxForce), x and y in points. Not thread-safe: use one instance from one thread
       * (the UI thread).
       */
      class \#(T) {
          /** Where a sample stands in its contact. */
          enum class Phase {
              /** Touch-down: starts a contact (and resets the core). */
              BEGAN,
              /** A later sample (whether it changed is decided by the core). */
              MOVED,
              /** A later sample the platform reports as unchanged (treated as [MOVED]). */
              STATIONARY,
              /** Lift: ends the contact. */
              ENDED,
              /** The system took the touch: ends the contact. */
              CANCELLED
          }

          /** The gesture's state, as UIKit names a continuous recognizer's states ([label]: lowercase). */
          enum class State(val label: String) {
              POSSIBLE("possible"),
              BEGAN("began"),
              CHANGED("changed"),
              ENDED("ended"),
              CANCELLED("cancelled"),
              FAILED("failed");

              /** Ended, cancelled or failed: the gesture is over for this contact. */
              val isTerminal: Boolean
                  get() = this == ENDED || this == CANCELLED || this == FAILED

              override fun toString(): String = label
          }

          /** What an action is: the press ([ACTION]), the second stage ([STAGE2]) or a release. */
          enum class Stage(val label: String) {
              ACTION("action"),
              STAGE2("stage2"),
              RELEASE("release");

              override fun toString(): String = label
          }

          /** An action: when ([t], seconds, the samples' clock) and which ([stage]). */
          data class Action(val t: Double, val stage: Stage)

          /**
           * A state change: to [state] at [t] seconds; [implicit] when the end of the contact closed
           * the gesture (the system's rule) rather than the recognizer.
           */
          data class Transition(val state: State, val t: Double, val implicit: Boolean)

          companion object {
              /** The recognizer, as touchtrace names it. */
              const val RECOGNIZER: String = \#(string(c.recognizerName))
      \#(constantDeclarations(c))    }

          /** The current state: of the current contact, or of the last one once it is over. */
          var state: State = State.POSSIBLE
              private set

          private val actionList = ArrayList<Action>()
          private val transitionList = ArrayList<Transition>()

          /** The current contact's actions, in order (a read-only view, cleared at touch-down). */
          val actions: List<Action>
              get() = actionList

          /** The current contact's state changes, in order (a read-only view, cleared at touch-down). */
          val transitions: List<Transition>
              get() = transitionList

          // Delivery: whether a contact is being delivered, whether the recognizer is finished
          // (terminal: nothing more of the contact is delivered), and the previous sample (force
          // after the filter).
          private var contactOpen = false
          private var finished = false
          private var previousForce = 0.0
          private var previousX = 0.0
          private var previousY = 0.0

          /**
           * Delivers one sample and returns the actions it caused: timers that fell due before it
           * first (at their own times), then its own.
           *
           * @param t the sample's time, seconds (any origin; non-decreasing within a contact).
           * @param force force in the device's units (Android: `MotionEvent.getPressure`).
           * @param maxForce the maximum possible force, same units.
           * @param x horizontal position, points.
           * @param y vertical position, points.
           * @param phase where the sample stands in its contact.
           */
          fun feed(t: Double, force: Double, maxForce: Double, x: Double, y: Double, phase: Phase): List<Action> {
              var mark = actionList.size
              when (phase) {
                  Phase.BEGAN -> {
                      begin(t, force, maxForce, x, y)
                      mark = 0
                  }
                  Phase.MOVED, Phase.STATIONARY -> if (contactOpen && !finished) {
                      fireTimers(t)
                      if (!finished) {
                          val f = filterStep(force, t, maxForce)
                          val changed = f != previousForce || x != previousX || y != previousY
                          previousForce = f
                          previousX = x
                          previousY = y
                          if (changed) {
                              touchesMoved(f, t, maxForce, x, y)
                              if (state.isTerminal) finished = true
                          }
                      }
                  }
                  Phase.ENDED, Phase.CANCELLED -> {
                      if (!contactOpen) {
                          // A contact of one sample: touch-down and lift at once (one filter step).
                          begin(t, force, maxForce, x, y)
                          mark = 0
                          if (!finished) lift(phase, previousForce, t, maxForce, x, y)
                      } else if (!finished) {
                          fireTimers(t)
                          if (!finished) lift(phase, filterStep(force, t, maxForce), t, maxForce, x, y)
                      }
                      contactOpen = false
                  }
              }
              return since(mark)
          }

          /**
           * Tells the core that time [t] (seconds, the samples' clock) has come without a sample:
           * fires the timers due by then, at their own times, and returns their actions.
           */
          fun tick(t: Double): List<Action> {
              val mark = actionList.size
              if (contactOpen && !finished) fireTimers(t)
              return since(mark)
          }

          private fun since(mark: Int): List<Action> =
              if (mark == actionList.size) emptyList() else ArrayList(actionList.subList(mark, actionList.size))

          private fun begin(t: Double, force: Double, maxForce: Double, x: Double, y: Double) {
              state = State.POSSIBLE
              actionList.clear()
              transitionList.clear()
              resetFilter()
              resetRecognizer()
              contactOpen = true
              finished = false
              val f = filterStep(force, t, maxForce)
              previousForce = f
              previousX = x
              previousY = y
              touchesBegan(f, t, maxForce, x, y)
              if (state.isTerminal) finished = true
          }

          private fun lift(phase: Phase, f: Double, t: Double, maxForce: Double, x: Double, y: Double) {
              if (phase == Phase.CANCELLED) touchesCancelled(f, t, maxForce, x, y) else touchesEnded(f, t, maxForce, x, y)
              // The contact is over: a gesture still open is closed by the system (implicit).
              when (state) {
                  State.POSSIBLE -> setState(State.FAILED, t, true)
                  State.BEGAN, State.CHANGED -> setState(State.CANCELLED, t, true)
                  else -> {}
              }
              finished = true
          }

          private fun setState(newState: State, t: Double, implicit: Boolean = false) {
              if (newState == state || state.isTerminal) return
              state = newState
              transitionList.add(Transition(newState, t, implicit))
          }

          private fun act(stage: Stage, t: Double) {
              actionList.add(Action(t, stage))
          }

          private fun setStateActing(newState: State, stage: Stage, t: Double) {
              setState(newState, t)
              act(stage, t)
          }
      \#(finishHelper(c.core))
      \#(filterCode(c.filter))
      \#(recognizerCode(c.core))}

      """#
    return out
  }

  /// `finish(outcome, t)`, for the recognizers that use it.
  static func finishHelper(_ core: ExportConfiguration.Core) -> String {
    switch core {
    case .hysteresis, .peekPop:
      """

          /** Ends the gesture with [outcome] once it has begun; fails it while still possible. */
          private fun finish(outcome: State, t: Double) {
              setState(if (state == State.POSSIBLE) State.FAILED else outcome, t)
          }

      """
    case .deepPress, .stablePress: ""
    }
  }

  /// The filter's fields, `resetFilter()` and `filterStep(force, t, maxForce)`.
  static func filterCode(_ filter: CausalFilter?) -> String {
    let clamp = """
              if (out < 0.0) out = 0.0
              if (out > maxForce) out = maxForce // false when maxForce is NaN: no upper bound
      """
    switch filter {
    case nil:
      return """
            // No filter: the recognizer sees the force as reported.

            private fun resetFilter() {}

            private fun filterStep(force: Double, t: Double, maxForce: Double): Double = force

        """
    case .ema?:
      return """
            // Filter: exponential moving average, restarted at touch-down, clamped to 0…maxForce.

            private var filterY = Double.NaN

            private fun resetFilter() {
                filterY = Double.NaN
            }

            private fun filterStep(force: Double, t: Double, maxForce: Double): Double {
                var out = if (filterY.isNaN()) force else EMA_ALPHA * force + (1.0 - EMA_ALPHA) * filterY
        \(clamp)
                filterY = out
                return out
            }

        """
    case .movingMean?:
      return """
            // Filter: trailing moving mean of the last MOVING_MEAN_WINDOW samples (fewer at the
            // start), summed oldest first, restarted at touch-down, clamped to 0…maxForce.

            private val ring = DoubleArray(MOVING_MEAN_WINDOW)
            private var ringCount = 0
            private var ringNext = 0

            private fun resetFilter() {
                ringCount = 0
                ringNext = 0
            }

            private fun filterStep(force: Double, t: Double, maxForce: Double): Double {
                val w = MOVING_MEAN_WINDOW
                ring[ringNext] = force
                ringNext = if (ringNext + 1 == w) 0 else ringNext + 1
                if (ringCount < w) ringCount += 1
                var j = if (ringCount == w) ringNext else 0
                var sum = 0.0
                repeat(ringCount) {
                    sum += ring[j]
                    j = if (j + 1 == w) 0 else j + 1
                }
                var out = sum / ringCount.toDouble()
        \(clamp)
                return out
            }

        """
    case .oneEuro?:
      return """
            // Filter: the 1€ filter on the samples' own time steps (a sample at the time of the
            // previous one repeats the last output), restarted at touch-down, clamped to 0…maxForce.

            private var filterY = Double.NaN
            private var filterLastT = Double.NaN
            private var filterDY = 0.0

            private fun resetFilter() {
                filterY = Double.NaN
                filterLastT = Double.NaN
                filterDY = 0.0
            }

            private fun smoothingFactor(cutoff: Double, dt: Double): Double {
                val tau = 1.0 / (2.0 * kotlin.math.PI * cutoff)
                return 1.0 / (1.0 + tau / dt)
            }

            private fun filterStep(force: Double, t: Double, maxForce: Double): Double {
                var out: Double
                if (filterY.isNaN()) {
                    out = force
                } else {
                    val dt = t - filterLastT
                    if (!(dt > 0.0)) return filterY
                    val dx = (force - filterY) / dt
                    filterDY += smoothingFactor(ONE_EURO_DERIVATIVE_CUTOFF, dt) * (dx - filterDY)
                    val cutoff = ONE_EURO_MIN_CUTOFF + ONE_EURO_BETA * kotlin.math.abs(filterDY)
                    out = filterY + smoothingFactor(cutoff, dt) * (force - filterY)
                }
                filterLastT = t
        \(clamp)
                filterY = out
                return out
            }

        """
    }
  }

  /// The recognizer's fields, timers and hooks (`touchesBegan`, `touchesMoved`, `touchesEnded`,
  /// `touchesCancelled`, all `(f, t, maxForce, x, y)` with `f` the filtered force).
  static func recognizerCode(_ core: ExportConfiguration.Core) -> String {
    let noTimers = """
          /** When the next timer fires, seconds: this recognizer keeps none, so always +infinity. */
          val timerDeadline: Double
              get() = Double.POSITIVE_INFINITY

          private fun fireTimers(limit: Double) {}


      """
    let hooks = "f: Double, t: Double, maxForce: Double, x: Double, y: Double"
    switch core {
    case .deepPress:
      return noTimers + """
            // Recognizer: deep-press (FlexMonkey). Samples with force 0 (or maximum 0) are ignored.

            private var deepPressed = false

            private fun resetRecognizer() {
                deepPressed = false
            }

            private fun touchesBegan(\(hooks)) = handle(f, t, maxForce)

            private fun touchesMoved(\(hooks)) = handle(f, t, maxForce)

            private fun handle(f: Double, t: Double, maxForce: Double) {
                if (f == 0.0 || maxForce == 0.0) return
                val n = f / maxForce
                if (!deepPressed && n >= THRESHOLD) {
                    setStateActing(State.BEGAN, Stage.ACTION, t)
                    deepPressed = true
                } else if (deepPressed && n < THRESHOLD) {
                    setStateActing(State.ENDED, Stage.RELEASE, t)
                    deepPressed = false
                }
            }

            private fun touchesEnded(\(hooks)) {
                setState(if (deepPressed) State.ENDED else State.FAILED, t)
                deepPressed = false
            }

            private fun touchesCancelled(\(hooks)) {}

        """
    case .hysteresis:
      return noTimers + """
            // Recognizer: hysteresis (libinput-style latch).

            private var pressed = false

            private fun resetRecognizer() {
                pressed = false
            }

            private fun touchesBegan(\(hooks)) = handle(f, t, maxForce)

            private fun touchesMoved(\(hooks)) = handle(f, t, maxForce)

            private fun handle(f: Double, t: Double, maxForce: Double) {
                val n = f / maxForce
                if (n > PALM_THRESHOLD) { // false when PALM_THRESHOLD is NaN (off)
                    finish(State.CANCELLED, t)
                    return
                }
                if (pressed) {
                    if (if (INCLUSIVE_RELEASE) n <= RELEASE_THRESHOLD else n < RELEASE_THRESHOLD) {
                        pressed = false
                        setStateActing(State.CHANGED, Stage.RELEASE, t)
                    }
                } else if (if (STRICT_PRESS) n > PRESS_THRESHOLD else n >= PRESS_THRESHOLD) {
                    pressed = true
                    setStateActing(if (state == State.POSSIBLE) State.BEGAN else State.CHANGED, Stage.ACTION, t)
                }
            }

            private fun touchesEnded(\(hooks)) = finish(State.ENDED, t)

            private fun touchesCancelled(\(hooks)) = finish(State.CANCELLED, t)

        """
    case .stablePress:
      return """
            // Recognizer: stable-press (dwell, tap guard, drag gate, hysteresis).

            private var downT = 0.0
            private var downX = 0.0
            private var downY = 0.0
            private var pressStage = 0 // 0 idle, 1 arming, 2 pressed, 3 done (no rearm)
            private var deadline = Double.POSITIVE_INFINITY
            private var everPressed = false

            /**
             * When the armed press fires, seconds (the samples' clock); +infinity when none is armed.
             * While it is finite, call [tick] when that time comes (a due timer also fires at the next
             * sample, at its own deadline, so the actions are the same either way).
             */
            val timerDeadline: Double
                get() = deadline

            private fun fireTimers(limit: Double) {
                // (deadline < +infinity: tick(+infinity) must not fire a timer that is not armed)
                while (deadline <= limit && deadline < Double.POSITIVE_INFINITY) {
                    press(deadline)
                    if (state.isTerminal) {
                        finished = true
                        return
                    }
                }
            }

            private fun resetRecognizer() {
                pressStage = 0
                deadline = Double.POSITIVE_INFINITY
                everPressed = false
            }

            private fun press(t: Double) {
                pressStage = 2
                deadline = Double.POSITIVE_INFINITY
                everPressed = true
                setStateActing(if (state == State.POSSIBLE) State.BEGAN else State.CHANGED, Stage.ACTION, t)
            }

            private fun handle(\(hooks)) {
                if (!everPressed && !MOVEMENT_LIMIT.isNaN()) {
                    val dx = x - downX
                    val dy = y - downY
                    if (dx * dx + dy * dy > MOVEMENT_LIMIT * MOVEMENT_LIMIT) {
                        deadline = Double.POSITIVE_INFINITY
                        setState(State.FAILED, t)
                        return
                    }
                }
                val n = f / maxForce
                when (pressStage) {
                    0 -> if (n >= PRESS_THRESHOLD) {
                        // The later of the dwell and the tap guard (the tap guard when equal).
                        val dwellDue = t + DWELL_TIME
                        val tapDue = downT + TAP_TIMEOUT
                        val due = if (tapDue >= dwellDue) tapDue else dwellDue
                        if (due <= t) {
                            press(t)
                        } else {
                            pressStage = 1
                            deadline = due
                        }
                    }
                    1 -> if (n < PRESS_THRESHOLD) {
                        pressStage = 0
                        deadline = Double.POSITIVE_INFINITY
                    }
                    2 -> if (n < RELEASE_THRESHOLD) {
                        pressStage = if (REARM) 0 else 3
                        setStateActing(State.CHANGED, Stage.RELEASE, t)
                    }
                }
            }

            private fun touchesBegan(\(hooks)) {
                downT = t
                downX = x
                downY = y
                pressStage = 0
                everPressed = false
                deadline = Double.POSITIVE_INFINITY
                handle(f, t, maxForce, x, y)
            }

            private fun touchesMoved(\(hooks)) = handle(f, t, maxForce, x, y)

            private fun touchesEnded(\(hooks)) {
                deadline = Double.POSITIVE_INFINITY
                setState(if (everPressed) State.ENDED else State.FAILED, t)
            }

            private fun touchesCancelled(\(hooks)) {
                deadline = Double.POSITIVE_INFINITY
                setState(if (everPressed) State.CANCELLED else State.FAILED, t)
            }

        """
    case .peekPop:
      return noTimers + """
            // Recognizer: peek-pop (two stages; both can happen on one sample).

            private fun resetRecognizer() {}

            private fun touchesBegan(\(hooks)) = handle(f, t, maxForce)

            private fun touchesMoved(\(hooks)) = handle(f, t, maxForce)

            private fun handle(f: Double, t: Double, maxForce: Double) {
                val n = f / maxForce
                if (state == State.POSSIBLE && n >= PEEK_THRESHOLD) {
                    setStateActing(State.BEGAN, Stage.ACTION, t)
                }
                if (state == State.BEGAN && n >= POP_THRESHOLD) {
                    setStateActing(State.ENDED, Stage.STAGE2, t)
                }
            }

            private fun touchesEnded(\(hooks)) = finish(State.CANCELLED, t)

            private fun touchesCancelled(\(hooks)) = finish(State.CANCELLED, t)

        """
    }
  }
}

// MARK: - Android adapter

extension KotlinExport {
  /// The Android `View.OnTouchListener`: `MotionEvent` samples of the first pointer fed to the
  /// core, timers posted on the view, actions passed to the app's callback.
  static func adapter(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    var out = prologue(c, file: "\(T)TouchListener.kt")
    out += #"""
      //
      // The Android adapter: Android platform API only.

      package \#(packageName)

      import android.os.SystemClock
      import android.view.MotionEvent
      import android.view.View

      /**
       * An Android [View.OnTouchListener] that runs [\#(T)] on the first pointer of each contact and
       * passes each action to [onAction] (on the UI thread, as it happens):
       *
       * ```
       * view.setOnTouchListener(\#(T)TouchListener { action -> if (action.stage == \#(T).Stage.ACTION) showPreview() })
       * ```
       *
       * - Samples: `ACTION_DOWN` is the touch-down (began); `ACTION_MOVE` feeds every historical
       *   (batched) sample of the tracked pointer, oldest first, then the current one (moved);
       *   `ACTION_UP`, or `ACTION_POINTER_UP` of the tracked pointer, is the lift (ended);
       *   `ACTION_CANCEL` is cancelled. Other pointers are ignored.
       * - Force: `MotionEvent.getPressure`, with maximum [MAX_FORCE] = 1.0: Android's pressure is
       *   nominally 0…1 (normalized force = pressure). It is device-calibrated, may exceed 1, and on
       *   many screens estimates contact size or is constant: check the device's readings.
       * - Time: `eventTime / 1000.0` seconds, in the `SystemClock.uptimeMillis()` time base, with
       *   millisecond resolution.
       * - Position: the view-local pixels divided by `displayMetrics.density`: dp, Android's points
       *   (what the recognizer's movement limits are in).
       * - Timers: while `core.timerDeadline` is finite, a `Runnable` posted with
       *   [View.postDelayed] calls `tick(SystemClock.uptimeMillis() / 1000.0)` once the deadline has
       *   come (same clock as `eventTime`); the action carries the deadline as its time. A sample
       *   still queued when the timer runs is seen after it (the replay would see it first).
       *
       * `onTouch` returns true: the listener consumes the view's touches (its click handling no
       * longer sees them).
       */
      class \#(T)TouchListener(private val onAction: (\#(T).Action) -> Unit) : View.OnTouchListener {
          companion object {
              /** The maximum of `MotionEvent.getPressure`: nominally 1.0 on Android. */
              const val MAX_FORCE: Double = 1.0
          }

          /** The core: its state, actions and transitions describe the current contact. */
          val core = \#(T)()

          private var pointerId = MotionEvent.INVALID_POINTER_ID
          private var timerView: View? = null
          private var timerDue = Double.POSITIVE_INFINITY
          private val timer = Runnable { timerFired() }

          override fun onTouch(view: View, event: MotionEvent): Boolean {
              val density = view.resources.displayMetrics.density.toDouble()
              when (event.actionMasked) {
                  MotionEvent.ACTION_DOWN -> {
                      pointerId = event.getPointerId(0)
                      feed(event, 0, density, \#(T).Phase.BEGAN)
                  }
                  MotionEvent.ACTION_MOVE -> {
                      val index = trackedIndex(event)
                      if (index >= 0) {
                          for (h in 0 until event.historySize) {
                              deliver(
                                  core.feed(
                                      event.getHistoricalEventTime(h) / 1000.0,
                                      event.getHistoricalPressure(index, h).toDouble(),
                                      MAX_FORCE,
                                      event.getHistoricalX(index, h).toDouble() / density,
                                      event.getHistoricalY(index, h).toDouble() / density,
                                      \#(T).Phase.MOVED))
                          }
                          feed(event, index, density, \#(T).Phase.MOVED)
                      }
                  }
                  MotionEvent.ACTION_POINTER_UP -> {
                      val index = event.actionIndex
                      if (pointerId != MotionEvent.INVALID_POINTER_ID && event.getPointerId(index) == pointerId) {
                          feed(event, index, density, \#(T).Phase.ENDED)
                          pointerId = MotionEvent.INVALID_POINTER_ID
                      }
                  }
                  MotionEvent.ACTION_UP, MotionEvent.ACTION_CANCEL -> {
                      val index = trackedIndex(event)
                      if (index >= 0) {
                          val phase = if (event.actionMasked == MotionEvent.ACTION_CANCEL) \#(T).Phase.CANCELLED else \#(T).Phase.ENDED
                          feed(event, index, density, phase)
                      }
                      pointerId = MotionEvent.INVALID_POINTER_ID
                  }
              }
              schedule(view)
              return true
          }

          /** The tracked pointer's index in [event], or -1 when it is not there. */
          private fun trackedIndex(event: MotionEvent): Int =
              if (pointerId == MotionEvent.INVALID_POINTER_ID) -1 else event.findPointerIndex(pointerId)

          /** Feeds the current sample of the pointer at [index]. */
          private fun feed(event: MotionEvent, index: Int, density: Double, phase: \#(T).Phase) {
              deliver(
                  core.feed(
                      event.eventTime / 1000.0,
                      event.getPressure(index).toDouble(),
                      MAX_FORCE,
                      event.getX(index).toDouble() / density,
                      event.getY(index).toDouble() / density,
                      phase))
          }

          private fun deliver(actions: List<\#(T).Action>) {
              for (action in actions) onAction(action)
          }

          /** Posts the timer for the core's deadline (or removes it when there is none). */
          private fun schedule(view: View) {
              val deadline = core.timerDeadline
              if (deadline == timerDue && view === timerView) return
              timerView?.removeCallbacks(timer)
              timerView = null
              timerDue = Double.POSITIVE_INFINITY
              if (deadline < Double.POSITIVE_INFINITY) {
                  // The first whole millisecond of uptime at or after the deadline.
                  var dueMillis = kotlin.math.ceil(deadline * 1000.0).toLong()
                  if (dueMillis / 1000.0 < deadline) dueMillis += 1
                  view.postDelayed(timer, maxOf(0L, dueMillis - SystemClock.uptimeMillis()))
                  timerView = view
                  timerDue = deadline
              }
          }

          private fun timerFired() {
              val view = timerView ?: return
              timerDue = Double.POSITIVE_INFINITY // this post has run
              deliver(core.tick(SystemClock.uptimeMillis() / 1000.0))
              schedule(view)
          }
      }

      """#
    return out
  }
}

// MARK: - Conformance check

extension KotlinExport {
  /// The conformance check: `main(args)` runs the core on the vectors file `args[0]`, fed
  /// sample by sample and again with `tick` between samples, and compares every action and
  /// state change with the replay's, bit for bit.
  static func check(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    var out = prologue(c, file: "ConformanceCheck.kt")
    out += #"""
      //
      // The conformance check: runs \#(T) on the contacts of a vectors file (touchtrace-vectors 1)
      // and compares its actions and state changes with the replay's, bit for bit, twice: fed
      // sample by sample, and with tick() called before each later sample (at a timer that fell
      // due, and at the midpoint), which must change nothing. Kotlin standard library and java.io.
      //
      //   kotlinc \#(T).kt ConformanceCheck.kt -include-runtime -d check.jar
      //   java -jar check.jar ../vectors.txt
      //
      // Prints the first 10 differences, then "kotlin: N contacts, A actions, E transitions,
      // D differences" (D counts the runs that differ: at most two per contact); exits 1 when
      // D > 0, 2 when the file cannot be read.

      package \#(packageName)

      import java.io.File
      import java.io.IOException
      import kotlin.system.exitProcess

      /** A sample of the vectors file. */
      private class VectorSample(
          val phase: \#(T).Phase,
          val t: Double,
          val force: Double,
          val maxForce: Double,
          val x: Double,
          val y: Double
      )

      /** A contact of the vectors file: its samples and the replay's records (`a …`, `e …`, normalized). */
      private class VectorContact(val name: String) {
          val samples = ArrayList<VectorSample>()
          val expected = ArrayList<String>()
      }

      private class VectorsError(message: String) : Exception(message)

      /** The double whose IEEE 754 bits are the 16 hexadecimal digits [text]. */
      private fun bits(text: String): Double {
          if (text.length != 16) throw VectorsError("expected 16 hexadecimal digits, got '$text'")
          try {
              return java.lang.Double.longBitsToDouble(java.lang.Long.parseUnsignedLong(text, 16))
          } catch (e: NumberFormatException) {
              throw VectorsError("expected 16 hexadecimal digits, got '$text'")
          }
      }

      /** The bits of [value] as 16 lowercase hexadecimal digits. */
      private fun hex(value: Double): String {
          val digits = java.lang.Long.toHexString(java.lang.Double.doubleToRawLongBits(value))
          return "0".repeat(16 - digits.length) + digits
      }

      private fun phase(text: String): \#(T).Phase = when (text) {
          "began" -> \#(T).Phase.BEGAN
          "moved" -> \#(T).Phase.MOVED
          "stationary" -> \#(T).Phase.STATIONARY
          "ended" -> \#(T).Phase.ENDED
          "cancelled" -> \#(T).Phase.CANCELLED
          else -> throw VectorsError("unknown phase '$text'")
      }

      private fun action(a: \#(T).Action): String = "a ${a.stage.label} ${hex(a.t)}"

      private fun transition(e: \#(T).Transition): String =
          "e ${e.state.label} ${hex(e.t)} ${if (e.implicit) 1 else 0}"

      /** A record with its time in seconds, for the report. */
      private fun show(record: String?): String {
          if (record == null) return "nothing"
          val fields = record.split(" ")
          return if (fields.size >= 3 && fields[2].length == 16) "'$record' (t = ${bits(fields[2])})" else "'$record'"
      }

      /**
       * Runs a fresh core on [contact]: the actions the calls returned, then the transitions.
       * With [ticking], before each sample after the first: tick(timerDeadline) when it is due by
       * the sample's time, then tick at the midpoint of the two samples' times.
       */
      private fun run(contact: VectorContact, ticking: Boolean): List<String> {
          val core = \#(T)()
          val returned = ArrayList<\#(T).Action>()
          var previousT = 0.0
          for ((i, s) in contact.samples.withIndex()) {
              if (ticking && i > 0) {
                  val deadline = core.timerDeadline
                  if (deadline <= s.t) returned.addAll(core.tick(deadline))
                  returned.addAll(core.tick((previousT + s.t) / 2.0))
              }
              returned.addAll(core.feed(s.t, s.force, s.maxForce, s.x, s.y, s.phase))
              previousT = s.t
          }
          val records = ArrayList<String>()
          for (a in returned) records.add(action(a))
          for (e in core.transitions) records.add(transition(e))
          val kept = core.actions.map { action(it) }
          if (kept != returned.map { action(it) }) records.add("x the returned actions differ from core.actions: $kept")
          return records
      }

      fun main(args: Array<String>) {
          if (args.size != 1) {
              System.err.println("usage: java -jar check.jar VECTORS")
              exitProcess(2)
          }
          val path = args[0]
          val lines = try {
              File(path).readLines(Charsets.UTF_8)
          } catch (e: IOException) {
              System.err.println("$path: ${e.message}")
              exitProcess(2)
          }
          var contacts = 0
          var actions = 0
          var transitions = 0
          var differences = 0
          var number = 1
          try {
              val header = lines.firstOrNull()?.split(" ") ?: emptyList()
              if (header.size < 2 || header[0] != "touchtrace-vectors" || header[1] != "1") {
                  throw VectorsError("not a touchtrace-vectors 1 file")
              }
              val name = header.drop(2).joinToString(" ")
              if (name != \#(T).RECOGNIZER) {
                  System.err.println("note: the vectors are for '$name', the core is '${\#(T).RECOGNIZER}'")
              }
              var contact: VectorContact? = null
              for (k in 1 until lines.size) {
                  number = k + 1
                  val line = lines[k]
                  if (line.length == 0) continue
                  val f = line.split(" ")
                  when (f[0]) {
                      "contact" -> {
                          if (contact != null) throw VectorsError("contact before the previous one's end")
                          contact = VectorContact(f.drop(1).joinToString(" "))
                      }
                      "s" -> {
                          val c = contact ?: throw VectorsError("sample outside a contact")
                          if (f.size != 7) throw VectorsError("expected s PHASE T FORCE MAXFORCE X Y")
                          c.samples.add(VectorSample(phase(f[1]), bits(f[2]), bits(f[3]), bits(f[4]), bits(f[5]), bits(f[6])))
                      }
                      "a" -> {
                          val c = contact ?: throw VectorsError("action outside a contact")
                          if (f.size != 3 || f[1] !in listOf("action", "stage2", "release")) {
                              throw VectorsError("expected a action|stage2|release T")
                          }
                          c.expected.add("a ${f[1]} ${hex(bits(f[2]))}")
                      }
                      "e" -> {
                          val c = contact ?: throw VectorsError("transition outside a contact")
                          val states = listOf("possible", "began", "changed", "ended", "cancelled", "failed")
                          if (f.size != 4 || f[1] !in states || f[3] !in listOf("0", "1")) {
                              throw VectorsError("expected e STATE T 0|1")
                          }
                          c.expected.add("e ${f[1]} ${hex(bits(f[2]))} ${f[3]}")
                      }
                      "end" -> {
                          val c = contact ?: throw VectorsError("end outside a contact")
                          contact = null
                          contacts += 1
                          actions += c.expected.count { it.startsWith("a ") }
                          transitions += c.expected.count { it.startsWith("e ") }
                          for (ticking in listOf(false, true)) {
                              val got = run(c, ticking)
                              if (got == c.expected) continue
                              differences += 1
                              if (differences <= 10) {
                                  var k2 = 0
                                  while (k2 < got.size && k2 < c.expected.size && got[k2] == c.expected[k2]) k2 += 1
                                  println(
                                      "contact ${c.name} (${if (ticking) "ticking" else "plain"}): record ${k2 + 1}: " +
                                          "expected ${show(c.expected.getOrNull(k2))}, got ${show(got.getOrNull(k2))}")
                              }
                          }
                      }
                      else -> throw VectorsError("unknown record '${f[0]}'")
                  }
              }
              if (contact != null) throw VectorsError("the last contact has no end")
          } catch (e: VectorsError) {
              System.err.println("$path:$number: ${e.message}")
              exitProcess(2)
          }
          println("kotlin: $contacts contacts, $actions actions, $transitions transitions, $differences differences")
          if (differences > 0) exitProcess(1)
      }

      """#
    return out
  }
}
