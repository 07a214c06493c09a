import Foundation
import Testing
@_spi(Fuzz) import TouchCapture
import TouchCore
import TouchTestSupport

/// The participant's side of a capture run (issue 30 item 2): a welcome or consent screen left
/// with Start, texts per intent, practice trials the server never sees, Finish after the last
/// prompt.
@Suite("touchtrace capture: the participant's page", .serialized)
struct CaptureParticipantTests {
  static func state(_ response: RawHTTP.Response?) -> [String: Any]? {
    guard let response else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(response.body.utf8))) as? [String: Any]
  }

  @Test("with consent, nothing is recorded before Start, and Start needs the agreement")
  func consentComesFirst() async throws {
    let h = try await Harness.start(adjust: { configuration in
      configuration.welcome = "Thank you for taking part."
      configuration.consent = "Your touches are kept under your participant name."
    })
    defer { Task { await h.server.stop() } }
    let first = h.session.prompts[0].rawValue
    let before = try #require(Self.state(await h.send("GET", "/state")))
    #expect(before["started"] as? Bool == false)
    #expect(before["welcome"] as? String == "Thank you for taking part.")
    #expect(before["consent"] as? String == "Your touches are kept under your participant name.")
    let early = await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: first, events: contact))
    #expect(early?.status == 409)
    #expect(early?.body.contains("has not started") == true)
    let declined = await h.send("POST", "/start", body: Array(#"{"agree":false}"#.utf8))
    #expect(declined?.status == 400)
    #expect(await h.send("POST", "/start")?.status == 400)
    #expect(await h.session.started == false)
    let agreed = try #require(Self.state(await h.send("POST", "/start", body: Array(#"{"agree":true}"#.utf8))))
    #expect(agreed["started"] as? Bool == true)
    #expect(await h.session.consented)
    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: first, events: contact))?.status == 200)
    #expect(h.files().count == 1)
  }

  @Test("a welcome without consent is left with Start and no agreement; without either the run starts at once")
  func welcomeOnly() async throws {
    let h = try await Harness.start(adjust: { $0.welcome = "Hello." })
    #expect(await h.session.started == false)
    #expect(Self.state(await h.send("POST", "/start"))?["started"] as? Bool == true)
    #expect(await h.session.consented == false)
    await h.server.stop()
    let plain = try await Harness.start()
    #expect(await plain.session.started)
    await plain.server.stop()
  }

  @Test("the page and the state carry each intent's prompt and instructions, the study's own escaped")
  func textsPerIntent() async throws {
    let h = try await Harness.start(
      intents: [.press, .tap], count: 1,
      adjust: { configuration in
        configuration.texts[.press] = IntentText(
          prompt: "Press <b>hard</b> & lift", instructions: "Push down firmly, then lift.")
        configuration.practice = 3
      })
    defer { Task { await h.server.stop() } }
    let state = try #require(Self.state(await h.send("GET", "/state")))
    let shown = h.session.prompts[0]
    let expected =
      shown == .press
      ? IntentText(prompt: "Press <b>hard</b> & lift", instructions: "Push down firmly, then lift.")
      : IntentText.standard(for: .tap)
    #expect(state["words"] as? String == expected.prompt)
    #expect(state["instructions"] as? String == expected.instructions)
    // Practice trials cycle through the intents, with their texts; the server never gets them.
    let practice = try #require(state["practice"] as? [[String: String]])
    #expect(practice.map { $0["intent"] } == ["press", "tap", "press"])
    #expect(practice[0]["words"] == "Press <b>hard</b> & lift")
    #expect(practice[1]["instructions"] == IntentText.standard(for: .tap).instructions)
    let page = try #require(await h.send("GET", "/"))
    for id in [
      "prompt", "instructions", "capture-area", "force-meter", "ack", "redo", "finish", "welcome", "consent-agree",
      "start",
    ] {
      #expect(page.body.contains("id=\"\(id)\""), "\(id)")
    }
    if shown == .press {
      #expect(page.body.contains(">Press &lt;b&gt;hard&lt;/b&gt; &amp; lift</div>"))
    }
    #expect(!page.body.contains("<b>hard</b>"))
  }

  @Test("texts and practice counts are checked before anything is served")
  func validation() throws {
    func check(_ adjust: (inout CaptureConfiguration) -> Void) -> Bool {
      var configuration = CaptureConfiguration(dataset: "d", port: 0, intents: [.press, .tap])
      adjust(&configuration)
      do {
        try configuration.validate()
        return true
      } catch {
        return false
      }
    }
    #expect(check { $0.practice = 20 })
    #expect(!check { $0.practice = 21 })
    #expect(!check { $0.practice = -1 })
    #expect(!check { $0.welcome = "" })
    #expect(!check { $0.consent = "bell\u{07}" })
    #expect(check { $0.consent = "two\nlines\tand a tab" })
    #expect(!check { $0.consent = String(repeating: "x", count: CaptureConfiguration.maximumTextSize + 1) })
    #expect(!check { $0.texts[.hold] = IntentText(prompt: "Hold", instructions: "Hold still.") })
    #expect(!check { $0.texts[.press] = IntentText(prompt: "", instructions: "Press.") })
  }

  @Test("every intent has a standard prompt and instructions of its own")
  func standardTexts() {
    let texts = Intent.allCases.map(IntentText.standard(for:))
    #expect(Set(texts.map(\.prompt)).count == Intent.allCases.count)
    #expect(texts.allSatisfy { !$0.instructions.isEmpty && $0.instructions.hasSuffix(".") })
    #expect(IntentText.standard(for: .press).prompt == "Press firmly")
  }
}
