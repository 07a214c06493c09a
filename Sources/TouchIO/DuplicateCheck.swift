/// A trace key (an id, and a touch number) kept in 16 bytes, for the tables a stream keeps of
/// every trace it has read: keeping the ids themselves cost about 85 bytes a trace (an id longer
/// than 15 bytes is a heap string of its own, kept alive after its trace was dropped).
///
/// The digest is two 64-bit `Hasher` values of the key, each with its own salt; `Hasher` hashes a
/// string as `==` compares it, so canonically equivalent ids are one id, as with `String` keys.
/// Its seed changes from process to process, which changes nothing but which keys could collide:
/// two different keys share a digest with a chance of about n²/2¹²⁹ for n keys (10⁻²⁵ for ten
/// million), and only such a pair would be taken for one trace.
struct TraceKeyDigest: Hashable {
  private var first: Int
  private var second: Int

  /// The digest of trace `id`, touch `touch`.
  init(id: String, touch: Int = 0) {
    first = Self.hash(id, touch, salt: 0)
    second = Self.hash(id, touch, salt: 1)
  }

  private static func hash(_ id: String, _ touch: Int, salt: Int) -> Int {
    var hasher = Hasher()
    hasher.combine(salt)
    hasher.combine(id)
    hasher.combine(touch)
    return hasher.finalize()
  }
}

/// The traces read so far, to find a trace defined twice ("trace defined twice: first in …"):
/// each key's `TraceKeyDigest` with the index of the file that first defined it, about 20
/// bytes a trace and the table's slack.
struct DuplicateCheck {
  private var firstFiles: [TraceKeyDigest: Int32] = [:]
  /// The files that first defined a trace, in reading order (a file again after another one
  /// comes again).
  private var files: [String] = []

  /// The file that first defined the trace `id` (touch `touch`), or `nil` when this is its first
  /// definition, which is then noted as being in `file`.
  mutating func firstFile(id: String, touch: Int, file: String) -> String? {
    let key = TraceKeyDigest(id: id, touch: touch)
    if let index = firstFiles[key] { return files[Int(index)] }
    if files.last != file { files.append(file) }
    firstFiles[key] = Int32(files.count - 1)
    return nil
  }
}
