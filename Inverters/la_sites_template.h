/* la_sites_template.h -- the per-site mathematics of the linear-algebra operations, written
 * once for both precisions; included by la_sites.h with the parameters
 *   LA_SPINOR  site type (suNf_spinor or suNf_spinor_flt)
 *   LA_REAL    its real type (double or float)
 *   LA_CPLX    its complex type (hr_complex or hr_complex_flt)
 *   LA_TAG     suffix of the generated names (_f or _f_flt)
 * Every function has the same shape: la_site_<op><tag>(a, f0, f1, f2, f3) with the
 * coefficients a and pointers to the values of the field slots (linear_algebra.h order;
 * unused slots are not touched and may be NULL). Reductions add an output out[2] (double).
 * The streaming operations use the spinor operations of suN.h; reductions accumulate in
 * double precision over the flat real components with a fixed order. No include guard. */

/* The parameters must be defined by the includer. */
#ifndef LA_SPINOR
#error "la_sites_template.h: define LA_SPINOR (the site type, suNf_spinor or suNf_spinor_flt) before including"
#endif
#ifndef LA_REAL
#error "la_sites_template.h: define LA_REAL (the real type, double or float) before including"
#endif
#ifndef LA_CPLX
#error "la_sites_template.h: define LA_CPLX (the complex type, hr_complex or hr_complex_flt) before including"
#endif
#ifndef LA_TAG
#error "la_sites_template.h: define LA_TAG (the name suffix, _f or _f_flt) before including"
#endif

#define LA_SITE_(op) HR_CAT(HR_CAT(la_site_, op), LA_TAG)
#define LA_SP_(op) HR_CAT(LA_SPINOR, op)
#define LA_ARGS_ const la_args *a, LA_SPINOR *f0, LA_SPINOR *f1, LA_SPINOR *f2, LA_SPINOR *f3
#define LA_UNUSED_ (void)a, (void)f0, (void)f1, (void)f2, (void)f3
/* Real components of a site. */
#define LA_NREAL_ (8 * NF)

/* Operations with real coefficients act on each real component alike: they are written as
 * unrolled loops over the flat real components (element by element, so an output may be an
 * input); those with complex coefficients use the spinor operations of suN.h. */
#define LA_X_(p) ((LA_REAL *)(p))
#define LA_CX_(p) ((const LA_REAL *)(p))

HR_INLINE void LA_SITE_(mul)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_REAL c = (LA_REAL)a->r[0];
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] = c * x[i];
}
HR_INLINE void LA_SITE_(mulc)(LA_ARGS_) {
  LA_UNUSED_;
  LA_SP_(_scale_cmplx)(f0, (LA_CPLX)a->z[0], f1);
}
HR_INLINE void LA_SITE_(mul_add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_REAL c = (LA_REAL)a->r[0];
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] += c * x[i];
}
HR_INLINE void LA_SITE_(mulc_add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  LA_SP_(_mul_add_cmplx)(f0, f0, (LA_CPLX)a->z[0], f1);
}
HR_INLINE void LA_SITE_(add)(LA_ARGS_) {
  LA_UNUSED_;
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1), *y = LA_CX_(f2);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] = x[i] + y[i];
}
HR_INLINE void LA_SITE_(sub)(LA_ARGS_) {
  LA_UNUSED_;
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1), *y = LA_CX_(f2);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] = x[i] - y[i];
}
HR_INLINE void LA_SITE_(add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] += x[i];
}
HR_INLINE void LA_SITE_(sub_assign)(LA_ARGS_) {
  LA_UNUSED_;
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] -= x[i];
}
HR_INLINE void LA_SITE_(lc)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_REAL c1 = (LA_REAL)a->r[0], c2 = (LA_REAL)a->r[1];
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1), *y = LA_CX_(f2);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] = c1 * x[i] + c2 * y[i];
}
HR_INLINE void LA_SITE_(lc_add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_REAL c1 = (LA_REAL)a->r[0], c2 = (LA_REAL)a->r[1];
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1), *y = LA_CX_(f2);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] += c1 * x[i] + c2 * y[i];
}
HR_INLINE void LA_SITE_(minus)(LA_ARGS_) {
  LA_UNUSED_;
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) r[i] = -x[i];
}
/* gamma5 = diag(1, 1, -1, -1): the second half of the components (spins 2, 3) changes sign. */
HR_INLINE void LA_SITE_(g5)(LA_ARGS_) {
  LA_UNUSED_;
  LA_REAL *r = LA_X_(f0);
  const LA_REAL *x = LA_CX_(f1);
  LA_UNROLL for (int i = 0; i < LA_NREAL_ / 2; i++) r[i] = x[i];
  LA_UNROLL for (int i = LA_NREAL_ / 2; i < LA_NREAL_; i++) r[i] = -x[i];
}
HR_INLINE void LA_SITE_(g5_assign)(LA_ARGS_) {
  LA_UNUSED_;
  LA_REAL *r = LA_X_(f0);
  LA_UNROLL for (int i = LA_NREAL_ / 2; i < LA_NREAL_; i++) r[i] = -r[i];
}
/* p = r + b p: slot 0 is p, slot 1 is r. */
HR_INLINE void LA_SITE_(cg_direction)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_REAL b = (LA_REAL)a->r[0];
  LA_REAL *p = LA_X_(f0);
  const LA_REAL *r = LA_CX_(f1);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) p[i] = r[i] + b * p[i];
}

