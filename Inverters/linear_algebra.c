/* linear_algebra.c -- the CPU path of the linear algebra (OpenMP loops over the master sites
 * calling the per-site functions of la_sites.h on the host copies; reductions write the
 * per-site contributions and sum them with the exact policy of reduction.h) and the public functions of linear_algebra.h, which check the
 * fields, bring their copies to the chosen backend and run the CPU loop or the GPU launcher
 * (linear_algebra_gpu.c). The public functions of both precisions come from
 * la_public_template.h. */
#include <stddef.h>

#include "communications.h"
#include "hr_error.h"
#include "la_sites.h"
#include "linear_algebra.h"
#include "reduction.h"

/* ------------------------------------------------------------------ CPU loops */

/* Host address of site offset o of base pointer b, for the slots the operation uses. */
#define LA_AT_(mask, i, b, o) (LA_USES(mask, i) ? (b) + (o) : NULL)

/* Streaming operation: the site function on every master site. */
#define LA_CPU_STREAM_(fn, site_fn, mask, T0, T1, T2, T3)                                      \
  static void fn(la_args a, const geometry_descriptor *g, T0 *b0, T1 *b1, T2 *b2, T3 *b3) {    \
    const int shift = g->master_shift;                                                         \
    _OMP_MASTER_FOR(g, ix) {                                                                   \
      const size_t o = (size_t)(ix - shift);                                                   \
      site_fn(&a, LA_AT_(mask, 0, b0, o), LA_AT_(mask, 1, b1, o), LA_AT_(mask, 2, b2, o),      \
              LA_AT_(mask, 3, b3, o));                                                         \
    }                                                                                          \
  }

/* Reduction: the per-site contributions (nres doubles per master site, in the order of
 * the pieces) into the host scratch, then their exact global sum (reduction.h). */
#define LA_CPU_REDUCE_(fn, site_fn, mask, nres, T0, T1, T2, T3)                                \
  static void fn(la_args a, const geometry_descriptor *g, T0 *b0, T1 *b1, T2 *b2, T3 *b3,      \
                 double *res) {                                                                \
    const long nsites = la_count_sites(g);                                                     \
    double *v = la_host_partials(nres * nsites);                                               \
    const int shift = g->master_shift;                                                         \
    long base = 0;                                                                             \
    for (int p = 0; p < g->local_master_pieces; p++) {                                         \
      const int start = g->master_start[p];                                                    \
      const int len = g->master_end[p] - start + 1;                                            \
      double *vp = v + (nres) * base;                                                          \
      HR_OMP_PRAGMA(omp parallel for schedule(static))                                         \
      for (int t = 0; t < len; t++) {                                                          \
        const size_t o = (size_t)(start + t - shift);                                          \
        double out[2] = {0, 0};                                                                \
        site_fn(&a, LA_AT_(mask, 0, b0, o), LA_AT_(mask, 1, b1, o), LA_AT_(mask, 2, b2, o),    \
                LA_AT_(mask, 3, b3, o), out);                                                  \
        for (int k = 0; k < (nres); k++) vp[(nres) * t + k] = out[k];                          \
      }                                                                                        \
      base += len;                                                                             \
    }                                                                                          \
    global_sum_exact_n(v, nsites, nres, res);                                                  \
  }

#define LA_CPU_S_F_(name, mask)                                                                \
  LA_CPU_STREAM_(la_cpu_##name##_f, la_site_##name##_f, mask, suNf_spinor, suNf_spinor,        \
                 suNf_spinor, suNf_spinor)
#define LA_CPU_S_FLT_(name, mask)                                                              \
  LA_CPU_STREAM_(la_cpu_##name##_f_flt, la_site_##name##_f_flt, mask, suNf_spinor_flt,         \
                 suNf_spinor_flt, suNf_spinor_flt, suNf_spinor_flt)
#define LA_CPU_R_F_(name, mask, nres)                                                          \
  LA_CPU_REDUCE_(la_cpu_##name##_f, la_site_##name##_f, mask, nres, suNf_spinor, suNf_spinor,  \
                 suNf_spinor, suNf_spinor)
#define LA_CPU_R_FLT_(name, mask, nres)                                                        \
  LA_CPU_REDUCE_(la_cpu_##name##_f_flt, la_site_##name##_f_flt, mask, nres, suNf_spinor_flt,   \
                 suNf_spinor_flt, suNf_spinor_flt, suNf_spinor_flt)

