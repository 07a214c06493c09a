import ArgumentParser

/// A number of bytes as the command line takes it: digits, optionally followed by `K`, `M`, `G`
/// or `T` (powers of 1 024, any case, with or without a trailing `iB` or `B`): `2G` is
/// 2 147 483 648 bytes (`--spool-limit`, `--max-input-size`).
struct ByteCount: ExpressibleByArgument, Equatable, CustomStringConvertible {
  /// The bytes.
  var bytes: Int

  /// `bytes` bytes.
  init(_ bytes: Int) { self.bytes = bytes }

  /// Parses `12345`, `512K`, `2G`, `2GiB`, `2gb`; `nil` for anything else, or a count that does
  /// not fit in an `Int`.
  init?(argument: String) {
    var text = Substring(argument.lowercased())
    if text.hasSuffix("ib") {
      text = text.dropLast(2)
    } else if text.hasSuffix("b") {
      text = text.dropLast()
    }
    var shift = 0
    if let unit = text.last, let index = ["k", "m", "g", "t"].firstIndex(of: unit) {
      shift = 10 * (index + 1)
      text = text.dropLast()
    }
    guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let count = Int(text),
      count <= Int.max >> shift
    else { return nil }
    bytes = count << shift
  }

  /// The count in bytes, digits only: as help, `--print-config` and the reports' recorded
  /// configuration give it (the same text whichever form was typed).
  var description: String { String(bytes) }

  var defaultValueDescription: String { description }
}