/* ------------------------------------------------------------------ reductions */

/* sum_i x_i^2 over the real components (8 NF of them): eight interleaved partial sums, lane
 * l summing the components i = l mod 8, combined as ((0+1)+(2+3))+((4+5)+(6+7)); a fixed
 * order on every backend. */
#if LA_SIMD
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi" /* always inlined: no vector crosses a call */
#endif
HR_INLINE double HR_CAT(la_flat_sqnorm, LA_TAG)(const LA_SPINOR *s) {
  const LA_REAL *x = (const LA_REAL *)s;
  la_v4d p0 = {0, 0, 0, 0}, p1 = {0, 0, 0, 0}; /* lanes 0-3 and 4-7 */
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i += 8) {
    const la_v4d a = {x[i], x[i + 1], x[i + 2], x[i + 3]};
    const la_v4d b = {x[i + 4], x[i + 5], x[i + 6], x[i + 7]};
    p0 += a * a;
    p1 += b * b;
  }
  return ((p0[0] + p0[1]) + (p0[2] + p0[3])) + ((p1[0] + p1[1]) + (p1[2] + p1[3]));
}
/* sum conj(r) s over the complex components [first, last) (an even number of them): four
 * interleaved sums each for the real and imaginary parts, lane l summing the components
 * k = first + l mod 4 (a last pair goes to lanes 0 and 1); fixed order as above. */
HR_INLINE void HR_CAT(la_flat_prod, LA_TAG)(const LA_SPINOR *r, const LA_SPINOR *s, int first,
                                             int last, double *re, double *im) {
  const LA_REAL *x = (const LA_REAL *)r, *y = (const LA_REAL *)s;
  la_v4d pr = {0, 0, 0, 0}, pi = {0, 0, 0, 0};
  int k = first;
  LA_UNROLL for (; k + 4 <= last; k += 4) {
    const LA_REAL *u = x + 2 * k, *v = y + 2 * k;
    const la_v4d xr = {u[0], u[2], u[4], u[6]}, xi = {u[1], u[3], u[5], u[7]};
    const la_v4d yr = {v[0], v[2], v[4], v[6]}, yi = {v[1], v[3], v[5], v[7]};
    pr += xr * yr + xi * yi;
    pi += xr * yi - xi * yr;
  }
  for (int l = 0; k + l < last; l++) {
    const double xr = x[2 * (k + l)], xi = x[2 * (k + l) + 1];
    const double yr = y[2 * (k + l)], yi = y[2 * (k + l) + 1];
    pr[l] += xr * yr + xi * yi;
    pi[l] += xr * yi - xi * yr;
  }
  *re = (pr[0] + pr[1]) + (pr[2] + pr[3]);
  *im = (pi[0] + pi[1]) + (pi[2] + pi[3]);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#else
HR_INLINE double HR_CAT(la_flat_sqnorm, LA_TAG)(const LA_SPINOR *s) {
  const LA_REAL *x = (const LA_REAL *)s;
  double p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i += 8)
    LA_UNROLL for (int l = 0; l < 8; l++) p[l] += (double)x[i + l] * (double)x[i + l];
  return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}
