import Testing
import TouchCore
import TouchSignal
import TouchTestSupport

/// Each known GSL failure trigger ends as a Swift error naming the GSL function, never as an
/// abort of the process (GSL's default handler would abort; TouchSignal switches it off).
@Suite("GSL failures become Swift errors")
struct GSLFailureTests {
  @Test func duplicateTimestampsInASpline() {
    let error = #expect(throws: GSLError.self) {
      _ = try Spline(.linear, x: [0, 0.1, 0.1, 0.2], y: [0, 1, 2, 3])
    }
    #expect(error?.function == "gsl_spline_init")
    #expect(error?.status == 4)  // GSL_EINVAL
    #expect(error?.description == "gsl_spline_init: x values must be strictly increasing (GSL status 4)")
  }

  @Test func decreasingTimestampsInASpline() {
    let error = #expect(throws: GSLError.self) {
      _ = try Spline(.steffen, x: [0, 0.2, 0.1], y: [0, 1, 2])
    }
    #expect(error?.function == "gsl_spline_init")
  }

  @Test(arguments: [(InterpolationMethod.akima, 4, 5), (.steffen, 2, 3), (.cubic, 2, 3), (.linear, 1, 2)])
  func tooFewPointsForTheMethod(method: InterpolationMethod, points: Int, minimum: Int) {
    #expect(method.minimumPoints == minimum)
    let x = (0..<points).map(Double.init)
    let error = #expect(throws: GSLError.self) { _ = try Spline(method, x: x, y: x) }
    #expect(error?.function == "gsl_spline_alloc")
    #expect(error?.status == 4)
    #expect(
      error?.reason == "insufficient number of points: \(method) interpolation needs at least \(minimum), got \(points)"
    )
  }

  @Test func evaluationOutsideTheData() throws {
    let spline = try Spline(.steffen, x: [0, 0.1, 0.2, 0.3], y: [0, 1, 1.5, 1.6])
    #expect(try spline.value(at: 0.3) == 1.6)
    let error = #expect(throws: GSLError.self) { _ = try spline.value(at: 0.31) }
    #expect(error?.function == "gsl_spline_eval_e")
    #expect(error?.status == 1)  // GSL_EDOM
    #expect(throws: GSLError.self) { _ = try spline.derivative(at: -0.01) }
    #expect(throws: GSLError.self) { _ = try spline.integral(from: 0, to: 0.5) }
  }

  @Test func emptyInput() {
    let error = #expect(throws: GSLError.self) { _ = try Spline(.linear, x: [], y: []) }
    #expect(error?.function == "gsl_spline_alloc")
    // A fit of no samples is reported, not attempted.
    let fit = LogisticFitting().fit(t: [], force: [])
    #expect(fit.status == .tooFewSamples(0))
    #expect(fit.parameters == nil)
  }

  @Test func errorsNameTheTrace() {
    let error = GSLError(status: 1, function: "gsl_spline_eval_e", reason: "input domain error").inTrace("p3")
    #expect(error.description == "gsl_spline_eval_e: input domain error (GSL status 1) in trace 'p3'")
    #expect(SignalError.gsl(error).description == "trace 'p3': gsl_spline_eval_e: input domain error (GSL status 1)")
  }

  @Test func splineValuesDerivativeAndIntegral() throws {
    // Linear through (0, 0), (1, 2), (3, 2): value, slope and area are hand-computable.
    let spline = try Spline(.linear, x: [0, 1, 3], y: [0, 2, 2])
    #expect(try spline.value(at: 0.5) == 1)
    #expect(try spline.derivative(at: 0.5) == 2)
    #expect(try spline.integral(from: 0, to: 3) == 5)
    #expect(try spline.values(at: [0, 2, 3]) == [0, 2, 2])
    #expect(spline.domain == 0...3 && spline.count == 3)
  }
}
