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

  /// Bytes per contact a shard may keep: it encodes each trace into a temporary file as it reads
  /// it; this test measured 24 (debug build, 2026-12-03; 1,385 before, every trace's metadata,
  /// origin and truth kept as values for the partial).
  static let shardBound = 320.0

  /// Bytes per contact `merge` may keep: it still holds every partial's traces' metadata and
  /// truths (a kept trace is 232 bytes inline, its strings apart) while it orders them into the
  /// merged traces (a trace without samples, its origin and truth: 264 bytes). This test
  /// measured 457 (debug build, 2026-12-03; 741 and 867 before the partial's bytes were read
  /// without a copy, its traces reserved whole and the verdict paired the outcome columns as
  /// they are; 1,186 in the release build before that, which sorted copies of the traces). The
  /// bound leaves room for a spread of about 130 between runs, not for another copy of the
  /// merged traces.
  static let mergeBound = 700.0

  /// The peak resident memory `--verbose` states, in bytes.
  static func peak(sweeping path: String) throws -> Double {
    try peak([
      "sweep", path, "--recognizer", "deep-press", "--threads", "1", "--batch-traces", "1000", "--verbose",
      "--format", "json", "--output", path + ".json",
    ])
  }

  /// The peak resident memory `--verbose` states for `touchtrace ARGUMENTS`, in bytes.
  static func peak(_ arguments: [String]) throws -> Double {
    let run = try runChild(debugTouchtrace, arguments)
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

  /// One shard of all the contacts (`--shard 0/1`), then the merge of its partial.
  @Test(.debugTouchtraceIsBuilt)
  func shardAndMergeMemoryPerContactAreBounded() throws {
    try inTemporaryDirectory { directory in
      var shard: [Double] = []
      var merge: [Double] = []
      for count in [100_000, 200_000] {
        let path = "\(directory)/\(count).jsonl"
        try Self.write(count, to: path)
        shard.append(
          try Self.peak([
            "sweep", path, "--recognizer", "deep-press", "--threads", "1", "--batch-traces", "1000", "--verbose",
            "--shard", "0/1", "--partial", path + ".partial",
          ]))
        merge.append(
          try Self.peak([
            "merge", path + ".partial", "--threads", "1", "--verbose", "--format", "json", "--output", path + ".json",
          ]))
      }
      let perShardContact = (shard[1] - shard[0]) / 100_000
      let perMergedContact = (merge[1] - merge[0]) / 100_000
      print(
        "shard memory per contact: \(Int(perShardContact)) bytes; merge: \(Int(perMergedContact)) bytes"
      )
      #expect(perShardContact < Self.shardBound, "\(Int(perShardContact)) bytes per contact in a shard")
      #expect(perMergedContact > 0)
      #expect(perMergedContact < Self.mergeBound, "\(Int(perMergedContact)) bytes per contact in merge")
    }
  }
}
