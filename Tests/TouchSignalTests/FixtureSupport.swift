import Foundation
import Testing
import TouchSignal

/// Reference outputs written by `Scripts/make-fixtures.py` (NumPy/SciPy), bundled as resources.
enum Fixture {
  /// Decodes `Fixtures/<name>`.
  static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
      "fixture \(name) is missing; run Scripts/make-fixtures.py")
    return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
  }

  /// A fixture made of cases.
  struct Cases<Case: Decodable>: Decodable {
    var cases: [Case]
  }

  /// Loads the cases of `Fixtures/<name>`, expects `count` of them, and compares the output
  /// `smooth` computes for each case with the case's expected values (see ``expectAllClose``).
  /// - Returns: the cases, for further checks.
  @discardableResult
  static func expectCases<Case: Decodable & ReferenceCase>(
    _ name: String, count: Int, _ smooth: (Case) throws -> (output: [Double], context: String),
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [Case] {
    let cases = try load(name, as: Cases<Case>.self).cases
    #expect(cases.count == count, sourceLocation: sourceLocation)
    for c in cases {
      let (output, context) = try smooth(c)
      expectAllClose(output, c.expected, context, sourceLocation: sourceLocation)
    }
    return cases
  }
}

/// A fixture case with reference output values.
protocol ReferenceCase {
  /// The reference output, one value per input sample.
  var expected: [Double] { get }
}

extension EndHandling {
  /// The end rule named in a fixture.
  init(fixture name: String) {
    self.init(rawValue: name)!
  }
}

/// Expects `actual` to equal `expected` element by element within `relative` (relative to
/// `max(|expected|, 1)`), naming the first index that differs.
func expectAllClose(
  _ actual: [Double], _ expected: [Double], relative: Double = 1e-9, _ context: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    actual.count == expected.count, "\(context): \(actual.count) values, expected \(expected.count)",
    sourceLocation: sourceLocation)
  guard actual.count == expected.count else { return }
  for i in actual.indices where abs(actual[i] - expected[i]) > relative * max(abs(expected[i]), 1) {
    Issue.record("\(context): index \(i) is \(actual[i]), expected \(expected[i])", sourceLocation: sourceLocation)
    return
  }
}
