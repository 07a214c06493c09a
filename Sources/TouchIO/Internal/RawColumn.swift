/// A growable buffer of trivial values that appends without the uniqueness check an `Array`
/// in a struct pays on every append. The owner frees it explicitly (``free()``).
struct RawColumn<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 256) {
    self.capacity = Swift.max(capacity, 1)
    base = .allocate(capacity: self.capacity)
  }

  @inline(__always)
  mutating func append(_ value: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: value)
    count += 1
  }

  @inline(never)
  private mutating func grow() {
    UnsafeMutablePointer.double(&base, capacity: &capacity, keeping: count)
  }

  /// Moves the values to the end of `array` and empties the buffer.
  mutating func drain(into array: inout [Element]) {
    array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    count = 0
  }

  /// Frees the storage; the buffer must not be used afterwards.
  func free() { base.deallocate() }
}
