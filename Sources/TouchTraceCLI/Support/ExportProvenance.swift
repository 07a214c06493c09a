import ArgumentParser
import TouchCore
import TouchExport
import TouchIO
import TouchReports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an export's header says of where its values come from, and the writing of its files.
enum ExportProvenance {
  /// The SHA-256 of each file (the bytes as read now).
  static func digests(_ files: [String]) throws(TraceLoadError) -> [(file: String, sha256: SHA256.Digest)] {
    var digests: [(file: String, sha256: SHA256.Digest)] = []
    for file in files where file != "-" {
      digests.append((file, SHA256.hash(try TraceFiles.read(file))))
    }
    return digests
  }

  /// `sha256 HEX  FILE`.
  static func line(_ digest: SHA256.Digest, _ file: String) -> String { "sha256 \(digest.hex)  \(file)" }

  /// The lines for a configuration given on the command line (`nil`) or read from a
  /// `touchtrace-configuration` file: who tuned it, on what, and its metrics with intervals.
  ///
  /// `known`: digests already computed (the vectors' data), not read again.
  static func lines(configurationFile file: String?, known: [(file: String, sha256: SHA256.Digest)] = []) throws
    -> [String]
  {
    let tool = "touchtrace \(TouchTraceVersion.current)"
    guard let file else {
      return ["Exported by \(tool) from parameters given on the command line (not tuned by this export)."]
    }
    let bytes = try TraceFiles.read(file)
    var lines = ["Exported by \(tool) from \(file) (sha256 \(SHA256.hash(bytes).hex))."]
    let root = try JSONNode.parse(bytes, file: file)
    guard let tuned = root.member("tuned_on")?.value else { return lines }
    if case .string(let by)? = tuned.member("tool")?.value.kind { lines.append("Tuned by \(by) (`touchtrace tune`).") }
    if case .array(let files)? = tuned.member("files")?.value.kind {
      lines.append("Tuned on:")
      for case .string(let name) in files.map(\.kind) {
        let hash = known.first { $0.file == name }?.sha256 ?? (try? TraceFiles.read(name)).map { SHA256.hash($0) }
        let digest = hash.map { "sha256 \($0.hex)" } ?? "not readable here"
        lines.append("  \(name) (\(digest))")
      }
    }
    if case .string(let objective)? = tuned.member("objective")?.value.member("description")?.value.kind {
      lines.append("Objective: \(objective).")
    }
    if case .array(let intervals)? = tuned.member("intervals")?.value.kind {
      var parts: [String] = []
      for interval in intervals {
        guard case .string(let statistic)? = interval.member("statistic")?.value.kind,
          case .number(let estimate)? = interval.member("estimate")?.value.kind
        else { continue }
        let unit = statistic.contains("latency") ? " s" : ""
        var text = "\(statistic) \(TextFormat.compact(estimate))\(unit)"
        if case .number(let lower)? = interval.member("lower")?.value.kind,
          case .number(let upper)? = interval.member("upper")?.value.kind
        {
          text += " (95% CI \(TextFormat.compact(lower)) – \(TextFormat.compact(upper))\(unit))"
        }
        parts.append(text)
      }
      if !parts.isEmpty { lines.append("All traces (in-sample): " + parts.joined(separator: ", ") + ".") }
    } else if case .object(let metrics)? = tuned.member("all_traces")?.value.kind {
      let parts = metrics.compactMap { member -> String? in
        guard ["f1", "precision", "recall", "fpr", "latency_p50", "latency_p90"].contains(member.key),
          case .number(let value) = member.value.kind
        else { return nil }
        return "\(member.key) \(TextFormat.compact(value))\(member.key.contains("latency") ? " s" : "")"
      }
      if !parts.isEmpty { lines.append("All traces (in-sample, no bootstrap): " + parts.joined(separator: ", ") + ".") }
    }
    if let cv = tuned.member("cross_validation")?.value, case .array(let heldOut)? = cv.member("held_out")?.value.kind {
      var parts: [String] = []
      for summary in heldOut {
        guard case .string(let statistic)? = summary.member("statistic")?.value.kind,
          case .number(let mean)? = summary.member("mean")?.value.kind
        else { continue }
        let unit = statistic.contains("latency") ? " s" : ""
        var text = "\(statistic) \(TextFormat.compact(mean))"
        if case .number(let sd)? = summary.member("sd")?.value.kind { text += " ± \(TextFormat.compact(sd))" }
        text += unit
        parts.append(text)
      }
      var folds = ""
      if case .number(let count)? = cv.member("folds")?.value.kind { folds = "\(Int(count)) folds" }
      if case .string(let by)? = cv.member("by")?.value.kind { folds += folds.isEmpty ? "by \(by)" : " by \(by)" }
      if !parts.isEmpty {
        lines.append(
          "Cross-validated (\(folds)): held-out " + parts.joined(separator: ", ") + " (mean ± sd over folds).")
      }
    }
    return lines
  }

