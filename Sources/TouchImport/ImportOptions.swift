public import TouchIO

/// A recording format the importers read.
public enum ImportFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// Linux `evemu-record` text (`E: sec.usec type code value`), with or without a device header.
  case evemu
  /// Android `getevent -lt` (or `getevent -t`) text: `[ sec.usec] TYPE CODE hexvalue`.
  case getevent
  /// A bare JSON array of `UITouch.force` values; a touch starts at each exact 0.
  case forceValues = "force-values"
  /// Delimiter-separated pen-tablet rows without header, mapped by ``TabletColumns``.
  case tabletCSV = "tablet-csv"
  /// A JSON array of W3C PointerEvent records.
  case pointerEvents = "pointer-events"
  /// Linux `libinput record` YAML (format version 1): each device's `absinfo` and `evdev` event
  /// frames; a recording of several devices (`--multiple`) is split per device.
  case libinputRecord = "libinput-record"

  /// The name used by `--from`: `evemu`, `force-values`, …
  public var description: String { rawValue }

  /// File name endings picked up when a directory is given for this format.
  public var fileExtensions: [String] {
    switch self {
    case .evemu: [".events", ".evemu"]
    case .getevent: [".txt", ".log", ".getevent"]
    case .forceValues, .pointerEvents: [".json"]
    case .tabletCSV: [".txt", ".csv", ".tsv"]
    case .libinputRecord: [".yml", ".yaml"]
    }
  }
}

/// What each field of a tablet log row means (`--columns`).
public struct TabletColumns: Hashable, Sendable, CustomStringConvertible {
  /// The meaning of one field.
  public enum Role: String, Hashable, Sendable, CaseIterable {
    /// Horizontal position (device units, converted with the position scale).
    case x
    /// Vertical position.
    case y
    /// Pressure, device units (≥ 0; 0 means not touching).
    case force
    /// Time in seconds.
    case t
    /// Time in milliseconds.
    case tMilliseconds = "t_ms"
    /// Time in microseconds.
    case tMicroseconds = "t_us"
    /// A group (test, task, stroke set): contacts never span a change of group; the value is
    /// written as the trace's session.
    case group
    /// A field to ignore.
    case skip = "-"

    /// Units per second of a time field.
    var unitsPerSecond: Double? {
      switch self {
      case .t: 1
      case .tMilliseconds: 1e3
      case .tMicroseconds: 1e6
      default: nil
      }
    }
  }

  /// One role per field, in field order.
  public var roles: [Role]

  /// The UCI "Parkinson spiral" layout `X;Y;Z;Pressure;GripAngle;Timestamp;TestID`.
  public static let uciSpiral = TabletColumns(roles: [.x, .y, .skip, .force, .skip, .tMilliseconds, .group])

  /// Creates a mapping.
  /// - Precondition: exactly one force field and one time field, at most one each of x, y, group.
  public init(roles: [Role]) {
    precondition(Self.problem(roles) == nil, Self.problem(roles)?.description ?? "")
    self.roles = roles
  }

  /// Reads a comma-separated role list such as `x,y,-,force,-,t_ms,group`.
  /// - Throws: a message naming the problem.
  public init(parsing text: String) throws(TabletColumnsError) {
    var roles: [Role] = []
    for word in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = word.lowercased().trimming(" ")
      guard let role = Role(rawValue: name == "skip" ? "-" : name) else {
        throw .unknownRole(name)
      }
      roles.append(role)
    }
    if let problem = Self.problem(roles) { throw problem }
    self.roles = roles
  }

  private static func problem(_ roles: [Role]) -> TabletColumnsError? {
    func count(_ role: Role) -> Int { roles.filter { $0 == role }.count }
    let times = roles.filter { $0.unitsPerSecond != nil }.count
    if count(.force) != 1 { return .forceCount }
    if times != 1 { return .timeCount }
    for role in [Role.x, .y, .group] where count(role) > 1 { return .repeated(role) }
    if (count(.x) == 1) != (count(.y) == 1) { return .unpairedPosition }
    return nil
  }

  /// `x,y,-,force,…`.
  public var description: String { roles.map(\.rawValue).joined(separator: ",") }
}

/// A `--columns` text that cannot be read.
public enum TabletColumnsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A role name that is not one of ``TabletColumns/Role``.
  case unknownRole(String)
  /// Not exactly one `force` field.
  case forceCount
  /// Not exactly one time field.
  case timeCount
  /// `x`, `y` or `group` more than once.
  case repeated(TabletColumns.Role)
  /// `x` without `y` or the reverse.
  case unpairedPosition

  /// What is wrong, in one line.
  public var description: String {
    switch self {
    case .unknownRole(let name):
      "unknown column role '\(name)' (expected \(TabletColumns.Role.allCases.map(\.rawValue).joined(separator: ", ")))"
    case .forceCount: "the columns need exactly one 'force' field"
    case .timeCount: "the columns need exactly one time field (t, t_ms or t_us)"
    case .repeated(let role): "'\(role.rawValue)' appears more than once"
    case .unpairedPosition: "give both 'x' and 'y' or neither"
    }
  }
}

