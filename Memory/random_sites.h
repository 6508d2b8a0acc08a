/* random_sites.h -- the per-site draws of the random fields of random_fields.h, shared by the
 * CPU loops (random_fields.c) and the kernels of the GPU path (random_fields_gpu.c): each
 * takes the stream of its site (or link) and fills the value, so both paths give the same bits.
 * Written in the common subset of C11 and CUDA C++. */
#ifndef RANDOM_SITES_H
#define RANDOM_SITES_H

#include "random.h"
#include "suN_random.h"
#include "suN_types.h"

/* Every real component N(0, 1/2), per spin, per colour, real part first. */
HR_INLINE void random_gaussian_spinor_site(hr_rng_stream *st, suNf_spinor *p) {
  const double scale = 0.70710678118654752440; /* sqrt(1/2) */
  HR_DEVICE_UNROLL
  for (int k = 0; k < 4 * NF; k++) { /* spin k / NF, colour k % NF */
    const double re = scale * rng_gaussian(st);
    const double im = scale * rng_gaussian(st);
    p->c[k / NF].c[k % NF] = hr_cmplx(re, im);
  }
}

/* The same numbers rounded to single precision. */
HR_INLINE void random_gaussian_spinor_flt_site(hr_rng_stream *st, suNf_spinor_flt *p) {
  const double scale = 0.70710678118654752440;
  HR_DEVICE_UNROLL
  for (int k = 0; k < 4 * NF; k++) { /* spin k / NF, colour k % NF */
    const double re = scale * rng_gaussian(st);
    const double im = scale * rng_gaussian(st);
    p->c[k / NF].c[k % NF] = hr_cmplx_flt((float)re, (float)im);
  }
}

#endif
