import TouchRecognizers

/// The HTML page around the figures: inline CSS (screen and print), an optional inline script
/// for hovering and toggling only, and the Markdown report rendered as HTML.
enum HTMLPage {
  /// The style sheet: system fonts only (no web font), figures that do not break across
  /// printed pages, tables with right-aligned numbers.
  static let css = """
    body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;margin:0 auto;max-width:1400px;padding:16px 24px;color:#111;background:#fff;line-height:1.4}
    h1{font-size:1.6em;margin:.4em 0}h2{font-size:1.3em;margin:1.2em 0 .4em;border-bottom:1px solid #ccc}h3{font-size:1.05em;margin:.4em 0}
    nav ul{columns:3;font-size:.9em}
    figure.report-figure{margin:1em 0;padding:8px;border:1px solid #ddd;border-radius:4px;break-inside:avoid;page-break-inside:avoid;width:fit-content;max-width:100%;box-sizing:border-box}
    figure .plots{display:flex;flex-wrap:wrap;gap:8px}
    .grid-items{display:flex;flex-wrap:wrap;gap:0 12px;align-items:flex-start}.grid-items figure.report-figure{flex:0 0 auto;max-width:100%}
    figcaption{font-size:.9em;color:#333;margin-top:4px}figure.report-figure figcaption{width:0;min-width:100%}
    svg.plot{max-width:100%;height:auto;font-size:11px}
    svg .frame{fill:none;stroke:#888}svg .grid{stroke:#e4e4e4}svg .tick{fill:#333}
    svg .axis-title{fill:#111;font-size:12px}svg .plot-title{fill:#111;font-size:13px;font-weight:600}
    svg .rule-label{fill:#111;font-size:10px}svg .point-label{fill:#111;font-size:10px}svg .legend-label{fill:#111}svg .cell{font-size:12px}
    svg .line{stroke-linejoin:round}svg circle:hover,svg path:hover{opacity:.7}
    table{border-collapse:collapse;font-size:.85em;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px 6px}
    th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
    code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
    pre{background:#f6f6f6;border:1px solid #ddd;padding:8px 12px;overflow-x:auto;line-height:1.3}
    .hidden{display:none}
    @media print{body{max-width:none;padding:0}nav,.toggle{display:none}figure.report-figure{border:none}h2{break-after:avoid}}
    """

  /// The inline script: a button per figure section that hides or shows it. Only toggling: every
  /// figure is drawn without it, and it loads nothing.
  static let script = """
    document.querySelectorAll('button.toggle').forEach(function(b){b.addEventListener('click',function(){var t=document.getElementById(b.getAttribute('data-target'));if(t){t.classList.toggle('hidden');b.textContent=t.classList.contains('hidden')?'Show':'Hide';}});});
    """

  /// A section of figures under a heading.
  struct Section {
    /// The heading.
    var title: String
    /// A paragraph under the heading; empty for none.
    var text: String
    /// The figures.
    var figures: [Figure]
    /// Whether the figures sit side by side where the page is wide enough (small multiples).
    var grid = false
  }

  /// The whole document: `title`, the verdict (Markdown, `<section id="verdict">`), a list of
  /// the figures, the sections, then `markdown` (the report's tables) rendered by ``MarkdownHTML``.
  static func render(title: String, verdict: String = "", sections: [Section], markdown: String) -> String {
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<title>\(HTMLText.escape(title))</title>\n<style>\n\(css)\n</style>\n</head>\n<body>\n"
    out += "<h1>\(HTMLText.escape(title))</h1>\n"
    if !verdict.isEmpty { out += "<section id=\"verdict\">\n" + MarkdownHTML.render(verdict) + "</section>\n" }
    out += "<nav aria-label=\"Figures\"><ul>\n"
    for section in sections {
      for figure in section.figures {
        out += "<li><a href=\"#\(figure.id)\">\(HTMLText.escape(figure.title))</a></li>\n"
      }
    }
    out += "<li><a href=\"#tables\">Tables</a></li>\n</ul></nav>\n"
    for (k, section) in sections.enumerated() where !section.figures.isEmpty {
      let id = "section-\(k + 1)"
      out +=
        "<section>\n<h2>\(HTMLText.escape(section.title)) <button class=\"toggle\" type=\"button\" data-target=\"\(id)\">Hide</button></h2>\n"
      out += "<div id=\"\(id)\"\(section.grid ? " class=\"figure-grid\"" : "")>\n"
      if !section.text.isEmpty { out += "<p>\(HTMLText.escape(section.text))</p>\n" }
      if section.grid { out += "<div class=\"grid-items\">\n" }
      for figure in section.figures { out += figure.render() }
      out += section.grid ? "</div>\n</div>\n</section>\n" : "</div>\n</section>\n"
    }
    out += "<section id=\"tables\">\n<h2>Tables</h2>\n"
    out += MarkdownHTML.render(markdown, headingOffset: 1)
    out += "</section>\n<script>\n\(script)\n</script>\n</body>\n</html>\n"
    return out
  }
}

