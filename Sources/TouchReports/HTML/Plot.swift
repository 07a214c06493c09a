/// The plot toolkit: a chart is a ``Plot`` (two axes, marks, a legend and a text alternative)
/// rendered to inline SVG; a ``Figure`` groups one or more plots under an element id with a
/// title and a caption. Every figure of the HTML reports is built from these types.
///
/// Styles are a small fixed set (``SeriesStyle``): eight colours (the Okabe–Ito palette, told
/// apart by colour-blind readers) combined with three dash patterns, so up to 24 series stay
/// distinguishable, in print too.

/// How a series is drawn: a colour from the palette and a dash pattern.
struct SeriesStyle: Sendable, Hashable {
  /// Okabe–Ito colours (black last, used for reference marks).
  static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
  /// Dash patterns: solid, dashed, dotted.
  static let dashes = ["", "6 3", "2 2"]

  /// The stroke and fill colour, `#RRGGBB`.
  var color: String
  /// The SVG `stroke-dasharray` value; empty for a solid line.
  var dash: String = ""
  /// The stroke width, SVG user units.
  var width: Double = 1.5

  /// The style of series `k`: colour `k mod 7` (black is kept for reference marks), dash
  /// `(k / 7) mod 3`.
  static func series(_ k: Int) -> SeriesStyle {
    SeriesStyle(color: palette[k % 7], dash: dashes[(k / 7) % 3])
  }

  /// Black, for reference marks (thresholds, fronts).
  static let reference = SeriesStyle(color: "#000000", dash: "", width: 1.5)
}

/// A marker shape.
enum MarkerShape: Sendable, Hashable {
  /// A filled circle.
  case dot
  /// An open circle, larger: marks a chosen point.
  case ring
  /// A filled diamond.
  case diamond
  /// A cross (×).
  case cross
  /// An open circle, small: a point resting on few values (a quantile of fewer than 5).
  case hollow
}

/// One thing drawn in a plot's data area, in data coordinates.
enum PlotMark: Sendable {
  /// A polyline through `points` (x, y); points with a non-finite coordinate break the line.
  case line([(x: Double, y: Double)], SeriesStyle)
  /// A step function: horizontal to each next x, then vertical (empirical CDFs).
  case steps([(x: Double, y: Double)], SeriesStyle)
  /// A filled band between `low` and `high` at each x (an interval), drawn translucent.
  case band([(x: Double, low: Double, high: Double)], SeriesStyle)
  /// Markers at `points`, each with an optional hover text (`<title>`).
  case markers([(x: Double, y: Double, label: String?)], MarkerShape, SeriesStyle)
  /// A vertical line across the data area at x, with an optional label at its top.
  case verticalRule(Double, String?, SeriesStyle)
  /// A horizontal line across the data area at y, with an optional label at its right end.
  case horizontalRule(Double, String?, SeriesStyle)
  /// A grid of shaded cells with counts (heat maps): rows top to bottom, columns left to right,
  /// over a plot whose axes are categorical (``PlotAxis/categories``).
  case cells([[Int]])
  /// Direct labels of points (Pareto points), each beside its point where no earlier label of
  /// the mark is (right, below-right, left, below-left, then above).
  case labels([(x: Double, y: Double, text: String)])
}

/// One axis: label, unit and how its domain is set.
struct PlotAxis: Sendable {
  /// What the axis shows (`threshold`, `recall`).
  var label: String
  /// The unit, shown in parentheses after the label (`s`, `ms`, `force units`); empty for none.
  var unit: String = ""
  /// A fixed domain; `nil`: the extent of the marks, widened to nice ticks.
  var domain: (lower: Double, upper: Double)? = nil
  /// Category names for a categorical axis (cells); `nil` for a numeric axis.
  var categories: [String]? = nil
  /// Whether the axis is logarithmic (base 10; values ≤ 0 are not drawn).
  var logarithmic = false
  /// Named positions instead of numeric ticks (a categorical axis for point marks: `1`
  /// precision, `2` recall, `3` F1); needs a fixed ``domain``.
  var namedTicks: [(value: Double, label: String)]? = nil

