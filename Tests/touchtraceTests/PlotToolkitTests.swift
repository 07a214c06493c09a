import Testing

@testable import TouchReports

/// The plot toolkit of the HTML report against hand-computed values.
@Suite("Plot toolkit")
struct PlotToolkitTests {
  @Test func niceTicksPickOneTwoOrFiveTimesAPowerOfTen() {
    // 0…0.87 in about 5 steps: raw step 0.174 → 1.74 × 0.1 → 2 × 0.1.
    let a = NiceTicks(from: 0, to: 0.87, count: 5)
    #expect(a.step == 0.2)
    #expect(a.values == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
    #expect(a.values.map(a.label) == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
    // −3.2…17: raw 4.04 → 5; widened outwards to −5…20.
    let b = NiceTicks(from: -3.2, to: 17, count: 5)
    #expect(b.step == 5)
    #expect(b.values == [-5, 0, 5, 10, 15, 20])
    #expect(b.values.map(b.label) == ["-5", "0", "5", "10", "15", "20"])
    // 0…255 in about 6 steps: raw 42.5 → 4.25 × 10 → 5 × 10.
    let c = NiceTicks(from: 0, to: 255, count: 6)
    #expect(c.step == 50)
    #expect(c.values == [0, 50, 100, 150, 200, 250, 300])
    // 0.0012…0.0049: raw 0.00074 → 7.4 × 0.0001 → 10 × 0.0001 = 0.001, three decimals.
    let d = NiceTicks(from: 0.0012, to: 0.0049, count: 5)
    #expect(d.step == 0.001)
    #expect(d.values == [0.001, 0.002, 0.003, 0.004, 0.005])
    #expect(d.label(0.003) == "0.003")
    // A single value 2 is widened by 10 %: 1.8…2.2, raw 0.08 → 0.1.
    let e = NiceTicks(from: 2, to: 2, count: 5)
    #expect(e.values == [1.8, 1.9, 2.0, 2.1, 2.2])
    // Exactly 1 × a power of ten: 0…10 in 10 steps is a step of 1.
    #expect(NiceTicks(from: 0, to: 10, count: 10).step == 1)
    // Ends that are not finite, or a width beyond the largest Double, fall back to 0…1 in steps of 0.2.
    #expect(NiceTicks(from: -.infinity, to: 1, count: 5).values == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
    #expect(NiceTicks(from: -1e308, to: 1e308, count: 5).values == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
  }

  @Test func logTicksArePowersOfTenOrOneTwoFiveOverFewDecades() {
    let wide = LogTicks(from: 0.05, to: 255)
    #expect(wide.values == [0.01, 0.1, 1, 10, 100, 1000])
    #expect(wide.values.map(wide.label) == ["0.01", "0.1", "1", "10", "100", "1000"])
    let narrow = LogTicks(from: 1, to: 50)
    #expect(narrow.values == [1, 2, 5, 10, 20, 50, 100])
    #expect(Logarithm.log10(1000) == 3)
    #expect(Logarithm.log10(0.01) == -2)
    // log10 2 = 0.30102999566398119521…
    #expect(abs(Logarithm.log10(2) - 0.301029995663981195) < 1e-15)
    // ln 3 = 1.09861228866810969139…
    #expect(abs(Logarithm.ln(3) - 1.098612288668109691) < 1e-15)
  }

  @Test func linearScalesMapTheDomainOntoTheRange() {
    // A y scale: 0 at the bottom (300), 1 at the top (0).
    let y = LinearScale(domainLower: 0, domainUpper: 1, rangeLower: 300, rangeUpper: 0)
    #expect(y.map(0) == 300)
    #expect(y.map(0.25) == 225)
    #expect(y.map(1) == 0)
    #expect(y.clampedMap(2) == 0)
    // −5…20 onto 64…564: 10 sits at 64 + 15/25 × 500 = 364.
    let x = LinearScale(domainLower: -5, domainUpper: 20, rangeLower: 64, rangeUpper: 564)
    #expect(x.map(10) == 364)
    // A logarithmic scale over 10^-2…10^3 onto 0…500: 1 (log 0) sits at 2/5 × 500 = 200.
    let log = LinearScale(domainLower: -2, domainUpper: 3, rangeLower: 0, rangeUpper: 500, logarithmic: true)
    #expect(log.map(1) == 200)
    #expect(log.map(100) == 400)
    #expect(log.map(0).isNaN)
  }

