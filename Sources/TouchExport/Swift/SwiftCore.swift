import TouchRecognizers

extension SwiftExport {
  // MARK: - Core

  static func core(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    return #"""

      /// The \#(c.recognizerName) recognizer as exported by touchtrace: a state machine fed one
      /// sample at a time, returning the actions each sample causes. It delivers samples as
      /// `touchtrace run` replays a trace (touch-down; moved samples whose force or position
      /// changed; timers on the samples' clock; lift or cancel) and applies the recognizer's rules,
      /// so its actions equal the replay's, to the bit. Standard library only.
      public struct \#(T): Sendable {
        /// The recognizer, as touchtrace names it.
        public static let recognizer = "\#(c.recognizerName)"

      \#(constants(c))
        /// Where a sample stands in its contact.
        public enum Phase: String, Sendable {
          /// Touch-down: starts a contact (and resets the core).
          case began
          /// A later sample (whether it changed is decided by the core).
          case moved
          /// A later sample the platform reports as unchanged (treated as `moved`).
          case stationary
          /// Lift: ends the contact.
          case ended
          /// The system took the touch: ends the contact.
          case cancelled
        }

        /// The gesture's state, as UIKit names a continuous recognizer's states.
        public enum State: String, Sendable {
          case possible, began, changed, ended, cancelled, failed

          /// Ended, cancelled or failed: the gesture is over for this contact.
          public var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }
        }

        /// What an action is: the press (`action`), the second stage (`stage2`), a release.
        public enum Stage: String, Sendable {
          case action, stage2, release
        }

        /// An action: when (seconds, the samples' clock) and which.
        public struct Action: Sendable, Equatable {
          public var t: Double
          public var stage: Stage
        }

        /// A state change: to which state, when (seconds), and whether the contact's end closed
        /// it (`implicit`) rather than the recognizer.
        public struct Transition: Sendable, Equatable {
          public var state: State
          public var t: Double
          public var implicit: Bool
        }

        /// The current state.
        public private(set) var state = State.possible
        /// The current contact's actions, in order.
        public private(set) var actions: [Action] = []
        /// The current contact's state changes, in order.
        public private(set) var transitions: [Transition] = []

        private var open = false
        private var finished = false
        private var emitted: [Action] = []
        private var previousForce = 0.0
        private var previousMaxForce = 0.0
        private var previousX = 0.0
        private var previousY = 0.0
      \#(filterFields(c.filter))\#(recognizerFields(c.core))
        /// A core waiting for its first touch-down.
        public init() {}

        /// Delivers one sample and returns the actions it caused: timers that fell due before
        /// it first (at their own times), then its own.
        ///
        /// - Parameters:
        ///   - t: the sample's time, seconds (any origin; increasing within a contact).
        ///   - force: force in the device's units (`UITouch.force`, Android pressure).
        ///   - maxForce: the maximum possible force in the same units.
        ///   - x: horizontal position, points.
        ///   - y: vertical position, points.
        ///   - phase: where the sample stands in its contact.
        public mutating func feed(
          t: Double, force: Double, maxForce: Double, x: Double, y: Double, phase: Phase
        ) -> [Action] {
          emitted.removeAll(keepingCapacity: true)
          switch phase {
          case .began:
            begin(t: t, force: force, maxForce: maxForce, x: x, y: y)
          case .moved, .stationary:
            guard open, !finished else { break }
            fireTimers(upTo: t)
            guard !finished else { break }
            let f = filtered(force, t: t, maxForce: maxForce)
            let changed = f != previousForce || x != previousX || y != previousY
            remember(f, maxForce, x, y)
            if changed {
              touchesMoved(f, t: t, maxForce: maxForce, x: x, y: y)
              finished = state.isTerminal
            }
          case .ended, .cancelled:
            if !open {
              // A contact of one sample: touch-down and lift at once.
              begin(t: t, force: force, maxForce: maxForce, x: x, y: y)
              if !finished { end(phase, f: previousForce, t: t, maxForce: maxForce, x: x, y: y) }
            } else if !finished {
              fireTimers(upTo: t)
              if !finished {
                let f = filtered(force, t: t, maxForce: maxForce)
                end(phase, f: f, t: t, maxForce: maxForce, x: x, y: y)
              }
            }
            open = false
          }
          return emitted
        }

        /// Tells the core that time `t` (seconds) has come without a sample: fires the timers due
        /// by then, at their own times, and returns their actions.
        public mutating func tick(at t: Double) -> [Action] {
          emitted.removeAll(keepingCapacity: true)
          if open && !finished { fireTimers(upTo: t) }
          return emitted
        }

