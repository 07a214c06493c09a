import TouchRecognizers

/// The Kotlin export: a core class (Kotlin standard library only, Kotlin 1.3 or later), an
/// Android `View.OnTouchListener` over `MotionEvent.getPressure()` (Android platform API only)
/// and a conformance check (`main`, reading the vectors file named by its argument with
/// `java.io`).
///
/// Every file is in package ``packageName``. The core holds the configuration's values as
/// constants of its `companion object` and only the code of the configuration's filter and
/// recognizer, chosen here by `switch`.
enum KotlinExport: SourceExport {
  /// The package of every generated Kotlin file.
  static let packageName = "touchtrace.export"

  static let folder = "kotlin"
  static let nonFinite = (nan: "Double.NaN", infinity: "Double.POSITIVE_INFINITY")

  /// The core (`TYPE.kt`), the adapter (`TYPETouchListener.kt`) and the check
  /// (`ConformanceCheck.kt`) for `c`.
  static func paths(_ c: ExportConfiguration) -> (core: String, adapter: String, check: String) {
    ("\(c.typeName).kt", "\(c.typeName)TouchListener.kt", "ConformanceCheck.kt")
  }

  /// `text` as a Kotlin string literal (`\`, `"` and `$` escaped, control characters as `\uXXXX`).
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "$": out += "\\$"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let digits = String(scalar.value, radix: 16, uppercase: true)
          out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// A lower camel-case name as a Kotlin constant name: `oneEuroMinCutoff` → `ONE_EURO_MIN_CUTOFF`.
  static func constantName(_ name: String) -> String {
    var out = ""
    for character in name {
      if character.isUppercase && !out.isEmpty { out += "_" }
      out += character.uppercased()
    }
    return out
  }

  /// One constant of the core's `companion object`.
  struct Constant {
    /// The KDoc line.
    var doc: String
    /// The name in lower camel case, as the catalog spells the parameter.
    var name: String
    /// The Kotlin type: `Double`, `Int` or `Boolean`.
    var type: String
    /// The value as a Kotlin expression.
    var value: String
    /// Whether the value is a compile-time constant (`const val`); Kotlin 1.3 does not accept
    /// `Double.NaN` or the infinities in a `const val`, so those are plain `val`s.
    var isConst: Bool
  }

  /// A `Double` constant.
  static func double(_ doc: String, _ name: String, _ value: Double) -> Constant {
    Constant(doc: doc, name: name, type: "Double", value: literal(value), isConst: value.isFinite)
  }

  /// A `Boolean` constant.
  static func flag(_ doc: String, _ name: String, _ value: Bool) -> Constant {
    Constant(doc: doc, name: name, type: "Boolean", value: "\(value)", isConst: true)
  }

  /// The configuration's values: the filter's first, then the recognizer's.
  static func constants(_ c: ExportConfiguration) -> [Constant] {
    var out: [Constant] = []
    switch c.filter {
    case .ema(let alpha)?:
      out.append(
        double("Filter (exponential moving average, `ema.alpha`): weight of each new sample.", "emaAlpha", alpha))
    case .movingMean(let window)?:
      out.append(
        Constant(
          doc: "Filter (trailing moving mean, `movmean.window`): samples averaged.", name: "movingMeanWindow",
          type: "Int", value: "\(window)", isConst: true))
    case .oneEuro(let minCutoff, let beta, let dCutoff)?:
      out.append(
        double(
          "Filter (1€, `one-euro.mincutoff`): cutoff when the force is still, hertz.", "oneEuroMinCutoff", minCutoff))
      out.append(
        double("Filter (1€, `one-euro.beta`): cutoff increase per force unit per second of speed.", "oneEuroBeta", beta)
      )
      out.append(
        double(
          "Filter (1€, `one-euro.dcutoff`): cutoff of the speed estimate, hertz.", "oneEuroDerivativeCutoff", dCutoff))
    case nil:
      break
    }
    switch c.core {
    case .deepPress(let threshold):
      out.append(
        double("Normalized force that begins the press (>=); below it the press ends.", "threshold", threshold))
    case .hysteresis(let press, let release, let palm, let strict, let inclusive):
      out.append(double("Normalized force that presses (>=, > when STRICT_PRESS).", "pressThreshold", press))
      out.append(
        double(
          "Normalized force below which a press releases (<, <= when INCLUSIVE_RELEASE).", "releaseThreshold", release))
      out.append(
        double("Normalized force above which the contact is rejected for good (NaN: off).", "palmThreshold", palm))
      out.append(flag("Press with > instead of >=.", "strictPress", strict))
      out.append(flag("Release with <= instead of <.", "inclusiveRelease", inclusive))
    case .stablePress(let press, let release, let dwell, let tap, let movement, let rearm):
      out.append(double("Normalized force that arms a press (>=).", "pressThreshold", press))
      out.append(double("Normalized force below which a press releases (<).", "releaseThreshold", release))
      out.append(double("Time the force must stay at or above PRESS_THRESHOLD, seconds.", "dwellTime", dwell))
      out.append(double("Shortest contact before a press, seconds.", "tapTimeout", tap))
      out.append(
        double("Movement before the first press that fails the contact, points (NaN: off).", "movementLimit", movement))
      out.append(flag("A released press can press again in the same contact.", "rearm", rearm))
    case .peekPop(let peek, let pop):
      out.append(double("Normalized force of the peek (>=).", "peekThreshold", peek))
      out.append(double("Normalized force of the pop (>=).", "popThreshold", pop))
    }
    return out
  }

  /// The constants as `companion object` members (8 spaces of indentation).
  static func constantDeclarations(_ c: ExportConfiguration) -> String {
    constants(c).map { k in
      let keyword = k.isConst ? "const val" : "val"
      return "\n        /** \(k.doc) */\n        \(keyword) \(constantName(k.name)): \(k.type) = \(k.value)\n"
    }.joined()
  }
}
