import TouchRecognizers

/// `recognizer.open(visitor)`, compiled in this module so that `visitor.visit` — and the replay
/// loop inside it — is specialized for each concrete recognizer type. (`AnyForceRecognizer.open`
/// lives in TouchRecognizers and calls this module's generic visitor unspecialized, dispatching
/// every per-sample callback through witness tables.) The cases mirror `AnyForceRecognizer`; a
/// new variant makes this switch fail to compile until it is added here.
func specialized<V: ForceRecognizerVisitor>(_ recognizer: AnyForceRecognizer, _ visitor: V) -> V.Output {
  switch recognizer {
  case .shunkit(let r): visitor.visit(r)
  case .deepPress(let r): visitor.visit(r)
  case .yusuga(let r): visitor.visit(r)
  case .algSqueeze(let r): visitor.visit(r)
  case .frosty(let r): visitor.visit(r)
  case .ps(let r): visitor.visit(r)
  case .gtDeepPress(let r): visitor.visit(r)
  case .flutterForcePress(let r): visitor.visit(r)
  case .rnghForce(let r): visitor.visit(r)
  case .dfContinuous(let r): visitor.visit(r)
  case .hysteresis(let r): visitor.visit(r)
  case .pressureJS(let r): visitor.visit(r)
  case .longPress(let r): visitor.visit(r)
  case .longPressAndroid(let r): visitor.visit(r)
  case .peakRelease(let r): visitor.visit(r)
  case .zones(let r): visitor.visit(r)
  case .peekPop(let r): visitor.visit(r)
  case .tap(let r): visitor.visit(r)
  case .stablePress(let r): visitor.visit(r)
  case .requiringFailure(let dependent, let required):
    switch dependent {
    case .tap(let d): specialized(required, Composed(dependent: d, inner: visitor))
    case .longPress(let d): specialized(required, Composed(dependent: d, inner: visitor))
    case .longPressAndroid(let d): specialized(required, Composed(dependent: d, inner: visitor))
    default: preconditionFailure("AnyForceRecognizer.requiringFailure(of:) admits only tap and long-press dependents")
    }
  }
}

/// Visits the composition of a fixed dependent with the visited (required) recognizer.
private struct Composed<D: ForceRecognizer, V: ForceRecognizerVisitor>: ForceRecognizerVisitor {
  let dependent: D
  let inner: V

  func visit<R: ForceRecognizer>(_ recognizer: R) -> V.Output {
    inner.visit(RequireToFail(dependent, requiringFailureOf: recognizer))
  }
}
