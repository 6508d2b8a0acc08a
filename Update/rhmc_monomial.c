/* rhmc_monomial.c -- the rhmc monomial of rhmc_monomial.h: nf flavours through rational
 * approximations of powers of Q^2 (multi-shift mixed-precision CG), the force as a sum over
 * the poles of the hmc force kernel (fermion_force_add_eo), the odd-site clover determinant to
 * the power nf/2, the spectral-range estimate of Q^2; its keys and its entry of the table of
 * monomial kinds (hmc_monomials.c). */
#include "rhmc_monomial.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clover.h"
#include "fermion_monomials.h"
#include "geometry.h"
#include "hr_error.h"
#include "inverters.h"
#include "linear_algebra.h"
#include "logger.h"
#include "random.h"
#include "random_fields.h"

/* What a monomial keeps besides the public struct. */
typedef struct {
  rhmc_monomial pub;  /* first: an rhmc_monomial * is an rhmc_impl * */
  spinor_field *chi;  /* one solution per pole (the larger degree of act and hb) */
  spinor_field *work; /* 2 fields: eta / Dhat chi */
  fermion_force_acc *acc;
} rhmc_impl;

/* The keys of an rhmc block; range parsed into lmin, lmax; nf at most 3. */
static void rhmc_monomial_read(input_file *in, int index, hmc_monomial_params *p) {
  char range[INPUT_STRING_MAX] = "";
  const input_key keys[] = {
      {"nf", INPUT_INT, &p->nf, NULL, ">=1", "flavours: 1, 2 or 3"},
      HMC_KEY_MASS(&p->mass),
      HMC_KEY_LEVEL(&p->level),
      {"range", INPUT_STRING, range, NULL, NULL,
       "lmin lmax: spectral range of Q^2 of the rational approximations"},
      {"degree", INPUT_INT, &p->degree, "0", ">=0 <=64",
       "degree of the approximation of x^(-nf/2) (0: the smallest meeting precision)"},
      {"precision", INPUT_DOUBLE, &p->precision, "0", ">=0 <1",
       "maximal relative error of the approximation (0: 1e-10 without degree, no check with)"},
      {"mt_prec", INPUT_DOUBLE, &p->mt_prec, HMC_DEFAULT_TEXT(HMC_DEFAULT_MT_PREC), ">0 <1",
       "relative residual of the solves of the heatbath and the action"},
      HMC_KEY_FORCE_PREC(&p->force_prec),
      {"meas freq", INPUT_INT, &p->meas_freq, "1", ">=0",
       "spectral range of Q^2 checked every n trajectories (0: at the start only)"},
      {"strict", INPUT_BOOL, &p->strict, "false", NULL,
       "stop the run when the spectrum leaves the range"},
      {"cache", INPUT_STRING, p->cache, "", NULL,
       "cache file of the rational approximations (empty: $HR_RATIONAL_CACHE or "
       "rational_approx.cache)"},
      INPUT_KEYS_END};
  hmc_read_block_keys(in, "monomial", index, keys);
  char *end = NULL;
  p->lmin = strtod(range, &end);
  const char *rest = end;
  p->lmax = strtod(rest, &end);
  while (end != NULL && (*end == ' ' || *end == '\t')) end++;
  if (end == rest || rest == range || end == NULL || *end != '\0' || !(p->lmin > 0) ||
      !(p->lmax > p->lmin))
    input_fail_block(in, "monomial", index, "range",
                     "'%s': give two numbers 0 < lmin < lmax (the spectral range of Q^2)", range);
  if (p->nf > 3)
    input_fail_block(in, "monomial", index, "nf",
                     "nf = %d: one rhmc monomial takes nf = 1, 2 or 3 (powers of Q^2 with a "
                     "partial-fraction form); stack several monomials (e.g. 5 = 2 + 3)",
                     p->nf);
  if (p->degree == 0 && p->precision == 0) p->precision = 1e-10;
}

