/* la_sites_template.h -- the per-site mathematics of the field-algebra operations, written
 * once for every kind and both precisions; included by la_sites.h with the parameters
 *   LA_R    the real type of the components (double or float)
 *   LA_SFX  suffix of the generated names (dbl or flt)
 * A site of any kind is seen as n real components (all its elements, linear_algebra.h), in
 * units of w reals (w = 2: complex units, re then im; w = 1: real units), consecutive units
 * `us` reals apart: us = w for a host site (contiguous), us = w * (piece length) on the device
 * (gpu.h layout), so the same function serves the CPU loop and the kernel. Component
 * k = j w + c (unit j, real c) of a site at p is p[j us + c]; the functions move whole units
 * (one vector access per complex unit in CUDA device code). Every function has the shape
 *   la_site_<op>_<sfx>(a, n, w, us, f0, f1, f2, f3)
 * with the coefficients a and the slots' site addresses (linear_algebra.h order; unused slots
 * are not touched and may be NULL); reductions take their result out[2] (double) first:
 * la_site_<op>_<sfx>(out, a, n, w, us, f0, f1, f2, f3). Reductions
 * accumulate in double precision in a fixed order (interleaved partial sums) that does not
 * depend on us, so host and device give the same bits. No include guard. */

/* The parameters must be defined by the includer. */
#ifndef LA_R
#error "la_sites_template.h: define LA_R (the real type, double or float) before including"
#endif
#ifndef LA_SFX
#error "la_sites_template.h: define LA_SFX (the name suffix, dbl or flt) before including"
#endif

#define LA_SITE_(op) HR_CAT(HR_CAT(la_site_, op), HR_CAT(_, LA_SFX))
#define LA_FLAT_(op) HR_CAT(HR_CAT(la_flat_, op), HR_CAT(_, LA_SFX))
#define LA_ARGS_ const la_args *a, int n, int w, int us, LA_R *f0, LA_R *f1, LA_R *f2, LA_R *f3
#define LA_UNUSED_ (void)a, (void)n, (void)w, (void)us, (void)f0, (void)f1, (void)f2, (void)f3
#define LA_UNIT_(op) HR_CAT(HR_CAT(la_unit_, op), HR_CAT(_, LA_SFX))

/* Unit u (its first real at p) to x[0 .. w-1] and back: a complex unit as one access on the
 * device (LA_PAIR_LOAD, la_sites.h). */
HR_INLINE void LA_UNIT_(load)(LA_R *x, const LA_R *p, int w) {
  if (w == 2)
    LA_PAIR_LOAD(x, p);
  else
    x[0] = p[0];
}
HR_INLINE void LA_UNIT_(store)(LA_R *p, const LA_R *x, int w) {
  if (w == 2)
    LA_PAIR_STORE(p, x);
  else
    p[0] = x[0];
}

/* The loop over the units j0 .. n/w - 1 of a site (a site of n reals in units of w): the
 * slots read (`slots`, bits as linear_algebra.h: HR_LA_R0 .. HR_LA_R3) are loaded to x0 .. x3,
 * body runs with the unit j in them, the slots written (HR_LA_W0, HR_LA_W1) are stored. Unit
 * by unit, so an output may be an input. The unit count is taken before the loop: a division
 * in its bound would carry UBSan's check, and gcc would then ignore the unroll pragma. */
#define LA_EACH_UNIT_(j0, slots, body)                                                         \
  do {                                                                                         \
    const int nu_ = n / w;                                                                     \
    LA_UNROLL_SITE for (int j = (j0); j < nu_; j++) {                                          \
      LA_R x0[2], x1[2], x2[2], x3[2];                                                         \
      if ((slots) & HR_LA_R0) LA_UNIT_(load)(x0, f0 + j * us, w);                              \
      if ((slots) & HR_LA_R1) LA_UNIT_(load)(x1, f1 + j * us, w);                              \
      if ((slots) & HR_LA_R2) LA_UNIT_(load)(x2, f2 + j * us, w);                              \
      if ((slots) & HR_LA_R3) LA_UNIT_(load)(x3, f3 + j * us, w);                              \
      body;                                                                                    \
      if ((slots) & HR_LA_W0) LA_UNIT_(store)(f0 + j * us, x0, w);                             \
      if ((slots) & HR_LA_W1) LA_UNIT_(store)(f1 + j * us, x1, w);                             \
    }                                                                                          \
  } while (0)
/* The same with body once for each real c of the unit, real component k = j w + c. */
#define LA_EACH_FROM_(j0, slots, body)                                                         \
  LA_EACH_UNIT_(j0, slots, for (int c = 0; c < w; c++) {                                       \
    const int k = j * w + c;                                                                   \
    (void)k;                                                                                   \
    body;                                                                                      \
  })
