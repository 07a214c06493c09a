import TouchCore
import TouchIO

/// Reads delimiter-separated pen-tablet logs without a header (such as the UCI spiral drawings,
/// `X;Y;Z;Pressure;GripAngle;Timestamp;TestID`), with fields mapped by ``TabletColumns``.
///
/// Rows with pressure > 0 are contact samples; rows with pressure 0 are hover and belong to no
/// trace. A contact ends (its last row becoming the `ended` sample) at a hover row, at a change
/// of group, or when the next in-contact row is more than ``ImportOptions/maxGap`` seconds later
/// or earlier than the previous one (a lift the log did not record, or a jump of the tablet's
/// clock: the UCI logs have both). Times are seconds since the file's first row. Blank lines
/// and lines starting with `#` are skipped.
struct TabletLogReader {
  let file: String
  let options: ImportOptions

  func read(_ bytes: [UInt8]) throws(TraceLoadError) -> Dataset {
    let text = TextLines(bytes)
    let roles = options.columns.roles
    let forceIndex = roles.firstIndex(of: .force)!
    let timeIndex = roles.firstIndex { $0.unitsPerSecond != nil }!
    let unitsPerSecond = roles[timeIndex].unitsPerSecond!
    let xIndex = roles.firstIndex(of: .x)
    let yIndex = roles.firstIndex(of: .y)
    let groupIndex = roles.firstIndex(of: .group)
    let hasPosition = xIndex != nil
    let scale = options.positionScale ?? 1
    var collector = ContactCollector(file: file, options: options)
    if hasPosition, options.positionScale == nil {
      collector.warn(
        "x and y are in device units (give --position-scale, points per device unit, to convert them to points)")
    }
    let lines = text.lines()
    var delimiter = options.delimiter?.byte
    var origin: Double?
    var contact: ImportedContact?
    var contactGroup: String?
    var previousTime = 0.0

    for line in lines {
      var first = line.start
      while first < line.end, text.bytes[first] == 0x20 || text.bytes[first] == 0x09 { first += 1 }
      guard first < line.end, text.bytes[first] != UInt8(ascii: "#") else { continue }
      if delimiter == nil { delimiter = Self.detectDelimiter(text, line) }
      let fields = text.fields(of: line, delimiter: delimiter!)
      do throws(TraceLoadError) {
        guard fields.count == roles.count else {
          let position =
            fields.count > roles.count
            ? text.position(of: fields[roles.count], on: line) : text.position(line.end, on: line)
          throw TraceLoadError(
            .invalidRecording(
              "expected \(roles.count) fields, found \(fields.count): the layout is \(options.columnsSource); give --columns with one role per field"
            ), file: file, position: position)
        }
        func value(_ index: Int, _ name: String) throws(TraceLoadError) -> Double {
          let field = fields[index]
          guard field.count > 0 else {
            throw TraceLoadError(.trace(.emptyField(name)), file: file, position: text.position(of: field, on: line))
          }
          if let whole = text.integer(field), abs(whole) < 1 << 53 { return Double(whole) }
          guard let number = text.number(field) else {
            throw TraceLoadError(
              .invalidRecording(
                "field \(index + 1) is \(Diagnostic.quoted(text.string(field))), not a number, but the layout (\(options.columnsSource)) makes it '\(roles[index].rawValue)'"
              ), file: file, position: text.position(of: field, on: line))
          }
          return number
        }
        let force = try value(forceIndex, "force")
        if force < 0 {
          throw TraceLoadError(
            .trace(.negativeForce(force)), file: file, position: text.position(of: fields[forceIndex], on: line))
        }
        let time = try value(timeIndex, "t")
        let x = try xIndex.map { index throws(TraceLoadError) in try value(index, "x") } ?? 0
        let y = try yIndex.map { index throws(TraceLoadError) in try value(index, "y") } ?? 0
        let group = groupIndex.map { text.string(fields[$0]) }
        let start = origin ?? time
        origin = start
        let t = (time - start) / unitsPerSecond

        if let open = contact {
          // Compare in the file's units: (a − b)/1000 > 0.03 may differ from a − b > 30 by rounding.
          let step = time - previousTime
          let lifted = force == 0 || group != contactGroup || step > options.maxGap * unitsPerSecond || step < 0
          if lifted {
            try collector.close(open, terminal: .ended)
            contact = nil
          }
        }
        guard force > 0 else { continue }
        if contact == nil {
          contact = collector.open(
            at: TextPosition(line: line.number, column: 1), maxForce: nil, device: nil, session: group,
            hasPosition: hasPosition)
          contactGroup = group
        }
        try collector.append(
          &contact!, t: t, force: force, x: x * scale, y: y * scale,
          tAt: text.position(of: fields[timeIndex], on: line), forceAt: text.position(of: fields[forceIndex], on: line))
        previousTime = time
      } catch {
        guard options.skipInvalid else {
          var error = error
          error.trace = contact?.name
          throw error
        }
        if contact != nil { try collector.fail(&contact!, error) } else { try collector.failOutsideContacts(error) }
      }
    }
    if let open = contact { try collector.close(open, terminal: .ended) }
    return collector.dataset()
  }

  /// `;` if the first row has one, else a tab if it has one, else `,`.
  static func detectDelimiter(_ text: TextLines, _ line: TextLine) -> UInt8 {
    let row = text.bytes[line.start..<line.end]
    if row.contains(UInt8(ascii: ";")) { return UInt8(ascii: ";") }
    if row.contains(0x09) { return 0x09 }
    return UInt8(ascii: ",")
  }
}
