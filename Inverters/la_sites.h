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

#define LA_R double
#define LA_SFX dbl
#include "la_sites_template.h"

#define LA_R float
#define LA_SFX flt
#include "la_sites_template.h"

/* Precision conversion of one site of n reals (same unit spacing us on both sides): out =
 * in rounded to single precision, or widened to double. */
HR_INLINE void la_site_to_flt(float *out, const double *in, int n, int w, int us) {
  LA_UNROLL_SITE for (int k = 0; k < n; k++) {
    const int i = (k / w) * us + k % w;
    out[i] = (float)in[i];
  }
}
HR_INLINE void la_site_to_dbl(double *out, const float *in, int n, int w, int us) {
  LA_UNROLL_SITE for (int k = 0; k < n; k++) {
    const int i = (k / w) * us + k % w;
    out[i] = (double)in[i];
  }
}

#endif
