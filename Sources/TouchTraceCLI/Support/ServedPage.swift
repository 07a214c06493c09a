import ArgumentParser
import TouchCapture
import TouchIO

/// A page served from the command line (`capture`, `try`): the run from the URL to the end, and
/// how its errors and its URL are shown.
enum ServedPage {
  /// Serves `server`'s page until the run is over: SIGINT and SIGTERM interrupt the session from
  /// before it listens until it ends; the URL goes to standard output, and unless `quiet`
  /// `announcement` of the URL as shown (the token redacted) to standard error.
  ///
  /// - Throws: the exit of ``failure(_:command:)`` when the server cannot listen.
  static func serve<Session>(
    _ server: PageServer<Session>, command: String, quiet: Bool, announcement: (String) -> String
  ) async throws {
    let session = server.session
    // Signals end the run from here on (also one that arrives before the URL is printed).
    // The handler stays installed until the deferred cancel, at the end of this scope.
    let interrupts = try SignalSources.interrupts(command: command) { Task { await session.interrupt() } }
    defer { interrupts.cancel() }
    let url: String
    do throws(CaptureError) {
      url = try await server.start()
    } catch {
      throw failure(error, command: command)
    }
    try Console.emit(Array((url + "\n").utf8), to: OutputFiles.standardOutput, inputs: [])
    if !quiet {
      // The token stays off standard error (logs, terminals shared on screen).
      Console.error(announcement(session.configuration.token == nil ? url : redacted(url)))
    }
    await server.serveUntilFinished()
  }

  /// Prints an error of `command` (`capture` or `try`) and gives its exit code: 64 usage, 65
  /// unreadable dataset, 69 cannot listen, 73 the dataset cannot be created.
  static func failure(_ error: CaptureError, command: String) -> any Error {
    Console.error("touchtrace \(command): error: \(error.description)")
    switch error {
    case .usage: return ExitCode.validationFailure
    case .unreadableDataset: return Exit.dataError
    case .cannotListen: return Exit.unavailable
    case .dataset: return Exit.cannotCreate
    }
  }

  /// `url` with the token's value replaced by `…` (the full URL is on standard output).
  static func redacted(_ url: String) -> String {
    guard let range = url.range(of: "?token=") else { return url }
    return String(url[..<range.upperBound]) + "… (the full URL, token included, is on standard output)"
  }
}
