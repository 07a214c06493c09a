import Testing
import TouchCore
import TouchRecognizers

@testable import TouchExport

@Suite("Export configurations")
struct ExportConfigurationTests {
  @Test("the supported recognizers are read with their values, a causal filter in front included")
  func reads() throws {
    let catalog = RecognizerCatalog.builtIn
    let stable = try ExportConfiguration(
      catalog.recognizer("stable-press", settings: [("pressThreshold", "0.3"), ("rearm", "false")]))
    #expect(
      stable.core
        == .stablePress(
          pressThreshold: 0.3, releaseThreshold: 0.3, dwellTime: 0.03, tapTimeout: 0.1, movementLimit: 10, rearm: false)
    )
    #expect(stable.filter == nil)
    let filtered = try ExportConfiguration(
      catalog.recognizer("one-euro/peek-pop", settings: [("one-euro.beta", "0.5")]))
    #expect(filtered.core == .peekPop(peekThreshold: 0.2, popThreshold: 0.75))
    #expect(filtered.filter == .oneEuro(minCutoff: 1, beta: 0.5, derivativeCutoff: 1))
    #expect(filtered.recognizerName == "one-euro/peek-pop")
    #expect(
      filtered.parameters.map(\.name) == [
        "one-euro.mincutoff", "one-euro.beta", "one-euro.dcutoff", "peekThreshold", "popThreshold",
      ])
    let window = try ExportConfiguration(catalog.recognizer("movmean/hysteresis", settings: [("movmean.window", "5")]))
    #expect(window.filter == .movingMean(window: 5))
    #expect(try ExportConfiguration(catalog.recognizer("deep-press")).core == .deepPress(threshold: 0.75))
  }

  @Test("recognizers without an exported core are refused, naming the supported ones")
  func refuses() throws {
    let catalog = RecognizerCatalog.builtIn
    for name in ["tap", "shunkit", "long-press", "pressure-js", "zones"] {
      #expect(throws: ExportError.unsupported(name, supported: ExportConfiguration.supported)) {
        try ExportConfiguration(catalog.recognizer(name))
      }
    }
    let composition = try catalog.recognizer("tap").requiringFailure(
      of: catalog.recognizer("deep-press"), catalog: catalog)
    #expect(throws: ExportError.self) { try ExportConfiguration(composition) }
    let message = ExportError.unsupported("tap", supported: ExportConfiguration.supported).description
    #expect(message.contains("deep-press, hysteresis, stable-press, peek-pop"))
  }

  @Test("type names must be identifiers in Swift, Kotlin and TypeScript")
  func typeNames() throws {
    let deep = try RecognizerCatalog.builtIn.recognizer("deep-press")
    #expect(try ExportConfiguration(deep, typeName: "PressCore2").typeName == "PressCore2")
    for bad in ["", "2Core", "Press-Core", "Préssion", "Press Core", String(repeating: "a", count: 65)] {
      #expect(throws: ExportError.invalidTypeName(bad)) { try ExportConfiguration(deep, typeName: bad) }
    }
  }

  @Test("constants are written as the shortest decimal that reads back, or the language's name")
  func literals() {
    #expect(ExportText.double(0.45, nan: "NaN", infinity: "Infinity") == "0.45")
    #expect(ExportText.double(10, nan: "NaN", infinity: "Infinity") == "10.0")
    #expect(ExportText.double(1e-05, nan: "NaN", infinity: "Infinity") == "1e-05")
    #expect(ExportText.double(.nan, nan: "Double.NaN", infinity: "Infinity") == "Double.NaN")
    #expect(ExportText.double(-.infinity, nan: "NaN", infinity: "Infinity") == "-Infinity")
    #expect(Double(ExportText.double(0.1 + 0.2, nan: "", infinity: "")) == 0.1 + 0.2)
  }
}

