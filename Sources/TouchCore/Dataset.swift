/// Where a trace came from: the file and the position of its first sample or record.
public struct TraceOrigin: Hashable, Sendable {
  /// The file, as the user named it.
  public var file: String
  /// Line and column of the trace's first sample (CSV) or record (JSON); `nil` if unknown.
  public var position: TextPosition?
  /// The 0-based record index inside a JSON document or JSON Lines file; `nil` for CSV.
  public var record: Int?

  /// Creates an origin.
  public init(file: String, position: TextPosition? = nil, record: Int? = nil) {
    self.file = file
    self.position = position
    self.record = record
  }
}

/// A trace left out of an analysis, with the reason, so every input trace is accounted for.
public struct SkippedTrace: Hashable, Sendable, CustomStringConvertible {
  /// The trace's name (see ``TraceMetadata/name``), control characters escaped
  /// (``Diagnostic/escaped(_:limit:)``: a skipped name may be unprintable); `nil` when the input
  /// did not say.
  public var trace: String?
  /// Where the trace came from.
  public var origin: TraceOrigin
  /// Where the problem is, when it is not the trace's first position.
  public var position: TextPosition?
  /// Why the trace was skipped.
  public var reason: String

  /// Creates a skip record.
  public init(trace: String?, origin: TraceOrigin, position: TextPosition? = nil, reason: String) {
    self.trace = trace.map { Diagnostic.escaped($0) }
    self.origin = origin
    self.position = position
    self.reason = reason
  }

  /// The position to report: the problem's own, else the trace's.
  public var reportedPosition: TextPosition? { position ?? origin.position }

  /// `path:line:col: warning: skipped trace 'id': reason`.
  public var description: String {
    let name = trace.map { "'\($0)'" } ?? "(unnamed)"
    return Diagnostic(
      .warning, "skipped trace \(name): \(reason)", file: origin.file, position: reportedPosition
    ).description
  }
}

/// A set of traces read from files, with the traces that were skipped and why.
///
/// Accounting invariant: every trace found in the input is either in ``traces`` or in
/// ``skipped``, so ``total`` = ``traces``.count + ``skipped``.count.
public struct Dataset: Sendable {
  /// The traces to analyze, in input order (files in the order given, traces in order of first
  /// appearance inside a file).
  public var traces: [Trace]
  /// Where each trace came from; parallel to ``traces``.
  public var origins: [TraceOrigin]
  /// Traces left out, with reasons, in the order they were found.
  public var skipped: [SkippedTrace]
  /// The files read, in order.
  public var files: [String]
  /// Warnings met while reading (unknown columns and the like).
  public var diagnostics: [Diagnostic]
  /// How many label values in the data were replaced by a labels file or `--label-from-path`
  /// (with `--labels-override`): one per field per trace whose value changed.
  public var labelOverrides: Int = 0
  /// How many traces had at least one label value replaced (see ``labelOverrides``).
  public var overriddenTraces: Int = 0

  /// Creates a dataset.
  /// - Precondition: `origins` has one element per trace.
  public init(
    traces: [Trace] = [], origins: [TraceOrigin] = [], skipped: [SkippedTrace] = [],
    files: [String] = [], diagnostics: [Diagnostic] = []
  ) {
    precondition(origins.count == traces.count, "one origin per trace")
    self.traces = traces
    self.origins = origins
    self.skipped = skipped
    self.files = files
    self.diagnostics = diagnostics
  }

  /// Every trace of the input: analyzed plus skipped.
  public var total: Int { traces.count + skipped.count }

  /// The number of samples over the analyzed traces.
  public var sampleCount: Int { traces.reduce(0) { $0 + $1.count } }

  /// Appends another dataset's traces, skips, files and diagnostics after this one's.
  public mutating func append(contentsOf other: Dataset) {
    if traces.isEmpty && skipped.isEmpty && files.isEmpty && diagnostics.isEmpty && labelOverrides == 0 {
      self = other  // the common case of one file: no element-wise copy
      return
    }
    traces += other.traces
    origins += other.origins
    skipped += other.skipped
    files += other.files
    diagnostics += other.diagnostics
    labelOverrides += other.labelOverrides
    overriddenTraces += other.overriddenTraces
  }

  /// Moves the traces `reasons` gives a message for, by their index in ``traces``, to
  /// ``skipped``, keeping the order of both (what a reader calls once it has checked every trace
  /// of a file).
  public mutating func skipTraces(at reasons: [Int: String]) {
    guard !reasons.isEmpty else { return }
    var k = -1
    skipTraces { _ in
      k += 1
      return reasons[k]
    }
  }

  /// Moves the traces for which `reason` returns a message from ``traces`` to ``skipped``,
  /// keeping the order of both.
  ///
  /// Analyses use this for traces they cannot handle (for example a normalized recognizer on a
  /// trace with no known maximum force), so the accounting stays complete.
  public mutating func skipTraces(where reason: (Trace) throws -> String?) rethrows {
    var keptTraces: [Trace] = []
    var keptOrigins: [TraceOrigin] = []
    keptTraces.reserveCapacity(traces.count)
    keptOrigins.reserveCapacity(traces.count)
    for (trace, origin) in zip(traces, origins) {
      if let message = try reason(trace) {
        skipped.append(SkippedTrace(trace: trace.name, origin: origin, reason: message))
      } else {
        keptTraces.append(trace)
        keptOrigins.append(origin)
      }
    }
    traces = keptTraces
    origins = keptOrigins
  }
}
