import Testing
import TouchCore
import TouchIO

/// One invalid trace record and the exact error it must produce when it is record 1 (line 3)
/// of a document. Columns were counted by hand.
struct InvalidRecord: Sendable, CustomTestStringConvertible {
  var record: String
  var expected: String
  var field: String?

  init(_ record: String, _ expected: String, field: String?) {
    self.record = record
    self.expected = expected
    self.field = field
  }

  var testDescription: String { expected }
}

@Suite("JSON loading")
struct JSONLoadingTests {
  // MARK: Reading values

  @Test func readsEveryFieldOfATraceObject() throws {
    let text = document(
      #"{"id":"rec-1","touch":2,"intent":"pop","press_at":[0.05,0.1],"user":"u1","session":"s\"1","device":"iPhone 6s","max_force":6.666666666666667,"time_synthesized":true,"t":[0,0.016666666666666666,0.1,0.11666666666666667],"force":[0,1.5,6.5,0],"phase":["began","moved","stationary","cancelled"],"x":[-0.0,1e-05,2.5,-3],"y":[10,20,30,40],"radius":[0.5,0.5,1,1]}"#
    )
    let dataset = try loadJSON(text)
    let expected = Trace(
      metadata: TraceMetadata(
        id: "rec-1", touch: 2, intent: .pop, pressAt: [0.05, 0.1], user: "u1", session: "s\"1",
        device: "iPhone 6s", maxForce: 20.0 / 3.0, timeSynthesized: true),
      t: [0, 1.0 / 60.0, 0.1, 7.0 / 60.0], force: [0, 1.5, 6.5, 0],
      phase: [.began, .moved, .stationary, .cancelled], x: [-0.0, 0.00001, 2.5, -3],
      y: [10, 20, 30, 40], radius: [0.5, 0.5, 1, 1])
    #expect(dataset.traces == [expected])
    #expect(dataset.traces[0].x?[0].sign == .minus)
    #expect(dataset.origins == [TraceOrigin(file: "data.json", position: TextPosition(line: 2, column: 1), record: 0)])
    #expect(dataset.skipped.isEmpty)
    #expect(dataset.diagnostics.isEmpty)
    #expect(dataset.files == ["data.json"])
  }

