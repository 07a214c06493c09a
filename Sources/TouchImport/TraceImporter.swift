public import TouchCore
public import TouchIO

/// Turns device recordings into traces: one trace per contact (touch-down to lift-off), with
/// the loaders' error and accounting rules.
///
/// ```swift
/// let dataset = try TraceImporter.load(["pen.events"], from: .evemu)
/// ```
///
/// - Trace ids: every contact of a file gets the file's name without directory and without its
///   last extension as `id` (`Wacom Intuos4 6x9.stylus-tap`) and its number in touch-down order,
///   from 0, as `touch`; reports name it `id#touch`. A getevent log with events of several devices
///   is split per device (each with its own name and axis ranges): ids `FILE@event4`, touch
///   numbers per device; so is a `libinput record --multiple` recording.
/// - evemu recordings without a device header take their axes from `ImportOptions.deviceDescription`
///   or else from the `.desc` beside them named after the device (``pairedDescription(for:)``,
///   noted on standard error); recordings with neither are named in one warning.
/// - Path labels (`ImportOptions.labelFromPath`) are applied last, as for trace files. Two input files with the same name give the
///   same ids, which is an error (or, with `skipInvalid`, the later file's traces are skipped).
/// - Times are seconds since the file's first event or row (force arrays: synthesized).
/// - Forces are the recording's values in device units; ``ImportOptions/maxForce`` or the
///   recording (evemu axis range, 1 for PointerEvents, 20/3 for force arrays) gives `max_force`.
/// - Strict by default: the first invalid contact or malformed line throws
///   `path:line:col: error: …`. With ``ImportOptions/skipInvalid`` an invalid contact is skipped
///   with its reason, and a malformed line invalidates the contacts open at that point (or is
///   counted as an unnamed skipped trace when none is). Problems with whole files (missing,
///   unreadable, malformed JSON, no pressure at all) always throw.
public enum TraceImporter {
  /// Points per millimetre used to convert positions of axes with a known resolution: 160
  /// points per inch (Android's density-independent pixel; an iPhone point is 1/163 in).
  public static let pointsPerMillimetre = 160 / 25.4

