/// Number formatting for human-readable reports (fixed decimals, thousands separators).
package enum TextFormat {
  /// `value` rounded to `places` decimals (half away from zero), e.g. `decimal(0.0151, 1)` = `0.0`.
  package static func decimal(_ value: Double, _ places: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return value.description }
    let digits = String(Int64(scaled))
    var text: String
    if places == 0 {
      text = digits
    } else {
      let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
      text = String(padded.dropLast(places)) + "." + String(padded.suffix(places))
    }
    if value < 0 && scaled != 0 { text = "-" + text }
    return text
  }

  /// An integer with thousands separators: `1,234,567`.
  package static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (k, c) in digits.enumerated() {
      if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return value < 0 ? "-" + out : out
  }

  /// Seconds in a readable unit: `850 µs`, `15.0 ms`, `1.250 s`.
  package static func duration(_ seconds: Double) -> String {
    let magnitude = abs(seconds)
    if magnitude < 1e-3 { return decimal(seconds * 1e6, 0) + " µs" }
    if magnitude < 1 { return decimal(seconds * 1e3, 1) + " ms" }
    return decimal(seconds, 3) + " s"
  }

  /// A count with its noun, plural unless it is 1: `1 recognizer`, `3 configurations`,
  /// `2 fold`+`s`. `plural` is the plural when it is not the noun plus `s`.
  package static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
  }

  /// A share (0…1) as a percentage with one decimal: `12.5%`.
  package static func percent(_ share: Double) -> String { decimal(share * 100, 1) + "%" }

  /// A number with up to `significant` significant digits, trailing zeros removed: `6.6667`.
  package static func compact(_ value: Double, significant: Int = 5) -> String {
    guard value.isFinite, value != 0 else { return value == 0 ? "0" : decimal(value, 0) }
    var places = significant - 1
    var magnitude = abs(value)
    while magnitude >= 10 && places > 0 {
      magnitude /= 10
      places -= 1
    }
    while magnitude < 1 && places < 12 {
      magnitude *= 10
      places += 1
    }
    var text = decimal(value, places)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }
}
