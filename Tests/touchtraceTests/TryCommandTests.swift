import ArgumentParser
import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `touchtrace try`'s options are checked before it serves: a bad one is exit 64.
@Suite("touchtrace try: options")
struct TryOptionTests {
  @Test(arguments: [
    [String](),
    ["--recognizer", "deep-press", "--recognizer", "stable-press", "--set", "threshold=0.3"],
    ["--recognizer", "no-such-recognizer"],
    ["--recognizer", "deep-press", "--set", "nosuch=1"],
    ["--recognizer", "deep-press", "--host", "0.0.0.0"],
    ["--recognizer", "deep-press", "--configuration", "/nonexistent/tuned.json"],
    Array(repeating: ["--recognizer", "deep-press"], count: 9).flatMap { $0 },
  ])
  func badOptionsAreUsageErrors(_ arguments: [String]) {
    #expect(runCommand(["try"] + arguments + ["--port", "0", "--quiet"]) == 64, "\(arguments)")
  }

  @Test("a tuned configuration is read as NAME:PARAM=VALUE,... (numbers in their shortest form)")
  func tunedConfigurationText() throws {
    try inTemporaryDirectory { directory in
      let file = directory + "/tuned.json"
      try """
      {"format": "touchtrace-configuration", "version": 1, "recognizer": "hysteresis",
       "params": {"pressThreshold": 0.55, "releaseThreshold": 0.25, "strictPress": true}}
      """.write(toFile: file, atomically: true, encoding: .utf8)
      let text = try TouchTraceCommand.Try.configurationText(file)
      #expect(text == "hysteresis:pressThreshold=0.55,releaseThreshold=0.25,strictPress=true")
      #expect(
        TouchTraceCommand.Try.label(text) == "hysteresis pressThreshold=0.55, releaseThreshold=0.25, strictPress=true")
      try #"{"format": "touchtrace-run", "recognizer": "x"}"#.write(toFile: file, atomically: true, encoding: .utf8)
      #expect(throws: ValidationError.self) { try TouchTraceCommand.Try.configurationText(file) }
    }
  }
}

/// `touchtrace try` as users run it (the release build): its help examples serve and end on a
/// signal; a contact sent as the page sends it is replayed with the actions `touchtrace run` gives
/// on the trace it saves, to the bit; SIGINT and SIGTERM end it promptly with exit 0 on a busy
/// machine.
@Suite(
  "touchtrace try (release build)", .serialized,
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: releaseBinary),
    "skipped: no release executable (swift build -c release --product touchtrace)"))
struct TryCommandTests {
  static func start(_ arguments: [String], in directory: String) throws -> CaptureProcess {
    try CaptureProcess.start(releaseBinary, ["try"] + arguments, in: directory)
  }

  /// The port of a URL `http://HOST:PORT/…`.
  static func port(_ url: String) -> UInt16 {
    UInt16(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
  }

  @Test func examplesServeAndEndCleanly() async throws {
    let examples = HelpExamplesTests.examples("try").commands.map { $0.split(separator: " ").map(String.init) }
    #expect(examples.count == 3)
    #expect(examples.filter { Array($0.prefix(2)) == ["touchtrace", "try"] }.count == 2)
    // Each runs in order in one directory (the tune example writes the configuration the last
    // one reads), as the release executable.
    let outcome = try await CaptureSignalTests.offPool {
      try inTemporaryDirectory { directory -> [(url: String, status: Int32, errors: String)] in
        try FileManager.default.createSymbolicLink(
          atPath: directory + "/samples", withDestinationPath: TestData.repositoryRoot + "/samples")
        var runs: [(String, Int32, String)] = []
        for example in examples {
          if example[1] != "try" {
            let child = try runChild(releaseBinary, Array(example.dropFirst()) + ["--quiet"], in: directory)
            #expect(child.code == 0, "\(example): \(child.errors)")
            continue
          }
          // A free port instead of 8080.
          let running = try Self.start(Array(example.dropFirst(2)) + ["--port", "0"], in: directory)
          let stopped = CaptureSignalTests.stop(running, with: SIGTERM)
          runs.append((running.url, stopped.status, stopped.errors))
        }
        #expect(FileManager.default.fileExists(atPath: directory + "/tried"))
        return runs
      }
    }
    #expect(outcome.count == 2)
    for run in outcome {
      #expect(run.url.hasPrefix("http://127.0.0.1:") && run.url.hasSuffix("/"))
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.errors.contains("2 configurations; Ctrl-C ends the run"), "\(run.errors)")
    }
    #expect(outcome.last?.errors.contains("try: 0 contacts replayed, 0 saved in tried/") == true)
  }