  /// The axis title: `label (unit)`.
  var title: String { unit.isEmpty ? label : "\(label) (\(unit))" }
}

/// One legend entry.
struct LegendEntry: Sendable {
  /// The text.
  var label: String
  /// The style its swatch is drawn in.
  var style: SeriesStyle
  /// Whether the swatch is a filled box (bands) rather than a line.
  var filled: Bool = false
  /// A marker drawn on the swatch, if any.
  var marker: MarkerShape? = nil
  /// Whether the swatch is the marker alone, without a line (scatter plots).
  var markerOnly = false
}

/// A chart: two axes, marks, a legend, and a text alternative (`<title>` and `<desc>`, named
/// by `aria-labelledby`). Renders to one `<svg>` element; see ``render(id:)``.
struct Plot: Sendable {
  /// The chart's title (the SVG `<title>`, drawn above the data area).
  var title: String
  /// A sentence or two that say what the chart shows (the SVG `<desc>`).
  var description: String
  /// The x axis.
  var x: PlotAxis
  /// The y axis.
  var y: PlotAxis
  /// What is drawn, in order (later marks on top).
  var marks: [PlotMark]
  /// The legend, below the data area; empty for none.
  var legend: [LegendEntry] = []
  /// The width of the data area's frame, SVG user units.
  var width: Double = 640
  /// The height of the data area, SVG user units.
  var height: Double = 300

  static let marginRight = 24.0, marginTop = 32.0, marginBottom = 48.0
  /// How far beyond the frame marks still show, SVG user units (the chosen ring's radius and
  /// its stroke).
  static let clipPadding = 7.0
  static let legendRowHeight = 18.0
  /// The space left of the data area, SVG user units: 64, or more for the category names of a
  /// categorical y axis (6.5 units a character, estimated).
  var marginLeft: Double {
    guard let categories = y.categories else { return 64 }
    return max(64, 30 + 6.5 * Double(categories.map(\.count).max() ?? 0))
  }

  /// The width of one character of legend text, estimated, SVG user units.
  static let legendCharacterWidth = 6.2

  /// The width of a legend column: the swatch and the longest label.
  var legendColumnWidth: Double {
    36 + Self.legendCharacterWidth * Double(legend.map(\.label.count).max() ?? 0)
  }

  /// The legend's columns and rows.
  var legendLayout: (columns: Int, rows: Int) {
    guard !legend.isEmpty else { return (0, 0) }
    let columns = max(1, Int((width + marginLeft + Self.marginRight - 16) / legendColumnWidth))
    return (columns, (legend.count + columns - 1) / columns)
  }

  /// The whole SVG's size, user units.
  var size: (width: Double, height: Double) {
    let rows = Double(legendLayout.rows)
    return (
      marginLeft + width + Self.marginRight,
      Self.marginTop + height + Self.marginBottom + (rows > 0 ? rows * Self.legendRowHeight + 8 : 0)
    )
  }

  /// The data extent of the marks along one axis (`nil` when nothing has a finite value).
  func extent(horizontal: Bool) -> (Double, Double)? {
    var values: [Double] = []
    for mark in marks {
      switch mark {
      case .line(let points, _), .steps(let points, _): values += points.map { horizontal ? $0.x : $0.y }
      case .band(let points, _): values += points.flatMap { horizontal ? [$0.x] : [$0.low, $0.high] }
      case .markers(let points, _, _): values += points.map { horizontal ? $0.x : $0.y }
      case .verticalRule(let x, _, _): if horizontal { values.append(x) }
      case .horizontalRule(let y, _, _): if !horizontal { values.append(y) }
      case .cells: break
      case .labels(let points): values += points.map { horizontal ? $0.x : $0.y }
      }
    }
    let finite = values.filter(\.isFinite)
    guard let low = finite.min(), let high = finite.max() else { return nil }
    return (low, high)
  }

