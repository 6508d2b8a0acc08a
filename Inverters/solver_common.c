/* solver_common.c -- what every Krylov solver shares: default parameters, status names,
 * the true residual, timing, start and end of a solve (argument checks, |b|, the final log
 * line and the non-convergence message) and work-field allocation. */

#include "communications.h"
#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"
#include "solver_internal.h"

void solver_params_default(hr_solver_params *p) {
  p->tol = 1e-10;
  p->max_iter = 10000;
  p->verbosity = 0;
  p->delta = 0.1;
  p->initial_guess = 0;
  p->name = NULL;
}

const char *solver_status_name(hr_solver_status s) {
  switch (s) {
  case HR_SOLVER_CONVERGED: return "converged";
  case HR_SOLVER_MAX_ITER: return "NOT converged: iteration limit reached";
  case HR_SOLVER_BREAKDOWN: return "NOT converged: breakdown (NaN/Inf or zero denominator)";
  case HR_SOLVER_BAD_INPUT: return "NOT run: invalid arguments";
  }
  return "unknown status";
}

double solver_global_sites(const geometry_descriptor *g) {
  double n = (double)g->master_sites;
  global_sum(&n, 1);
  return n;
}

double solver_true_residual(const hr_linear_operator *A, const spinor_field *b,
                            const spinor_field *x, spinor_field *tmp) {
  A->apply(tmp, x, A->ctx);
  sub_spinor_field(tmp, b, tmp);
  const double bb = sqnorm_spinor_field(b);
  const double rr = sqnorm_spinor_field(tmp);
  return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

int solver_begin(solver_run *run, const char *name, const hr_linear_operator *A,
                 const spinor_field *b, spinor_field *x, const hr_solver_params *p,
                 hr_solver_result *res) {
  run->name = (p != NULL && p->name != NULL) ? p->name : name;
  run->p = p;
  run->res = res;
  run->t0 = hr_wtime();
  res->status = HR_SOLVER_BAD_INPUT;
  res->iterations = 0;
  res->residual = INFINITY;
  res->reliable_updates = 0;
  res->applies = res->applies_flt = 0;
  res->flops = 0;
  res->seconds = 0;
  const char *bad = NULL;
  if (p == NULL || !(p->tol > 0) || p->max_iter < 0)
    bad = "tolerance must be > 0 and max_iter >= 0";
  else if (A == NULL || A->apply == NULL)
    bad = "no operator";
  else if (b == NULL || x == NULL || b == x || b->ptr == x->ptr)
    bad = "b and x must be two different fields";
  else if (b->type != x->type)
    bad = "b and x must live on the same geometry";
  if (bad != NULL) {
    lprintf("INVERTER", 0, "%s: %s\n", run->name, bad);
    return HR_SOLVER_BAD_INPUT;
  }
  run->sites = solver_global_sites(b->type);
  run->bnorm = sqrt(sqnorm_spinor_field(b));
  solver_count(run, LA_FLOP_SQNORM);
  if (!solver_finite(run->bnorm)) {
    lprintf("INVERTER", 0, "%s: the right-hand side holds NaN or Inf\n", run->name);
    res->status = HR_SOLVER_BREAKDOWN;
    return HR_SOLVER_BREAKDOWN;
  }
  if (run->bnorm == 0) { /* the solution is x = 0 */
    zero_spinor_field(x);
    res->residual = 0;
    res->status = HR_SOLVER_CONVERGED;
    lprintf("INVERTER", 10, "%s: zero right-hand side, x = 0\n", run->name);
    return SOLVER_DONE;
  }
  return 0;
}

void solver_log_iter(const solver_run *run, int iter, double rel_residual) {
  if (run->p->verbosity >= 2)
    lprintf("INVERTER", 10, "%s: iteration %d residual %.6e\n", run->name, iter, rel_residual);
}

hr_solver_status solver_end(solver_run *run, hr_solver_status status, double true_rel) {
  hr_solver_result *res = run->res;
  if (!solver_finite(true_rel)) status = HR_SOLVER_BREAKDOWN;
  if (status == HR_SOLVER_CONVERGED && !(true_rel <= run->p->tol)) status = HR_SOLVER_MAX_ITER;
  res->status = status;
  res->residual = true_rel;
  res->seconds = hr_wtime() - run->t0;
  if (status == HR_SOLVER_CONVERGED) {
    lprintf("INVERTER", 10,
            "%s: converged in %d iterations (%d reliable updates), true residual %.3e "
            "(tol %.1e), %.3f s\n",
            run->name, res->iterations, res->reliable_updates, true_rel, run->p->tol,
            res->seconds);
  } else {
    lprintf("INVERTER", 0,
            "%s: %s after %d iterations: true residual |b-Ax|/|b| = %.3e, tolerance %.1e. "
            "The solution is NOT accurate; raise the iteration limit, loosen the tolerance or "
            "check the operator (mass, gauge field)\n",
            run->name, solver_status_name(status), res->iterations, true_rel, run->p->tol);
  }
  return status;
}

spinor_field *solver_alloc(int n, const geometry_descriptor *g) {
  return alloc_spinor_field_f(n, g);
}
spinor_field_flt *solver_alloc_flt(int n, const geometry_descriptor *g) {
  return alloc_spinor_field_f_flt(n, g);
}
