/* fermion_monomials.c -- the hmc and hasenbusch fermion monomials of fermion_monomials.h:
 * pseudofermion heatbath, action (mixed-precision CG to mt_prec) and force update (CG to
 * force_prec, optional chronological initial guess; the force pieces of fermion_force.c). */
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

static monomial_impl *impl_of(fermion_monomial *m) { return (monomial_impl *)m; }

void fermion_monomial_params_default(fermion_monomial_params *p) {
  p->kind = FERMION_MONOMIAL_HMC;
  p->m0 = 0;
  p->dm = 0;
  p->csw = 0;
  dirac_bc_default(&p->bc);
  p->mt_prec = 1e-14;
  p->force_prec = 1e-10;
  p->chrono = 0;
}

fermion_monomial *fermion_monomial_new(const fermion_monomial_params *p) {
  if (!(p->mt_prec > 0) || !(p->force_prec > 0))
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "fermion monomial: mt_prec = %g and force_prec = %g must be > 0", p->mt_prec,
                p->force_prec);
  if (p->chrono < 0 || p->chrono > FERMION_CHRONO_MAX)
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "fermion monomial: chrono = %d must be in 0..%d", p->chrono, FERMION_CHRONO_MAX);
  if (p->kind == FERMION_MONOMIAL_HASENBUSCH && !(p->dm >= 0))
    hr_error_at(HR_EXIT_INPUT, __FILE__, __LINE__, __func__,
                "hasenbusch monomial: dm = %g must be >= 0", p->dm);
  monomial_impl *im = calloc(1, sizeof *im);
  if (im == NULL) hr_error("out of memory for a fermion monomial");
  im->pub.par = *p;
  im->pub.phi = alloc_spinor_field(1, &glat_even);
  if (p->chrono > 0) im->pub.chrono_x = alloc_spinor_field(p->chrono, &glat_even);
  im->work = alloc_spinor_field(NWORK, &glat_even);
  im->acc = fermion_force_acc_new(p->csw);
  return &im->pub;
}

void fermion_monomial_free(fermion_monomial *m) {
  if (m == NULL) return;
  monomial_impl *im = impl_of(m);
  free_spinor_field(m->phi);
  free_spinor_field(m->chrono_x);
  free_spinor_field(im->work);
  fermion_force_acc_free(im->acc);
  free(im);
}

/* The operator of mass m0 + shift on u. */
static dirac_op monomial_op(const fermion_monomial *m, const suNg_field *u, double shift) {
  return dirac_op_make(u, m->par.m0 + shift, m->par.csw, &m->par.bc);
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
  m->iterations += res.iterations;
  m->solver_seconds += res.seconds;
  m->solver_flops += res.flops;
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
  if (m->par.kind == FERMION_MONOMIAL_HASENBUSCH) {
    dirac_op D2 = monomial_op(m, u, m->par.dm);
    s += 2 * clover_logdet(&D2, HR_PARITY_ODD);
  }
  return s;
}

double fermion_monomial_heatbath(fermion_monomial *m, const suNg_field *u) {
  monomial_impl *im = impl_of(m);
  spinor_field *eta = &im->work[W_X];
  m->iterations = 0;
  m->solver_seconds = m->solver_flops = 0;
  m->chrono_n = 0;
  gaussian_spinor_field(eta);
  dirac_op D = monomial_op(m, u, 0);
  dirac_zero_outer_slices(eta, &D); /* open boundaries: the quark fields of the inner slices */
  if (m->par.kind == FERMION_MONOMIAL_HMC) {
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

double fermion_monomial_action(fermion_monomial *m, const suNg_field *u) {
  monomial_impl *im = impl_of(m);
  spinor_field *x = &im->work[W_X], *psi = m->phi;
  dirac_op D = monomial_op(m, u, 0);
  if (m->par.kind == FERMION_MONOMIAL_HASENBUSCH) {
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

void fermion_monomial_force_update(fermion_monomial *m, const suNg_field *u, suNg_av_field *p,
                                   double eps) {
  monomial_impl *im = impl_of(m);
  spinor_field *x = &im->work[W_X], *y = &im->work[W_Y], *psi = m->phi;
  dirac_op D = monomial_op(m, u, 0), D2 = D;
  if (m->par.kind == FERMION_MONOMIAL_HASENBUSCH) {
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
  if (m->par.kind == FERMION_MONOMIAL_HASENBUSCH) {
    /* psi = Q2 phi: + 2 Re[x^+ dQ2 phi] = 2 Re[(g5 x)^+ dDhat2 phi] */
    g5_spinor_field(y, x);
    fermion_force_add_eo(im->acc, &D2, 2, y, m->phi);
    fermion_force_add_logdet(im->acc, &D2, 2, HR_PARITY_ODD);
  }
  fermion_force_apply(p, im->acc, &D, eps);
}
