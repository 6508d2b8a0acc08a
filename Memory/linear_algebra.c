/* linear_algebra.c -- the CPU path of the field algebra and the public functions of
 * linear_algebra.h, for every kind of field_kinds.h and every operation it offers (both
 * generated from the two lists). The CPU loops are OpenMP loops over the master sites calling
 * the per-site functions of la_sites.h on the host copies; reductions write the per-site
 * contributions and sum them with the exact policy of reduction.h. The public functions check
 * the fields, bring their copies to the chosen backend and run the CPU loop or the GPU
 * launcher (linear_algebra_gpu.c). */
#include <stddef.h>

#include "communications.h"
#include "hr_error.h"
#include "la_sites.h"
#include "linear_algebra.h"
#include "reduction.h"

/* ------------------------------------------------------------------ CPU loops */

/* Host address of the site at real offset o of base pointer b, for the slots the operation
 * uses. */
#define LA_AT_(mask, i, b, o) (LA_USES(mask, i) ? (b) + (o) : NULL)

/* Streaming operation op on kind (nr reals per site, w per unit, real type R): the site
 * function on every master site. */
#define LA_CPU_S1_(op, mask, kind, R, nr, w, sfx)                                              \
  static void la_cpu_##op##_##kind(la_args a, const geometry_descriptor *g, R *b0, R *b1,      \
                                   R *b2, R *b3) {                                             \
    const int shift = g->master_shift;                                                         \
    _OMP_MASTER_FOR(g, ix) {                                                                   \
      const size_t o = (size_t)(ix - shift) * (size_t)(nr);                                    \
      HR_CAT(la_site_##op##_, sfx)(&a, nr, w, w, LA_AT_(mask, 0, b0, o),                       \
                                   LA_AT_(mask, 1, b1, o), LA_AT_(mask, 2, b2, o),             \
                                   LA_AT_(mask, 3, b3, o));                                    \
    }                                                                                          \
  }

/* Reduction: the per-site contributions (nres doubles per master site, in the order of the
 * pieces) into the host scratch, then their exact global sum (reduction.h). */
#define LA_CPU_R1_(op, mask, nres, kind, R, nr, w, sfx)                                        \
  static void la_cpu_##op##_##kind(la_args a, const geometry_descriptor *g, R *b0, R *b1,      \
                                   R *b2, R *b3, double *res) {                                \
    const long nsites = la_count_sites(g);                                                     \
    double *v = la_host_partials((nres) * nsites);                                             \
    const int shift = g->master_shift;                                                         \
    long base = 0;                                                                             \
    for (int p = 0; p < g->local_master_pieces; p++) {                                         \
      const int start = g->master_start[p];                                                    \
      const int len = g->master_end[p] - start + 1;                                            \
      double *vp = v + (nres) * base;                                                          \
      HR_OMP_PRAGMA(omp parallel for schedule(static))                                         \
      for (int t = 0; t < len; t++) {                                                          \
        const size_t o = (size_t)(start + t - shift) * (size_t)(nr);                           \
        double out[2] = {0, 0};                                                                \
        HR_CAT(la_site_##op##_, sfx)(out, &a, nr, w, w, LA_AT_(mask, 0, b0, o),                \
                                     LA_AT_(mask, 1, b1, o), LA_AT_(mask, 2, b2, o),           \
                                     LA_AT_(mask, 3, b3, o));                                  \
        for (int k = 0; k < (nres); k++) vp[(nres) * t + k] = out[k];                          \
      }                                                                                        \
      base += len;                                                                             \
    }                                                                                          \
    global_sum_exact_n(res, v, nsites, nres);                                                  \
  }

#define LA_CPU_S_(op, shape, needs, mask, kind, alg, R, nr, w, sfx)                            \
  HR_LA_PICK(needs, alg, LA_CPU_S1_, HR_LA_NONE)(op, mask, kind, R, nr, w, sfx)
#define LA_CPU_R_(op, shape, needs, mask, nres, kind, alg, R, nr, w, sfx)                      \
  HR_LA_PICK(needs, alg, LA_CPU_R1_, HR_LA_NONE)(op, mask, nres, kind, R, nr, w, sfx)
