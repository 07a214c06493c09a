import Testing
import TouchEvaluation
import TouchRecognizers

@Suite("Exact sweep grids")
struct GridTests {
  @Test func sixtiethsAreExact() throws {
    let points = try SweepAxis.range("0:1:1/60")
    #expect(points.count == 61)
    #expect(points[45] == 45.0 / 60)
    #expect(points[60] == 1)
    for k in 0...60 { #expect(points[k] == Double(k) / 60) }
    let force = try SweepAxis.range("0:3:1/60")
    #expect(force.count == 181)
    #expect(force[180] == 3.0)
    #expect(force[181 - 1] == 180.0 / 60)
  }

  @Test func decimalStepsDoNotDrift() throws {
    // Repeated addition gives 0.30000000000000004; k·step from integers gives the double nearest 0.3.
    #expect(try SweepAxis.range("0.1:0.3:0.1") == [0.1, 0.2, 0.3])
    #expect(try SweepAxis.range("0:1:0.05")[7] == 0.35)
    #expect(try SweepAxis.range("0.05:1:0.05").count == 20)
    #expect(try SweepAxis.range("-0.5:0.5:0.25") == [-0.5, -0.25, 0, 0.25, 0.5])
    #expect(try SweepAxis.range("1e-3:3e-3:1e-3") == [0.001, 0.002, 0.003])
    #expect(try SweepAxis.range("0:1/3:1/9") == [0, 1.0 / 9, 2.0 / 9, 1.0 / 3])
  }

  @Test func stopIsIncludedOnlyOnTheGrid() throws {
    #expect(try SweepAxis.range("0:1:0.3") == [0, 0.3, 0.6, 0.9])
    #expect(try SweepAxis.range("2:2:1") == [2])
    #expect(try SweepAxis.range("0:0.99:0.33") == [0, 0.33, 0.66, 0.99])
  }

  @Test(arguments: ["0:1:0", "0:1:-0.1", "1:0:0.1", "0:1", "a:1:0.1", "0:1:1/0", "0:1000000:1", "0::1"])
  func badRangesAreRejected(spec: String) {
    #expect(throws: SweepPlanError.self) { try SweepAxis.range(spec) }
  }

  @Test func listsKeepValuesOnceInOrder() throws {
    let axis = try SweepAxis(parsing: "threshold = 0.5, 1/2, 0.25,nan,NaN,inf,true")
    #expect(axis.parameter == "threshold")
    #expect(axis.values.map(\.description) == ["0.5", "0.25", "nan", "inf", "true"])
    #expect(throws: SweepPlanError.self) { try SweepAxis(parsing: "threshold") }
    #expect(throws: SweepPlanError.self) { try SweepAxis(parsing: "threshold=0.5,,1") }
    #expect(throws: SweepPlanError.self) { try SweepAxis(parsing: "threshold=0.5,1x") }
    #expect(throws: SweepPlanError.self) { try SweepAxis(parsing: "=0.5") }
  }

  @Test func rationalsParseAndCompareExactly() throws {
    #expect(ExactRational("0.050")?.description == "1/20")
    #expect(ExactRational("-2.5e-1")?.description == "-1/4")
    #expect(ExactRational("1.5/3")?.description == "1/2")
    #expect(ExactRational("12e2")?.description == "1200")
    #expect(
      ExactRational("1..2") == nil && ExactRational("") == nil && ExactRational("1/0") == nil
        && ExactRational("e5") == nil)
    let third = try #require(ExactRational("1/3"))
    let close = try #require(ExactRational("0.3333333333333333"))
    #expect(close < third && !(third < close))
    #expect(ExactRational(numerator: 1, denominator: 3)?.nearestDouble == 1.0 / 3)
    #expect(ExactRational(numerator: 1 << 60, denominator: 3)?.nearestDouble == nil)
  }
}
