import TouchCore
import TouchEvaluation
import TouchIO
import TouchImport
import TouchRecognizers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The harness bodies: each takes the bytes libFuzzer made and runs one part of the toolkit over
/// them. A thrown error is the expected answer to bad input; a trap (a failed precondition, an
/// overflow, an out-of-range index, a sanitizer report) is a finding. On success each harness
/// checks what it got with ``checkDataset(_:)``, so a reader that returns a trace breaking the
/// model's rules, or one that does not survive writing and reading back, is a finding too.
public enum FuzzTargets {
  /// The CSV trace reader, strict and with `--skip-invalid`.
  public static func csv(_ data: UnsafeRawBufferPointer) {
    for skipInvalid in [false, true] {
      load(data, format: .csv, options: LoadOptions(skipInvalid: skipInvalid))
    }
  }

  /// The JSON document and JSON Lines readers, each strict and with `--skip-invalid`, on the same
  /// bytes.
  public static func json(_ data: UnsafeRawBufferPointer) {
    for format in [TraceFiles.Format.json, .jsonl] {
      for skipInvalid in [false, true] {
        load(data, format: format, options: LoadOptions(skipInvalid: skipInvalid))
      }
    }
  }

  /// The labels file: parsed, then applied to ``labelTargets`` (three traces, `p1`, `p2` and
  /// touch 1 of `p2`), strict and with `--skip-invalid`.
  public static func labels(_ data: UnsafeRawBufferPointer) {
    for skipInvalid in [false, true] {
      let options = LoadOptions(skipInvalid: skipInvalid)
      var bytes = Array(data)
      do {
        let labels = try LabelsFile.parse(&bytes, file: "fuzz-labels.csv", options: options)
        var dataset = labelTargets
        try labels.apply(to: &dataset, options: options)
        checkDataset(dataset)
      } catch {
        render(error)
      }
    }
  }

  /// One importer (`touchtrace import --from FORMAT`), strict and with `--skip-invalid`. Force
  /// arrays are read with a 16 ms interval; evemu recordings without a header get no separate
  /// device description.
  public static func importer(_ data: UnsafeRawBufferPointer, format: ImportFormat) {
    let bytes = Array(data)
    for skipInvalid in [false, true] {
      let options = ImportOptions(skipInvalid: skipInvalid, interval: format == .forceValues ? 0.016 : nil)
      do {
        checkDataset(try TraceImporter.read(bytes, file: "fuzz.\(format)", from: format, options: options))
      } catch {
        render(error)
      }
    }
  }

  /// Decode, then sweep: the bytes as CSV with `--skip-invalid` and `--max-force 20/3`, then
  /// ``sweepPlan`` (one-pass and replayed recognizers, a composition and a timed recognizer, two
  /// thresholds each) over whatever loaded, as `touchtrace sweep` does.
  public static func sweep(_ data: UnsafeRawBufferPointer) {
    var bytes = Array(data)
    let dataset: Dataset
    do {
      dataset = try TraceLoader.read(
        &bytes, file: "fuzz.csv", format: .csv, options: LoadOptions(maxForce: 20.0 / 3.0, skipInvalid: true))
    } catch {
      render(error)
      return
    }
    checkDataset(dataset)
    let evaluation = Evaluation(dataset: dataset)
    do {
      let result = try evaluation.sweep(sweepPlan)
      precondition(result.metrics.count == sweepPlan.configurations.count, "a configuration without metrics")
    } catch {
      render(error)
    }
  }

  /// What ``sweep(_:)`` evaluates: `deep-press` (replayed: it has a release), `deep-press-ps` and
  /// `shunkit` (one pass over a first-crossing threshold), `peek-pop` (two stages),
  /// `tap+deep-press` (require-to-fail) and `long-press` (a timer), with `threshold` at 0.25 and
  /// 0.5 (normalized) and `minimumForce` at 0.25 and 3 (normalized for `deep-press-ps`, force
  /// units for `shunkit`): 13 configurations.
  public static let sweepPlan: SweepPlan = {
    let names = ["deep-press", "deep-press-ps", "shunkit", "peek-pop", "tap+deep-press", "long-press"]
    do {
      return try SweepPlan(
        recognizers: names.map { name throws(SweepPlanError) in try RecognizerSpec(parsing: name) },
        axes: [try SweepAxis(parsing: "threshold=0.25,0.5"), try SweepAxis(parsing: "minimumForce=0.25,3")])
    } catch {
      preconditionFailure("the fuzz sweep plan is invalid: \(error)")
    }
  }()

  /// The traces ``labels(_:)`` applies labels to: `p1` (touch 0), `p2` (touches 0 and 1), each
  /// 0…0.1 s.
  public static let labelTargets: Dataset = {
    var text = Array("trace,touch,t,force,phase\n".utf8)
    for (id, touch) in [("p1", 0), ("p2", 0), ("p2", 1)] {
      text += Array("\(id),\(touch),0,0,began\n\(id),\(touch),0.05,1,moved\n\(id),\(touch),0.1,0,ended\n".utf8)
    }
    do {
      return try TraceLoader.read(&text, file: "fuzz-targets.csv", format: .csv)
    } catch {
      preconditionFailure("the fuzz label targets do not load: \(error)")
    }
  }()

