/* linear_algebra.h -- the field algebra of LibHR: linear algebra on fields of every kind of
 * field_kinds.h (spinors, link fields, algebra-vector fields such as momenta and forces,
 * clover fields, scalar fields; double and single precision), on every backend and any
 * geometry (glattice, glat_even, glat_odd). The operations act on the master sites of the
 * fields' geometry, which must be the same for all fields of a call; a link field's site is
 * its 4 links. Names follow fields.h, <op>_<kind>, the output written first, e.g.
 * mul_add_assign_suNg_av_field(p, dt, f) is p += dt f, sqnorm_spinor_field_flt(s) is |s|^2.
 * r = 0 and r = s are zero_<kind> / copy_<kind> of fields.h. Coefficients are given in
 * double precision for both precisions (rounded to float for single-precision fields).
 * Unless stated, an output may be the same field as an input.
 *
 * Which operations a kind has: the list HR_LA_STREAMING_OPS / HR_LA_REDUCTION_OPS below
 * says what each operation needs (any vector space, a complex one, or spinors for gamma5), the
 * kind list of field_kinds.h what each kind is (hr_alg_real, hr_alg_cplx, hr_alg_spin). The
 * declarations, the CPU loops, the GPU kernels and the tests are all generated from these
 * two lists, so a new operation or kind is one line.
 *
 * Reductions (sqnorm, prod, ...) return the sum over all processes. Each per-site
 * contribution is computed in double precision in a fixed order and summed by the one
 * reduction policy of reduction.h (an exact sum): the result is the same bit for bit for any
 * number of OpenMP threads, any GPU block size, on the CPU and the GPU path, and on any
 * process grid where the per-site values are the same.
 *
 * Backends. In GPU builds the operations run on the device copies (bringing them there first
 * when the host copy is the current one, and marking written fields device-current); in CPU
 * builds on the host; the backend is the one of backend.h (hr_backend_set can force the host
 * path in a GPU build, to compare the two or to mix with host code).
 * Doc/fields_and_backends.md has the details.
 * Implemented in: Memory/linear_algebra.c, Memory/linear_algebra_gpu.c, Memory/la_reduce.c. */
#ifndef LINEAR_ALGEBRA_H
#define LINEAR_ALGEBRA_H

#include "backend.h"
#include "fields.h"
#include "hr_complex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Field slots of an operation: the field arguments of its public function in order; bit i:
 * slot i is read, bit 4 + i: slot i is written. */
enum {
  HR_LA_R0 = 1, HR_LA_R1 = 2, HR_LA_R2 = 4, HR_LA_R3 = 8,
  HR_LA_W0 = 16, HR_LA_W1 = 32, HR_LA_W2 = 64, HR_LA_W3 = 128
};

/* Streaming operations: X(name, shape, needs, slots, ...) with the shape of the public
 * function (HR_LA_DECL_<shape> below), what the kind must offer (any: every kind, cplx:
 * complex kinds, spin: spinors) and the slot mask; the trailing arguments are passed on to X.
 *   mul              r = c s                   mulc             r = z s (complex z)
 *   mul_add_assign   r += c s                  mulc_add_assign  r += z s
 *   add, sub         r = s1 + s2, s1 - s2      add_assign, sub_assign  r += s, r -= s
 *   lc               r = c1 s1 + c2 s2         lc_add_assign    r += c1 s1 + c2 s2
 *   lc3              r = c1 s1 + c2 s2 + c3 s3 lcc              r = z1 s1 + z2 s2 (complex)
 *   minus            r = -s                    cg_direction     p = r + b p: (p, b, r)
 *   g5               r = gamma5 s              g5_assign        r = gamma5 r
 * (gamma5 = diag(1, 1, -1, -1) in spin). */
