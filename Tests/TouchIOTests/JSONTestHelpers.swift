import TouchCore
import TouchIO

/// Loads `text` as a JSON document (`data.json`) or JSON Lines (`data.jsonl`) file.
func loadJSON(_ text: String, lines: Bool = false, options: LoadOptions = LoadOptions())
  throws(TraceLoadError) -> Dataset
{
  var bytes = Array(text.utf8)
  return try TraceLoader.read(
    &bytes, file: lines ? "data.jsonl" : "data.json", format: lines ? .jsonl : .json,
    options: options)
}

/// The error loading `text` throws, or `nil` if it loads.
func jsonError(_ text: String, lines: Bool = false, options: LoadOptions = LoadOptions())
  -> TraceLoadError?
{
  do {
    _ = try loadJSON(text, lines: lines, options: options)
    return nil
  } catch {
    return error
  }
}

/// A document whose `traces` array holds `records`, one per line from line 2 on, so record
/// `k` starts at line `k + 2`, column 1.
func document(_ records: String...) -> String {
  "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n" + records.joined(separator: ",\n")
    + "\n]}\n"
}

/// A valid record for filling documents.
let goodRecord = #"{"id":"ok","t":[0,0.1],"force":[1,2]}"#
