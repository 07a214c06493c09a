public import ArgumentParser
import TouchCore
import TouchIO
import TouchImport

extension TouchTraceCommand {
  /// `touchtrace import`: device recordings to trace files.
  struct Import: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Convert device recordings into trace files, one trace per contact.",
      discussion: """
        Formats: evemu (Linux evemu-record), getevent (Android getevent -lt), force-values (a JSON \
        array of UITouch.force values; needs --interval), tablet-csv (delimited pen-tablet rows, \
        see --columns), pointer-events (a JSON array of W3C PointerEvent records), libinput-record \
        (Linux libinput record YAML).

        Each contact (touch-down to lift-off) becomes a trace whose id is the file name without \
        its extension and whose touch number counts contacts in touch-down order. A getevent log \
        with events of several devices, or a libinput record --multiple file, is split per device \
        (ids FILE@event4, each device with its own name and axis ranges). An evemu recording without a device header takes its axes from \
        --description, else from the .desc beside it named after the device (the longest .desc name \
        that is the recording's name or starts it followed by '.', '-', '_' or a space), else is \
        named in a warning. --label-from-path fills labels from the recording paths, as for trace \
        files. Every contact is \
        accounted for: without --skip-invalid the first invalid one stops the command (exit 65) \
        with PATH:LINE:COL: error: MESSAGE. Nothing is written on error.

        Streams: each recording is read whole and converted, and its traces are written \
        (--batch-traces at a time) before the next file is read; memory holds one file and \
        the accounting (files, warnings, skipped contacts). CSV output waits in a temporary \
        file beside the output until the last recording (its header names the columns any \
        trace uses); standard output is written in one piece at the end.

        Examples (from the repository root):
          touchtrace import \\
            --from force-values samples/recordings/force-values.txt \\
            --interval 0.016667 --output press.csv
        """)

    @Option(help: ArgumentHelp("Recording format.", valueName: "format"))
    var from: ImportFormat

    @Argument(help: ArgumentHelp("Recording files (use shell patterns for many).", valueName: "path"))
    var paths: [String]

    @OptionGroup var output: OutputOptions<TraceFormat>

    @Flag(help: "Skip invalid contacts, reporting each with its reason, instead of stopping at the first.")
    var skipInvalid = false

    @Option(
      help: ArgumentHelp(
        "Maximum possible force (device units) for traces whose recording gives none (getevent without axis ranges, tablet-csv; force-values default 20/3); with --max-force-override for every trace, replacing the recording's (evemu/getevent/libinput-record axis maximum; 1 for pointer-events).",
        valueName: "force"))
    var maxForce: Double?

    @Flag(help: "--max-force replaces the maximum force the recordings give instead of only filling gaps.")
    var maxForceOverride = false

    @Option(
      help: ArgumentHelp(
        "Fill labels from each recording's path: {name} (intent, user, session, device or an extra label) and * match text in the path's trailing components, e.g. '{device}/{gesture}.events'. Repeatable: each file takes the first pattern that matches. Files no pattern matches are listed in one warning.",
        valueName: "pattern"))
    var labelFromPath: [String] = []

    @Flag(
      help:
        "Path labels replace different values (the recording's device name, --device, --user), each replacement counted, instead of stopping with an error."
    )
    var labelsOverride = false

    @Option(help: ArgumentHelp("evemu: device description file for recordings without a header.", valueName: "file"))
    var description: String?

    @Option(help: ArgumentHelp("force-values: seconds between successive values (required).", valueName: "seconds"))
    var interval: Double?

    @Option(
      help: ArgumentHelp(
        "tablet-csv: the role of each field: x, y, force, t, t_ms, t_us, group, - (ignored) (default: x,y,-,force,-,t_ms,group, the UCI spiral layout).",
        valueName: "roles"))
    var columns: String?

    @Option(
      help: ArgumentHelp("tablet-csv: field delimiter: comma, semicolon or tab (default: detected).", valueName: "name")
    )
    var delimiter: InputOptions.DelimiterName?

    @Option(
      help: ArgumentHelp(
        "tablet-csv: in-contact rows further apart than this belong to different contacts.", valueName: "seconds"))
    var maxGap = 0.03

    @Option(
      help: ArgumentHelp(
        "Points per device position unit (default: the evemu or libinput-record axis resolution at 160 pt/in; otherwise device units).",
        valueName: "points"))
    var positionScale: Double?

    @Option(help: ArgumentHelp("The device name for every trace (default: from the recording).", valueName: "name"))
    var device: String?

    @Option(help: ArgumentHelp("The user for every trace.", valueName: "name"))
    var user: String?

    func validate() throws {
      if from != .forceValues, interval != nil { throw ValidationError("--interval applies to force-values only") }
      if from != .evemu, description != nil { throw ValidationError("--description applies to evemu only") }
      if from == .forceValues, interval == nil {
        throw ValidationError("force-values needs --interval SECONDS: the file has no times")
      }
      if from != .tabletCSV, columns != nil { throw ValidationError("--columns applies to tablet-csv only") }
      if maxForceOverride, maxForce == nil { throw ValidationError("--max-force-override needs --max-force FORCE") }
      for pattern in labelFromPath {
        do throws(PathLabelsError) { _ = try PathLabels(pattern) } catch {
          throw ValidationError("--label-from-path '\(pattern)': \(error)")
        }
      }
      if let problem = try options().problem(for: from) { throw ValidationError(problem) }
    }

    /// The importer options these flags stand for.
    func options() throws -> ImportOptions {
      let layout: TabletColumns
      do { layout = try columns.map(TabletColumns.init(parsing:)) ?? .uciSpiral } catch {
        throw ValidationError("--columns: \(error)")
      }
      return ImportOptions(
        skipInvalid: skipInvalid, maxForce: maxForce, deviceDescription: description, interval: interval,
        columns: layout, delimiter: delimiter?.delimiter, maxGap: maxGap, positionScale: positionScale, device: device,
        user: user, maxForceOverride: maxForceOverride, labelFromPath: labelFromPath.compactMap { try? PathLabels($0) },
        labelsOverride: labelsOverride, columnsGiven: columns != nil)
    }

    @OptionGroup var batch: BatchOptions

    @OptionGroup var global: GlobalOptions

    func run() throws {
      let importOptions = try options()
      let inputs = paths + (description.map { [$0] } ?? [])
      try Console.run {
        try Console.checkOutputs([output.file], inputs: inputs)
        var analyzed = 0
        var files = try TraceImporter.Files(paths, from: from, options: importOptions)
        let out = try TraceOutput(output, inputs: inputs)
        defer { out.discard() }
        // Each recording is read whole, converted and written before the next; what is kept
        // is the accounting, reported when every file is read.
        var accounting = Dataset()
        var labelSkipped: [SkippedTrace] = []
        var pending: [Trace] = []
        while let part = try files.next() {
          accounting.files += part.dataset.files
          accounting.diagnostics += part.dataset.diagnostics
          accounting.skipped += part.dataset.skipped
          accounting.labelOverrides += part.dataset.labelOverrides
          accounting.overriddenTraces += part.dataset.overriddenTraces
          labelSkipped += part.labelSkipped
          pending += part.dataset.traces
          if pending.count >= batch.count() {
            try out.write(pending)
            pending.removeAll()
          }
          analyzed += part.dataset.traces.count
        }
        try out.write(pending)
        accounting.diagnostics += files.diagnostics()
        accounting.skipped += labelSkipped
        Console.report(accounting)
        Console.reportOverrides(accounting)
        try out.commit()
        let total = analyzed + accounting.skipped.count
        Console.diagnose(
          "imported \(total) contact\(total == 1 ? "" : "s") from \(accounting.files.count) file\(accounting.files.count == 1 ? "" : "s"): "
            + "\(analyzed) written, \(accounting.skipped.count) skipped")
      }
    }
  }
}

extension ImportFormat: ExpressibleByArgument {}
