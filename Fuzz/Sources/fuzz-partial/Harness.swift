import FuzzTargets

/// libFuzzer's entry point: one input of `count` bytes at `start` (see FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = UnsafeRawBufferPointer(start: start, count: count)
  FuzzTargets.partial(data)
  return 0
}

/// libFuzzer's initialization: writes the seed partials (built by this build, so they follow
/// its format) into the corpus directory, the first argument that is not an option.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  guard let arguments = argv.pointee else { return 0 }
  for k in 1..<Int(argc.pointee) {
    guard let argument = arguments[k] else { continue }
    let text = String(cString: argument)
    if !text.hasPrefix("-") {
      FuzzTargets.writePartialSeeds(into: text)
      break
    }
  }
  return 0
}
