public import TouchCore

/// The dataset accounting every report carries: traces total/analyzed/skipped and why.
public enum Accounting {
  /// `{"total": N, "analyzed": A, "skipped": S}`.
  public static func traces(total: Int, analyzed: Int, skipped: Int) -> JSONValue {
    .object([("total", .int(total)), ("analyzed", .int(analyzed)), ("skipped", .int(skipped))])
  }

  /// `[{"trace": "id", "file": "path", "line": L, "column": C, "reason": "..."}]`; `trace`,
  /// `line` and `column` are `null` when unknown.
  public static func skipped(_ skipped: [SkippedTrace]) -> JSONValue {
    .array(
      skipped.map { skip in
        let position = skip.reportedPosition
        var members: [(String, JSONValue)] = [
          ("trace", .string(skip.trace)), ("file", .string(skip.origin.file)),
          ("line", .int(position?.line)), ("column", .int(position?.column)),
        ]
        if let record = skip.origin.record { members.append(("record", .int(record))) }
        members.append(("reason", .string(skip.reason)))
        return .object(members)
      })
  }

  /// Diagnostics as `[{"severity": "warning", "file": ..., "line": ..., "column": ..., "message": ...}]`.
  public static func diagnostics(_ diagnostics: [Diagnostic]) -> JSONValue {
    .array(
      diagnostics.map {
        .object([
          ("severity", .string($0.severity.rawValue)), ("file", .string($0.file)),
          ("line", .int($0.position?.line)), ("column", .int($0.position?.column)),
          ("message", .string($0.message)),
        ])
      })
  }

  /// One line per skipped trace: `path:line:col: warning: skipped trace 'id': reason`.
  public static func text(_ skipped: [SkippedTrace]) -> String {
    skipped.map { $0.description + "\n" }.joined()
  }
}
