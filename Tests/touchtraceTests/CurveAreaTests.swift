import Foundation
import Testing
import TouchReports
import TouchTestSupport

@testable import TouchTraceCLI

/// ROC AUC and average precision of `ThresholdCurve` against scikit-learn and NumPy
/// (Tests/touchtraceTests/Fixtures/curves/curve-areas.json, made by Scripts/make-curve-fixtures.py).
@Suite("ROC AUC and average precision")
struct CurveAreaTests {
  struct Fixture: Decodable {
    struct Scored: Decodable {
      var name: String
      var scores: [Double]
      var labels: [Int]
      var roc_auc: Double
      var average_precision: Double
    }
    struct Points: Decodable {
      var name: String
      var fpr: [Double]
      var recall: [Double]
      var precision: [Double]
      var value: [Double]
      var roc_auc: Double
      var average_precision: Double
      var average_precision_threshold_order: Double
    }
    var scored: [Scored]
    var points: [Points]
  }

  static let fixture: Fixture = {
    let path = TestData.repositoryRoot + "/Tests/touchtraceTests/Fixtures/curves/curve-areas.json"
    return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  }()

  /// The points a threshold at every distinct score (and one above the highest) gives: positive
  /// when score ≥ threshold.
  static func sweep(_ case: Fixture.Scored) -> (
    roc: [(falsePositiveRate: Double, recall: Double)], pr: [(recall: Double, precision: Double)]
  ) {
    let thresholds = [Double.infinity] + Set(`case`.scores).sorted(by: >)
    let positives = `case`.labels.filter { $0 == 1 }.count
    let negatives = `case`.labels.count - positives
    var roc: [(falsePositiveRate: Double, recall: Double)] = []
    var pr: [(recall: Double, precision: Double)] = []
    for threshold in thresholds {
      var tp = 0
      var fp = 0
      for (score, label) in zip(`case`.scores, `case`.labels) where score >= threshold {
        if label == 1 { tp += 1 } else { fp += 1 }
      }
      let recall = Double(tp) / Double(positives)
      roc.append((Double(fp) / Double(negatives), recall))
      if tp + fp > 0 { pr.append((recall, Double(tp) / Double(tp + fp))) }
    }
    return (roc, pr)
  }

  /// The curves span [0, 1] and their areas are the reference's, to 1e-12.
  static func expectAreas(
    _ roc: [(falsePositiveRate: Double, recall: Double)], _ pr: [(recall: Double, precision: Double)], name: String,
    rocAUC: Double, ap expectedAP: Double, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(ThresholdCurve.spans(roc), sourceLocation: sourceLocation)
    let auc = try #require(ThresholdCurve.rocArea(roc), sourceLocation: sourceLocation)
    let ap = try #require(ThresholdCurve.averagePrecision(pr), sourceLocation: sourceLocation)
    #expect(abs(auc - rocAUC) < 1e-12, "\(name): AUC \(auc) vs \(rocAUC)", sourceLocation: sourceLocation)
    #expect(abs(ap - expectedAP) < 1e-12, "\(name): AP \(ap) vs \(expectedAP)", sourceLocation: sourceLocation)
  }

  @Test(arguments: 0..<3) func scoredDataMatchScikitLearn(_ k: Int) throws {
    let reference = Self.fixture.scored[k]
    let (roc, pr) = Self.sweep(reference)
    try Self.expectAreas(roc, pr, name: reference.name, rocAUC: reference.roc_auc, ap: reference.average_precision)
    // The thresholds walked from strictest to loosest (`sweep` lists them so): the same on a score.
    let walked = try #require(ThresholdCurve.averagePrecisionInThresholdOrder(pr))
    #expect(abs(walked - reference.average_precision) < 1e-12, "\(reference.name): walked AP \(walked)")
  }