  @Test func textIsEscapedAndNumbersAreShort() {
    #expect(HTMLText.escape("<a href='x'>&\"b\"</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;b&quot;&lt;/a&gt;")
    #expect(HTMLText.number(12.5) == "12.5")
    #expect(HTMLText.number(3) == "3")
    #expect(HTMLText.number(-0.001) == "0")
    #expect(HTMLText.number(0.125) == "0.13")
    #expect(HTMLText.idPart("tap+deep-press") == "tap_deep-press")
    #expect(HTMLText.idPart("exec:python3 a.py") == "exec_python3_a_py")
    var ids = ElementIDs()
    #expect(ids.unique("fig-x") == "fig-x")
    #expect(ids.unique("fig-x") == "fig-x-2")
  }

  @Test func aPlotDrawsItsMarksInTheDataAreaWithATextAlternative() {
    // Data area 100 × 100 at (64, 32): (0, 0) is (64, 132) and (1, 1) is (164, 32).
    let plot = Plot(
      title: "T <1>", description: "D & d",
      x: PlotAxis(label: "time", unit: "s", domain: (0, 1)), y: PlotAxis(label: "force", domain: (0, 1)),
      marks: [.line([(0, 0), (0.5, .nan), (1, 1)], .series(0)), .markers([(0.5, 0.5, "half")], .dot, .series(1))],
      legend: [LegendEntry(label: "force", style: .series(0))], width: 100, height: 100)
    let svg = plot.render(id: "p")
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" role=\"img\""))
    #expect(svg.contains("aria-labelledby=\"p-title p-desc\""))
    #expect(svg.contains("<title id=\"p-title\">T &lt;1&gt;</title>"))
    #expect(svg.contains("<desc id=\"p-desc\">D &amp; d</desc>"))
    // The NaN point breaks the line into two subpaths.
    #expect(svg.contains("d=\"M64 132 M164 32\""))
    #expect(svg.contains("<circle cx=\"114\" cy=\"82\" r=\"2.5\" fill=\"#D55E00\"><title>half</title></circle>"))
    // Axis titles with units, and ticks 0, 0.2, …, 1 on both axes.
    #expect(svg.contains(">time (s)</text>"))
    #expect(svg.contains(">force</text>"))
    #expect(svg.components(separatedBy: "class=\"tick\"").count - 1 == 12)
    #expect(svg.contains("<g class=\"legend\">"))
  }

  @Test func longLinesKeepEachColumnsExtremes() {
    // 1000 points over 10 unit columns (x 0…9.99): more than 4 × 10, so each column keeps its
    // first, lowest, highest and last point.
    let points: [(Double, Double)?] = (0..<1000).map { k in (Double(k) / 100, Double((k * 37) % 101)) }
    let thinned = Plot.thinned(points, columns: 10)
    #expect(thinned.count <= 40)
    for column in 0..<10 {
      let all = points[(column * 100)..<(column * 100 + 100)].compactMap { $0?.1 }
      let kept = thinned.compactMap { $0 }.filter { Int($0.0) == column }.map(\.1)
      #expect(kept.min() == all.min() && kept.max() == all.max(), "column \(column)")
      #expect(kept.first == all.first && kept.last == all.last, "column \(column)")
    }
    // Short lines and gaps pass through unchanged.
    let short: [(Double, Double)?] = [(0, 1), nil, (2, 3)]
    #expect(Plot.thinned(short, columns: 10).map { $0.map { [$0.0, $0.1] } } == short.map { $0.map { [$0.0, $0.1] } })
  }

  @Test func markdownTablesBecomeHTMLTables() {
    let html = MarkdownHTML.render("# A\n\n- x `y<z`\n\n| a | b |\n|---|--:|\n| 1 | <2> |\n", headingOffset: 1)
    #expect(
      html == """
        <h2>A</h2>
        <ul>
        <li>x <code>y&lt;z</code></li>
        </ul>
        <table>
        <thead><tr><th>a</th><th>b</th></tr></thead>
        <tbody>
        <tr><td>1</td><td class="num">&lt;2&gt;</td></tr>
        </tbody>
        </table>

        """)
  }
}
