// Runs one kernel for N passes over the in-cache block (the first 1000 traces of the benchmark
// data) and prints a digest of its output. The callgrind instruction gate
// (Scripts/instruction-gate.py) runs it twice per kernel, with 1 and with N passes, and divides the
// difference by (N − 1) × samples: the per-sample cost of the loop alone, without start-up and data
// generation.
//
//   ir-probe <kernel> <passes>      kernels: see `ir-probe list`
@_spi(Benchmarks) import BenchSupport

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments
let probes = Probe.all
if arguments.count == 2, arguments[1] == "list" {
  for probe in probes { print(probe.name) }
  exit(0)
}
guard arguments.count == 3, let probe = probes.first(where: { $0.name == arguments[1] }),
  let passes = Int(arguments[2]), passes >= 1
else {
  printError("usage: ir-probe <kernel> <passes>   (ir-probe list)")
  exit(64)
}

let data = BenchData(traces: Probe.traces)
let buffers = EventBuffers(for: data)
let replay = ReplayData(data)
var total = 0
data.withColumns { columns in
  for _ in 0..<passes { total &+= probe.run(columns, buffers, replay) }
}
// The class sweeps run on their own traces (see `Probe.classSweeps`).
let samples = probe.name.hasPrefix("classes.") ? ClassSweepBox.data.samples : data.samples
print("\(probe.name): \(passes) passes over \(samples) samples, result \(total)")
