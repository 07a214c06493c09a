import Testing
@_spi(Fuzz) import TouchCapture
import TouchCore
import TouchIO

/// How an upload becomes a trace: pressures as the float32 the browser had, the device named.
@Suite("touchtrace capture: uploads to traces")
struct CaptureUploadTests {
  /// Float32 values widened to double (as JavaScript hands `PointerEvent.pressure` over) come
  /// back as their shortest float32 decimal; doubles that are not float32 stay as they are.
  /// Expected values by hand: 0.1f = 0.100000001490116119384765625, 0.3f = 0.300000011920928955078125,
  /// (1/3)f = 0.3333333432674407958984375, whose shortest float32 decimal is 0.33333334.
  @Test(arguments: [
    (0.10000000149011612, 0.1), (0.30000001192092896, 0.3), (0.3333333432674408, 0.33333334), (0.25, 0.25), (0, 0),
    (1, 1), (0.1, 0.1), (0.123456789, 0.123456789),
  ])
  func pressuresAreTheShortestDecimalOfTheirFloat32(widened: Double, stored: Double) {
    #expect(CaptureUpload.float32Decimal(widened) == stored)
    #expect(Float(CaptureUpload.float32Decimal(widened)) == Float(widened))
  }

  @Test func aCapturedTraceIsWrittenWithShortDecimals() throws {
    let body = uploadBody(
      prompt: 0, intent: "press",
      events: [
        ("pointerdown", 1000, 0.10000000149011612, nil), ("pointermove", 1016, 0.30000001192092896, nil),
        ("pointerup", 1032, 0, nil),
      ])
    let trace = try CaptureUpload.parse(body).trace(id: "t1", session: "s")
    #expect(trace.force == [0.1, 0.3, 0])
    let text = String(decoding: JSONTraceWriter.document([trace]), as: UTF8.self)
    #expect(text.contains("0.1") && !text.contains("0.10000000149011612"))
  }

  @Test func aDeviceNameKeepsTheBrowserAsALabel() throws {
    let body = uploadBody(
      prompt: 0, intent: "press", events: [("pointerdown", 1000, 0.5, nil), ("pointerup", 1016, 0, nil)])
    let upload = try CaptureUpload.parse(body)
    let named = try upload.trace(id: "t1", session: "s", device: "lab-ipad")
    #expect(named.metadata.device == "lab-ipad")
    #expect(named.metadata.labels["user_agent"] == "pen; screen 1024x768@2; TestAgent/1.0")
    let unnamed = try upload.trace(id: "t1", session: "s")
    #expect(unnamed.metadata.device == "pen; screen 1024x768@2; TestAgent/1.0")
    #expect(unnamed.metadata.labels.isEmpty)
  }

  @Test func aDeviceNameIsCheckedLikeAParticipant() {
    for bad in ["", String(repeating: "d", count: 201), "two\nlines"] {
      #expect(throws: CaptureError.self) { try CaptureConfiguration(dataset: "d", device: bad).validate() }
    }
    #expect(throws: Never.self) { try CaptureConfiguration(dataset: "d", device: "lab-ipad").validate() }
  }
}