  /// The ticks (values and labels) and scale of one numeric axis.
  func scale(horizontal: Bool) -> (ticks: [(value: Double, label: String)], scale: LinearScale) {
    let axis = horizontal ? x : y
    let (rangeLower, rangeUpper) =
      horizontal ? (marginLeft, marginLeft + width) : (Self.marginTop + height, Self.marginTop)
    if axis.logarithmic {
      let (a, b) = axis.domain.map { ($0.lower, $0.upper) } ?? positiveExtent(horizontal: horizontal) ?? (1, 10)
      let ticks = LogTicks(from: a, to: b)
      let scale = LinearScale(
        domainLower: Logarithm.log10(ticks.lower), domainUpper: Logarithm.log10(ticks.upper), rangeLower: rangeLower,
        rangeUpper: rangeUpper, logarithmic: true)
      return (ticks.values.map { ($0, ticks.label($0)) }, scale)
    }
    if let named = axis.namedTicks, let domain = axis.domain {
      let scale = LinearScale(
        domainLower: domain.lower, domainUpper: domain.upper, rangeLower: rangeLower, rangeUpper: rangeUpper)
      return (named.map { ($0.value, HTMLText.escape($0.label)) }, scale)
    }
    let ticks: NiceTicks
    let lower: Double
    let upper: Double
    if let domain = axis.domain {
      ticks = NiceTicks(from: domain.lower, to: domain.upper, count: horizontal ? 6 : 5)
      (lower, upper) = (domain.lower, domain.upper)
    } else {
      let (a, b) = extent(horizontal: horizontal) ?? (0, 1)
      ticks = NiceTicks(from: a, to: b, count: horizontal ? 6 : 5)
      (lower, upper) = (ticks.lower, ticks.upper)
    }
    let scale = LinearScale(domainLower: lower, domainUpper: upper, rangeLower: rangeLower, rangeUpper: rangeUpper)
    let inside = ticks.values.filter { $0 >= lower - 1e-12 && $0 <= upper + 1e-12 }
    return (inside.map { ($0, ticks.label($0)) }, scale)
  }

  /// The extent of the marks' positive values along one axis (for logarithmic axes).
  func positiveExtent(horizontal: Bool) -> (Double, Double)? {
    var copy = self
    copy.marks = marks.map { mark in
      switch mark {
      case .line(let points, let style): .line(points.filter { (horizontal ? $0.x : $0.y) > 0 }, style)
      case .steps(let points, let style): .steps(points.filter { (horizontal ? $0.x : $0.y) > 0 }, style)
      case .markers(let points, let shape, let style):
        .markers(points.filter { (horizontal ? $0.x : $0.y) > 0 }, shape, style)
      case .band(let points, let style): .band(points.filter { horizontal ? $0.x > 0 : $0.low > 0 }, style)
      case .verticalRule(let v, let l, let s): v > 0 ? .verticalRule(v, l, s) : .cells([])
      case .horizontalRule(let v, let l, let s): v > 0 ? .horizontalRule(v, l, s) : .cells([])
      case .cells, .labels: mark
      }
    }
    return copy.extent(horizontal: horizontal)
  }

