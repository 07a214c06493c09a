import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// `touchtrace capture`: what is refused before anything is bound or written.
@Suite struct CaptureCommandTests {
  @Test func nonLoopbackHostWithoutTokenIsAUsageError() {
    inTemporaryDirectory { directory in
      let dataset = directory + "/dataset"
      #expect(runCommand(["capture", "--dataset", dataset, "--host", "0.0.0.0"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--host", "192.168.1.20", "--port", "0"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--intents", "press,squeeze"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--count", "0"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--format", "csv"]) == 64)
      #expect(!TestData.exists(dataset))
    }
  }

  @Test func aDatasetThatIsAFileCannotBeUsed() {
    inTemporaryDirectory(writing: "trace,t,force\na,0,0.1\n") { directory in
      #expect(runCommand(["capture", "--dataset", directory + "/t.csv", "--port", "0", "--quiet"]) == 73)
    }
  }
}
