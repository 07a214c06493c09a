public import TouchCore

/// A study that cannot go on because of its data: the message says which trace and what to do.
/// The command line reports it as bad data (exit 65).
public struct StudyError: Error, Sendable, CustomStringConvertible {
  /// The message, in the `FILE:LINE:COL: error: …` form when it concerns one trace.
  public var description: String

  /// An error with `description` as its message.
  public init(description: String) {
    self.description = description
  }

  /// Trace `index` of `dataset` cannot be replayed for `reason` (it has no maximum possible
  /// force and a recognizer needs one): the error names the trace and its place.
  public static func maximumForce(_ dataset: Dataset, index k: Int, reason: String) -> StudyError {
    let origin = dataset.origins[k]
    let message = "trace '\(dataset.traces[k].name)': " + reason
    return StudyError(
      description: Diagnostic(
        .error, message + " (use --max-force or --skip-invalid)", file: origin.file, position: origin.position
      )
      .description)
  }
}
