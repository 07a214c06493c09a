extension StringProtocol {
  /// The text without its leading and trailing Unicode scalars for which `isTrimmed` is true.
  ///
  /// Works on scalars, not characters, so a space before a combining mark is trimmed as the
  /// byte it is; the one trimming helper of the package.
  package func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
    let scalars = String(self).unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    return String(scalars[first...last])
  }

  /// The text without leading and trailing spaces and tabs.
  package var trimmingSpaces: String {
    trimming { $0 == " " || $0 == "\t" }
  }

  /// The text without leading and trailing copies of `scalar`.
  package func trimming(_ scalar: Unicode.Scalar) -> String {
    trimming { $0 == scalar }
  }
}
