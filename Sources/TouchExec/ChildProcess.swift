import Synchronization
import TouchRecognizers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why talking to a child process failed, in words (the command and the request are added by
/// the caller).
struct ChildFailure: Error {
  var message: String
}

/// A command started through `/bin/sh -c`, its standard input, output and error on pipes: the
/// transport of the `exec:` protocol. Lines go in, lines come back; the child's standard error is
/// kept (its last 8 KiB) for messages.
///
/// Used by one thread at a time (``ExecPool`` hands it out).
final class ChildProcess: @unchecked Sendable {
  /// The command, as given.
  let command: String
  private(set) var pid: pid_t = 0
  private var input: Int32 = -1
  private var output: Int32 = -1
  private var errors: Int32 = -1
  /// Output read but not yet returned as lines.
  private var pending: [UInt8] = []
  private var pendingStart = 0
  /// The last bytes the child wrote to standard error.
  private var errorTail: [UInt8] = []
  private static let errorTailLimit = 8192
  /// Set once the child is known to have exited (its status, as `waitpid` gives it).
  private var exitStatus: Int32?
  /// The `seq` of the next request: requests are numbered through the child's session.
  var nextSeq = 0

  /// Starts `command`.
  ///
  /// - Throws: ``ChildFailure`` when the pipes or the process cannot be created.
  init(command: String) throws(ChildFailure) {
    self.command = command
    Self.ignoreBrokenPipes
    // One spawn at a time: between `pipe` and `posix_spawn` no other child may inherit these
    // pipes (it would hold them open, and the child would miss the end of its input).
    try Self.spawning.withLock { _ throws(ChildFailure) in try start() }
    for fd in [input, output, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
  }

  private static let spawning = Mutex(0)

  /// Creates the pipes (close-on-exec) and starts the shell with them as its standard streams.
  private func start() throws(ChildFailure) {
    var stdinPipe: [Int32] = [-1, -1]
    var stdoutPipe: [Int32] = [-1, -1]
    var stderrPipe: [Int32] = [-1, -1]
    func makePipe(_ fds: inout [Int32]) -> Bool {
      guard pipe(&fds) == 0 else { return false }
      for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      return true
    }
    guard makePipe(&stdinPipe), makePipe(&stdoutPipe), makePipe(&stderrPipe) else {
      for fd in stdinPipe + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
      throw ChildFailure(message: "cannot create pipes: \(Self.errnoText())")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
    defer { for p in argv { free(p) } }
    // Its own process group, so that stopping it stops what the shell started too.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
    close(stdinPipe[0])
    close(stdoutPipe[1])
    close(stderrPipe[1])
    guard status == 0 else {
      close(stdinPipe[1])
      close(stdoutPipe[0])
      close(stderrPipe[0])
      throw ChildFailure(message: "cannot start /bin/sh: \(String(cString: strerror(status)))")
    }
    input = stdinPipe[1]
    output = stdoutPipe[0]
    errors = stderrPipe[0]
  }

  deinit {
    terminate()
    if errors >= 0 { close(errors) }
  }

  /// A child that exits must not kill the tool: writes to its closed pipe fail with EPIPE instead.
  private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

  /// Writes `request` (whole lines) while reading the child's output, and hands each complete
  /// output line to `line` until `count` lines have come, or fails: the child exited, or neither
  /// read nor written a byte for `timeout` seconds.
  ///
  /// - Throws: ``ChildFailure`` (the child is then stopped), or what `line` throws.
  func exchange(
    _ request: [UInt8], expecting count: Int, timeout: Double,
    line: (_ bytes: ArraySlice<UInt8>, _ number: Int) throws(ChildFailure) -> Void
  ) throws(ChildFailure) {
    var written = 0
    var received = 0
    var lastProgress = Self.now()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while received < count {
      // Complete lines already read.
      while received < count, let end = pending[pendingStart...].firstIndex(of: UInt8(ascii: "\n")) {
        let bytes = pending[pendingStart..<end]
        pendingStart = end + 1
        do throws(ChildFailure) {
          try line(bytes, received)
        } catch {
          terminate()
          throw error
        }
        received += 1
      }
      if received == count { break }
      if pendingStart > 0 && pendingStart == pending.count {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
      }
      guard exitStatus == nil, output >= 0 else { throw exited(waiting: received) }
      var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
      if errors >= 0 { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
      if written < request.count { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
      let left = lastProgress + timeout - Self.now()
      guard left > 0 else {
        terminate()
        throw ChildFailure(message: "wrote nothing for \(ParameterValue.text(timeout)) s (--exec-timeout) while answer \(received + 1) of \(count) was due")
      }
      let ready = poll(&fds, nfds_t(fds.count), Self.milliseconds(left))
      if ready < 0 {
        if errno == EINTR { continue }
        terminate()
        throw ChildFailure(message: "poll failed: \(Self.errnoText())")
      }
      for fd in fds where fd.revents != 0 {
        if fd.fd == input {
          let n = request.withUnsafeBytes { write(input, $0.baseAddress! + written, request.count - written) }
          if n > 0 {
            written += n
            lastProgress = Self.now()
            if written == request.count { continue }
          } else if n < 0 && errno != EAGAIN && errno != EINTR {
            // EPIPE: the child closed its input (it exited or will); its output says the rest.
            written = request.count
          }
        } else if fd.fd == errors {
          if !drainErrors() { close(errors); errors = -1 }
        } else {
          let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
          if n > 0 {
            pending.append(contentsOf: chunk[0..<n])
            lastProgress = Self.now()
          } else if n == 0 {
            close(output)
            output = -1
          } else if errno != EAGAIN && errno != EINTR {
            terminate()
            throw ChildFailure(message: "cannot read its output: \(Self.errnoText())")
          }
        }
      }
    }
  }

  /// The failure for output that ended early: the exit status, once the child is reaped.
  private func exited(waiting received: Int) -> ChildFailure {
    let status = reap(graceSeconds: 2)
    let how: String
    if let status {
      if status & 0x7f == 0 {
        how = "exited with status \((status >> 8) & 0xff)"
      } else {
        how = "was killed by signal \(status & 0x7f)"
      }
    } else {
      how = "closed its output"
    }
    return ChildFailure(message: received == 0 ? "\(how) before answering" : "\(how) after \(received) answers")
  }

  /// Reads what is available on standard error into the tail; `false` at end of file.
  @discardableResult
  private func drainErrors() -> Bool {
    guard errors >= 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress!, $0.count) }
      if n > 0 {
        errorTail.append(contentsOf: buffer[0..<n])
        if errorTail.count > Self.errorTailLimit { errorTail.removeFirst(errorTail.count - Self.errorTailLimit) }
      } else {
        return n < 0 && (errno == EAGAIN || errno == EINTR)
      }
    }
  }

  /// A poll timeout for `seconds`: whole milliseconds, rounded down, plus one, at most 1e9 ms
  /// (NaN gives 1).
  static func milliseconds(_ seconds: Double) -> Int32 {
    let ms = Swift.min(seconds * 1000 + 1, 1e9).rounded(.down)
    return ms >= 1 ? Int32(exactly: ms) ?? 1 : 1
  }

  /// What the child wrote to standard error (its last 8 KiB, invalid UTF-8 repaired, trimmed),
  /// after waiting up to `seconds` for the rest of it.
  func standardError(waiting seconds: Double = 0.5) -> String {
    let deadline = Self.now() + seconds
    while errors >= 0 {
      var fd = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
      let left = deadline - Self.now()
      guard left > 0, poll(&fd, 1, Self.milliseconds(left)) > 0 else { break }
      if !drainErrors() {
        close(errors)
        errors = -1
      }
    }
    var text = String(decoding: errorTail, as: UTF8.self)
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return text
  }

  /// Closes the child's input and waits for it to exit (up to `seconds`, then kills it).
  func finish(waiting seconds: Double = 2) {
    if input >= 0 {
      close(input)
      input = -1
    }
    _ = reap(graceSeconds: seconds)
    terminate()
  }

  /// Kills the child if it still runs, reaps it, closes every pipe.
  func terminate() {
    if pid > 0 && exitStatus == nil {
      kill(-pid, SIGKILL)
      _ = reap(graceSeconds: 5)
    }
    for fd in [input, output] where fd >= 0 { close(fd) }
    input = -1
    output = -1
  }

  /// Waits up to `graceSeconds` for the child to exit; its status, or `nil` if it still runs.
  private func reap(graceSeconds: Double) -> Int32? {
    if let exitStatus { return exitStatus }
    guard pid > 0 else { return nil }
    let deadline = Self.now() + graceSeconds
    var status: Int32 = 0
    while true {
      let r = waitpid(pid, &status, WNOHANG)
      if r == pid {
        exitStatus = status
        return status
      }
      if r < 0 && errno != EINTR { return nil }
      if Self.now() > deadline { return nil }
      usleep(2000)
    }
  }

  /// Seconds on the monotonic clock.
  static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  private static func errnoText() -> String { String(cString: strerror(errno)) }
}
