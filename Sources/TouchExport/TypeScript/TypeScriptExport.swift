import TouchRecognizers

/// The TypeScript export: the recognizer core as an ES module in TypeScript and, emitted from the
/// same template, in plain JavaScript (no TypeScript toolchain needed to use it), a Pointer Events
/// binding for the web in both, and a Node conformance check that runs a core on `vectors.txt`.
///
/// Files, under `typescript/` (`KEBAB` is the type name in kebab case, `force-press-core`):
/// - `KEBAB.ts` (core) and `KEBAB.js` (compiled): the core, no imports, no DOM;
/// - `pointer-binding.ts` (adapter) and `pointer-binding.js` (compiled):
///   `bindPointerEvents(element, onAction, options?)`;
/// - `conformance-check.mjs` (check): `node conformance-check.mjs VECTORS [CORE_MODULE_PATH]`.
///
/// The `.ts` and `.js` of a file are one template (``TypeScriptTemplate``): type annotations and
/// other TypeScript-only text are marked, and the JavaScript emission drops them, so the two
/// cannot drift apart.
enum TypeScriptExport {
  /// The files for `c`, in listing order.
  static func files(_ c: ExportConfiguration) -> [ExportFile] {
    let kebab = kebabCase(c.typeName)
    let core = TypeScriptCore.template(c)
    let binding = TypeScriptBinding.template(c, coreModule: kebab)
    func file(_ name: String, _ template: String, _ dialect: TypeScriptTemplate.Dialect, _ role: ExportFile.Role)
      -> ExportFile
    {
      let header = headerComment(c, file: name, dialect: dialect)
      return ExportFile(
        path: "typescript/\(name)", contents: header + "\n" + TypeScriptTemplate.render(template, as: dialect),
        role: role)
    }
    return [
      file("\(kebab).ts", core, .typescript, .core),
      file("\(kebab).js", core, .javascript, .compiled),
      file("pointer-binding.ts", binding, .typescript, .adapter),
      file("pointer-binding.js", binding, .javascript, .compiled),
      ExportFile(
        path: "typescript/conformance-check.mjs",
        contents: ExportText.comment(ExportText.header(c, file: "conformance-check.mjs"), prefix: "//") + "\n"
          + TypeScriptCheck.source(c, coreModule: kebab),
        role: .check),
    ]
  }

  /// The header comment of a generated `.ts` or `.js` file; the JavaScript says which TypeScript
  /// file it is the emission of.
  static func headerComment(_ c: ExportConfiguration, file: String, dialect: TypeScriptTemplate.Dialect) -> String {
    var lines = ExportText.header(c, file: file)
    if dialect == .javascript {
      let source = file.hasSuffix(".js") ? String(file.dropLast(3)) + ".ts" : file
      lines += [
        "",
        "Plain JavaScript (ES module) emitted from the same template as \(source), with the type",
        "annotations left out: use either; no TypeScript toolchain is needed for this one.",
      ]
    }
    return ExportText.comment(lines, prefix: "//")
  }

  /// `name` in kebab case, for file names: `ForcePressCore` → `force-press-core`, `HTTPCore` →
  /// `http-core`. A hyphen goes before an upper-case letter that follows a lower-case letter or
  /// a digit, or that starts a word after an acronym.
  static func kebabCase(_ name: String) -> String {
    let chars = Array(name)
    var out = ""
    for (i, ch) in chars.enumerated() {
      if ch.isUppercase && i > 0 {
        let before = chars[i - 1]
        let after: Character? = i + 1 < chars.count ? chars[i + 1] : nil
        if before.isLowercase || before.isNumber || (before.isUppercase && after?.isLowercase == true) {
          out.append("-")
        }
      }
      out += ch.lowercased()
    }
    return out
  }

  /// A double as a JavaScript literal: the shortest text that reads back to it, `NaN`,
  /// `Infinity` or `-Infinity`.
  static func literal(_ value: Double) -> String {
    ExportText.double(value, nan: "NaN", infinity: "Infinity")
  }

  /// A boolean as a JavaScript literal.
  static func literal(_ value: Bool) -> String { value ? "true" : "false" }

