import ArgumentParser
import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

@Suite("touchtrace inspect")
struct InspectCommandTests {
  @Test func exitCodesFollowTheDocumentedTable() {
    inTemporaryDirectory { directory in
      TestData.write("trace,t,force\na,0,1\n", to: directory + "/good.csv")
      TestData.write("trace,t,force\na,0,x\n", to: directory + "/bad.csv")
      #expect(runCommand(["inspect", directory + "/good.csv", "--output", directory + "/out.txt"]) == 0)
      #expect(runCommand(["inspect", directory + "/bad.csv", "--output", directory + "/out2.txt"]) == 65)
      #expect(!TestData.exists(directory + "/out2.txt"))  // nothing is written on error
      #expect(runCommand(["inspect", directory + "/missing.csv"]) == 66)
      #expect(runCommand(["inspect", directory + "/good.csv", "--format", "yaml"]) == 64)
      #expect(runCommand(["inspect", directory + "/good.csv", "--max-force", "-1"]) == 64)
      #expect(runCommand(["inspect"]) == 64)
      // An extra label no trace has keeps nothing: bad data; a name that cannot be a label: usage.
      #expect(runCommand(["inspect", directory + "/good.csv", "--only", "colour=red"]) == 65)
      #expect(runCommand(["inspect", directory + "/good.csv", "--only", "Colour=red"]) == 64)
      #expect(runCommand(["inspect", directory + "/good.csv", "--only", "t=1"]) == 64)
    }
  }

  @Test func jsonAccountsForEveryTrace() throws {
    try inTemporaryDirectory { directory in
      try #require(mkdir(directory + "/data", 0o755) == 0)
      TestData.write(
        "trace,t,force,intent\na,0,0,tap\na,0.01,1,tap\nb,0,0,press\nb,0.01,x,press\n", to: directory + "/data/d.csv")
      // Outside the input directory: a JSON report inside it would be read as traces next time (exit 73).
      let output = directory + "/summary.json"
      #expect(
        runCommand(["inspect", directory + "/data", "--skip-invalid", "--format", "json", "--output", output]) == 0)
      let json = try jsonObject(output)
      let traces = try #require(json["traces"] as? [String: Int])
      #expect(traces == ["total": 2, "analyzed": 1, "skipped": 1])
      #expect(json["samples"] as? Int == 2)
      let skipped = try #require(json["skipped"] as? [[String: Any]])
      #expect(skipped.count == 1)
      #expect(skipped[0]["trace"] as? String == "b")
      #expect(skipped[0]["file"] as? String == directory + "/data/d.csv")
      #expect(skipped[0]["line"] as? Int == 5)
      #expect(skipped[0]["column"] as? Int == 8)
      #expect(skipped[0]["reason"] as? String == "'force' is not a number: 'x'")
      let intents = try #require(json["intents"] as? [String: Int])
      #expect(intents["tap"] == 1 && intents["press"] == 0)
    }
  }
}
