/// How trace files are read.
public struct LoadOptions: Hashable, Sendable {
  /// A CSV field delimiter.
  public enum Delimiter: String, Hashable, Sendable, CaseIterable {
    case comma = ","
    case semicolon = ";"
    case tab = "\t"

    /// The delimiter byte.
    public var byte: UInt8 { rawValue.utf8.first! }
  }

  /// The CSV delimiter; `nil` detects it from the header row.
  public var delimiter: Delimiter?
  /// Maximum possible force (device units) for traces whose file gives none (or for every trace
  /// with ``maxForceOverride``); `nil` leaves such traces without a known maximum.
  public var maxForce: Double?
  /// Whether ``maxForce`` replaces the maximum force a file gives instead of only filling gaps.
  public var maxForceOverride: Bool
  /// Skip invalid traces (each reported with its reason) instead of stopping at the first.
  public var skipInvalid: Bool
  /// A labels file (`trace,intent,press_at,user,session,device` and extra label columns) whose
  /// values apply to the traces of all data files.
  public var labels: String?
  /// Patterns that read labels from each file's path (`--label-from-path`, repeatable: the
  /// first pattern that matches a path gives its labels), applied before ``labels``.
  public var labelFromPath: [PathLabels]
  /// Whether labels (from ``labels`` or ``labelFromPath``) replace different values in the data
  /// (each replacement counted in the dataset's `labelOverrides`) instead of being an error.
  public var labelsOverride: Bool

  /// Whether each CSV file is read whole (memory grows with the largest file), which accepts
  /// the rows of a trace scattered through the file. By default (`false`) CSV and JSON Lines
  /// files are read in chunks and each trace id's rows must be one block (see `TraceStream`).
  public var wholeFiles: Bool

  /// The most bytes read from one input (file, FIFO or standard input); a larger input is an
  /// error, so an input that never ends stops. Default ``defaultMaximumInputSize``.
  public var maximumInputSize: Int
  /// The default input size limit: 4 GiB (2³² bytes).
  public static var defaultMaximumInputSize: Int { 1 << 32 }

  /// Creates options; the defaults read strictly with delimiter detection.
  public init(
    delimiter: Delimiter? = nil, maxForce: Double? = nil, skipInvalid: Bool = false,
    labels: String? = nil, maximumInputSize: Int = LoadOptions.defaultMaximumInputSize,
    labelFromPath: [PathLabels] = [], labelsOverride: Bool = false, maxForceOverride: Bool = false,
    wholeFiles: Bool = false
  ) {
    self.wholeFiles = wholeFiles
    self.maxForceOverride = maxForceOverride
    self.labelFromPath = labelFromPath
    self.labelsOverride = labelsOverride
    self.delimiter = delimiter
    self.maxForce = maxForce
    self.skipInvalid = skipInvalid
    self.labels = labels
    self.maximumInputSize = maximumInputSize
  }

  /// The maximum force of a trace whose file gives `file` (device units): `file` filling its gap
  /// with ``maxForce``, or ``maxForce`` first with ``maxForceOverride``.
  public func maxForce(file: Double?) -> Double? {
    maxForceOverride ? (maxForce ?? file) : (file ?? maxForce)
  }
}