  @Test(arguments: 0..<2) func thresholdOrderMatchesScikitLearnsFormulaWhereRecallIsNotMonotone(_ k: Int) throws {
    let reference = Self.fixture.points[k]
    // Points as a sweep gives them, ascending threshold values; the curve walks them from the
    // strictest end (the lower FPR: here the highest value).
    let ascending = reference.value.indices.sorted { reference.value[$0] < reference.value[$1] }
    let points = ascending.map { i in
      ThresholdCurve.Point(
        configuration: i, value: reference.value[i], falsePositiveRate: reference.fpr[i], recall: reference.recall[i],
        precision: reference.precision[i])
    }
    let walk = ThresholdCurve.strictestFirst(points)
    #expect(walk.first?.falsePositiveRate == 0 && walk.last?.falsePositiveRate == 1)
    let ap = try #require(ThresholdCurve.averagePrecisionInThresholdOrder(walk.map { ($0.recall!, $0.precision!) }))
    #expect(
      abs(ap - reference.average_precision_threshold_order) < 1e-12,
      "\(reference.name): \(ap) vs \(reference.average_precision_threshold_order)")
    // Recall falls somewhere on these curves, so the recall-ordered sum is another number.
    #expect(abs(reference.average_precision - reference.average_precision_threshold_order) > 1e-3)
  }

  @Test(arguments: 0..<2) func unorderedPointsMatchNumPy(_ k: Int) throws {
    let reference = Self.fixture.points[k]
    // Shuffled deterministically: the order of the configurations must not matter.
    let order = reference.fpr.indices.sorted { ($0 * 7919) % reference.fpr.count < ($1 * 7919) % reference.fpr.count }
    let roc = order.map { (falsePositiveRate: reference.fpr[$0], recall: reference.recall[$0]) }
    let pr = order.map { (recall: reference.recall[$0], precision: reference.precision[$0]) }
    try Self.expectAreas(roc, pr, name: reference.name, rocAUC: reference.roc_auc, ap: reference.average_precision)
  }

  @Test func spanningNeedsBothEndsOfTheFalsePositiveRate() {
    // Hand-computed: (0, 0.5), (0.5, 0.5), (1, 1): 0.5 × 0.5 + 0.5 × 0.75 = 0.625.
    let full: [(falsePositiveRate: Double, recall: Double)] = [(0, 0.5), (0.5, 0.5), (1, 1)]
    #expect(ThresholdCurve.spans(full))
    #expect(ThresholdCurve.rocArea(full) == 0.625)
    #expect(!ThresholdCurve.spans([(0.053, 0.14), (0.5, 0.6), (1, 0.2)]))
    #expect(!ThresholdCurve.spans([(0, 0), (0.9, 0.8)]))
    #expect(!ThresholdCurve.spans([(0, 0)]))
    // AP by hand: recalls 0.2, 0.2, 0.6 with precisions 0.9, 0.5, 0.4: 0.2 × 0.9 + 0.4 × 0.4 = 0.34.
    let ap = ThresholdCurve.averagePrecision([(0.6, 0.4), (0.2, 0.5), (0.2, 0.9)])!
    #expect(abs(ap - 0.34) < 1e-15)
    // Walked strictest first, recall 0.5 then 0.8 then 0.6 (an early action lost at the loosest):
    // 0.5 × 0.9 + 0.3 × 0.7 − 0.2 × 0.5 = 0.56; in recall order 0.5 × 0.9 + 0.1 × 0.5 + 0.2 × 0.7 = 0.64.
    let walked = ThresholdCurve.averagePrecisionInThresholdOrder([(0.5, 0.9), (0.8, 0.7), (0.6, 0.5)])!
    #expect(abs(walked - 0.56) < 1e-15)
    let sorted = ThresholdCurve.averagePrecision([(0.5, 0.9), (0.8, 0.7), (0.6, 0.5)])!
    #expect(abs(sorted - 0.64) < 1e-15)
  }
}

/// `curves` of the sweep's JSON and Markdown on traces whose counts are worked out by hand.
@Suite("Threshold curves in the sweep report")
struct SweepCurveReportTests {
  /// One press (peak 0.8, reference 0.1 s), a tap (peak 0.7) and a hold (peak 0.2), maximum 1:
  /// the sweep command tests' traces without their unlabeled one.
  static let traces =
    SweepCommandTests.traces.split(separator: "\n", omittingEmptySubsequences: false)
    .filter { !$0.hasPrefix("d,") }.joined(separator: "\n")

  @Test func areasOfAHandWorkedSweep() throws {
    let arguments = ["--recognizer", "deep-press", "--vary", "threshold=0.1,0.5,0.95"]
    let root = try jsonObject(parsing: report("sweep", on: Self.traces, arguments, as: "json"))
    let curves = try #require(root["curves"] as? [[String: Any]])
    #expect(curves.count == 1)
    let curve = curves[0]
    #expect(curve["recognizer"] as? String == "deep-press")
    #expect(curve["parameter"] as? String == "threshold")
    #expect(curve["spans"] as? Bool == true)
    // threshold 0.1: a (TP), b and c fire: FPR 1, recall 1, precision 1/3.
    // threshold 0.5: a (TP), b fires: FPR 1/2, recall 1, precision 1/2.
    // threshold 0.95: nothing fires: FPR 0, recall 0, no precision.
    let points = try #require(curve["points"] as? [[String: Any]])
    #expect(points.map { $0["value"] as? Double } == [0.1, 0.5, 0.95])
    #expect(points.map { $0["fpr"] as? Double } == [1, 0.5, 0])
    #expect(points.map { $0["recall"] as? Double } == [1, 1, 0])
    #expect(points[2]["precision"] is NSNull)
    // ROC: (0, 0) → (0.5, 1) → (1, 1): 0.5 × 0.5 + 0.5 × 1 = 0.75.
    #expect(curve["roc_auc"] as? Double == 0.75)
    // AP: recall 1 first reached at precision 1/2 (the stricter threshold): 1 × 1/2.
    #expect(curve["average_precision"] as? Double == 0.5)
    // Walked from the strictest (0.95, FPR 0, no precision) to 0.5 (recall 1, precision 1/2)
    // and 0.1 (recall 1, precision 1/3): 1 × 1/2 + 0 × 1/3.
    #expect(curve["average_precision_threshold_order"] as? Double == 0.5)
    let markdown = try report("sweep", on: Self.traces, arguments, as: "md")
    #expect(markdown.contains("| deep-press | threshold | 0.1 … 0.95 | 3 | yes | 0.750 | 0.500 | 0.500 |"))
  }

  @Test func aSweepThatDoesNotSpanHasNoAreas() throws {
    // 0.5: FPR 1/2 (the tap fires); 0.75: FPR 0 (the tap peaks at 0.7). FPR 1 is never reached.
    let root = try jsonObject(
      parsing: report(
        "sweep", on: Self.traces, ["--recognizer", "deep-press", "--vary", "threshold=0.5,0.75"], as: "json"))
    let curve = try #require((root["curves"] as? [[String: Any]])?.first)
    #expect(curve["spans"] as? Bool == false)
    #expect(curve["roc_auc"] is NSNull)
    #expect(curve["average_precision"] is NSNull)
    #expect(curve["average_precision_threshold_order"] is NSNull)
  }
}
