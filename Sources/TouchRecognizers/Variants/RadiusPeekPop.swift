/// V12 `radius-peek-pop`: marmelroy/PeekPop's PeekPopGestureRecognizer — peek and pop for
/// devices without 3D Touch, where the pseudo-force is the growth of the touch radius
/// (`UITouch.majorRadius`).
///
/// Rules (the library's constants as defaults):
/// - touch-down: the initial radius is recorded and a timer is set at touch-down + `delay`
///   (`perform(delayedFirstTouch, afterDelay: 0.2)`). A trace without a radius column cannot
///   drive it: the gesture fails at touch-down.
/// - Any move while still possible cancels (a cancel from possible, which the harness counts as a
///   failure). UIKit delivers a change of `majorRadius` as `touchesMoved`; the harness compares
///   force and position only, so this recognizer takes stationary samples and treats a sample
///   whose radius changed as a move.
/// - The timer: began (the preview shows); the progress animation starts at 0 and moves toward
///   its target by `progressStepUp` per display frame (`frameRate` frames per second), or down
///   by `progressStepDown` when above it. The target is `previewProgress`.
/// - A move after began tests the radius: `initialRadius / radius < commitRatio` (the radius has
///   grown past 1/commitRatio, 1.67× by default) sets the target to `commitProgress`, else back to
///   `previewProgress`.
/// - The frame at which the progress reaches `commitProgress` commits (pop): ended, the action.
/// - Lift or cancel before the commit: cancelled (failed while still possible).
///
/// The frame clock starts at the began time: frame k fires at `began + k / frameRate` exactly
/// (no accumulated error). With the defaults the commit comes 50 frames (0.833 s) after the
/// preview at the earliest: 1.03 s after touch-down. Frames at which the progress already equals
/// its target change nothing and are not replayed: the clock pauses there and resumes at the
/// next frame after a move that changes the target, so a long still hold costs no timer firings.
public struct RadiusPeekPop: ConfigurableRecognizer {
  /// Seconds from touch-down to the preview (began).
  public let delay: Double
  /// Commit when `initialRadius / radius` falls below this ratio.
  public let commitRatio: Double
  /// The progress target after began.
  public let previewProgress: Double
  /// The progress at which the gesture commits.
  public let commitProgress: Double
  /// Progress added per frame while below the target.
  public let progressStepUp: Double
  /// Progress removed per frame while above the target.
  public let progressStepDown: Double
  /// Display frames per second (60; 120 on ProMotion screens).
  public let frameRate: Double

  @usableFromInline var initialRadius = Double.nan
  @usableFromInline var lastRadius = Double.nan
  @usableFromInline var began = 0.0
  @usableFromInline var frame = 0
  @usableFromInline var progress = 0.0
  @usableFromInline var target = 0.0
  @usableFromInline var deadline = Double.infinity

