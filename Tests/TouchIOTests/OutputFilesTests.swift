import Testing
import TouchIO
import TouchTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one output path: what it refuses, what it keeps, what it leaves behind.
@Suite struct OutputFilesTests {
  /// Runs `body` in a fresh directory holding `t.csv` (an input) and removes it afterwards.
  func inDirectory(_ body: (_ directory: String) throws -> Void) rethrows {
    let directory = TestData.temporaryDirectory("touchtrace-output")
    defer { TestData.remove(directory) }
    TestData.write("input\n", to: directory + "/t.csv")
    try body(directory)
  }

  /// The error `write` throws, `nil` when it succeeds.
  func writeError(_ outputs: [(path: String, bytes: [UInt8])], inputs: [String] = []) -> FileWriteError? {
    do throws(FileWriteError) {
      try OutputFiles(inputs: inputs).write(outputs)
      return nil
    } catch {
      return error
    }
  }

  func contents(_ path: String) -> String? {
    (try? TraceFiles.read(path)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The names in `directory` other than `keep`: leftovers such as temporary files.
  func leftovers(in directory: String, besides keep: Set<String>) -> [String] {
    (TestData.names(in: directory) ?? ["<unreadable>"]).filter { !keep.contains($0) }
  }

  func fileType(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  @Test func writesANewFileAndLeavesNoTemporaryFile() {
    inDirectory { directory in
      #expect(writeError([(directory + "/out.json", Array("{}\n".utf8))]) == nil)
      #expect(contents(directory + "/out.json") == "{}\n")
      #expect(leftovers(in: directory, besides: ["t.csv", "out.json"]) == [])
    }
  }

  @Test(.enabled(if: SystemCapabilities.canMakeDeviceNodes, "skipped: mknod of a device node fails here (needs root)"))
  func refusesADeviceNodeAndLeavesIt() throws {
    try inDirectory { directory in
      let node = directory + "/null"
      try #require(mknod(node, S_IFCHR | 0o666, SystemCapabilities.nullDevice) == 0)
      let error = writeError([(node, Array("x".utf8))])
      #expect(error?.kind == .refused)
      #expect(
        error?.description == "\(node): error: refusing to write: it is a character device; use - for standard output")
      #expect(fileType(node) == S_IFCHR, "the device node is still a device node")
      #expect(leftovers(in: directory, besides: ["t.csv", "null"]) == [])
    }
  }

  @Test func refusesAFIFOWithoutOpeningIt() throws {
    try inDirectory { directory in
      let fifo = directory + "/pipe"
      try #require(mkfifo(fifo, 0o644) == 0)
      // Opening a FIFO without a reader would block: the refusal must come from its type alone.
      let error = writeError([(fifo, Array("x".utf8))])
      #expect(error?.kind == .refused)
      #expect(error?.description.hasPrefix("\(fifo): error: refusing to write: it is a FIFO") == true)
      #expect(fileType(fifo) == S_IFIFO)
    }
  }

  @Test func refusesADirectory() throws {
    try inDirectory { directory in
      try #require(mkdir(directory + "/d", 0o755) == 0)
      #expect(
        writeError([(directory + "/d", [])])?.description
          == "\(directory)/d: error: refusing to write: it is a directory")
      #expect(fileType(directory + "/d") == S_IFDIR)
    }
  }

  @Test func refusesASymbolicLinkAtTheTargetAndLeavesWhatItNames() throws {
    try inDirectory { directory in
      TestData.write("precious\n", to: directory + "/victim")
      try #require(symlink(directory + "/victim", directory + "/out.json") == 0)
      let error = writeError([(directory + "/out.json", Array("{}".utf8))])
      #expect(error?.kind == .refused)
      #expect(error?.reason.hasPrefix("it is a symbolic link") == true)
      #expect(contents(directory + "/victim") == "precious\n")
      #expect(fileType(directory + "/out.json") == S_IFLNK)
    }
  }

  @Test func aLinkPlantedAtTheOldPartialNameIsNotFollowed() throws {
    try inDirectory { directory in
      TestData.write("precious\n", to: directory + "/victim")
      try #require(symlink(directory + "/victim", directory + "/out.json.touchtrace-partial") == 0)
      #expect(writeError([(directory + "/out.json", Array("{}\n".utf8))]) == nil)
      #expect(contents(directory + "/out.json") == "{}\n")
      #expect(contents(directory + "/victim") == "precious\n")
      #expect(fileType(directory + "/out.json.touchtrace-partial") == S_IFLNK)
      #expect(leftovers(in: directory, besides: ["t.csv", "victim", "out.json", "out.json.touchtrace-partial"]) == [])
    }
  }

  @Test func refusesAnInputHoweverItIsSpelled() throws {
    try inDirectory { directory in
      let input = directory + "/t.csv"
      try #require(link(input, directory + "/hard.csv") == 0)
      let spellings = [
        (input, "it is an input of this run"),
        (directory + "/./t.csv", "it is the input \(input) of this run"),
        (
          directory + "/../" + String(directory.split(separator: "/").last!) + "/t.csv",
          "it is the input \(input) of this run"
        ),
        (directory + "/hard.csv", "it is the input \(input) of this run"),
      ]
      for (target, reason) in spellings {
        let error = writeError([(target, Array("new\n".utf8))], inputs: [input])
        #expect(error == FileWriteError(path: target, kind: .refused, reason: reason))
      }
      #expect(contents(input) == "input\n")
    }
  }

  @Test func standardInputRedirectedFromAFileGuardsThatFile() throws {
    try inDirectory { directory in
      let input = directory + "/t.csv"
      let saved = dup(STDIN_FILENO)
      let file = open(input, O_RDONLY)
      try #require(saved >= 0 && file >= 0)
      dup2(file, STDIN_FILENO)
      close(file)
      defer {
        dup2(saved, STDIN_FILENO)
        close(saved)
      }
      let error = writeError([(input, Array("new\n".utf8))], inputs: ["-"])
      #expect(error == FileWriteError(path: input, kind: .refused, reason: "it is this run's standard input"))
      #expect(contents(input) == "input\n")
    }
  }

  @Test func refusesTraceFilesInsideAnInputDirectoryButNotOtherFiles() throws {
    try inDirectory { directory in
      try #require(mkdir(directory + "/sub", 0o755) == 0)
      let error = writeError([(directory + "/sub/report.json", Array("{}".utf8))], inputs: [directory])
      #expect(error?.kind == .refused)
      #expect(error?.reason.contains("inside the input directory") == true)
      #expect(!TestData.exists(directory + "/sub/report.json"))
      // A Markdown report is never read as a trace, and hidden names are skipped by the loader.
      #expect(writeError([(directory + "/sub/report.md", Array("# r\n".utf8))], inputs: [directory]) == nil)
      #expect(writeError([(directory + "/.report.json", Array("{}".utf8))], inputs: [directory]) == nil)
      // The input files inside the directory are inputs too, under any name.
      let renamed = writeError([(directory + "/./t.csv", Array("x".utf8))], inputs: [directory])
      #expect(renamed?.reason == "it is the input \(directory)/t.csv of this run")
    }
  }

  @Test func keepsTheModeOfTheReplacedFile() throws {
    try inDirectory { directory in
      let target = directory + "/secret.csv"
      TestData.write("old\n", to: target)
      try #require(chmod(target, 0o600) == 0)
      #expect(writeError([(target, Array("new\n".utf8))]) == nil)
      var info = stat()
      try #require(stat(target, &info) == 0)
      #expect(info.st_mode & 0o7777 == 0o600)
      #expect(contents(target) == "new\n")
    }
  }

  @Test func severalOutputsCommitAllOrNothing() {
    inDirectory { directory in
      let first = directory + "/a.md"
      let second = directory + "/b.json"
      TestData.write("old a\n", to: first)
      TestData.write("old b\n", to: second)
      // The last output fails after the first two are written: its directory does not exist.
      let error = writeError([
        (first, Array("new a\n".utf8)), (second, Array("new b\n".utf8)),
        (directory + "/missing/c.csv", Array("c\n".utf8)),
      ])
      #expect(
        error
          == FileWriteError(
            path: directory + "/missing/c.csv", kind: .cannotCreate, reason: "no such file or directory"))
      #expect(contents(first) == "old a\n" && contents(second) == "old b\n")
      #expect(leftovers(in: directory, besides: ["t.csv", "a.md", "b.json"]) == [])
    }
  }

