internal import CGSL

/// A workspace that filters signals with one GSL filter at one window length, as often as you
/// like and without allocating when the caller provides the output.
///
/// Smoothers own GSL memory: they are `~Copyable` and not `Sendable` (one per thread), and free
/// their workspace when they go away. ``GaussianSmoother``, ``MedianSmoother``,
/// ``RecursiveMedianSmoother`` and ``MovingWindowSmoother`` conform; a ``WindowedSmoothing``
/// configuration makes one for any window length with
/// ``WindowedSmoothing/makeSmoother(length:)``.
public protocol Smoother: ~Copyable {
  /// The window length in samples the workspace was allocated for.
  var length: Int { get }

  /// Filters `values` into `output` (resized to `values.count`, reusing its storage: no
  /// allocation when it already has room), one output per input, in the units of `values`.
  ///
  /// - Throws: ``GSLError`` from the GSL filter.
  func apply(to values: [Double], into output: inout [Double]) throws(GSLError)
}

extension Smoother where Self: ~Copyable {
  /// Filters `values` into a new array (empty in, empty out), in the units of `values`.
  ///
  /// - Throws: ``GSLError`` from the GSL filter.
  public func apply(to values: [Double]) throws(GSLError) -> [Double] {
    var output: [Double] = []
    try apply(to: values, into: &output)
    return output
  }
}

/// A GSL workspace freed when its owner goes away: the allocation, its `NULL` check and the free
/// written once for every smoother.
struct GSLWorkspace<Pointee>: ~Copyable {
  /// The workspace.
  let pointer: UnsafeMutablePointer<Pointee>
  private let free: (UnsafeMutablePointer<Pointee>) -> Void

  /// Allocates with `allocate` (the GSL function named `function`), after making sure GSL's
  /// aborting error handler is off.
  /// - Throws: ``GSLError`` when the allocation returns `NULL`.
  init(
    _ function: StaticString, _ allocate: () -> UnsafeMutablePointer<Pointee>?,
    free: @escaping (UnsafeMutablePointer<Pointee>) -> Void
  ) throws(GSLError) {
    GSL.prepare()
    guard let pointer = allocate() else { throw GSL.allocationFailed(function) }
    self.pointer = pointer
    self.free = free
  }

  deinit { free(pointer) }
}

extension GSL {
  /// Runs the GSL filter `body` from `input` into `output` (resized to `input.count`, reusing its
  /// storage; nothing runs for an empty input) and turns its status into a ``GSLError``.
  @inline(__always)
  static func filter(
    _ input: [Double], into output: inout [Double], _ function: StaticString,
    _ body: (UnsafePointer<gsl_vector>, UnsafeMutablePointer<gsl_vector>) -> Int32
  ) throws(GSLError) {
    resize(&output, to: input.count)
    guard !input.isEmpty else { return }
    try check(withVectors(input, &output, body), function)
  }
}
