import Foundation
import Testing
import TouchCore
import TouchSignal

/// The real iPhone 6s recording in `shared/realdata/algal-3dtouch` (Alexis Gallagher, MIT
/// licence): 2140 `UITouch.force` values, no timestamps. It is used in place, never copied into
/// the repository.
enum RealRecording {
  /// `…/shared/realdata/algal-3dtouch/data-60secondsVariedForce/04317CA4-….json`, looked up in
  /// `shared/` next to the repository root or next to one of its parent directories (a git
  /// worktree may sit one level deeper than the main checkout); `nil` when absent.
  static let file: URL? = {
    let relative = "shared/realdata/algal-3dtouch/data-60secondsVariedForce/04317CA4-3AD0-4776-861E-78040D8BC3E2.json"
    // #filePath is …/<repo>/Tests/TouchSignalTests/RealRecordingTests.swift.
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    for _ in 0..<3 {
      directory = directory.deletingLastPathComponent()
      let candidate = directory.appendingPathComponent(relative)
      if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
    }
    return nil
  }()

  static var isAvailable: Bool { file != nil }

  static func values() throws -> [Double] {
    let url = try #require(file)
    return try JSONDecoder().decode([Double].self, from: Data(contentsOf: url))
  }
}

@Suite(
  "Real iPhone 6s recording",
  .enabled(
    if: RealRecording.isAvailable,
    "shared/realdata/algal-3dtouch not found next to the repository root or its parents: the real-recording checks did not run"
  ))
struct RealRecordingTests {
  @Test func forceIsQuantizedInSixtieths() throws {
    let values = try RealRecording.values()
    #expect(values.count == 2140)
    let step = try #require(QuantizationStep.estimate(values))
    #expect(step.reciprocal == 60)
    #expect(step.text == "1/60")
    #expect(step.fit >= 0.99)
  }

  @Test func forceSaturatesAtTwentyThirds() throws {
    let values = try RealRecording.values()
    let top = try #require(values.max())
    // Printed with 7 significant digits: 6.666667.
    #expect(abs(top - 20.0 / 3) <= 1e-6)
    #expect(values.filter { $0 == top }.count == 103)
    // Each touch begins with an exact 0 (the began sample): 6 touches and 3 lone zeros.
    var starts = values.indices.filter { values[$0] == 0 }
    starts.append(values.count)
    let traces = zip(starts, starts.dropFirst()).enumerated().map { k, bounds in
      let force = Array(values[bounds.0..<bounds.1])
      // No timestamps in the source: a nominal 60 Hz clock (the time is synthesized).
      return Trace(
        metadata: TraceMetadata(id: "touch\(k)", maxForce: 20.0 / 3, timeSynthesized: true),
        t: force.indices.map { Double($0) / 60 }, force: force)
    }
    #expect(traces.map(\.count) == [133, 314, 432, 512, 313, 433, 1, 1, 1])
    let features = try FeatureExtraction.standard.features(of: traces)
    let saturated = features.compactMap(\.saturatedSamples)
    #expect(saturated == [12, 20, 10, 29, 11, 21, 0, 0, 0])
    #expect(saturated.reduce(0, +) == 103)
    // Every touch reaches the maximum: normalized peak 1 (to print precision).
    for f in features.prefix(6) { #expect(abs(try #require(f.peakForceNormalized) - 1) <= 1e-6) }
    // Peak counts agree with scipy.signal.find_peaks (prominence 0.2 × the touch's peak), as
    // computed by Scripts/make-fixtures.py.
    struct Peaks: Decodable { var peak_counts: [Int] }
    let reference = try Fixture.load("algal-peaks.json", as: Peaks.self)
    #expect(features.map(\.peakCount) == reference.peak_counts)
  }
}
