/* rational_approx.c -- minimax rational approximations of x^(-p/q) (rational_approx.h): the
 * Remez algorithm for type (n, n) with relative weight in MPFR (linear system at 2n+2
 * reference points, exchange by the extrema of the error between its zeros), partial fractions
 * from the roots of the denominator (Laguerre with deflation, Newton polish), evaluation in
 * double precision and the text cache file. */
#include "rational_approx.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hr_build_config.h"
#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"

#if HR_WITH_MPFR
#include <mpfr.h>
#endif

/* Stop the Remez iteration when the extrema of |error| agree to this relative spread. */
#define REMEZ_RIPPLE_TOL 1e-4
#define REMEZ_MAX_STEPS 60

static int gcd_int(int a, int b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    const int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Reduce p/q with q > 0; returns -1 for q == 0. */
static int reduce(int *p, int *q) {
  if (*q == 0) return -1;
  if (*q < 0) {
    *p = -*p;
    *q = -*q;
  }
  const int g = gcd_int(*p, *q);
  if (g > 1) {
    *p /= g;
    *q /= g;
  }
  return 0;
}

double rational_approx_eval(const rational_approx *r, double x) {
  double s = r->a0;
  for (int k = 0; k < r->degree; k++) s += r->a[k] / (x + r->b[k]);
  return s;
}

double rational_approx_rel_error(const rational_approx *r, double x) {
  return rational_approx_eval(r, x) * pow(x, (double)r->p / r->q) - 1;
}

double rational_approx_max_error(const rational_approx *r, int n) {
  double m = 0;
  const double l = log(r->lmax / r->lmin);
  for (int i = 0; i < n; i++) {
    double x = i == 0 ? r->lmin : i == n - 1 ? r->lmax : r->lmin * exp(l * i / (n - 1));
    const double e = fabs(rational_approx_rel_error(r, x));
    if (!(e <= m)) m = e; /* NaN propagates */
  }
  return m;
}

#if HR_WITH_MPFR

int rational_approx_have_remez(void) { return 1; }

/* State of one Remez computation for g(y) = y^(-p/q) on [ylo, 1] (y = x / lmax). */
typedef struct {
  int n;              /* degree */
  long p, q;
  mpfr_prec_t prec;
  mpfr_t *pc, *qc;    /* numerator p_0..p_n, denominator q_0 = 1, q_1..q_n */
  mpfr_t t[6];        /* scratch */
} remez;

/* g(y) = y^(-p/q) into out (y exact in MPFR). */
static void rz_g(remez *rz, mpfr_t out, const mpfr_t y) {
  mpfr_rootn_ui(out, y, (unsigned long)rz->q, MPFR_RNDN);
  mpfr_pow_si(out, out, -rz->p, MPFR_RNDN);
}

/* Horner: out = sum c_j y^j, j = 0..n. */
static void rz_poly(remez *rz, mpfr_t out, mpfr_t *c, const mpfr_t y) {
  mpfr_set(out, c[rz->n], MPFR_RNDN);
  for (int j = rz->n - 1; j >= 0; j--) {
    mpfr_mul(out, out, y, MPFR_RNDN);
    mpfr_add(out, out, c[j], MPFR_RNDN);
  }
}

/* The relative error P(y) / (Q(y) g(y)) - 1 at y (double in, double out, computed in MPFR). */
static double rz_err(remez *rz, double y) {
  mpfr_set_d(rz->t[0], y, MPFR_RNDN);
  rz_poly(rz, rz->t[1], rz->pc, rz->t[0]);
  rz_poly(rz, rz->t[2], rz->qc, rz->t[0]);
  rz_g(rz, rz->t[3], rz->t[0]);
  mpfr_mul(rz->t[2], rz->t[2], rz->t[3], MPFR_RNDN);
  mpfr_div(rz->t[1], rz->t[1], rz->t[2], MPFR_RNDN);
  mpfr_sub_ui(rz->t[1], rz->t[1], 1, MPFR_RNDN);
  return mpfr_get_d(rz->t[1], MPFR_RNDN);
}

/* Solve the (m x m) system M z = v in place by Gaussian elimination with partial pivoting;
 * returns -1 when singular. */
static int rz_solve(remez *rz, mpfr_t *M, mpfr_t *v, int m) {
  mpfr_t *t = rz->t;
  for (int c = 0; c < m; c++) {
    int piv = c;
    for (int r = c + 1; r < m; r++)
      if (mpfr_cmpabs(M[r * m + c], M[piv * m + c]) > 0) piv = r;
    if (mpfr_zero_p(M[piv * m + c])) return -1;
    if (piv != c) {
      for (int k = 0; k < m; k++) mpfr_swap(M[c * m + k], M[piv * m + k]);
      mpfr_swap(v[c], v[piv]);
    }
    for (int r = c + 1; r < m; r++) {
      mpfr_div(t[4], M[r * m + c], M[c * m + c], MPFR_RNDN);
      for (int k = c; k < m; k++) {
        mpfr_mul(t[5], t[4], M[c * m + k], MPFR_RNDN);
        mpfr_sub(M[r * m + k], M[r * m + k], t[5], MPFR_RNDN);
      }
      mpfr_mul(t[5], t[4], v[c], MPFR_RNDN);
      mpfr_sub(v[r], v[r], t[5], MPFR_RNDN);
    }
  }
  for (int c = m - 1; c >= 0; c--) {
    for (int k = c + 1; k < m; k++) {
      mpfr_mul(t[5], M[c * m + k], v[k], MPFR_RNDN);
      mpfr_sub(v[c], v[c], t[5], MPFR_RNDN);
    }
    mpfr_div(v[c], v[c], M[c * m + c], MPFR_RNDN);
  }
  return 0;
}

/* Coefficients with equal-ripple relative error +-E at the reference points ys[0..2n+1]: the
 * system P(y_i) - g_i Q(y_i) - (-1)^i E g_i Qold(y_i) = 0 (q_0 = 1), iterated on Qold (the
 * previous denominator) until E is stable. Returns E, or NAN when singular. */
static double rz_fit(remez *rz, const double *ys) {
  const int n = rz->n, m = 2 * n + 2;
  mpfr_t *M = malloc((size_t)m * m * sizeof(mpfr_t)), *v = malloc((size_t)m * sizeof(mpfr_t));
  mpfr_t *y = malloc((size_t)m * sizeof(mpfr_t)), *g = malloc((size_t)m * sizeof(mpfr_t));
  mpfr_t *qo = malloc((size_t)m * sizeof(mpfr_t));
  if (!M || !v || !y || !g || !qo) hr_error("out of memory in the Remez algorithm");
  for (int i = 0; i < m * m; i++) mpfr_init2(M[i], rz->prec);
  for (int i = 0; i < m; i++) {
    mpfr_inits2(rz->prec, v[i], y[i], g[i], qo[i], (mpfr_ptr)0);
    mpfr_set_d(y[i], ys[i], MPFR_RNDN);
    rz_g(rz, g[i], y[i]);
    rz_poly(rz, qo[i], rz->qc, y[i]);
  }
  double E = NAN, Eold = 0;
  for (int it = 0; it < 200; it++) {
    for (int i = 0; i < m; i++) {
      mpfr_t *row = M + (size_t)i * m;
      mpfr_set_ui(rz->t[0], 1, MPFR_RNDN);
      for (int j = 0; j <= n; j++) {
        mpfr_set(row[j], rz->t[0], MPFR_RNDN);                       /* y^j for p_j */
        if (j >= 1) mpfr_mul(row[n + j], rz->t[0], g[i], MPFR_RNDN);  /* -g y^j for q_j */
        if (j >= 1) mpfr_neg(row[n + j], row[n + j], MPFR_RNDN);
        mpfr_mul(rz->t[0], rz->t[0], y[i], MPFR_RNDN);
      }
      mpfr_mul(row[m - 1], g[i], qo[i], MPFR_RNDN); /* -(-1)^i g Qold for E */
      if (i % 2 == 0) mpfr_neg(row[m - 1], row[m - 1], MPFR_RNDN);
      mpfr_set(v[i], g[i], MPFR_RNDN);
    }
    if (rz_solve(rz, M, v, m) != 0) {
      E = NAN;
      break;
    }
    for (int j = 0; j <= n; j++) mpfr_set(rz->pc[j], v[j], MPFR_RNDN);
    mpfr_set_ui(rz->qc[0], 1, MPFR_RNDN);
    for (int j = 1; j <= n; j++) mpfr_set(rz->qc[j], v[n + j], MPFR_RNDN);
    E = mpfr_get_d(v[m - 1], MPFR_RNDN);
    for (int i = 0; i < m; i++) rz_poly(rz, qo[i], rz->qc, y[i]);
    if (it > 0 && fabs(E - Eold) <= 1e-12 * fabs(E)) break;
    Eold = E;
  }
  for (int i = 0; i < m * m; i++) mpfr_clear(M[i]);
  for (int i = 0; i < m; i++) mpfr_clears(v[i], y[i], g[i], qo[i], (mpfr_ptr)0);
  free(M);
  free(v);
  free(y);
  free(g);
  free(qo);
  return E;
}

/* Zero of the error between y0 and y1 (opposite signs), bisection in log y. */
static double rz_zero(remez *rz, double y0, double y1) {
  double l0 = log(y0), l1 = log(y1);
  const double e0 = rz_err(rz, y0);
  for (int it = 0; it < 52; it++) {
    const double lm = 0.5 * (l0 + l1);
    const double em = rz_err(rz, exp(lm));
    if ((em < 0) == (e0 < 0)) l0 = lm;
    else l1 = lm;
  }
  return exp(0.5 * (l0 + l1));
}

/* Position of the largest |error| in [y0, y1] (golden section in log y; the ends are
 * candidates when they are ends of the range); *emax gets the signed error there. */
static double rz_extremum(remez *rz, double y0, double y1, int end0, int end1, double *emax) {
  const double gr = 0.6180339887498949;
  double a = log(y0), b = log(y1);
  double c = b - gr * (b - a), d = a + gr * (b - a);
  double fc = fabs(rz_err(rz, exp(c))), fd = fabs(rz_err(rz, exp(d)));
  for (int it = 0; it < 60 && b - a > 1e-13 * (fabs(a) + fabs(b) + 1); it++) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - gr * (b - a);
      fc = fabs(rz_err(rz, exp(c)));
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + gr * (b - a);
      fd = fabs(rz_err(rz, exp(d)));
    }
  }
  double best = exp(0.5 * (a + b));
  double eb = rz_err(rz, best);
  if (end0) {
    const double e = rz_err(rz, y0);
    if (fabs(e) > fabs(eb)) best = y0, eb = e;
  }
  if (end1) {
    const double e = rz_err(rz, y1);
    if (fabs(e) > fabs(eb)) best = y1, eb = e;
  }
  *emax = eb;
  return best;
}

