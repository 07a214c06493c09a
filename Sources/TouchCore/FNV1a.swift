/// FNV-1a (Fowler–Noll–Vo, 64 bit): a hash of bytes that is the same on every platform, Swift
/// version and run, unlike `Hasher`, which is seeded per process. Start at 0xcbf29ce484222325;
/// for each byte, xor it in and multiply by 0x100000001b3 (wrapping).
///
/// The one implementation in the project: the synthesizer's streams, the capture page's default
/// seed, the shard assignment, new output files' identities and the regression gate's content
/// hash use it. Not for cryptography.
///
/// ```swift
/// FNV1a.hash("a".utf8) == 0xaf63dc4c8601ec8c
/// var running = FNV1a()
/// running.add(contentsOf: "a".utf8)
/// running.value == 0xaf63dc4c8601ec8c
/// ```
public struct FNV1a: Sendable {
  /// The hash of the bytes added so far (the offset basis before any).
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  /// A hash of no bytes yet.
  public init() {}

  /// Adds one byte.
  public mutating func add(_ byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
  }

  /// Adds `bytes` in order.
  public mutating func add<Bytes: Sequence<UInt8>>(contentsOf bytes: Bytes) {
    for byte in bytes { add(byte) }
  }

  /// The hash of `bytes`.
  public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    var running = FNV1a()
    running.add(contentsOf: bytes)
    return running.value
  }
}