        private mutating func begin(t: Double, force: Double, maxForce: Double, x: Double, y: Double) {
          state = .possible
          actions.removeAll(keepingCapacity: true)
          transitions.removeAll(keepingCapacity: true)
          resetFilter()
          resetRecognizer()
          open = true
          finished = false
          let f = filtered(force, t: t, maxForce: maxForce)
          remember(f, maxForce, x, y)
          touchesBegan(f, t: t, maxForce: maxForce, x: x, y: y)
          finished = state.isTerminal
        }

        private mutating func end(_ phase: Phase, f: Double, t: Double, maxForce: Double, x: Double, y: Double) {
          if phase == .cancelled {
            touchesCancelled(f, t: t, maxForce: maxForce, x: x, y: y)
          } else {
            touchesEnded(f, t: t, maxForce: maxForce, x: x, y: y)
          }
          // The contact is over: a gesture still open is closed by the system.
          switch state {
          case .possible: record(.failed, t: t, implicit: true)
          case .began, .changed: record(.cancelled, t: t, implicit: true)
          case .ended, .cancelled, .failed: break
          }
          finished = true
        }

        private mutating func remember(_ f: Double, _ maxForce: Double, _ x: Double, _ y: Double) {
          previousForce = f
          previousMaxForce = maxForce
          previousX = x
          previousY = y
        }

        private mutating func record(_ new: State, t: Double, implicit: Bool) {
          state = new
          transitions.append(Transition(state: new, t: t, implicit: implicit))
        }

        private mutating func setState(_ new: State, t: Double) {
          guard new != state, !state.isTerminal else { return }
          record(new, t: t, implicit: false)
        }

        private mutating func act(_ stage: Stage, t: Double) {
          let action = Action(t: t, stage: stage)
          actions.append(action)
          emitted.append(action)
        }

        private mutating func setState(_ new: State, acting stage: Stage, t: Double) {
          setState(new, t: t)
          act(stage, t: t)
        }

        private mutating func finish(_ outcome: State, t: Double) {
          setState(state == .possible ? .failed : outcome, t: t)
        }

