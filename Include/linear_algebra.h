/* linear_algebra.h -- linear algebra on spinor fields, double (suffix _f) and single
 * precision (suffix _f_flt), on every backend and any geometry (glattice, glat_even,
 * glat_odd): the operations act on the master sites of the fields' geometry, which must be
 * the same for all fields of a call. Names follow HiRep: the field written comes first,
 * e.g. spinor_field_mul_add_assign_f(r, c, s) is r += c s. Coefficients are given in double
 * precision for both precisions (rounded to float for _flt fields). Unless stated, an
 * output may be the same field as an input.
 *
 * Reductions (sqnorm, prod, ...) return the sum over all processes. Each per-site
 * contribution is computed in double precision; contributions are summed in chunks of
 * HR_REDUCE_CHUNK (gpu.h) consecutive sites of a piece with a fixed halving tree, the chunk
 * sums of the process are combined with a fixed pairwise tree, then summed over MPI. The
 * result is the same bit for bit for any number of OpenMP threads, for any GPU block size,
 * and (where the compiler makes the same floating-point operations) on the CPU and the GPU
 * path; on different process grids it agrees to rounding.
 *
 * Backends. In GPU builds the operations run on the device copies (bringing them there first
 * when the host copy is the current one, and marking written fields device-current); in CPU
 * builds on the host; the backend is the one of backend.h (hr_backend_set can force the host
 * path in a GPU build, to compare the two or to mix with host code). Doc/fields_and_backends.md has the details. */
#ifndef LINEAR_ALGEBRA_H
#define LINEAR_ALGEBRA_H

#include "backend.h"
#include "fields.h"
#include "hr_complex.h"

#ifdef __cplusplus
extern "C" {
#endif


/* The operations for one precision: F is the field type, S the suffix. */
#define HR_LINEAR_ALGEBRA_DECLS(F, S)                                                          \
  /* r = 0 */                                                                                  \
  void spinor_field_zero##S(F *r);                                                             \
  /* r = s */                                                                                  \
  void spinor_field_copy##S(F *r, const F *s);                                                       \
  /* r = c s (real c) */                                                                       \
  void spinor_field_mul##S(F *r, double c, const F *s);                                              \
  /* r = z s (complex z) */                                                                    \
  void spinor_field_mulc##S(F *r, hr_complex z, const F *s);                                         \
  /* r += c s (real c) */                                                                      \
  void spinor_field_mul_add_assign##S(F *r, double c, const F *s);                                   \
  /* r += z s (complex z) */                                                                   \
  void spinor_field_mulc_add_assign##S(F *r, hr_complex z, const F *s);                              \
  /* r = s1 + s2 */                                                                            \
  void spinor_field_add##S(F *r, const F *s1, const F *s2);                                                \
  /* r = s1 - s2 */                                                                            \
  void spinor_field_sub##S(F *r, const F *s1, const F *s2);                                                \
  /* r += s */                                                                                 \
  void spinor_field_add_assign##S(F *r, const F *s);                                                 \
  /* r -= s */                                                                                 \
  void spinor_field_sub_assign##S(F *r, const F *s);                                                 \
  /* r = c1 s1 + c2 s2 (real c1, c2) */                                                        \
  void spinor_field_lc##S(F *r, double c1, const F *s1, double c2, const F *s2);                           \
  /* r += c1 s1 + c2 s2 (real c1, c2) */                                                       \
  void spinor_field_lc_add_assign##S(F *r, double c1, const F *s1, double c2,        \
                                    const F *s2);                \
  /* r = -s */                                                                                 \
  void spinor_field_minus##S(F *r, const F *s);                                                      \
  /* r = gamma5 s, gamma5 = diag(1, 1, -1, -1) in spin */                                      \
  void spinor_field_g5##S(F *r, const F *s);                                                         \
  /* r = gamma5 r */                                                                           \
  void spinor_field_g5_assign##S(F *r);                                                        \
  /* |s|^2 = sum over sites, spin, colour of |s|^2 */                                          \
  double spinor_field_sqnorm##S(const F *s);                                                         \
  /* <r, s> = sum conj(r) s */                                                                 \
  hr_complex spinor_field_prod##S(const F *r, const F *s);                                                 \
  /* Re <r, s> */                                                                              \
  double spinor_field_prod_re##S(const F *r, const F *s);                                                  \
  /* Im <r, s> */                                                                              \
  double spinor_field_prod_im##S(const F *r, const F *s);                                                  \
  /* <r, gamma5 s> */                                                                          \
  hr_complex spinor_field_g5_prod##S(const F *r, const F *s);                                              \
  /* Re <r, gamma5 s> */                                                                       \
  double spinor_field_g5_prod_re##S(const F *r, const F *s);                                               \
  /* Conjugate-gradient step in one pass: x += a p, r -= a q; returns |r|^2 (new r). The four \
     fields must be distinct. */                                                               \
  double spinor_field_cg_update##S(F *x, F *r, double a, const F *p, const F *q);                          \
  /* Conjugate-gradient direction: p = r + b p */                                              \
  void spinor_field_cg_direction##S(F *p, double b, const F *r);

HR_LINEAR_ALGEBRA_DECLS(spinor_field, _f)
HR_LINEAR_ALGEBRA_DECLS(spinor_field_flt, _f_flt)
#undef HR_LINEAR_ALGEBRA_DECLS

/* out = in rounded to single precision (same geometry). */
void spinor_field_to_flt(spinor_field_flt *out, const spinor_field *in);
/* out = in widened to double precision (same geometry). */
void spinor_field_flt_to_dbl(spinor_field *out, const spinor_field_flt *in);
/* HiRep names of the conversions. */
static inline void assign_sd2s(spinor_field_flt *out, const spinor_field *in) {
  spinor_field_to_flt(out, in);
}
static inline void assign_s2sd(spinor_field *out, const spinor_field_flt *in) {
  spinor_field_flt_to_dbl(out, in);
}

#ifdef __cplusplus
}
#endif

#endif
