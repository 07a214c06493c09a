import Testing
import TouchCore
import TouchTestSupport

@testable import TouchIO

/// Loads CSV text as the file `name`.
func loadCSV(_ text: String, file: String = "t.csv", options: LoadOptions = LoadOptions()) throws(TraceLoadError)
  -> Dataset
{
  var bytes = Array(text.utf8)
  return try TraceLoader.read(&bytes, file: file, format: .csv, options: options)
}

/// Expects loading `text` to fail with `reason` at `position`.
@discardableResult
func expectCSVError(
  _ text: String, options: LoadOptions = LoadOptions(), reason: TraceLoadError.Reason, at position: TextPosition,
  sourceLocation: SourceLocation = #_sourceLocation
) -> TraceLoadError? {
  guard let error = csvError(text, options: options, sourceLocation: sourceLocation) else { return nil }
  #expect(error.reason == reason, sourceLocation: sourceLocation)
  #expect(error.position == position, sourceLocation: sourceLocation)
  return error
}

/// A new temporary directory holding `files` (name and contents, written in order); the caller
/// removes it with `TestData.remove`.
func temporaryDirectory(with files: KeyValuePairs<String, String>) -> String {
  let directory = TestData.temporaryDirectory()
  for (name, text) in files { TestData.write(text, to: directory + "/" + name) }
  return directory
}

