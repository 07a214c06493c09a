public import TouchCore
public import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Trace files for the ingest benchmarks, written once per process from the first traces of the
/// benchmark data with TouchIO's own writer: times rounded to the microsecond and forces to 1e-4
/// (as device logs give them; down where rounding would pass the maximum), `max_force` 20/3, phases began/moved…/ended.
public enum IngestFiles {
  /// The traces written (about 2 M samples; the CSV is about 70 MB).
  public static let traceCount = 10_000

  /// The traces.
  public static func traces(from data: BenchData) -> [Trace] {
    (0..<min(traceCount, data.traces)).map { k in
      let range = data.offsets[k]..<data.offsets[k + 1]
      return Trace(
        metadata: TraceMetadata(id: "trace-\(k)", maxForce: BenchData.maxForce),
        t: data.t[range].map { ($0 * 1e6).rounded() / 1e6 },
        force: data.force[range].map { f in
          let rounded = (Double(f) * 1e4).rounded() / 1e4
          return rounded <= BenchData.maxForce ? rounded : (Double(f) * 1e4).rounded(.down) / 1e4
        })
    }
  }

  /// Writes `traces` in `format` to `directory/ingest.<ext>` (creating the directory) and returns
  /// the path and its size in bytes.
  public static func write(
    _ traces: [Trace], as format: TraceFiles.Format, in directory: String
  ) throws(BenchError) -> (path: String, bytes: Int) {
    mkdir(directory, 0o755)
    let path = "\(directory)/ingest.\(format.rawValue)"
    let bytes = TraceWriter.encode(traces, as: format)
    guard let file = fopen(path, "wb") else { throw BenchError("cannot write \(path)") }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    guard written == bytes.count else { throw BenchError("short write to \(path)") }
    return (path, bytes.count)
  }

  /// A scratch directory under the system's temporary directory, unique to this process.
  public static func scratchDirectory() -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return "\(base)/touchtrace-bench-\(getpid())"
  }

  /// Removes the files `write` made and the directory.
  public static func remove(directory: String) {
    for format in TraceFiles.Format.allCases { unlink("\(directory)/ingest.\(format.rawValue)") }
    rmdir(directory)
  }

  /// Loads `path` with `TraceLoader.load` (the CLI's path: read, parse, validate, build traces);
  /// returns the number of samples loaded.
  public static func load(_ path: String) throws(TraceLoadError) -> Int {
    let dataset = try TraceLoader.load([path])
    return dataset.traces.reduce(0) { $0 + $1.count }
  }
}

/// Force columns for the smoothing benchmarks: one `[Double]` per trace of the in-cache block
/// (150–250 samples each).
public enum SmoothingData {
  /// Gaussian window, samples (about 67 ms at 120 Hz), α = 3.
  public static let gaussianLength = 9
  /// Median window, samples.
  public static let medianLength = 5

  /// The traces' forces.
  public static func traces(from data: BenchData) -> [[Double]] {
    (0..<data.traces).map { k in data.force[data.offsets[k]..<data.offsets[k + 1]].map(Double.init) }
  }
}