/* Roots of the real-rooted polynomial c[0..n] (all roots real): Laguerre from 0 with
 * deflation, then Newton on the full polynomial. roots[] gets n values. */
static void rz_roots(remez *rz, mpfr_t *c, mpfr_t *roots) {
  const int n = rz->n;
  const mpfr_prec_t pr = rz->prec;
  mpfr_t *d = malloc((size_t)(n + 1) * sizeof(mpfr_t));
  if (!d) hr_error("out of memory in the Remez algorithm");
  for (int j = 0; j <= n; j++) {
    mpfr_init2(d[j], pr);
    mpfr_set(d[j], c[j], MPFR_RNDN);
  }
  mpfr_t x, p0, p1, p2, G, H, s, den, tmp;
  mpfr_inits2(pr, x, p0, p1, p2, G, H, s, den, tmp, (mpfr_ptr)0);
  for (int deg = n; deg >= 1; deg--) {
    mpfr_set_ui(x, 0, MPFR_RNDN);
    for (int it = 0; it < 500; it++) {
      /* p0 = P(x), p1 = P'(x), p2 = P''(x)/2 of the deflated polynomial d[0..deg] */
      mpfr_set(p0, d[deg], MPFR_RNDN);
      mpfr_set_ui(p1, 0, MPFR_RNDN);
      mpfr_set_ui(p2, 0, MPFR_RNDN);
      for (int j = deg - 1; j >= 0; j--) {
        mpfr_fma(p2, p2, x, p1, MPFR_RNDN);
        mpfr_fma(p1, p1, x, p0, MPFR_RNDN);
        mpfr_fma(p0, p0, x, d[j], MPFR_RNDN);
      }
      if (mpfr_zero_p(p0)) break;
      mpfr_div(G, p1, p0, MPFR_RNDN);
      mpfr_mul(H, G, G, MPFR_RNDN);
      mpfr_mul_ui(tmp, p2, 2, MPFR_RNDN);
      mpfr_div(tmp, tmp, p0, MPFR_RNDN);
      mpfr_sub(H, H, tmp, MPFR_RNDN); /* H = G^2 - P''/P */
      mpfr_mul_ui(s, H, (unsigned long)deg, MPFR_RNDN);
      mpfr_mul(tmp, G, G, MPFR_RNDN);
      mpfr_sub(s, s, tmp, MPFR_RNDN);
      mpfr_mul_ui(s, s, (unsigned long)(deg - 1), MPFR_RNDN);
      if (mpfr_sgn(s) < 0) mpfr_set_ui(s, 0, MPFR_RNDN); /* real roots: >= 0 up to rounding */
      mpfr_sqrt(s, s, MPFR_RNDN);
      if (mpfr_sgn(G) >= 0) mpfr_add(den, G, s, MPFR_RNDN);
      else mpfr_sub(den, G, s, MPFR_RNDN);
      if (mpfr_zero_p(den)) break;
      mpfr_ui_div(tmp, (unsigned long)deg, den, MPFR_RNDN);
      mpfr_sub(x, x, tmp, MPFR_RNDN);
      if (mpfr_zero_p(tmp) || mpfr_get_exp(tmp) < mpfr_get_exp(x) - (mpfr_exp_t)pr + 8) break;
    }
    /* Newton polish on the original polynomial */
    for (int it = 0; it < 8; it++) {
      mpfr_set(p0, c[n], MPFR_RNDN);
      mpfr_set_ui(p1, 0, MPFR_RNDN);
      for (int j = n - 1; j >= 0; j--) {
        mpfr_fma(p1, p1, x, p0, MPFR_RNDN);
        mpfr_fma(p0, p0, x, c[j], MPFR_RNDN);
      }
      if (mpfr_zero_p(p1)) break;
      mpfr_div(tmp, p0, p1, MPFR_RNDN);
      mpfr_sub(x, x, tmp, MPFR_RNDN);
    }
    mpfr_set(roots[n - deg], x, MPFR_RNDN);
    /* deflate: d[0..deg] <- the quotient d / (y - x), of degree deg - 1 */
    mpfr_set(G, d[deg], MPFR_RNDN); /* running quotient coefficient */
    for (int j = deg - 1; j >= 0; j--) {
      mpfr_fma(H, G, x, d[j], MPFR_RNDN); /* next one */
      mpfr_set(d[j], G, MPFR_RNDN);
      mpfr_swap(G, H);
    }
  }
  mpfr_clears(x, p0, p1, p2, G, H, s, den, tmp, (mpfr_ptr)0);
  for (int j = 0; j <= n; j++) mpfr_clear(d[j]);
  free(d);
}

