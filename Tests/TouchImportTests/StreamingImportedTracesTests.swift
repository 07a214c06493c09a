import Testing
import TouchCore
import TouchIO
import TouchImport
import TouchTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Real recordings (Android getevent logs, evemu touchpad recordings), imported and written as
/// trace files, read back by `TraceStream` in tiny batches and chunks: the batches add up to a
/// whole read of each file (one buffer, `TraceLoader.read`).
@Suite struct StreamingImportedTracesTests {
  @Test(arguments: [("android-getevent/Phone", ImportFormat.getevent), ("evemu-devices/touchpads", .evemu)])
  func importedRecordingsStreamLikeWholeReads(directory: String, format: ImportFormat) throws {
    guard TestData.hasRealData else { return }
    let imported = try TraceImporter.load([TestData.realData + "/" + directory], from: format).traces
    #expect(imported.count > 20)
    var template = Array("/tmp/touchtrace-stream-import-XXXXXX".utf8CString)
    #expect(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) } != nil)
    let folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    for fileFormat in [TraceFiles.Format.csv, .jsonl, .json] {
      let path = folder + "/imported." + fileFormat.rawValue
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      try #require(fd >= 0)
      let bytes = TraceWriter.encode(imported, as: fileFormat)
      #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
      close(fd)
      var whole = try TraceFiles.read(path)
      let reference = try TraceLoader.read(&whole, file: path, format: fileFormat)
      #expect(reference.traces.count == imported.count)
      for (batch, chunk) in [(1, 16), (5, 333), (2048, 4 << 20)] {
        let stream = try TraceStream([path], batchTraces: batch, chunkBytes: chunk)
        var dataset = Dataset()
        while let part = try stream.next() { dataset.append(contentsOf: part) }
        #expect(dataset.traces == reference.traces, "\(fileFormat) \(batch) \(chunk)")
        #expect(dataset.origins == reference.origins)
        #expect(dataset.skipped == reference.skipped)
        #expect(dataset.diagnostics == reference.diagnostics)
        #expect(dataset.files == reference.files)
      }
    }
  }
}
