import FuzzTargets
import TouchImport

/// libFuzzer's entry point: one input of `count` bytes at `start` (see FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = UnsafeRawBufferPointer(start: start, count: count)
  FuzzTargets.importer(data, format: .libinputRecord)
  return 0
}
