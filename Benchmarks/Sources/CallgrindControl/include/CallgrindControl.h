// Callgrind's client requests for ir-probe: the instruction gate runs the probe with
// `--instr-atstart=no`, and the probe switches instrumentation on around the passes it counts, so
// start-up, data generation and the warm-up pass run at valgrind's uninstrumented speed and are not
// counted. Without valgrind's headers at build time every call is a no-op and
// `callgrind_control_available()` is 0 (the gate then refuses the probe).
#ifndef CALLGRIND_CONTROL_H
#define CALLGRIND_CONTROL_H

/// 1 when built with <valgrind/callgrind.h>, else 0 (the calls below then do nothing).
int callgrind_control_available(void);
/// 1 when running under valgrind (and built with its headers), else 0.
int callgrind_running_on_valgrind(void);
/// CALLGRIND_START_INSTRUMENTATION: count from here.
void callgrind_start_instrumentation(void);
/// CALLGRIND_STOP_INSTRUMENTATION: stop counting.
void callgrind_stop_instrumentation(void);

#endif