#define LA_CPU_KIND_(kind, site, nlinks, layout, unit, alg)                                    \
  HR_LA_STREAMING_OPS(LA_CPU_S_, kind, alg, LA_REAL(unit), LA_NREAL(site, nlinks, unit),       \
                      LA_W(unit), LA_TAG(unit))                                                \
  HR_LA_REDUCTION_OPS(LA_CPU_R_, kind, alg, LA_REAL(unit), LA_NREAL(site, nlinks, unit),       \
                      LA_W(unit), LA_TAG(unit))
HR_FIELD_KINDS(LA_CPU_KIND_)

/* ------------------------------------------------------------------ helpers */

/* Coefficients. */
static la_args la_coef(double r0, double r1, double r2, hr_complex z0, hr_complex z1) {
  la_args a;
  a.r[0] = r0;
  a.r[1] = r1;
  a.r[2] = r2;
  a.z[0] = z0;
  a.z[1] = z1;
  return a;
}
#define LA_REAL_(r0, r1, r2) la_coef(r0, r1, r2, hr_cmplx(0, 0), hr_cmplx(0, 0))
#define LA_CPLX_(z0, z1) la_coef(0, 0, 0, z0, z1)

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

/* la_prepare_<kind>: check the fields of operation `op` (slot mask `mask`), sync the read
 * ones to the side `gpu`, mark the written ones; returns their geometry. */
#define LA_PREPARE_(kind, site, nlinks, layout, unit, alg)                                     \
  static const geometry_descriptor *la_prepare_##kind(const char *op, int mask, int gpu,       \
                                                      const kind *f0, const kind *f1,          \
                                                      const kind *f2, const kind *f3) {        \
    const kind *f[4] = {f0, f1, f2, f3};                                                       \
    const geometry_descriptor *gs[4];                                                          \
    for (int i = 0; i < 4; i++) gs[i] = f[i] ? f[i]->type : NULL;                              \
    const geometry_descriptor *g = la_common_geometry(op, mask, gs);                           \
    for (int i = 0; i < 4; i++) {                                                              \
      if (!LA_READS(mask, i)) continue;                                                        \
      if (gpu)                                                                                 \
        sync_gpu_##kind(f[i]);                                                                 \
      else                                                                                     \
        sync_host_##kind(f[i]);                                                                \
    }                                                                                          \
    for (int i = 0; i < 4; i++) {                                                              \
      if (!LA_WRITES(mask, i)) continue;                                                       \
      hr_field_check_idle(f[i]->exchange, op);                                                 \
      ((kind *)f[i])->current = gpu ? HR_COPY_GPU : HR_COPY_HOST; /* a written slot */         \
      ((kind *)f[i])->version = hr_field_new_version();                                        \
    }                                                                                          \
    return g;                                                                                  \
  }
HR_FIELD_KINDS(LA_PREPARE_)

/* Host / device copy of a slot as reals (NULL stays NULL). */
#define LA_HOST_(R, f) ((f) ? (R *)(f)->ptr : (R *)NULL)
#define LA_DEV_(R, f) ((f) ? (R *)(f)->gpu_ptr : (R *)NULL)

/* Run operation op on kind with the fields f0..f3 (NULL for unused slots); reductions (extra
 * argument res) store their exact sum over the processes in res[]. */
#define LA_RUN_(op, kind, R, a, f0, f1, f2, f3, ...)                                           \
  do {                                                                                         \
    const int gpu_ = hr_backend_current() == HR_BACKEND_GPU;                                   \
    const kind *fs_[4] = {f0, f1, f2, f3};                                                     \
    const geometry_descriptor *g_ = la_prepare_##kind(#op "_" #kind, HR_LA_MASK_(op), gpu_,    \
                                                      fs_[0], fs_[1], fs_[2], fs_[3]);         \
    if (gpu_)                                                                                  \
      LA_GPU_CALL_(la_gpu_##op##_##kind, a, g_, LA_DEV_(R, fs_[0]), LA_DEV_(R, fs_[1]),        \
                   LA_DEV_(R, fs_[2]), LA_DEV_(R, fs_[3]) __VA_ARGS__);                        \
    else                                                                                       \
      la_cpu_##op##_##kind(a, g_, LA_HOST_(R, fs_[0]), LA_HOST_(R, fs_[1]),                    \
                           LA_HOST_(R, fs_[2]), LA_HOST_(R, fs_[3]) __VA_ARGS__);              \
  } while (0)

