internal import CGSL

extension GSL {
  /// Runs `body` with a read-only GSL vector viewing `input` and a writable one viewing `output`,
  /// without copying either. The views (and the pointers) are valid only inside `body`.
  ///
  /// - Precondition: both arrays are non-empty and equally long (GSL cannot view an empty array).
  @inline(__always)
  static func withVectors<R>(
    _ input: [Double], _ output: inout [Double],
    _ body: (UnsafePointer<gsl_vector>, UnsafeMutablePointer<gsl_vector>) -> R
  ) -> R {
    precondition(!input.isEmpty && input.count == output.count, "vectors must be non-empty and equally long")
    return input.withUnsafeBufferPointer { x in
      output.withUnsafeMutableBufferPointer { y in
        var xv = gsl_vector_const_view_array(x.baseAddress, x.count)
        var yv = gsl_vector_view_array(y.baseAddress, y.count)
        return withUnsafePointer(to: &xv.vector) { xp in
          withUnsafeMutablePointer(to: &yv.vector) { yp in body(xp, yp) }
        }
      }
    }
  }

  /// Makes `output` hold `count` elements, reusing its storage when it is large enough.
  @inline(__always)
  static func resize(_ output: inout [Double], to count: Int) {
    if output.count != count {
      output.removeAll(keepingCapacity: true)
      output.append(contentsOf: repeatElement(0, count: count))
    }
  }
}
