/// SHA-256 (FIPS 180-4), fed incrementally: the checksum of partial files and the content hash
/// of every input a partial records. Standard library only; about as fast as a portable
/// implementation gets (no SIMD), which is far faster than the parsing it accompanies.
///
/// ```swift
/// var hash = SHA256()
/// hash.update([0x61, 0x62, 0x63])      // "abc", in as many pieces as wanted
/// hash.finalize().hex                  // "ba7816bf…f20015ad"
/// ```
public struct SHA256: Sendable {
  /// A finished digest: 32 bytes.
  public struct Digest: Sendable, Hashable, CustomStringConvertible {
    /// The digest's bytes, big-endian words as FIPS 180-4 prints them.
    public let bytes: [UInt8]

    /// A digest from its 32 bytes; `nil` for another length.
    public init?(bytes: [UInt8]) {
      guard bytes.count == SHA256.byteCount else { return nil }
      self.bytes = bytes
    }

    /// Lowercase hexadecimal, 64 characters.
    public var hex: String {
      let digits = Array("0123456789abcdef".utf8)
      var text: [UInt8] = []
      text.reserveCapacity(64)
      for b in bytes {
        text.append(digits[Int(b >> 4)])
        text.append(digits[Int(b & 15)])
      }
      return String(decoding: text, as: UTF8.self)
    }

    /// The lowercase hexadecimal digits (``hex``).
    public var description: String { hex }
  }

  /// The length of a digest, bytes.
  public static let byteCount = 32

  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  /// Bytes not yet making a whole 64-byte block.
  private var pending: [UInt8] = []
  private var length: UInt64 = 0

  /// A hash of nothing yet.
  public init() { pending.reserveCapacity(64) }

  /// The digest of `bytes` at once.
  public static func hash<C: Collection>(_ bytes: C) -> Digest where C.Element == UInt8 {
    var h = SHA256()
    h.update(bytes)
    return h.finalize()
  }

  /// Adds `bytes` to what is hashed.
  public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
    if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) {
      return done
    }
    Array(bytes).withUnsafeBytes { update($0) }
  }

  /// Adds the bytes of `buffer` to what is hashed.
  public mutating func update(_ buffer: UnsafeRawBufferPointer) {
    length &+= UInt64(buffer.count)
    var k = 0
    if !pending.isEmpty {
      let take = Swift.min(64 - pending.count, buffer.count)
      pending.append(contentsOf: buffer[0..<take])
      k = take
      guard pending.count == 64 else { return }
      pending.withUnsafeBytes { compress($0.baseAddress!) }
      pending.removeAll(keepingCapacity: true)
    }
    while buffer.count - k >= 64 {
      compress(buffer.baseAddress! + k)
      k += 64
    }
    if k < buffer.count { pending.append(contentsOf: buffer[k...]) }
  }

  /// The digest of everything added (the hash is spent: make a new one to hash again).
  public mutating func finalize() -> Digest {
    let bits = length &* 8
    var tail = pending
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    for k in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k)))) }
    tail.withUnsafeBytes { raw in
      for block in stride(from: 0, to: raw.count, by: 64) { compress(raw.baseAddress! + block) }
    }
    pending = []
    var out: [UInt8] = []
    out.reserveCapacity(32)
    for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
      for k in (0..<4).reversed() { out.append(UInt8(truncatingIfNeeded: word >> (8 * UInt32(k)))) }
    }
    return Digest(bytes: out)!
  }

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  /// One 64-byte block at `p`.
  private mutating func compress(_ p: UnsafeRawPointer) {
    @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      for t in 0..<16 {
        w[t] =
          UInt32(p.load(fromByteOffset: 4 * t, as: UInt8.self)) << 24
          | UInt32(p.load(fromByteOffset: 4 * t + 1, as: UInt8.self)) << 16
          | UInt32(p.load(fromByteOffset: 4 * t + 2, as: UInt8.self)) << 8
          | UInt32(p.load(fromByteOffset: 4 * t + 3, as: UInt8.self))
      }
      for t in 16..<64 {
        let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
        let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
      }
      var (a, b, c, d, e, f, g, h) = state
      Self.k.withUnsafeBufferPointer { k in
        for t in 0..<64 {
          let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
          let ch = (e & f) ^ (~e & g)
          let t1 = h &+ s1 &+ ch &+ k[t] &+ w[t]
          let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
          let maj = (a & b) ^ (a & c) ^ (b & c)
          let t2 = s0 &+ maj
          h = g
          g = f
          f = e
          e = d &+ t1
          d = c
          c = b
          b = a
          a = t1 &+ t2
        }
      }
      state = (
        state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
        state.7 &+ h
      )
    }
  }
}