#define LA_EACH_(slots, body) LA_EACH_FROM_(0, slots, body)
/* Slots of the shapes used below: r = f(s), r = f(r, s), r = f(s1, s2), r = f(r, s1, s2),
 * r = f(s1, s2, s3). */
#define LA_RS_ (HR_LA_W0 | HR_LA_R1)
#define LA_RRS_ (HR_LA_R0 | HR_LA_W0 | HR_LA_R1)
#define LA_RSS_ (HR_LA_W0 | HR_LA_R1 | HR_LA_R2)
#define LA_RRSS_ (HR_LA_R0 | HR_LA_W0 | HR_LA_R1 | HR_LA_R2)
#define LA_RSSS_ (HR_LA_W0 | HR_LA_R1 | HR_LA_R2 | HR_LA_R3)

/* ------------------------------------------------------------------ real coefficients */

/* Operations with real coefficients act on each real component alike. */
HR_INLINE void LA_SITE_(mul)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R c1 = (LA_R)a->r[0];
  LA_EACH_(LA_RS_, x0[c] = c1 * x1[c]);
}
HR_INLINE void LA_SITE_(mul_add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R c1 = (LA_R)a->r[0];
  LA_EACH_(LA_RRS_, x0[c] += c1 * x1[c]);
}
HR_INLINE void LA_SITE_(add)(LA_ARGS_) {
  LA_UNUSED_;
  LA_EACH_(LA_RSS_, x0[c] = x1[c] + x2[c]);
}
HR_INLINE void LA_SITE_(sub)(LA_ARGS_) {
  LA_UNUSED_;
  LA_EACH_(LA_RSS_, x0[c] = x1[c] - x2[c]);
}
HR_INLINE void LA_SITE_(add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  LA_EACH_(LA_RRS_, x0[c] += x1[c]);
}
HR_INLINE void LA_SITE_(sub_assign)(LA_ARGS_) {
  LA_UNUSED_;
  LA_EACH_(LA_RRS_, x0[c] -= x1[c]);
}
HR_INLINE void LA_SITE_(lc)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R c1 = (LA_R)a->r[0], c2 = (LA_R)a->r[1];
  LA_EACH_(LA_RSS_, x0[c] = c1 * x1[c] + c2 * x2[c]);
}
HR_INLINE void LA_SITE_(lc_add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R c1 = (LA_R)a->r[0], c2 = (LA_R)a->r[1];
  LA_EACH_(LA_RRSS_, x0[c] += c1 * x1[c] + c2 * x2[c]);
}
HR_INLINE void LA_SITE_(lc3)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R c1 = (LA_R)a->r[0], c2 = (LA_R)a->r[1], c3 = (LA_R)a->r[2];
  LA_EACH_(LA_RSSS_, x0[c] = c1 * x1[c] + c2 * x2[c] + c3 * x3[c]);
}
HR_INLINE void LA_SITE_(minus)(LA_ARGS_) {
  LA_UNUSED_;
  LA_EACH_(LA_RS_, x0[c] = -x1[c]);
}
/* p = r + b p: slot 0 is p, slot 1 is r. */
HR_INLINE void LA_SITE_(cg_direction)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R b = (LA_R)a->r[0];
  LA_EACH_(LA_RRS_, x0[c] = x1[c] + b * x0[c]);
}
/* gamma5 = diag(1, 1, -1, -1): the second half of the components (spins 2, 3) changes sign. */
HR_INLINE void LA_SITE_(g5)(LA_ARGS_) {
  LA_UNUSED_;
  LA_EACH_(LA_RS_, x0[c] = k < n / 2 ? x1[c] : -x1[c]);
}
HR_INLINE void LA_SITE_(g5_assign)(LA_ARGS_) {
  LA_UNUSED_;
  LA_EACH_FROM_(n / (2 * w), HR_LA_R0 | HR_LA_W0, x0[c] = -x0[c]);
}

/* ------------------------------------------------------------------ complex coefficients */

/* Complex units only (w = 2): z s of unit x (re, im): real and imaginary parts. */
#define LA_ZRE_(zr, zi, x) ((zr) * (x)[0] - (zi) * (x)[1])
#define LA_ZIM_(zr, zi, x) ((zr) * (x)[1] + (zi) * (x)[0])