  /// Traps unless every trace of `dataset` is valid by the model's own rules
  /// (`Trace.validate()`), has its columns of equal length, and has an origin.
  public static func checkDataset(_ dataset: Dataset) {
    precondition(dataset.origins.count == dataset.traces.count, "traces and origins differ in number")
    for trace in dataset.traces {
      trace.checkInvariants()
      precondition(trace.force.count == trace.t.count && trace.phase.count == trace.t.count, "columns differ in length")
      if let (sample, problem) = trace.validate() {
        preconditionFailure("a loaded trace '\(trace.name)' is invalid at sample \(sample ?? -1): \(problem)")
      }
    }
    for skipped in dataset.skipped { _ = skipped.description }
    for diagnostic in dataset.diagnostics { _ = "\(diagnostic)" }
    checkRoundTrip(dataset.traces)
  }

  /// Traps unless `traces`, written in each format (`TraceWriter.encode`) and read back strictly,
  /// give back the same traces (the README: reading what TouchTrace writes gives back identical
  /// values). (Empty `user`, `session` or `device` text is no value in the trace model: the
  /// fuzzer found that CSV could not keep it apart from absent; see Fuzz/README.md, findings.)
  public static func checkRoundTrip(_ traces: [Trace]) {
    guard !traces.isEmpty else { return }
    for format in TraceFiles.Format.allCases {
      var bytes = TraceWriter.encode(traces, as: format)
      do {
        let read = try TraceLoader.read(&bytes, file: "round-trip.\(format)", format: format).traces
        if read != traces {
          let k = traces.indices.first { $0 >= read.count || read[$0] != traces[$0] } ?? traces.count
          preconditionFailure(
            "\(format) round trip differs at trace \(k) of \(traces.count) (\(read.count) read back): "
              + "\(k < traces.count ? String(describing: traces[k]) : "-") became "
              + "\(k < read.count ? String(describing: read[k]) : "-")")
        }
      } catch {
        preconditionFailure("\(format) round trip does not load: \(error)")
      }
    }
  }

  /// Loads `data` as one file of `format` and checks the result.
  static func load(_ data: UnsafeRawBufferPointer, format: TraceFiles.Format, options: LoadOptions) {
    var bytes = Array(data)
    do {
      checkDataset(try TraceLoader.read(&bytes, file: "fuzz.\(format)", format: format, options: options))
    } catch {
      render(error)
    }
  }

  /// `TraceStream` against a whole read: the bytes are written to a file (`.csv`, `.jsonl`,
  /// then `.json`) and streamed in chunks of 16 bytes, one trace per batch, strict and with
  /// `--skip-invalid`; the batches must add up to what `TraceLoader.read` gives for the same
  /// bytes in one buffer, or the stream must throw the same error. A difference traps.
  public static func stream(_ data: UnsafeRawBufferPointer) {
    for format in [TraceFiles.Format.csv, .jsonl, .json] {
      let path = streamDirectory + "/input." + format.rawValue
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      precondition(fd >= 0, "cannot create \(path)")
      precondition(data.isEmpty || write(fd, data.baseAddress, data.count) == data.count, "cannot write \(path)")
      close(fd)
      for skipInvalid in [false, true] {
        let options = LoadOptions(skipInvalid: skipInvalid)
        var bytes = Array(data)
        let whole: Result<Dataset, TraceLoadError>
        do throws(TraceLoadError) {
          whole = .success(try TraceLoader.read(&bytes, file: path, format: format, options: options))
        } catch {
          whole = .failure(error)
        }
        let streamed: Result<Dataset, TraceLoadError>
        do throws(TraceLoadError) {
          let stream = try TraceStream([path], options: options, batchTraces: 1, chunkBytes: 16)
          var dataset = Dataset()
          while let batch = try stream.next() { dataset.append(contentsOf: batch) }
          streamed = .success(dataset)
        } catch {
          streamed = .failure(error)
        }
        switch (whole, streamed) {
        case (.success(let a), .success(let b)):
          precondition(a.traces == b.traces && a.origins == b.origins, "streamed traces differ")
          precondition(a.skipped == b.skipped, "streamed skips differ")
          precondition(a.diagnostics == b.diagnostics && a.files == b.files, "streamed diagnostics differ")
          checkDataset(b)
        case (.failure(let a), .failure(let b)):
          precondition(a.description == b.description, "streamed error differs: \(a) / \(b)")
        default:
          preconditionFailure("whole read and stream disagree: \(whole) / \(streamed)")
        }
      }
    }
  }

  /// A directory of this process for the stream harness's file.
  static let streamDirectory: String = {
    var template = Array("/tmp/touchtrace-fuzz-stream-XXXXXX".utf8CString)
    precondition(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) } != nil, "mkdtemp failed")
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }()

  /// Renders an error's message as the command line would, so message formatting is fuzzed too.
  static func render(_ error: any Error) {
    _ = "\(error)"
  }
}
