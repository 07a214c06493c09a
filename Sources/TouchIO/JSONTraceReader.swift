import TouchCore

// Placeholder until the JSON reader lands; replaced in the JSON change.
struct JSONTraceReader {
  let file: String
  let options: LoadOptions
  func read(_ bytes: [UInt8], lines: Bool) throws(TraceLoadError) -> Dataset {
    throw TraceLoadError(.invalidDocument("JSON reading is not available yet"), file: file)
  }
}
enum JSONTraceWriter {
  static func document(_ traces: [Trace]) -> [UInt8] { [] }
  static func lines(_ traces: [Trace]) -> [UInt8] { [] }
}
