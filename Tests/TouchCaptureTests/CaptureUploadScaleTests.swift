import Testing
@_spi(Fuzz) import TouchCapture

@testable import TouchIO

/// Issue 26's reproducer: an upload of 16 000 events on one line, as the page sends it, took
/// 231 s to parse (each value's column counted again from the start of its line) while the
/// server answered nobody. The work is counted, not timed: at most one column step per byte of
/// the body, and every event read.
@Suite("touchtrace capture: large uploads")
struct CaptureUploadScaleTests {
  @Test func aSixteenThousandEventUploadParsesInLinearWork() throws {
    var events: [Event] = [("pointerdown", 1000, 0.25, nil)]
    for k in 1..<15_999 { events.append(("pointermove", 1000 + Double(k) * 4, 0.25 + Double(k % 50) / 100, nil)) }
    events.append(("pointerup", 1000 + 16_000 * 4, 0, nil))
    let body = uploadBody(prompt: 0, intent: "press", events: events)
    #expect(!body.contains(UInt8(ascii: "\n")), "one line, as the page sends it")
    var steps = 0
    _ = try JSONNode.parse(body, file: "upload", columnSteps: &steps)
    #expect(steps <= body.count, "\(steps) column steps for \(body.count) bytes")
    let upload = try CaptureUpload.parse(body)
    #expect(upload.events.count == 16_000)
  }
}
