/* fermion_monomials.c -- the monomial kinds hmc and hasenbusch (fermion_monomials.h, table of
 * hmc_monomials.c): their keys, pseudofermion heatbath, action (mixed-precision CG to mt_prec)
 * and force update (CG to force_prec, optional chronological initial guess; the force pieces
 * of fermion_force.c). */
#include "fermion_monomials.h"

#include <stdlib.h>

#include "clover.h"
#include "geometry.h"
#include "hr_error.h"
#include "inverters.h"
#include "linear_algebra.h"
#include "random_fields.h"

/* Work fields on glat_even. */
enum { W_X, W_Y, W_Z, NWORK };

/* What a monomial keeps besides the public struct: work fields and the force accumulator. */
typedef struct {
  fermion_monomial pub; /* first: a fermion_monomial * is a monomial_impl * */
  spinor_field *work;   /* NWORK fields on glat_even */
  fermion_force_acc *acc;
} monomial_impl;

extern const hmc_monomial_kind hmc_monomial_kind_hasenbusch;

/* The keys of an hmc or hasenbusch block (dm required and > 0 for hasenbusch). */
static void fermion_monomial_read(input_file *in, int index, hmc_monomial_params *p) {
  const int hasenbusch = p->kind == &hmc_monomial_kind_hasenbusch;
  const input_key keys[] = {
      HMC_KEY_MASS(&p->mass),
      {"dm", INPUT_DOUBLE, &p->dm, hasenbusch ? NULL : "0", hasenbusch ? ">0" : NULL,
       "hasenbusch: mass shift of the heavier operator (m0 + dm)"},
      HMC_KEY_LEVEL(&p->level),
      {"mt_prec", INPUT_DOUBLE, &p->mt_prec, HMC_DEFAULT_TEXT(HMC_DEFAULT_MT_PREC), ">0 <1",
       "relative residual of the solves of the action (start and end of a trajectory)"},
      HMC_KEY_FORCE_PREC(&p->force_prec),
      {"chrono", INPUT_INT, &p->chrono, "0", ">=0 <=" HMC_DEFAULT_TEXT(FERMION_CHRONO_MAX),
       "chronological initial guess of the force solves from the last n solutions (0: off)"},
      INPUT_KEYS_END};
  hmc_read_block_keys(in, "monomial", index, keys);
}

static void *fermion_monomial_init(const hmc_monomial_params *p) {
  if (!(p->mt_prec > 0) || !(p->force_prec > 0))
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "fermion monomial: mt_prec = %g and force_prec = %g must be > 0", p->mt_prec,
                p->force_prec);
  if (p->chrono < 0 || p->chrono > FERMION_CHRONO_MAX)
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "fermion monomial: chrono = %d must be in 0..%d", p->chrono, FERMION_CHRONO_MAX);
  const int hasenbusch = p->kind == &hmc_monomial_kind_hasenbusch;
  if (hasenbusch && !(p->dm >= 0))
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "hasenbusch monomial: dm = %g must be >= 0", p->dm);
  monomial_impl *im = calloc(1, sizeof *im);
  if (im == NULL) hr_error("out of memory for a fermion monomial");
  im->pub.par = *p;
  im->pub.hasenbusch = hasenbusch;
  im->pub.phi = alloc_spinor_field(1, &glat_even);
  if (p->chrono > 0) im->pub.chrono_x = alloc_spinor_field(p->chrono, &glat_even);
  im->work = alloc_spinor_field(NWORK, &glat_even);
  im->acc = fermion_force_acc_new(p->csw);
  return &im->pub;
}

static void fermion_monomial_free(void *data) {
  monomial_impl *im = data;
  free_spinor_field(im->pub.phi);
  free_spinor_field(im->pub.chrono_x);
  free_spinor_field(im->work);
  fermion_force_acc_free(im->acc);
  free(im);
}

static void fermion_monomial_solver_stats(const void *data, hmc_solver_stats *st) {
  const fermion_monomial *m = data;
  *st = m->solver;
}

/* The operator of mass m0 + shift on u. */
static dirac_op monomial_op(const fermion_monomial *m, const suNg_field *u, double shift) {
  return dirac_op_make(u, m->par.mass + shift, m->par.csw, &m->par.bc);
}

/* x = (Q^2)^-1 b by mixed-precision CG to tol (guess: start from x); stops if it fails. */
static void solve_q2(fermion_monomial *m, const dirac_op *D, const spinor_field *b,
                     spinor_field *x, double tol, int guess) {
  if (sqnorm_spinor_field(b) == 0) { /* e.g. phi = 0 before the first heatbath */
    zero_spinor_field(x);
    return;
  }
  hr_linear_operator A = dirac_linear_operator(D, DIRAC_FORM_QEO2);
  hr_solver_params sp;
  solver_params_default(&sp);
  sp.tol = tol;
  sp.max_iter = 100000;
  sp.initial_guess = guess;
  sp.name = "fermion monomial";
  hr_solver_result res;
  const hr_solver_status st = cg_mixed_solve(x, &A, b, &sp, &res);
  m->solver.iterations += res.iterations;
  m->solver.seconds += res.seconds;
  m->solver.flops += res.flops;
  if (st != HR_SOLVER_CONVERGED)
    hr_error_at(HR_EXIT_NUMERICS, __FILE__, __LINE__, __func__,
                "fermion monomial (m0 = %g, csw = %g): the solve of Q^2 stopped with '%s' at "
                "relative residual %g (tolerance %g)",
                D->m0, D->csw, solver_status_name(st), res.residual, tol);
}

/* The clover determinant terms: hmc -2 logdet_odd(m), hasenbusch -2 [logdet_odd(m) -
 * logdet_odd(m + dm)]; 0 without clover. */
