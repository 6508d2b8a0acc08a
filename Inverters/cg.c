/* cg.c -- conjugate gradient on Hermitian positive definite operators: plain double
 * precision (cg_solve), mixed precision with reliable updates (cg_mixed_solve), and the
 * CGNE / CGNR drivers for general operators M through the normal operators M M^+ / M^+ M. */
#include "hr_error.h"
#include "logger.h"
#include "solver_internal.h"

/* ------------------------------------------------------------------ double precision */

/* CG on A x = rhs from the x given (have_guess) or from x = 0, until |rhs - A x|^2 <= tol2
 * (absolute). Work fields w[0..2]. When the recursive residual claims convergence the true
 * residual is recomputed; if it does not meet tol2, CG restarts from the current x. On
 * return *rr_true = |rhs - A x|^2 recomputed (or the exact initial value). */
hr_solver_status solver_cg_core(solver_run *run, const hr_linear_operator *A,
                                const spinor_field *rhs, spinor_field *x, int have_guess,
                                double tol2, spinor_field *w, double *rr_true) {
  spinor_field *r = w, *p = w + 1, *q = w + 2;
  hr_solver_result *res = run->res;
  const int max_iter = run->p->max_iter;
  if (have_guess) {
    A->apply(q, x, A->ctx);
    solver_count_apply(run, A, 0);
    sub_spinor_field(r, rhs, q);
    solver_count(run, LA_FLOP_SCALE);
  } else {
    zero_spinor_field(x);
    copy_spinor_field(r, rhs);
  }
  double rr = sqnorm_spinor_field(r);
  solver_count(run, LA_FLOP_SQNORM);
  *rr_true = rr;
  const double rhs2 = sqnorm_spinor_field(rhs);
  for (int restart = 0;; restart++) {
    if (!solver_finite(rr)) return HR_SOLVER_BREAKDOWN;
    if (rr <= tol2) return HR_SOLVER_CONVERGED;
    if (res->iterations >= max_iter) return HR_SOLVER_MAX_ITER;
    if (restart > 0 && run->p->verbosity >= 1)
      lprintf("INVERTER", 10, "%s: restart %d at iteration %d, true residual %.3e\n", run->name,
              restart, res->iterations, sqrt(rr / rhs2));
    copy_spinor_field(p, r);
    while (res->iterations < max_iter) {
      A->apply(q, p, A->ctx);
      solver_count_apply(run, A, 0);
      const double pq = prod_re_spinor_field(p, q);
      solver_count(run, LA_FLOP_SQNORM);
      if (!solver_finite(pq) || pq <= 0) {
        lprintf("INVERTER", 0, "%s: <p, A p> = %g at iteration %d: the operator is not "
                "positive definite or the numbers broke down\n", run->name, pq, res->iterations);
        return HR_SOLVER_BREAKDOWN;
      }
      const double alpha = rr / pq;
      const double rr_new = cg_update_spinor_field(x, r, alpha, p, q);
      solver_count(run, LA_FLOP_CG_UPDATE);
      res->iterations++;
      if (!solver_finite(rr_new)) return HR_SOLVER_BREAKDOWN;
      solver_log_iter(run, res->iterations, sqrt(rr_new / rhs2));
      if (rr_new <= tol2) {
        rr = rr_new;
        break;
      }
      cg_direction_spinor_field(p, rr_new / rr, r);
      solver_count(run, LA_FLOP_AXPY);
      rr = rr_new;
    }
    /* true residual */
    A->apply(q, x, A->ctx);
    solver_count_apply(run, A, 0);
    sub_spinor_field(r, rhs, q);
    rr = sqnorm_spinor_field(r);
    solver_count(run, LA_FLOP_SCALE + LA_FLOP_SQNORM);
    *rr_true = rr;
    if (restart >= 50) return rr <= tol2 ? HR_SOLVER_CONVERGED : HR_SOLVER_MAX_ITER;
  }
}

/* ------------------------------------------------------------------ mixed precision */

/* Mixed-precision CG with reliable updates on A x = rhs (see cg_mixed_solve). Work fields:
 * w[0..1] double, wf[0..3] single. */
