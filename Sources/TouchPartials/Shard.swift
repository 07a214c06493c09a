import TouchCore

/// One part of a job array: the contacts whose trace id hashes to ``index`` out of ``count``.
///
/// Membership depends only on the trace id (all contacts of an id go together), never on file
/// order, so every task of an array, reading the same files, takes a disjoint part and together
/// they take everything. The hash is FNV-1a (64 bit) of the id's UTF-8 bytes, mixed by the
/// SplitMix64 finalizer so that small counts split evenly; it is fixed by this format and never
/// depends on the platform or the run.
///
/// ```swift
/// let shard = Shard(parsing: "2/4")!          // the third of four
/// shard.contains(id: "iphone6s-s7-0001")       // true for about a quarter of the ids
/// ```
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  /// This part, 0 ..< ``count``.
  public let index: Int
  /// How many parts.
  public let count: Int

  /// All the data in one part.
  public static let whole = Shard(uncheckedIndex: 0, count: 1)

  private init(uncheckedIndex index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Part `index` of `count`; `nil` unless 0 ≤ `index` < `count`.
  ///
  /// - Parameters:
  ///   - index: the part, from 0.
  ///   - count: how many parts (at least 1).
  public init?(index: Int, count: Int) {
    guard count >= 1, index >= 0, index < count else { return nil }
    self.init(uncheckedIndex: index, count: count)
  }

  /// Parses `I/N` (decimal, 0 ≤ I < N); `nil` for anything else.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let i = Int(parts[0]), let n = Int(parts[1])
    else { return nil }
    self.init(index: i, count: n)
  }

  /// `I/N`.
  public var description: String { "\(index)/\(count)" }

  /// Whether the contacts of trace `id` belong to this part.
  public func contains(id: String) -> Bool {
    count == 1 || Int(Self.hash(id) % UInt64(count)) == index
  }

  /// The stable hash of a trace id: FNV-1a 64 of its UTF-8 bytes, then the SplitMix64
  /// finalizer.
  public static func hash(_ id: String) -> UInt64 {
    SplitMix64.mix(FNV1a.hash(id.utf8))
  }
}
