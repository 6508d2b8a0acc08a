/* linear_algebra.h -- linear algebra on spinor fields, double and single precision (kind
 * spinor_field_flt), on every backend and any geometry (glattice, glat_even, glat_odd): the
 * operations act on the master sites of the fields' geometry, which must be the same for all
 * fields of a call. Names follow fields.h, <op>_<kind>, with the field written first, e.g.
 * mul_add_assign_spinor_field(r, c, s) is r += c s, sqnorm_spinor_field_flt(s) is |s|^2.
 * r = 0 and r = s are zero_<kind> / copy_<kind> of fields.h. Coefficients are given in
 * double precision for both precisions (rounded to float for _flt fields). Unless stated, an
 * output may be the same field as an input.
 *
 * Reductions (sqnorm, prod, ...) return the sum over all processes. Each per-site
 * contribution is computed in double precision and summed by the one reduction policy of
 * reduction.h (an exact sum): the result is the same bit for bit for any number of OpenMP
 * threads, any GPU block size, on the CPU and the GPU path, and on any process grid where
 * the per-site values are the same.
 *
 * Backends. In GPU builds the operations run on the device copies (bringing them there first
 * when the host copy is the current one, and marking written fields device-current); in CPU
 * builds on the host; the backend is the one of backend.h (hr_backend_set can force the host
 * path in a GPU build, to compare the two or to mix with host code).
 * Doc/fields_and_backends.md has the details. */
#ifndef LINEAR_ALGEBRA_H
#define LINEAR_ALGEBRA_H

#include "backend.h"
#include "fields.h"
#include "hr_complex.h"

#ifdef __cplusplus
extern "C" {
#endif


/* The operations for one precision: F is the field type, S the suffix. */
#define HR_LINEAR_ALGEBRA_DECLS(F)                                                          \
  /* r = c s (real c) */                                                                       \
  void mul##_##F(F *r, double c, const F *s);                                              \
  /* r = z s (complex z) */                                                                    \
  void mulc##_##F(F *r, hr_complex z, const F *s);                                         \
  /* r += c s (real c) */                                                                      \
  void mul_add_assign##_##F(F *r, double c, const F *s);                                   \
  /* r += z s (complex z) */                                                                   \
  void mulc_add_assign##_##F(F *r, hr_complex z, const F *s);                              \
  /* r = s1 + s2 */                                                                            \
  void add##_##F(F *r, const F *s1, const F *s2);                                                \
  /* r = s1 - s2 */                                                                            \
  void sub##_##F(F *r, const F *s1, const F *s2);                                                \
  /* r += s */                                                                                 \
  void add_assign##_##F(F *r, const F *s);                                                 \
  /* r -= s */                                                                                 \
  void sub_assign##_##F(F *r, const F *s);                                                 \
  /* r = c1 s1 + c2 s2 (real c1, c2) */                                                        \
  void lc##_##F(F *r, double c1, const F *s1, double c2, const F *s2);                           \
  /* r += c1 s1 + c2 s2 (real c1, c2) */                                                       \
  void lc_add_assign##_##F(F *r, double c1, const F *s1, double c2,        \
                                    const F *s2);                \
  /* r = -s */                                                                                 \
  void minus##_##F(F *r, const F *s);                                                      \
  /* r = gamma5 s, gamma5 = diag(1, 1, -1, -1) in spin */                                      \
  void g5##_##F(F *r, const F *s);                                                         \
  /* r = gamma5 r */                                                                           \
  void g5_assign##_##F(F *r);                                                        \
  /* |s|^2 = sum over sites, spin, colour of |s|^2 */                                          \
  double sqnorm##_##F(const F *s);                                                         \
  /* <r, s> = sum conj(r) s */                                                                 \
  hr_complex prod##_##F(const F *r, const F *s);                                                 \
  /* Re <r, s> */                                                                              \
  double prod_re##_##F(const F *r, const F *s);                                                  \
  /* Im <r, s> */                                                                              \
  double prod_im##_##F(const F *r, const F *s);                                                  \
  /* <r, gamma5 s> */                                                                          \
  hr_complex g5_prod##_##F(const F *r, const F *s);                                              \
  /* Re <r, gamma5 s> */                                                                       \
  double g5_prod_re##_##F(const F *r, const F *s);                                               \
  /* Conjugate-gradient step in one pass: x += a p, r -= a q; returns |r|^2 (new r). The four \
     fields must be distinct. */                                                               \
  double cg_update##_##F(F *x, F *r, double a, const F *p, const F *q);                          \
  /* Conjugate-gradient direction: p = r + b p */                                              \
  void cg_direction##_##F(F *p, double b, const F *r);

HR_LINEAR_ALGEBRA_DECLS(spinor_field)
HR_LINEAR_ALGEBRA_DECLS(spinor_field_flt)
#undef HR_LINEAR_ALGEBRA_DECLS

/* out = in rounded to single precision (same geometry). */
void to_flt_spinor_field(spinor_field_flt *out, const spinor_field *in);
/* out = in widened to double precision (same geometry). */
void to_dbl_spinor_field_flt(spinor_field *out, const spinor_field_flt *in);

#ifdef __cplusplus
}
#endif

#endif
