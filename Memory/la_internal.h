/* la_internal.h -- shared by the field-algebra files of Inverters/ (the host file
 * linear_algebra.c and the kernel file linear_algebra_gpu.c, which nvcc compiles in CUDA
 * builds; so only the C/C++ common subset here): the coefficient record, what the operation
 * lists of linear_algebra.h mean per kind (real type, reals per site), the GPU launchers and
 * the reduction scratch. */
#ifndef LA_INTERNAL_H
#define LA_INTERNAL_H

#include "geometry.h"
#include "gpu.h"
#include "hr_complex.h"
#include "linear_algebra.h"
#include "suN_types.h"

/* Coefficients of one call (double precision; rounded per precision at the site). */
typedef struct {
  double r[3];
  hr_complex z[2];
} la_args;

#define LA_READS(mask, i) (((mask) >> (i)) & 1)
#define LA_WRITES(mask, i) (((mask) >> (4 + (i))) & 1)
#define LA_USES(mask, i) (LA_READS(mask, i) | LA_WRITES(mask, i))

/* Per device unit of a kind (field_kinds.h): the real type of its components, the reals per
 * unit (2 complex, 1 real) and the suffix of the per-site functions (la_sites.h). */
#define LA_REAL_hr_complex double
#define LA_REAL_hr_complex_flt float
#define LA_REAL_double double
#define LA_REAL_float float
#define LA_W_hr_complex 2
#define LA_W_hr_complex_flt 2
#define LA_W_double 1
#define LA_W_float 1
#define LA_TAG_hr_complex dbl
#define LA_TAG_hr_complex_flt flt
#define LA_TAG_double dbl
#define LA_TAG_float flt
#define LA_REAL(unit) LA_REAL_##unit
#define LA_W(unit) LA_W_##unit
#define LA_TAG(unit) LA_TAG_##unit
/* Real components of one site of a kind (all its elements). */
#define LA_NREAL(site, nlinks, unit) ((int)((nlinks) * (sizeof(site) / sizeof(LA_REAL(unit)))))

#ifdef __cplusplus
extern "C" {
#endif

/* GPU launchers (linear_algebra_gpu.c): la_gpu_<op>_<kind> runs operation op on the device
 * copies d0..d3 (viewed as arrays of reals; NULL for unused slots) of fields on g, one kernel
 * per piece. Reductions store the exact sum over all processes in res[0] (and res[1] for
 * complex results). la_gpu_to_flt_<kind> / la_gpu_to_dbl_<kind_flt>: d0 = d1 converted. */
#define LA_GPU_S_DECL1_(op, kind, R)                                                           \
  void la_gpu_##op##_##kind(la_args a, const geometry_descriptor *g, R *d0, R *d1, R *d2, R *d3);
#define LA_GPU_R_DECL1_(op, kind, R)                                                           \
  void la_gpu_##op##_##kind(la_args a, const geometry_descriptor *g, R *d0, R *d1, R *d2, R *d3, \
                            double *res);
#define LA_GPU_S_DECL_(op, shape, needs, slots, kind, alg, R)                                  \
  HR_LA_PICK(needs, alg, LA_GPU_S_DECL1_, HR_LA_NONE)(op, kind, R)
#define LA_GPU_R_DECL_(op, shape, needs, slots, nres, kind, alg, R)                            \
  HR_LA_PICK(needs, alg, LA_GPU_R_DECL1_, HR_LA_NONE)(op, kind, R)
#define LA_GPU_KIND_DECL_(kind, site, nlinks, layout, unit, alg)                               \
  HR_LA_STREAMING_OPS(LA_GPU_S_DECL_, kind, alg, LA_REAL(unit))                                \
  HR_LA_REDUCTION_OPS(LA_GPU_R_DECL_, kind, alg, LA_REAL(unit))
HR_FIELD_KINDS(LA_GPU_KIND_DECL_)
#undef LA_GPU_KIND_DECL_
#undef LA_GPU_S_DECL_
#undef LA_GPU_R_DECL_
#undef LA_GPU_S_DECL1_
#undef LA_GPU_R_DECL1_
#define LA_GPU_PAIR_DECL_(kind, kind_flt)                                                      \
  void la_gpu_to_flt_##kind(const geometry_descriptor *g, float *d0, const double *d1);        \
  void la_gpu_to_dbl_##kind_flt(const geometry_descriptor *g, double *d0, const float *d1);
HR_FIELD_KIND_PAIRS(LA_GPU_PAIR_DECL_)
#undef LA_GPU_PAIR_DECL_

/* Reduction scratch (la_reduce.c); the sums themselves are those of reduction.h. */
/* Number of master sites of g on this process. */
long la_count_sites(const geometry_descriptor *g);
/* Host / device arrays of at least n doubles (grow-only, reused by every reduction). */
double *la_host_partials(long n);
double *la_device_partials(long n);

#ifdef __cplusplus
}
#endif

#endif
