import Foundation
import Testing
import TouchPartials
import TouchTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// How `exec:` children are contained (issue 26): output without a line break neither defeats the
/// timeout nor grows memory without bound, what a child starts dies with it, it sees no
/// descriptor of the tool and only a minimal environment, and an answer without `seq` is an error,
/// not a shift onto other contacts. In ``ExecRecognizerTests`` (serialized: standard error is
/// captured process-wide).
extension ExecRecognizerTests {
  static var hostile: String { fixtures + "/hostile.py" }

  /// `sweep samples/` with `exec:python3 hostile.py MODE ARGS…`, one thread, a 1 s timeout: the
  /// exit code and what was written to standard error.
  func hostileSweep(
    _ mode: String, _ arguments: [String] = [], before: String = "", options: [String] = []
  ) throws -> (code: Int32, message: String) {
    let command = before + (["python3", Self.hostile, mode] + arguments).joined(separator: " ")
    var code: Int32 = 0
    let message = try captureStandardError {
      code = try sweep(
        ["--recognizer", "exec:\(command)", "--set", "threshold=0.5", "--exec-timeout", "1", "--threads", "1"] + options
      ).code
    }
    return (code, message)
  }

  @Test func aProgressBarWithoutALineBreakTimesOut() throws {
    let (code, message) = try hostileSweep("progress")
    #expect(code == 69, "\(message)")
    #expect(message.contains("wrote no complete line for 1 s (--exec-timeout)"), "\(message)")
    #expect(message.contains("working"), "the excerpt shows what it wrote: \(message)")
  }

  @Test func outputWithoutALineBreakIsBoundedInMemory() throws {
    let (code, message) = try hostileSweep("flood")
    #expect(code == 69, "\(message)")
    #expect(message.contains("wrote a line longer than 1048576 bytes"), "\(message)")
  }

  @Test func whatTheCommandStartedDiesWithItAfterASuccessfulRun() throws {
    try inTemporaryDirectory { directory in
      let pidFile = directory + "/sleeper.pid"
      let (code, message) = try hostileSweep("grandchild", [pidFile])
      #expect(code == 0, "\(message)")
      let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8)))
      defer { kill(pid, SIGKILL) }
      // Gone, or a zombie waiting for init to reap it: not running.
      func running() -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state != "Z" && state != "X"
      }
      var tries = 0
      while running() && tries < 100 {
        usleep(20_000)
        tries += 1
      }
      #expect(!running(), "the background `sleep 300` of a finished exec: command still runs")
    }
  }

  @Test func theSpillFileIsCloseOnExecAndChildrenCannotSeeIt() throws {
    let spill = try LatencySpill()
    try withExtendedLifetime(spill) {
      // The spill's descriptor in this process: close-on-exec.
      let mine = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name -> Int32? in
        guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
          link.contains("touchtrace-spill")
        else { return nil }
        return Int32(name)
      }
      #expect(!mine.isEmpty, "the spill file is open")
      for fd in mine {
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(fd) of the spill is inherited by children")
      }
      // What a child sees.
      try inTemporaryDirectory { directory in
        let listing = directory + "/fds.txt"
        let (code, message) = try hostileSweep("fds", [listing])
        #expect(code == 0, "\(message)")
        let seen = try String(contentsOfFile: listing, encoding: .utf8)
        #expect(!seen.contains("touchtrace-spill"), "the child holds the spill file: \(seen)")
      }
    }
  }

  @Test func childrenGetAMinimalEnvironmentAndTheVariablesPassed() throws {
    setenv("TOUCHTRACE_TEST_SECRET", "do not leak", 1)
    setenv("TOUCHTRACE_TEST_PASSED", "wanted", 1)
    defer {
      unsetenv("TOUCHTRACE_TEST_SECRET")
      unsetenv("TOUCHTRACE_TEST_PASSED")
    }
    try inTemporaryDirectory { directory in
      let listing = directory + "/env.txt"
      // Listed by the shell, before python3 (a pyenv shim adds variables of its own).
      let (code, message) = try hostileSweep(
        "plain", before: "env > \(listing); ", options: ["--exec-env", "TOUCHTRACE_TEST_PASSED"])
      #expect(code == 0, "\(message)")
      let names = Set(
        try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").compactMap { line in
          line.split(separator: "=", maxSplits: 1).first.map(String.init)
        })
      #expect(names.contains("TOUCHTRACE_TEST_PASSED"))
      #expect(names.contains("PATH"))
      // What the shell and python add themselves (PWD, SHLVL, _, LC_CTYPE for a C locale).
      let allowed: Set = [
        "PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TOUCHTRACE_TEST_PASSED", "PWD", "SHLVL", "_", "OLDPWD", "LC_CTYPE",
      ]
      #expect(
        names.subtracting(allowed).isEmpty,
        "variables beyond the documented ones: \(names.subtracting(allowed).sorted())")
    }
  }

  @Test func anAnswerWithoutSeqIsAnErrorNotAShift() throws {
    let (code, message) = try hostileSweep("stray")
    #expect(code == 69, "a stray line shifted the answers: \(message)")
    #expect(message.contains("has no \"seq\""), "\(message)")
    #expect(message.contains("hostile.py stray`"), "the command is named: \(message)")
  }
}
