extension UnsafeMutablePointer {
  /// Doubles `storage`: moves its first `count` elements to new storage of twice `capacity`,
  /// frees the old storage, and updates both (the growth of the readers' reused buffers).
  @inline(__always)
  static func double(_ storage: inout UnsafeMutablePointer<Pointee>, capacity: inout Int, keeping count: Int) {
    let grown = UnsafeMutablePointer<Pointee>.allocate(capacity: capacity * 2)
    grown.moveInitialize(from: storage, count: count)
    storage.deallocate()
    storage = grown
    capacity *= 2
  }
}
