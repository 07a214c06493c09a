import TouchRecognizers

// MARK: - Core

extension KotlinExport {
  /// The core class: delivery (as the replay delivers samples), the filter and the recognizer.
  static func core(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    let filtered = c.filter == nil ? "" : " behind a causal filter"
    return #"""
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
    // touchesBegan and touchesMoved of a recognizer that treats both alike.
    let handled = """
          private fun touchesBegan(\(hooks)) = handle(f, t, maxForce)

          private fun touchesMoved(\(hooks)) = handle(f, t, maxForce)
      """
    // The fields and reset of a recognizer whose state is one flag, false at touch-down.
    func latch(_ flag: String) -> String {
      """
          private var \(flag) = false

          private fun resetRecognizer() {
              \(flag) = false
          }
      """
    }
    switch core {
    case .deepPress:
      return noTimers + """
            // Recognizer: deep-press (FlexMonkey). Samples with force 0 (or maximum 0) are ignored.

        \(latch("deepPressed"))

        \(handled)

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

        \(latch("pressed"))

        \(handled)

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

        \(handled)

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
