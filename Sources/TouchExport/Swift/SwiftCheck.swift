import TouchRecognizers

extension SwiftExport {
  // MARK: - Conformance check

  static func check(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    return #"""

      // The conformance check: runs \#(T) on the contacts of vectors.txt (read from standard
      // input) and compares its actions and state changes with the replay's, bit for bit, twice:
      // fed sample by sample, and with tick() called between samples (at each due timer and at
      // every midpoint), which must change nothing. Standard library only, and the C library's
      // exit() for the exit status.
      //
      //   swiftc -O \#(T).swift check/main.swift -o check-core && ./check-core < ../vectors.txt

      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Musl)
        import Musl
      #elseif canImport(Darwin)
        import Darwin
      #endif

      func bits(_ text: Substring) -> Double {
        guard let value = UInt64(text, radix: 16) else { fatalError("vectors: bad number '\(text)'") }
        return Double(bitPattern: value)
      }

      struct Sample {
        var phase: \#(T).Phase
        var t, force, maxForce, x, y: Double
      }

      struct Contact {
        var name = ""
        var samples: [Sample] = []
        var expected: [String] = []
      }

      func run(_ contact: Contact, ticking: Bool) -> [String] {
        var core = \#(T)()
        var previous: Double?
        var returned: [\#(T).Action] = []
        for s in contact.samples {
          if ticking, let p = previous {
            if core.timerDeadline <= s.t { returned += core.tick(at: core.timerDeadline) }
            returned += core.tick(at: (p + s.t) / 2)
          }
          returned += core.feed(t: s.t, force: s.force, maxForce: s.maxForce, x: s.x, y: s.y, phase: s.phase)
          previous = s.t
        }
        let hex = { (v: Double) -> String in
          let d = String(v.bitPattern, radix: 16)
          return String(repeating: "0", count: 16 - d.count) + d
        }
        // The actions feed and tick returned must be the contact's actions, in order.
        let unreturned = returned == core.actions ? [] : ["feed and tick returned \(returned), not the contact's actions"]
        return core.actions.map { "a \($0.stage.rawValue) \(hex($0.t))" }
          + core.transitions.map { "e \($0.state.rawValue) \(hex($0.t)) \($0.implicit ? 1 : 0)" } + unreturned
      }

      var contacts = 0, actions = 0, transitions = 0, differences = 0
      var shown = 0
      var contact = Contact()
      var firstLine = true
      while let line = readLine() {
        let fields = line.split(separator: " ")
        if firstLine {
          firstLine = false
          guard line.hasPrefix("touchtrace-vectors 1") else { fatalError("not touchtrace-vectors 1: \(line)") }
          continue
        }
        guard let tag = fields.first else { continue }
        switch tag {
        case "contact": contact = Contact(name: String(fields[1]))
        case "s":
          guard let phase = \#(T).Phase(rawValue: String(fields[1])) else { fatalError("bad phase: \(line)") }
          contact.samples.append(
            Sample(
              phase: phase, t: bits(fields[2]), force: bits(fields[3]), maxForce: bits(fields[4]), x: bits(fields[5]),
              y: bits(fields[6])))
        case "a", "e": contact.expected.append(line)
        case "end":
          contacts += 1
          actions += contact.expected.filter { $0.hasPrefix("a ") }.count
          transitions += contact.expected.filter { $0.hasPrefix("e ") }.count
          for ticking in [false, true] {
            let got = run(contact, ticking: ticking)
            if got != contact.expected {
              differences += 1
              if shown < 10 {
                shown += 1
                print("\(contact.name)\(ticking ? " (ticking)" : ""): expected \(contact.expected), got \(got)")
              }
            }
          }
        default: fatalError("vectors: unknown line: \(line)")
        }
      }
      print("swift: \(contacts) contacts, \(actions) actions, \(transitions) transitions, \(differences) differences")
      if differences > 0 { exit(1) }

      """#
  }
}
