/// Local maxima of a signal and their topographic prominence.
///
/// The rules are those of SciPy's `scipy.signal.find_peaks` / `peak_prominences` (so the two
/// agree sample for sample):
/// - **Peak**: a sample higher than its left neighbour, followed by samples equal to it (a flat
///   top, common with quantized force) and then a lower sample. A flat top is reported at its
///   middle sample (the left one of the two middles). The first and last samples are never
///   peaks, and a flat top that runs to the end is not one either.
/// - **Prominence**: from the peak, walk left until a sample strictly higher than the peak (or
///   the start) and take the lowest sample passed; the same to the right; the prominence is the
///   peak's height above the higher of those two minima. It says how far the force must drop
///   between this peak and any higher force.
/// - A peak counts when its prominence is at least the minimum (inclusive).
public enum ForcePeaks {
  /// A local maximum.
  public struct Peak: Hashable, Sendable {
    /// The sample index (the middle of a flat top).
    public var index: Int
    /// The height above the higher of the two surrounding minima, in the signal's units.
    public var prominence: Double
  }

  /// The peaks of `values` whose prominence is at least `minimumProminence`, in index order.
  /// - Complexity: O(n²) in the worst case (nested peaks), O(n) for typical force traces.
  public static func find(in values: [Double], minimumProminence: Double) -> [Peak] {
    let n = values.count
    guard n >= 3 else { return [] }
    var peaks: [Peak] = []
    var i = 1
    while i < n - 1 {
      if values[i - 1] < values[i] {
        var ahead = i + 1
        while ahead < n - 1 && values[ahead] == values[i] { ahead += 1 }
        if values[ahead] < values[i] {
          let index = (i + ahead - 1) / 2
          let prominence = self.prominence(of: index, in: values)
          if prominence >= minimumProminence { peaks.append(Peak(index: index, prominence: prominence)) }
          i = ahead
          continue
        }
        i = ahead
        continue
      }
      i += 1
    }
    return peaks
  }

  /// The prominence of the sample at `index` (see the type's documentation).
  static func prominence(of index: Int, in values: [Double]) -> Double {
    let height = values[index]
    var leftMin = height
    var j = index
    while j >= 0 && values[j] <= height {
      leftMin = Swift.min(leftMin, values[j])
      j -= 1
    }
    var rightMin = height
    j = index
    while j < values.count && values[j] <= height {
      rightMin = Swift.min(rightMin, values[j])
      j += 1
    }
    return height - Swift.max(leftMin, rightMin)
  }
}