  /// The SVG element: `role="img"`, `aria-labelledby` naming its `<title>` and `<desc>`, a
  /// frame, gridlines and tick labels, axis titles, the marks clipped to the data area, and the
  /// legend. `id` makes the inner ids unique on the page.
  func render(id: String) -> String {
    let n = HTMLText.number
    let e = HTMLText.escape
    let (w, h) = size
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" role=\"img\" viewBox=\"0 0 \(n(w)) \(n(h))\" "
    out += "width=\"\(n(w))\" height=\"\(n(h))\" aria-labelledby=\"\(id)-title \(id)-desc\">\n"
    out += "<title id=\"\(id)-title\">\(e(title))</title>\n<desc id=\"\(id)-desc\">\(e(description))</desc>\n"
    // The clip reaches a marker's radius beyond the frame: a point at the edge of the domain (an
    // optimum at the first or last grid value) shows whole.
    let pad = Self.clipPadding
    out +=
      "<defs><clipPath id=\"\(id)-clip\"><rect x=\"\(n(marginLeft - pad))\" y=\"\(n(Self.marginTop - pad))\" width=\"\(n(width + 2 * pad))\" height=\"\(n(height + 2 * pad))\"/></clipPath></defs>\n"
    out +=
      "<text class=\"plot-title\" x=\"\(n(marginLeft))\" y=\"\(n(Self.marginTop - 10))\">\(e(Self.fitted(title, width: w - marginLeft - 4)))</text>\n"
    let left = marginLeft
    let top = Self.marginTop
    let bottom = Self.marginTop + height
    let right = marginLeft + width
    out += "<rect class=\"frame\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(width))\" height=\"\(n(height))\"/>\n"

    var xScale: LinearScale?
    var yScale: LinearScale?
    // Axes: categorical ones label each band's centre, numeric ones their nice ticks.
    if let categories = x.categories {
      let band = width / Double(max(categories.count, 1))
      for (k, name) in categories.enumerated() {
        out +=
          "<text class=\"tick\" x=\"\(n(left + band * (Double(k) + 0.5)))\" y=\"\(n(bottom + 19))\" text-anchor=\"middle\">\(e(name))</text>\n"
      }
    } else {
      let (ticks, scale) = self.scale(horizontal: true)
      xScale = scale
      for (value, label) in ticks {
        let px = scale.map(value)
        out += "<line class=\"grid\" x1=\"\(n(px))\" y1=\"\(n(top))\" x2=\"\(n(px))\" y2=\"\(n(bottom))\"/>"
        out += "<text class=\"tick\" x=\"\(n(px))\" y=\"\(n(bottom + 19))\" text-anchor=\"middle\">\(label)</text>\n"
      }
    }
    if let categories = y.categories {
      let band = height / Double(max(categories.count, 1))
      for (k, name) in categories.enumerated() {
        out +=
          "<text class=\"tick\" x=\"\(n(left - 6))\" y=\"\(n(top + band * (Double(k) + 0.5) + 4))\" text-anchor=\"end\">\(e(name))</text>\n"
      }
    } else {
      let (ticks, scale) = self.scale(horizontal: false)
      yScale = scale
      for (value, label) in ticks {
        let py = scale.map(value)
        out += "<line class=\"grid\" x1=\"\(n(left))\" y1=\"\(n(py))\" x2=\"\(n(right))\" y2=\"\(n(py))\"/>"
        out += "<text class=\"tick\" x=\"\(n(left - 6))\" y=\"\(n(py + 4))\" text-anchor=\"end\">\(label)</text>\n"
      }
    }
    out +=
      "<text class=\"axis-title\" x=\"\(n(left + width / 2))\" y=\"\(n(bottom + 36))\" text-anchor=\"middle\">\(e(x.title))</text>\n"
    out +=
      "<text class=\"axis-title\" transform=\"translate(\(n(16)) \(n(top + height / 2))) rotate(-90)\" text-anchor=\"middle\">\(e(y.title))</text>\n"

    out += "<g clip-path=\"url(#\(id)-clip)\">\n"
    let labels = ruleLabelBaselines(x: xScale, y: yScale)
    for (k, mark) in marks.enumerated() {
      out += render(mark, x: xScale, y: yScale, labelBaseline: labels[k])
    }
    out += "</g>\n"
    out += renderLegend()
    out += "</svg>"
    return out
  }

  /// The stroke attributes of `style`.
  static func stroke(_ style: SeriesStyle) -> String {
    "stroke=\"\(style.color)\" stroke-width=\"\(HTMLText.number(style.width))\""
      + (style.dash.isEmpty ? "" : " stroke-dasharray=\"\(style.dash)\"")
  }

  /// A path's `d` through points (already in SVG coordinates), a new subpath after a gap.
  static func path(_ points: [(Double, Double)?]) -> String {
    var d = ""
    var pen = false
    for point in points {
      guard let (px, py) = point else {
        pen = false
        continue
      }
      d += (pen ? "L" : (d.isEmpty ? "M" : " M")) + HTMLText.number(px) + " " + HTMLText.number(py)
      pen = true
    }
    return d
  }

