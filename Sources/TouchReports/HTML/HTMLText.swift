/// Text and number formatting for the HTML report: escaping, coordinates and element ids.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, safe in element
  /// content and in quoted attribute values of HTML and of XML (the JUnit report uses it too);
  /// control characters neither can hold (other than tab, line feed and carriage return) and
  /// the non-characters U+FFFE, U+FFFF become `?`.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n", "\r": out.unicodeScalars.append(c)
      default:
        if c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF { out += "?" } else { out.unicodeScalars.append(c) }
      }
    }
    return out
  }

  /// An SVG coordinate or length: two decimals, trailing zeros dropped (`12.5`, `3`, `-0.25`).
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    var text = TextFormat.decimal(value, 2)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
  }

  /// The part of an element id made from a name: ASCII letters, digits and `-` kept, every
  /// other character replaced by `_` (`tap+deep-press` → `tap_deep-press`).
  static func idPart(_ name: String) -> String {
    String(
      name.unicodeScalars.map { c -> Character in
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "-": Character(c)
        default: "_"
        }
      })
  }
}
