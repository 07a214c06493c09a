#ifndef CGSL_SHIM_H
#define CGSL_SHIM_H

// Only the GSL headers TouchTrace uses. This module provides no Swift API of its own;
// `TouchSignal` is the one Swift module that imports it.
#include <gsl/gsl_errno.h>
#include <gsl/gsl_version.h>
#include <gsl/gsl_vector.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_filter.h>
#include <gsl/gsl_movstat.h>
#include <gsl/gsl_interp.h>
#include <gsl/gsl_spline.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>


// GSL exposes some constants as mutable C globals (`GSL_VAR const T *name`), which Swift 6
// rejects as shared mutable state. These accessors read them instead.
static inline const char *cgsl_version(void) { return gsl_version; }
static inline const gsl_interp_type *cgsl_interp_linear(void) { return gsl_interp_linear; }
static inline const gsl_interp_type *cgsl_interp_steffen(void) { return gsl_interp_steffen; }
static inline const gsl_interp_type *cgsl_interp_cspline(void) { return gsl_interp_cspline; }
static inline const gsl_interp_type *cgsl_interp_akima(void) { return gsl_interp_akima; }
static inline const gsl_rng_type *cgsl_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_multifit_nlinear_type *cgsl_multifit_nlinear_trust(void) {
  return gsl_multifit_nlinear_trust;
}

#endif
