public import TouchEvaluation
import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Latency lists kept on disk while a stream is read, so that memory holds one batch's lists, not
/// every matched event of the input.
///
/// One anonymous temporary file (created in `$TMPDIR`, else `/tmp`, and unlinked at once: nothing
/// is left behind, and no other file is touched) receives each batch's lists; a ``Ref`` finds a
/// list again. Reads are positioned (`pread`), so several threads may read at once.
public final class LatencySpill: @unchecked Sendable {
  /// Where a list lies in the spill file.
  public struct Ref: Sendable, Hashable {
    /// Byte offset.
    public var offset: Int
    /// Number of values.
    public var count: Int
  }

  /// Why the spill file failed: the directory and the system's reason.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// What failed, with the reason.
    public var description: String
  }

  private let descriptor: Int32
  private var end = 0
  /// The directory of the spill file.
  public let directory: String

  /// Creates the spill file in `$TMPDIR` (else `/tmp`).
  ///
  /// - Throws: ``Failure`` when it cannot be created.
  public init() throws(Failure) {
    let directory = TemporaryDirectory.path
    var template =
      Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
      + Array("touchtrace-spill-XXXXXX".utf8CString)
    // mkstemp's name, opened as mkstemp does (O_CREAT | O_EXCL, mode 0600) and close-on-exec
    // (mkostemp is not visible from Swift): `exec:` children must not inherit it.
    var fd: Int32 = -1
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    var random = SystemRandomNumberGenerator()
    for _ in 0..<100 {
      for k in (template.count - 7)..<(template.count - 1) { template[k] = CChar(letters[Int(random.next() % 62)]) }
      fd = template.withUnsafeBufferPointer {
        open($0.baseAddress!, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      }
      if fd >= 0 || errno != EEXIST { break }
    }
    guard fd >= 0 else {
      throw Failure(description: "cannot create a temporary file in \(directory): \(SystemError.current)")
    }
    // Unlinked at once: the file lives only as long as this process holds it.
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    descriptor = fd
    self.directory = directory
  }

  deinit { close(descriptor) }

  /// Bytes written so far.
  public var size: Int { end }

  /// Appends `values` (their exact bits); returns where they lie.
  ///
  /// - Throws: ``Failure`` when the write fails (a full disk).
  public func append(_ values: [Double]) throws(Failure) -> Ref {
    try append(bitsOf: values)
  }

  /// Appends `values` of any bitwise-copyable type (their exact bytes); returns where they lie,
  /// to be read back as that type (``read(_:as:)``).
  ///
  /// - Throws: ``Failure`` when the write fails (a full disk).
  package func append<Value: BitwiseCopyable>(bitsOf values: [Value]) throws(Failure) -> Ref {
    let ref = Ref(offset: end, count: values.count)
    var written = 0
    let total = values.count * MemoryLayout<Value>.stride
    let failed = values.withUnsafeBytes { raw -> Int32? in
      while written < total {
        let n = pwrite(descriptor, raw.baseAddress! + written, total - written, off_t(end + written))
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += n
      }
      return nil
    }
    if let failed {
      throw Failure(description: "cannot write the temporary file in \(directory): \(SystemError.text(failed))")
    }
    end += total
    return ref
  }

  /// The values at `ref`.
  ///
  /// - Throws: ``Failure`` when the read fails.
  public func read(_ ref: Ref) throws(Failure) -> [Double] {
    try read(ref, as: Double.self)
  }

  /// The values of type `type` at `ref` (appended as that type, ``append(bitsOf:)``).
  ///
  /// - Throws: ``Failure`` when the read fails.
  package func read<Value: BitwiseCopyable>(_ ref: Ref, as type: Value.Type) throws(Failure) -> [Value] {
    let total = ref.count * MemoryLayout<Value>.stride
    var failed: Int32?
    let values = [Value](unsafeUninitializedCapacity: ref.count) { buffer, initialized in
      let raw = UnsafeMutableRawBufferPointer(buffer)
      var done = 0
      while done < total {
        let n = pread(descriptor, raw.baseAddress! + done, total - done, off_t(ref.offset + done))
        if n < 0 {
          if errno == EINTR { continue }
          failed = errno
          break
        }
        if n == 0 {
          failed = EIO
          break
        }
        done += n
      }
      // The bytes of bitwise-copyable values are the values; on failure none is kept.
      initialized = failed == nil ? ref.count : 0
    }
    if let failed {
      throw Failure(description: "cannot read the temporary file in \(directory): \(SystemError.text(failed))")
    }
    return values
  }
}

