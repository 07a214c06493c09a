/// Why partials cannot be read or merged. Every case names the files involved.
public enum PartialError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file does not start like a partial.
  case notAPartial(file: String)
  /// Written by a build with another partial format.
  case formatVersion(file: String, found: Int)
  /// Cut short or corrupted.
  case damaged(file: String)
  /// No partial given (an empty directory).
  case none
  /// Two partials of different runs: what differs (tool, command, arguments, shard count,
  /// inputs) and the two files.
  case mismatch(what: String, file: String, other: String)
  /// Shards absent from a job of `count`.
  case missing(shards: [Int], count: Int)
  /// A shard given more than once.
  case doubled(shard: Int, count: Int, files: [String])
  /// One trace in two partials (shards that overlap).
  case overlapping(trace: String, files: [String])

  public var description: String {
    switch self {
    case .notAPartial(let file): "\(file): not a touchtrace partial (write one with --shard I/N --partial FILE)"
    case .formatVersion(let file, let found):
      "\(file): partial format \(found); this touchtrace reads format \(StudyPartial.formatVersion): merge with the touchtrace that wrote it"
    case .damaged(let file): "\(file): partial cut short or damaged; run its shard again"
    case .none: "no partial to merge"
    case .mismatch(let what, let file, let other):
      "\(file) and \(other) come from different runs: \(what); merge only the partials of one job"
    case .missing(let shards, let count):
      "missing shard\(shards.count == 1 ? "" : "s") \(shards.prefix(20).map { "\($0)/\(count)" }.joined(separator: ", "))\(shards.count > 20 ? ", … (\(shards.count) in all)" : "") of \(count): run \(shards.count == 1 ? "it" : "them") (--shard I/\(count) --partial FILE) and merge again"
    case .doubled(let shard, let count, let files):
      "shard \(shard)/\(count) given \(files.count) times: \(files.joined(separator: ", ")); merge each shard once"
    case .overlapping(let trace, let files):
      "trace '\(trace)' is in \(files.joined(separator: " and ")): the shards overlap"
    }
  }
}
