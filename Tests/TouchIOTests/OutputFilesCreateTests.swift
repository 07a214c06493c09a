import Testing
import TouchIO
import TouchTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `OutputFiles.create`: a new file or nothing, never a replaced one.
@Suite struct OutputFilesCreateTests {
  func createError(_ path: String, _ text: String) -> FileWriteError? {
    do throws(FileWriteError) {
      try OutputFiles().create(path, bytes: Array(text.utf8))
      return nil
    } catch {
      return error
    }
  }

  func names(in directory: String) -> [String] { TestData.names(in: directory) ?? ["<unreadable>"] }

  func contents(_ path: String) -> String? {
    (try? TraceFiles.read(path)).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func createsANewFileAndLeavesNoTemporaryFile() {
    let directory = TestData.temporaryDirectory("touchtrace-create")
    defer { TestData.remove(directory) }
    #expect(createError(directory + "/new.json", "{}\n") == nil)
    #expect(contents(directory + "/new.json") == "{}\n")
    #expect(names(in: directory) == ["new.json"])
  }

  @Test func neverReplacesAnExistingFileOrLink() {
    let directory = TestData.temporaryDirectory("touchtrace-create")
    defer { TestData.remove(directory) }
    TestData.write("mine\n", to: directory + "/taken.json")
    let error = createError(directory + "/taken.json", "theirs\n")
    #expect(error?.kind == .refused)
    #expect(error?.reason.contains("exists") == true)
    #expect(contents(directory + "/taken.json") == "mine\n")
    // A symbolic link (even to nowhere) is refused, not followed.
    #expect(symlink(directory + "/nowhere.json", directory + "/link.json") == 0)
    #expect(createError(directory + "/link.json", "x\n")?.kind == .refused)
    #expect(names(in: directory) == ["link.json", "taken.json"])
  }

  @Test func aMissingDirectoryCannotBeCreated() {
    let directory = TestData.temporaryDirectory("touchtrace-create")
    defer { TestData.remove(directory) }
    #expect(createError(directory + "/missing/new.json", "x\n")?.kind == .cannotCreate)
  }
}