int rational_approx_remez(rational_approx *r, int p, int q, double lmin, double lmax, int degree,
                          char *err, size_t errlen) {
  if (reduce(&p, &q) != 0 || !(lmin > 0) || !(lmax > lmin) || degree < 1 ||
      degree > RATIONAL_MAX_DEGREE) {
    snprintf(err, errlen,
             "rational approximation: need q != 0, 0 < lmin < lmax, 1 <= degree <= %d (got p/q "
             "= %d/%d, range [%g, %g], degree %d)",
             RATIONAL_MAX_DEGREE, p, q, lmin, lmax, degree);
    return -1;
  }
  memset(r, 0, sizeof *r);
  r->p = p;
  r->q = q;
  r->lmin = lmin;
  r->lmax = lmax;
  if (p == 1 && q == 1) { /* x^-1: exact */
    r->degree = 1;
    r->a[0] = 1;
    r->b[0] = 0;
    r->error = 0;
    return 0;
  }
  if (p > q && p < 2 * q) {
    /* 1 < p/q < 2: x^(-p/q) = x^-1 x^(-(p-q)/q), the minimax approximation r of the second
     * factor (degree - 1 poles) times 1/x: the same relative error, one more pole at 0,
     *   r(x) / x = (a0 + sum a_k / b_k) / x - sum (a_k / b_k) / (x + b_k) */
    if (degree < 2) {
      snprintf(err, errlen, "rational approximation of x^(%d/%d): needs degree >= 2", -p, q);
      return -1;
    }
    rational_approx f;
    if (rational_approx_remez(&f, p - q, q, lmin, lmax, degree - 1, err, errlen) != 0) return -1;
    double c = f.a0;
    for (int k = 0; k < f.degree; k++) {
      c += f.a[k] / f.b[k];
      r->a[k + 1] = -f.a[k] / f.b[k];
      r->b[k + 1] = f.b[k];
    }
    r->a[0] = c;
    r->b[0] = 0;
    r->a0 = 0;
    r->degree = degree;
    const double ed = rational_approx_max_error(r, 2000);
    r->error = ed > f.error ? ed : f.error;
    return 0;
  }
  if (q == 1 || p == 0 || p >= 2 * q || p <= -q) {
    snprintf(err, errlen,
             "rational approximation of x^(%d/%d): only powers -2 < -p/q < 1 (not integers "
             "other than -1) have a partial-fraction form (use several monomials)",
             -p, q);
    return -1;
  }
  const int n = degree, m = 2 * n + 2;
  remez rz;
  rz.n = n;
  rz.p = p;
  rz.q = q;
  rz.prec = 160 + 16 * n;
  rz.pc = malloc((size_t)(n + 1) * sizeof(mpfr_t));
  rz.qc = malloc((size_t)(n + 1) * sizeof(mpfr_t));
  double *ys = malloc((size_t)m * sizeof(double)), *zs = malloc((size_t)m * sizeof(double));
  double *es = malloc((size_t)m * sizeof(double));
  if (!rz.pc || !rz.qc || !ys || !zs || !es) hr_error("out of memory in the Remez algorithm");
  for (int j = 0; j <= n; j++) {
    mpfr_inits2(rz.prec, rz.pc[j], rz.qc[j], (mpfr_ptr)0);
    mpfr_set_ui(rz.qc[j], j == 0, MPFR_RNDN);
  }
  for (int j = 0; j < 6; j++) mpfr_init2(rz.t[j], rz.prec);
  const double ylo = lmin / lmax, L = log(ylo);
  for (int i = 0; i < m; i++) ys[i] = exp(L * 0.5 * (1 + cos(3.14159265358979323846 * i / (m - 1))));
  ys[0] = ylo;
  ys[m - 1] = 1;
  int status = -1, steps = 0;
  double emax = NAN;
  for (steps = 0; steps < REMEZ_MAX_STEPS; steps++) {
    const double E = rz_fit(&rz, ys);
    if (!isfinite(E)) {
      snprintf(err, errlen, "Remez: singular system at step %d (degree %d)", steps, n);
      break;
    }
    /* zeros of the error between consecutive reference points */
    int ok = 1;
    for (int i = 0; i + 1 < m; i++) {
      const double e0 = rz_err(&rz, ys[i]), e1 = rz_err(&rz, ys[i + 1]);
      if ((e0 < 0) == (e1 < 0)) {
        ok = 0;
        break;
      }
      zs[i] = rz_zero(&rz, ys[i], ys[i + 1]);
    }
    if (!ok) {
      snprintf(err, errlen, "Remez: the error does not alternate at step %d (degree %d, E %g)",
               steps, n, E);
      break;
    }
    /* new reference: the extrema of |error| between the zeros */
    double mx = 0, mn = INFINITY;
    for (int i = 0; i < m; i++) {
      const double y0 = i == 0 ? ylo : zs[i - 1], y1 = i == m - 1 ? 1.0 : zs[i];
      ys[i] = rz_extremum(&rz, y0, y1, i == 0, i == m - 1, &es[i]);
      const double a = fabs(es[i]);
      if (a > mx) mx = a;
      if (a < mn) mn = a;
    }
    emax = mx;
    if (mx - mn <= REMEZ_RIPPLE_TOL * mx || mx < 1e-30) {
      status = 0;
      break;
    }
  }
  if (status == 0 && steps >= REMEZ_MAX_STEPS) status = -1;
  if (status != 0 && steps >= REMEZ_MAX_STEPS)
    snprintf(err, errlen, "Remez: no equal ripple after %d steps (degree %d)", steps, n);
  if (status == 0) {
    /* partial fractions in y: P/Q = c0 + sum c_k / (y - y_k), y_k the roots of Q */
    mpfr_t *roots = malloc((size_t)n * sizeof(mpfr_t));
    if (!roots) hr_error("out of memory in the Remez algorithm");
    for (int k = 0; k < n; k++) mpfr_init2(roots[k], rz.prec);
    rz_roots(&rz, rz.qc, roots);
    mpfr_t num, dq, t, s, scale;
    mpfr_inits2(rz.prec, num, dq, t, s, scale, (mpfr_ptr)0);
    /* x = lmax y: x^(-p/q) = lmax^(-p/q) g(y), r(x) = lmax^(-p/q) R(x / lmax) */
    mpfr_set_d(t, lmax, MPFR_RNDN);
    rz_g(&rz, scale, t);
    mpfr_div(s, rz.pc[n], rz.qc[n], MPFR_RNDN);
    mpfr_mul(s, s, scale, MPFR_RNDN);
    r->a0 = mpfr_get_d(s, MPFR_RNDN);
    for (int k = 0; k < n; k++) {
      rz_poly(&rz, num, rz.pc, roots[k]);
      /* Q'(y_k) */
      mpfr_set(dq, rz.qc[n], MPFR_RNDN);
      mpfr_mul_ui(dq, dq, (unsigned long)n, MPFR_RNDN);
      for (int j = n - 1; j >= 1; j--) {
        mpfr_mul(dq, dq, roots[k], MPFR_RNDN);
        mpfr_mul_ui(t, rz.qc[j], (unsigned long)j, MPFR_RNDN);
        mpfr_add(dq, dq, t, MPFR_RNDN);
      }
      mpfr_div(num, num, dq, MPFR_RNDN); /* c_k */
      /* c_k / (y - y_k) = c_k lmax / (x - lmax y_k) */
      mpfr_mul(num, num, scale, MPFR_RNDN);
      mpfr_mul_d(num, num, lmax, MPFR_RNDN);
      r->a[k] = mpfr_get_d(num, MPFR_RNDN);
      mpfr_mul_d(t, roots[k], -lmax, MPFR_RNDN);
      r->b[k] = mpfr_get_d(t, MPFR_RNDN);
      if (!(r->b[k] >= 0) || !isfinite(r->a[k])) {
        snprintf(err, errlen, "Remez: pole %d at x = %g is not real and <= 0 (degree %d)", k,
                 -r->b[k], n);
        status = -1;
      }
    }
    mpfr_clears(num, dq, t, s, scale, (mpfr_ptr)0);
    for (int k = 0; k < n; k++) mpfr_clear(roots[k]);
    free(roots);
  }
  if (status == 0) {
    /* sort by shift (smallest first) */
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && r->b[j] < r->b[j - 1]; j--) {
        double t = r->b[j];
        r->b[j] = r->b[j - 1];
        r->b[j - 1] = t;
        t = r->a[j];
        r->a[j] = r->a[j - 1];
        r->a[j - 1] = t;
      }
    r->degree = n;
    /* the error of the double-precision partial fractions, at least that of the Remez */
    const double ed = rational_approx_max_error(r, 2000);
    r->error = ed > emax ? ed : emax;
    lprintf("RHMC", 20, "Remez: x^(%d/%d) on [%g, %g], degree %d: %d steps, error %.3e\n", -p,
            q, lmin, lmax, n, steps + 1, r->error);
  }
  for (int j = 0; j <= n; j++) mpfr_clears(rz.pc[j], rz.qc[j], (mpfr_ptr)0);
  for (int j = 0; j < 6; j++) mpfr_clear(rz.t[j]);
  free(rz.pc);
  free(rz.qc);
  free(ys);
  free(zs);
  free(es);
  mpfr_free_cache();
  return status;
}

