import FuzzTargets

/// libFuzzer's entry point: one input of `count` bytes at `start` (see FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = UnsafeRawBufferPointer(start: start, count: count)
  FuzzTargets.captureRequest(data)
  return 0
}
