import Testing
import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchSynth

/// One committed sample file and the `touchtrace synth` arguments that made it.
struct SampleFile: CustomTestStringConvertible, Sendable {
  /// Every sample file has the same users, drawn from the same seed.
  static let users = 6
  static let seed: UInt64 = 8

  var file: String
  var profile: String
  var count: Int

  var command: String {
    "touchtrace synth --profile \(profile) --count \(count) --users \(Self.users) --seed \(Self.seed)"
      + " --output samples/\(file)"
  }
  var testDescription: String { file }
}

/// samples/README.md lists the same commands (checked below).
let sampleFiles: [SampleFile] = [
  .init(file: "synth-iphone6s.csv", profile: "iphone6s", count: 175),
  .init(file: "synth-android.csv", profile: "android", count: 84),
  .init(file: "synth-touchpad.csv", profile: "touchpad", count: 84),
]

@Suite struct SamplesTests {
  static let directory = SharedData.repositoryRoot + "/samples"

  @Test(arguments: sampleFiles)
  func committedSamplesRegenerateByteForByte(_ sample: SampleFile) throws {
    // The same calls the synth command makes (default mix, CSV by the file extension).
    let profile = try #require(DeviceProfile.named(sample.profile))
    let synthesizer = Synthesizer(profile: profile, seed: SampleFile.seed, userCount: SampleFile.users)
    let traces = synthesizer.generate(count: sample.count)
    let regenerated = TraceWriter.encode(traces, as: TraceFiles.Format(path: sample.file))
    let committed = try TraceFiles.read(Self.directory + "/" + sample.file)
    #expect(regenerated.count == committed.count)
    #expect(regenerated == committed, "samples/\(sample.file) differs from `\(sample.command)`")
  }

  @Test func readmeGivesTheCommands() throws {
    let readme = String(decoding: try TraceFiles.read(Self.directory + "/README.md"), as: UTF8.self)
    for sample in sampleFiles {
      #expect(readme.contains(sample.command), "README lacks `\(sample.command)`")
    }
  }

  @Test func samplesLoadCleanly() throws {
    let dataset = try TraceLoader.load([Self.directory])
    #expect(dataset.diagnostics.isEmpty)
    #expect(dataset.skipped.isEmpty)
    #expect(dataset.traces.count == sampleFiles.map(\.count).reduce(0, +))
    #expect(Set(dataset.traces.compactMap(\.metadata.intent)) == Set(Intent.allCases))
    // Small enough to sweep every recognizer variant over in seconds.
    let bytes = try sampleFiles.map { try TraceFiles.read(Self.directory + "/" + $0.file).count }.reduce(0, +)
    #expect(bytes < 2_000_000)
  }
}
