/* solver_internal.h -- helpers shared by the Krylov solvers of Inverters/ (not installed):
 * flop counts of the linear-algebra steps, timing, the start/finish bookkeeping of a solve
 * (norm of b, zero right-hand side, final true residual, status and log line), and the
 * checks of arguments. */
#ifndef SOLVER_INTERNAL_H
#define SOLVER_INTERNAL_H

#include <math.h>

#include "inverters.h"
#include "linear_algebra.h"

/* Real numbers in one spinor site, and flops per site of the linear-algebra steps. */
#define SOLVER_REALS (8.0 * NF)
#define LA_FLOP_AXPY (2.0 * SOLVER_REALS)    /* r += a s, p = r + b p */
#define LA_FLOP_SCALE (1.0 * SOLVER_REALS)   /* r = a s, r = s1 - s2 */
#define LA_FLOP_LC (3.0 * SOLVER_REALS)      /* r = a s1 + b s2 */
#define LA_FLOP_SQNORM (2.0 * SOLVER_REALS)  /* |s|^2, Re <r, s> */
#define LA_FLOP_CPROD (4.0 * SOLVER_REALS)   /* complex <r, s> */
#define LA_FLOP_CAXPY (4.0 * SOLVER_REALS)   /* r += z s (complex z) */
#define LA_FLOP_CG_UPDATE (6.0 * SOLVER_REALS)

/* Bookkeeping of one solve. */
typedef struct {
  const char *name;      /* label of the log lines */
  const hr_solver_params *p;
  hr_solver_result *res;
  double t0;             /* start time */
  double sites;          /* global master sites of the fields */
  double bnorm;          /* |b| */
} solver_run;

/* solver_begin's answer when nothing is left to do (b = 0: x = 0, converged). */
#define SOLVER_DONE (-1)
/* Start a solve: checks the arguments, fills defaults in res, computes |b|. Returns 0 to go
 * on, SOLVER_DONE (b = 0: x set to 0, res says converged), or a status to return at once
 * (HR_SOLVER_BAD_INPUT, HR_SOLVER_BREAKDOWN for a NaN in b). */
int solver_begin(solver_run *run, const char *name, const hr_linear_operator *A,
                 const spinor_field *b, spinor_field *x, const hr_solver_params *p,
                 hr_solver_result *res);
/* Count linear-algebra flops (per site) of the run. */
static inline void solver_count(solver_run *run, double flop_per_site) {
  run->res->flops += flop_per_site * run->sites;
}
/* Count operator applications. */
static inline void solver_count_apply(solver_run *run, const hr_linear_operator *A, int flt) {
  if (flt)
    run->res->applies_flt++;
  else
    run->res->applies++;
  run->res->flops += A->flops;
}
/* Whether a number is finite (not NaN or Inf). */
static inline int solver_finite(double v) { return isfinite(v); }
/* Log one iteration (verbosity 2). */
void solver_log_iter(const solver_run *run, int iter, double rel_residual);
/* Finish a solve: sets res->status / residual / seconds, logs the final line (non-convergence
 * at level 0 with what to do) and returns the status. `true_rel` is the recomputed true
 * relative residual; `status` what the loop ended with (converged is downgraded to
 * HR_SOLVER_MAX_ITER when true_rel > tol). */
hr_solver_status solver_end(solver_run *run, hr_solver_status status, double true_rel);

/* CG on A x = rhs from x (have_guess) or 0 until |rhs - A x|^2 <= tol2 (absolute), with
 * restarts when the recomputed true residual misses it; work fields w[0..2]; *rr_true gets
 * the final |rhs - A x|^2. Counts into run->res. */
hr_solver_status solver_cg_core(solver_run *run, const hr_linear_operator *A,
                                const spinor_field *rhs, spinor_field *x, int have_guess,
                                double tol2, spinor_field *w, double *rr_true);
/* The same with the iterations in single precision and reliable updates in double (needs
 * A->apply_flt); work fields w[0..1] (double) and wf[0..3] (single). */
hr_solver_status solver_cg_mixed_core(solver_run *run, const hr_linear_operator *A,
                                      const spinor_field *rhs, spinor_field *x, int have_guess,
                                      double tol2, spinor_field *w, spinor_field_flt *wf,
                                      double *rr_true);

/* Work fields: n double-precision fields on g (once per solve). */
spinor_field *solver_alloc(int n, const geometry_descriptor *g);
spinor_field_flt *solver_alloc_flt(int n, const geometry_descriptor *g);

#endif