      \#(filterCode(c.filter))
      \#(recognizerCode(c.core))
      }

      """#
  }

  static func constants(_ c: ExportConfiguration) -> String {
    var lines: [(doc: String, name: String, type: String, value: String)] = []
    switch c.filter {
    case .ema(let alpha)?:
      lines.append(
        ("Filter (exponential moving average): weight of each new sample.", "emaAlpha", "Double", literal(alpha)))
    case .movingMean(let window)?:
      lines.append(("Filter (trailing moving mean): samples averaged.", "movingMeanWindow", "Int", "\(window)"))
    case .oneEuro(let minCutoff, let beta, let dCutoff)?:
      lines.append(
        ("Filter (1€): cutoff when force is still, hertz.", "oneEuroMinCutoff", "Double", literal(minCutoff)))
      lines.append(
        ("Filter (1€): cutoff increase per force unit per second of speed.", "oneEuroBeta", "Double", literal(beta)))
      lines.append(
        ("Filter (1€): cutoff of the speed estimate, hertz.", "oneEuroDerivativeCutoff", "Double", literal(dCutoff)))
    case nil: break
    }
    switch c.core {
    case .deepPress(let threshold):
      lines.append(
        (
          "Normalized force that begins the press (>=); below it the press ends.", "threshold", "Double",
          literal(threshold)
        ))
    case .hysteresis(let press, let release, let palm, let strict, let inclusive):
      lines.append(
        ("Normalized force that presses (>=, > when strictPress).", "pressThreshold", "Double", literal(press)))
      lines.append(
        (
          "Normalized force below which a press releases (<, <= when inclusiveRelease).", "releaseThreshold", "Double",
          literal(release)
        ))
      lines.append(
        (
          "Normalized force above which the contact is rejected for good (NaN: off).", "palmThreshold", "Double",
          literal(palm)
        ))
      lines.append(("Press with > instead of >=.", "strictPress", "Bool", "\(strict)"))
      lines.append(("Release with <= instead of <.", "inclusiveRelease", "Bool", "\(inclusive)"))
    case .stablePress(let press, let release, let dwell, let tap, let movement, let rearm):
      lines.append(("Normalized force that arms a press (>=).", "pressThreshold", "Double", literal(press)))
      lines.append(
        ("Normalized force below which a press releases (<).", "releaseThreshold", "Double", literal(release)))
      lines.append(
        ("Time the force must stay at or above pressThreshold, seconds.", "dwellTime", "Double", literal(dwell)))
      lines.append(("Shortest contact before a press, seconds.", "tapTimeout", "Double", literal(tap)))
      lines.append(
        (
          "Movement before the first press that fails the contact, points (NaN: off).", "movementLimit", "Double",
          literal(movement)
        ))
      lines.append(("A released press can press again in the same contact.", "rearm", "Bool", "\(rearm)"))
    case .peekPop(let peek, let pop):
      lines.append(("Normalized force of the peek (>=).", "peekThreshold", "Double", literal(peek)))
      lines.append(("Normalized force of the pop (>=).", "popThreshold", "Double", literal(pop)))
    }
    return lines.map { "  /// \($0.doc)\n  public static let \($0.name): \($0.type) = \($0.value)\n" }.joined()
  }

  static func filterFields(_ filter: CausalFilter?) -> String {
    switch filter {
    case nil: ""
    case .ema?: "  private var filterY = Double.nan\n"
    case .movingMean?:
      "  private var ring = [Double](repeating: 0, count: movingMeanWindow)\n  private var ringCount = 0\n  private var ringNext = 0\n"
    case .oneEuro?:
      "  private var filterY = Double.nan\n  private var filterLastT = Double.nan\n  private var filterDY = 0.0\n"
    }
  }

  static func filterCode(_ filter: CausalFilter?) -> String {
    let clamp = """
          if out < 0 { out = 0 }
          if out > maxForce { out = maxForce }
      """
    switch filter {
    case nil:
      return """
          private mutating func resetFilter() {}

          private func filtered(_ force: Double, t: Double, maxForce: Double) -> Double { force }

        """
    case .ema?:
      return """
          private mutating func resetFilter() { filterY = .nan }

          /// Exponential moving average, clamped to 0…maxForce.
          private mutating func filtered(_ x: Double, t: Double, maxForce: Double) -> Double {
            var out = filterY.isNaN ? x : Self.emaAlpha * x + (1 - Self.emaAlpha) * filterY
        \(clamp)
            filterY = out
            return out
          }

        """
    case .movingMean?:
      return """
          private mutating func resetFilter() {
            ringCount = 0
            ringNext = 0
          }

          /// Trailing moving mean of the last movingMeanWindow samples, clamped to 0…maxForce.
          private mutating func filtered(_ x: Double, t: Double, maxForce: Double) -> Double {
            let w = Self.movingMeanWindow
            ring[ringNext] = x
            ringNext = ringNext + 1 == w ? 0 : ringNext + 1
            if ringCount < w { ringCount += 1 }
            var j = ringCount == w ? ringNext : 0
            var sum = 0.0
            for _ in 0..<ringCount {
              sum += ring[j]
              j = j + 1 == w ? 0 : j + 1
            }
            var out = sum / Double(ringCount)
        \(clamp)
            return out
          }

        """
    case .oneEuro?:
      return """
          private mutating func resetFilter() {
            filterY = .nan
            filterLastT = .nan
            filterDY = 0
          }

          private static func smoothingFactor(cutoff: Double, dt: Double) -> Double {
            let tau = 1 / (2 * Double.pi * cutoff)
            return 1 / (1 + tau / dt)
          }

          /// The 1€ filter on the samples' own time steps, clamped to 0…maxForce.
          private mutating func filtered(_ x: Double, t: Double, maxForce: Double) -> Double {
            var out: Double
            if filterY.isNaN {
              out = x
            } else {
              let dt = t - filterLastT
              guard dt > 0 else { return filterY }
              let dx = (x - filterY) / dt
              filterDY += Self.smoothingFactor(cutoff: Self.oneEuroDerivativeCutoff, dt: dt) * (dx - filterDY)
              let cutoff = Self.oneEuroMinCutoff + Self.oneEuroBeta * abs(filterDY)
              out = filterY + Self.smoothingFactor(cutoff: cutoff, dt: dt) * (x - filterY)
            }
            filterLastT = t
        \(clamp)
            filterY = out
            return out
          }

        """
    }
  }

  static func recognizerFields(_ core: ExportConfiguration.Core) -> String {
    switch core {
    case .deepPress: "  private var deepPressed = false\n"
    case .hysteresis: "  private var pressed = false\n"
    case .stablePress:
      """
        private var downT = 0.0
        private var downX = 0.0
        private var downY = 0.0
        private var stage = 0  // 0 idle, 1 arming, 2 pressed, 3 done
        private var deadline = Double.infinity
        private var everPressed = false

      """
    case .peekPop: ""
    }
  }

  static func recognizerCode(_ core: ExportConfiguration.Core) -> String {
    let noTimers = """
        /// When the next timer fires, seconds: this recognizer keeps none.
        public var timerDeadline: Double { .infinity }

        private mutating func fireTimers(upTo limit: Double) {}

      """
    let signature = "_ f: Double, t: Double, maxForce: Double, x: Double, y: Double"
    // touchesBegan and touchesMoved of a recognizer that treats both alike.
    let handled = """
        private mutating func touchesBegan(\(signature)) { handle(f, t: t, maxForce: maxForce) }

        private mutating func touchesMoved(\(signature)) { handle(f, t: t, maxForce: maxForce) }

      """
    switch core {
    case .deepPress:
      return noTimers + """
          private mutating func resetRecognizer() { deepPressed = false }

        \(handled)
          private mutating func handle(_ f: Double, t: Double, maxForce: Double) {
            guard f != 0, maxForce != 0 else { return }
            let n = f / maxForce
            if !deepPressed && n >= Self.threshold {
              setState(.began, acting: .action, t: t)
              deepPressed = true
            } else if deepPressed && n < Self.threshold {
              setState(.ended, acting: .release, t: t)
              deepPressed = false
            }
          }

          private mutating func touchesEnded(\(signature)) {
            setState(deepPressed ? .ended : .failed, t: t)
            deepPressed = false
          }

          private mutating func touchesCancelled(\(signature)) {}
        """
    case .hysteresis:
      return noTimers + """
          private mutating func resetRecognizer() { pressed = false }

        \(handled)
          private mutating func handle(_ f: Double, t: Double, maxForce: Double) {
            let n = f / maxForce
            if n > Self.palmThreshold {  // false when palmThreshold is NaN (off)
              finish(.cancelled, t: t)
              return
            }
            if pressed {
              if Self.inclusiveRelease ? n <= Self.releaseThreshold : n < Self.releaseThreshold {
                pressed = false
                setState(.changed, acting: .release, t: t)
              }
            } else if Self.strictPress ? n > Self.pressThreshold : n >= Self.pressThreshold {
              pressed = true
              setState(state == .possible ? .began : .changed, acting: .action, t: t)
            }
          }

          private mutating func touchesEnded(\(signature)) { finish(.ended, t: t) }

          private mutating func touchesCancelled(\(signature)) { finish(.cancelled, t: t) }
        """
    case .stablePress:
      return """
          /// When the armed press fires, seconds (the samples' clock); infinity when none is armed.
          public var timerDeadline: Double { deadline }

          private mutating func fireTimers(upTo limit: Double) {
            while deadline <= limit && deadline < .infinity {
              press(t: deadline)
              if state.isTerminal {
                finished = true
                return
              }
            }
          }

          private mutating func resetRecognizer() {
            stage = 0
            deadline = .infinity
            everPressed = false
          }

          private mutating func press(t: Double) {
            stage = 2
            deadline = .infinity
            everPressed = true
            setState(state == .possible ? .began : .changed, acting: .action, t: t)
          }

          private mutating func handle(\(signature)) {
            if !everPressed && !Self.movementLimit.isNaN {
              let dx = x - downX
              let dy = y - downY
              if dx * dx + dy * dy > Self.movementLimit * Self.movementLimit {
                deadline = .infinity
                setState(.failed, t: t)
                return
              }
            }
            let n = f / maxForce
            switch stage {
            case 0:
              if n >= Self.pressThreshold {
                let due = max(t + Self.dwellTime, downT + Self.tapTimeout)
                if due <= t {
                  press(t: t)
                } else {
                  stage = 1
                  deadline = due
                }
              }
            case 1:
              if n < Self.pressThreshold {
                stage = 0
                deadline = .infinity
              }
            case 2:
              if n < Self.releaseThreshold {
                stage = Self.rearm ? 0 : 3
                setState(.changed, acting: .release, t: t)
              }
            default:
              break
            }
          }

          private mutating func touchesBegan(\(signature)) {
            downT = t
            downX = x
            downY = y
            stage = 0
            everPressed = false
            deadline = .infinity
            handle(f, t: t, maxForce: maxForce, x: x, y: y)
          }

          private mutating func touchesMoved(\(signature)) { handle(f, t: t, maxForce: maxForce, x: x, y: y) }

          private mutating func touchesEnded(\(signature)) {
            deadline = .infinity
            setState(everPressed ? .ended : .failed, t: t)
          }

          private mutating func touchesCancelled(\(signature)) {
            deadline = .infinity
            setState(everPressed ? .cancelled : .failed, t: t)
          }
        """
    case .peekPop:
      return noTimers + """
          private mutating func resetRecognizer() {}

        \(handled)
          private mutating func handle(_ f: Double, t: Double, maxForce: Double) {
            let n = f / maxForce
            if state == .possible && n >= Self.peekThreshold {
              setState(.began, acting: .action, t: t)
            }
            if state == .began && n >= Self.popThreshold {
              setState(.ended, acting: .stage2, t: t)
            }
          }

          private mutating func touchesEnded(\(signature)) { finish(.cancelled, t: t) }

          private mutating func touchesCancelled(\(signature)) { finish(.cancelled, t: t) }
        """
    }
  }
}