  /// A polyline (SVG coordinates; `nil` is a gap) with at most about four points per unit of
  /// x: when it has more than `4 × columns` points, each run of consecutive points in one unit
  /// column keeps its first, lowest, highest and last point, in their order. The drawn envelope
  /// is unchanged (every column's extremes stay), and a plot 380 units wide draws at most about
  /// 1 500 points of a trace however many samples it has.
  static func thinned(_ points: [(Double, Double)?], columns: Double) -> [(Double, Double)?] {
    guard Double(points.count) > 4 * columns else { return points }
    var out: [(Double, Double)?] = []
    var run: [(index: Int, point: (Double, Double))] = []
    func flush() {
      guard let first = run.first, let last = run.last else { return }
      let low = run.min { $0.point.1 < $1.point.1 }!
      let high = run.max { $0.point.1 < $1.point.1 }!
      var kept = [first.index]
      for k in [low.index, high.index, last.index] where !kept.contains(k) { kept.append(k) }
      for k in kept.sorted() { out.append(points[k]) }
      run = []
    }
    for (k, point) in points.enumerated() {
      guard let point else {
        flush()
        out.append(nil)
        continue
      }
      if let current = run.first, current.point.0.rounded(.down) != point.0.rounded(.down) { flush() }
      run.append((k, point))
    }
    flush()
    return out
  }

  /// The width of one character of a rule label (10 px text), estimated generously, SVG user units.
  static let ruleLabelCharacterWidth = 6.0
  /// The width of one character of a plot title (13 px semibold text), estimated generously.
  static let titleCharacterWidth = 7.6

  /// `title` shortened in the middle (`…`) to fit `width`: its start and its end (a trace's
  /// `#n`, the intent) stay.
  static func fitted(_ title: String, width: Double) -> String {
    let fits = Int(width / titleCharacterWidth)
    guard title.count > fits, fits > 8 else { return title }
    let keep = fits - 1
    let head = keep / 2
    return String(title.prefix(head)) + "…" + String(title.suffix(keep - head))
  }

  /// Where each rule's label sits (its baseline, SVG user units; parallel to ``marks``; `nil`
  /// for marks without a label): the first free row from the top for vertical rules, above the
  /// line or in the first free place below for horizontal ones, so that no two labels overlap
  /// (their boxes estimated from the character count).
  func ruleLabelBaselines(x xs: LinearScale?, y ys: LinearScale?) -> [Double?] {
    let top = Self.marginTop
    let right = marginLeft + width
    let bottom = Self.marginTop + height
    var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
    func free(_ b: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
      !boxes.contains { $0.x0 < b.x1 && b.x0 < $0.x1 && $0.y0 < b.y1 && b.y0 < $0.y1 }
    }
    var result = [Double?](repeating: nil, count: marks.count)
    for (k, mark) in marks.enumerated() {
      guard case .verticalRule(let value, let label?, _) = mark, let xs, value.isFinite else { continue }
      let px = xs.map(value)
      guard px.isFinite else { continue }
      let w = Self.ruleLabelCharacterWidth * Double(label.count)
      var row = 0
      while row < 8 {
        let baseline = top + 12 + 11 * Double(row)
        let box = (x0: px + 2, y0: baseline - 9, x1: px + 4 + w, y1: baseline + 2)
        if free(box) || row == 7 {
          boxes.append(box)
          result[k] = baseline
          break
        }
        row += 1
      }
    }
    for (k, mark) in marks.enumerated() {
      guard case .horizontalRule(let value, let label?, _) = mark, let ys, value.isFinite else { continue }
      let py = ys.map(value)
      guard py.isFinite else { continue }
      let w = Self.ruleLabelCharacterWidth * Double(label.count)
      let candidates = [py - 4, py + 12, py - 15, py + 23, py - 26, py + 34].filter {
        $0 - 9 >= top && $0 + 2 <= bottom
      }
      let chosen =
        candidates.first { free((x0: right - 4 - w, y0: $0 - 9, x1: right - 2, y1: $0 + 2)) } ?? candidates.first ?? py
        - 4
      boxes.append((x0: right - 4 - w, y0: chosen - 9, x1: right - 2, y1: chosen + 2))
      result[k] = chosen
    }
    return result
  }