@Suite("Conformance vectors")
struct ConformanceVectorsTests {
  @Test("a hand-replayed contact: deep-press at 0.5 begins at 0.1 s and ends at 0.2 s")
  func handReplayed() throws {
    // Normalized forces 0.2, 0.6, 0.3, 0.3 (maximum 1): began at the second sample (0.6 >= 0.5),
    // ended with a release at the third (0.3 < 0.5); the lift finds the gesture over.
    let trace = Trace(
      metadata: TraceMetadata(id: "hand", maxForce: 1), t: [0, 0.1, 0.2, 0.3], force: [0.2, 0.6, 0.3, 0.3])
    let recognizer = try RecognizerCatalog.builtIn.recognizer("deep-press", settings: [("threshold", "0.5")])
    let text = try ConformanceVectors.text([trace], recognizer: recognizer)
    let one = "3ff0000000000000"
    let zero = "0000000000000000"
    #expect(
      text == """
        touchtrace-vectors 1 deep-press
        contact hand
        s began \(zero) 3fc999999999999a \(one) \(zero) \(zero)
        s moved 3fb999999999999a 3fe3333333333333 \(one) \(zero) \(zero)
        s moved 3fc999999999999a 3fd3333333333333 \(one) \(zero) \(zero)
        s ended 3fd3333333333333 3fd3333333333333 \(one) \(zero) \(zero)
        a action 3fb999999999999a
        a release 3fc999999999999a
        e began 3fb999999999999a 0
        e ended 3fc999999999999a 0
        end

        """)
  }

  @Test("a cancelled contact ends with a cancelled sample; one sample is a single line; empty traces are left out")
  func phases() throws {
    let cancelled = Trace(
      metadata: TraceMetadata(id: "c", maxForce: 1), t: [0, 0.5], force: [0.1, 0.1], phase: [.began, .cancelled],
      x: [1, 2], y: [3, 4])
    let single = Trace(metadata: TraceMetadata(id: "s", maxForce: 1), t: [2], force: [0.9])
    let empty = Trace(metadata: TraceMetadata(id: "e", maxForce: 1), t: [], force: [])
    let recognizer = try RecognizerCatalog.builtIn.recognizer("peek-pop")
    let lines = try ConformanceVectors.text([cancelled, empty, single], recognizer: recognizer).split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("contact") } == ["contact c", "contact s"])
    #expect(
      lines.contains("s cancelled 3fe0000000000000 3fb999999999999a 3ff0000000000000 4000000000000000 4010000000000000")
    )
    #expect(
      lines.contains("s ended 4000000000000000 3feccccccccccccd 3ff0000000000000 0000000000000000 0000000000000000"))
    // The one-sample contact peeks and pops at touch-down (0.9 >= 0.2 and >= 0.75).
    #expect(lines.contains("a stage2 4000000000000000"))
  }
}

@Suite("Random contacts")
struct RandomContactsTests {
  @Test("the same seed gives the same contacts; they reach the corners the cores must handle")
  func seeded() {
    let a = RandomContacts.make(count: 400, seed: 9)
    let b = RandomContacts.make(count: 400, seed: 9)
    #expect(a.map(\.force) == b.map(\.force) && a.map(\.t) == b.map(\.t) && a.map(\.x) == b.map(\.x))
    #expect(RandomContacts.make(count: 5, seed: 10).map(\.force) != a.prefix(5).map(\.force))
    #expect(a.contains { $0.count == 1 })
    #expect(a.contains { $0.phase.last == .cancelled })
    #expect(a.contains { trace in zip(trace.force, trace.force.dropFirst()).contains { $0 == $1 } })
    #expect(a.contains { trace in zip(trace.t, trace.t.dropFirst()).contains { $0 == $1 } })
    #expect(a.contains { trace in trace.force.contains(0) })
    #expect(a.contains { trace in trace.force.contains { $0 > trace.metadata.maxForce! } })
    #expect(a.contains { trace in Set(trace.x ?? []).count > 1 })
    #expect(a.allSatisfy { trace in zip(trace.t, trace.t.dropFirst()).allSatisfy { $0 <= $1 } })
  }
}

@Suite("Export text")
struct ExportTextTests {
  @Test("long provenance lines wrap at spaces, later lines indented; short and unbreakable ones stay")
  func wraps() {
    #expect(ExportText.wrap("short line", width: 20) == ["short line"])
    #expect(ExportText.wrap("aaa bbb ccc ddd eee", width: 8) == ["aaa bbb", "  ccc", "  ddd", "  eee"])
    #expect(
      ExportText.wrap("  x sha256-0123456789abcdef y", width: 10) == ["  x", "    sha256-0123456789abcdef", "    y"])
  }
}