#else /* no MPFR */

int rational_approx_have_remez(void) { return 0; }

int rational_approx_remez(rational_approx *r, int p, int q, double lmin, double lmax, int degree,
                          char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  if (reduce(&p, &q) == 0 && p == 1 && q == 1 && lmin > 0 && lmax > lmin && degree >= 1) {
    r->p = r->q = 1;
    r->lmin = lmin;
    r->lmax = lmax;
    r->degree = 1;
    r->a[0] = 1;
    return 0;
  }
  snprintf(err, errlen,
           "the rational approximation of x^(%d/%d) on [%g, %g] (degree %d) is not in the cache "
           "and this build has no MPFR to compute it: install libmpfr-dev (bash Make/deps.sh) "
           "and reconfigure, or copy a cache file that has it",
           -p, q, lmin, lmax, degree);
  return -1;
}

#endif

/* ------------------------------------------------------------------ cache file */

const char *rational_approx_default_cache(void) {
  const char *e = getenv("HR_RATIONAL_CACHE");
  return e != NULL && e[0] != '\0' ? e : "rational_approx.cache";
}

/* Read the next entry of f into r; returns 1, 0 at the end, -1 on a malformed entry. */
static int read_entry(FILE *f, rational_approx *r) {
  char line[512];
  while (fgets(line, sizeof line, f) != NULL) {
    if (line[0] == '#' || line[0] == '\n') continue;
    memset(r, 0, sizeof *r);
    if (sscanf(line, "approx p=%d q=%d lmin=%lg lmax=%lg degree=%d error=%lg", &r->p, &r->q,
               &r->lmin, &r->lmax, &r->degree, &r->error) != 6 ||
        r->degree < 1 || r->degree > RATIONAL_MAX_DEGREE)
      return -1;
    if (fgets(line, sizeof line, f) == NULL || sscanf(line, "a0 %lg", &r->a0) != 1) return -1;
    for (int k = 0; k < r->degree; k++)
      if (fgets(line, sizeof line, f) == NULL ||
          sscanf(line, "pole %lg %lg", &r->a[k], &r->b[k]) != 2)
        return -1;
    if (fgets(line, sizeof line, f) == NULL || strncmp(line, "end", 3) != 0) return -1;
    return 1;
  }
  return 0;
}

