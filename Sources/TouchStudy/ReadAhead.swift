import Foundation
import TouchCore

/// Reads the next batch on a thread of its own while the caller works on the batch before.
///
/// Reading (parsing and validating the inputs, or decoding a spool) is one thread's work; scoring
/// spreads a batch over `--threads` threads. Without reading ahead the scoring threads wait while
/// a batch is read, and the reader waits while a batch is scored; with it the two overlap and the
/// cores stay busy. At most one batch is read ahead: the reader starts on the next batch when the
/// caller takes the one it holds, so memory holds one more batch than a plain read, never more.
///
/// The first batches are small and grow to the full size (``firstBatch`` traces, then twice as
/// many each time), so that the caller starts working after a fraction of a batch's reading
/// instead of a whole one. Batch sizes change nothing a study computes, only how much it holds at
/// once; a default grid that follows the maximum forces may see a new one in a later batch than it
/// would have, and then reads the traces before it again.
///
/// The batches, their order and the errors (in their place in that order) are the reading
/// function's: what the caller computes does not depend on the read-ahead. The reading function
/// and what it reads belong to the reader thread until ``isDone``. A read-ahead the caller drops
/// before the end (a failure, a restart) lets its thread finish the batch it is reading, and that
/// batch is thrown away.
final class ReadAhead {
  private let shared: Shared

  /// The first batch's traces at most.
  static let firstBatch = 1024

  /// Starts reading the first batch.
  ///
  /// - Parameters:
  ///   - size: the full batch size, in traces (at least 1).
  ///   - read: reads the next batch of about the given number of traces; `nil` at the end. Called
  ///     on the reader thread only, one call at a time.
  init(size: Int, _ read: @escaping (Int) throws -> Dataset?) {
    shared = Shared(size: Swift.max(1, size), read)
    let shared = self.shared
    let thread = Thread { shared.run() }
    thread.name = "touchtrace-read-ahead"
    // The main thread's default, for readers that recurse (JSON) on deeply nested input.
    thread.stackSize = 8 << 20
    thread.start()
  }

  deinit {
    shared.stop()
  }

  /// The next batch; `nil` at the end (also after an error was thrown).
  ///
  /// - Throws: what the reading function threw reading it.
  func next() throws -> Dataset? {
    try shared.take()
  }

  /// Whether the end or an error has been taken: the reader thread no longer reads.
  var isDone: Bool { shared.isDone }

  /// What the reader thread and the caller share, under one lock.
  private final class Shared: @unchecked Sendable {
    private let condition = NSCondition()
    private let size: Int
    private let read: (Int) throws -> Dataset?
    /// The batch read ahead and not yet taken (`.success(nil)`: the end).
    private var slot: Result<Dataset?, any Error>?
    /// The caller dropped the read-ahead.
    private var stopped = false
    /// The caller took the end or an error: the reader is done.
    private var ended = false

    init(size: Int, _ read: @escaping (Int) throws -> Dataset?) {
      self.size = size
      self.read = read
    }

    /// The reader thread: one batch at a time, each read once the one before is taken.
    func run() {
      var next = Swift.min(size, ReadAhead.firstBatch)
      while true {
        condition.lock()
        while slot != nil && !stopped { condition.wait() }
        let stop = stopped
        condition.unlock()
        if stop { return }
        let batch = Result<Dataset?, any Error> { try read(next) }
        condition.lock()
        if !stopped { slot = batch }
        condition.broadcast()
        condition.unlock()
        guard case .success(.some) = batch else { return }
        next = Swift.min(size, 2 * next)
      }
    }

    func take() throws -> Dataset? {
      condition.lock()
      if ended {
        condition.unlock()
        return nil
      }
      while slot == nil { condition.wait() }
      let batch = slot.unsafelyUnwrapped
      slot = nil
      if case .success(.some) = batch {} else { ended = true }
      condition.broadcast()
      condition.unlock()
      return try batch.get()
    }

    func stop() {
      condition.lock()
      stopped = true
      slot = nil
      condition.broadcast()
      condition.unlock()
    }

    var isDone: Bool {
      condition.lock()
      defer { condition.unlock() }
      return ended
    }
  }
}