LA_STREAMING_OPS(LA_CPU_S_F_)
LA_STREAMING_OPS(LA_CPU_S_FLT_)
LA_REDUCTION_OPS(LA_CPU_R_F_)
LA_REDUCTION_OPS(LA_CPU_R_FLT_)
LA_CPU_STREAM_(la_cpu_to_flt, la_site_to_flt, LA_MASK_to_flt, suNf_spinor_flt, suNf_spinor,
               suNf_spinor, suNf_spinor)
LA_CPU_STREAM_(la_cpu_to_dbl, la_site_to_dbl, LA_MASK_to_dbl, suNf_spinor, suNf_spinor_flt,
               suNf_spinor, suNf_spinor)

/* ------------------------------------------------------------------ public functions */

/* Coefficients. */
static la_args la_real(double r0, double r1) {
  la_args a;
  a.r[0] = r0;
  a.r[1] = r1;
  a.z[0] = a.z[1] = hr_cmplx(0, 0);
  return a;
}
static la_args la_cmplx(hr_complex z) {
  la_args a = la_real(0, 0);
  a.z[0] = z;
  return a;
}

/* Call the GPU launcher in GPU builds. */
#if HR_GPU_ENABLED
#define LA_GPU_CALL_(fn, ...) fn(__VA_ARGS__)
#else
#define LA_GPU_CALL_(fn, ...) hr_error("no GPU backend in this build")
#endif

/* The geometry shared by the fields an operation uses; stops when they differ. */
static const geometry_descriptor *la_common_geometry(const char *op, int mask,
                                                     const geometry_descriptor *const g[4]) {
  const geometry_descriptor *common = NULL;
  for (int i = 0; i < 4; i++) {
    if (!LA_USES(mask, i)) continue;
    hr_assert(g[i] != NULL, "%s: field argument %d is NULL", op, i + 1);
    if (common == NULL)
      common = g[i];
    else if (g[i] != common)
      hr_error("%s: the fields live on different geometries (e.g. glattice and glat_even); "
               "use fields allocated on the same geometry",
               op);
  }
  return common;
}

#define LA_FIELD spinor_field
#define LA_TAG _f
#include "la_public_template.h"

#define LA_FIELD spinor_field_flt
#define LA_TAG _f_flt
#include "la_public_template.h"

/* ------------------------------------------------------------------ precision conversion */

/* Bring `in` to the backend's side, convert, and mark `out` written there (only). */
#define LA_CONVERT_(name, out, in)                                                             \
  do {                                                                                         \
    const geometry_descriptor *gs[4] = {(out)->type, (in)->type, NULL, NULL};                  \
    const geometry_descriptor *g = la_common_geometry(#name, LA_MASK_to_flt, gs);              \
    const la_args a = la_real(0, 0);                                                           \
    if (hr_backend_current() == HR_BACKEND_GPU) {                                          \
      sync_gpu_##name##_in(in);                                                                \
      (out)->current = HR_COPY_GPU;                                                            \
      (out)->version = hr_field_new_version();                                                 \
      LA_GPU_CALL_(la_gpu_##name, a, g, (out)->gpu_ptr, (in)->gpu_ptr, NULL, NULL);            \
    } else {                                                                                   \
      sync_host_##name##_in(in);                                                               \
      (out)->current = HR_COPY_HOST;                                                           \
      (out)->version = hr_field_new_version();                                                 \
      la_cpu_##name(a, g, (out)->ptr, (in)->ptr, NULL, NULL);                                  \
    }                                                                                          \
  } while (0)
#define sync_gpu_to_flt_in sync_gpu_spinor_field
#define sync_host_to_flt_in sync_host_spinor_field
#define sync_gpu_to_dbl_in sync_gpu_spinor_field_flt
#define sync_host_to_dbl_in sync_host_spinor_field_flt

void to_flt_spinor_field(spinor_field_flt *out, const spinor_field *in) {
  LA_CONVERT_(to_flt, out, in);
}
void to_dbl_spinor_field_flt(spinor_field *out, const spinor_field_flt *in) {
  LA_CONVERT_(to_dbl, out, in);
}
