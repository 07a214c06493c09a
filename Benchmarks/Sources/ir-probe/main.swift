// Runs one kernel for N passes over the in-cache block (the first 1000 traces of the benchmark
// data) and prints a digest of its output. The first pass is a warm-up (lazily made data, storage
// a reused log keeps, first calls); passes 2...N run inside a callgrind window: the callgrind
// instruction gate (Scripts/instruction-gate.py) runs the probe once under
// `valgrind --tool=callgrind --instr-atstart=no`, the probe switches instrumentation on before
// pass 2 and off after pass N, and the gate divides the count by (N − 1) × samples: the
// per-sample cost of the loop alone. Start-up, data generation and the warm-up pass are not
// counted, and run at valgrind's uninstrumented speed.
//
//   ir-probe <kernel> <passes>      kernels: see `ir-probe list`
@_spi(Benchmarks) import BenchSupport
import CallgrindControl

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
  let passes = Int(arguments[2]), passes >= 2
else {
  printError("usage: ir-probe <kernel> <passes ≥ 2>   (ir-probe list)")
  exit(64)
}

let data = BenchData(traces: Probe.traces)
let buffers = EventBuffers(for: data)
let replay = ReplayData(data)
var total = 0
data.withColumns { columns in
  total &+= probe.run(columns, buffers, replay)
  callgrind_start_instrumentation()
  for _ in 1..<passes { total &+= probe.run(columns, buffers, replay) }
  callgrind_stop_instrumentation()
}
// The class and exact sweeps run on their own traces (see `Probe.classSweeps`, `Probe.exactSweeps`).
let samples =
  probe.name.hasPrefix("classes.") || probe.name.hasPrefix("exact.") || probe.name.hasPrefix("grid20.")
  ? ClassSweepBox.data.samples : data.samples
let window =
  callgrind_control_available() == 0
  ? "unavailable (built without valgrind's headers)"
  : callgrind_running_on_valgrind() == 0 ? "off (not under valgrind)" : "on"
print(
  "\(probe.name): \(passes) passes over \(samples) samples, \(passes - 1) counted, callgrind window \(window), result \(total)"
)