static double det_action(const fermion_monomial *m, const suNg_field *u) {
  if (m->par.csw == 0) return 0;
  dirac_op D = monomial_op(m, u, 0);
  double s = -2 * clover_logdet(&D, HR_PARITY_ODD);
  if (m->hasenbusch) {
    dirac_op D2 = monomial_op(m, u, m->par.dm);
    s += 2 * clover_logdet(&D2, HR_PARITY_ODD);
  }
  return s;
}

static double fermion_monomial_heatbath(void *data, const suNg_field *u) {
  monomial_impl *im = data;
  fermion_monomial *m = &im->pub;
  spinor_field *eta = &im->work[W_X];
  m->solver = (hmc_solver_stats){0, 0.0, 0.0};
  m->chrono_n = 0;
  gaussian_spinor_field(eta);
  dirac_op D = monomial_op(m, u, 0);
  dirac_zero_outer_slices(eta, &D); /* open boundaries: the quark fields of the inner slices */
  if (!m->hasenbusch) {
    g5Dphi_eopre(m->phi, &D, eta); /* phi = Q eta */
  } else {
    /* phi = Q2^-1 Q1 eta = Q2 (Q2^2)^-1 Q1 eta */
    dirac_op D2 = monomial_op(m, u, m->par.dm);
    g5Dphi_eopre(&im->work[W_Y], &D, eta);
    solve_q2(m, &D2, &im->work[W_Y], &im->work[W_Z], m->par.mt_prec, 0);
    g5Dphi_eopre(m->phi, &D2, &im->work[W_Z]);
  }
  return sqnorm_spinor_field(eta) + det_action(m, u);
}

static double fermion_monomial_action(void *data, const suNg_field *u) {
  monomial_impl *im = data;
  fermion_monomial *m = &im->pub;
  spinor_field *x = &im->work[W_X], *psi = m->phi;
  dirac_op D = monomial_op(m, u, 0);
  if (m->hasenbusch) {
    dirac_op D2 = monomial_op(m, u, m->par.dm);
    psi = &im->work[W_Y];
    g5Dphi_eopre(psi, &D2, m->phi); /* psi = Q2 phi */
  }
  solve_q2(m, &D, psi, x, m->par.mt_prec, 0);
  return prod_re_spinor_field(psi, x) + det_action(m, u);
}

/* x = the chronological initial guess from the stored solutions (polynomial extrapolation
 * with k = min(chrono, stored) points: sum_j (-1)^j binom(k, j+1) x_{newest - j}); returns 0
 * when there is none. */
static int chrono_guess(const fermion_monomial *m, spinor_field *x) {
  const int k = m->chrono_n < m->par.chrono ? m->chrono_n : m->par.chrono;
  if (k == 0) return 0;
  zero_spinor_field(x);
  double binom = k; /* binom(k, j+1) for j = 0 */
  for (int j = 0; j < k; j++) {
    const int slot = (m->chrono_last - j + m->par.chrono) % m->par.chrono;
    mul_add_assign_spinor_field(x, (j % 2 ? -1.0 : 1.0) * binom, &m->chrono_x[slot]);
    binom = binom * (k - j - 1) / (j + 2);
  }
  return 1;
}

/* Store a force solution in the chronological history. */
static void chrono_store(fermion_monomial *m, const spinor_field *x) {
  if (m->par.chrono == 0) return;
  m->chrono_last = (m->chrono_last + 1) % m->par.chrono;
  copy_spinor_field(&m->chrono_x[m->chrono_last], x);
  if (m->chrono_n < m->par.chrono) m->chrono_n++;
}

static void fermion_monomial_force_update(void *data, const suNg_field *u, suNg_av_field *p,
                                          double eps) {
  monomial_impl *im = data;
  fermion_monomial *m = &im->pub;
  spinor_field *x = &im->work[W_X], *y = &im->work[W_Y], *psi = m->phi;
  dirac_op D = monomial_op(m, u, 0), D2 = D;
  if (m->hasenbusch) {
    D2 = monomial_op(m, u, m->par.dm);
    psi = &im->work[W_Z];
    g5Dphi_eopre(psi, &D2, m->phi); /* psi = Q2 phi */
  }
  /* x = (Q1^2)^-1 psi */
  const int guess = chrono_guess(m, x);
  solve_q2(m, &D, psi, x, m->par.force_prec, guess);
  chrono_store(m, x);
  fermion_force_acc_zero(im->acc);
  /* d[psi^+ (Q1^2)^-1 psi] at fixed psi = -2 Re[(Q1 x)^+ dQ1 x] = -2 Re[(Dhat1 x)^+ dDhat1 x] */
  Dphi_eopre(y, &D, x);
  fermion_force_add_eo(im->acc, &D, -2, y, x);
  fermion_force_add_logdet(im->acc, &D, -2, HR_PARITY_ODD);
  if (m->hasenbusch) {
    /* psi = Q2 phi: + 2 Re[x^+ dQ2 phi] = 2 Re[(g5 x)^+ dDhat2 phi] */
    g5_spinor_field(y, x);
    fermion_force_add_eo(im->acc, &D2, 2, y, m->phi);
    fermion_force_add_logdet(im->acc, &D2, 2, HR_PARITY_ODD);
  }
  fermion_force_apply(p, im->acc, &D, eps);
}

/* hmc and hasenbusch: the same functions, which tell them apart by the kind. */
HMC_MONOMIAL_KIND(hmc, "hmc", 1, fermion_monomial);
HMC_MONOMIAL_KIND(hasenbusch, "hasenbusch", 1, fermion_monomial);
