/// The median of `values` by sorting them: the middle value, or the mean of the two middle values
/// of an even count.
/// - Precondition: `values` is not empty.
public func median(_ values: [Double]) -> Double {
  precondition(!values.isEmpty, "the median of no values")
  let sorted = values.sorted()
  let n = sorted.count
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}
