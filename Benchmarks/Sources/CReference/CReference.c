#include "CReference.h"

static inline void emit(ptrdiff_t *count, ttc_event *events, ptrdiff_t capacity, ptrdiff_t k,
                        int32_t kind, ptrdiff_t index) {
  if (*count < capacity) {
    events[*count].trace = (int32_t)k;
    events[*count].kind = kind;
    events[*count].index = index;
  }
  *count += 1;
}

ptrdiff_t ttc_first_crossing(const float *force, const ptrdiff_t *offsets, ptrdiff_t traces,
                             float threshold, ttc_event *events, ptrdiff_t capacity) {
  ptrdiff_t count = 0;
  for (ptrdiff_t k = 0; k < traces; k++) {
    for (ptrdiff_t i = offsets[k], end = offsets[k + 1]; i < end; i++) {
      if (force[i] > threshold) {
        emit(&count, events, capacity, k, 0, i);
        break;
      }
    }
  }
  return count;
}

ptrdiff_t ttc_hysteresis(const float *force, const ptrdiff_t *offsets, ptrdiff_t traces,
                         float peek, float pop, float release, ttc_event *events,
                         ptrdiff_t capacity) {
  ptrdiff_t count = 0;
  for (ptrdiff_t k = 0; k < traces; k++) {
    int state = 0; /* 0 idle, 1 peeked, 2 popped */
    for (ptrdiff_t i = offsets[k], end = offsets[k + 1]; i < end; i++) {
      float f = force[i];
      switch (state) {
      case 0:
        if (f > peek) {
          emit(&count, events, capacity, k, 1, i);
          state = 1;
        }
        break;
      case 1:
        if (f > pop) {
          emit(&count, events, capacity, k, 2, i);
          state = 2;
        } else if (f < release) {
          emit(&count, events, capacity, k, 3, i);
          state = 0;
        }
        break;
      default:
        if (f < release) {
          emit(&count, events, capacity, k, 4, i);
          state = 0;
        }
        break;
      }
    }
  }
  return count;
}

ptrdiff_t ttc_ema_threshold(const float *force, const ptrdiff_t *offsets, ptrdiff_t traces,
                            float alpha, float threshold, float rearm, ttc_event *events,
                            ptrdiff_t capacity) {
  ptrdiff_t count = 0;
  for (ptrdiff_t k = 0; k < traces; k++) {
    float s = 0;
    int armed = 1;
    for (ptrdiff_t i = offsets[k], end = offsets[k + 1]; i < end; i++) {
      s += alpha * (force[i] - s);
      if (armed) {
        if (s > threshold) {
          emit(&count, events, capacity, k, 5, i);
          armed = 0;
        }
      } else if (s < rearm) {
        armed = 1;
      }
    }
  }
  return count;
}

ptrdiff_t ttc_dwell(const double *t, const float *force, const ptrdiff_t *offsets,
                    ptrdiff_t traces, float level, double duration, ttc_event *events,
                    ptrdiff_t capacity) {
  ptrdiff_t count = 0;
  for (ptrdiff_t k = 0; k < traces; k++) {
    int inside = 0, fired = 0;
    double start = 0;
    for (ptrdiff_t i = offsets[k], end = offsets[k + 1]; i < end; i++) {
      if (force[i] > level) {
        if (!inside) {
          inside = 1;
          fired = 0;
          start = t[i];
        }
        if (!fired && t[i] - start >= duration) {
          emit(&count, events, capacity, k, 6, i);
          fired = 1;
        }
      } else {
        inside = 0;
      }
    }
  }
  return count;
}

void ttc_sweep_merge(const double *t, const float *force, const ptrdiff_t *offsets,
                     ptrdiff_t traces, const float *thresholds, ptrdiff_t k, int64_t *count,
                     double *latency) {
  if (k <= 0) return;
  for (ptrdiff_t trace = 0; trace < traces; trace++) {
    ptrdiff_t s = offsets[trace], e = offsets[trace + 1];
    ptrdiff_t p = 0;          /* the next threshold not crossed yet */
    float next = thresholds[0];
    for (ptrdiff_t i = s; i < e; i++) {
      float x = force[i];
      if (x > next) {
        /* x crosses thresholds p, p+1, ... up to the first it does not exceed. */
        double lat = t[i] - t[s];
        do {
          count[p] += 1;
          latency[p] += lat;
          p++;
        } while (p < k && x > thresholds[p]);
        if (p == k) break;
        next = thresholds[p];
      }
    }
  }
}