static void *rhmc_monomial_init(const hmc_monomial_params *p) {
  if (p->nf < 1 || !(p->mt_prec > 0) || !(p->force_prec > 0) || !(p->lmin > 0) ||
      !(p->lmax > p->lmin) || p->degree < 0 || p->degree > RATIONAL_MAX_DEGREE ||
      (p->degree == 0 && !(p->precision > 0)) || p->meas_freq < 0)
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "rhmc monomial: need nf >= 1 (%d), mt_prec, force_prec > 0 (%g, %g), 0 < lmin "
                "< lmax ([%g, %g]), degree in 0..%d (%d; 0 needs precision > 0: %g), meas_freq "
                ">= 0 (%d)",
                p->nf, p->mt_prec, p->force_prec, p->lmin, p->lmax, RATIONAL_MAX_DEGREE,
                p->degree, p->precision, p->meas_freq);
  if (p->nf > 3)
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "rhmc monomial: nf = %d: one monomial takes nf = 1, 2 or 3 (powers of Q^2 "
                "with a partial-fraction form); stack several (e.g. 5 = 2 + 3)",
                p->nf);
  rhmc_impl *im = calloc(1, sizeof *im);
  if (im == NULL) hr_error("out of memory for an rhmc monomial");
  rhmc_monomial *m = &im->pub;
  m->par = *p;
  const char *cache = p->cache[0] ? p->cache : NULL;
  /* action: x^(-nf/2); heatbath x^(nf/4) to the error the action's approximation reached */
  rational_approx_get(&m->act, p->nf, 2, p->lmin, p->lmax, p->degree, p->precision, cache);
  if (p->degree > 0 && p->precision > 0 && m->act.error > p->precision)
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "rhmc monomial: the approximation of degree %d reaches %.3e, more than the "
                "precision %g: raise the degree or leave it out",
                p->degree, m->act.error, p->precision);
  /* the heatbath's approximation to the action's error (or the requested precision when that
   * is larger, e.g. nf = 2 whose x^-1 is exact), not below what double precision resolves */
  double hb_prec = m->act.error;
  if (p->precision > hb_prec) hb_prec = p->precision;
  if (hb_prec < 1e-13) hb_prec = 1e-13;
  rational_approx_get(&m->hb, -p->nf, 4, p->lmin, p->lmax, 0, hb_prec, cache);
  const int nmax = m->act.degree > m->hb.degree ? m->act.degree : m->hb.degree;
  m->phi = alloc_spinor_field(1, &glat_even);
  im->chi = alloc_spinor_field(nmax, &glat_even);
  im->work = alloc_spinor_field(2, &glat_even);
  im->acc = fermion_force_acc_new(p->csw);
  m->spec_min = m->spec_max = NAN;
  return im;
}

static void rhmc_monomial_free(void *data) {
  rhmc_impl *im = data;
  rhmc_monomial *m = &im->pub;
  free_spinor_field(m->phi);
  free_spinor_field(im->chi);
  free_spinor_field(im->work);
  fermion_force_acc_free(im->acc);
  free(im);
}

static dirac_op rhmc_op(const rhmc_monomial *m, const suNg_field *u) {
  return dirac_op_make(u, m->par.mass, m->par.csw, &m->par.bc);
}

/* chi_k = (Q^2 + b_k)^-1 b for the poles of r (mixed-precision multi-shift CG to tol). */
static void solve_shifts(rhmc_monomial *m, const dirac_op *D, const rational_approx *r,
                         const spinor_field *b, spinor_field *chi, double tol) {
  if (sqnorm_spinor_field(b) == 0) {
    for (int k = 0; k < r->degree; k++) zero_spinor_field(&chi[k]);
    return;
  }
  hr_linear_operator A = dirac_linear_operator(D, DIRAC_FORM_QEO2);
  hr_solver_params sp;
  solver_params_default(&sp);
  sp.tol = tol;
  sp.max_iter = 100000;
  sp.name = "rhmc monomial";
  hr_solver_result res[RATIONAL_MAX_DEGREE];
  const hr_solver_status st = cg_mshift_mixed_solve(chi, &A, r->degree, r->b, b, &sp, res);
  /* the shared Krylov iterations are counted in every shift's result: take the largest */
  long it = 0;
  double sec = 0, fl = 0;
  for (int k = 0; k < r->degree; k++) {
    if (res[k].iterations > it) it = res[k].iterations;
    if (res[k].seconds > sec) sec = res[k].seconds;
    if (res[k].flops > fl) fl = res[k].flops;
  }
  m->solver.iterations += it;
  m->solver.seconds += sec;
  m->solver.flops += fl;
  if (st != HR_SOLVER_CONVERGED)
    hr_error_at(HR_EXIT_NUMERICS, __FILE__, __LINE__, __func__,
                "rhmc monomial (m0 = %g, csw = %g): the multi-shift solve stopped with '%s' "
                "(tolerance %g)",
                D->m0, D->csw, solver_status_name(st), tol);
}