HR_INLINE void LA_SITE_(mulc)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R zr = (LA_R)hr_creal(a->z[0]), zi = (LA_R)hr_cimag(a->z[0]);
  LA_EACH_UNIT_(0, LA_RS_, const LA_R re = LA_ZRE_(zr, zi, x1);
                const LA_R im = LA_ZIM_(zr, zi, x1); x0[0] = re; x0[1] = im);
}
HR_INLINE void LA_SITE_(mulc_add_assign)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R zr = (LA_R)hr_creal(a->z[0]), zi = (LA_R)hr_cimag(a->z[0]);
  LA_EACH_UNIT_(0, LA_RRS_, const LA_R re = LA_ZRE_(zr, zi, x1);
                const LA_R im = LA_ZIM_(zr, zi, x1); x0[0] += re; x0[1] += im);
}
HR_INLINE void LA_SITE_(lcc)(LA_ARGS_) {
  LA_UNUSED_;
  const LA_R ar = (LA_R)hr_creal(a->z[0]), ai = (LA_R)hr_cimag(a->z[0]);
  const LA_R br = (LA_R)hr_creal(a->z[1]), bi = (LA_R)hr_cimag(a->z[1]);
  LA_EACH_UNIT_(0, LA_RSS_, const LA_R re = LA_ZRE_(ar, ai, x1) + LA_ZRE_(br, bi, x2);
                const LA_R im = LA_ZIM_(ar, ai, x1) + LA_ZIM_(br, bi, x2);
                x0[0] = re; x0[1] = im);
}
#undef LA_ZRE_
#undef LA_ZIM_

/* ------------------------------------------------------------------ reductions */

/* sum_k x_k^2 over the real components: eight interleaved partial sums, lane l summing the
 * components k = l mod 8, combined as ((0+1)+(2+3))+((4+5)+(6+7)); a fixed order on every
 * backend. The contiguous form with vectors (LA_SIMD, host only) does exactly the same
 * operations lane by lane. */
HR_INLINE double LA_FLAT_(sqnorm)(int n, int w, int us, const LA_R *x) {
#if LA_SIMD
  if (us == w && n % 8 == 0) {
    la_v4d p0 = {0, 0, 0, 0}, p1 = {0, 0, 0, 0}; /* lanes 0-3 and 4-7 */
    LA_UNROLL for (int k = 0; k < n; k += 8) {
      const la_v4d u = {x[k], x[k + 1], x[k + 2], x[k + 3]};
      const la_v4d v = {x[k + 4], x[k + 5], x[k + 6], x[k + 7]};
      p0 += u * u;
      p1 += v * v;
    }
    return ((p0[0] + p0[1]) + (p0[2] + p0[3])) + ((p1[0] + p1[1]) + (p1[2] + p1[3]));
  }
#endif
  double p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  LA_UNROLL_LANES for (int k0 = 0; k0 < n; k0 += 8) /* lanes: k0 + l, l = 0..7 */
    LA_UNROLL for (int l = 0; l < 8; l += w) {    /* the units of the lanes */
      if (k0 + l < n) {
        LA_R u[2];
        LA_UNIT_(load)(u, x + ((k0 + l) / w) * us, w);
        for (int c = 0; c < w; c++) {
          const double v = u[c];
          p[l + c] += v * v;
        }
      }
    }
  return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}
/* sum_k x_k y_k over the real components (real kinds), lanes as sqnorm. */
HR_INLINE double LA_FLAT_(dot)(int n, int w, int us, const LA_R *x, const LA_R *y) {
  double p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  LA_UNROLL_LANES for (int k0 = 0; k0 < n; k0 += 8)
    LA_UNROLL for (int l = 0; l < 8; l += w) {
      if (k0 + l < n) {
        LA_R u[2], v[2];
        LA_UNIT_(load)(u, x + ((k0 + l) / w) * us, w);
        LA_UNIT_(load)(v, y + ((k0 + l) / w) * us, w);
        for (int c = 0; c < w; c++) p[l + c] += (double)u[c] * (double)v[c];
      }
    }
  return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}
/* sum conj(x) y over the complex units [first, last): four interleaved sums each for the real
 * and imaginary parts, lane l summing the units j = first + l mod 4, combined as
 * (0+1)+(2+3). */
