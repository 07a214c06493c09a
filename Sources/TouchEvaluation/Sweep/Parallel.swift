import Dispatch

/// Runs independent pieces of work on several threads. Results never depend on the thread
/// count: each piece's result goes to its own slot, and callers reduce in index order.
///
/// Shared by the package's modules (evaluation sweeps, tuning, bootstrap); not public API.
package enum Parallel {
  /// `body(0) … body(count − 1)`, computed on up to `threads` threads at once (inline, in order,
  /// with one thread or one item). Worker `w` computes items `w`, `w + W`, … .
  package static func map<T: Sendable>(items count: Int, threads: Int, _ body: @Sendable (Int) -> T) -> [T] {
    let workers = Swift.min(Swift.max(threads, 1), count)
    if workers <= 1 { return (0..<count).map(body) }
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      let slots = Slots(base: buffer.baseAddress!)
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        var item = worker
        while item < count {
          slots.initialize(item, to: body(item))
          item += workers
        }
      }
      initialized = count
    }
  }

  /// `body` applied to consecutive ranges of `chunk` indices covering `0..<count`, in order (the
  /// last range may be shorter), computed on up to `threads` threads.
  package static func map<T: Sendable>(count: Int, chunk: Int, threads: Int, _ body: @Sendable (Range<Int>) -> T) -> [T]
  {
    let size = Swift.max(chunk, 1)
    let chunks = (count + size - 1) / size
    return map(items: chunks, threads: threads) { c in
      body((c * size)..<Swift.min(count, (c + 1) * size))
    }
  }

  /// Uninitialized result slots written by several threads, each slot by exactly one.
  private struct Slots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
    func initialize(_ index: Int, to value: T) { (base + index).initialize(to: value) }
  }
}