  @Test func theSameTargetTwiceIsRefused() {
    inDirectory { directory in
      let error = writeError([(directory + "/r.json", Array("1".utf8)), (directory + "/./r.json", Array("2".utf8))])
      #expect(error?.reason == "it is named twice among this run's outputs")
      #expect(!TestData.exists(directory + "/r.json"))
    }
  }

  @Test func concurrentWritersOfOneTargetDoNotCollide() async throws {
    let directory = TestData.temporaryDirectory("touchtrace-output")
    defer { TestData.remove(directory) }
    let target = directory + "/shared.json"
    let failures = await withTaskGroup(of: FileWriteError?.self) { group in
      for writer in 0..<16 {
        group.addTask {
          do throws(FileWriteError) {
            try OutputFiles().write([(target, Array(String(repeating: "\(writer % 10)", count: 50_000).utf8))])
            return nil
          } catch {
            return error
          }
        }
      }
      var failures: [FileWriteError] = []
      for await failure in group { if let failure { failures.append(failure) } }
      return failures
    }
    #expect(failures == [])
    let text = try #require(contents(target))
    #expect(text.count == 50_000 && Set(text).count == 1, "one writer's whole output")
    #expect(leftovers(in: directory, besides: ["shared.json"]) == [])
  }

  @Test(.enabled(if: SystemCapabilities.canMountTmpfs, "skipped: cannot mount a 64 KiB tmpfs here (needs root)"))
  func aFullDiskFailsWithAnIOErrorAndLeavesTheTargetAlone() throws {
    try SystemCapabilities.withSmallDisk(kilobytes: 64) { directory in
      let target = directory + "/big.csv"
      TestData.write("old\n", to: target)
      let error = writeError([(target, [UInt8](repeating: UInt8(ascii: "x"), count: 256 * 1024))])
      #expect(error == FileWriteError(path: target, kind: .io, reason: "no space left on device"))
      #expect(error?.description == "\(target): error: cannot write file: no space left on device")
      #expect(contents(target) == "old\n")
      #expect(leftovers(in: directory, besides: ["big.csv"]) == [])
    }
  }
}
