/// The state of a recognizer, mirroring `UIGestureRecognizer.State`.
///
/// Discrete recognizers go from ``possible`` to ``ended`` (UIKit's `recognized`) or ``failed``.
/// Continuous recognizers go from ``possible`` to ``began``, then ``changed`` any number of times,
/// then ``ended`` or ``cancelled``; or from ``possible`` to ``failed``. ``ended``, ``cancelled``
/// and ``failed`` are terminal: the recognizer sees nothing more of the contact and is reset.
public enum GestureState: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Not recognized yet; the initial state of every contact.
  case possible
  /// A continuous gesture started.
  case began
  /// A continuous gesture changed.
  case changed
  /// The gesture ended; for discrete recognizers, the gesture was recognized.
  case ended
  /// A continuous gesture was cancelled.
  case cancelled
  /// The recognizer decided the contact is not its gesture.
  case failed

  /// Whether the state ends the recognizer's part in the contact.
  @inlinable public var isTerminal: Bool { rawValue >= GestureState.ended.rawValue }

  /// Whether the recognizer has recognized (``began``, ``changed`` or ``ended``).
  @inlinable public var isRecognizing: Bool {
    self == .began || self == .changed || self == .ended
  }

  /// The word used in reports: `possible`, `began`, `changed`, `ended`, `cancelled`, `failed`.
  public var name: String {
    switch self {
    case .possible: "possible"
    case .began: "began"
    case .changed: "changed"
    case .ended: "ended"
    case .cancelled: "cancelled"
    case .failed: "failed"
    }
  }

  /// The same as ``name``.
  public var description: String { name }
}

/// How a recognizer reports its decisions: in one step or as a gesture with a duration.
public enum RecognizerStyle: String, Sendable, Hashable {
  /// Possible → ended (recognized) or failed.
  case discrete
  /// Possible → began → changed… → ended or cancelled; or possible → failed.
  case continuous
}