/// How recordings are imported.
public struct ImportOptions: Hashable, Sendable {
  /// Skip invalid contacts (each reported with its reason) instead of stopping at the first.
  public var skipInvalid: Bool
  /// The maximum possible force (device units) for imported traces whose recording gives none
  /// (getevent without axis ranges, tablet logs, evemu without a pressure axis range), as
  /// `--max-force` does for trace files; with ``maxForceOverride`` for every trace, replacing the
  /// recording's (evemu or getevent axis range, 1 for PointerEvents). Force arrays have no
  /// recorded maximum: this or 20/3 (``forceValuesMaxForce``).
  public var maxForce: Double?
  /// Whether ``maxForce`` replaces the maximum force the recording gives.
  public var maxForceOverride: Bool
  /// Patterns that read labels from each recording's path (`--label-from-path`, repeatable: the
  /// first pattern that matches gives the labels); see `PathLabels`.
  public var labelFromPath: [PathLabels]
  /// Whether path labels replace different values (the recording's device name, ``device``,
  /// ``user``) instead of being an error; each replacement is counted.
  public var labelsOverride: Bool
  /// Whether ``columns`` came from `--columns` (error messages say where the expected layout came
  /// from); `false` for the default UCI layout.
  public var columnsGiven: Bool
  /// An evemu device description (`evemu-describe` output) for recordings without an embedded
  /// header.
  public var deviceDescription: String?
  /// Seconds between successive values of a force array (required for ``ImportFormat/forceValues``).
  public var interval: Double?
  /// The field layout of tablet logs.
  public var columns: TabletColumns
  /// The tablet-log field delimiter; `nil` detects it from the first row (`;`, tab, then `,`).
  public var delimiter: LoadOptions.Delimiter?
  /// Tablet logs: consecutive in-contact rows further apart than this (seconds) belong to
  /// different contacts (the pen was lifted between them).
  public var maxGap: Double
  /// Points per device position unit; `nil` converts evemu axes with a known resolution
  /// (160 points per inch) and leaves other positions in device units (with a warning), and
  /// takes PointerEvent CSS pixels as points.
  public var positionScale: Double?
  /// The `device` of every imported trace, overriding the recording's device name.
  public var device: String?
  /// The `user` of every imported trace.
  public var user: String?

  /// Creates options; the defaults read strictly with the UCI tablet layout and a 30 ms gap.
  public init(
    skipInvalid: Bool = false, maxForce: Double? = nil, deviceDescription: String? = nil,
    interval: Double? = nil, columns: TabletColumns = .uciSpiral,
    delimiter: LoadOptions.Delimiter? = nil, maxGap: Double = 0.03, positionScale: Double? = nil,
    device: String? = nil, user: String? = nil, maxForceOverride: Bool = false, labelFromPath: [PathLabels] = [],
    labelsOverride: Bool = false, columnsGiven: Bool = false
  ) {
    self.maxForceOverride = maxForceOverride
    self.labelFromPath = labelFromPath
    self.labelsOverride = labelsOverride
    self.columnsGiven = columnsGiven
    self.skipInvalid = skipInvalid
    self.maxForce = maxForce
    self.deviceDescription = deviceDescription
    self.interval = interval
    self.columns = columns
    self.delimiter = delimiter
    self.maxGap = maxGap
    self.positionScale = positionScale
    self.device = device
    self.user = user
  }

  /// The default maximum force of force arrays: 20/3, `UITouch.maximumPossibleForce` on iPhone 6s
  /// (the only device such arrays are known from).
  public static let forceValuesMaxForce = 20.0 / 3.0

  /// The maximum force of a trace whose recording gives `recorded` (device units): `recorded`,
  /// filling its gap with ``maxForce``, or ``maxForce`` first with ``maxForceOverride``.
  public func maxForce(recorded: Double?) -> Double? {
    maxForceOverride ? (maxForce ?? recorded) : (recorded ?? maxForce)
  }

  /// Where the tablet-log layout comes from, for messages: `--columns x,y,force,t` or
  /// `the default --columns x,y,-,force,-,t_ms,group (UCI spiral)`.
  public var columnsSource: String {
    columnsGiven
      ? "--columns \(columns)"
      : "the default --columns \(columns) (the UCI spiral layout X;Y;Z;Pressure;GripAngle;Timestamp;TestID)"
  }

  /// What is missing or wrong for reading `format`, or `nil`.
  public func problem(for format: ImportFormat) -> String? {
    if let maxForce, !(maxForce > 0 && maxForce.isFinite) { return "the maximum force must be positive" }
    if let positionScale, !(positionScale > 0 && positionScale.isFinite) {
      return "the position scale must be positive"
    }
    switch format {
    case .forceValues:
      guard let interval else { return "force arrays have no times: give the interval between values" }
      if !(interval > 0 && interval.isFinite) { return "the interval must be a positive number of seconds" }
    case .tabletCSV:
      if !(maxGap > 0 && maxGap.isFinite) { return "the maximum gap must be a positive number of seconds" }
    default: break
    }
    return nil
  }
}
