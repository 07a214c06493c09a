import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// `--format html` of `sweep`, `tune` and `compare`: structure, self-containment, escaping,
/// determinism.
@Suite("HTML reports")
struct HTMLReportTests {
  /// A trace whose id and user hold markup, a miss of deep-press at 0.9 (force peaks at 0.8),
  /// so it is drawn as an example.
  static let traces = """
    trace,t,force,max_force,intent,press_at,user
    "<script>alert(1)</script>&",0,0,1,press,0.1,"u<1>"
    "<script>alert(1)</script>&",0.05,0.3,1,press,0.1,"u<1>"
    "<script>alert(1)</script>&",0.1,0.6,1,press,0.1,"u<1>"
    "<script>alert(1)</script>&",0.15,0.8,1,press,0.1,"u<1>"
    "<script>alert(1)</script>&",0.2,0.1,1,press,0.1,"u<1>"
    b,0,0,1,tap,,u2
    b,0.05,0.7,1,tap,,u2
    b,0.1,0,1,tap,,u2
    c,0,0,1,hold,,u3
    c,0.1,0.2,1,hold,,u3
    c,0.2,0.1,1,hold,,u3

    """

  static func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  /// The ids of the `<figure>` elements, in order.
  static func figureIDs(_ html: String) -> [String] {
    html.components(separatedBy: "<figure id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
  }

  /// Whether the page refers to nothing outside itself: no `src`/`href` other than in-page
  /// anchors, no `<link>`, no `url(` other than `url(#…)`, no `@import`, and `http` only in the
  /// SVG namespace.
  static func isSelfContained(_ html: String) -> Bool {
    let withoutNamespace = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    return !withoutNamespace.contains("http") && !html.contains(" src=") && !html.contains("<link")
      && !html.contains("@import") && html.components(separatedBy: "url(").dropFirst().allSatisfy { $0.hasPrefix("#") }
      && html.components(separatedBy: "href=\"").dropFirst().allSatisfy { $0.hasPrefix("#") }
  }

  @Test func sweepHasEveryFigureAndNothingExternal() throws {
    let html = try reportWithJSON(
      ["sweep", TestData.samples, "--recognizer", "deep-press,peek-pop,tap+deep-press", "--quiet"], as: "html"
    ).report
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(html.hasSuffix("</html>\n"))
    let ids = Self.figureIDs(html)
    let expected = [
      "fig-metrics-deep-press", "fig-metrics-peek-pop", "fig-metrics-tap_deep-press", "fig-roc", "fig-pr",
      "fig-latency-cdf",
      "fig-latency-param", "fig-tradeoff", "fig-fp-intent", "fig-confusion", "fig-examples-deep-press",
      "fig-examples-peek-pop",
      "fig-examples-tap_deep-press",
    ]
    #expect(ids == expected)
    #expect(Set(ids).count == ids.count)
    #expect(Self.isSelfContained(html))
    // Every plot has a title and a description named by aria-labelledby.
    let plots = html.components(separatedBy: "<svg ").count - 1
    #expect(plots >= ids.count)
    #expect(html.components(separatedBy: "role=\"img\"").count - 1 == plots)
    #expect(html.components(separatedBy: "<desc id=").count - 1 == plots)
    // The tables of the Markdown report follow.
    #expect(html.contains("<h3>Best configuration per recognizer (by F1)</h3>"))
    #expect(html.contains("<h3>Threshold curves (ROC AUC, average precision)</h3>"))
    // Only toggling script, no external one.
    #expect(html.components(separatedBy: "<script").count - 1 == 1)
    #expect(html.contains("<script>\n"))
  }

  @Test func traceNamesAndLabelsAreEscaped() throws {
    let html = try report(
      "sweep", on: Self.traces, ["--recognizer", "deep-press", "--vary", "threshold=0.85,0.9"], as: "html")
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;"))
    #expect(!html.contains("<script>alert"))
    #expect(html.components(separatedBy: "<script").count - 1 == 1)
    #expect(Self.figureIDs(html).contains("fig-examples-deep-press"))
  }

  /// The study file in the page is a `<pre>` block to copy back: its text is `--print-config`'s
  /// TOML less the comment line and the options a report leaves out (outputs, format, threads,
  /// quietness, batch size); Markdown emphasis is rendered (`tune`'s chosen configuration in
  /// `<strong>`), never shown as `**`; no fence is left as text.
  @Test func theStudyFileIsACopyableBlockAndEmphasisIsRendered() throws {
    let arguments = [
      "tune", TestData.samples, "--recognizer", "deep-press,stable-press", "--folds", "0", "--bootstrap", "0",
    ]
    let html = try report(arguments + ["--format", "html", "--quiet"], as: "html")
    let printed = try runTouchtrace(arguments + ["--print-config"], in: TestData.repositoryRoot)
    #expect(printed.code == 0)
    // What a report leaves out of its configuration: the outputs and the global options.
    let left = StudyFile.Effective.presentation
    let expected =
      printed.output.split(separator: "\n").filter { line in
        !line.hasPrefix("#") && !left.contains { line.hasPrefix($0 + " = ") }
      }.joined(separator: "\n") + "\n"
    let blocks = html.components(separatedBy: "<pre><code class=\"language-toml\">").dropFirst()
    #expect(blocks.count == 1)
    let escaped = try #require(blocks.first?.components(separatedBy: "</code></pre>").first)
    let text = escaped.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
    #expect(text == expected)
    #expect(!html.contains("~~~") && !html.contains("**"))
    #expect(html.contains("<strong>stable-press</strong>"))
  }

  /// Every catalog recognizer on the samples: no plot of ROC, precision–recall, latency CDF or
  /// the trade-off draws more than eight series; identical curves (the first-crossing family
  /// meets at the same points) are drawn once and named together, and the left-out recognizers
  /// are named.
  @Test func plotsDrawAtMostEightSeries() throws {
    let html = try report(["sweep", TestData.samples, "--recognizer", "all", "--quiet"], as: "html")
    for id in ["fig-roc", "fig-pr", "fig-latency-cdf", "fig-tradeoff"] {
      let figure = try #require(
        html.components(separatedBy: "<figure id=\"\(id)\"").dropFirst().first?
          .components(separatedBy: "</figure>").first, "\(id)")
      let labels = figure.components(separatedBy: "<text class=\"legend-label\"").dropFirst().map {
        String($0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
      }
      let series = labels.filter { $0 != "Pareto front" && $0 != "chosen configuration" }
      #expect(!series.isEmpty && series.count <= 8, "\(id): \(series.count) series")
    }
    let roc = try #require(html.components(separatedBy: "<figure id=\"fig-roc\"").dropFirst().first)
    #expect(roc.contains("deep-press = ") && roc.contains("Identical curves are drawn once"))
  }

  @Test func theSameInputsGiveTheSameBytesWhateverTheThreads() throws {
    let arguments = [
      "sweep", TestData.samples, "--recognizer", "deep-press,long-press", "--format", "html", "--quiet",
    ]
    let a = try report(arguments + ["--threads", "1"], as: "html")
    let b = try report(arguments + ["--threads", "2"], as: "html")
    #expect(a == b)
  }

  @Test func theHtmlEndingPicksTheFormat() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      #expect(
        runCommand(["sweep", directory + "/t.csv", "--recognizer", "deep-press", "--output", directory + "/r.html"])
          == 0)
      let html = try Self.read(directory + "/r.html")
      #expect(html.hasPrefix("<!DOCTYPE html>"))
      // Other commands do not take html.
      #expect(runCommand(["run", directory + "/t.csv", "--recognizer", "deep-press", "--format", "html"]) == 64)
    }
  }

  @Test func tuneMarksTheChosenConfiguration() throws {
    let html = try report(
      [
        "tune", TestData.samples, "--recognizer", "deep-press", "--folds", "0", "--bootstrap", "0", "--format", "html",
        "--quiet",
      ], as: "html")
    let ids = Self.figureIDs(html)
    for id in [
      "fig-metrics-deep-press", "fig-roc", "fig-pr", "fig-latency-cdf", "fig-latency-param", "fig-tradeoff",
      "fig-fp-intent", "fig-examples-deep-press",
    ] {
      #expect(ids.contains(id), "\(id)")
    }
    // The chosen configuration is ringed on the trade-off plot (and on its recognizer's plot).
    let tradeoff = try #require(
      html.components(separatedBy: "<figure id=\"fig-tradeoff\"").last?.components(separatedBy: "</figure>").first)
    #expect(tradeoff.contains("class=\"chosen\""))
    #expect(tradeoff.contains("chosen configuration"))
    // The tune report's Markdown tables follow.
    #expect(html.contains("<h2>Tune</h2>"))
    #expect(html.contains("<h3>Threshold curves (ROC AUC, average precision)</h3>"))
    #expect(Self.isSelfContained(html))
  }

  /// With cross-validation, tune draws each fold's in-sample and held-out score: one point of
  /// each per fold (6 folds by user on the iPhone traces), the held-out values those of the JSON
  /// report's folds.
  @Test func tuneDrawsInSampleAgainstHeldOutPerFold() throws {
    let arguments = [
      "tune", TestData.samples, "--only", "device=iphone6s", "--recognizer", "deep-press,stable-press", "--group-by",
      "user", "--folds", "6", "--bootstrap", "0", "--quiet",
    ]
    let html = try report(arguments + ["--format", "html"], as: "html")
    #expect(Self.figureIDs(html).first == "fig-cv")
    let figure = try #require(
      html.components(separatedBy: "<figure id=\"fig-cv\"").last?.components(separatedBy: "</figure>").first)
    let inSample = figure.components(separatedBy: ": in-sample F1 ").count - 1
    let heldOut = figure.components(separatedBy: ": held-out F1 ").count - 1
    #expect(inSample == 6 && heldOut == 6)
    let json = try jsonObject(parsing: report(arguments + ["--format", "json"], as: "json"))
    let folds = try #require((json["cross_validation"] as? [String: Any])?["results"] as? [[String: Any]])
    #expect(folds.count == 6)
    for fold in folds {
      let f1 = try #require((fold["held_out"] as? [String: Any])?["f1"] as? Double)
      let number = try #require(fold["fold"] as? Int)
      #expect(figure.contains("fold \(number), "), "fold \(number)")
      #expect(figure.contains(": held-out F1 \(String(format: "%.3f", f1))"), "fold \(number): \(f1)")
    }
  }

  @Test func compareDrawsBothConfigurations() throws {
    let html = try report(
      [
        "compare", TestData.samples, "--a", "deep-press:threshold=0.35", "--b", "deep-press:threshold=0.6",
        "--bootstrap", "0", "--format", "html",
      ], as: "html")
    let ids = Self.figureIDs(html)
    #expect(ids.starts(with: ["fig-latency-cdf", "fig-latency-diff", "fig-fp-intent"]))
    #expect(ids.contains("fig-examples-disagreements"))
    #expect(html.contains("<h2>Compare</h2>"))
    #expect(html.contains("A: deep-press threshold=0.35"))
    #expect(html.contains("B: deep-press threshold=0.6"))
    #expect(Self.isSelfContained(html))
  }
}

