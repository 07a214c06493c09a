public import TouchCore
public import TouchIO

/// What a study reads: trace files (or `-` for standard input), how to load them, and which
/// traces to keep.
///
/// ```swift
/// let input = StudyInput(paths: ["samples/"], options: LoadOptions(skipInvalid: true))
/// ```
public struct StudyInput: Sendable {
  /// Files and directories, in order; `-` is standard input.
  public var paths: [String]
  /// How files are read (labels, overrides, the maximum force, whole files or chunks).
  public var loadOptions: LoadOptions
  /// Traces must match every filter (`touch=N`, `id#n`, a label); the rest are skipped with the
  /// filter as the reason.
  public var filters: [TraceFilter]

  /// An input of `paths` read with `options`, keeping the traces that match every filter.
  public init(paths: [String], options: LoadOptions = LoadOptions(), filters: [TraceFilter] = []) {
    self.paths = paths
    self.loadOptions = options
    self.filters = filters
  }

  /// Whether invalid traces are skipped with their reason (else the first one is an error).
  public var skipInvalid: Bool { loadOptions.skipInvalid }

  /// Whether the input reads standard input (its traces or its labels), which cannot be read a
  /// second time.
  public var readsOnce: Bool {
    paths.contains(TraceFiles.standardInput) || loadOptions.labels == TraceFiles.standardInput
  }
}
