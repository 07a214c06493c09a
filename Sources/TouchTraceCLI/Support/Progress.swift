/// A progress line on standard error for work longer than about a second.
final class Progress: @unchecked Sendable {
  private let enabled: Bool
  private let command: String
  private let start = ContinuousClock.now
  private var shown = false
  private var lastShown = ContinuousClock.now

  /// A progress line prefixed `touchtrace COMMAND:`, shown only when `enabled`.
  init(enabled: Bool, command: String) {
    self.enabled = enabled
    self.command = command
  }

  /// Shows `done / total` when a second has passed (at most ten times a second).
  func update(_ done: Int, _ total: Int) {
    guard enabled else { return }
    let now = ContinuousClock.now
    guard now - start >= .seconds(1), !shown || now - lastShown >= .milliseconds(100) || done == total else { return }
    shown = true
    lastShown = now
    let percent = total == 0 ? 100 : done * 100 / total
    write("\rtouchtrace \(command): \(done)/\(total) configurations (\(percent)%)")
  }

  /// Shows how many traces were read when a second has passed (at most ten times a second).
  func traces(_ done: Int) {
    guard enabled else { return }
    let now = ContinuousClock.now
    guard now - start >= .seconds(1), !shown || now - lastShown >= .milliseconds(100) else { return }
    shown = true
    lastShown = now
    write("\rtouchtrace \(command): \(done) traces read")
  }

  /// Clears the line.
  func finish() {
    if shown { write("\r\u{1B}[K") }
  }

  private func write(_ text: String) { Console.writeError(Array(text.utf8)) }
}
