import Testing
import TouchCore

/// Edit distances by hand (the textbook kitten → sitting is 3: two substitutions, one insertion)
/// and the slips users make.
@Suite("name suggestions")
struct NameSuggestionTests {
  @Test func distancesByHand() {
    #expect(NameSuggestion.distance(Array("kitten"), Array("sitting")) == 3)
    #expect(NameSuggestion.distance(Array(""), Array("abc")) == 3)
    #expect(NameSuggestion.distance(Array("abc"), Array("")) == 3)
    #expect(NameSuggestion.distance(Array("flaw"), Array("lawn")) == 2)
    #expect(NameSuggestion.distance(Array("device"), Array("device")) == 0)
  }

  @Test func slipsGetTheirName() {
    let labels = ["id", "touch", "user", "session", "device", "intent"]
    #expect(NameSuggestion.closest(to: "devices", in: labels) == "device")
    #expect(NameSuggestion.closest(to: "usr", in: labels) == "user")
    #expect(NameSuggestion.closest(to: "deep-pres", in: ["shunkit", "deep-press", "peek-pop"]) == "deep-press")
    #expect(NameSuggestion.closest(to: "hand", in: labels) == nil)
    #expect(NameSuggestion.clause(for: "sesion", in: labels) == " (did you mean 'session'?)")
    #expect(NameSuggestion.clause(for: "zzzzzz", in: labels) == "")
  }
}