hr_solver_status solver_cg_mixed_core(solver_run *run, const hr_linear_operator *A,
                                      const spinor_field *rhs, spinor_field *x, int have_guess,
                                      double tol2, spinor_field *w, spinor_field_flt *wf,
                                      double *rr_true) {
  spinor_field *r = w, *t = w + 1;
  spinor_field_flt *rs = wf, *ps = wf + 1, *qs = wf + 2, *xs = wf + 3;
  hr_solver_result *res = run->res;
  const int max_iter = run->p->max_iter;
  const double delta = run->p->delta > 0 && run->p->delta < 1 ? run->p->delta : 0.1;
  const double rhs2 = sqnorm_spinor_field(rhs);
  if (have_guess) {
    A->apply(t, x, A->ctx);
    solver_count_apply(run, A, 0);
    sub_spinor_field(r, rhs, t);
    solver_count(run, LA_FLOP_SCALE);
  } else {
    zero_spinor_field(x);
    copy_spinor_field(r, rhs);
  }
  double rr = sqnorm_spinor_field(r); /* |r|^2 of the residual the iteration uses */
  solver_count(run, LA_FLOP_SQNORM);
  *rr_true = rr;
  if (!solver_finite(rr)) return HR_SOLVER_BREAKDOWN;
  if (rr <= tol2) return HR_SOLVER_CONVERGED;
  double rr_last_update = rr; /* true |r|^2 at the last reliable update */
  to_flt_spinor_field(rs, r);
  copy_spinor_field_flt(ps, rs);
  zero_spinor_field_flt(xs);
  int pending = 0; /* iterations accumulated in xs since the last update */
  hr_solver_status status = HR_SOLVER_MAX_ITER;
  while (res->iterations < max_iter) {
    A->apply_flt(qs, ps, A->ctx);
    solver_count_apply(run, A, 1);
    const double pq = prod_re_spinor_field_flt(ps, qs);
    solver_count(run, LA_FLOP_SQNORM);
    if (!solver_finite(pq) || pq <= 0) {
      lprintf("INVERTER", 0, "%s: <p, A p> = %g at iteration %d (single precision): the "
              "operator is not positive definite or the numbers broke down\n", run->name, pq,
              res->iterations);
      status = HR_SOLVER_BREAKDOWN;
      break;
    }
    const double alpha = rr / pq;
    const double rr_new = cg_update_spinor_field_flt(xs, rs, alpha, ps, qs);
    solver_count(run, LA_FLOP_CG_UPDATE);
    res->iterations++;
    pending = 1;
    if (!solver_finite(rr_new)) {
      status = HR_SOLVER_BREAKDOWN;
      break;
    }
    solver_log_iter(run, res->iterations, sqrt(rr_new / rhs2));
    double beta;
    if (rr_new <= delta * delta * rr_last_update || rr_new <= tol2) {
      /* reliable update: x += xs, r = rhs - A x in double */
      to_dbl_spinor_field_flt(t, xs);
      add_assign_spinor_field(x, t);
      zero_spinor_field_flt(xs);
      pending = 0;
      A->apply(t, x, A->ctx);
      solver_count_apply(run, A, 0);
      sub_spinor_field(r, rhs, t);
      const double rr_r = sqnorm_spinor_field(r);
      solver_count(run, 2 * LA_FLOP_SCALE + LA_FLOP_SQNORM);
      res->reliable_updates++;
      *rr_true = rr_r;
      if (run->p->verbosity >= 1)
        lprintf("INVERTER", 10, "%s: reliable update %d at iteration %d: true residual %.3e "
                "(single-precision estimate %.3e)\n", run->name, res->reliable_updates,
                res->iterations, sqrt(rr_r / rhs2), sqrt(rr_new / rhs2));
      if (!solver_finite(rr_r)) {
        status = HR_SOLVER_BREAKDOWN;
        break;
      }
      if (rr_r <= tol2) {
        status = HR_SOLVER_CONVERGED;
        break;
      }
      to_flt_spinor_field(rs, r);
      rr_last_update = rr_r;
      beta = rr_r / rr;
      rr = rr_r;
    } else {
      beta = rr_new / rr;
      rr = rr_new;
    }
    cg_direction_spinor_field_flt(ps, beta, rs);
    solver_count(run, LA_FLOP_AXPY);
  }
  if (pending) { /* iteration limit or breakdown: fold in what was accumulated */
    to_dbl_spinor_field_flt(t, xs);
    add_assign_spinor_field(x, t);
    A->apply(t, x, A->ctx);
    solver_count_apply(run, A, 0);
    sub_spinor_field(r, rhs, t);
    *rr_true = sqnorm_spinor_field(r);
  }
  return status;
}

