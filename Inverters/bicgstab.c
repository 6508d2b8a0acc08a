/* bicgstab.c -- BiCGstab for a general (non-Hermitian) invertible operator, e.g. the Wilson
 * or even/odd preconditioned Dirac operator, with complex coefficients; restarted from the
 * current solution when the recursive residual claims convergence but the recomputed true
 * residual does not meet the tolerance. */
#include "logger.h"
#include "solver_internal.h"

/* One BiCGstab cycle from the current x; returns when the recursive residual is below tol2
 * (absolute), at the iteration limit or on breakdown. Work fields w[0..4]. */
static hr_solver_status bicgstab_cycle(solver_run *run, const hr_linear_operator *A,
                                       const spinor_field *b, spinor_field *x, double tol2,
                                       spinor_field *w, double bb) {
  spinor_field *r = w, *rhat = w + 1, *p = w + 2, *v = w + 3, *t = w + 4;
  hr_solver_result *res = run->res;
  /* r = b - A x */
  A->apply(t, x, A->ctx);
  solver_count_apply(run, A, 0);
  sub_spinor_field(r, b, t);
  double rr = sqnorm_spinor_field(r);
  solver_count(run, LA_FLOP_SCALE + LA_FLOP_SQNORM);
  if (!solver_finite(rr)) return HR_SOLVER_BREAKDOWN;
  if (rr <= tol2) return HR_SOLVER_CONVERGED;
  copy_spinor_field(rhat, r);
  zero_spinor_field(p);
  zero_spinor_field(v);
  hr_complex rho = 1, alpha = 1, omega = 1;
  while (res->iterations < run->p->max_iter) {
    const hr_complex rho_new = prod_spinor_field(rhat, r);
    solver_count(run, LA_FLOP_CPROD);
    if (hr_cabs(rho_new) == 0 || !solver_finite(hr_creal(rho_new) + hr_cimag(rho_new))) {
      lprintf("INVERTER", 0, "%s: breakdown, <rhat, r> = 0 at iteration %d\n", run->name,
              res->iterations);
      return HR_SOLVER_BREAKDOWN;
    }
    const hr_complex beta = hr_cmul(rho_new / rho, alpha / omega);
    /* p = r + beta (p - omega v) */
    mulc_add_assign_spinor_field(p, -omega, v);
    mulc_spinor_field(p, beta, p);
    add_assign_spinor_field(p, r);
    solver_count(run, 2 * LA_FLOP_CAXPY + LA_FLOP_SCALE);
    A->apply(v, p, A->ctx);
    solver_count_apply(run, A, 0);
    const hr_complex rv = prod_spinor_field(rhat, v);
    solver_count(run, LA_FLOP_CPROD);
    alpha = rho_new / rv;
    if (!solver_finite(hr_creal(alpha) + hr_cimag(alpha))) return HR_SOLVER_BREAKDOWN;
    /* s = r - alpha v (in r) */
    mulc_add_assign_spinor_field(r, -alpha, v);
    const double ss = sqnorm_spinor_field(r);
    solver_count(run, LA_FLOP_CAXPY + LA_FLOP_SQNORM);
    res->iterations++;
    if (ss <= tol2) {
      mulc_add_assign_spinor_field(x, alpha, p);
      solver_count(run, LA_FLOP_CAXPY);
      solver_log_iter(run, res->iterations, sqrt(ss / bb));
      return HR_SOLVER_CONVERGED;
    }
    A->apply(t, r, A->ctx);
    solver_count_apply(run, A, 0);
    const double tt = sqnorm_spinor_field(t);
    const hr_complex ts = prod_spinor_field(t, r);
    solver_count(run, LA_FLOP_SQNORM + LA_FLOP_CPROD);
    if (!(tt > 0) || !solver_finite(tt)) return HR_SOLVER_BREAKDOWN;
    omega = ts / tt;
    /* x += alpha p + omega s; r = s - omega t */
    mulc_add_assign_spinor_field(x, alpha, p);
    mulc_add_assign_spinor_field(x, omega, r);
    mulc_add_assign_spinor_field(r, -omega, t);
    rr = sqnorm_spinor_field(r);
    solver_count(run, 3 * LA_FLOP_CAXPY + LA_FLOP_SQNORM);
    if (!solver_finite(rr)) return HR_SOLVER_BREAKDOWN;
    solver_log_iter(run, res->iterations, sqrt(rr / bb));
    if (rr <= tol2) return HR_SOLVER_CONVERGED;
    if (hr_cabs(omega) == 0) {
      lprintf("INVERTER", 0, "%s: breakdown, omega = 0 at iteration %d\n", run->name,
              res->iterations);
      return HR_SOLVER_BREAKDOWN;
    }
    rho = rho_new;
  }
  return HR_SOLVER_MAX_ITER;
}

hr_solver_status bicgstab_solve(spinor_field *x, const hr_linear_operator *A,
                                const spinor_field *b, const hr_solver_params *p,
                                hr_solver_result *res) {
  solver_run run;
  const int st = solver_begin(&run, "BiCGstab", A, b, x, p, res);
  if (st == SOLVER_DONE) return HR_SOLVER_CONVERGED;
  if (st != 0) return (hr_solver_status)st;
  spinor_field *w = solver_alloc(5, b->type);
  if (!p->initial_guess) zero_spinor_field(x);
  const double bb = run.bnorm * run.bnorm;
  const double tol2 = p->tol * p->tol * bb;
  hr_solver_status s = HR_SOLVER_MAX_ITER;
  double rel = INFINITY;
  for (int restart = 0; restart < 50; restart++) {
    s = bicgstab_cycle(&run, A, b, x, tol2, w, bb);
    rel = solver_true_residual(A, b, x, w);
    solver_count_apply(&run, A, 0);
    if (s != HR_SOLVER_CONVERGED || rel <= p->tol) break;
    s = HR_SOLVER_MAX_ITER;
    if (p->verbosity >= 1)
      lprintf("INVERTER", 10, "%s: restart at iteration %d, true residual %.3e\n", run.name,
              res->iterations, rel);
    if (res->iterations >= p->max_iter) break;
  }
  free_spinor_field_f(w);
  return solver_end(&run, s, rel);
}