/// A sweep's state over a stream with its latency lists on disk (``LatencySpill``): each
/// configuration's sums in memory, its lists as references, batch by batch. Identical lists of
/// one batch (configurations that act alike on its traces) are written once.
public struct SpilledSweep: Sendable {
  /// Each configuration's sums (its lists empty).
  private var counts: [ConfigurationPartial]
  /// For each configuration and list kind, the references of its batches' lists.
  private var refs: [[[LatencySpill.Ref]]]
  /// How each configuration is evaluated.
  public let methods: [SweepMethod]
  /// The spill file.
  public let spill: LatencySpill

  /// The state of no trace yet, for the configurations of `empty` (a partial over no trace).
  ///
  /// - Parameters:
  ///   - empty: a partial of the plan over no trace.
  ///   - spill: where the lists go.
  public init(_ empty: SweepPartial, spill: LatencySpill) {
    counts = empty.configurations
    refs = Array(
      repeating: Array(repeating: [], count: ConfigurationPartial.LatencyList.allCases.count),
      count: empty.configurations.count)
    methods = empty.methods
    self.spill = spill
  }

  /// Adds a batch's partial: sums in memory, lists to the spill file.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the spill file cannot be written.
  public mutating func absorb(_ part: SweepPartial) throws(LatencySpill.Failure) {
    precondition(part.configurations.count == counts.count, "partials of the same plan")
    var written: [Int: [(list: [Double], ref: LatencySpill.Ref)]] = [:]
    for (c, configuration) in part.configurations.enumerated() {
      counts[c].merge(ConfigurationPartial(counts: configuration.counts, shape: configuration.shape, lists: []))
      for (k, list) in configuration.lists.enumerated() where !list.isEmpty {
        let key = list.hashValue
        if let same = written[key]?.first(where: { $0.list == list }) {
          refs[c][k].append(same.ref)
        } else {
          let ref = try spill.append(list)
          written[key, default: []].append((list, ref))
          refs[c][k].append(ref)
        }
      }
    }
  }

  /// Each configuration's outcome shape, in plan order.
  package var shapes: [OutcomeShape] { counts.map(\.shape) }

  /// Configuration `c`'s partial over everything absorbed, its lists read back.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the spill file cannot be read.
  public func partial(_ c: Int) throws(LatencySpill.Failure) -> ConfigurationPartial {
    var lists: [[Double]] = []
    for kind in refs[c] {
      var list: [Double] = []
      list.reserveCapacity(kind.reduce(0) { $0 + $1.count })
      for ref in kind { list += try spill.read(ref) }
      lists.append(list)
    }
    return ConfigurationPartial(counts: counts[c].counts, shape: counts[c].shape, lists: lists)
  }

  /// Every configuration's partial, lists in memory.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the spill file cannot be read.
  public func materialized() throws(LatencySpill.Failure) -> SweepPartial {
    var configurations: [ConfigurationPartial] = []
    for c in counts.indices { configurations.append(try partial(c)) }
    return SweepPartial(configurations: configurations, methods: methods)
  }

  /// Every configuration's metrics, each configuration's lists read back and dropped in turn, on
  /// `threads` threads (the result does not depend on it).
  ///
  /// - Throws: ``LatencySpill/Failure`` when the spill file cannot be read.
  public func metrics(threads: Int = 1) throws(LatencySpill.Failure) -> [ConfigurationMetrics] {
    // Configurations whose sums and lists are the same in every batch (one threshold class
    // throughout: their lists were written once) are finished once.
    struct Key: Hashable {
      var counts: ConfigurationMetrics
      var refs: [[LatencySpill.Ref]]
    }
    let state = self
    let results = Distinct.map(
      count: counts.count, threads: threads, key: { Key(counts: state.counts[$0].counts, refs: state.refs[$0]) }
    ) {
      c -> Result<ConfigurationMetrics, LatencySpill.Failure> in
      Result { () throws(LatencySpill.Failure) in try state.partial(c).finish() }
    }
    var metrics: [ConfigurationMetrics] = []
    for result in results { metrics.append(try result.get()) }
    return metrics
  }
}
