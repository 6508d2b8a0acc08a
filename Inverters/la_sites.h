/* la_sites.h -- the per-site functions of the linear-algebra operations for both precisions
 * (la_sites_template.h) and the precision conversions; HR_INLINE, shared by the CPU loops,
 * the CUDA kernels and the emulated backend. */
#ifndef LA_SITES_H
#define LA_SITES_H

#include "la_internal.h"
#include "suN.h"

/* Unroll the short loops over the components of a site completely. */
#if defined(__CUDACC__) /* nvcc: device code only (the host pass would pass it on) */
#if defined(__CUDA_ARCH__)
#define LA_UNROLL _Pragma("unroll")
#else
#define LA_UNROLL
#endif
#elif defined(__clang__)
#define LA_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define LA_UNROLL _Pragma("GCC unroll 64")
#else
#define LA_UNROLL
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

#define LA_SPINOR suNf_spinor
#define LA_REAL double
#define LA_CPLX hr_complex
#define LA_TAG _f
#include "la_sites_template.h"

#define LA_SPINOR suNf_spinor_flt
#define LA_REAL float
#define LA_CPLX hr_complex_flt
#define LA_TAG _f_flt
#include "la_sites_template.h"

/* out (single) = in (double) rounded. */
HR_INLINE void la_site_to_flt(const la_args *a, suNf_spinor_flt *f0, suNf_spinor *f1,
                              suNf_spinor *f2, suNf_spinor *f3) {
  (void)a, (void)f2, (void)f3;
  suNf_spinor_to_flt(f0, f1);
}
/* out (double) = in (single) widened. */
HR_INLINE void la_site_to_dbl(const la_args *a, suNf_spinor *f0, suNf_spinor_flt *f1,
                              suNf_spinor *f2, suNf_spinor *f3) {
  (void)a, (void)f2, (void)f3;
  suNf_spinor_flt_to_dbl(f0, f1);
}

#endif