HR_INLINE void LA_FLAT_(prod)(int us, const LA_R *x, const LA_R *y, int first, int last,
                              double *re, double *im) {
#if LA_SIMD
  if (us == 2) {
    la_v4d pr = {0, 0, 0, 0}, pi = {0, 0, 0, 0};
    int j = first;
    LA_UNROLL for (; j + 4 <= last; j += 4) {
      const LA_R *u = x + 2 * j, *v = y + 2 * j;
      const la_v4d xr = {u[0], u[2], u[4], u[6]}, xi = {u[1], u[3], u[5], u[7]};
      const la_v4d yr = {v[0], v[2], v[4], v[6]}, yi = {v[1], v[3], v[5], v[7]};
      pr += xr * yr + xi * yi;
      pi += xr * yi - xi * yr;
    }
    for (int l = 0; j + l < last; l++) {
      const double xr = x[2 * (j + l)], xi = x[2 * (j + l) + 1];
      const double yr = y[2 * (j + l)], yi = y[2 * (j + l) + 1];
      pr[l] += xr * yr + xi * yi;
      pi[l] += xr * yi - xi * yr;
    }
    *re = (pr[0] + pr[1]) + (pr[2] + pr[3]);
    *im = (pi[0] + pi[1]) + (pi[2] + pi[3]);
    return;
  }
#endif
  double pr[4] = {0, 0, 0, 0}, pi[4] = {0, 0, 0, 0};
  LA_UNROLL_LANES for (int j0 = first; j0 < last; j0 += 4) /* lanes: j0 + l, l = 0..3 */
    LA_UNROLL for (int l = 0; l < 4; l++) {
      const int j = j0 + l;
      if (j < last) {
        LA_R u[2], v[2];
        LA_PAIR_LOAD(u, x + j * us);
        LA_PAIR_LOAD(v, y + j * us);
        const double xr = u[0], xi = u[1], yr = v[0], yi = v[1];
        pr[l] += xr * yr + xi * yi;
        pi[l] += xr * yi - xi * yr;
      }
    }
  *re = (pr[0] + pr[1]) + (pr[2] + pr[3]);
  *im = (pi[0] + pi[1]) + (pi[2] + pi[3]);
}

HR_INLINE void LA_SITE_(sqnorm)(double *out, LA_ARGS_) {
  LA_UNUSED_;
  out[0] = LA_FLAT_(sqnorm)(n, w, us, f0);
}
/* Re <r, s>: the complex form for complex kinds (the same bits as prod's real part), the
 * plain dot product for real kinds. */
HR_INLINE void LA_SITE_(prod_re)(double *out, LA_ARGS_) {
  LA_UNUSED_;
  double im;
  if (w == 2)
    LA_FLAT_(prod)(us, f0, f1, 0, n / 2, &out[0], &im);
  else
    out[0] = LA_FLAT_(dot)(n, w, us, f0, f1);
}
HR_INLINE void LA_SITE_(prod)(double *out, LA_ARGS_) {
  LA_UNUSED_;
  LA_FLAT_(prod)(us, f0, f1, 0, n / 2, &out[0], &out[1]);
}
HR_INLINE void LA_SITE_(prod_im)(double *out, LA_ARGS_) {
  LA_UNUSED_;
  double re;
  LA_FLAT_(prod)(us, f0, f1, 0, n / 2, &re, &out[0]);
}
/* <r, gamma5 s>: spin components 0, 1 (the first half of the units) count +, 2, 3 count -. */
HR_INLINE void LA_SITE_(g5_prod)(double *out, LA_ARGS_) {
  LA_UNUSED_;
  double re_up, im_up, re_dn, im_dn;
  LA_FLAT_(prod)(us, f0, f1, 0, n / 4, &re_up, &im_up);
  LA_FLAT_(prod)(us, f0, f1, n / 4, n / 2, &re_dn, &im_dn);
  out[0] = re_up - re_dn;
  out[1] = im_up - im_dn;
}
HR_INLINE void LA_SITE_(g5_prod_re)(double *out, LA_ARGS_) {
  LA_UNUSED_;
  double both[2];
  LA_SITE_(g5_prod)(both, a, n, w, us, f0, f1, f2, f3);
  out[0] = both[0];
}
/* x += a p, r -= a q, contribution |r|^2: slots x, r, p, q = 0, 1, 2, 3. */
HR_INLINE void LA_SITE_(cg_update)(double *out, LA_ARGS_) {
  LA_UNUSED_;
  const LA_R c1 = (LA_R)a->r[0];
  LA_EACH_(HR_LA_R0 | HR_LA_W0 | HR_LA_R1 | HR_LA_W1 | HR_LA_R2 | HR_LA_R3,
           x0[c] += c1 * x2[c]; x1[c] -= c1 * x3[c]);
  out[0] = LA_FLAT_(sqnorm)(n, w, us, f1);
}

#undef LA_EACH_
#undef LA_EACH_UNIT_
#undef LA_EACH_FROM_
#undef LA_UNIT_
#undef LA_RS_
#undef LA_RRS_
#undef LA_RSS_
#undef LA_RRSS_
#undef LA_RSSS_
#undef LA_SITE_
#undef LA_FLAT_
#undef LA_ARGS_
#undef LA_UNUSED_
#undef LA_R
#undef LA_SFX