int rational_approx_cache_lookup(rational_approx *r, const char *path, int p, int q, double lmin,
                                 double lmax, int degree, double precision) {
  if (path == NULL) path = rational_approx_default_cache();
  if (reduce(&p, &q) != 0) return 0;
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  rational_approx e, best;
  int found = 0, st;
  /* errors of the stored degrees, for the minimality of an automatic choice */
  double err_of[RATIONAL_MAX_DEGREE + 1];
  for (int k = 0; k <= RATIONAL_MAX_DEGREE; k++) err_of[k] = -1;
  while ((st = read_entry(f, &e)) == 1) {
    if (e.p != p || e.q != q || e.lmin != lmin || e.lmax != lmax) continue;
    err_of[e.degree] = e.error;
    if (degree > 0 ? e.degree == degree
                   : (e.error <= precision && (!found || e.degree < best.degree))) {
      best = e;
      found = 1;
    }
  }
  fclose(f);
  if (st < 0)
    lprintf("RHMC", 0, "warning: %s: malformed entry, the rest of the cache file is ignored\n",
            path);
  if (found && degree == 0 && best.degree > 1 && !(best.p == 1 && best.q == 1) &&
      !(err_of[best.degree - 1] > precision))
    found = 0; /* degree - 1 not known to fail: compute */
  if (found) *r = best;
  return found;
}

