/* minres.c -- MINRES (Paige and Saunders) for a Hermitian, possibly indefinite operator such
 * as Q = gamma5 D: Lanczos with real coefficients and Givens rotations, minimising |b - A x|
 * over the Krylov space; the residual estimate is checked against the recomputed true
 * residual and the method restarted from the current x when they disagree. */
#include "logger.h"
#include "solver_internal.h"

/* One MINRES cycle on A x = b from the current x (the Lanczos vectors start from
 * r0 = b - A x). Work fields w[0..6]. Returns when the residual estimate is below tol_abs. */
static hr_solver_status minres_cycle(solver_run *run, const hr_linear_operator *A,
                                     const spinor_field *b, spinor_field *x, double tol_abs,
                                     spinor_field *w, double bnorm) {
  spinor_field *r1 = w, *r2 = w + 1, *y = w + 2, *v = w + 3;
  spinor_field *wa = w + 4, *wb = w + 5, *wc = w + 6; /* w_{k-2}, w_{k-1}, w_k */
  hr_solver_result *res = run->res;
  /* r2 = b - A x (r1 is first read at the second iteration) */
  A->apply(y, x, A->ctx);
  solver_count_apply(run, A, 0);
  sub_spinor_field(r2, b, y);
  const double beta1 = sqrt(sqnorm_spinor_field(r2));
  solver_count(run, LA_FLOP_SCALE + LA_FLOP_SQNORM);
  if (!solver_finite(beta1)) return HR_SOLVER_BREAKDOWN;
  if (beta1 <= tol_abs) return HR_SOLVER_CONVERGED;
  zero_spinor_field(wb);
  zero_spinor_field(wc);
  double oldb = 0, beta = beta1, dbar = 0, epsln = 0, phibar = beta1, cs = -1, sn = 0;
  for (int k = 0; res->iterations < run->p->max_iter; k++) {
    mul_spinor_field(v, 1. / beta, r2);
    A->apply(y, v, A->ctx);
    solver_count_apply(run, A, 0);
    if (k > 0) mul_add_assign_spinor_field(y, -beta / oldb, r1);
    const double alfa = prod_re_spinor_field(v, y);
    mul_add_assign_spinor_field(y, -alfa / beta, r2);
    /* r1 <- r2, r2 <- y; the old r1 becomes the free field y */
    spinor_field *old_r1 = r1;
    r1 = r2;
    r2 = y;
    y = old_r1;
    oldb = beta;
    beta = sqrt(sqnorm_spinor_field(r2));
    solver_count(run, LA_FLOP_SCALE + 2 * LA_FLOP_AXPY + 2 * LA_FLOP_SQNORM);
    const double oldeps = epsln;
    const double delta = cs * dbar + sn * alfa;
    const double gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    const double gamma = sqrt(gbar * gbar + beta * beta);
    res->iterations++;
    if (!solver_finite(gamma) || gamma == 0) {
      lprintf("INVERTER", 0, "%s: breakdown (gamma = %g) at iteration %d\n", run->name, gamma,
              res->iterations);
      return HR_SOLVER_BREAKDOWN;
    }
    cs = gbar / gamma;
    sn = beta / gamma;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    /* w_k = (v - oldeps w_{k-2} - delta w_{k-1}) / gamma, rotating wa <- wb <- wc <- new */
    spinor_field *t = wa;
    wa = wb;
    wb = wc;
    wc = t;
    lc_spinor_field(wc, -oldeps / gamma, wa, -delta / gamma, wb);
    mul_add_assign_spinor_field(wc, 1. / gamma, v);
    mul_add_assign_spinor_field(x, phi, wc);
    solver_count(run, LA_FLOP_LC + 2 * LA_FLOP_AXPY);
    solver_log_iter(run, res->iterations, phibar / bnorm);
    if (phibar <= tol_abs) return HR_SOLVER_CONVERGED;
    if (beta == 0) return HR_SOLVER_CONVERGED; /* invariant subspace: exact solution */
  }
  return HR_SOLVER_MAX_ITER;
}

hr_solver_status minres_solve(spinor_field *x, const hr_linear_operator *A,
                              const spinor_field *b, const hr_solver_params *p,
                              hr_solver_result *res) {
  solver_run run;
  const int st = solver_begin(&run, "MINRES", A, b, x, p, res);
  if (st == SOLVER_DONE) return HR_SOLVER_CONVERGED;
  if (st != 0) return (hr_solver_status)st;
  spinor_field *w = solver_alloc(7, b->type);
  if (!p->initial_guess) zero_spinor_field(x);
  hr_solver_status s = HR_SOLVER_MAX_ITER;
  double rel = INFINITY;
  for (int restart = 0; restart < 50; restart++) {
    s = minres_cycle(&run, A, b, x, p->tol * run.bnorm, w, run.bnorm);
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