  /// The `delay` parameter.
  public static let delay = Parameter<Double>.number(
    "delay", .seconds, default: 0.2, minimum: 0, inclusive: false,
    "time from touch-down to the preview (began); any move before it cancels")
  /// The `commitRatio` parameter.
  public static let commitRatio = Parameter<Double>.number(
    "commitRatio", .none, default: 0.6, minimum: 0, inclusive: false, maximum: 1,
    grid: .fractions(steps: 20), "commit when initialRadius / radius < commitRatio (the radius grew past 1/commitRatio)"
  )
  /// The `previewProgress` parameter.
  public static let previewProgress = Parameter<Double>.number(
    "previewProgress", .none, default: 0.66, minimum: 0, maximum: 1, "progress target after began (previewThreshold)")
  /// The `commitProgress` parameter.
  public static let commitProgress = Parameter<Double>.number(
    "commitProgress", .none, default: 0.99, minimum: 0, inclusive: false, maximum: 1,
    "progress at which the gesture commits (commitThreshold)")
  /// The `progressStepUp` parameter.
  public static let progressStepUp = Parameter<Double>.number(
    "progressStepUp", .none, default: 0.02, minimum: 0, inclusive: false, maximum: 1,
    "progress added per display frame toward a higher target (interpolationSpeed)")
  /// The `progressStepDown` parameter.
  public static let progressStepDown = Parameter<Double>.number(
    "progressStepDown", .none, default: 0.04, minimum: 0, inclusive: false, maximum: 1,
    "progress removed per display frame toward a lower target")
  /// The `frameRate` parameter.
  public static let frameRate = Parameter<Double>.number(
    "frameRate", .none, default: 60, minimum: 1, maximum: 1000, "display frames per second that drive the progress")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "radius-peek-pop", code: "V12", title: "PeekPopGestureRecognizer (marmelroy, radius-based)",
    summary:
      "Peek after a still 0.2 s, pop when the touch radius grows past 1/0.6 and the animated progress reaches 0.99; needs a radius column.",
    source: .github("marmelroy/PeekPop", files: "PeekPop/PeekPopGestureRecognizer.swift", version: "4959b39"),
    style: .continuous,
    actionEvent: "ended (pop): the display frame at which the progress reaches commitProgress",
    rules:
      "Touch-down records the radius and sets a timer at +delay; any move (force, position or radius) while possible cancels. The timer begins the gesture (preview) and starts a frame clock; the progress moves toward previewProgress, or commitProgress once initialRadius/radius < commitRatio, by progressStepUp per frame (progressStepDown down); reaching commitProgress ends it (pop). Lift before → cancelled; no radius column → failed at touch-down.",
    parameters: [
      Self.delay.spec, Self.commitRatio.spec, Self.previewProgress.spec, Self.commitProgress.spec,
      Self.progressStepUp.spec, Self.progressStepDown.spec, Self.frameRate.spec,
    ],
    sweptByDefault: Self.commitRatio.name)

  /// The parameter values the recognizer was built with.
  public let parameters: ParameterValues

  /// Builds from resolved parameter values.
  ///
  /// - Throws: ``ParameterError`` when `commitProgress < previewProgress`.
  public init(parameters: ParameterValues) throws(ParameterError) {
    try Self.require(Self.commitProgress, .atLeast, Self.previewProgress, in: parameters)
    self.parameters = parameters
    (delay, commitRatio, frameRate) = (parameters[Self.delay], parameters[Self.commitRatio], parameters[Self.frameRate])
    (previewProgress, commitProgress) = (parameters[Self.previewProgress], parameters[Self.commitProgress])
    (progressStepUp, progressStepDown) = (parameters[Self.progressStepUp], parameters[Self.progressStepDown])
  }

  /// Creates the recognizer at the library's constants (change them through
  /// ``init(parameters:)``); invalid values trap.
  public init(delay: Double = 0.2, commitRatio: Double = 0.6) {
    self = .checked(Self.delay(delay), Self.commitRatio(commitRatio))
  }

  /// A radius-only change arrives as a stationary sample (see the type's rules).
  @inlinable public static var receivesStationary: Bool { true }

  /// The delay and the frame clock.
  @inlinable public static var usesTimers: Bool { true }

  /// The delay, then the next display frame.
  @inlinable public var timerDeadline: Double { deadline }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    guard !sample.radius.isNaN else {
      context.setState(.failed, at: sample)
      return
    }
    initialRadius = sample.radius
    lastRadius = sample.radius
    deadline = sample.t + delay
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    lastRadius = sample.radius
    if context.state == .possible {
      deadline = .infinity
      context.setState(.cancelled, at: sample)
      return
    }
    // The radius test on every move after began.
    target = initialRadius / sample.radius < commitRatio ? commitProgress : previewProgress
    if deadline == .infinity && progress != target && context.state != .possible {
      // The paused frame clock resumes at the first frame after this move.
      var next = frame
      let estimate = ((sample.t - began) * frameRate).rounded(.down)
      if estimate > Double(frame), estimate < 0x1p52, let k = Int(exactly: estimate) { next = k }
      while began + Double(next) / frameRate <= sample.t { next += 1 }
      frame = next
      deadline = began + Double(frame) / frameRate
    }
  }

  @inlinable
  public mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    // Same force and position; a new radius is a move in UIKit.
    if sample.radius != lastRadius { touchesMoved(sample, &context) }
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    if context.state == .possible {
      context.setState(.began, at: sample)
      began = sample.t
      frame = 0
      progress = 0
      target = previewProgress
    } else {
      if progress < target {
        progress = Swift.min(progress + progressStepUp, target)
      } else if progress > target {
        progress = Swift.max(progress - progressStepDown, target)
      }
      if progress >= commitProgress {
        deadline = .infinity
        context.setState(.ended, acting: .action, at: sample)
        return
      }
    }
    frame += 1
    // At its target the progress stays put until a move changes the target: pause the clock.
    deadline = progress == target ? .infinity : began + Double(frame) / frameRate
  }

  /// Lift or cancel: the pending timer stops; cancelled after the preview, failed before it.
  @inlinable
  mutating func end(_ sample: TouchSample, _ context: inout GestureContext) {
    deadline = .infinity
    context.finish(.cancelled, at: sample)
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) { end(sample, &context) }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    end(sample, &context)
  }

  @inlinable
  public mutating func reset() { (deadline, progress, target) = (.infinity, 0, 0) }
}