/* The slot mask of every operation: HR_LA_MASK_(op). */
#define LA_MASK_S_(op, shape, needs, mask, unused) LA_MASK_##op = (mask),
#define LA_MASK_R_(op, shape, needs, mask, nres, unused) LA_MASK_##op = (mask),
enum { HR_LA_STREAMING_OPS(LA_MASK_S_, 0) HR_LA_REDUCTION_OPS(LA_MASK_R_, 0) LA_MASK_COUNT_ };
#undef LA_MASK_S_
#undef LA_MASK_R_
#define HR_LA_MASK_(op) LA_MASK_##op

/* ------------------------------------------------------------------ public functions */

/* The definition of each shape (linear_algebra.h) for kind F with real type R. */
#define LA_DEF_r(op, F, R)                                                                     \
  void op##_##F(F *r) { LA_RUN_(op, F, R, LA_REAL_(0, 0, 0), r, NULL, NULL, NULL, ); }
#define LA_DEF_rs(op, F, R)                                                                    \
  void op##_##F(F *r, const F *s) { LA_RUN_(op, F, R, LA_REAL_(0, 0, 0), r, s, NULL, NULL, ); }
#define LA_DEF_rss(op, F, R)                                                                   \
  void op##_##F(F *r, const F *s1, const F *s2) {                                              \
    LA_RUN_(op, F, R, LA_REAL_(0, 0, 0), r, s1, s2, NULL, );                                     \
  }
#define LA_DEF_rcs(op, F, R)                                                                   \
  void op##_##F(F *r, double c, const F *s) {                                                  \
    LA_RUN_(op, F, R, LA_REAL_(c, 0, 0), r, s, NULL, NULL, );                                    \
  }
#define LA_DEF_rzs(op, F, R)                                                                   \
  void op##_##F(F *r, hr_complex z, const F *s) {                                              \
    LA_RUN_(op, F, R, LA_CPLX_(z, hr_cmplx(0, 0)), r, s, NULL, NULL, );                          \
  }
#define LA_DEF_rcscs(op, F, R)                                                                 \
  void op##_##F(F *r, double c1, const F *s1, double c2, const F *s2) {                        \
    LA_RUN_(op, F, R, LA_REAL_(c1, c2, 0), r, s1, s2, NULL, );                                   \
  }
#define LA_DEF_rcscscs(op, F, R)                                                               \
  void op##_##F(F *r, double c1, const F *s1, double c2, const F *s2, double c3,               \
                const F *s3) {                                                                 \
    LA_RUN_(op, F, R, LA_REAL_(c1, c2, c3), r, s1, s2, s3, );                                    \
  }
#define LA_DEF_rzszs(op, F, R)                                                                 \
  void op##_##F(F *r, hr_complex z1, const F *s1, hr_complex z2, const F *s2) {                \
    LA_RUN_(op, F, R, LA_CPLX_(z1, z2), r, s1, s2, NULL, );                                      \
  }
#define LA_DEF_q1(op, F, R)                                                                    \
  double op##_##F(const F *s) {                                                                \
    double res[2] = {0, 0};                                                                    \
    LA_RUN_(op, F, R, LA_REAL_(0, 0, 0), s, NULL, NULL, NULL, , res);                          \
    return res[0];                                                                             \
  }
#define LA_DEF_q2(op, F, R)                                                                    \
  double op##_##F(const F *r, const F *s) {                                                    \
    double res[2] = {0, 0};                                                                    \
    LA_RUN_(op, F, R, LA_REAL_(0, 0, 0), r, s, NULL, NULL, , res);                             \
    return res[0];                                                                             \
  }
#define LA_DEF_q2c(op, F, R)                                                                   \
  hr_complex op##_##F(const F *r, const F *s) {                                                \
    double res[2] = {0, 0};                                                                    \
    LA_RUN_(op, F, R, LA_REAL_(0, 0, 0), r, s, NULL, NULL, , res);                             \
    return hr_cmplx(res[0], res[1]);                                                           \
  }
