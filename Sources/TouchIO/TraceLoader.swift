public import TouchCore

/// Loads traces from files and directories in any supported format, with full accounting.
///
/// ```swift
/// let dataset = try TraceLoader.load(["samples/"], options: LoadOptions(skipInvalid: true))
/// print(dataset.total, dataset.traces.count, dataset.skipped.count)
/// ```
public enum TraceLoader {
  /// Loads every trace file under `paths` (see ``TraceFiles/expand(_:extensions:)``), then applies the
  /// path labels (``LoadOptions/labelFromPath``) and then the labels file of `options`, if any. `-` reads standard input (once), its format sniffed by
  /// ``TraceFiles/Format/init(sniffing:)`` and named `<stdin>` in messages.
  ///
  /// In strict mode (the default) the first invalid trace throws. With
  /// ``LoadOptions/skipInvalid`` invalid traces go to the dataset's `skipped` list with their
  /// reason and position, and loading continues; problems with whole files (missing, unreadable,
  /// no header, a missing required column, malformed JSON in a document) still throw. In JSON
  /// Lines a malformed line is one skipped record.
  ///
  /// A trace id (with its contact number) may appear in only one file, and in CSV each id's rows
  /// must be one block unless ``LoadOptions/wholeFiles`` is set.
  ///
  /// This is a loop over ``TraceStream`` that keeps every batch: files are read in chunks, so
  /// memory holds the traces, not the files. In strict mode the first problem
  /// in input order is thrown (a labels-file problem included, with the trace it concerns).
  ///
  /// - Throws: ``TraceLoadError``.
  /// - Complexity: O(total input size).
  public static func load(_ paths: [String], options: LoadOptions = LoadOptions())
    throws(TraceLoadError) -> Dataset
  {
    let stream = try TraceStream(paths, options: options, batchTraces: .max)
    var dataset = Dataset()
    while let batch = try stream.next() { dataset.append(contentsOf: batch) }
    return dataset
  }

  /// Reads traces from the bytes of one file. A trace defined twice in it (the same id and
  /// contact in two JSON records) is an error, or skipped with its reason under `skipInvalid`,
  /// as across files.
  ///
  /// - Parameters:
  ///   - bytes: the file's content; CSV quoting is undone in place.
  ///   - file: the name errors and origins use.
  ///   - format: the file's format.
  ///   - options: how to read it.
  public static func read(
    _ bytes: inout [UInt8], file: String, format: TraceFiles.Format,
    options: LoadOptions = LoadOptions()
  ) throws(TraceLoadError) -> Dataset {
    var part = try parse(&bytes, file: file, format: format, options: options)
    var seen = DuplicateCheck()
    try rejectDuplicates(in: &part, seen: &seen, options: options)
    return part
  }

  /// Reads the traces of one file's bytes, without the duplicate check.
  static func parse(
    _ bytes: inout [UInt8], file: String, format: TraceFiles.Format, options: LoadOptions
  ) throws(TraceLoadError) -> Dataset {
    switch format {
    case .csv: try CSVTraceReader(file: file, options: options).read(&bytes)
    case .json: try JSONTraceReader(file: file, options: options).read(bytes, lines: false)
    case .jsonl: try JSONTraceReader(file: file, options: options).read(bytes, lines: true)
    }
  }

  /// Moves traces whose key `seen` already holds to the skips (`skipInvalid`), or throws for
  /// the first; notes the others' keys with their file. The skips stay in file order: a
  /// duplicate's skip goes where its trace stands among the part's other skips, as a stream,
  /// which checks one unit at a time, lists it.
  static func rejectDuplicates(
    in part: inout Dataset, seen: inout DuplicateCheck, options: LoadOptions
  ) throws(TraceLoadError) {
    var duplicate: [Int: String] = [:]
    for k in part.traces.indices {
      let metadata = part.traces[k].metadata
      if let first = seen.firstFile(id: metadata.id, touch: metadata.touch, file: part.origins[k].file) {
        let name = part.traces[k].name
        let error = TraceLoadError(
          .duplicateTrace(name, firstFile: first), file: part.origins[k].file,
          position: part.origins[k].position, record: part.origins[k].record, trace: name)
        guard options.skipInvalid else { throw error }
        duplicate[k] = error.message
      }
    }
    let parsed = part.skipped.count
    part.skipTraces(at: duplicate)
    if parsed > 0 && part.skipped.count > parsed { part.skipped = inFileOrder(part.skipped, from: parsed) }
  }

  /// `skipped`, whose elements before `from` and from `from` on are each in file order, merged
  /// into one file order by their origins' positions (the earlier run first on a tie or where a
  /// position is missing).
  static func inFileOrder(_ skipped: [SkippedTrace], from split: Int) -> [SkippedTrace] {
    var merged: [SkippedTrace] = []
    merged.reserveCapacity(skipped.count)
    var i = 0
    var j = split
    while i < split || j < skipped.count {
      let takeLater: Bool
      if i == split {
        takeLater = true
      } else if j == skipped.count {
        takeLater = false
      } else if let later = skipped[j].origin.position, let earlier = skipped[i].origin.position {
        takeLater = later < earlier
      } else {
        takeLater = false
      }
      if takeLater {
        merged.append(skipped[j])
        j += 1
      } else {
        merged.append(skipped[i])
        i += 1
      }
    }
    return merged
  }
}