int rational_approx_cache_store(const char *path, const rational_approx *r) {
  if (path == NULL) path = rational_approx_default_cache();
  if (hr_rank() != 0) return 0;
  /* old content, kept as it is */
  char *old = NULL;
  size_t nold = 0;
  FILE *f = fopen(path, "r");
  if (f != NULL) {
    size_t cap = 0;
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
      if (nold + got > cap) {
        cap = 2 * (nold + got);
        char *t = realloc(old, cap);
        if (t == NULL) hr_error("out of memory reading %s", path);
        old = t;
      }
      memcpy(old + nold, buf, got);
      nold += got;
    }
    fclose(f);
  }
  hr_ofile *of = hr_ofile_open(path, "w");
  if (of == NULL) {
    lprintf("RHMC", 0, "warning: cannot write the rational-approximation cache %s: %s\n", path,
            strerror(errno));
    free(old);
    return -1;
  }
  FILE *o = hr_ofile_stream(of);
  if (nold == 0)
    fprintf(o, "# LibHR rational approximations r(x) = a0 + sum_k a_k / (x + b_k) of x^(-p/q) "
               "on [lmin, lmax]\n# (rational_approx.h); error = max |r(x) x^(p/q) - 1|. One "
               "entry: approx line, a0 line, degree pole lines (a_k b_k), end.\n");
  else
    fwrite(old, 1, nold, o);
  fprintf(o, "approx p=%d q=%d lmin=%.17g lmax=%.17g degree=%d error=%.6e\n", r->p, r->q,
          r->lmin, r->lmax, r->degree, r->error);
  fprintf(o, "a0 %.17g\n", r->a0);
  for (int k = 0; k < r->degree; k++) fprintf(o, "pole %.17g %.17g\n", r->a[k], r->b[k]);
  fprintf(o, "end\n");
  free(old);
  return hr_ofile_commit(of);
}

