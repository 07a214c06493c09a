/// A position in a text input. Lines and columns start at 1; columns count Unicode scalars.
public struct TextPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Line number, from 1.
  public var line: Int
  /// Column number, from 1, in Unicode scalars.
  public var column: Int

  /// Creates a position; both numbers start at 1.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }

  public static func < (a: TextPosition, b: TextPosition) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }
}
