import Dispatch
import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The write end of the interrupt pipe, the only state the signal handler reads; set before the
/// handler is installed (a constant initializer: no lazy initialization inside the handler).
nonisolated(unsafe) private var interruptWriteEnd: Int32 = -1

/// SIGINT and SIGTERM turned into a call of an action, for as long as the command needs it;
/// ``cancel()`` gives both signals their default action back.
///
/// A handler installed with `sigaction` writes one byte to a pipe (async-signal-safe), and a
/// Dispatch read source on the other end calls the action. Unlike a Dispatch signal source (a
/// `signalfd` on Linux, which only sees a signal every thread blocks), this works whichever
/// thread the kernel picks, including the concurrency threads an async command starts with.
final class SignalSources: @unchecked Sendable {
  private let source: any DispatchSourceRead

  private init(source: any DispatchSourceRead) { self.source = source }

  /// Calls `action` on each SIGINT or SIGTERM (which no longer end the process) until ``cancel()``;
  /// `command` (`capture`, `try`) names the command in the error when the pipe cannot be made.
  static func interrupts(command: String, _ action: @escaping @Sendable () -> Void) throws -> SignalSources {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      Console.error("touchtrace \(command): error: cannot create the interrupt pipe: \(SystemError.current)")
      throw Exit.failure
    }
    let readEnd = ends[0]
    let writeEnd = ends[1]
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
    source.setEventHandler {
      var bytes = [UInt8](repeating: 0, count: 64)
      var received = false
      while read(readEnd, &bytes, bytes.count) > 0 { received = true }
      if received { action() }
    }
    source.setCancelHandler {
      close(readEnd)
      close(writeEnd)
    }
    source.resume()
    interruptWriteEnd = writeEnd
    for number in [SIGINT, SIGTERM] {
      var handler = sigaction()
      let onSignal: @convention(c) (Int32) -> Void = { _ in
        let saved = errno
        var byte: UInt8 = 1
        _ = write(interruptWriteEnd, &byte, 1)
        errno = saved
      }
      #if canImport(Darwin)
        handler.__sigaction_u.__sa_handler = onSignal
      #else
        handler.__sigaction_handler.sa_handler = onSignal
      #endif
      handler.sa_flags = SA_RESTART
      sigemptyset(&handler.sa_mask)
      sigaction(number, &handler, nil)
    }
    return SignalSources(source: source)
  }

  /// Restores the default action of SIGINT and SIGTERM and closes the pipe.
  func cancel() {
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    interruptWriteEnd = -1
    source.cancel()
  }
}
