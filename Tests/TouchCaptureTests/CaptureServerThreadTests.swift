import Foundation
import Testing
@_spi(Fuzz) import TouchCapture
import TouchTestSupport

/// The server answers on its own thread: with every thread of Swift's cooperative pool blocked in
/// a synchronous request to it (what a busy test process or command does to a server living on
/// the pool), each request is still answered. On the pool the server could not run until a
/// thread came free, and the requests would time out (30 s) instead.
@Suite("touchtrace capture: the server's own thread")
struct CaptureServerThreadTests {
  @Test func answersWhileEveryCooperativeThreadIsBlocked() async throws {
    let h = try await Harness.start()
    let port = h.port
    // More blocking tasks than the pool has threads: every thread ends up waiting on the server.
    let width = ProcessInfo.processInfo.activeProcessorCount + 2
    let statuses = await withTaskGroup(of: Int?.self) { group in
      for _ in 0..<width { group.addTask { RawHTTP.send(port: port, "GET", "/state")?.status } }
      var statuses: [Int?] = []
      for await status in group { statuses.append(status) }
      return statuses
    }
    #expect(statuses.count == width)
    #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
    await h.server.stop()
  }
}
