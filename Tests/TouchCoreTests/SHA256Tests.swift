import Testing
import TouchCore

/// SHA-256 against Python's hashlib (an independent implementation, OpenSSL's). The digests
/// below were printed by:
///
///     python3 -c 'import hashlib
///     for n in [0,1,55,56,57,63,64,65,119,120,127,128,1000]:
///         m = bytes((i*7+3)%251 for i in range(n)); print(n, hashlib.sha256(m).hexdigest())
///     for m in [b"abc", b"", b"a"*1000000,
///               b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"]:
///         print(hashlib.sha256(m).hexdigest())'
@Suite("SHA-256")
struct SHA256Tests {
  /// The message of `n` bytes hashed above: byte i is (7i + 3) mod 251.
  static func message(_ n: Int) -> [UInt8] { (0..<n).map { UInt8((7 * $0 + 3) % 251) } }

  static let lengths: [(Int, String)] = [
    (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (1, "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5"),
    (55, "1deace58c745f3ecadde68a5923f494c3703fa73f0306483ccb898a5826e8d70"),
    (56, "06dbe23685750e4d3881ded95047abaf93fa8f9c5d3501dc57c717a72ff1398e"),
    (57, "011f4bced20a249afb834d24b3e4eca31ad5ea2bdd1d8a1a564c2d2410398e69"),
    (63, "47fb38b12335c9298d09280515c0666489a189d1554bb0ac1a0740806ce9d8b6"),
    (64, "dfa798724b1a8014994f363e5da7474ed26ce3757fb29e07aa47ad5a9352d37b"),
    (65, "dd2eab5a5507d7717c63ce953d9ac61752c21e664425ad1227054722a0d97f69"),
    (119, "c6e0f435df5d7d265baacca31e0602c00aa22fa6d3819aed664649294c743756"),
    (120, "17eb8960823a644bde3065620bb9d45931fe8993fd8eb692a17aff0fd725db6a"),
    (127, "2409a159329f4e770a7d8128130497abb1de01ffb6ad389d97d89ebbeeb7f02c"),
    (128, "3a9c1e22e20578eebe442238f431befd688bd56698eb7c77d95d3f97d8f58207"),
    (1000, "a9425c416f534025a4e2422bd14adba4ec3d4a68d10c3329be8df612964d2b6e"),
  ]

  @Test func nistVectors() {
    #expect(SHA256.hash(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256.hash([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hex
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)).hex
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Lengths around the padding's edges (55/56/64 bytes and multiples), at once and fed in
  /// pieces of every size from 1 to 70 bytes.
  @Test func lengthsAroundTheBlockEdgesAtOnceAndInPieces() {
    for (n, hex) in Self.lengths {
      let m = Self.message(n)
      #expect(SHA256.hash(m).hex == hex, "\(n) bytes")
      for piece in 1...70 {
        var h = SHA256()
        for start in stride(from: 0, to: n, by: piece) { h.update(m[start..<Swift.min(n, start + piece)]) }
        #expect(h.finalize().hex == hex, "\(n) bytes in pieces of \(piece)")
      }
    }
  }
}
