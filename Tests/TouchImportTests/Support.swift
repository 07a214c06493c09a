import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchImport

/// Imports inline text as if it were the file `name`.
func importText(
  _ text: String, as format: ImportFormat, name: String = "fixture.txt", options: ImportOptions = ImportOptions()
) throws(TraceLoadError) -> Dataset {
  try TraceImporter.read(Array(text.utf8), file: name, from: format, options: options)
}

/// The error importing `text` throws, or `nil`.
func importError(
  _ text: String, as format: ImportFormat, name: String = "fixture.txt", options: ImportOptions = ImportOptions()
) -> TraceLoadError? {
  do {
    _ = try importText(text, as: format, name: name, options: options)
    return nil
  } catch {
    return error
  }
}

/// `text` with its line `number` (from 1) replaced by `line`.
func replacingLine(_ number: Int, of text: String, with line: String) -> String {
  var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  lines[number - 1] = line
  return lines.joined(separator: "\n")
}

extension Dataset {
  /// The largest force over all traces.
  var maxForceSeen: Double { traces.flatMap(\.force).max() ?? -1 }
  /// The smallest force over all traces.
  var minForceSeen: Double { traces.flatMap(\.force).min() ?? -1 }

  /// Groups of traces whose spans overlap (touch sequences: from no contact to one or more and
  /// back), and the most traces down at once.
  var touchSequences: (count: Int, maxSimultaneous: Int) {
    let spans = traces.map { ($0.t.first!, $0.t.last!) }.sorted { $0.0 < $1.0 }
    var count = 0
    var end = -Double.infinity
    for span in spans {
      if span.0 > end { count += 1 }
      end = Swift.max(end, span.1)
    }
    var events: [(Double, Int)] = []
    for span in spans {
      events.append((span.0, 1))
      events.append((span.1, -1))
    }
    // At equal times a lift comes before a touch-down (a frame ends one contact, the next starts one).
    events.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    var down = 0
    var most = 0
    for event in events {
      down += event.1
      most = Swift.max(most, down)
    }
    return (count, most)
  }
}