/* ------------------------------------------------------------------ public solvers */

hr_solver_status cg_solve(spinor_field *x, const hr_linear_operator *A, const spinor_field *b,
                          const hr_solver_params *p, hr_solver_result *res) {
  solver_run run;
  const int st = solver_begin(&run, "CG", A, b, x, p, res);
  if (st == SOLVER_DONE) return HR_SOLVER_CONVERGED;
  if (st != 0) return (hr_solver_status)st;
  spinor_field *w = solver_alloc(3, b->type);
  double rr;
  const double tol2 = p->tol * p->tol * run.bnorm * run.bnorm;
  const hr_solver_status s = solver_cg_core(&run, A, b, x, p->initial_guess, tol2, w, &rr);
  free_spinor_field_f(w);
  return solver_end(&run, s, sqrt(rr) / run.bnorm);
}

hr_solver_status cg_mixed_solve(spinor_field *x, const hr_linear_operator *A,
                                const spinor_field *b, const hr_solver_params *p,
                                hr_solver_result *res) {
  solver_run run;
  const int st = solver_begin(&run, "CG-mixed", A, b, x, p, res);
  if (st == SOLVER_DONE) return HR_SOLVER_CONVERGED;
  if (st != 0) return (hr_solver_status)st;
  if (A->apply_flt == NULL) {
    lprintf("INVERTER", 0, "%s: the operator has no single-precision version\n", run.name);
    return res->status = HR_SOLVER_BAD_INPUT;
  }
  spinor_field *w = solver_alloc(2, b->type);
  spinor_field_flt *wf = solver_alloc_flt(4, b->type);
  double rr;
  const double tol2 = p->tol * p->tol * run.bnorm * run.bnorm;
  const hr_solver_status s =
      solver_cg_mixed_core(&run, A, b, x, p->initial_guess, tol2, w, wf, &rr);
  free_spinor_field_f_flt(wf);
  free_spinor_field_f(w);
  return solver_end(&run, s, sqrt(rr) / run.bnorm);
}

/* ------------------------------------------------------------------ CGNE / CGNR */

/* The normal operators M M^+ (ne = 1) and M^+ M (ne = 0) with their temporaries. */
typedef struct {
  const hr_linear_operator *M;
  int ne;
  spinor_field *tmp;
  spinor_field_flt *tmp_flt;
} normal_ctx;

static void normal_apply(spinor_field *out, const spinor_field *in, void *c) {
  const normal_ctx *n = c;
  if (n->ne) {
    n->M->apply_dag(n->tmp, in, n->M->ctx);
    n->M->apply(out, n->tmp, n->M->ctx);
  } else {
    n->M->apply(n->tmp, in, n->M->ctx);
    n->M->apply_dag(out, n->tmp, n->M->ctx);
  }
}

static void normal_apply_flt(spinor_field_flt *out, const spinor_field_flt *in, void *c) {
  const normal_ctx *n = c;
  if (n->ne) {
    n->M->apply_dag_flt(n->tmp_flt, in, n->M->ctx);
    n->M->apply_flt(out, n->tmp_flt, n->M->ctx);
  } else {
    n->M->apply_flt(n->tmp_flt, in, n->M->ctx);
    n->M->apply_dag_flt(out, n->tmp_flt, n->M->ctx);
  }
}

/* Rounds of refinement of CGNE / CGNR before giving up on the tolerance. */
#define NORMAL_MAX_ROUNDS 8

/* CGNE (ne = 1) or CGNR (ne = 0): each round computes r = b - M x, solves the normal
 * equations for the correction to the tolerance that brings |r| to tol |b| (CGNE: exact,
 * the CG residual is r; CGNR: the normal-equation residual, refined by the next round). */