  /// The trace id of the contacts of `path`: its last path component without the last extension.
  public static func traceID(forFile path: String) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }

  /// Imports every file in `paths`; directories are searched recursively for the format's
  /// ``ImportFormat/fileExtensions``, in byte order of the paths.
  ///
  /// - Throws: `TraceLoadError`.
  /// - Precondition: `options.problem(for: format)` is `nil` (for example a force array
  ///   without an interval is a programmer error here; the command line checks it first).
  public static func load(_ paths: [String], from format: ImportFormat, options: ImportOptions = ImportOptions())
    throws(TraceLoadError) -> Dataset
  {
    precondition(options.problem(for: format) == nil, options.problem(for: format) ?? "")
    let description = try options.deviceDescription.map { path throws(TraceLoadError) in
      try readDescription(path, options: options)
    }
    var dataset = Dataset()
    var firstFile: [String: String] = [:]
    var unpaired: [String] = []
    for path in try TraceFiles.expand(paths, extensions: format.fileExtensions) {
      let part = try readFile(
        path, from: format, options: options, description: description, firstFile: &firstFile, unpaired: &unpaired)
      dataset.append(contentsOf: part)
    }
    if let warning = unpairedWarning(unpaired) { dataset.diagnostics.append(warning) }
    try PathLabels.apply(
      options.labelFromPath, to: &dataset, override: options.labelsOverride, skipInvalid: options.skipInvalid)
    return dataset
  }

  /// One file's traces, the later of two files with the same id skipped (or thrown, strict).
  private static func readFile(
    _ path: String, from format: ImportFormat, options: ImportOptions, description: EvdevDevice?,
    firstFile: inout [String: String], unpaired: inout [String]
  ) throws(TraceLoadError) -> Dataset {
    let bytes = try TraceFiles.read(path)
    var part = try read(
      bytes, file: path, from: format, options: options, description: description, pairing: description == nil,
      unpaired: &unpaired)
    let id = traceID(forFile: path)
    if let first = firstFile[id] {
      let errors = part.traces.indices.map { k in
        TraceLoadError(
          .duplicateTrace(part.traces[k].name, firstFile: first), file: path, position: part.origins[k].position,
          trace: part.traces[k].name)
      }
      if let error = errors.first, !options.skipInvalid { throw error }
      var k = -1
      part.skipTraces { _ in
        k += 1
        return errors[k].message
      }
    } else {
      firstFile[id] = path
    }
    return part
  }

  /// The warning naming header-less evemu recordings without a description; `nil` for none.
  private static func unpairedWarning(_ unpaired: [String]) -> Diagnostic? {
    guard !unpaired.isEmpty else { return nil }
    let shown = unpaired.prefix(5).map { "'\(Diagnostic.escaped($0))'" }.joined(separator: ", ")
    return Diagnostic(
      .warning,
      "\(unpaired.count) evemu recording\(unpaired.count == 1 ? " has" : "s have") no device header and no '.desc' beside \(unpaired.count == 1 ? "it" : "them") named after the device (pressure range unknown; give --description FILE): \(shown)\(unpaired.count > 5 ? ", …" : "")"
    )
  }

  /// Imports recordings one file at a time, for a command that writes each file's traces before
  /// reading the next (memory holds one file's bytes and traces): the same traces, in the same
  /// order, as ``TraceImporter/load(_:from:options:)``, with the same accounting split by where it arises.
  ///
  /// ```swift
  /// var files = try TraceImporter.Files(["logs/"], from: .getevent)
  /// while let part = try files.next() { write(part.dataset.traces) }
  /// let warnings = files.diagnostics()
  /// ```
  ///
  /// Strict mode stops at the first error as `load` does, except that a file's path-label
  /// conflict is found when that file is read (`load` reads every file first).
  public struct Files {
    /// The recordings, in the order they are read.
    public let paths: [String]
    private let format: ImportFormat
    private let options: ImportOptions
    private let description: EvdevDevice?
    private var position = 0
    private var firstFile: [String: String] = [:]
    private var unpaired: [String] = []
    private var unmatched: [String] = []

    /// Finds the recordings in `paths` (directories searched as by ``TraceImporter/load(_:from:options:)``)
    /// and reads `options.deviceDescription`.
    ///
    /// - Parameters:
    ///   - paths: files and directories.
    ///   - format: the recording format.
    ///   - options: the importer options.
    /// - Throws: `TraceLoadError` for a path that cannot be listed or a description that cannot
    ///   be read.
    /// - Precondition: `options.problem(for: format)` is `nil`.
    public init(_ paths: [String], from format: ImportFormat, options: ImportOptions = ImportOptions())
      throws(TraceLoadError)
    {
      precondition(options.problem(for: format) == nil, options.problem(for: format) ?? "")
      self.format = format
      self.options = options
      description = try options.deviceDescription.map { path throws(TraceLoadError) in
        try readDescription(path, options: options)
      }
      self.paths = try TraceFiles.expand(paths, extensions: format.fileExtensions)
    }

    /// The next file's traces, with path labels applied: `dataset` holds its traces, files,
    /// warnings, label-override counts and the traces skipped while reading it;
    /// `labelSkipped`, those skipped for their path labels (which `load` lists after every
    /// file's). `nil` after the last file.
    ///
    /// - Throws: `TraceLoadError`, as ``TraceImporter/load(_:from:options:)``.
    public mutating func next() throws(TraceLoadError) -> (dataset: Dataset, labelSkipped: [SkippedTrace])? {
      guard position < paths.count else { return nil }
      let path = paths[position]
      position += 1
      var part = try readFile(
        path, from: format, options: options, description: description, firstFile: &firstFile, unpaired: &unpaired)
      let read = part.skipped.count
      try PathLabels.apply(
        options.labelFromPath, to: &part, override: options.labelsOverride, skipInvalid: options.skipInvalid,
        unmatched: &unmatched)
      let labelSkipped = Array(part.skipped[read...])
      part.skipped.removeLast(part.skipped.count - read)
      return (part, labelSkipped)
    }

    /// The warnings made once every file is read (`load` adds them after the files'):
    /// header-less evemu recordings without a description, files no `--label-from-path`
    /// pattern matched.
    public func diagnostics() -> [Diagnostic] {
      [unpairedWarning(unpaired), PathLabels.unmatchedWarning(options.labelFromPath, files: unmatched)].compactMap {
        $0
      }
    }
  }

  /// The `.desc` file beside the header-less evemu recording `path` that describes its device:
  /// among the `.desc` files in the same directory, the one with the longest name (without
  /// `.desc`) that equals the recording's name without its extension or starts it followed by
  /// `.`, `-`, `_` or a space (`SynPS2 Synaptics TouchPad.hp8470p.desc` for
  /// `SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events`); `nil` when there is none.
  public static func pairedDescription(for path: String) -> String? {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    let base = traceID(forFile: path)
    guard let candidates = try? TraceFiles.expand([directory], extensions: [".desc"]) else { return nil }
    var best: (path: String, length: Int)?
    for candidate in candidates {
      let candidateSlash = candidate.lastIndex(of: "/")
      let candidateDirectory = candidateSlash.map { String(candidate[..<$0]) } ?? "."
      guard
        candidateDirectory == directory || candidateDirectory == directory + "/"
          || directory.hasSuffix("/") && candidateDirectory + "/" == directory
      else { continue }
      let name = traceID(forFile: candidate)
      guard base == name || (base.hasPrefix(name) && [".", "-", "_", " "].contains(base.dropFirst(name.count).first))
      else { continue }
      if best == nil || name.count > best!.length { best = (candidate, name.count) }
    }
    return best?.path
  }

  /// Imports the bytes of one file named `file`. For ``ImportFormat/evemu`` recordings without
  /// an embedded description, ``ImportOptions/deviceDescription`` is read.
  public static func read(
    _ bytes: [UInt8], file: String, from format: ImportFormat, options: ImportOptions = ImportOptions()
  )
    throws(TraceLoadError) -> Dataset
  {
    precondition(options.problem(for: format) == nil, options.problem(for: format) ?? "")
    let description = try options.deviceDescription.map { path throws(TraceLoadError) in
      try readDescription(path, options: options)
    }
    var unpaired: [String] = []
    return try read(
      bytes, file: file, from: format, options: options, description: description, pairing: false, unpaired: &unpaired)
  }

  static func read(
    _ bytes: [UInt8], file: String, from format: ImportFormat, options: ImportOptions, description: EvdevDevice?,
    pairing: Bool, unpaired: inout [String]
  ) throws(TraceLoadError) -> Dataset {
    switch format {
    case .evemu:
      var (device, items) = try EvemuReader(file: file, options: options).parse(bytes)
      var note: Diagnostic?
      if device.axes.isEmpty {
        var source = description
        if source == nil, pairing {
          if let paired = pairedDescription(for: file) {
            source = try readDescription(paired, options: options)
            note = Diagnostic(
              .note,
              "no device header: using the device description '\(Diagnostic.escaped(paired.split(separator: "/").last.map(String.init) ?? paired))' beside it",
              file: file)
          } else {
            unpaired.append(file)
          }
        }
        if let source {
          device.axes = source.axes
          device.name = device.name ?? source.name
        }
      }
      var dataset = try EvdevDecoder.decode(
        items, device: device, collector: ContactCollector(file: file, options: options))
      if let note { dataset.diagnostics.insert(note, at: 0) }
      return dataset
    case .getevent:
      return try EvdevDecoder.decode(
        GeteventReader(file: file, options: options).parse(bytes), file: file, options: options)
    case .forceValues:
      return try ForceValuesReader(file: file, options: options).read(bytes)
    case .tabletCSV:
      return try TabletLogReader(file: file, options: options).read(bytes)
    case .pointerEvents:
      return try PointerEventsReader(file: file, options: options).read(bytes)
    case .libinputRecord:
      return try EvdevDecoder.decode(
        LibinputRecordReader(file: file, options: options).parse(bytes), file: file, options: options)
    }
  }

  /// Reads an `evemu-describe` file; its lines must all be valid (strict whatever the options).
  static func readDescription(_ path: String, options: ImportOptions) throws(TraceLoadError) -> EvdevDevice {
    var strict = options
    strict.skipInvalid = false
    let bytes = try TraceFiles.read(path)
    let (device, _) = try EvemuReader(file: path, options: strict).parse(bytes)
    guard !device.axes.isEmpty else {
      throw TraceLoadError(
        .invalidRecording("the device description has no axis ('A:') lines"), file: path,
        position: TextPosition(line: 1, column: 1))
    }
    return device
  }
}
