#ifndef ENSIM_CGSL_SHIM_H
#define ENSIM_CGSL_SHIM_H

#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>

// The simplex minimiser is a mutable global too.
static inline const gsl_multimin_fminimizer_type *ensim_nmsimplex2(void) { return gsl_multimin_fminimizer_nmsimplex2; }

// GSL's generator types are mutable globals; Swift 6 strict concurrency rejects
// reading them directly, so hand them out through functions.
static inline const gsl_rng_type *ensim_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *ensim_rng_taus2(void) { return gsl_rng_taus2; }

// Turn GSL's default abort-on-error into status codes the Swift side checks.
static inline void ensim_gsl_disable_abort(void) { gsl_set_error_handler_off(); }

#endif
