#if canImport(Glibc)
  import Glibc
#endif

/// Gives the memory a finished batch freed back to the system.
///
/// glibc keeps freed memory for reuse, per thread arena: after a batch of traces is freed, its
/// pages stay resident in the arenas of the threads that parsed and scored it, and the next
/// batch, scored on other threads, may not reuse them. On 1 GB, `tune` peaked at 348 MiB of
/// resident memory for 212 MB of live heap. glibc's `malloc_trim(0)` after each batch returns
/// the free pages of every arena; they come back zero-filled when used again. Without glibc
/// (or without the function) it does nothing.
enum FreedMemory {
  #if canImport(Glibc)
    /// `malloc_trim`, looked up once (`<malloc.h>` is not in the Glibc module).
    private static let trim: (@convention(c) (Int) -> Int32)? = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
  #endif

  static func release() {
    #if canImport(Glibc)
      _ = trim?(0)
    #endif
  }
}
