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
///   from 0, as `touch`; reports name it `id#touch`. Two input files with the same name give the
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
    let description = try options.deviceDescription.map { path throws(TraceLoadError) in try readDescription(path, options: options) }
    var dataset = Dataset()
    var firstFile: [String: String] = [:]
    for path in try TraceFiles.expand(paths, extensions: format.fileExtensions) {
      let bytes = try TraceFiles.read(path)
      var part = try read(bytes, file: path, from: format, options: options, description: description)
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
      dataset.append(contentsOf: part)
    }
    return dataset
  }

  /// Imports the bytes of one file named `file`. For ``ImportFormat/evemu`` recordings without
  /// an embedded description, ``ImportOptions/deviceDescription`` is read.
  public static func read(_ bytes: [UInt8], file: String, from format: ImportFormat, options: ImportOptions = ImportOptions())
    throws(TraceLoadError) -> Dataset
  {
    precondition(options.problem(for: format) == nil, options.problem(for: format) ?? "")
    let description = try options.deviceDescription.map { path throws(TraceLoadError) in try readDescription(path, options: options) }
    return try read(bytes, file: file, from: format, options: options, description: description)
  }

  static func read(
    _ bytes: [UInt8], file: String, from format: ImportFormat, options: ImportOptions, description: EvdevDevice?
  ) throws(TraceLoadError) -> Dataset {
    switch format {
    case .evemu:
      var (device, items) = try EvemuReader(file: file, options: options).parse(bytes)
      if device.axes.isEmpty, let description {
        device.axes = description.axes
        device.name = device.name ?? description.name
      }
      return try EvdevDecoder.decode(items, device: device, collector: ContactCollector(file: file, options: options))
    case .getevent:
      let (device, items) = try GeteventReader(file: file, options: options).parse(bytes)
      return try EvdevDecoder.decode(items, device: device, collector: ContactCollector(file: file, options: options))
    case .forceValues:
      return try ForceValuesReader(file: file, options: options).read(bytes)
    case .tabletCSV:
      return try TabletLogReader(file: file, options: options).read(bytes)
    case .pointerEvents:
      return try PointerEventsReader(file: file, options: options).read(bytes)
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