#define HR_LA_STREAMING_OPS(X, ...)                                                            \
  X(mul, rcs, any, HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                                           \
  X(mulc, rzs, cplx, HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                                         \
  X(mul_add_assign, rcs, any, HR_LA_R0 | HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                     \
  X(mulc_add_assign, rzs, cplx, HR_LA_R0 | HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                   \
  X(add, rss, any, HR_LA_W0 | HR_LA_R1 | HR_LA_R2, __VA_ARGS__)                                \
  X(sub, rss, any, HR_LA_W0 | HR_LA_R1 | HR_LA_R2, __VA_ARGS__)                                \
  X(add_assign, rs, any, HR_LA_R0 | HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                          \
  X(sub_assign, rs, any, HR_LA_R0 | HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                          \
  X(lc, rcscs, any, HR_LA_W0 | HR_LA_R1 | HR_LA_R2, __VA_ARGS__)                               \
  X(lc_add_assign, rcscs, any, HR_LA_R0 | HR_LA_W0 | HR_LA_R1 | HR_LA_R2, __VA_ARGS__)         \
  X(lc3, rcscscs, any, HR_LA_W0 | HR_LA_R1 | HR_LA_R2 | HR_LA_R3, __VA_ARGS__)                 \
  X(lcc, rzszs, cplx, HR_LA_W0 | HR_LA_R1 | HR_LA_R2, __VA_ARGS__)                             \
  X(minus, rs, any, HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                                          \
  X(cg_direction, rcs, any, HR_LA_R0 | HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                       \
  X(g5, rs, spin, HR_LA_W0 | HR_LA_R1, __VA_ARGS__)                                            \
  X(g5_assign, r, spin, HR_LA_R0 | HR_LA_W0, __VA_ARGS__)

/* Reductions: X(name, shape, needs, slots, number of doubles in the result, ...).
 *   sqnorm      |s|^2                      prod_re      Re <r, s> = Re sum conj(r) s
 *   prod        <r, s> (complex)           prod_im      Im <r, s>
 *   g5_prod     <r, gamma5 s>              g5_prod_re   Re <r, gamma5 s>
 *   cg_update   conjugate-gradient step in one pass: x += a p, r -= a q, returns |r|^2 of
 *               the new r; (x, r, a, p, q), the four fields distinct.
 * For real kinds (algebra vectors, scalars) prod_re is the real scalar product. */
#define HR_LA_REDUCTION_OPS(X, ...)                                                            \
  X(sqnorm, q1, any, HR_LA_R0, 1, __VA_ARGS__)                                                 \
  X(prod_re, q2, any, HR_LA_R0 | HR_LA_R1, 1, __VA_ARGS__)                                     \
  X(prod, q2c, cplx, HR_LA_R0 | HR_LA_R1, 2, __VA_ARGS__)                                      \
  X(prod_im, q2, cplx, HR_LA_R0 | HR_LA_R1, 1, __VA_ARGS__)                                    \
  X(g5_prod, q2c, spin, HR_LA_R0 | HR_LA_R1, 2, __VA_ARGS__)                                   \
  X(g5_prod_re, q2, spin, HR_LA_R0 | HR_LA_R1, 1, __VA_ARGS__)                                 \
  X(cg_update, cgu, any, HR_LA_R0 | HR_LA_W0 | HR_LA_R1 | HR_LA_W1 | HR_LA_R2 | HR_LA_R3, 1,   \
    __VA_ARGS__)

/* HR_LA_PICK(needs, alg, yes, no): the macro name `yes` when a kind of algebra `alg` offers
 * what an operation `needs`, `no` otherwise (call the result: HR_LA_PICK(..)(args)).
 * HR_LA_NONE(...) expands to nothing. */
#define HR_LA_PICK(needs, alg, yes, no) HR_LA_PICK_##needs##_##alg(yes, no)
#define HR_LA_NONE(...)
#define HR_LA_YES_(yes, no) yes
#define HR_LA_NO_(yes, no) no
#define HR_LA_PICK_any_hr_alg_real HR_LA_YES_
#define HR_LA_PICK_any_hr_alg_cplx HR_LA_YES_
#define HR_LA_PICK_any_hr_alg_spin HR_LA_YES_
#define HR_LA_PICK_cplx_hr_alg_real HR_LA_NO_
#define HR_LA_PICK_cplx_hr_alg_cplx HR_LA_YES_
#define HR_LA_PICK_cplx_hr_alg_spin HR_LA_YES_
#define HR_LA_PICK_spin_hr_alg_real HR_LA_NO_
#define HR_LA_PICK_spin_hr_alg_cplx HR_LA_NO_
#define HR_LA_PICK_spin_hr_alg_spin HR_LA_YES_

/* The public function of each shape for field type F. */
#define HR_LA_DECL_r(op, F) void op##_##F(F *r);
#define HR_LA_DECL_rs(op, F) void op##_##F(F *r, const F *s);
#define HR_LA_DECL_rss(op, F) void op##_##F(F *r, const F *s1, const F *s2);
#define HR_LA_DECL_rcs(op, F) void op##_##F(F *r, double c, const F *s);
#define HR_LA_DECL_rzs(op, F) void op##_##F(F *r, hr_complex z, const F *s);
#define HR_LA_DECL_rcscs(op, F) void op##_##F(F *r, double c1, const F *s1, double c2, const F *s2);
#define HR_LA_DECL_rcscscs(op, F)                                                              \
  void op##_##F(F *r, double c1, const F *s1, double c2, const F *s2, double c3, const F *s3);
#define HR_LA_DECL_rzszs(op, F)                                                                \
  void op##_##F(F *r, hr_complex z1, const F *s1, hr_complex z2, const F *s2);
#define HR_LA_DECL_q1(op, F) double op##_##F(const F *s);
#define HR_LA_DECL_q2(op, F) double op##_##F(const F *r, const F *s);
#define HR_LA_DECL_q2c(op, F) hr_complex op##_##F(const F *r, const F *s);
#define HR_LA_DECL_cgu(op, F) double op##_##F(F *x, F *r, double a, const F *p, const F *q);

/* Declarations: every operation for every kind that offers what it needs. */
#define HR_LA_DECL_S_(op, shape, needs, slots, kind, alg)                                      \
  HR_LA_PICK(needs, alg, HR_LA_DECL_##shape, HR_LA_NONE)(op, kind)
#define HR_LA_DECL_R_(op, shape, needs, slots, nres, kind, alg)                                \
  HR_LA_PICK(needs, alg, HR_LA_DECL_##shape, HR_LA_NONE)(op, kind)
#define HR_LA_DECL_KIND_(kind, site, nlinks, layout, unit, alg)                                \
  HR_LA_STREAMING_OPS(HR_LA_DECL_S_, kind, alg)                                                \
  HR_LA_REDUCTION_OPS(HR_LA_DECL_R_, kind, alg)
HR_FIELD_KINDS(HR_LA_DECL_KIND_)
#undef HR_LA_DECL_KIND_

/* out = in rounded to single precision, and the reverse (same geometry): to_flt_<kind>(out,
 * in) and to_dbl_<kind_flt>(out, in) for the pairs of HR_FIELD_KIND_PAIRS. */
#define HR_LA_DECL_PAIR_(kind, kind_flt)                                                       \
  void to_flt_##kind(kind_flt *out, const kind *in);                                           \
  void to_dbl_##kind_flt(kind *out, const kind_flt *in);
HR_FIELD_KIND_PAIRS(HR_LA_DECL_PAIR_)
#undef HR_LA_DECL_PAIR_

#ifdef __cplusplus
}
#endif

#endif