  func render(_ mark: PlotMark, x xs: LinearScale?, y ys: LinearScale?, labelBaseline: Double? = nil) -> String {
    let n = HTMLText.number
    let left = marginLeft
    let top = Self.marginTop
    let bottom = Self.marginTop + height
    let right = marginLeft + width
    func point(_ px: Double, _ py: Double) -> (Double, Double)? {
      guard let xs, let ys, px.isFinite, py.isFinite else { return nil }
      let (sx, sy) = (xs.map(px), ys.map(py))
      return sx.isFinite && sy.isFinite ? (sx, sy) : nil
    }
    switch mark {
    case .line(let points, let style):
      let d = Self.path(Self.thinned(points.map { point($0.x, $0.y) }, columns: width))
      return d.isEmpty ? "" : "<path class=\"line\" d=\"\(d)\" fill=\"none\" \(Self.stroke(style))/>\n"
    case .steps(let points, let style):
      var expanded: [(Double, Double)?] = []
      for (k, p) in points.enumerated() {
        if k > 0 { expanded.append(point(p.x, points[k - 1].y)) }
        expanded.append(point(p.x, p.y))
      }
      let d = Self.path(expanded)
      return d.isEmpty ? "" : "<path class=\"line\" d=\"\(d)\" fill=\"none\" \(Self.stroke(style))/>\n"
    case .band(let points, let style):
      let defined = points.filter { $0.x.isFinite && $0.low.isFinite && $0.high.isFinite }
      guard defined.count >= 1, let xs, let ys else { return "" }
      // Points a logarithmic scale cannot place (≤ 0) are left out of the outline.
      let placed = defined.filter { xs.map($0.x).isFinite && ys.map($0.low).isFinite && ys.map($0.high).isFinite }
      guard !placed.isEmpty else { return "" }
      let upper = placed.map { (xs.map($0.x), ys.map($0.high)) }
      let lower = placed.reversed().map { (xs.map($0.x), ys.map($0.low)) }
      let d = Self.path(upper + lower) + "Z"
      return "<path class=\"band\" d=\"\(d)\" fill=\"\(style.color)\" fill-opacity=\"0.18\" stroke=\"none\"/>\n"
    case .markers(let points, let shape, let style):
      var out = ""
      for p in points {
        guard let (px, py) = point(p.x, p.y) else { continue }
        let title = p.label.map { "<title>\(HTMLText.escape($0))</title>" } ?? ""
        switch shape {
        case .dot:
          out += "<circle cx=\"\(n(px))\" cy=\"\(n(py))\" r=\"2.5\" fill=\"\(style.color)\">\(title)</circle>"
        case .ring:
          out +=
            "<circle class=\"chosen\" cx=\"\(n(px))\" cy=\"\(n(py))\" r=\"6\" fill=\"none\" stroke=\"\(style.color)\" stroke-width=\"2\">\(title)</circle>"
        case .diamond:
          out +=
            "<path d=\"M\(n(px)) \(n(py - 5))L\(n(px + 5)) \(n(py))L\(n(px)) \(n(py + 5))L\(n(px - 5)) \(n(py))Z\" fill=\"\(style.color)\">\(title)</path>"
        case .cross:
          out +=
            "<path d=\"M\(n(px - 4)) \(n(py - 4))L\(n(px + 4)) \(n(py + 4))M\(n(px - 4)) \(n(py + 4))L\(n(px + 4)) \(n(py - 4))\" stroke=\"\(style.color)\" stroke-width=\"2\" fill=\"none\">\(title)</path>"
        case .hollow:
          out +=
            "<circle class=\"few\" cx=\"\(n(px))\" cy=\"\(n(py))\" r=\"3\" fill=\"#ffffff\" stroke=\"\(style.color)\" stroke-width=\"1.5\">\(title)</circle>"
        }
      }
      return out.isEmpty ? "" : out + "\n"
    case .verticalRule(let value, let label, let style):
      guard let xs, value.isFinite, xs.map(value).isFinite else { return "" }
      let px = xs.map(value)
      var out = "<line x1=\"\(n(px))\" y1=\"\(n(top))\" x2=\"\(n(px))\" y2=\"\(n(bottom))\" \(Self.stroke(style))/>"
      if let label {
        out +=
          "<text class=\"rule-label\" x=\"\(n(px + 3))\" y=\"\(n(labelBaseline ?? top + 12))\">\(HTMLText.escape(label))</text>"
      }
      return out + "\n"
    case .horizontalRule(let value, let label, let style):
      guard let ys, value.isFinite, ys.map(value).isFinite else { return "" }
      let py = ys.map(value)
      var out = "<line x1=\"\(n(left))\" y1=\"\(n(py))\" x2=\"\(n(right))\" y2=\"\(n(py))\" \(Self.stroke(style))/>"
      if let label {
        out +=
          "<text class=\"rule-label\" x=\"\(n(right - 3))\" y=\"\(n(labelBaseline ?? py - 4))\" text-anchor=\"end\">\(HTMLText.escape(label))</text>"
      }
      return out + "\n"
    case .labels(let points):
      var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
      var out = ""
      for p in points {
        guard let (px, py) = point(p.x, p.y) else { continue }
        let w = Self.ruleLabelCharacterWidth * Double(p.text.count)
        // (anchor x, baseline y, anchored at the end)
        let candidates: [(x: Double, y: Double, end: Bool)] = [
          (px + 7, py - 4, false), (px + 7, py + 12, false), (px - 7, py - 4, true), (px - 7, py + 12, true),
          (px + 7, py - 16, false), (px - 7, py - 16, true), (px + 7, py + 24, false),
        ]
        func box(_ c: (x: Double, y: Double, end: Bool)) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
          c.end ? (c.x - w, c.y - 9, c.x, c.y + 2) : (c.x, c.y - 9, c.x + w, c.y + 2)
        }
        let inside = candidates.filter {
          let b = box($0)
          return b.x0 >= left && b.x1 <= right && b.y0 >= top && b.y1 <= bottom
        }
        let chosen =
          inside.first { c in
            let b = box(c)
            return !placed.contains { $0.x0 < b.x1 && b.x0 < $0.x1 && $0.y0 < b.y1 && b.y0 < $0.y1 }
          }
          ?? inside.first ?? candidates[0]
        placed.append(box(chosen))
        out +=
          "<text class=\"point-label\" x=\"\(n(chosen.x))\" y=\"\(n(chosen.y))\"\(chosen.end ? " text-anchor=\"end\"" : "")>\(HTMLText.escape(p.text))</text>"
      }
      return out.isEmpty ? "" : out + "\n"
    case .cells(let rows):
      let columns = rows.map(\.count).max() ?? 0
      guard columns > 0 else { return "" }
      let cellWidth = width / Double(columns)
      let cellHeight = height / Double(rows.count)
      let largest = max(1, rows.flatMap { $0 }.max() ?? 1)
      var out = ""
      for (r, row) in rows.enumerated() {
        for (c, count) in row.enumerated() {
          let share = Double(count) / Double(largest)
          let cx = left + cellWidth * Double(c)
          let cy = top + cellHeight * Double(r)
          out += "<rect x=\"\(n(cx))\" y=\"\(n(cy))\" width=\"\(n(cellWidth))\" height=\"\(n(cellHeight))\" "
          out += "fill=\"#0072B2\" fill-opacity=\"\(n(0.08 + 0.8 * share))\" stroke=\"#ffffff\"/>"
          out +=
            "<text class=\"cell\" x=\"\(n(cx + cellWidth / 2))\" y=\"\(n(cy + cellHeight / 2 + 4))\" text-anchor=\"middle\""
          out += share > 0.55 ? " fill=\"#ffffff\">" : ">"
          out += "\(count)</text>\n"
        }
      }
      return out
    }
  }

  func renderLegend() -> String {
    guard !legend.isEmpty else { return "" }
    let n = HTMLText.number
    let (columns, _) = legendLayout
    let top = Self.marginTop + height + Self.marginBottom + 4
    var out = "<g class=\"legend\">\n"
    for (k, entry) in legend.enumerated() {
      let lx = 16 + Double(k % columns) * legendColumnWidth
      let ly = top + Double(k / columns) * Self.legendRowHeight
      if entry.filled {
        out +=
          "<rect x=\"\(n(lx))\" y=\"\(n(ly - 5))\" width=\"22\" height=\"10\" fill=\"\(entry.style.color)\" fill-opacity=\"0.3\"/>"
      } else if !(entry.markerOnly && entry.marker != nil) {
        out +=
          "<line x1=\"\(n(lx))\" y1=\"\(n(ly))\" x2=\"\(n(lx + 22))\" y2=\"\(n(ly))\" \(Self.stroke(entry.style))/>"
      }
      if let marker = entry.marker {
        let cx = lx + 11
        switch marker {
        case .dot: out += "<circle cx=\"\(n(cx))\" cy=\"\(n(ly))\" r=\"2.5\" fill=\"\(entry.style.color)\"/>"
        case .ring:
          out +=
            "<circle cx=\"\(n(cx))\" cy=\"\(n(ly))\" r=\"5\" fill=\"none\" stroke=\"\(entry.style.color)\" stroke-width=\"2\"/>"
        case .diamond:
          out +=
            "<path d=\"M\(n(cx)) \(n(ly - 5))L\(n(cx + 5)) \(n(ly))L\(n(cx)) \(n(ly + 5))L\(n(cx - 5)) \(n(ly))Z\" fill=\"\(entry.style.color)\"/>"
        case .cross:
          out +=
            "<path d=\"M\(n(cx - 4)) \(n(ly - 4))L\(n(cx + 4)) \(n(ly + 4))M\(n(cx - 4)) \(n(ly + 4))L\(n(cx + 4)) \(n(ly - 4))\" stroke=\"\(entry.style.color)\" stroke-width=\"2\"/>"
        case .hollow:
          out +=
            "<circle cx=\"\(n(cx))\" cy=\"\(n(ly))\" r=\"3\" fill=\"#ffffff\" stroke=\"\(entry.style.color)\" stroke-width=\"1.5\"/>"
        }
      }
      out +=
        "<text class=\"legend-label\" x=\"\(n(lx + 28))\" y=\"\(n(ly + 4))\">\(HTMLText.escape(entry.label))</text>\n"
    }
    return out + "</g>\n"
  }
}

/// A figure of the report: an element id, a heading, one or more plots, and a caption that
/// says in words what the plots show (the short text alternative).
struct Figure: Sendable {
  /// The `id` of the `<figure>` element (`fig-roc`); stable, documented, unique on the page.
  var id: String
  /// The heading above the plots.
  var title: String
  /// The plots, side by side where the page is wide enough.
  var plots: [Plot]
  /// The caption below the plots.
  var caption: String

  /// `<figure id=… aria-label=…>`, the heading, each plot's SVG, and `<figcaption>`.
  func render() -> String {
    var out = "<figure id=\"\(id)\" class=\"report-figure\" aria-label=\"\(HTMLText.escape(title))\">\n"
    out += "<h3>\(HTMLText.escape(title))</h3>\n<div class=\"plots\">\n"
    for (k, plot) in plots.enumerated() { out += plot.render(id: "\(id)-\(k + 1)") + "\n" }
    // A one-plot figure's caption wraps at the plot's width, so small figures sit side by side.
    let width = plots.count == 1 ? " style=\"max-width:\(HTMLText.number(plots[0].size.width))px\"" : ""
    out += "</div>\n<figcaption\(width)>\(HTMLText.escape(caption))</figcaption>\n</figure>\n"
    return out
  }
}