/// The error loading `text` throws (fails the test if it loads).
func csvError(_ text: String, options: LoadOptions = LoadOptions(), sourceLocation: SourceLocation = #_sourceLocation)
  -> TraceLoadError?
{
  do {
    _ = try loadCSV(text, options: options)
    Issue.record("expected an error", sourceLocation: sourceLocation)
    return nil
  } catch {
    return error
  }
}

@Suite("CSV loading")
struct CSVLoadingTests {
  @Test func readsColumnsMetadataAndDefaultPhases() throws {
    let dataset = try loadCSV(
      """
      trace,t,force,max_force,intent,press_at,user,session,device
      p1,0.0,0,6.666666666666667,press,0.02,u1,s1,iphone6s
      p1,0.016,1.5,6.666666666666667,press,0.02,u1,s1,iphone6s
      p1,0.033,0.5,6.666666666666667,press,0.02,u1,s1,iphone6s
      t1,1.0,0.25,6.666666666666667,tap,,u2,s1,iphone6s

      """)
    #expect(dataset.traces.count == 2)
    #expect(dataset.skipped.isEmpty)
    let p1 = dataset.traces[0]
    #expect(p1.name == "p1")
    #expect(p1.t == [0.0, 0.016, 0.033])
    #expect(p1.force == [0, 1.5, 0.5])
    #expect(p1.phase == [.began, .moved, .ended])
    #expect(p1.metadata.intent == .press)
    #expect(p1.metadata.pressAt == [0.02])
    #expect(p1.metadata.user == "u1")
    #expect(p1.metadata.session == "s1")
    #expect(p1.metadata.device == "iphone6s")
    #expect(p1.metadata.maxForce == 20.0 / 3.0)
    #expect(p1.x == nil && p1.y == nil && p1.radius == nil)
    let t1 = dataset.traces[1]
    #expect(t1.phase == [.began])  // a single sample is touch-down only
    #expect(t1.metadata.pressAt.isEmpty)
    #expect(dataset.origins[1].position == TextPosition(line: 5, column: 1))
  }

  static let scatteredRows = """
    t,trace,touch,force,x,y
    0.00,rec,0,0.1,10,10
    0.00,rec,1,0.2,50,50
    0.01,rec,0,0.3,10,11
    0.01,rec,1,0.4,50,51
    0.00,other,0,1,0,0
    0.02,rec,1,0.5,50,52
    """

  @Test func interleavedRowsAndContactsBecomeSeparateTracesWithWholeFiles() throws {
    let dataset = try loadCSV(Self.scatteredRows, options: LoadOptions(wholeFiles: true))
    #expect(dataset.traces.map(\.name) == ["rec", "rec#1", "other"])
    #expect(dataset.traces[0].force == [0.1, 0.3])
    #expect(dataset.traces[1].force == [0.2, 0.4, 0.5])
    #expect(dataset.traces[1].metadata.id == "rec")
    #expect(dataset.traces[1].metadata.touch == 1)
    #expect(dataset.traces[1].y == [50, 51, 52])
  }

  @Test func rowsOfATraceAfterAnotherTracesRowsAreAnError() throws {
    // Contacts interleave inside the block of `rec` (lines 2–5); line 7 brings `rec` back.
    let error = try #require(csvError(Self.scatteredRows))
    #expect(error.file == "t.csv")
    #expect(error.position == TextPosition(line: 7, column: 6))
    #expect(error.trace == "rec#1")
    #expect(
      error.message
        == "rows of trace 'rec' reappear after other traces' rows (its first rows are lines 2–5); each trace's rows must be together: sort the file by trace, keeping each trace's rows in order (a stable sort): (head -n 1 't.csv'; tail -n +2 't.csv' | sort -s -t ',' -k 2,2) > 't-sorted.csv'; or pass --whole-files (memory then grows with the file) (trace 'rec#1')"
    )
    // Skipping: the later block is one skipped trace (contact 1), the first block is kept.
    let dataset = try loadCSV(Self.scatteredRows, options: LoadOptions(skipInvalid: true))
    #expect(dataset.traces.map(\.name) == ["rec", "rec#1", "other"])
    #expect(dataset.traces[1].force == [0.2, 0.4])
    #expect(dataset.skipped.map(\.trace) == ["rec#1"])
    #expect(dataset.skipped.first?.origin.position == TextPosition(line: 7, column: 1))
    #expect(dataset.skipped.first?.position == TextPosition(line: 7, column: 6))
    #expect(dataset.skipped.first?.reason.hasPrefix("rows of trace 'rec' reappear") == true)
  }

  // MARK: Validation rules, each with its exact position

  @Test func missingRequiredColumn() throws {
    let error = try #require(csvError("trace,t\na,0\n"))
    #expect(error.reason == .missingColumn("force", found: ["trace", "t"]))
    #expect(error.description == "t.csv:1:1: error: missing required column 'force' (found 'trace', 't')")
    // What other programs call the columns: the message says which to rename (issue 31).
    let renamed = try #require(csvError("trace,time,pressure\na,0,0.1\n"))
    #expect(
      renamed.description
        == "t.csv:1:1: error: missing required column 't' (found 'trace', 'time', 'pressure'; rename 'time' to 't'?)")
    let pressure = try #require(csvError("trace,t,Pressure\na,0,0.1\n"))
    #expect(
      pressure.description.hasSuffix(
        "missing required column 'force' (found 'trace', 't', 'Pressure'; rename 'Pressure' to 'force'?)"))
    let labelled = try loadCSV("trace,t,force,label_hand\na,0,0.1,left\n")
    #expect(
      labelled.diagnostics.map(\.message) == [
        "ignoring unknown column 'label_hand' (an extra label's column is named label:NAME: 'label:hand')"
      ])
    let slip = try #require(csvError("trace,t,forse\na,0,0.1\n"))
    #expect(slip.description.hasSuffix("(found 'trace', 't', 'forse'; did you mean 'forse'?)"))
  }

  @Test func emptyRequiredField() throws {
    let error = try #require(csvError("trace,t,force\na,0,1\na,,2\n"))
    #expect(error.description == "t.csv:3:3: error: missing value for 't' (trace 'a')")
  }

  @Test func notANumber() throws {
    let error = try #require(
      expectCSVError(
        "trace,t,force\na,0,1\na,0.1,abc\n",
        reason: .trace(.notANumber(field: "force", text: "abc")), at: TextPosition(line: 3, column: 7)))
    #expect(error.trace == "a")
  }

  @Test(arguments: [
    ("nan", "NaN"), ("NaN", "NaN"), ("inf", "infinite"), ("-Infinity", "infinite"), ("1e999", "infinite"),
  ])
  func nanAndInfinity(text: String, word: String) throws {
    let error = try #require(csvError("trace,t,force\na,0,\(text)\n"))
    #expect(error.message.contains("'force' is \(word)"))
    #expect(error.position == TextPosition(line: 2, column: 5))
  }

  @Test func negativeForce() throws {
    expectCSVError(
      "trace,t,force\na,0,0\na,1,-0.5\n",
      reason: .trace(.negativeForce(-0.5)), at: TextPosition(line: 3, column: 5))
  }

  @Test func forceAboveMaximumBeyondTolerance() throws {
    expectCSVError(
      "trace,t,force,max_force\na,0,0,6\na,1,6.00001,6\n",
      reason: .trace(.forceAboveMaximum(force: 6.00001, maximum: 6)), at: TextPosition(line: 3, column: 5))
    // Within 1e-9 relative: accepted (sensors round; 6 * (1 + 5e-10) is inside the tolerance).
    let ok = try loadCSV("trace,t,force,max_force\na,0,0,6\na,1,6.000000003,6\n")
    #expect(ok.traces.count == 1)
  }

  @Test func maxForceFromOptionAppliesOnlyWithoutColumnValue() throws {
    let error = try #require(csvError("trace,t,force\na,0,7\n", options: LoadOptions(maxForce: 20.0 / 3)))
    #expect(error.reason == .trace(.forceAboveMaximum(force: 7, maximum: 20.0 / 3)))
    let unknown = try loadCSV("trace,t,force\na,0,7\n")
    #expect(unknown.traces[0].metadata.maxForce == nil)
  }

  @Test func timeMayRepeatButNotDecrease() throws {
    #expect(try loadCSV("trace,t,force\na,0.5,1\na,0.5,2\n").traces[0].t == [0.5, 0.5])
    expectCSVError(
      "trace,t,force\na,0.5,1\na,0.4,2\n",
      reason: .trace(.timeDecreasing(previous: 0.5, current: 0.4)), at: TextPosition(line: 3, column: 3))
  }

  @Test func phaseOrder() throws {
    expectCSVError(
      "trace,t,force,phase\na,0,0,began\na,1,1,began\n",
      reason: .trace(.beganNotFirst(sample: 1)), at: TextPosition(line: 3, column: 7))

    expectCSVError(
      "trace,t,force,phase\na,0,0,moved\n",
      reason: .trace(.firstNotBegan(.moved)), at: TextPosition(line: 2, column: 7))

    expectCSVError(
      "trace,t,force,phase\na,0,0,began\na,1,0,ended\na,2,0,moved\n",
      reason: .trace(.sampleAfterEnd(closedBy: .ended)), at: TextPosition(line: 4, column: 7))

    let word = try #require(csvError("trace,t,force,phase\na,0,0,down\n"))
    #expect(word.reason == .trace(.unknownPhase("down")))
    #expect(word.description.hasPrefix("t.csv:2:7: error: unknown phase 'down' (expected one of began, moved"))
  }

  @Test func metadataMustBeConstantInsideATrace() throws {
    expectCSVError(
      "trace,t,force,intent\na,0,0,tap\na,1,1,press\n",
      reason: .trace(.metadataDiffers(field: "intent", first: "tap", now: "press")),
      at: TextPosition(line: 3, column: 7))
    // Numbers spelled differently but equal are the same value.
    let same = try loadCSV("trace,t,force,max_force,press_at\na,0,0,6.5,0.5\na,1,1,6.50,5e-1\n")
    #expect(same.traces[0].metadata.maxForce == 6.5)
  }

  @Test func unknownIntent() throws {
    expectCSVError(
      "trace,t,force,intent\na,0,0,squeeze\n",
      reason: .trace(.unknownIntent("squeeze")), at: TextPosition(line: 2, column: 7))
  }

  @Test func pressAtMustLieInsideTheTraceAndIncrease() throws {
    expectCSVError(
      "trace,t,force,press_at\na,0,0,2\na,1,1,2\n",
      reason: .trace(.pressAtOutsideTrace(time: 2, start: 0, end: 1)), at: TextPosition(line: 2, column: 7))
    let order = try #require(csvError("trace,t,force,press_at\na,0,0,0.5;0.2\na,1,1,0.5;0.2\n"))
    #expect(order.reason == .trace(.pressAtNotIncreasing))
    let two = try loadCSV("trace,t,force,press_at\na,0,0,0.2; 0.5\na,1,1,0.2; 0.5\n")
    #expect(two.traces[0].metadata.pressAt == [0.2, 0.5])
  }

  @Test func fieldCountMustMatchTheHeader() throws {
    expectCSVError(
      "trace,t,force\na,0,1\na,0.1\n",
      reason: .fieldCount(expected: 3, found: 2), at: TextPosition(line: 3, column: 6))
    expectCSVError(
      "trace,t,force\na,0,1,9\n",
      reason: .fieldCount(expected: 3, found: 4), at: TextPosition(line: 2, column: 7))
  }

  @Test func optionalColumnsArePresentOnAllSamplesOrNone() throws {
    expectCSVError(
      "trace,t,force,x\na,0,0,1\na,1,1,\n",
      reason: .trace(.partialColumn("x")), at: TextPosition(line: 3, column: 7))
    let radius = try #require(csvError("trace,t,force,radius\na,0,0,-1\n"))
    #expect(radius.reason == .trace(.negativeRadius(-1)))
  }

  @Test func invalidContactNumber() throws {
    expectCSVError(
      "trace,touch,t,force\na,x,0,0\n",
      reason: .trace(.invalidTouch("x")), at: TextPosition(line: 2, column: 3))
  }

  @Test func quotingErrors() throws {
    expectCSVError("trace,t,force\n\"a,0,1\n", reason: .unterminatedQuote, at: TextPosition(line: 2, column: 1))
    expectCSVError("trace,t,force\n\"a\"x,0,1\n", reason: .textAfterQuote, at: TextPosition(line: 2, column: 4))
  }

  @Test func columnsCountUnicodeScalars() throws {
    let error = try #require(csvError("trace,t,force\nçé,0,x\n"))
    #expect(error.position == TextPosition(line: 2, column: 6))
  }

  // MARK: Text conventions

  @Test(arguments: ["\n", "\r\n", "\r"])
  func lineEndings(ending: String) throws {
    let text = ["trace,t,force", "a,0,0", "# comment", "", "a,0.5,1", "a,0.4,2"].joined(separator: ending) + ending
    let dataset = try loadCSV("trace,t,force\(ending)a,0,0\(ending)a,0.5,1\(ending)")
    #expect(dataset.traces[0].force == [0, 1])
    let error = try #require(csvError(text))
    #expect(error.position == TextPosition(line: 6, column: 3))
  }

  @Test func byteOrderMarkIsSkipped() throws {
    let dataset = try loadCSV("\u{FEFF}trace,t,force\na,0,1\n")
    #expect(dataset.traces[0].force == [1])
    let error = try #require(csvError("\u{FEFF}trace,t,force\na,0,x\n"))
    #expect(error.position == TextPosition(line: 2, column: 5))
  }

  @Test func quotedFieldsHoldDelimitersQuotesAndLineBreaks() throws {
    let dataset = try loadCSV(
      "trace,t,force,user\n\"p,1\",0,0,\"say \"\"hi\"\"\nnext line\"\n\"p,1\",\"0.5\",1,\"say \"\"hi\"\"\nnext line\"\np2,0,x,u\n",
      options: LoadOptions(skipInvalid: true))
    #expect(dataset.traces.count == 1)
    #expect(dataset.traces[0].name == "p,1")
    #expect(dataset.traces[0].metadata.user == "say \"hi\"\nnext line")
    #expect(dataset.traces[0].t == [0, 0.5])
    // Lines inside quoted fields count: p2's row is line 6.
    #expect(dataset.skipped.first?.reportedPosition == TextPosition(line: 6, column: 6))
  }

  @Test func delimitersAreDetectedOrGiven() throws {
    let given = try loadCSV("trace;t;force;user\na;0.5;1;x,y\n", options: LoadOptions(delimiter: .semicolon))
    #expect(given.traces[0].metadata.user == "x,y")
    #expect(try loadCSV("trace;t;force\na;0.5;1\n").traces[0].t == [0.5])
    #expect(try loadCSV("trace\tt\tforce\na\t0.5\t1\n").traces[0].t == [0.5])
    let error = try #require(csvError("trace;t;force\na;0.5;1\n", options: LoadOptions(delimiter: .comma)))
    #expect(error.reason == .missingColumn("trace", found: ["trace;t;force"]))
  }

  @Test func unknownColumnsGiveOneWarning() throws {
    let dataset = try loadCSV("trace,t,force,pressure_raw,note\na,0,1,5,x\na,1,1,6,y\n")
    #expect(dataset.diagnostics.count == 1)
    #expect(dataset.diagnostics[0].description == "t.csv:1:1: warning: ignoring unknown columns 'pressure_raw', 'note'")
  }

  // MARK: Skipping and accounting

  @Test func skipInvalidAccountsForEveryTrace() throws {
    let dataset = try loadCSV(
      """
      trace,t,force
      good,0,1
      bad,0,1
      bad,-1,1
      ,0,1
      ,1,1
      good2,0,1
      short,0

      """, options: LoadOptions(skipInvalid: true))
    #expect(dataset.traces.map(\.name) == ["good", "good2"])
    #expect(dataset.skipped.map(\.trace) == ["bad", nil, "short"])
    #expect(
      dataset.skipped.map(\.reportedPosition) == [
        TextPosition(line: 4, column: 5), TextPosition(line: 5, column: 1), TextPosition(line: 8, column: 8),
      ])
    #expect(dataset.total == 5)
    #expect(dataset.total == dataset.traces.count + dataset.skipped.count)
  }

  @Test func directoryWithOneBadFile() throws {
    let directory = temporaryDirectory(with: [
      "1-good.csv": "trace,t,force\na,0,1\na,1,2\nb,0,1\n",
      "2-bad.csv": "trace,t,force\nc,0,1\nc,1,oops\nd,0,1\n",
      "notes.txt": "not a trace file",
    ])
    defer { TestData.remove(directory) }

    let strict = #expect(throws: TraceLoadError.self) { try TraceLoader.load([directory]) }
    #expect(strict?.description == "\(directory)/2-bad.csv:3:5: error: 'force' is not a number: 'oops' (trace 'c')")

    let dataset = try TraceLoader.load([directory], options: LoadOptions(skipInvalid: true))
    #expect(dataset.files == [directory + "/1-good.csv", directory + "/2-bad.csv"])
    #expect(dataset.traces.map(\.name) == ["a", "b", "d"])
    #expect(dataset.skipped.map(\.trace) == ["c"])
    #expect(dataset.total == 4)
  }

  @Test func directoriesExpandToMatchingFilesInByteOrder() throws {
    let directory = temporaryDirectory(with: [
      "b.EVENTS": "x",
      "a.events": "x",
      "a.desc": "x",
      ".hidden.events": "x",
    ])
    defer { TestData.remove(directory) }
    #expect(
      try TraceFiles.expand([directory], extensions: [".events"]) == [directory + "/a.events", directory + "/b.EVENTS"])
    let none = #expect(throws: TraceLoadError.self) { try TraceFiles.expand([directory]) }
    #expect(none?.reason == .noTraceFiles())
  }

  @Test func missingInputIsAFileAccessError() throws {
    let error = #expect(throws: TraceLoadError.self) { try TraceLoader.load(["/nonexistent/x.csv"]) }
    #expect(error?.reason == .fileNotFound)
    #expect(error?.isFileAccessError == true)
  }

  @Test func aTraceIdMayAppearInOnlyOneFile() throws {
    let directory = temporaryDirectory(with: [
      "1.csv": "trace,t,force\na,0,1\n",
      "2.csv": "trace,t,force\nb,0,1\na,0,1\n",
    ])
    defer { TestData.remove(directory) }
    let error = #expect(throws: TraceLoadError.self) { try TraceLoader.load([directory]) }
    #expect(error?.reason == .duplicateTrace("a", firstFile: directory + "/1.csv"))
    #expect(error?.position == TextPosition(line: 3, column: 1))
  }

  // MARK: Labels file

  @Test func labelsFillInAndMayNotContradict() throws {
    let directory = temporaryDirectory(with: [
      "d.csv": "trace,t,force,intent\na,0,1,press\na,1,2,press\nb,0,1,\nb,1,1,\n",
      "labels.txt": "trace,intent,press_at,user\na,,0.5,u1\nb,hold,,u2\n",
    ])
    defer { TestData.remove(directory) }
    let dataset = try TraceLoader.load([directory + "/d.csv"], options: LoadOptions(labels: directory + "/labels.txt"))
    #expect(dataset.traces[0].metadata.intent == .press)
    #expect(dataset.traces[0].metadata.pressAt == [0.5])
    #expect(dataset.traces[0].metadata.user == "u1")
    #expect(dataset.traces[1].metadata.intent == .hold)

    TestData.write("trace,intent\na,tap\n", to: directory + "/conflict.txt")
    let conflict = #expect(throws: TraceLoadError.self) {
      try TraceLoader.load([directory + "/d.csv"], options: LoadOptions(labels: directory + "/conflict.txt"))
    }
    #expect(conflict?.reason == .labelConflict(field: "intent", data: "press", labels: "tap"))
    #expect(conflict?.position == TextPosition(line: 2, column: 3))

    TestData.write("trace,intent\nzzz,tap\n", to: directory + "/unknown.txt")
    let unknown = #expect(throws: TraceLoadError.self) {
      try TraceLoader.load([directory + "/d.csv"], options: LoadOptions(labels: directory + "/unknown.txt"))
    }
    #expect(unknown?.reason == .labelForUnknownTrace("zzz"))
    let skipped = try TraceLoader.load(
      [directory + "/d.csv"], options: LoadOptions(skipInvalid: true, labels: directory + "/unknown.txt"))
    #expect(skipped.total == 3)
    #expect(skipped.skipped.first?.reason == "labels name trace 'zzz', which has no samples")

    // `a#2` is how reports and --only id= name contact 2 of `a`: the message says how a labels
    // file names it (issue 31).
    TestData.write("trace,intent\na#2,tap\n", to: directory + "/hash.txt")
    let hash = #expect(throws: TraceLoadError.self) {
      try TraceLoader.load([directory + "/d.csv"], options: LoadOptions(labels: directory + "/hash.txt"))
    }
    #expect(
      hash?.message
        == "labels name trace 'a#2', which has no samples (for contact 2 of trace 'a', give trace 'a' and touch 2 in a touch column)"
    )
  }

  // MARK: The real iPhone calibration table

  @Test(
    "The iPhone 6s calibration CSV (CR line endings) reads as a table and is refused as traces",
    .enabled(if: TestData.hasRealData, "needs ../shared/realdata beside the repository"))
  func realCalibrationTable() throws {
    let path = TestData.realData + "/algal-3dtouch/data-weightMeasurements/weightCSV.csv"
    let error = #expect(throws: TraceLoadError.self) { try TraceLoader.load([path]) }
    #expect(
      error?.description
        == "\(path):1:1: error: missing required column 'trace' (found 'UITouch.force', 'physical_force [N]')")

    // The same file as a plain table: 22 rows after the header, on lines 2…23 although the file
    // uses CR alone between lines; a least-squares fit gives about 0.74 N per force unit.
    let table = try CSVTable.read(path)
    #expect(table.header?.fields == ["UITouch.force", "physical_force [N]"])
    #expect(table.rows.count == 22)
    #expect(table.rows.last?.positions.first == TextPosition(line: 23, column: 1))
    let pairs = table.rows.map { (Double($0.fields[0])!, Double($0.fields[1])!) }
    let n = Double(pairs.count)
    let mx = pairs.map(\.0).reduce(0, +) / n
    let my = pairs.map(\.1).reduce(0, +) / n
    let slope =
      pairs.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +) / pairs.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
    #expect(abs(slope - 0.740) < 0.005)
  }
}
