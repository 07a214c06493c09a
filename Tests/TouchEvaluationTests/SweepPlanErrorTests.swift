import Testing
import TouchEvaluation

/// The typed sweep-plan errors print the messages the string errors printed (the CLI shows them).
@Suite("Sweep plan error messages")
struct SweepPlanErrorTests {
  static let axes: [(argument: String, message: String)] = [
    ("threshold", "--vary expects NAME=START:STOP:STEP or NAME=V1,V2,..., got 'threshold'"),
    ("threshold=", "--vary threshold: no values given"),
    ("threshold=0.5,,1", "--vary threshold: empty value in '0.5,,1'"),
    ("threshold=0:1", "--vary threshold: a range is START:STOP:STEP, got '0:1'"),
    ("threshold=0:x:1", "--vary threshold: 'x' is not a decimal number or fraction (such as 0.05 or 1/60)"),
    ("threshold=0:1:0", "--vary threshold: the step must be positive, got 0"),
    ("threshold=1:0:0.1", "--vary threshold: STOP (0) is below START (1)"),
    ("threshold=0:1:1/1000000", "--vary threshold: '0:1:1/1000000' has more than 100000 points"),
    ("threshold=0.5,1x", "--vary threshold: '1x' is not a number, a fraction or a word such as true"),
  ]

  @Test(arguments: axes)
  func axisMessages(_ example: (argument: String, message: String)) {
    #expect(throws: SweepPlanError.self) { try SweepAxis(parsing: example.argument) }
    do throws(SweepPlanError) {
      _ = try SweepAxis(parsing: example.argument)
    } catch {
      #expect(error.description == example.message)
    }
  }

  /// The shortest text of 1/60 as a double has 17 significant digits, as reports write values
  /// and `--set` accepts: a list value reads it to the same double (issue 31).
  @Test func seventeenDigitListValuesReadAsTheDoubleTheyWrite() throws {
    let axis = try SweepAxis(parsing: "threshold=0.016666666666666666,0.5")
    #expect(axis.values == [.number(1.0 / 60), .number(0.5)])
    #expect(try SweepAxis(parsing: "threshold=1/60").values == [.number(1.0 / 60)])
  }

  @Test func planMessages() {
    #expect(SweepPlanError.noRecognizer.description == "--recognizer: no recognizer given")
    #expect(
      SweepPlanError.unknownAxis(parameter: "x", recognizers: ["a", "b+c"]).description
        == "--vary x: none of a, b+c has this parameter")
    #expect(SweepPlanError.variedAndSet(parameter: "x").description == "x is both varied (--vary) and set (--set)")
    #expect(
      SweepPlanError.wordForNumber(parameter: "x", recognizer: "a", value: .word("yes")).description
        == "--vary x: a's x is a number, got 'yes'")
    #expect(
      SweepPlanError.noValidConfiguration(recognizer: "a", firstError: nil).description
        == "a: no valid configuration (empty grid)")
    #expect(SweepPlanError.malformedSetting("x").description == "--set expects NAME=VALUE, got 'x'")
  }

  @Test func truthMessages() {
    #expect(
      TruthError.unpairedPopReferences(count: 1).description
        == "intent pop needs press_at as (peek, pop) pairs; found 1 time")
    #expect(
      TruthError.unpairedPopReferences(count: 3).description
        == "intent pop needs press_at as (peek, pop) pairs; found 3 times")
    #expect(TruthError.noIntent.description == "no intent label")
  }
}
