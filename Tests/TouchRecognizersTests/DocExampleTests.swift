import Testing
import TouchCore
import TouchRecognizers

/// The example of the AddingARecognizer article, verbatim, so the article stays compilable.
public struct FirstMovedCrossing: ConfigurableRecognizer {
  public let threshold: Double

  public static let threshold = Parameter<Double>.number(
    "threshold", .normalizedForce, default: 0.5, minimum: 0, maximum: 1,
    "normalized force to reach (>=)")

  public static let descriptor = RecognizerDescription(
    name: "first-moved-crossing", code: "", title: "First moved crossing",
    summary: "Recognized on the first moved sample with force/max >= threshold.",
    source: RecognizerSource(library: "example", version: nil, link: nil, reference: "example"),
    style: .discrete, actionEvent: "recognized: the first moved sample with n >= threshold",
    rules: "Moved samples only: n >= threshold → recognized.",
    parameters: [Self.threshold.spec], sweptByDefault: Self.threshold.name)

  public init(parameters: ParameterValues) throws(ParameterError) {
    threshold = parameters[Self.threshold]
  }

  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.threshold, to: threshold)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {}

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    if sample.normalizedForce >= threshold {
      context.setState(.ended, at: sample)
      context.act(at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.failed, at: sample)
  }
}

@Suite("Documentation examples")
struct DocExampleTests {
  @Test func writingARecognizerExampleWorks() throws {
    let recognizer = try FirstMovedCrossing(settings: [("threshold", "0.5")])
    // n = 0.5 exactly at 200/60 on the touch-down (not checked), then at sample 2.
    let result = try Replay.replay(trace: makeTrace([grid(200), grid(100), grid(200), 0]), using: recognizer)
    #expect(states(result) == ["ended@2"])
    #expect(states(try Replay.replay(trace: makeTrace([0, grid(199), 0]), using: recognizer)) == ["failed@2"])
    // The article's defaults: a normalized-force parameter needs the maximum.
    #expect(recognizer.requiresMaximumForce)
  }
}
