import TouchRecognizers

extension SwiftExport {
  // MARK: - UIKit adapter

  static func adapter(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    return #"""

      #if canImport(UIKit)
        import UIKit
        import UIKit.UIGestureRecognizerSubclass

        /// A `UIGestureRecognizer` that runs \#(T) on the first touch of each contact: every
        /// `UITouch` sample (coalesced ones included) is fed with `timestamp`, `force`,
        /// `maximumPossibleForce` and the location in the view, in points. The recognizer's state
        /// follows the core's (began, changed, ended, cancelled, failed); each action is passed
        /// to `onAction` on the main thread. While the core has a timer armed, a display link
        /// calls `tick` with `CACurrentMediaTime()`, the clock `UITouch.timestamp` uses.
        public final class \#(T)GestureRecognizer: UIGestureRecognizer {
          /// The core (its `actions` and `transitions` describe the current contact).
          public private(set) var core = \#(T)()
          /// Called with each action as it happens.
          public var onAction: ((\#(T).Action) -> Void)?

          private weak var tracked: UITouch?
          private var displayLink: CADisplayLink?
          private var reported = \#(T).State.possible

          public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
            guard tracked == nil, let touch = touches.first else {
              for touch in touches where touch !== tracked { ignore(touch, for: event) }
              return
            }
            tracked = touch
            reported = .possible
            deliver(touch, .began)
          }

          public override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
            guard let touch = tracked, touches.contains(touch) else { return }
            for sample in event.coalescedTouches(for: touch) ?? [touch] { deliver(sample, .moved) }
          }

          public override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
            guard let touch = tracked, touches.contains(touch) else { return }
            deliver(touch, .ended)
            tracked = nil
          }

          public override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
            guard let touch = tracked, touches.contains(touch) else { return }
            deliver(touch, .cancelled)
            tracked = nil
          }

          public override func reset() {
            super.reset()
            tracked = nil
            reported = .possible
            stopTimer()
          }

          private func deliver(_ touch: UITouch, _ phase: \#(T).Phase) {
            let point = touch.location(in: view)
            let actions = core.feed(
              t: touch.timestamp, force: Double(touch.force), maxForce: Double(touch.maximumPossibleForce),
              x: Double(point.x), y: Double(point.y), phase: phase)
            publish(actions)
          }

          private func publish(_ actions: [\#(T).Action]) {
            if core.state != reported {
              reported = core.state
              switch core.state {
              case .possible: break
              case .began: state = .began
              case .changed: state = .changed
              case .ended: state = .ended
              case .cancelled: state = .cancelled
              case .failed: state = .failed
              }
            }
            for action in actions { onAction?(action) }
            if core.timerDeadline.isFinite && tracked != nil { startTimer() } else { stopTimer() }
          }

          private func startTimer() {
            guard displayLink == nil else { return }
            let link = CADisplayLink(target: self, selector: #selector(step))
            link.add(to: .main, forMode: .common)
            displayLink = link
          }

          private func stopTimer() {
            displayLink?.invalidate()
            displayLink = nil
          }

          @objc private func step() {
            publish(core.tick(at: CACurrentMediaTime()))
          }
        }
      #endif

      """#
  }
}
