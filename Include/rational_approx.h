/* rational_approx.h -- optimal (minimax) rational approximations of x^(-p/q) on a spectral
 * range [lmin, lmax] with relative error max |r(x) x^(p/q) - 1|, computed by the Remez
 * algorithm in multiple precision (MPFR; absent from builds without it), in partial-fraction
 * form r(x) = a0 + sum_k a_k / (x + b_k), and kept in a small text cache file keyed by
 * (p/q, range, degree) (Doc/hmc.md, section RHMC).
 * Implemented in: Update/rational_approx.c. */
#ifndef RATIONAL_APPROX_H
#define RATIONAL_APPROX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Highest degree (number of poles) of an approximation. */
#define RATIONAL_MAX_DEGREE 64

/* r(x) = a0 + sum_{k<degree} a[k] / (x + b[k]) ~ x^(-p/q) on [lmin, lmax] (p/q reduced, q > 0). */
typedef struct {
  int p, q;        /* the power: x^(-p/q) */
  double lmin, lmax;
  int degree;      /* type (degree, degree) */
  double a0;
  double a[RATIONAL_MAX_DEGREE], b[RATIONAL_MAX_DEGREE]; /* residues and shifts (b > 0) */
  double error;    /* maximal relative error max |r(x) x^(p/q) - 1| on [lmin, lmax] */
} rational_approx;

/* 1 when this build computes approximations (MPFR found by configure), 0 otherwise. */
int rational_approx_have_remez(void);
/* Compute the minimax approximation of x^(-p/q) of the given degree on [lmin, lmax] (0 <
 * lmin < lmax) by the Remez algorithm; returns 0, or -1 with a message in err (no MPFR, bad
 * arguments, no convergence). Powers -2 < -p/q < 1 only; x^-1 is exact at every degree (one
 * pole at 0); for 1 < p/q < 2 r is 1/x times the minimax approximation of x^(1-p/q) with degree
 * - 1 poles (the same relative error; degree >= 2). */
int rational_approx_remez(rational_approx *r, int p, int q, double lmin, double lmax, int degree,
                          char *err, size_t errlen);
/* r(x) in double precision. */
double rational_approx_eval(const rational_approx *r, double x);
/* The relative error r(x) x^(p/q) - 1 in double precision. */
double rational_approx_rel_error(const rational_approx *r, double x);
/* Largest |relative error| over n points spread logarithmically over [lmin, lmax] (ends
 * included), in double precision. */
double rational_approx_max_error(const rational_approx *r, int n);

/* The cache file used when none is given: $HR_RATIONAL_CACHE, else "rational_approx.cache"
 * in the working directory. */
const char *rational_approx_default_cache(void);
/* Look up (p/q, lmin, lmax, degree) in the cache file (degree 0: the smallest stored degree
 * whose error is <= precision, accepted only when degree - 1 is stored with a larger error, so
 * that the choice does not depend on what else was cached). Returns 1 found, 0 not. */
int rational_approx_cache_lookup(rational_approx *r, const char *path, int p, int q, double lmin,
                                 double lmax, int degree, double precision);
/* Append r to the cache file (rewritten atomically; only process 0 writes). Returns 0 or -1. */
int rational_approx_cache_store(const char *path, const rational_approx *r);
/* The approximation of x^(-p/q) on [lmin, lmax]: of the given degree, or (degree 0) of the
 * smallest degree with error <= precision; from the cache (path NULL: the default) or computed
 * and stored there. The achieved error is logged (topic "RHMC", level 0 when computed). Stops
 * the program (HR_EXIT_INPUT) when it cannot be had: no MPFR and not cached, or no degree up to
 * RATIONAL_MAX_DEGREE meets the precision. */
void rational_approx_get(rational_approx *r, int p, int q, double lmin, double lmax, int degree,
                         double precision, const char *path);

#ifdef __cplusplus
}
#endif

#endif