/// The subset of Markdown the reports write, as HTML: headings (`#`), bullet lists (`- `),
/// tables (`|`, with the alignment row's `--:` right-aligning a column; `\|` is a literal bar),
/// fenced blocks (`~~~` or three backticks, as `<pre>`: the study file, copyable as it is),
/// paragraphs, inline `code` and `**strong**`. Everything else is text, escaped.
enum MarkdownHTML {
  /// `markdown` as HTML; headings move down `headingOffset` levels (`#` becomes `<h2>` with 1).
  static func render(_ markdown: String, headingOffset: Int = 0) -> String {
    var out = ""
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var k = 0
    var paragraph: [String] = []
    func flush() {
      if !paragraph.isEmpty { out += "<p>" + paragraph.map(inline).joined(separator: " ") + "</p>\n" }
      paragraph = []
    }
    while k < lines.count {
      let line = lines[k]
      if line.trimmingSpaces.isEmpty {
        flush()
        k += 1
      } else if line.hasPrefix("~~~") || line.hasPrefix("```") {
        // A fenced block: its lines verbatim (escaped), up to the closing fence of the same kind.
        flush()
        let fence = String(line.prefix(3))
        let language = String(line.dropFirst(3)).trimmingSpaces
        k += 1
        var text = ""
        while k < lines.count, !lines[k].hasPrefix(fence) {
          text += lines[k] + "\n"
          k += 1
        }
        k += 1
        let attribute = language.isEmpty ? "" : " class=\"language-\(HTMLText.escape(language))\""
        out += "<pre><code\(attribute)>\(HTMLText.escape(text))</code></pre>\n"
      } else if line.hasPrefix("#") {
        flush()
        let level = line.prefix { $0 == "#" }.count
        let text = String(line.dropFirst(level)).trimmingSpaces
        let tag = "h\(min(6, level + headingOffset))"
        out += "<\(tag)>\(inline(text))</\(tag)>\n"
        k += 1
      } else if line.hasPrefix("- ") {
        flush()
        out += "<ul>\n"
        while k < lines.count, lines[k].hasPrefix("- ") {
          out += "<li>\(inline(String(lines[k].dropFirst(2))))</li>\n"
          k += 1
        }
        out += "</ul>\n"
      } else if line.hasPrefix("|") {
        flush()
        var rows: [[String]] = []
        while k < lines.count, lines[k].hasPrefix("|") {
          rows.append(cells(lines[k]))
          k += 1
        }
        out += table(rows)
      } else {
        paragraph.append(line)
        k += 1
      }
    }
    flush()
    return out
  }

  /// The cells of a table row `| a | b |`; `\|` is a bar inside a cell.
  static func cells(_ line: String) -> [String] {
    var body = Substring(line)
    if body.hasPrefix("|") { body = body.dropFirst() }
    if body.hasSuffix("|") && !body.hasSuffix("\\|") { body = body.dropLast() }
    var cells: [String] = []
    var cell = ""
    var escaped = false
    for c in body {
      if escaped {
        if c != "|" { cell.append("\\") }
        cell.append(c)
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if c == "|" {
        cells.append(cell.trimmingSpaces)
        cell = ""
      } else {
        cell.append(c)
      }
    }
    if escaped { cell.append("\\") }
    cells.append(cell.trimmingSpaces)
    return cells
  }

  /// A table from its rows: the first is the header; a second row of dashes sets alignment.
  static func table(_ rows: [[String]]) -> String {
    guard let header = rows.first else { return "" }
    var body = Array(rows.dropFirst())
    var right = [Bool](repeating: false, count: header.count)
    if let first = body.first, first.allSatisfy({ cell in !cell.isEmpty && cell.allSatisfy { "-:".contains($0) } }) {
      for (c, cell) in first.enumerated() where c < right.count {
        right[c] = cell.hasSuffix(":") && !cell.hasPrefix(":")
      }
      body.removeFirst()
    }
    var out = "<table>\n<thead><tr>" + header.map { "<th>\(inline($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
    for row in body {
      out += "<tr>"
      for (c, cell) in row.enumerated() {
        out += c < right.count && right[c] ? "<td class=\"num\">\(inline(cell))</td>" : "<td>\(inline(cell))</td>"
      }
      out += "</tr>\n"
    }
    return out + "</tbody>\n</table>\n"
  }

  /// Escaped text with `` `code` `` spans and `**strong**` outside them (an unclosed marker
  /// stays text).
  static func inline(_ text: String) -> String {
    let chars = Array(text)
    // Backticks pair up in order; an unpaired last one is text.
    var ticks = chars.indices.filter { chars[$0] == "`" }
    if ticks.count % 2 == 1 { ticks.removeLast() }
    let tickSet = Set(ticks)
    // `**` markers outside code spans pair up in order (across code spans: `**Ship `x`**`); an
    // unpaired last one is text.
    var markers: [Int] = []
    var inCode = false
    var i = 0
    while i < chars.count {
      if tickSet.contains(i) {
        inCode.toggle()
      } else if !inCode, chars[i] == "*", i + 1 < chars.count, chars[i + 1] == "*" {
        markers.append(i)
        i += 1
      }
      i += 1
    }
    if markers.count % 2 == 1 { markers.removeLast() }
    let markerSet = Set(markers)
    var out = ""
    var run = ""
    var bold = false
    inCode = false
    i = 0
    while i < chars.count {
      if tickSet.contains(i) {
        out += inCode ? "<code>\(HTMLText.escape(run))</code>" : HTMLText.escape(run)
        run = ""
        inCode.toggle()
        i += 1
      } else if markerSet.contains(i) {
        out += HTMLText.escape(run) + (bold ? "</strong>" : "<strong>")
        run = ""
        bold.toggle()
        i += 2
      } else {
        run.append(chars[i])
        i += 1
      }
    }
    return out + HTMLText.escape(run)
  }
}
