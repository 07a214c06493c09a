/// Framing: whether a buffer that is only part of the input already holds the next piece of a
/// JSON document, so a streamed reader parses a piece only once all of it is there.
///
/// The framer counts brackets and skips strings; it does not check syntax. Where the parser
/// would stop at an error, the framer either stops earlier (the piece is "there": the parser then
/// reports the error, at the place a whole read reports it) or runs to the end of the buffer (the
/// piece is not there yet). On valid JSON both end a value at the same byte. Every "there" leaves
/// bytes to spare (``spare(_:)``), enough for a message to quote what the parser stops at.
extension JSONScanner {
  /// Whether, from `k`, the buffer holds white space, one whole value, white space and the byte
  /// after it (`,`, `closing` or whatever stands there), and after a comma white space and one more
  /// byte: an array element or an object's member value with what follows it.
  func holdsValueAndSeparator(from k: Int) -> Bool {
    guard let valueEnd = valueEnd(from: skippingWhitespace(from: k)) else { return false }
    return holdsSeparator(from: valueEnd)
  }

  /// Whether, from `k`, the buffer holds white space and the byte after it, and when that is a
  /// comma, white space and one more byte.
  func holdsSeparator(from k: Int) -> Bool {
    var i = skippingWhitespace(from: k)
    guard i < end else { return false }
    if base[i] == UInt8(ascii: ",") { i = skippingWhitespace(from: i + 1) }
    return spare(i)
  }

  /// Whether, from `k` (a member's key), the buffer holds the key, the colon and the value with
  /// what follows it; or, when the value is an array and the key is `opening` (raw bytes,
  /// compared without unescaping), only the array's `[` and the first byte inside it.
  func holdsMember(from k: Int, openingArrayOf opening: StaticString? = nil) -> Bool {
    guard k < end, base[k] == UInt8(ascii: "\"") else { return spare(k) }
    guard let keyEnd = stringEnd(from: k) else { return false }
    var i = skippingWhitespace(from: keyEnd)
    guard i < end else { return false }
    guard base[i] == UInt8(ascii: ":") else { return spare(i) }
    i = skippingWhitespace(from: i + 1)
    guard i < end else { return false }
    if let opening, base[i] == UInt8(ascii: "["), rawBytes(from: k + 1, to: keyEnd - 1, equal: opening) {
      return spare(skippingWhitespace(from: i + 1))
    }
    return holdsValueAndSeparator(from: i)
  }

  /// Whether the buffer holds what a message about the byte at `i` may quote: the run of bytes
  /// from `i` that ``tokenText(from:)`` quotes, up to the byte that ends it, or 256 bytes of it
  /// (more than the 40 characters a message shows).
  func spare(_ i: Int) -> Bool {
    var k = i
    while k < end {
      if Self.endsToken(base[k]) || k - i >= 256 { return true }
      k += 1
    }
    return false
  }

  /// The offset of the first byte at or after `k` that is not white space (or `end`).
  func skippingWhitespace(from k: Int) -> Int {
    var i = k
    while i < end {
      let c = base[i]
      guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { break }
      i += 1
    }
    return i
  }

  /// Where the value starting at `k` ends, or `nil` when the buffer ends first. Brackets of
  /// either kind count alike; a scalar ends at white space or a structural character.
  func valueEnd(from k: Int) -> Int? {
    guard k < end else { return nil }
    switch base[k] {
    case UInt8(ascii: "\""):
      return stringEnd(from: k)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var i = k
      while i < end {
        switch base[i] {
        case UInt8(ascii: "\""):
          guard let after = stringEnd(from: i) else { return nil }
          i = after
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return i + 1 }
        default:
          break
        }
        i += 1
      }
      return nil
    default:
      var i = k
      while i < end, !Self.endsScalar(base[i]) { i += 1 }
      return i < end ? i : nil
    }
  }

  /// Where the string whose opening quote is at `k` ends (after its closing quote), or `nil`.
  func stringEnd(from k: Int) -> Int? {
    var i = k + 1
    while i < end {
      let c = base[i]
      if c == UInt8(ascii: "\\") {
        i += 2
        continue
      }
      if c == UInt8(ascii: "\"") { return i + 1 }
      i += 1
    }
    return nil
  }

  private static func endsScalar(_ c: UInt8) -> Bool {
    switch c {
    case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"),
      UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\""):
      true
    default:
      false
    }
  }

  private func rawBytes(from start: Int, to stop: Int, equal text: StaticString) -> Bool {
    guard stop - start == text.utf8CodeUnitCount else { return false }
    let bytes = text.utf8Start
    for j in 0..<(stop - start) where base[start + j] != bytes[j] { return false }
    return true
  }
}
