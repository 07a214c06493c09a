/*
 * The C reference of TouchTrace's recognizer kernels and of the running-max threshold sweep.
 *
 * Same semantics as TouchRecognizers' ForceKernels (see its documentation), so that event
 * sequences can be compared one to one: the samples of trace k are offsets[k] .. offsets[k+1]-1
 * in every column; each kernel resets its state at every trace start and writes events (trace,
 * kind, global sample index) into a buffer of `capacity` events, returning the number found
 * (events past the capacity are counted, not written). Force is float, time double seconds.
 *
 * Built with -O2 (and -ffp-contract=off, so that the EMA is evaluated as written, like Swift).
 */
#ifndef TOUCHTRACE_CREFERENCE_H
#define TOUCHTRACE_CREFERENCE_H

#include <stddef.h>
#include <stdint.h>

/* One kernel event. */
typedef struct {
  int32_t trace;   /* the trace number */
  int32_t kind;    /* the same kind numbers as ForceKernels.Kind */
  ptrdiff_t index; /* the global sample index */
} ttc_event;

/* Per trace, the first sample with f > threshold (kind 0), then the trace is left. */
ptrdiff_t ttc_first_crossing(const float *force, const ptrdiff_t *offsets, ptrdiff_t traces,
                             float threshold, ttc_event *events, ptrdiff_t capacity);

/* Peek/pop hysteresis: idle -> peeked (f > peek, kind 1); peeked -> popped (f > pop, kind 2) or
   -> idle (f < release, kind 3); popped -> idle (f < release, kind 4). */
ptrdiff_t ttc_hysteresis(const float *force, const ptrdiff_t *offsets, ptrdiff_t traces,
                         float peek, float pop, float release, ttc_event *events,
                         ptrdiff_t capacity);

/* s = 0, armed; s += alpha * (f - s); armed and s > threshold -> kind 5, disarmed; disarmed and
   s < rearm -> armed. */
ptrdiff_t ttc_ema_threshold(const float *force, const ptrdiff_t *offsets, ptrdiff_t traces,
                            float alpha, float threshold, float rearm, ttc_event *events,
                            ptrdiff_t capacity);

/* f > level held: the first sample of an episode with t - t_start >= duration (seconds) gives
   one event (kind 6); a sample with f <= level ends the episode. */
ptrdiff_t ttc_dwell(const double *t, const float *force, const ptrdiff_t *offsets,
                    ptrdiff_t traces, float level, double duration, ttc_event *events,
                    ptrdiff_t capacity);

/* The running-max merge sweep over K thresholds sorted ascending: for every threshold j,
   count[j] += the number of traces whose force ever exceeds thresholds[j] (strict >), and
   latency[j] += the sum over those traces of (t at the first such sample - t at the trace's
   first sample), seconds. One pass per trace, O(samples + K) per trace. count and latency
   are accumulated into (zero them first). */
void ttc_sweep_merge(const double *t, const float *force, const ptrdiff_t *offsets,
                     ptrdiff_t traces, const float *thresholds, ptrdiff_t k, int64_t *count,
                     double *latency);

#endif