/* Compute, store and return 0; -1 with the message in err. */
static int compute_and_store(rational_approx *r, int p, int q, double lmin, double lmax,
                             int degree, const char *path, char *err, size_t errlen) {
  if (rational_approx_remez(r, p, q, lmin, lmax, degree, err, errlen) != 0) return -1;
  rational_approx_cache_store(path, r);
  return 0;
}

void rational_approx_get(rational_approx *r, int p, int q, double lmin, double lmax, int degree,
                         double precision, const char *path) {
  char err[512];
  if (path == NULL) path = rational_approx_default_cache();
  if (reduce(&p, &q) != 0 || !(lmin > 0) || !(lmax > lmin) || degree < 0 ||
      degree > RATIONAL_MAX_DEGREE || (degree == 0 && !(precision >= 1e-14)))
    hr_fatal(HR_EXIT_INPUT,
             "rational approximation of x^(%d/%d): need 0 < lmin < lmax (got [%g, %g]) and a "
             "degree in 1..%d or a precision >= 1e-14 (double precision)",
             -p, q, lmin, lmax, RATIONAL_MAX_DEGREE);
  if (rational_approx_cache_lookup(r, path, p, q, lmin, lmax, degree, precision)) {
    lprintf("RHMC", 10, "rational approximation x^(%d/%d) on [%g, %g]: degree %d, error %.3e (from %s)\n",
            -p, q, lmin, lmax, r->degree, r->error, path);
    return;
  }
  if (degree > 0) {
    if (compute_and_store(r, p, q, lmin, lmax, degree, path, err, sizeof err) != 0)
      hr_fatal(HR_EXIT_INPUT, "%s", err);
  } else {
    /* smallest degree meeting the precision: the error falls about geometrically with the
     * degree, so extrapolate from two degrees, then step to the minimal one */
    rational_approx t;
    int lo = 0, hi = 0; /* largest degree known to fail, smallest known to pass */
    int n = 4;
    double lo_err = INFINITY; /* error of degree lo */
    while (1) {
      if (!rational_approx_cache_lookup(&t, path, p, q, lmin, lmax, n, 0) &&
          compute_and_store(&t, p, q, lmin, lmax, n, path, err, sizeof err) != 0)
        hr_fatal(HR_EXIT_INPUT, "%s", err);
      if (t.error <= precision) {
        hi = n;
        *r = t;
      } else {
        if (lo > 0 && n > lo && !(t.error < 0.5 * lo_err))
          hr_fatal(HR_EXIT_INPUT,
                   "rational approximation of x^(%d/%d) on [%g, %g]: the error stalls at %.3e "
                   "(degree %d; double precision limit) above the precision %g",
                   -p, q, lmin, lmax, t.error, n, precision);
        lo = n;
        lo_err = t.error;
      }
      if (hi > 0 && hi == lo + 1) break;
      if (hi == 1 || (t.p == 1 && t.q == 1)) break;
      if (hi == 0) {
        if (n >= RATIONAL_MAX_DEGREE)
          hr_fatal(HR_EXIT_INPUT,
                   "rational approximation of x^(%d/%d) on [%g, %g]: degree %d reaches only "
                   "%.3e > precision %g",
                   -p, q, lmin, lmax, n, t.error, precision);
        /* extrapolate: error ~ C exp(-k n), k from error(n) and the step 4 -> n */
        int next = 2 * n;
        if (t.error > 0 && t.error < 1 && n >= 4) {
          const double k = -log(t.error) / n; /* crude rate: error(0) ~ 1 */
          next = (int)ceil(-log(precision) / k);
          if (next <= n) next = n + 1;
        }
        n = next > RATIONAL_MAX_DEGREE ? RATIONAL_MAX_DEGREE : next;
      } else {
        n = hi - 1 > lo ? hi - 1 : lo + 1;
        if (n <= lo) break;
      }
    }
  }
  lprintf("RHMC", 0, "rational approximation x^(%d/%d) on [%g, %g]: degree %d, maximal relative "
          "error %.3e (computed, stored in %s)\n",
          -p, q, lmin, lmax, r->degree, r->error, path);
}
