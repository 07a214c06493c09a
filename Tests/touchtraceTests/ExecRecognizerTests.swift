import Foundation
import Testing
import TouchTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `exec:COMMAND` recognizers end to end: re-implementations of built-ins in Python and
/// JavaScript (the examples) and one written from the protocol page alone give the built-ins'
/// counts and latencies; compositions and filters take them; every protocol failure stops the run
/// with exit 69, a message naming the command, the trace and the child's standard error, and no
/// report.
@Suite(.serialized) struct ExecRecognizerTests {
  static let root = TestData.repositoryRoot
  static let samples = root + "/samples"
  static let fixtures = root + "/Tests/touchtraceTests/Fixtures/exec"

  /// `touchtrace sweep samples/ ARGS --format json`: the exit code and the results by recognizer,
  /// each a list in configuration order.
  func sweep(_ arguments: [String]) throws -> (code: Int32, results: [[String: Any]]) {
    try inTemporaryDirectory { directory in
      let output = directory + "/sweep.json"
      let code = runCommand(["sweep", Self.samples] + arguments + ["--format", "json", "--output", output])
      guard code == 0 else {
        #expect(!TestData.exists(output), "a failed run writes no report")
        return (code, [])
      }
      let root = try jsonObject(output)
      return (code, try #require(root["results"] as? [[String: Any]]))
    }
  }

  /// The figures that must agree between a built-in and its re-implementation.
  static let compared = [
    "tp", "fp", "tn", "fn", "fp_traces", "actions", "latency", "latency_from_down", "stage2", "confusion",
    "added_latency",
  ]

  /// Checks that `a` and `b` (the two recognizers' results, configuration by configuration) agree.
  func expectSame(_ results: [[String: Any]], _ a: String, _ b: String, fields: [String] = compared) {
    let left = results.filter { ($0["recognizer"] as? String) == a }
    let right = results.filter { ($0["recognizer"] as? String) == b }
    #expect(left.count == right.count && !left.isEmpty, "\(a) vs \(b): \(left.count) and \(right.count) configurations")
    for (x, y) in zip(left, right) {
      for field in fields {
        let same = NSDictionary(dictionary: ["v": x[field] ?? NSNull()]).isEqual(to: ["v": y[field] ?? NSNull()])
        #expect(same, "\(a) vs \(b) at \(x["params"] ?? ""): \(field) \(x[field] ?? "nil") vs \(y[field] ?? "nil")")
      }
    }
    let acted = left.reduce(0) { $0 + (($1["actions"] as? Int) ?? 0) }
    #expect(acted > 0, "a comparison without a single action proves little")
  }

  /// The examples (Python, node) and a recognizer written from the protocol page alone
  /// (peek_pop_from_spec.py: from Documentation.docc/TheExecProtocol.md and the rule text of
  /// `touchtrace recognizers`, without the examples or the code; two stages, declared in its
  /// hello), each against the built-in it re-implements, over a grid.
  @Test(arguments: [
    ("deep-press", "python3 \(root)/Examples/exec/deep_press.py", ["--vary", "threshold=0.1:0.9:0.1"]),
    (
      "hysteresis", "node \(root)/Examples/exec/hysteresis.js",
      ["--vary", "pressThreshold=0.1:0.7:0.2", "--vary", "releaseThreshold=0.05,0.1", "--set", "palmThreshold=0.9"]
    ),
    (
      "peek-pop", "python3 \(fixtures)/peek_pop_from_spec.py",
      ["--vary", "peekThreshold=0.1,0.2,0.3,0.5", "--vary", "popThreshold=0.5,0.75,0.9"]
    ),
  ])
  func aReimplementationEqualsTheBuiltIn(builtIn: String, command: String, grid: [String]) throws {
    let (code, results) = try sweep(["--recognizer", "\(builtIn),exec:\(command)"] + grid)
    #expect(code == 0)
    expectSame(results, builtIn, "exec:\(command)")
  }

  @Test func compositionsAndFiltersTakeExecRecognizers() throws {
    let exec = "exec:python3 \(Self.root)/Examples/exec/deep_press.py"
    let (code, results) = try sweep([
      "--recognizer", "tap+deep-press,tap+\(exec),long-press+deep-press,long-press+\(exec),ema/deep-press,ema/\(exec)",
      "--set", "required.threshold=0.5", "--set", "threshold=0.5", "--set", "ema.alpha=0.4",
    ])
    #expect(code == 0)
    expectSame(results, "tap+deep-press", "tap+\(exec)")
    expectSame(results, "long-press+deep-press", "long-press+\(exec)")
    expectSame(results, "ema/deep-press", "ema/\(exec)")
  }

  @Test(arguments: [
    ("nohello", "its hello answer is not valid JSON"), ("version", "another protocol version"),
    ("exit", "exited with status 3"), ("garbage", "its answer is not valid JSON"),
    ("noactions", "has no \"actions\" array"), ("order", "answered out of order"),
    ("silent", "wrote nothing for 1 s (--exec-timeout)"), ("early", "before the touch-down"),
    ("late", "after the lift-off"), ("stage2", "a stage-2 action"),
  ])
  func protocolFailuresStopTheRun(mode: String, expected: String) throws {
    let command = "python3 \(Self.fixtures)/misbehaving.py \(mode)"
    var code: Int32 = 0
    let message = try captureStandardError {
      code = try sweep([
        "--recognizer", "exec:\(command)", "--set", "threshold=0.5", "--exec-timeout", "1", "--threads", "1",
      ]).code
    }
    #expect(code == 69, "\(mode): \(message)")
    #expect(message.contains(expected), "\(mode): \(message)")
    #expect(message.contains("`\(command)`"), "\(mode): the command is named")
    if !["nohello", "version"].contains(mode) {
      // Requests go in file order, one chunk per thread: the 3rd contact's answer was due.
      #expect(message.contains("on trace 'android-s8-0003'"), "\(mode): the trace is named: \(message)")
    }
    if mode == "exit" {
      #expect(message.contains("misbehaving.py: giving up on purpose"), "the child's stderr is shown")
    }
    if mode == "silent" { #expect(message.contains("misbehaving.py: thinking forever")) }
  }

  @Test func runReportsTheCommandsActions() throws {
    try inTemporaryDirectory { directory in
      /// Runs `recognizer` at threshold 0.5 on the iPhone samples, writing to `output`; expects exit 0.
      func run(_ recognizer: String, to output: String) {
        #expect(
          runCommand([
            "run", Self.samples + "/synth-iphone6s.csv", "--recognizer", recognizer, "--set", "threshold=0.5",
            "--output", output,
          ]) == 0)
      }
      let output = directory + "/run.json"
      run("exec:python3 \(Self.root)/Examples/exec/deep_press.py", to: output)
      let builtIn = directory + "/builtin.json"
      run("deep-press", to: builtIn)
      func actionTimes(_ path: String) throws -> [String] {
        let root = try jsonObject(path)
        let results = try #require(root["results"] as? [[String: Any]])
        return results.map { r in
          let actions = (r["actions"] as? [[String: Any]] ?? []).filter { ($0["kind"] as? String) == "action" }
          return "\(r["trace"] ?? ""):" + actions.map { "\($0["t"] ?? "")" }.joined(separator: ",")
        }
      }
      let mine = try actionTimes(output)
      #expect(mine == (try actionTimes(builtIn)))
      #expect(mine.contains { !$0.hasSuffix(":") }, "some traces act")
    }
  }

  @Test func compareTakesAnExecConfigurationWithItsParametersAfterTwoColons() throws {
    try inTemporaryDirectory { directory in
      let output = directory + "/compare.json"
      let exec = "exec:python3 \(Self.root)/Examples/exec/deep_press.py::threshold=0.5"
      #expect(
        runCommand([
          "compare", Self.samples, "--a", "deep-press:threshold=0.5", "--b", exec, "--format", "json", "--output",
          output,
        ]) == 0)
      let text = try String(contentsOfFile: output, encoding: .utf8)
      #expect(text.contains("deep_press.py::threshold=0.5"), "the report writes the configuration as given")
      let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      let mcnemar = try #require(root["mcnemar"] as? [String: Any])
      #expect(mcnemar["discordant"] as? Int == 0, "the re-implementation decides every trace alike: \(mcnemar)")
      #expect(mcnemar["both_correct"] as? Int ?? 0 > 0)
    }
  }

  @Test func anUnknownCommandIsReportedBeforeAnyData() throws {
    var code: Int32 = 0
    let message = try captureStandardError {
      code = try sweep(["--recognizer", "exec:/nonexistent/recognizer"]).code
    }
    #expect(code == 69)
    #expect(message.contains("exited with status 127") && message.contains("not found"), "\(message)")
  }
}
