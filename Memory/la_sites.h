/* la_sites.h -- the per-site functions of the field-algebra operations for both precisions
 * (la_sites_template.h) and the precision conversions; HR_INLINE, shared by the CPU loops,
 * the CUDA kernels and the emulated backend. */
#ifndef LA_SITES_H
#define LA_SITES_H

#include "la_internal.h"

/* LA_UNROLL: unroll a short loop (the lanes of a partial sum) completely. LA_UNROLL_SITE: the
 * loop over the components of a site: completely on the host (up to 64), 8 at a time on the
 * device, where a fully unrolled loop over a large site (a clover term: 288 reals) would hold
 * too many registers. LA_UNROLL_LANES: the loop over groups of lanes of a reduction (each group
 * an unrolled LA_UNROLL loop): like LA_UNROLL_SITE on the host, not unrolled on the device. */
#if defined(__CUDACC__) /* nvcc: device code only (the host pass would pass it on) */
#if defined(__CUDA_ARCH__)
#define LA_UNROLL _Pragma("unroll")
#define LA_UNROLL_SITE _Pragma("unroll 4")
#define LA_UNROLL_LANES _Pragma("unroll 1")
#else
#define LA_UNROLL
#define LA_UNROLL_SITE
#define LA_UNROLL_LANES
#endif
#elif defined(__clang__)
#define LA_UNROLL _Pragma("clang loop unroll(full)")
#define LA_UNROLL_SITE _Pragma("clang loop unroll_count(64)")
#define LA_UNROLL_LANES LA_UNROLL_SITE
#elif defined(__GNUC__)
#define LA_UNROLL _Pragma("GCC unroll 64")
#define LA_UNROLL_SITE _Pragma("GCC unroll 64")
#define LA_UNROLL_LANES LA_UNROLL_SITE
#else
#define LA_UNROLL
#define LA_UNROLL_SITE
#define LA_UNROLL_LANES
#endif

/* Host C code with GCC >= 12 or clang: the reductions' per-site sums are written with vectors
 * of 4 doubles (compiler vector extensions), doing exactly the operations of the plain form,
 * lane by lane (results are bitwise equal; -ffp-contract=off keeps them so). Define
 * LA_NO_SIMD for the plain form everywhere. */
#if !defined(LA_NO_SIMD) && !defined(__CUDACC__) && !defined(__cplusplus) &&                    \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12))
#define LA_SIMD 1
typedef double la_v4d __attribute__((vector_size(32)));
#else
#define LA_SIMD 0
#endif

/* LA_PAIR_LOAD(x, p) / LA_PAIR_STORE(p, x): the two reals of a complex unit at p to x[0],
 * x[1] and back. CUDA device code moves them as one access (double2: 128 bits, float2: 64
 * bits; hr_unit_load_wide of hr_complex.h), which the device layout's alignment allows (every
 * piece, site and unit offset of gpu.h is a whole number of units); elsewhere two reals. */
#if defined(__CUDA_ARCH__)
#define LA_PAIR_(R, C)                                                                         \
  __device__ inline void la_pair_load(R *x, const R *p) {                                      \
    C z;                                                                                       \
    hr_unit_load_wide(&z, reinterpret_cast<const C *>(p));                                     \
    x[0] = z.re;                                                                               \
    x[1] = z.im;                                                                               \
  }                                                                                            \
  __device__ inline void la_pair_store(R *p, const R *x) {                                     \
    const C z = {x[0], x[1]};                                                                  \
    hr_unit_store_wide(reinterpret_cast<C *>(p), &z);                                          \
  }
LA_PAIR_(double, hr_complex)
LA_PAIR_(float, hr_complex_flt)
#undef LA_PAIR_
#define LA_PAIR_LOAD(x, p) la_pair_load(x, p)
#define LA_PAIR_STORE(p, x) la_pair_store(p, x)
#else
#define LA_PAIR_LOAD(x, p) ((x)[0] = (p)[0], (x)[1] = (p)[1])
#define LA_PAIR_STORE(p, x) ((p)[0] = (x)[0], (p)[1] = (x)[1])
#endif

#define LA_R double
#define LA_SFX dbl
#include "la_sites_template.h"

#define LA_R float
#define LA_SFX flt
#include "la_sites_template.h"

/* Precision conversion of one site of n reals in units of w (same unit spacing us on both
 * sides): out = in rounded to single precision, or widened to double. */
#define LA_CONVERT_SITE_(name, R_OUT, R_IN)                                                    \
  HR_INLINE void name(R_OUT *out, const R_IN *in, int n, int w, int us) {                      \
    const int nu = n / w; /* before the loop: as in LA_EACH_UNIT_ */                           \
    LA_UNROLL_SITE for (int j = 0; j < nu; j++) {                                              \
      const int u = j * us;                                                                    \
      if (w == 2) {                                                                            \
        R_IN x[2];                                                                             \
        LA_PAIR_LOAD(x, in + u);                                                               \
        const R_OUT y[2] = {(R_OUT)x[0], (R_OUT)x[1]};                                         \
        LA_PAIR_STORE(out + u, y);                                                             \
      } else {                                                                                 \
        out[u] = (R_OUT)in[u];                                                                 \
      }                                                                                        \
    }                                                                                          \
  }
LA_CONVERT_SITE_(la_site_to_flt, float, double)
LA_CONVERT_SITE_(la_site_to_dbl, double, float)
#undef LA_CONVERT_SITE_

#endif
