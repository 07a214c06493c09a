import ArgumentParser
import Foundation
import Testing
import TouchCore
import TouchIO

@testable import TouchTraceCLI

/// `touchtrace smooth` and `touchtrace features` end to end on small CSV files.
@Suite("smooth and features commands")
struct SignalCommandTests {
  /// A fresh directory with `files` written into it.
  static func directory(_ files: [String: String]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchtrace-signal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, text) in files {
      try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return url
  }

  static let csv = """
    trace,t,force,phase,max_force,intent
    a,0,0,began,8,press
    a,0.1,2,moved,8,press
    a,0.2,4,moved,8,press
    a,0.3,4,ended,8,press
    h,0,0,began,,tap
    h,0.1,1,moved,,tap
    h,0.2,3,moved,,tap
    h,0.3,4,moved,,tap
    h,0.4,4,moved,,tap
    h,0.5,2,moved,,tap
    h,0.6,0,ended,,tap

    """

  static func run(_ arguments: [String]) throws {
    var command = try TouchTraceCommand.parseAsRoot(arguments)
    try command.run()
  }

  @Test func smoothWritesTheSameTracesWithSmoothedForce() throws {
    let dir = try Self.directory(["in.csv": Self.csv])
    defer { try? FileManager.default.removeItem(at: dir) }
    let output = dir.appendingPathComponent("out.csv").path
    try Self.run([
      "smooth", dir.appendingPathComponent("in.csv").path, "--method", "movmean", "--window", "2", "--causal",
      "--ends", "truncate", "--output", output,
    ])
    let dataset = try TraceLoader.load([output])
    #expect(dataset.traces.map(\.name) == ["a", "h"])
    let a = dataset.traces[0]
    // Trailing mean over 2 samples, the first window shrunk to 1: hand-computed.
    #expect(a.force == [0, 1, 3, 4])
    #expect(a.t == [0, 0.1, 0.2, 0.3] && a.phase == [.began, .moved, .moved, .ended])
    #expect(a.metadata.intent == .press && a.metadata.maxForce == 8)
    #expect(dataset.traces[1].force == [0, 0.5, 2, 3.5, 4, 3, 1])
    #expect(dataset.traces[1].metadata.maxForce == nil)
  }

  @Test func smoothedForceIsClampedToTheDeviceRange() throws {
    let saturated = """
      trace,t,force,max_force
      s,0,0,4
      s,0.01,4,4
      s,0.02,4,4
      s,0.03,4,4
      s,0.04,0,4
      s,0.05,0,4
      s,0.06,0,4

      """
    let dir = try Self.directory(["s.csv": saturated])
    defer { try? FileManager.default.removeItem(at: dir) }
    let output = dir.appendingPathComponent("out.csv").path
    try Self.run([
      "smooth", dir.appendingPathComponent("s.csv").path, "--method", "savgol", "--window", "5", "--order", "2",
      "--output", output,
    ])
    let trace = try #require(try TraceLoader.load([output]).traces.first)
    #expect(trace.force.allSatisfy { (0...4).contains($0) })
    #expect(trace.force.contains(4) && trace.force.contains(0))  // clamped overshoot and undershoot
  }

