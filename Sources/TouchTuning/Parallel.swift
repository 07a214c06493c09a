import Dispatch

/// Runs independent pieces of work on several threads. Each piece writes only its own result
/// slot, so results never depend on the thread count.
enum Parallel {
  /// `body(0) … body(count − 1)` on up to `threads` threads (inline with one thread or item).
  static func map<T: Sendable>(items count: Int, threads: Int, _ body: @Sendable (Int) -> T) -> [T] {
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

  /// Result slots written by several threads, each slot by exactly one.
  private struct Slots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
    func initialize(_ index: Int, to value: T) { (base + index).initialize(to: value) }
  }
}