extension HTMLReportTests {
  /// The figures of a page: from its first `<figure` to its tables.
  static func figures(_ html: String) -> Substring {
    guard let start = html.range(of: "<figure"), let end = html.range(of: "<section id=\"tables\">") else { return "" }
    return html[start.lowerBound..<end.lowerBound]
  }

  /// `tune` keeps no sample for its HTML figures when it can read its traces again: a second
  /// read, of the spooled analyzed traces (a file's or standard input's) or of the file
  /// (`--spool-limit 0`), draws the figures that every trace kept in memory draws (standard
  /// input without a spool takes that path), byte for byte, example traces included. `compare`
  /// keeps the traces it draws as they pass, on any input: the same figures too.
  @Test(.debugTouchtraceIsBuilt)
  func aSecondReadDrawsTheFiguresOfEveryTraceKept() throws {
    try inTemporaryDirectory { directory in
      let input = directory + "/in.csv"
      TestData.write(try Self.read(TestData.samples + "/synth-iphone6s.csv"), to: input)
      let commands = [
        ("compare", "--a deep-press --b stable-press --group-by user --bootstrap 20"),
        ("tune", "--recognizer deep-press,peek-pop --folds 3 --group-by user --bootstrap 0 --batch-traces 7"),
      ]
      for (k, (command, options)) in commands.enumerated() {
        let outputs = ["kept", "reread", "spooled", "spooled-stdin"].map { directory + "/\($0)-\(k).html" }
        let binary = "'\(debugTouchtrace)' \(command)"
        let script = """
          \(binary) - \(options) --quiet --spool-limit 0 --output '\(outputs[0])' < '\(input)' && \
          \(binary) '\(input)' \(options) --quiet --spool-limit 0 --output '\(outputs[1])' && \
          \(binary) '\(input)' \(options) --quiet --output '\(outputs[2])' && \
          \(binary) - \(options) --quiet --output '\(outputs[3])' < '\(input)'
          """
        let shell = try runChild("/bin/sh", ["-c", script])
        #expect(shell.code == 0, "\(shell.errors)")
        let figures = Self.figures(try Self.read(outputs[0]))
        #expect(figures.count > 10_000)
        for output in outputs.dropFirst() {
          #expect(figures == Self.figures(try Self.read(output)), "\(command) \(output)")
        }
      }
      #expect(Self.figureIDs(try Self.read(directory + "/reread-0.html")).contains("fig-examples-disagreements"))
    }
  }
}