  @Test func optionalKeysDefaultAndMissingPhasesFollowTheDefaultSequence() throws {
    let dataset = try loadJSON(document(#"{"force":[1,2,3],"t":[0,1,2],"id":"p"}"#))
    let trace = try #require(dataset.traces.first)
    #expect(trace.metadata == TraceMetadata(id: "p"))
    #expect(trace.phase == [.began, .moved, .ended])
    #expect(trace.x == nil && trace.y == nil && trace.radius == nil)
  }

  @Test func nullMeansAbsentForOptionalKeys() throws {
    let dataset = try loadJSON(
      document(
        #"{"id":"p","intent":null,"press_at":null,"user":null,"session":null,"device":null,"max_force":null,"time_synthesized":null,"t":[0],"force":[1],"phase":null,"x":null,"y":null,"radius":null}"#
      ))
    #expect(dataset.traces == [Trace(metadata: TraceMetadata(id: "p"), t: [0], force: [1])])
  }

  @Test func keysMayComeInAnyOrderAtEveryLevel() throws {
    let text = #"{"traces":[{"t":[0,1],"id":"late","force":[1,2]}],"version":1,"format":"touchtrace"}"#
    let dataset = try loadJSON(text)
    #expect(dataset.traces.map(\.name) == ["late"])
    #expect(dataset.origins[0].position == TextPosition(line: 1, column: 12))
  }

  @Test func stringEscapesAreDecoded() throws {
    let text = document(
      #"{"id":"a\"b\\c\/d\n\t\u00e9\ud83d\ude00\u0000","user":"\b\f\r","t":[0],"force":[1]}"#)
    let trace = try #require(try loadJSON(text).traces.first)
    #expect(trace.metadata.id == "a\"b\\c/d\n\té😀\u{0}")
    #expect(trace.metadata.user == "\u{8}\u{C}\r")
  }

  @Test func maxForceOptionAppliesOnlyWhereTheTraceHasNone() throws {
    let text = document(
      #"{"id":"own","max_force":5,"t":[0],"force":[3]}"#, #"{"id":"none","t":[0],"force":[1]}"#)
    let withOption = try loadJSON(text, options: LoadOptions(maxForce: 2))
    #expect(withOption.traces.map(\.metadata.maxForce) == [5, 2])
    let without = try loadJSON(text)
    #expect(without.traces.map(\.metadata.maxForce) == [5, nil])

    let error = jsonError(document(#"{"id":"p","t":[0],"force":[3]}"#), options: LoadOptions(maxForce: 2))
    #expect(
      error?.description
        == "data.json:2:28: error: force 3.0 is above max_force 2.0 (record 0, trace 'p', field 'force')")
  }

  @Test func emptyTracesArrayGivesAnEmptyDataset() throws {
    let dataset = try loadJSON(#"{"format":"touchtrace","version":1,"traces":[ ]}"#)
    #expect(dataset.total == 0)
    #expect(dataset.files == ["data.json"])
  }

  @Test func unknownKeysGiveOneWarningPerFile() throws {
    let text = """
      {"format":"touchtrace","comment":"made by hand","version":1,"traces":[
      {"id":"a","t":[0],"force":[1],"foo":{"nested":[1,2]}},
      {"id":"b","bar":true,"t":[0],"force":[1],"foo":3}
      ]}
      """
    let dataset = try loadJSON(text)
    #expect(dataset.traces.count == 2)
    #expect(
      dataset.diagnostics.map(\.description) == [
        "data.json:1:24: warning: ignoring unknown keys 'comment', 'foo', 'bar'"
      ])
  }

  @Test func unknownKeyWarningInJSONLines() throws {
    let dataset = try loadJSON(#"{"id":"a","t":[0],"force":[1],"note":"x"}"#, lines: true)
    #expect(dataset.diagnostics.map(\.description) == ["data.jsonl:1:31: warning: ignoring unknown key 'note'"])
  }

  // MARK: Validation: every rule, with the exact line, column, record and field

  static let invalidRecords: [InvalidRecord] = [
    InvalidRecord(
      #"{"t":[0],"force":[1]}"#, "data.json:3:1: error: missing required key 'id' (record 1)", field: "id"),
    InvalidRecord(
      #"{"id":"p","force":[1]}"#, "data.json:3:1: error: missing required key 't' (record 1, trace 'p')",
      field: "t"),
    InvalidRecord(
      #"{"id":"p","t":[0]}"#, "data.json:3:1: error: missing required key 'force' (record 1, trace 'p')",
      field: "force"),
    InvalidRecord(
      #"{"id":"","t":[0],"force":[1]}"#, "data.json:3:7: error: missing value for 'id' (record 1)", field: "id"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1]}"#,
      "data.json:3:29: error: 'force' has 1 value but 't' has 2 (record 1, trace 'p')", field: "force"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,1],"phase":["began"]}"#,
      "data.json:3:43: error: 'phase' has 1 value but 't' has 2 (record 1, trace 'p')", field: "phase"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,1],"x":[1,2,3]}"#,
      "data.json:3:39: error: 'x' has 3 values but 't' has 2 (record 1, trace 'p')", field: "x"),
    InvalidRecord(
      #"{"id":"p","t":"0,1","force":[1]}"#,
      #"data.json:3:15: error: 't' must be an array of numbers, found a string: "0,1" (record 1, trace 'p')"#,
      field: "t"),
    InvalidRecord(
      #"{"id":"p","t":null,"force":[1]}"#,
      #"data.json:3:15: error: 't' must be an array of numbers, found null (record 1, trace 'p')"#,
      field: "t"),
    InvalidRecord(
      #"{"id":5,"t":[0],"force":[1]}"#,
      "data.json:3:7: error: 'id' must be a string, found a number: 5 (record 1)", field: "id"),
    InvalidRecord(
      #"{"id":"p","user":["a"],"t":[0],"force":[1]}"#,
      #"data.json:3:18: error: 'user' must be a string, found an array: ["a"] (record 1, trace 'p')"#,
      field: "user"),
    InvalidRecord(
      #"{"id":"p","time_synthesized":"yes","t":[0],"force":[1]}"#,
      #"data.json:3:30: error: 'time_synthesized' must be true or false, found a string: "yes" (record 1, trace 'p')"#,
      field: "time_synthesized"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,"abc"]}"#,
      #"data.json:3:32: error: 'force' is not a number: '"abc"' (record 1, trace 'p')"#, field: "force"),
    InvalidRecord(
      #"{"id":"p","t":[0,null],"force":[1,1]}"#,
      "data.json:3:18: error: 't' is not a number: 'null' (record 1, trace 'p')", field: "t"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,NaN]}"#,
      "data.json:3:32: error: invalid JSON: 'NaN' is not a JSON value; JSON has no NaN or infinity (write a finite number) (record 1, trace 'p', field 'force')",
      field: "force"),
    InvalidRecord(
      #"{"id":"p","t":[0,-Infinity],"force":[1,1]}"#,
      "data.json:3:18: error: invalid JSON: '-Infinity' is not a JSON value; JSON has no NaN or infinity (write a finite number) (record 1, trace 'p', field 't')",
      field: "t"),
    InvalidRecord(
      #"{"id":"p","t":[0,1e400],"force":[1,1]}"#,
      "data.json:3:18: error: 't' is infinite: '1e400' (record 1, trace 'p')", field: "t"),
    InvalidRecord(
      #"{"id":"p","t":[0],"force":[1],"x":[-1e999]}"#,
      "data.json:3:36: error: 'x' is infinite: '-1e999' (record 1, trace 'p')", field: "x"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,-0.5]}"#,
      "data.json:3:32: error: negative force -0.5 (record 1, trace 'p', field 'force')", field: "force"),
    InvalidRecord(
      #"{"id":"p","max_force":2,"t":[0,1],"force":[1,2.5]}"#,
      "data.json:3:46: error: force 2.5 is above max_force 2.0 (record 1, trace 'p', field 'force')",
      field: "force"),
    InvalidRecord(
      #"{"id":"p","max_force":0,"t":[0],"force":[0]}"#,
      "data.json:3:23: error: max_force must be positive, got 0.0 (record 1, trace 'p', field 'max_force')",
      field: "max_force"),
    InvalidRecord(
      #"{"id":"p","t":[0,0.2,0.1],"force":[1,1,1]}"#,
      "data.json:3:22: error: t decreases from 0.2 s to 0.1 s (record 1, trace 'p', field 't')", field: "t"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,1],"phase":["moved","ended"]}"#,
      "data.json:3:44: error: first sample has phase 'moved'; a trace starts with 'began' (record 1, trace 'p', field 'phase')",
      field: "phase"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,1],"phase":["began","began"]}"#,
      "data.json:3:52: error: phase 'began' at sample 2; only the first sample of a trace may be 'began' (record 1, trace 'p', field 'phase')",
      field: "phase"),
    InvalidRecord(
      #"{"id":"p","t":[0,1,2],"force":[1,1,1],"phase":["began","ended","moved"]}"#,
      "data.json:3:64: error: sample after the 'ended' sample that closed the trace (record 1, trace 'p', field 'phase')",
      field: "phase"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,1],"phase":["began","lifted"]}"#,
      "data.json:3:52: error: unknown phase 'lifted' (expected one of began, moved, stationary, ended, cancelled) (record 1, trace 'p', field 'phase')",
      field: "phase"),
    InvalidRecord(
      #"{"id":"p","t":[0],"force":[1],"phase":[0]}"#,
      "data.json:3:40: error: unknown phase '0' (expected one of began, moved, stationary, ended, cancelled) (record 1, trace 'p', field 'phase')",
      field: "phase"),
    InvalidRecord(
      #"{"id":"p","intent":"tapp","t":[0],"force":[1]}"#,
      "data.json:3:20: error: unknown intent 'tapp' (expected one of tap, press, pop, hold, drag, none) (record 1, trace 'p', field 'intent')",
      field: "intent"),
    InvalidRecord(
      #"{"id":"p","intent":3,"t":[0],"force":[1]}"#,
      "data.json:3:20: error: unknown intent '3' (expected one of tap, press, pop, hold, drag, none) (record 1, trace 'p', field 'intent')",
      field: "intent"),
    InvalidRecord(
      #"{"id":"p","touch":-1,"t":[0],"force":[1]}"#,
      "data.json:3:19: error: 'touch' must be a non-negative integer, got '-1' (record 1, trace 'p')",
      field: "touch"),
    InvalidRecord(
      #"{"id":"p","touch":1.5,"t":[0],"force":[1]}"#,
      "data.json:3:19: error: 'touch' must be a non-negative integer, got '1.5' (record 1, trace 'p')",
      field: "touch"),
    InvalidRecord(
      #"{"id":"p","touch":"1","t":[0],"force":[1]}"#,
      #"data.json:3:19: error: 'touch' must be a non-negative integer, got '"1"' (record 1, trace 'p')"#,
      field: "touch"),
    InvalidRecord(
      #"{"id":"p","t":[],"force":[]}"#,
      "data.json:3:15: error: trace has no samples (record 1, trace 'p', field 't')", field: "t"),
    InvalidRecord(
      #"{"id":"p","t":[0,1],"force":[1,1],"radius":[1,-1]}"#,
      "data.json:3:47: error: negative radius -1.0 (record 1, trace 'p', field 'radius')", field: "radius"),
    InvalidRecord(
      #"{"id":"p","press_at":[0.5,0.5],"t":[0,1],"force":[1,1]}"#,
      "data.json:3:27: error: press_at times must be strictly increasing (record 1, trace 'p', field 'press_at')",
      field: "press_at"),
    InvalidRecord(
      #"{"id":"p","press_at":[2],"t":[0,1],"force":[1,1]}"#,
      "data.json:3:23: error: press_at 2.0 s lies outside the trace (0.0 s to 1.0 s) (record 1, trace 'p', field 'press_at')",
      field: "press_at"),
    InvalidRecord(
      #"{"id":"p","t":[0],"t":[0],"force":[1]}"#,
      "data.json:3:19: error: key 't' appears twice in one trace object (record 1, trace 'p')", field: "t"),
    InvalidRecord(
      "42", "data.json:3:1: error: a trace must be a JSON object, found a number: 42 (record 1)", field: nil),
    // The id may follow the problem; the error still names the trace.
    InvalidRecord(
      #"{"t":[0,1],"force":[1,-1],"id":"late"}"#,
      "data.json:3:23: error: negative force -1.0 (record 1, trace 'late', field 'force')", field: "force"),
    InvalidRecord(
      #"{"id":"p","touch":2,"t":[0,1],"force":[1,-1]}"#,
      "data.json:3:42: error: negative force -1.0 (record 1, trace 'p#2', field 'force')", field: "force"),
  ]

  @Test(arguments: invalidRecords)
  func strictLoadingStopsAtTheInvalidRecord(_ invalid: InvalidRecord) throws {
    let error = try #require(jsonError(document(goodRecord, invalid.record)))
    #expect(error.description == invalid.expected)
    #expect(error.record == 1)
    #expect(error.field == invalid.field)
    #expect(error.file == "data.json")
  }

  @Test(arguments: invalidRecords)
  func skipInvalidSkipsTheRecordAndAccountsForIt(_ invalid: InvalidRecord) throws {
    let text = document(goodRecord, invalid.record, #"{"id":"ok2","t":[0,0.1],"force":[1,2]}"#)
    let strict = try #require(jsonError(text))
    let dataset = try loadJSON(text, options: LoadOptions(skipInvalid: true))
    #expect(dataset.traces.map(\.name) == ["ok", "ok2"])
    #expect(dataset.origins.map(\.record) == [0, 2])
    #expect(dataset.total == 3)
    let skip = try #require(dataset.skipped.first)
    #expect(dataset.skipped.count == 1)
    #expect(skip.trace == strict.trace)
    #expect(skip.origin == TraceOrigin(file: "data.json", position: TextPosition(line: 3, column: 1), record: 1))
    #expect(skip.reportedPosition == strict.position)
    // The reason is the strict message without the record and trace, which the skip carries.
    let reason = TraceLoadError(strict.reason, file: "data.json", field: strict.field).message
    #expect(skip.reason == reason)
    #expect(strict.message.hasPrefix(String(reason.prefix { $0 != "(" })))
  }

  @Test func samplePositionsPointAtTheElementAcrossLines() throws {
    let text = """
      {
        "format": "touchtrace",
        "version": 1,
        "traces": [
          {
            "id": "é😀",
            "t": [0.0,
                  0.1,   0.05],
            "force": [1, 2, 3]
          }
        ]
      }
      """
    let error = try #require(jsonError(text))
    #expect(
      error.description
        == "data.json:8:20: error: t decreases from 0.1 s to 0.05 s (record 0, trace 'é😀', field 't')")
    let skipped = try loadJSON(text, options: LoadOptions(skipInvalid: true))
    #expect(skipped.skipped.first?.origin.position == TextPosition(line: 5, column: 5))
  }

  @Test func columnsCountUnicodeScalarsNotBytes() throws {
    let error = try #require(jsonError(#"{"id":"é😀","t":[0,1],"force":[1,-1]}"#, lines: true))
    #expect(
      error.description == "data.jsonl:1:33: error: negative force -1.0 (record 0, trace 'é😀', field 'force')")
  }

  // MARK: Syntax errors

  static let syntaxErrors: [(text: String, expected: String)] = [
    (
      "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n{\"id\":\"p",
      "data.json:2:7: error: invalid JSON: unterminated string (record 0, field 'id')"
    ),
    (
      "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n{\"id\":\"p\n\"}]}",
      #"data.json:2:7: error: invalid JSON: unterminated string (a line break inside a string must be written \n) (record 0, field 'id')"#
    ),
    (
      document(#"{"id":"a\qb","t":[0],"force":[1]}"#),
      #"data.json:2:9: error: invalid JSON: invalid escape '\q' in string (valid escapes: \" \\ \/ \b \f \n \r \t \uXXXX) (record 0, field 'id')"#
    ),
    (
      document(#"{"id":"é😀\q"}"#),
      #"data.json:2:10: error: invalid JSON: invalid escape '\q' in string (valid escapes: \" \\ \/ \b \f \n \r \t \uXXXX) (record 0, field 'id')"#
    ),
    (
      document(#"{"id":"\u12G4"}"#),
      #"data.json:2:8: error: invalid JSON: invalid \u escape: expected four hexadecimal digits (record 0, field 'id')"#
    ),
    (
      document(#"{"id":"\uD83D x"}"#),
      #"data.json:2:8: error: invalid JSON: unpaired surrogate \uD83D in string (record 0, field 'id')"#
    ),
    (
      document(#"{"id":"\uDE00"}"#),
      #"data.json:2:8: error: invalid JSON: unpaired surrogate \uDE00 in string (record 0, field 'id')"#
    ),
    (
      document("{\"id\":\"a\tb\"}"),
      "data.json:2:9: error: invalid JSON: control character U+0009 in a string must be escaped (record 0, field 'id')"
    ),
    (
      document(#"{"id":"p","t":[0,1,],"force":[1,1]}"#),
      "data.json:2:19: error: invalid JSON: trailing comma before ']' (record 0, trace 'p', field 't')"
    ),
    (
      document(#"{"id":"p","t":[0],"force":[1],}"#),
      "data.json:2:30: error: invalid JSON: trailing comma before '}' (record 0, trace 'p')"
    ),
    (
      document(goodRecord + ","),
      "data.json:2:38: error: invalid JSON: trailing comma before ']'"
    ),
    (
      "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n{\"id\":\"p\",\"t\":[0,",
      "data.json:2:18: error: invalid JSON: expected a value, found the end of the input (record 0, trace 'p', field 't')"
    ),
    (
      "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n" + goodRecord,
      "data.json:2:38: error: invalid JSON: expected ',' or ']', found the end of the input"
    ),
    (
      document(goodRecord + "\n" + goodRecord),
      "data.json:3:1: error: invalid JSON: expected ',' or ']', found '{'"
    ),
    (
      document(#"{"id":"p",/* note */"t":[0],"force":[1]}"#),
      "data.json:2:11: error: invalid JSON: comments are not allowed in JSON (record 0, trace 'p')"
    ),
    (
      document(#"{"id":'p'}"#),
      "data.json:2:7: error: invalid JSON: strings must be in double quotes (record 0, field 'id')"
    ),
    (
      document(#"{"id" "p"}"#),
      #"data.json:2:7: error: invalid JSON: expected ':' after the key, found '"' (record 0)"#
    ),
    (
      document(#"{id:"p"}"#),
      "data.json:2:2: error: invalid JSON: expected a key in double quotes, found 'i' (record 0)"
    ),
    (
      document(#"{"id":"p","time_synthesized":True}"#),
      "data.json:2:30: error: invalid JSON: unexpected word 'True'; expected a value (record 0, trace 'p', field 'time_synthesized')"
    ),
    (
      #"{"format":"touchtrace","version":1,"traces":[]} x"#,
      "data.json:1:49: error: invalid JSON: unexpected 'x' after the end of the document"
    ),
    (
      "",
      #"data.json:1:1: error: invalid JSON: the file is empty; expected a TouchTrace document {"format": "touchtrace", ...}"#
    ),
    (
      "\n  \n",
      #"data.json:3:1: error: invalid JSON: the file is empty; expected a TouchTrace document {"format": "touchtrace", ...}"#
    ),
  ]

  /// Numbers JSON does not allow, as the first sample time, with the explanation some get.
  static let malformedNumbers: [(text: String, expected: String)] = [
    ("01", " (JSON numbers have no leading zeros)"), ("1.", " (a digit must follow the decimal point)"), (".5", ""),
    ("+1", ""), ("0x10", ""),
  ].map { number, explanation in
    (
      document(#"{"id":"p","t":["# + number + #"],"force":[1]}"#),
      "data.json:2:16: error: invalid JSON: malformed number '\(number)'\(explanation) (record 0, trace 'p', field 't')"
    )
  }

  @Test(arguments: syntaxErrors + malformedNumbers)
  func syntaxErrorsThrowWithPositionEvenWhenSkipping(_ text: String, _ expected: String) throws {
    let strict = try #require(jsonError(text))
    #expect(strict.description == expected)
    if case .invalidJSON = strict.reason {} else { Issue.record("reason is \(strict.reason)") }
    let skipping = try #require(jsonError(text, options: LoadOptions(skipInvalid: true)))
    #expect(skipping.description == expected)
  }

  @Test func strictModeReportsTheFirstProblemEvenBeforeASyntaxError() throws {
    let text = document(#"{"id":"p","t":[0,1],"force":[1,"a"],"x":[1,}"#)
    let strict = try #require(jsonError(text))
    #expect(strict.description == #"data.json:2:32: error: 'force' is not a number: '"a"' (record 0, trace 'p')"#)
    // Skipping cannot read past the syntax error, which stops loading.
    let skipping = try #require(jsonError(text, options: LoadOptions(skipInvalid: true)))
    #expect(
      skipping.description
        == "data.json:2:44: error: invalid JSON: expected a value, found '}' (record 0, trace 'p', field 'x')")
  }

  @Test func invalidUTF8InAStringIsASyntaxError() throws {
    var bytes = Array(document(#"{"id":"ab","t":[0],"force":[1]}"#).utf8)
    let k = try #require(bytes.firstIndex(of: UInt8(ascii: "b")))
    bytes[k] = 0xFF
    let error = #expect(throws: TraceLoadError.self) {
      try TraceLoader.read(&bytes, file: "data.json", format: .json)
    }
    #expect(
      error?.description
        == "data.json:2:9: error: invalid JSON: invalid UTF-8 byte 0xFF in string (record 0, field 'id')")
  }

  // MARK: Document-level problems

  static let documentErrors: [(text: String, expected: String)] = [
    (
      #"[{"id":"p","t":[0],"force":[1]}]"#,
      #"data.json:1:1: error: expected a TouchTrace document {"format": "touchtrace", "version": 1, "traces": [...]}, found an array (for one trace object per line, use a .jsonl file)"#
    ),
    (
      #"{"format":"other","version":1,"traces":[]}"#,
      #"data.json:1:11: error: 'format' is "other"; expected "touchtrace""#
    ),
    (
      #"{"format":1,"version":1,"traces":[]}"#,
      #"data.json:1:11: error: 'format' must be the string "touchtrace", found a number: 1"#
    ),
    (
      #"{"format":"touchtrace","version":2,"traces":[]}"#,
      "data.json:1:34: error: unsupported version 2; this reader supports version 1"
    ),
    (
      #"{"format":"touchtrace","version":"1","traces":[]}"#,
      #"data.json:1:34: error: 'version' must be a number, found a string: "1""#
    ),
    (
      #"{"version":1,"traces":[]}"#,
      #"data.json:1:1: error: missing key 'format'; a TouchTrace document is {"format": "touchtrace", "version": 1, "traces": [...]}"#
    ),
    (
      #"{"format":"touchtrace","traces":[]}"#,
      #"data.json:1:1: error: missing key 'version'; a TouchTrace document is {"format": "touchtrace", "version": 1, "traces": [...]}"#
    ),
    (
      #"{"format":"touchtrace","version":1}"#,
      #"data.json:1:1: error: missing key 'traces'; a TouchTrace document is {"format": "touchtrace", "version": 1, "traces": [...]}"#
    ),
    (
      #"{"format":"touchtrace","version":1,"traces":{}}"#,
      "data.json:1:45: error: 'traces' must be an array of trace objects, found an object: {}"
    ),
    (
      #"{"format":"touchtrace","format":"touchtrace","version":1,"traces":[]}"#,
      "data.json:1:24: error: key 'format' appears twice"
    ),
    // "format" is checked before any trace, wherever it stands.
    (
      #"{"traces":[{"id":"p","t":[0],"force":[-1]}],"format":"x","version":1}"#,
      #"data.json:1:54: error: 'format' is "x"; expected "touchtrace""#
    ),
  ]

  @Test(arguments: documentErrors)
  func documentProblemsThrowEvenWhenSkipping(_ text: String, _ expected: String) throws {
    let strict = try #require(jsonError(text))
    #expect(strict.description == expected)
    #expect(strict.record == nil)
    let skipping = try #require(jsonError(text, options: LoadOptions(skipInvalid: true)))
    #expect(skipping.description == expected)
  }

  // MARK: JSON Lines

  @Test func jsonLinesReadsOneTracePerLineSkippingBlankLines() throws {
    let text =
      "\u{FEFF}{\"id\":\"a\",\"t\":[0],\"force\":[1]}\r\n\r\n  \t\n"
      + "  {\"id\":\"b\",\"t\":[0,1],\"force\":[1,2]}\r\n{\"id\":\"c\",\"t\":[0],\"force\":[3]}"
    let dataset = try loadJSON(text, lines: true)
    #expect(dataset.traces.map(\.name) == ["a", "b", "c"])
    #expect(
      dataset.origins == [
        TraceOrigin(file: "data.jsonl", position: TextPosition(line: 1, column: 1), record: 0),
        TraceOrigin(file: "data.jsonl", position: TextPosition(line: 4, column: 3), record: 1),
        TraceOrigin(file: "data.jsonl", position: TextPosition(line: 5, column: 1), record: 2),
      ])
  }

  @Test func jsonLinesWithCROnlyLineEndings() throws {
    let text = "{\"id\":\"a\",\"t\":[0],\"force\":[1]}\r{\"id\":\"b\",\"t\":[0],\"force\":[-1]}\r"
    let error = try #require(jsonError(text, lines: true))
    #expect(error.description == "data.jsonl:2:28: error: negative force -1.0 (record 1, trace 'b', field 'force')")
  }

  @Test func emptyJSONLinesFileHasNoTraces() throws {
    #expect(try loadJSON("", lines: true).total == 0)
    #expect(try loadJSON("\n\n", lines: true).total == 0)
  }

  @Test func aRecordBrokenAcrossLinesIsAnError() throws {
    let text = "{\"id\":\"a\",\n\"t\":[0],\"force\":[1]}\n"
    let error = try #require(jsonError(text, lines: true))
    #expect(
      error.description
        == "data.jsonl:1:11: error: invalid JSON: expected a key in double quotes, found the end of the line (in JSON Lines each trace object must be on one line) (record 0, trace 'a')"
    )
  }

  @Test func textAfterTheObjectOnALineIsAnError() throws {
    let text = #"{"id":"a","t":[0],"force":[1]} {"id":"b","t":[0],"force":[1]}"#
    let error = try #require(jsonError(text, lines: true))
    #expect(
      error.description
        == "data.jsonl:1:32: error: invalid JSON: unexpected '{' after the trace object; JSON Lines holds one trace object per line (record 0, trace 'a')"
    )
  }

  @Test func jsonLinesSkipInvalidSkipsBadLinesAndReadsOn() throws {
    let text = """
      {"id":"a","t":[0,1],"force":[1,2]}
      {"id":"b","t":[0,1],"force":[1,2}
      {"id":"c","t":[0,1],"force":[1,-2]}

      {"id":"d","t":[0,1],"force":[1,2]}
      [1,2]
      not json at all
      {"id":"e","t":[0],"force":[1]}
      """
    let strict = try #require(jsonError(text, lines: true))
    #expect(
      strict.description
        == "data.jsonl:2:33: error: invalid JSON: expected ',' or ']', found '}' (record 1, trace 'b', field 'force')")

    let dataset = try loadJSON(text, lines: true, options: LoadOptions(skipInvalid: true))
    #expect(dataset.traces.map(\.name) == ["a", "d", "e"])
    #expect(dataset.origins.map(\.record) == [0, 3, 6])
    #expect(dataset.total == 7)
    #expect(dataset.total == dataset.traces.count + dataset.skipped.count)
    #expect(
      dataset.skipped.map(\.description) == [
        "data.jsonl:2:33: warning: skipped trace 'b': invalid JSON: expected ',' or ']', found '}' (field 'force')",
        "data.jsonl:3:32: warning: skipped trace 'c': negative force -2.0 (field 'force')",
        "data.jsonl:6:1: warning: skipped trace (unnamed): a trace must be a JSON object, found an array: [1,2]",
        "data.jsonl:7:1: warning: skipped trace (unnamed): invalid JSON: unexpected word 'not'; expected a value",
      ])
    #expect(dataset.skipped.map(\.origin.record) == [1, 2, 4, 5])
    #expect(dataset.skipped.map(\.origin.position?.line) == [2, 3, 6, 7])
  }

  @Test func jsonDocumentSkipInvalidAccountsForEveryRecord() throws {
    let text = document(
      #"{"id":"a","t":[0,1],"force":[1,2]}"#,
      #"{"id":"b","t":[0,1],"force":[1,2],"intent":"shove"}"#,
      #"{"id":"c","t":[0,1],"force":[1,2]}"#,
      #"{"id":"d","t":[1,0],"force":[1,2]}"#)
    let dataset = try loadJSON(text, options: LoadOptions(skipInvalid: true))
    #expect(dataset.total == 4)
    #expect(dataset.traces.map(\.name) == ["a", "c"])
    #expect(dataset.skipped.map(\.trace) == ["b", "d"])
    #expect(dataset.skipped.map(\.origin.record) == [1, 3])
    #expect(
      dataset.skipped.map(\.reportedPosition) == [TextPosition(line: 3, column: 44), TextPosition(line: 5, column: 18)])
  }
}