static hr_solver_status normal_solve(const char *name, int ne, const hr_linear_operator *M,
                                     const spinor_field *b, spinor_field *x, int mixed,
                                     const hr_solver_params *p, hr_solver_result *res) {
  solver_run run;
  const int st = solver_begin(&run, name, M, b, x, p, res);
  if (st == SOLVER_DONE) return HR_SOLVER_CONVERGED;
  if (st != 0) return (hr_solver_status)st;
  if (M->apply_dag == NULL || (mixed && (M->apply_flt == NULL || M->apply_dag_flt == NULL))) {
    lprintf("INVERTER", 0, "%s: the operator needs its adjoint%s\n", run.name,
            mixed ? " and single-precision versions of both" : "");
    return res->status = HR_SOLVER_BAD_INPUT;
  }
  const geometry_descriptor *g = b->type;
  spinor_field *w = solver_alloc(7, g); /* CG work 0..2, tmp 3, r 4, rhs 5, y 6 */
  spinor_field_flt *wf = mixed ? solver_alloc_flt(5, g) : NULL;
  normal_ctx nc = {M, ne, w + 3, wf != NULL ? wf + 4 : NULL};
  hr_linear_operator N = {normal_apply, mixed ? normal_apply_flt : NULL, NULL, NULL, &nc,
                          2 * M->flops};
  spinor_field *r = w + 4, *rhs = w + 5, *y = w + 6;
  if (!p->initial_guess) zero_spinor_field(x);
  const double tol_abs = p->tol * run.bnorm;
  hr_solver_status s = HR_SOLVER_MAX_ITER;
  double rr = INFINITY;
  for (int round = 0; round < NORMAL_MAX_ROUNDS; round++) {
    /* r = b - M x */
    if (round == 0 && !p->initial_guess) {
      copy_spinor_field(r, b);
    } else {
      M->apply(r, x, M->ctx);
      solver_count_apply(&run, M, 0);
      sub_spinor_field(r, b, r);
    }
    rr = sqnorm_spinor_field(r);
    if (!solver_finite(rr)) {
      s = HR_SOLVER_BREAKDOWN;
      break;
    }
    if (rr <= tol_abs * tol_abs) {
      s = HR_SOLVER_CONVERGED;
      break;
    }
    if (res->iterations >= p->max_iter || s == HR_SOLVER_BREAKDOWN) break;
    if (round > 0 && p->verbosity >= 1)
      lprintf("INVERTER", 10, "%s: refinement round %d, true residual %.3e\n", run.name, round,
              sqrt(rr) / run.bnorm);
    double tol2, rr_cg;
    if (ne) {
      copy_spinor_field(rhs, r);
      tol2 = 0.99 * tol_abs * tol_abs;
    } else {
      M->apply_dag(rhs, r, M->ctx);
      solver_count_apply(&run, M, 0);
      const double cc = sqnorm_spinor_field(rhs);
      tol2 = p->tol * p->tol * cc;
    }
    s = mixed ? solver_cg_mixed_core(&run, &N, rhs, y, 0, tol2, w, wf, &rr_cg)
              : solver_cg_core(&run, &N, rhs, y, 0, tol2, w, &rr_cg);
    if (s == HR_SOLVER_BREAKDOWN) break;
    if (ne) { /* x += M^+ y */
      M->apply_dag(rhs, y, M->ctx);
      solver_count_apply(&run, M, 0);
      add_assign_spinor_field(x, rhs);
    } else {
      add_assign_spinor_field(x, y);
    }
    s = HR_SOLVER_MAX_ITER; /* decided by the true residual of the next round */
  }
  if (s != HR_SOLVER_CONVERGED) { /* recompute the true residual of the current x */
    M->apply(r, x, M->ctx);
    solver_count_apply(&run, M, 0);
    sub_spinor_field(r, b, r);
    rr = sqnorm_spinor_field(r);
  }
  if (wf != NULL) free_spinor_field_f_flt(wf);
  free_spinor_field_f(w);
  return solver_end(&run, s, sqrt(rr) / run.bnorm);
}

hr_solver_status cgne_solve(spinor_field *x, const hr_linear_operator *M,
                            const spinor_field *b, int mixed, const hr_solver_params *p,
                            hr_solver_result *res) {
  return normal_solve(mixed ? "CGNE-mixed" : "CGNE", 1, M, b, x, mixed, p, res);
}

hr_solver_status cgnr_solve(spinor_field *x, const hr_linear_operator *M,
                            const spinor_field *b, int mixed, const hr_solver_params *p,
                            hr_solver_result *res) {
  return normal_solve(mixed ? "CGNR-mixed" : "CGNR", 0, M, b, x, mixed, p, res);
}