  @Test func usageErrorsExitWith64() throws {
    let dir = try Self.directory(["in.csv": Self.csv])
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("in.csv").path
    let out = dir.appendingPathComponent("o.csv").path
    #expect(runCommand(["smooth", input, "--method", "gaussian", "--window", "5", "--causal", "--output", out]) == 64)
    #expect(runCommand(["smooth", input, "--method", "median", "--output", out]) == 64)
    #expect(
      runCommand(["smooth", input, "--method", "gaussian", "--window", "5", "--window-seconds", "0.1", "--output", out])
        == 64)
    #expect(
      runCommand(["smooth", input, "--method", "gaussian", "--window", "5", "--ends", "truncate", "--output", out])
        == 64)
    #expect(
      runCommand(["smooth", input, "--method", "median", "--window", "5", "--order", "2", "--output", out]) == 64)
    #expect(runCommand(["features", input, "--level", "0.5", "--level-force", "2"]) == 64)
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func aTraceTooShortForTheMethodIsSkippedAndTheRestSmoothed() throws {
    let text = Self.csv + "lone,5,1,began,8,tap\n"
    let dir = try Self.directory(["in.csv": text])
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("in.csv").path
    let out = dir.appendingPathComponent("o.csv").path
    // One sample: no sampling interval to convert 0.05 s with. The trace is too short for the
    // method, not invalid: it is skipped with its reason and the rest is smoothed, with or
    // without --skip-invalid.
    #expect(runCommand(["smooth", input, "--method", "median", "--window-seconds", "0.05", "--output", out]) == 0)
    #expect(try TraceLoader.load([out]).traces.map(\.name) == ["a", "h"])
    #expect(
      runCommand(["smooth", input, "--method", "median", "--window-seconds", "0.05", "--skip-invalid", "--output", out])
        == 0)
    #expect(try TraceLoader.load([out]).traces.map(\.name) == ["a", "h"])
  }

  /// `features` keeps the session and every extra label; `inspect` lists them with their values
  /// (issue 31).
  @Test func featuresAndInspectKeepSessionsAndExtraLabels() throws {
    let traces = """
      trace,t,force,max_force,intent,session,label:gesture,label:kind
      a,0,0,1,press,s1,swipe,fast
      a,0.1,0.5,1,press,s1,swipe,fast
      b,0,0,1,tap,s2,circle,
      b,0.1,0.2,1,tap,s2,circle,

      """
    let dir = try Self.directory(["in.csv": traces])
    defer { try? FileManager.default.removeItem(at: dir) }
    let input = dir.appendingPathComponent("in.csv").path
    let out = dir.appendingPathComponent("f.csv").path
    try Self.run(["features", input, "--format", "csv", "--output", out])
    let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("trace,intent,user,session,device,labels,samples,"))
    #expect(lines[1].hasPrefix("a,press,,s1,,gesture=swipe;kind=fast,2,"))
    #expect(lines[2].hasPrefix("b,tap,,s2,,gesture=circle,2,"))
    let json = dir.appendingPathComponent("f.json").path
    try Self.run(["features", input, "--output", json])
    let root = try jsonObject(json)
    let first = try #require((root["features"] as? [[String: Any]])?.first)
    #expect(first["session"] as? String == "s1")
    #expect(first["labels"] as? [String: String] == ["gesture": "swipe", "kind": "fast"])

    let summary = dir.appendingPathComponent("i.md").path
    try Self.run(["inspect", input, "--format", "md", "--output", summary])
    let markdown = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(markdown.contains("| Sessions | s1 1, s2 1 |"))
    #expect(markdown.contains("| Label gesture | circle 1, swipe 1 |"))
    #expect(markdown.contains("| Label kind | fast 1, (none) 1 |"))
  }

  @Test func featuresCSVIsTidyWithEmptyCellsForMissingValues() throws {
    let dir = try Self.directory(["in.csv": Self.csv])
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("f.csv").path
    try Self.run(["features", dir.appendingPathComponent("in.csv").path, "--format", "csv", "--output", out])
    let lines = try String(contentsOfFile: out, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4 && lines[3].isEmpty)  // header, two rows, final newline
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    #expect(header.first == "trace" && header.contains("fit_status") && header.count == 31)
    func row(_ k: Int) -> [String: String] {
      let cells = lines[k].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      #expect(cells.count == header.count)
      return Dictionary(uniqueKeysWithValues: zip(header, cells))
    }
    let h = row(2)
    // The hand-built 10 Hz trace 0, 1, 3, 4, 4, 2, 0 without a maximum force.
    #expect(h["trace"] == "h" && h["intent"] == "tap" && h["samples"] == "7")
    #expect(h["peak_force"] == "4.0" && h["max_force"] == "" && h["peak_force_normalized"] == "")
    #expect(h["saturated_samples"] == "" && h["peak_count"] == "1" && h["level_force"] == "2.0")
    #expect(Double(h["impulse_force_s"]!).map { abs($0 - 1.4) < 1e-12 } == true)
    #expect(Double(h["time_above_level_s"]!).map { abs($0 - 0.35) < 1e-12 } == true)
    #expect(h["quantization_step"] == "1.0")
    let a = row(1)
    #expect(a["peak_force_normalized"] == "0.5" && a["saturated_samples"] == "0")
    // Four samples are too few for the four-parameter fit: status, no numbers.
    #expect(a["fit_status"] == "too_few_samples" && a["fit_midpoint_s"] == "")
  }

  @Test func featuresJSONAccountsForEveryTrace() throws {
    let text = Self.csv + "bad,0,-1,began,8,tap\n"
    let dir = try Self.directory(["in.csv": text])
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("f.json").path
    try Self.run([
      "features", dir.appendingPathComponent("in.csv").path, "--format", "json", "--skip-invalid", "--output", out,
    ])
    let object = try jsonObject(out)
    #expect(object["format"] as? String == "touchtrace-features" && object["version"] as? Int == 1)
    let traces = try #require(object["traces"] as? [String: Int])
    #expect(traces == ["total": 3, "analyzed": 2, "skipped": 1])
    let skipped = try #require(object["skipped"] as? [[String: Any]])
    #expect(skipped.first?["trace"] as? String == "bad")
    let features = try #require(object["features"] as? [[String: Any]])
    #expect(features.map { $0["trace"] as? String } == ["a", "h"])
    let fit = try #require(features[0]["fit"] as? [String: Any])
    #expect(fit["status"] as? String == "too_few_samples" && fit["converged"] as? Bool == false)
    #expect(fit["midpoint_s"] is NSNull)
    let options = try #require(object["options"] as? [String: Any])
    #expect((options["reference_rule"] as? String)?.hasPrefix("upward crossings of 0.5 of the smoothed peak") == true)
  }
}
