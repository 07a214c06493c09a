@_spi(Benchmarks) import BenchSupport

/// Where results go so the optimizer keeps the work.
nonisolated(unsafe) var sink = 0

/// Timings of one implementation of one task, ns per sample, one value per round (each the
/// median of that round's repetitions).
struct Series {
  var rounds: [Double] = []
  var median: Double { BenchSupport.median(rounds) }
  var fastest: Double { rounds.min() ?? .nan }
  var slowest: Double { rounds.max() ?? .nan }
  /// Samples per second at the median.
  var rate: Double { 1e9 / median }
}

/// Runs `body` `reps` times (calling `prepare` untimed before each) and returns the median ns
/// per sample, `samples` being what one call of `body` processes.
func measure(reps: Int, samples: Int, prepare: () -> Void = {}, _ body: () -> Int) -> Double {
  var runs: [Double] = []
  for _ in 0..<reps {
    prepare()
    var r = 0
    let ns = timeNanoseconds { r = body() }
    sink &+= r
    runs.append(ns / Double(samples))
  }
  return median(runs)
}

/// What the Swift/C comparisons run on: a block in cache and the whole data cold (caches flushed
/// before each run), and how many interleaved rounds of each.
struct Workload {
  /// The in-cache block.
  var hot: BenchData
  /// The whole data, larger than the caches.
  var cold: BenchData
  /// Rounds in cache.
  var rounds: Int
  /// Evicts `cold` before each cold run.
  let flusher = CacheFlusher()

  /// The rounds in cache, or cold: half as many, at least 3.
  func rounds(cold: Bool) -> Int { cold ? max(3, rounds / 2) : rounds }

  /// ns per sample of `passes` back-to-back calls of `run` over the in-cache block, `samples`
  /// being what one call processes: the median of 5 repetitions.
  func inCache(passes: Int, samples: Int, _ run: () -> Int) -> Double {
    measure(reps: 5, samples: passes * samples) {
      var total = 0
      for _ in 0..<passes { total &+= run() }
      return total
    }
  }

  /// ns per sample of one call of `run` after a cache flush, `samples` being what it processes:
  /// the median of 3 repetitions.
  func flushed(samples: Int, _ run: () -> Int) -> Double {
    measure(reps: 3, samples: samples, prepare: flusher.flush, run)
  }
}

/// The product's Swift and the C reference timed side by side on the same task.
struct SwiftVsC {
  /// The Swift implementation's timings.
  var swift: Series
  /// The C reference's timings.
  var c: Series
  /// The per-round ratios Swift/C.
  var ratio: Series

  /// Measures `swift` and `c` side by side for `rounds` rounds, alternating which goes first.
  init(rounds: Int, swift: () -> Double, c: () -> Double) {
    self.swift = Series()
    self.c = Series()
    ratio = Series()
    for round in 0..<rounds {
      let x: Double
      let y: Double
      if round % 2 == 0 {
        x = swift()
        y = c()
      } else {
        y = c()
        x = swift()
      }
      self.swift.rounds.append(x)
      self.c.rounds.append(y)
      ratio.rounds.append(x / y)
    }
  }
}

/// Formatting helpers.
enum Format {
  static func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "—" }
    if digits == 0 { return String(Int(x.rounded())) }
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let r = (x * p).rounded() / p
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
      let decimals = s.distance(from: dot, to: s.endIndex) - 1
      if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
    } else if digits > 0 {
      s += "." + String(repeating: "0", count: digits)
    }
    return s
  }

  /// `1234 M/s` or `4.21 G/s` from ns per sample.
  static func rate(nsPerSample ns: Double) -> String {
    let perSecond = 1e9 / ns
    if perSecond >= 1e9 { return fixed(perSecond / 1e9, 2) + " G/s" }
    return fixed(perSecond / 1e6, 0) + " M/s"
  }

  /// `4.21 G/s (3.90–4.40)`.
  static func rateRange(_ s: Series) -> String {
    let lo = 1e9 / s.slowest
    let hi = 1e9 / s.fastest
    func short(_ v: Double) -> String { v >= 1e9 ? fixed(v / 1e9, 2) : fixed(v / 1e6, 0) }
    return "\(rate(nsPerSample: s.median)) (\(short(lo))–\(short(hi)))"
  }

  static func ratio(_ s: Series) -> String {
    "\(fixed(s.median, 2))× (\(fixed(s.fastest, 2))–\(fixed(s.slowest, 2)))"
  }
}

/// A Markdown table.
struct Table {
  var header: [String]
  var rows: [[String]] = []

  mutating func add(_ row: [String]) { rows.append(row) }

  var text: String {
    var lines = ["| " + header.joined(separator: " | ") + " |"]
    lines.append("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
    for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
    return lines.joined(separator: "\n")
  }
}