HR_INLINE void HR_CAT(la_flat_prod, LA_TAG)(const LA_SPINOR *r, const LA_SPINOR *s, int first,
                                             int last, double *re, double *im) {
  const LA_REAL *x = (const LA_REAL *)r, *y = (const LA_REAL *)s;
  double pr[4] = {0, 0, 0, 0}, pi[4] = {0, 0, 0, 0};
  int k = first;
  LA_UNROLL for (; k + 4 <= last; k += 4)
    LA_UNROLL for (int l = 0; l < 4; l++) {
      const double xr = x[2 * (k + l)], xi = x[2 * (k + l) + 1];
      const double yr = y[2 * (k + l)], yi = y[2 * (k + l) + 1];
      pr[l] += xr * yr + xi * yi;
      pi[l] += xr * yi - xi * yr;
    }
  for (int l = 0; k + l < last; l++) {
    const double xr = x[2 * (k + l)], xi = x[2 * (k + l) + 1];
    const double yr = y[2 * (k + l)], yi = y[2 * (k + l) + 1];
    pr[l] += xr * yr + xi * yi;
    pi[l] += xr * yi - xi * yr;
  }
  *re = (pr[0] + pr[1]) + (pr[2] + pr[3]);
  *im = (pi[0] + pi[1]) + (pi[2] + pi[3]);
}
#endif

HR_INLINE void LA_SITE_(sqnorm)(LA_ARGS_, double *out) {
  LA_UNUSED_;
  out[0] = HR_CAT(la_flat_sqnorm, LA_TAG)(f0);
}
HR_INLINE void LA_SITE_(prod)(LA_ARGS_, double *out) {
  LA_UNUSED_;
  HR_CAT(la_flat_prod, LA_TAG)(f0, f1, 0, 4 * NF, &out[0], &out[1]);
}
HR_INLINE void LA_SITE_(prod_re)(LA_ARGS_, double *out) {
  LA_UNUSED_;
  double im;
  HR_CAT(la_flat_prod, LA_TAG)(f0, f1, 0, 4 * NF, &out[0], &im);
}
HR_INLINE void LA_SITE_(prod_im)(LA_ARGS_, double *out) {
  LA_UNUSED_;
  double re;
  HR_CAT(la_flat_prod, LA_TAG)(f0, f1, 0, 4 * NF, &re, &out[0]);
}
/* <r, gamma5 s>: spin components 0, 1 count +, 2, 3 count -. */
HR_INLINE void LA_SITE_(g5_prod)(LA_ARGS_, double *out) {
  LA_UNUSED_;
  double re_up, im_up, re_dn, im_dn;
  HR_CAT(la_flat_prod, LA_TAG)(f0, f1, 0, 2 * NF, &re_up, &im_up);
  HR_CAT(la_flat_prod, LA_TAG)(f0, f1, 2 * NF, 4 * NF, &re_dn, &im_dn);
  out[0] = re_up - re_dn;
  out[1] = im_up - im_dn;
}
/* x += a p, r -= a q, contribution |r|^2: slots x, r, p, q = 0, 1, 2, 3. */
HR_INLINE void LA_SITE_(cg_update)(LA_ARGS_, double *out) {
  LA_UNUSED_;
  const LA_REAL c = (LA_REAL)a->r[0];
  LA_REAL *x = LA_X_(f0), *r = LA_X_(f1);
  const LA_REAL *p = LA_CX_(f2), *q = LA_CX_(f3);
  LA_UNROLL for (int i = 0; i < LA_NREAL_; i++) {
    x[i] += c * p[i];
    r[i] -= c * q[i];
  }
  out[0] = HR_CAT(la_flat_sqnorm, LA_TAG)(f1);
}

#undef LA_X_
#undef LA_CX_
#undef LA_SITE_
#undef LA_SP_
#undef LA_ARGS_
#undef LA_UNUSED_
#undef LA_NREAL_
#undef LA_SPINOR
#undef LA_REAL
#undef LA_CPLX
#undef LA_TAG
