/* suN_random.h -- random group and algebra elements drawn from a stream of random.h:
 * Haar-distributed SU(n) matrices and Gaussian algebra vectors, for a run-time n and for the
 * compiled SU(NG). HR_INLINE: usable per site in host and device code. The numbers are taken
 * from the stream in a fixed order (row-major, real part before imaginary part), so the same
 * stream gives the same matrix on every backend.
 * Implemented in: LibHR/Algebra (header only). */
#ifndef SUN_RANDOM_H
#define SUN_RANDOM_H

#include "hr_inline.h"
#include "random.h"
#include "suN_generic.h"
#include "suN_types.h"

/* U = Haar-random element of SU(n): a matrix of independent complex Gaussians, rows
 * orthonormalised by Gram-Schmidt (which is QR with a positive diagonal of R, hence Haar on
 * U(n)), then multiplied by det^(-1/n) (suN_reunitarize), which keeps the distribution
 * invariant under SU(n) and so Haar on SU(n). Uses 2 n^2 Gaussians. */
HR_INLINE void suN_random_haar(hr_complex *U, int n, hr_rng_stream *s) {
  do { /* a redraw when the rows are dependent: probability zero, done to stay correct */
    HR_DEVICE_UNROLL
    for (int i = 0; i < n * n; ++i) {
      const double re = rng_gaussian(s);
      const double im = rng_gaussian(s);
      U[i] = hr_cmplx(re, im);
    }
  } while (suN_reunitarize(U, n) != 0);
}

/* v_a = independent standard normal numbers (mean 0, variance 1), a = 0 .. n^2-2: the
 * distribution exp(-v.v/2) = exp(-tr(X^+ X)) of X = i v_a T^a (HMC momenta). */
HR_INLINE void suN_random_algebra(double *v, int n, hr_rng_stream *s) {
  HR_DEVICE_UNROLL
  for (int a = 0; a < n * n - 1; ++a)
    v[a] = rng_gaussian(s);
}

/* U = Haar-random element of SU(NG). */
HR_INLINE void suNg_random(suNg *U, hr_rng_stream *s) { suN_random_haar(U->c, NG, s); }
/* v = Gaussian algebra vector of su(NG) (each component standard normal). */
HR_INLINE void suNg_algebra_vector_random(suNg_algebra_vector *v, hr_rng_stream *s) {
  suN_random_algebra(v->c, NG, s);
}

#endif
