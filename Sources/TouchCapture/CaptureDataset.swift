import TouchCore
import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A dataset directory a server adds trace files to: opened once (created with its parents when
/// missing, the traces already there read so no session name or trace id repeats theirs), then
/// one new file per trace, `SESSION-NNN.json`, never replacing a file.
struct CaptureDataset: Sendable {
  /// A trace file written.
  struct Written: Sendable, Hashable {
    /// The file's path (the directory joined with the name chosen).
    var path: String
    /// The trace id inside it.
    var id: String
    /// Samples in the trace.
    var samples: Int
    /// Device, inode and content of the file as written, so a later removal takes only that file.
    var device: UInt64
    var inode: UInt64
    var bytes: [UInt8]
  }

  /// Why ``add(_:)`` wrote nothing.
  enum Failure: Error, Sendable {
    /// The trace is invalid (HTTP 400), with the reason.
    case invalid(String)
    /// The file could not be written (HTTP 500), with the reason.
    case failed(String)
  }

  /// The directory.
  let directory: String
  /// The session's name: `base`, with `-runK` when the dataset already has that session.
  let session: String
  private var usedIDs: Set<String>
  private var nextNumber = 1

  /// Opens `directory` (creating it and its parents when missing) and picks the session name.
  ///
  /// - Parameters:
  ///   - directory: the dataset directory.
  ///   - base: the session name wanted; `-run2`, `-run3`, … is added while a trace, a file or a
  ///     session summary (`DIRECTORY/.sessions/SESSION.*`) already uses it.
  /// - Throws: ``CaptureError/dataset(path:reason:)`` when the directory cannot be made, or
  ///   ``CaptureError/unreadableDataset(path:reason:)`` when it holds a file the loader cannot read.
  init(directory: String, base: String) throws(CaptureError) {
    self.directory = directory
    // Parents first (as `mkdir -p`); the last component's error is the one reported.
    var prefix = directory.hasPrefix("/") ? "/" : ""
    for component in directory.split(separator: "/").dropLast() {
      prefix += component + "/"
      _ = mkdir(prefix, 0o777)
    }
    if mkdir(directory, 0o777) != 0 {
      let code = errno
      var info = stat()
      guard code == EEXIST, stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
        throw .dataset(
          path: directory, reason: code == EEXIST ? "it exists and is not a directory" : SystemError.text(code))
      }
    }
    let files = (try? TraceFiles.expand([directory])) ?? []
    var existing = Dataset()
    do {
      if !files.isEmpty { existing = try TraceLoader.load([directory], options: LoadOptions(skipInvalid: true)) }
    } catch {
      throw .unreadableDataset(path: directory, reason: "cannot read the traces already there: \(error.description)")
    }
    var ids = Set(existing.traces.map(\.metadata.id))
    for skip in existing.skipped { ids.insert(skip.trace ?? "") }
    let sessions = Set(existing.traces.compactMap(\.metadata.session))
    let names = Set(files.map { CaptureSession.lastComponent($0) })
    let summaries = CaptureSession.entries(of: CaptureSession.join(directory, ".sessions"))
    var session = base
    var run = 1
    while sessions.contains(session) || ids.contains(where: { $0.hasPrefix(session + "-") })
      || names.contains(where: { $0.hasPrefix(session + "-") })
      || summaries.contains(where: { $0.hasPrefix(session + ".") })
    {
      run += 1
      session = "\(base)-run\(run)"
    }
    self.session = session
    self.usedIDs = ids
  }

  /// Writes the trace `make` gives for the first free id `SESSION-NNN` to `SESSION-NNN.json`.
  ///
  /// - Parameter make: the trace, given its id.
  /// - Returns: the file written and its trace, or why nothing was written.
  mutating func add(_ make: (String) throws(CaptureUploadError) -> Trace) -> Result<(Written, Trace), Failure> {
    var lastError = ""
    for _ in 0..<1000 {
      let id = "\(session)-\(CaptureSession.padded(nextNumber))"
      nextNumber += 1
      guard !usedIDs.contains(id) else { continue }
      let trace: Trace
      do {
        trace = try make(id)
      } catch {
        return .failure(.invalid(error.description))
      }
      let path = CaptureSession.join(directory, id + ".json")
      let bytes = JSONTraceWriter.document([trace])
      do {
        try OutputFiles().create(path, bytes: bytes)
      } catch {
        lastError = error.description
        if error.kind == .refused { continue }  // something appeared at that name: never replace it
        return .failure(.failed(error.description))
      }
      usedIDs.insert(id)
      var info = stat()
      _ = stat(path, &info)
      let written = Written(
        path: path, id: id, samples: trace.count, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), bytes: bytes)
      return .success((written, trace))
    }
    return .failure(.failed("no free file name for the trace: \(lastError)"))
  }
}