  /// One Pointer Events upload as the page sends it: a pen press whose float32 pressure rises to
  /// 0.9 and falls, 61 events 16.7 ms apart; `through` events (all, with the pointerup, when nil).
  static func upload(through count: Int? = nil) -> [UInt8] {
    var events: [String] = []
    let n = 60
    for k in 0...n {
      let type = k == 0 ? "pointerdown" : k == n ? "pointerup" : "pointermove"
      let pressure = k == n ? 0 : Double(Float(0.9 * sin(Double.pi * Double(k) / Double(n))))
      let ms = 5123.4 + Double(k) * 16.7
      events.append(
        #"{"type":"\#(type)","timeStamp":\#(ms),"pressure":\#(pressure),"touchForce":null,"tiltX":0,"tiltY":0,"#
          + #""width":1,"height":1,"x":\#(200 + k / 10),"y":300,"pointerType":"pen"}"#)
    }
    let sent = events.prefix(count ?? events.count)
    return Array(
      (#"{"prompt":0,"intent":"press","participant":"ana","device":{"userAgent":"Test/1","screen":"800x600@1","pointerType":"pen"},"#
        + #""events":[\#(sent.joined(separator: ","))]}"#).utf8)
  }

  /// The secret the page holds (`const SECRET = "…"`), which every POST carries.
  static func secret(inPage page: String) -> String? {
    guard let start = page.range(of: "const SECRET = \"") else { return nil }
    return String(page[start.upperBound...].prefix { $0 != "\"" })
  }

  /// The actions (`t`, `kind`) of a `touchtrace run`/`try` result object.
  static func actions(_ result: [String: Any]?) -> [[String: AnyHashable]] {
    ((result?["actions"] as? [[String: Any]]) ?? []).map { action in
      var kept: [String: AnyHashable] = [:]
      for (key, value) in action { if let value = value as? AnyHashable { kept[key] = value } }
      return kept
    }
  }

  @Test(
    "the page's final marks are the replay of the saved trace, to the bit; a prefix's are those before its newest sample"
  )
  func replayMatchesRunOnTheSavedTrace() async throws {
    let configurations = [("deep-press", "0.35"), ("stable-press", nil)]
    try await CaptureSignalTests.offPool {
      try inTemporaryDirectory { directory in
        let running = try Self.start(
          [
            "--recognizer", "deep-press:threshold=0.35", "--recognizer", "stable-press", "--dataset", "tried",
            "--participant", "ana",
            "--device", "test-pen", "--port", "0", "--quiet",
          ],
          in: directory)
        defer { _ = CaptureSignalTests.stop(running, with: SIGINT) }
        let port = Self.port(running.url)
        let page = try #require(RawHTTP.send(port: port, "GET", "/"))
        #expect(page.status == 200)
        let secret = try #require(Self.secret(inPage: page.body))
        let header = [("X-Capture-Secret", secret), ("Origin", "http://127.0.0.1:\(port)")]

        func post(_ path: String, _ body: [UInt8]) throws -> [String: Any] {
          let response = try #require(RawHTTP.send(port: port, "POST", path, body: body, headers: header))
          #expect(response.status == 200, "\(path): \(response.body)")
          return try #require(try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any])
        }

        let whole = try post("/replay", Self.upload())
        #expect(whole["complete"] as? Bool == true)
        let finals = try #require(whole["results"] as? [[String: Any]])
        #expect(finals.count == 2)
        #expect(finals.allSatisfy { !Self.actions($0).isEmpty }, "both configurations act on a firm press")

        // Prefixes as the page sends them while the pen is down.
        for count in [5, 20, 31, 45, 60] {
          let prefix = try post("/replay", Self.upload(through: count))
          #expect(prefix["complete"] as? Bool == false)
          let until = try #require(prefix["until"] as? Double)
          let times = try #require(whole["t"] as? [Double])
          #expect(until == times[count - 1])
          let shown = try #require(prefix["results"] as? [[String: Any]])
          for k in finals.indices {
            let expected = Self.actions(finals[k]).filter { (($0["t"] as? Double) ?? .infinity) < until }
            #expect(Self.actions(shown[k]) == expected, "configuration \(k), \(count) events")
          }
        }

        let saved = try post("/save", Self.upload())
        let file = try #require(saved["file"] as? String)
        #expect(saved["intent"] as? String == "press")
        for (k, (name, threshold)) in configurations.enumerated() {
          var arguments = ["run", file, "--recognizer", name, "--format", "json", "--output", "-", "--quiet"]
          if let threshold { arguments += ["--set", "threshold=" + threshold] }
          let run = try runChild(releaseBinary, arguments, in: directory)
          #expect(run.code == 0, "\(run.errors)")
          let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
          let result = (document["results"] as? [[String: Any]])?.first
          #expect(Self.actions(result) == Self.actions(finals[k]), "\(name)")
          #expect(result?["final_state"] as? String == finals[k]["final_state"] as? String)
        }
      }
    }
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func endsPromptlyOnABusyMachine(signal: Int32) async throws {
    let outcome = try await CaptureSignalTests.offPool {
      try CaptureSignalTests.whileBusy {
        try inTemporaryDirectory { directory -> (url: String, seconds: Double, status: Int32, errors: String) in
          let running = try Self.start(
            ["--recognizer", "deep-press", "--dataset", "tried", "--port", "0"], in: directory)
          // A request half sent: the run still ends.
          let fd = try #require(RawHTTP.connect(port: Self.port(running.url), timeout: 5))
          defer { close(fd) }
          _ = RawHTTP.writeAll(
            fd, Array("POST /replay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"events\":[".utf8))
          usleep(200_000)
          let stopped = CaptureSignalTests.stop(running, with: signal)
          return (running.url, stopped.seconds, stopped.status, stopped.errors)
        }
      }
    }
    #expect(outcome.url.hasPrefix("http://127.0.0.1:"))
    #expect(outcome.status == 0, "\(outcome.errors)")
    #expect(outcome.seconds < CaptureSignalTests.promptly, "took \(outcome.seconds) s")
    #expect(outcome.errors.contains("try: 0 contacts replayed, 0 saved in tried"), "\(outcome.errors)")
  }
}
