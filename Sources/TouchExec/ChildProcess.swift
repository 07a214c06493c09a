import Synchronization
import TouchIO
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
/// The child runs in a process group of its own, with a minimal environment
/// (``environment(passing:)``) and no descriptor of the tool but its three pipes (every
/// descriptor the tool opens is close-on-exec). Its output is read in bounded memory: a line
/// longer than ``maximumLineBytes`` stops it, and output without a line break does not count as
/// an answer for the timeout. When it is done, or stopped, whatever it started is killed with it
/// (its whole process group).
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
  /// Where the search for the next line break resumes: `pending` before it holds none after
  /// `pendingStart` (each byte is scanned once).
  private var scannedUpTo = 0

  /// The longest output line accepted, in bytes (an answer is a few hundred bytes): the tool
  /// holds at most this much of a child's output, plus one read.
  static let maximumLineBytes = 1 << 20

  /// The variables a child inherits from the tool's environment when they are set, besides the
  /// ones passed through by name (`--exec-env`).
  static let inheritedVariables = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"]
  /// The last bytes the child wrote to standard error.
  private var errorTail: [UInt8] = []
  private static let errorTailLimit = 8192
  /// Set once the child is known to have exited (its status, as `waitpid` gives it).
  private var exitStatus: Int32?
  /// The `seq` of the next request: requests are numbered through the child's session.
  var nextSeq = 0

  /// The environment of the children: `NAME=VALUE` for each of ``inheritedVariables`` and of
  /// `names` that is set in the tool's environment (`PATH` is `/usr/bin:/bin` when unset).
  static func environment(passing names: [String]) -> [String] {
    var entries: [String] = []
    var seen = Set<String>()
    for name in inheritedVariables + names where seen.insert(name).inserted {
      if let value = getenv(name) {
        entries.append(name + "=" + String(cString: value))
      } else if name == "PATH" {
        entries.append("PATH=/usr/bin:/bin")
      }
    }
    return entries
  }

  /// The environment given to children, `NAME=VALUE` entries.
  let environment: [String]

  /// Starts `command` with `environment` (`NAME=VALUE` entries) as its whole environment.
  ///
  /// - Throws: ``ChildFailure`` when the pipes or the process cannot be created.
  init(command: String, environment: [String]) throws(ChildFailure) {
    self.command = command
    self.environment = environment
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
      throw ChildFailure(message: "cannot create pipes: \(SystemError.current)")
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
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer { for p in envp { free(p) } }
    let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
    close(stdinPipe[0])
    close(stdoutPipe[1])
    close(stderrPipe[1])
    guard status == 0 else {
      close(stdinPipe[1])
      close(stdoutPipe[0])
      close(stderrPipe[0])
      throw ChildFailure(message: "cannot start /bin/sh: \(SystemError.text(status))")
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
    // Progress is a request byte written or a whole line read: output without a line break (a
    // progress bar drawn with \r) keeps no answer alive.
    var lastProgress = Self.now()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while received < count {
      // Complete lines already read; only bytes not scanned before are searched.
      while received < count, let end = nextLineEnd() {
        let bytes = pending[pendingStart..<end]
        pendingStart = end + 1
        scannedUpTo = pendingStart
        lastProgress = Self.now()
        do throws(ChildFailure) {
          try line(bytes, received)
        } catch {
          terminate()
          throw error
        }
        received += 1
      }
      if received == count { break }
      if pendingStart > 0 {
        // Keep only the unfinished line.
        pending.removeSubrange(0..<pendingStart)
        scannedUpTo -= pendingStart
        pendingStart = 0
      }
      guard pending.count <= Self.maximumLineBytes else {
        terminate()
        throw ChildFailure(
          message:
            "wrote a line longer than \(Self.maximumLineBytes) bytes (\(pending.count) bytes without a line break) while answer \(received + 1) of \(count) was due; an answer is one JSON object and a line break"
        )
      }
      guard exitStatus == nil, output >= 0 else { throw exited(waiting: received) }
      var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
      if errors >= 0 { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
      if written < request.count { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
      let left = lastProgress + timeout - Self.now()
      guard left > 0 else {
        terminate()
        let partial = pending.count - pendingStart
        guard partial == 0 else {
          throw ChildFailure(
            message:
              "wrote no complete line for \(ParameterValue.text(timeout)) s (--exec-timeout) while answer \(received + 1) of \(count) was due, only \(partial) bytes without a line break (\(ExecProtocol.excerpt(pending[pendingStart...].suffix(60)))): answers end with a line break; progress output belongs on standard error"
          )
        }
        throw ChildFailure(
          message:
            "wrote nothing for \(ParameterValue.text(timeout)) s (--exec-timeout) while answer \(received + 1) of \(count) was due"
        )
      }
      let ready = poll(&fds, nfds_t(fds.count), Self.milliseconds(left))
      if ready < 0 {
        if errno == EINTR { continue }
        terminate()
        throw ChildFailure(message: "poll failed: \(SystemError.current)")
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
          if !drainErrors() {
            close(errors)
            errors = -1
          }
        } else {
          let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
          if n > 0 {
            pending.append(contentsOf: chunk[0..<n])
          } else if n == 0 {
            close(output)
            output = -1
          } else if errno != EAGAIN && errno != EINTR {
            terminate()
            throw ChildFailure(message: "cannot read its output: \(SystemError.current)")
          }
        }
      }
    }
  }

  /// The end of the next complete line in `pending` (the offset of its `\n`), searching only
  /// bytes not searched before.
  private func nextLineEnd() -> Int? {
    guard let end = pending[scannedUpTo...].firstIndex(of: UInt8(ascii: "\n")) else {
      scannedUpTo = pending.count
      return nil
    }
    return end
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

  /// Closes the child's input and waits for it to exit (up to `seconds`, then kills it); what it
  /// started and left running (its process group) is killed too.
  func finish(waiting seconds: Double = 2) {
    if input >= 0 {
      close(input)
      input = -1
    }
    _ = reap(graceSeconds: seconds)
    terminate()
  }

  /// Kills the child and its process group if it still runs, reaps it, closes every pipe.
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
  ///
  /// Once the shell has exited, and before it is reaped (while its process group's id cannot be
  /// reused), the rest of its group is killed: a command's background processes do not outlive it.
  private func reap(graceSeconds: Double) -> Int32? {
    if let exitStatus { return exitStatus }
    guard pid > 0 else { return nil }
    let deadline = Self.now() + graceSeconds
    var status: Int32 = 0
    while true {
      var info = siginfo_t()
      let r = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
      if r == 0 && info.si_signo == SIGCHLD {
        kill(-pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
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
}