  /// The lines saying what the conformance vectors hold.
  static func vectorLines(
    files: [(file: String, sha256: SHA256.Digest)], traces: Int, random: Int, seed: UInt64
  ) -> [String] {
    guard traces + random > 0 else { return ["No conformance vectors: no traces were given to export."] }
    var lines = [
      "Conformance vectors (vectors.txt): \(traces) contacts from data, \(random) seeded random (seed \(seed))."
    ]
    if !files.isEmpty {
      lines.append("Data:")
      lines += files.map { "  " + line($0.sha256, $0.file) }
    }
    return lines
  }

  /// The `touchtrace-export` JSON document: the configuration, what the vectors hold, the
  /// provenance and every file with its text.
  static func json(
    _ configuration: ExportConfiguration, languages: [ExportLanguage], files: [ExportFile],
    contacts: (data: Int, random: Int, seed: UInt64)
  ) -> JSONValue {
    .object([
      ("format", "touchtrace-export"), ("version", 1),
      ("recognizer", .string(configuration.recognizerName)),
      ("parameters", .object(configuration.parameters.map { ($0.name, .string($0.value)) })),
      ("type_name", .string(configuration.typeName)),
      ("languages", .array(languages.map { .string($0.rawValue) })),
      (
        "vectors",
        .object([
          ("contacts", .int(contacts.data + contacts.random)), ("from_data", .int(contacts.data)),
          ("random", .int(contacts.random)), ("seed", .string(String(contacts.seed))),
        ])
      ),
      ("provenance", .array(configuration.provenance.map { .string($0) })),
      (
        "files",
        .array(
          files.map { file in
            .object([
              ("path", .string(file.path)), ("role", .string(file.role.rawValue)), ("contents", .string(file.contents)),
            ])
          })
      ),
    ])
  }

  /// Writes `files` under `directory` (created with its subdirectories), never replacing
  /// anything: every target is checked before the first is written, and on any failure what
  /// this call created is removed again. `vectors`, when given, are the conformance vectors
  /// spooled as they were replayed (`Exporter.Vectors.apart`), copied to `vectors.txt`.
  static func write(_ files: [ExportFile], into directory: String, inputs: [String], vectors: ByteSpool? = nil)
    throws(FileWriteError)
  {
    let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    let writer = OutputFiles(inputs: Console.guarded(inputs))
    // What this call made, removed again (newest first) when a later step fails: the export
    // is written whole or not at all.
    var createdDirectories: [String] = []
    var createdFiles: [String] = []
    func makeDirectories(_ path: String) throws(FileWriteError) {
      // Parents first, as `mkdir -p`.
      var prefix = path.hasPrefix("/") ? "/" : ""
      for component in path.split(separator: "/") {
        prefix += component
        if try Console.makeDirectory(prefix) { createdDirectories.append(prefix) }
        prefix += "/"
      }
    }
    do throws(FileWriteError) {
      try makeDirectories(root)
      let paths = files.map(\.path) + (vectors == nil ? [] : [Exporter.vectorsPath])
      for file in paths {
        let path = root + "/" + file
        if let slash = file.lastIndex(of: "/") { try makeDirectories(root + "/" + file[..<slash]) }
        var info = stat()
        if lstat(path, &info) == 0 {
          throw FileWriteError(
            path: path, kind: .refused,
            reason: "it exists, and export replaces nothing; choose a new --output directory")
        }
      }
      for file in files {
        let path = root + "/" + file.path
        try writer.create(path, bytes: Array(file.contents.utf8))
        createdFiles.append(path)
      }
      if let vectors {
        let path = root + "/" + Exporter.vectorsPath
        let stream = try StreamedOutput(path: path, inputs: writer.inputs)
        try vectors.copy(to: stream)
        try writer.create(committing: stream)
        createdFiles.append(path)
      }
    } catch {
      for path in createdFiles.reversed() { unlink(path) }
      for path in createdDirectories.reversed() { rmdir(path) }
      throw error
    }
  }

}