  /// The configuration's constants: name, type, literal and documentation, filter first, named
  /// as in the other languages' exports.
  static func constants(_ c: ExportConfiguration) -> [(name: String, type: String, value: String, doc: String)] {
    var out: [(name: String, type: String, value: String, doc: String)] = []
    func add(_ name: String, _ value: Double, _ doc: String) { out.append((name, "number", literal(value), doc)) }
    func add(_ name: String, _ value: Int, _ doc: String) { out.append((name, "number", "\(value)", doc)) }
    func add(_ name: String, _ value: Bool, _ doc: String) { out.append((name, "boolean", literal(value), doc)) }
    switch c.filter {
    case .ema(let alpha)?:
      add("emaAlpha", alpha, "Filter (exponential moving average, `ema.alpha`): weight of each new sample.")
    case .movingMean(let window)?:
      add("movingMeanWindow", window, "Filter (trailing moving mean, `movmean.window`): samples averaged.")
    case .oneEuro(let minCutoff, let beta, let dCutoff)?:
      add("oneEuroMinCutoff", minCutoff, "Filter (1€, `one-euro.mincutoff`): cutoff when the force is still, hertz.")
      add("oneEuroBeta", beta, "Filter (1€, `one-euro.beta`): cutoff increase per force unit per second of speed.")
      add("oneEuroDerivativeCutoff", dCutoff, "Filter (1€, `one-euro.dcutoff`): cutoff of the speed estimate, hertz.")
    case nil:
      break
    }
    switch c.core {
    case .deepPress(let threshold):
      add("threshold", threshold, "`threshold`: normalized force that begins the press (>=); below it the press ends.")
    case .hysteresis(let press, let release, let palm, let strict, let inclusive):
      add("pressThreshold", press, "`pressThreshold`: normalized force that presses (>=, > with strictPress).")
      add(
        "releaseThreshold", release,
        "`releaseThreshold`: normalized force below which a press releases (<, <= with inclusiveRelease).")
      add(
        "palmThreshold", palm,
        "`palmThreshold`: normalized force above which the contact is rejected for good (NaN: off).")
      add("strictPress", strict, "`strictPress`: press with > instead of >=.")
      add("inclusiveRelease", inclusive, "`inclusiveRelease`: release with <= instead of <.")
    case .stablePress(let press, let release, let dwell, let tap, let movement, let rearm):
      add("pressThreshold", press, "`pressThreshold`: normalized force that arms a press (>=).")
      add("releaseThreshold", release, "`releaseThreshold`: normalized force below which a press releases (<).")
      add("dwellTime", dwell, "`dwellTime`: time the force must stay at or above pressThreshold, seconds.")
      add("tapTimeout", tap, "`tapTimeout`: shortest contact before a press, seconds.")
      add(
        "movementLimit", movement,
        "`movementLimit`: movement from touch-down before the first press that fails the contact, points (NaN: off).")
      add("rearm", rearm, "`rearm`: a released press can press again in the same contact.")
    case .peekPop(let peek, let pop):
      add("peekThreshold", peek, "`peekThreshold`: normalized force of the peek, stage 1 (>=).")
      add("popThreshold", pop, "`popThreshold`: normalized force of the pop, stage 2 (>=).")
    }
    return out
  }
}

/// One template for a TypeScript file and its JavaScript emission.
///
/// Text between `⟪` and `⟫` is TypeScript only (type annotations, `private`, type declarations);
/// text between `⟦` and `⟧` is JavaScript only (JSDoc standing in for the dropped types). A
/// dropped span that fills whole lines takes those lines with it. Spans do not nest.
enum TypeScriptTemplate {
  /// The language a template is rendered in.
  enum Dialect: Sendable {
    /// TypeScript: `⟪…⟫` kept, `⟦…⟧` dropped.
    case typescript
    /// JavaScript: `⟦…⟧` kept, `⟪…⟫` dropped.
    case javascript
  }

  /// `template` in `dialect`.
  static func render(_ template: String, as dialect: Dialect) -> String {
    let (keepOpen, keepClose, dropOpen, dropClose): (Character, Character, Character, Character) =
      dialect == .typescript ? ("⟪", "⟫", "⟦", "⟧") : ("⟦", "⟧", "⟪", "⟫")
    let chars = Array(template)
    var out: [Character] = []
    out.reserveCapacity(chars.count)
    var i = 0
    while i < chars.count {
      let ch = chars[i]
      if ch == keepOpen || ch == keepClose {
        i += 1
        continue
      }
      guard ch == dropOpen else {
        out.append(ch)
        i += 1
        continue
      }
      var end = i + 1
      while end < chars.count && chars[end] != dropClose { end += 1 }
      precondition(end < chars.count, "unclosed \(dropOpen) in a TypeScript template")
      // Whole lines: drop the indentation before the span and the newline after it.
      var lineStart = out.count
      while lineStart > 0 && out[lineStart - 1] == " " { lineStart -= 1 }
      let atLineStart = lineStart == 0 || out[lineStart - 1] == "\n"
      if atLineStart && end + 1 < chars.count && chars[end + 1] == "\n" {
        out.removeSubrange(lineStart...)
        i = end + 2
      } else {
        i = end + 1
      }
    }
    return String(out)
  }
}
