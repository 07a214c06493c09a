import Testing
import TouchCore

@testable import TouchIO

@Suite("Trace schema")
struct TraceSchemaTests {
  /// Reads a phase word with the readers' matcher.
  static func phase(_ word: String) -> TouchPhase? {
    Array(word.utf8).withUnsafeBufferPointer { TraceSchema.phase($0) }
  }

  @Test func phaseWordsAreTouchPhaseNames() {
    for phase in TouchPhase.allCases {
      #expect(TraceSchema.word(for: phase) == phase.name)
      #expect(Self.phase(phase.name) == phase)
      #expect(Self.phase(phase.name.uppercased()) == nil)
      #expect(Self.phase(phase.name + " ") == nil)
      #expect(Self.phase(String(phase.name.dropLast())) == nil)
    }
    for word in ["", "down", "canceled", "Began", "movedd"] { #expect(Self.phase(word) == nil) }
  }

  @Test func namesDifferOnlyForTheID() {
    #expect(TraceSchema.Field.id.csvName == "trace")
    #expect(TraceSchema.Field.id.jsonName == "id")
    for field in TraceSchema.Field.allCases where field != .id {
      #expect(field.csvName == field.jsonName)
    }
    #expect(Set(TraceSchema.Field.allCases.map(\.jsonName)).count == TraceSchema.Field.allCases.count)
  }

  @Test func lookUpByName() {
    for field in TraceSchema.Field.allCases {
      #expect(TraceSchema.Field(csvName: field.csvName) == field)
      let found = Array(field.jsonName.utf8).withUnsafeBufferPointer { TraceSchema.Field(jsonName: $0) }
      #expect(found == field)
    }
    #expect(TraceSchema.Field(csvName: "id") == nil)
    #expect(Array("trace".utf8).withUnsafeBufferPointer { TraceSchema.Field(jsonName: $0) } == nil)
  }

  @Test func documentExample() {
    #expect(TraceSchema.Document.example == #"{"format": "touchtrace", "version": 1, "traces": [...]}"#)
  }
}
