import Testing
import TouchCore

/// FNV-1a and the SplitMix64 finalizer against published reference values: the FNV test vectors
/// of Fowler, Noll and Vo ("" is the offset basis; "a" and "foobar" from their table) and the
/// first output of Vigna's splitmix64.c for state 0.
@Suite struct StableHashTests {
  @Test func fnv1aMatchesThePublishedVectors() {
    #expect(FNV1a.hash("".utf8) == 0xcbf2_9ce4_8422_2325)
    #expect(FNV1a.hash("a".utf8) == 0xaf63_dc4c_8601_ec8c)
    #expect(FNV1a.hash("foobar".utf8) == 0x8594_4171_f739_67e8)
  }

  @Test func addingPieceByPieceEqualsHashingTheWhole() {
    var running = FNV1a()
    running.add(contentsOf: "foo".utf8)
    running.add(UInt8(ascii: "b"))
    running.add(contentsOf: "ar".utf8)
    #expect(running.value == FNV1a.hash("foobar".utf8))
  }

  @Test func theFinalizerIsTheGeneratorsOutputFunction() {
    // splitmix64.c, state 0: the first draw is mix(0 + 0x9E3779B97F4A7C15).
    #expect(SplitMix64.mix(0x9E37_79B9_7F4A_7C15) == 0xE220_A839_7B1D_CDAF)
    var generator = SplitMix64(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
  }
}
