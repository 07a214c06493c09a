#include "CallgrindControl.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define TOUCHTRACE_HAVE_CALLGRIND 1
#endif
#endif

#ifdef TOUCHTRACE_HAVE_CALLGRIND
int callgrind_control_available(void) { return 1; }
int callgrind_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void callgrind_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void callgrind_stop_instrumentation(void) { CALLGRIND_STOP_INSTRUMENTATION; }
#else
int callgrind_control_available(void) { return 0; }
int callgrind_running_on_valgrind(void) { return 0; }
void callgrind_start_instrumentation(void) {}
void callgrind_stop_instrumentation(void) {}
#endif