/* out = r(Q^2) in, by the poles (chi: work solutions). */
static void apply_rational(rhmc_monomial *m, const dirac_op *D, const rational_approx *r,
                           spinor_field *out, const spinor_field *in, spinor_field *chi,
                           double tol) {
  solve_shifts(m, D, r, in, chi, tol);
  mul_spinor_field(out, r->a0, in);
  for (int k = 0; k < r->degree; k++) mul_add_assign_spinor_field(out, r->a[k], &chi[k]);
}

/* (nf/2) S_det = -nf sum_{x odd} log det(4 + m0 + C(x)); 0 without clover. */
static double det_action(const rhmc_monomial *m, const suNg_field *u) {
  if (m->par.csw == 0) return 0;
  dirac_op D = rhmc_op(m, u);
  return -m->par.nf * clover_logdet(&D, HR_PARITY_ODD);
}

static double rhmc_monomial_action(void *data, const suNg_field *u) {
  rhmc_impl *im = data;
  rhmc_monomial *m = &im->pub;
  dirac_op D = rhmc_op(m, u);
  const rational_approx *r = &m->act;
  solve_shifts(m, &D, r, m->phi, im->chi, m->par.mt_prec);
  double s = r->a0 * sqnorm_spinor_field(m->phi);
  for (int k = 0; k < r->degree; k++) s += r->a[k] * prod_re_spinor_field(m->phi, &im->chi[k]);
  return s + det_action(m, u);
}

static double rhmc_monomial_heatbath(void *data, const suNg_field *u) {
  rhmc_impl *im = data;
  rhmc_monomial *m = &im->pub;
  if (m->heatbaths == 0 || (m->par.meas_freq > 0 && m->heatbaths % m->par.meas_freq == 0))
    rhmc_monomial_check_spectrum(m, u);
  m->heatbaths++;
  m->solver = (hmc_solver_stats){0, 0.0, 0.0};
  spinor_field *eta = &im->work[0];
  gaussian_spinor_field(eta);
  dirac_op D = rhmc_op(m, u);
  dirac_zero_outer_slices(eta, &D); /* open boundaries: the quark fields of the inner slices */
  apply_rational(m, &D, &m->hb, m->phi, eta, im->chi, m->par.mt_prec);
  /* the action of phi itself (eta^+ eta + (nf/2) S_det up to the approximations' errors), so
   * that dH measures the integration only */
  return rhmc_monomial_action(im, u);
}

static void rhmc_monomial_force_update(void *data, const suNg_field *u, suNg_av_field *p,
                                       double eps) {
  rhmc_impl *im = data;
  rhmc_monomial *m = &im->pub;
  dirac_op D = rhmc_op(m, u);
  const rational_approx *r = &m->act;
  spinor_field *y = &im->work[1];
  solve_shifts(m, &D, r, m->phi, im->chi, m->par.force_prec);
  fermion_force_acc_zero(im->acc);
  /* d[phi^+ (Q^2 + b)^-1 phi] = -2 Re[(Dhat chi)^+ dDhat chi], chi = (Q^2 + b)^-1 phi: the hmc
   * kernel of every pole, weighted by its residue */
  for (int k = 0; k < r->degree; k++) {
    Dphi_eopre(y, &D, &im->chi[k]);
    fermion_force_add_eo(im->acc, &D, -2 * r->a[k], y, &im->chi[k]);
  }
  fermion_force_add_logdet(im->acc, &D, -m->par.nf, HR_PARITY_ODD);
  fermion_force_apply(p, im->acc, &D, eps);
}

/* ------------------------------------------------------------------ spectral range */

/* Eigenvalues of the symmetric tridiagonal matrix (diagonal al, off-diagonal be) below x. */
static int sturm_count(const double *al, const double *be, int k, double x) {
  int c = 0;
  double d = 1;
  for (int i = 0; i < k; i++) {
    d = al[i] - x - (i > 0 ? be[i - 1] * be[i - 1] / d : 0);
    if (d == 0) d = 1e-300;
    if (d < 0) c++;
  }
  return c;
}

