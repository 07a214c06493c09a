import Testing

@testable import TouchTraceCLI

/// `--spool-limit` and `--max-input-size` take bytes with an optional binary unit; the values are
/// written out by hand.
@Suite struct ByteCountTests {
  @Test(arguments: [
    ("0", 0), ("12345", 12_345), ("512K", 524_288), ("512k", 524_288), ("3M", 3_145_728), ("2G", 2_147_483_648),
    ("2GiB", 2_147_483_648), ("2gb", 2_147_483_648), ("1T", 1_099_511_627_776), ("100B", 100),
  ])
  func parsesBytesAndBinaryUnits(text: String, bytes: Int) {
    #expect(ByteCount(argument: text)?.bytes == bytes, "\(text)")
  }

  @Test(arguments: ["", "G", "-1", "1.5G", "2X", "2 G", "+3", "9999999999999999999", "8388608T", "٣"])
  func refusesAnythingElse(text: String) {
    #expect(ByteCount(argument: text) == nil, "\(text)")
  }

  /// Help, `--print-config` and the recorded configuration give the count in digits.
  @Test func isWrittenInBytes() {
    #expect(ByteCount(argument: "4G")?.description == "4294967296")
    #expect(ByteCount(4_294_967_296).defaultValueDescription == "4294967296")
  }

  /// Through the command line: a unit is taken, a bad value is a usage error.
  @Test func theOptionsTakeUnits() {
    #expect(runCommand(["sweep", "--help"]) == 0)
    #expect(runCommand(["inspect", "samples-that-do-not-exist", "--max-input-size", "1.5G"]) == 64)
    #expect(runCommand(["sweep", "x", "--recognizer", "deep-press", "--spool-limit", "2X"]) == 64)
  }
}
