import Foundation
import Testing
import TouchTestSupport

/// What `sweep` keeps per contact (issue 34), measured from outside: the executable's peak
/// resident memory, which `--verbose` states last, over 100 000 and 200 000 tiny contacts (4
/// samples each, batches of 1 000, one thread). The difference divided by the 100 000 extra
/// contacts is what memory grows by per contact, whatever the process needs at any size (both
/// files are several times the reader's 4 MiB chunk, whose traces are parsed at once: between
/// 50 000 and 100 000 contacts the chunk's own growth adds about 500 bytes a contact).
@Suite struct MemoryPerContactTests {
  /// Bytes per contact the test allows: this test measured 153 bytes (debug and release builds,
  /// 2026-12-02; 1,375–1,486 between 50 000 and 100 000 contacts before the sweep kept only its
  /// traces' summary). A peak varies by about 5 MiB from run to run (50 bytes a contact here);
  /// the bound leaves room for that, not for a trace's metadata (about 200 bytes) kept again.
  static let bound = 320.0

  /// `count` contacts of 4 samples, half presses, as JSON Lines.
  static func write(_ count: Int, to path: String) throws {
    var text = ""
    for k in 0..<count {
      let press = k % 2 == 0
      text +=
        "{\"id\":\"c\(k)\",\"max_force\":6.6666,\"intent\":\"\(press ? "press" : "none")\",\"t\":[0,0.02,0.04,0.06],\"force\":[0,\(press ? "4,5" : "0.5,0.6"),0]}\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// The peak resident memory `--verbose` states, in bytes.
  static func peak(sweeping path: String) throws -> Double {
    let run = try runChild(
      debugTouchtrace,
      [
        "sweep", path, "--recognizer", "deep-press", "--threads", "1", "--batch-traces", "1000", "--verbose",
        "--format", "json", "--output", path + ".json",
      ])
    #expect(run.code == 0, "\(run.errors)")
    let line = try #require(run.errors.split(separator: "\n").last)
    #expect(line.hasPrefix("note: peak resident memory "))
    let mebibytes = try #require(Double(line.split(separator: " ").dropLast().last ?? ""))
    return mebibytes * 1_048_576
  }

  @Test(.debugTouchtraceIsBuilt)
  func sweepMemoryPerContactIsBounded() throws {
    try inTemporaryDirectory { directory in
      try Self.write(100_000, to: directory + "/small.jsonl")
      try Self.write(200_000, to: directory + "/large.jsonl")
      let small = try Self.peak(sweeping: directory + "/small.jsonl")
      let large = try Self.peak(sweeping: directory + "/large.jsonl")
      let perContact = (large - small) / 100_000
      print(
        "sweep memory per contact: \(Int(perContact)) bytes (peaks \(Int(small / 1_048_576)) and \(Int(large / 1_048_576)) MiB)"
      )
      #expect(perContact > 0)
      #expect(perContact < Self.bound, "\(Int(perContact)) bytes per contact")
    }
  }
}