#define LA_DEF_cgu(op, F, R)                                                                   \
  double op##_##F(F *x, F *r, double a, const F *p, const F *q) {                              \
    hr_assert(x != r && x != p && x != q && r != p && r != q && p != q,                        \
              #op "_" #F ": x, r, p, q must be four different fields");                        \
    double res[2] = {0, 0};                                                                    \
    LA_RUN_(op, F, R, LA_REAL_(a, 0, 0), x, r, p, q, , res);                                   \
    return res[0];                                                                             \
  }

#define LA_DEF_S_(op, shape, needs, mask, kind, alg, R)                                        \
  HR_LA_PICK(needs, alg, LA_DEF_##shape, HR_LA_NONE)(op, kind, R)
#define LA_DEF_R_(op, shape, needs, mask, nres, kind, alg, R)                                  \
  HR_LA_PICK(needs, alg, LA_DEF_##shape, HR_LA_NONE)(op, kind, R)
#define LA_DEF_KIND_(kind, site, nlinks, layout, unit, alg)                                    \
  HR_LA_STREAMING_OPS(LA_DEF_S_, kind, alg, LA_REAL(unit))                                     \
  HR_LA_REDUCTION_OPS(LA_DEF_R_, kind, alg, LA_REAL(unit))
HR_FIELD_KINDS(LA_DEF_KIND_)

/* ------------------------------------------------------------------ precision conversion */

/* to_flt_<kind> and to_dbl_<kind_flt>: bring `in` to the backend's side, convert site by site
 * (la_sites.h) and mark `out` written there (only). */
#define LA_CONVERT_(name, site_fn, K_OUT, K_IN, R_OUT, R_IN)                                      \
  void name(K_OUT *out, const K_IN *in) {                                                      \
    const geometry_descriptor *gs[4] = {out->type, in->type, NULL, NULL};                      \
    const geometry_descriptor *g =                                                             \
        la_common_geometry(#name, HR_LA_W0 | HR_LA_R1, gs);                                    \
    hr_field_check_idle(out->exchange, #name);                                                 \
    const int nr = (int)(hr_kind_##K_IN.nlinks * hr_kind_##K_IN.units *                        \
                         hr_kind_##K_IN.unit_reals);                                           \
    const int w = hr_kind_##K_IN.unit_reals;                                                   \
    if (hr_backend_current() == HR_BACKEND_GPU) {                                              \
      if (w != 2) /* la_gpu_<name> moves complex units (linear_algebra_gpu.c) */               \
        hr_error(#name ": the GPU conversion needs complex units, the kind has %d real(s) "   \
                 "per unit: extend la_kernel_" #name, w);                                      \
      sync_gpu_##K_IN(in);                                                                     \
      out->current = HR_COPY_GPU;                                                              \
      out->version = hr_field_new_version();                                                   \
      LA_GPU_CALL_(la_gpu_##name, g, (R_OUT *)out->gpu_ptr, (const R_IN *)in->gpu_ptr);        \
    } else {                                                                                   \
      const R_IN *b1 = (const R_IN *)sync_host_##K_IN(in);                                     \
      out->current = HR_COPY_HOST;                                                             \
      out->version = hr_field_new_version();                                                   \
      R_OUT *b0 = (R_OUT *)out->ptr;                                                           \
      const int shift = g->master_shift;                                                       \
      _OMP_MASTER_FOR(g, ix) {                                                                 \
        const size_t o = (size_t)(ix - shift) * (size_t)nr;                                    \
        site_fn(b0 + o, b1 + o, nr, w, w);                                                     \
      }                                                                                        \
    }                                                                                          \
  }
#define LA_CONVERT_PAIR_(kind, kind_flt)                                                       \
  LA_CONVERT_(to_flt_##kind, la_site_to_flt, kind_flt, kind, float, double)                    \
  LA_CONVERT_(to_dbl_##kind_flt, la_site_to_dbl, kind, kind_flt, double, float)
HR_FIELD_KIND_PAIRS(LA_CONVERT_PAIR_)
