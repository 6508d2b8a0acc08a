/* la_internal.h -- shared by the linear-algebra files of Inverters/ (the host file
 * linear_algebra.c and the kernel file linear_algebra_gpu.c, which nvcc compiles in CUDA
 * builds; so only the C/C++ common subset here): the list of operations with the fields they
 * read and write, the coefficient record, the GPU launchers and the reduction scratch. */
#ifndef LA_INTERNAL_H
#define LA_INTERNAL_H

#include "geometry.h"
#include "gpu.h"
#include "hr_complex.h"
#include "suN_types.h"

/* Coefficients of one call (double precision; rounded per precision at the site). */
typedef struct {
  double r[2];
  hr_complex z[2];
} la_args;

/* Slot masks: an operation has up to 4 field slots; bit i: slot i is read, bit 4+i: written. */
enum {
  LA_R0 = 1, LA_R1 = 2, LA_R2 = 4, LA_R3 = 8,
  LA_W0 = 16, LA_W1 = 32, LA_W2 = 64, LA_W3 = 128
};
#define LA_READS(mask, i) (((mask) >> (i)) & 1)
#define LA_WRITES(mask, i) (((mask) >> (4 + (i))) & 1)
#define LA_USES(mask, i) (LA_READS(mask, i) | LA_WRITES(mask, i))

/* Streaming operations: X(name, slot mask). The slots are the field arguments of the public
 * function in order (linear_algebra.h). */
#define LA_STREAMING_OPS(X)                                                                    \
  X(mul, LA_W0 | LA_R1)                                                                        \
  X(mulc, LA_W0 | LA_R1)                                                                       \
  X(mul_add_assign, LA_R0 | LA_W0 | LA_R1)                                                     \
  X(mulc_add_assign, LA_R0 | LA_W0 | LA_R1)                                                    \
  X(add, LA_W0 | LA_R1 | LA_R2)                                                                \
  X(sub, LA_W0 | LA_R1 | LA_R2)                                                                \
  X(add_assign, LA_R0 | LA_W0 | LA_R1)                                                         \
  X(sub_assign, LA_R0 | LA_W0 | LA_R1)                                                         \
  X(lc, LA_W0 | LA_R1 | LA_R2)                                                                 \
  X(lc_add_assign, LA_R0 | LA_W0 | LA_R1 | LA_R2)                                              \
  X(minus, LA_W0 | LA_R1)                                                                      \
  X(g5, LA_W0 | LA_R1)                                                                         \
  X(g5_assign, LA_R0 | LA_W0)                                                                  \
  X(cg_direction, LA_R0 | LA_W0 | LA_R1)

/* Reductions: X(name, slot mask, number of doubles in the result: 1 real, 2 complex). */
#define LA_REDUCTION_OPS(X)                                                                    \
  X(sqnorm, LA_R0, 1)                                                                          \
  X(prod, LA_R0 | LA_R1, 2)                                                                    \
  X(prod_re, LA_R0 | LA_R1, 1)                                                                 \
  X(prod_im, LA_R0 | LA_R1, 1)                                                                 \
  X(g5_prod, LA_R0 | LA_R1, 2)                                                                 \
  X(cg_update, LA_R0 | LA_W0 | LA_R1 | LA_W1 | LA_R2 | LA_R3, 1)

/* LA_MASK_<name> (slot mask) and LA_NRES_<name> (result size) of every operation. */
#define LA_MASK_S_(name, mask) LA_MASK_##name = (mask),
#define LA_MASK_R_(name, mask, nres) LA_MASK_##name = (mask), LA_NRES_##name = (nres),
enum { LA_STREAMING_OPS(LA_MASK_S_) LA_REDUCTION_OPS(LA_MASK_R_) LA_MASK_to_flt = LA_W0 | LA_R1,
       LA_MASK_to_dbl = LA_W0 | LA_R1 };
#undef LA_MASK_S_
#undef LA_MASK_R_

#ifdef __cplusplus
extern "C" {
#endif

/* GPU launchers (linear_algebra_gpu.c): run operation `name` on the device copies d0..d3
 * (NULL for unused slots) of fields on g, one kernel per piece. Reductions store the exact
 * sum over all processes in res[0] (and res[1] for complex results). */
#define LA_GPU_STREAM_DECL_(name, mask)                                                        \
  void la_gpu_##name##_f(la_args a, const geometry_descriptor *g, suNf_spinor *d0,             \
                         suNf_spinor *d1, suNf_spinor *d2, suNf_spinor *d3);                   \
  void la_gpu_##name##_f_flt(la_args a, const geometry_descriptor *g, suNf_spinor_flt *d0,     \
                             suNf_spinor_flt *d1, suNf_spinor_flt *d2, suNf_spinor_flt *d3);
#define LA_GPU_REDUCE_DECL_(name, mask, nres)                                                  \
  void la_gpu_##name##_f(la_args a, const geometry_descriptor *g, suNf_spinor *d0,             \
                         suNf_spinor *d1, suNf_spinor *d2, suNf_spinor *d3, double *res);      \
  void la_gpu_##name##_f_flt(la_args a, const geometry_descriptor *g, suNf_spinor_flt *d0,     \
                             suNf_spinor_flt *d1, suNf_spinor_flt *d2, suNf_spinor_flt *d3,    \
                             double *res);
LA_STREAMING_OPS(LA_GPU_STREAM_DECL_)
LA_REDUCTION_OPS(LA_GPU_REDUCE_DECL_)
#undef LA_GPU_STREAM_DECL_
#undef LA_GPU_REDUCE_DECL_
/* Precision conversions: d0 = d1 rounded / widened. */
void la_gpu_to_flt(la_args a, const geometry_descriptor *g, suNf_spinor_flt *d0,
                   suNf_spinor *d1, suNf_spinor *d2, suNf_spinor *d3);
void la_gpu_to_dbl(la_args a, const geometry_descriptor *g, suNf_spinor *d0,
                   suNf_spinor_flt *d1, suNf_spinor *d2, suNf_spinor *d3);

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