/* The j-th smallest eigenvalue (j = 0: smallest) of the tridiagonal matrix, by bisection. */
static double tridiag_eig(const double *al, const double *be, int k, int j) {
  double lo = al[0], hi = al[0];
  for (int i = 0; i < k; i++) {
    const double r = (i > 0 ? fabs(be[i - 1]) : 0) + (i + 1 < k ? fabs(be[i]) : 0);
    if (al[i] - r < lo) lo = al[i] - r;
    if (al[i] + r > hi) hi = al[i] + r;
  }
  for (int it = 0; it < 200 && hi - lo > 1e-15 * (fabs(lo) + fabs(hi)); it++) {
    const double mid = 0.5 * (lo + hi);
    if (sturm_count(al, be, k, mid) > j) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

void dirac_q2_spectrum(double *lmin, double *lmax, const dirac_op *D, int niter, int nlanczos) {
  hr_linear_operator A = dirac_linear_operator(D, DIRAC_FORM_QEO2);
  spinor_field *v = alloc_spinor_field(3, &glat_even);
  /* power iteration for the largest eigenvalue */
  double pmax = 0;
  gaussian_spinor_field(&v[0]);
  /* open boundaries: the spectrum of the inner block (the outer one is the identity) */
  dirac_zero_outer_slices(&v[0], D);
  mul_spinor_field(&v[0], 1 / sqrt(sqnorm_spinor_field(&v[0])), &v[0]);
  for (int it = 0; it < niter; it++) {
    A.apply(&v[1], &v[0], A.ctx);
    pmax = prod_re_spinor_field(&v[0], &v[1]); /* Rayleigh quotient */
    mul_spinor_field(&v[0], 1 / sqrt(sqnorm_spinor_field(&v[1])), &v[1]);
  }
  /* Lanczos from a fresh random vector, without reorthogonalisation (extremal Ritz values) */
  double *al = malloc((size_t)(nlanczos + 1) * sizeof(double));
  double *be = malloc((size_t)(nlanczos + 1) * sizeof(double));
  if (al == NULL || be == NULL) hr_error("out of memory");
  spinor_field *vp = &v[0], *vc = &v[1], *w = &v[2];
  zero_spinor_field(vp);
  gaussian_spinor_field(vc);
  dirac_zero_outer_slices(vc, D);
  mul_spinor_field(vc, 1 / sqrt(sqnorm_spinor_field(vc)), vc);
  int k = 0;
  for (int j = 0; j < nlanczos; j++) {
    A.apply(w, vc, A.ctx);
    if (j > 0) mul_add_assign_spinor_field(w, -be[j - 1], vp);
    al[j] = prod_re_spinor_field(vc, w);
    mul_add_assign_spinor_field(w, -al[j], vc);
    be[j] = sqrt(sqnorm_spinor_field(w));
    k = j + 1;
    if (be[j] <= 1e-12 * fabs(al[j])) break; /* invariant subspace */
    spinor_field *t = vp;
    vp = vc;
    vc = w;
    w = t;
    mul_spinor_field(vc, 1 / be[j], vc);
  }
  *lmin = tridiag_eig(al, be, k, 0);
  const double lmaxl = tridiag_eig(al, be, k, k - 1);
  *lmax = lmaxl > pmax ? lmaxl : pmax;
  free(al);
  free(be);
  free_spinor_field(v);
}

int rhmc_monomial_check_spectrum(rhmc_monomial *m, const suNg_field *u) {
  dirac_op D = rhmc_op(m, u);
  /* the random start vectors must not move the run's random sequence (restarts, meas_freq) */
  const hr_rng_state st = rng_get_state();
  dirac_q2_spectrum(&m->spec_min, &m->spec_max, &D, 50, 100);
  rng_set_state(st);
  const int inside = m->spec_min >= m->par.lmin && m->spec_max <= m->par.lmax;
  lprintf("RHMC", 10, "rhmc (nf = %d, m0 = %g): spectral range of Q^2 [%.4e, %.4e], "
          "approximation range [%g, %g]\n",
          m->par.nf, m->par.mass, m->spec_min, m->spec_max, m->par.lmin, m->par.lmax);
  if (!inside) {
    lprintf("RHMC", 0, "rhmc (nf = %d, m0 = %g): the spectral range of Q^2 [%.4e, %.4e] is "
            "outside the range [%g, %g] of the rational approximation%s\n",
            m->par.nf, m->par.mass, m->spec_min, m->spec_max, m->par.lmin, m->par.lmax,
            m->par.strict ? "" : " (the run continues: strict = false)");
    if (m->par.strict)
      hr_fatal(HR_EXIT_NUMERICS,
               "rhmc (nf = %d): spectrum [%.4e, %.4e] outside the approximation range [%g, %g] "
               "(strict = true): widen `range`",
               m->par.nf, m->spec_min, m->spec_max, m->par.lmin, m->par.lmax);
  }
  return inside;
}

/* ------------------------------------------------------------------ the kind */

static void rhmc_monomial_solver_stats(const void *data, hmc_solver_stats *st) {
  const rhmc_monomial *m = data;
  *st = m->solver;
}

HMC_MONOMIAL_KIND(rhmc, "rhmc", 1, rhmc_monomial);