extension HTMLReportTests {
  /// The plot titles of a figure, in order.
  static func plotTitles(_ html: String, figure id: String) -> [String] {
    guard let start = html.range(of: "<figure id=\"\(id)\"") else { return [] }
    let figure = html[start.upperBound...]
    let end = figure.range(of: "</figure>")?.lowerBound ?? figure.endIndex
    return figure[..<end].components(separatedBy: "<text class=\"plot-title\"").dropFirst().map {
      String($0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
    }
  }

  /// `compare` chooses the traces it draws as the batches pass (batches of 7 here): the first
  /// four by name where exactly one of A and B is correct, counted from its own `--outcomes`
  /// table (a trace is correct without an FP or FN row), the same as from one batch of all.
  @Test func compareDrawsTheFirstDisagreementsByName() throws {
    try inTemporaryDirectory { directory in
      let (html, table) = (directory + "/c.html", directory + "/c.csv")
      let command = ["compare", TestData.samples, "--a", "deep-press", "--b", "stable-press", "--quiet"]
      #expect(runCommand(command + ["--batch-traces", "7", "--output", html, "--outcomes", table]) == 0)
      var wrong: [Int: Set<String>] = [0: [], 1: []]
      var names: Set<String> = []
      for row in try OutcomeTests.table(table).rows {
        let (configuration, trace, outcome) = (Int(row[0])!, row[3], row[11])
        names.insert(trace)
        if outcome == "FP" || outcome == "FN" { wrong[configuration]!.insert(trace) }
      }
      let expected = names.filter { wrong[0]!.contains($0) != wrong[1]!.contains($0) }.sorted().prefix(4)
      #expect(expected.count == 4)
      let drawn = Self.plotTitles(try Self.read(html), figure: "fig-examples-disagreements").map {
        String($0.prefix { $0 != " " })
      }
      #expect(drawn == Array(expected))
      let whole = directory + "/whole.html"
      #expect(runCommand(command + ["--batch-traces", "100000", "--output", whole]) == 0)
      #expect(Self.figures(try Self.read(whole)) == Self.figures(try Self.read(html)))
    }
  }
}
