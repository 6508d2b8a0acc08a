/* cg_mshift.c -- multi-shift CG: (A + s_i) x_i = b for all shifts in one Krylov space, in
 * double precision (cg_mshift_solve) and mixed precision (cg_mshift_mixed_solve: the shared
 * Krylov iteration in single precision, then every shift refined by mixed-precision CG with
 * reliable updates). The true residual of every shift is recomputed at the end; a shift that
 * misses the tolerance there is refined by CG on its own system from its current solution. */
#include <stdlib.h>

#include "hr_error.h"
#include "logger.h"
#include "solver_internal.h"

#define MS_FIELD spinor_field
#define MS_LA(op) op##_spinor_field
#define MS_APPLY apply
#define MS_IS_FLT 0
#define MS_NAME mshift_core
#include "cg_mshift_template.h"
#undef MS_FIELD
#undef MS_LA
#undef MS_APPLY
#undef MS_IS_FLT
#undef MS_NAME

#define MS_FIELD spinor_field_flt
#define MS_LA(op) op##_spinor_field_flt
#define MS_APPLY apply_flt
#define MS_IS_FLT 1
#define MS_NAME mshift_core_flt
#include "cg_mshift_template.h"
#undef MS_FIELD
#undef MS_LA
#undef MS_APPLY
#undef MS_IS_FLT
#undef MS_NAME

/* The shifted operator A + sigma. */
typedef struct {
  const hr_linear_operator *A;
  double sigma;
} shifted_ctx;

static void shifted_apply(spinor_field *out, const spinor_field *in, void *c) {
  const shifted_ctx *s = c;
  s->A->apply(out, in, s->A->ctx);
  mul_add_assign_spinor_field(out, s->sigma, in);
}

static void shifted_apply_flt(spinor_field_flt *out, const spinor_field_flt *in, void *c) {
  const shifted_ctx *s = c;
  s->A->apply_flt(out, in, s->A->ctx);
  mul_add_assign_spinor_field_flt(out, s->sigma, in);
}

/* Common driver of both precisions. */
static hr_solver_status mshift_solve(const char *name, int mixed, const hr_linear_operator *A,
                                     int nshift, const double *shift, const spinor_field *b,
                                     spinor_field *x, const hr_solver_params *p,
                                     hr_solver_result *res) {
  if (nshift < 1 || shift == NULL || res == NULL || x == NULL) {
    lprintf("INVERTER", 0, "%s: needs at least one shift, the shifts, x and results\n", name);
    if (res != NULL && nshift >= 1) res[0].status = HR_SOLVER_BAD_INPUT;
    return HR_SOLVER_BAD_INPUT;
  }
  hr_solver_result total;
  solver_run run;
  int st = solver_begin(&run, name, A, b, x, p, &total);
  for (int i = 0; st == 0 && i < nshift; i++) {
    if (!(shift[i] >= 0) || x[i].type != b->type || x[i].ptr == b->ptr) {
      lprintf("INVERTER", 0, "%s: shift %d: shifts must be >= 0 and x[i] distinct from b on "
              "b's geometry\n", run.name, i);
      st = HR_SOLVER_BAD_INPUT;
    }
  }
  if (st == 0 && mixed && A->apply_flt == NULL) {
    lprintf("INVERTER", 0, "%s: the operator has no single-precision version\n", run.name);
    st = HR_SOLVER_BAD_INPUT;
  }
  if (st != 0) {
    for (int i = 0; i < nshift; i++) {
      res[i] = total;
      if (st == SOLVER_DONE) zero_spinor_field(x + i);
    }
    return st == SOLVER_DONE ? HR_SOLVER_CONVERGED : (hr_solver_status)st;
  }
  const geometry_descriptor *g = b->type;
  double *scratch = malloc(4 * (size_t)nshift * sizeof(double));
  if (scratch == NULL) hr_error("out of memory");
  double *d = scratch + 3 * nshift;
  double s0 = shift[0];
  for (int i = 1; i < nshift; i++)
    if (shift[i] < s0) s0 = shift[i];
  for (int i = 0; i < nshift; i++) d[i] = shift[i] - s0;
  const double tol_abs = p->tol * run.bnorm;
  hr_solver_status s;
  spinor_field *w = solver_alloc(mixed ? 2 : 3, g);
  if (mixed) {
    /* shared Krylov space in single precision, to what single precision can hold */
    spinor_field_flt *wf = solver_alloc_flt(4 + nshift, g);
    spinor_field_flt *xf = solver_alloc_flt(nshift, g);
    to_flt_spinor_field(wf + 3, b);
    const double tol_flt = (p->tol > 1e-5 ? p->tol : 1e-5) * run.bnorm;
    s = mshift_core_flt(&run, A, s0, nshift, d, wf + 3, xf, tol_flt, wf, wf + 4, scratch);
    for (int i = 0; i < nshift; i++) to_dbl_spinor_field_flt(x + i, xf + i);
    free_spinor_field_f_flt(xf);
    /* refinement of each shift: mixed CG with reliable updates from that solution */
    for (int i = 0; s != HR_SOLVER_BREAKDOWN && i < nshift; i++) {
      shifted_ctx sc = {A, shift[i]};
      hr_linear_operator Si = {shifted_apply, shifted_apply_flt, NULL, NULL, &sc, A->flops};
      double rr;
      s = solver_cg_mixed_core(&run, &Si, b, x + i, 1, tol_abs * tol_abs, w, wf, &rr);
    }
    free_spinor_field_f_flt(wf);
  } else {
    spinor_field *pi = solver_alloc(nshift, g);
    s = mshift_core(&run, A, s0, nshift, d, b, x, tol_abs, w, pi, scratch);
    free_spinor_field_f(pi);
  }
  free(scratch);
  /* true residual of every shift; refine those that miss the tolerance */
  spinor_field *wc = mixed ? solver_alloc(3, g) : w;
  hr_solver_status worst = HR_SOLVER_CONVERGED;
  double *rel = malloc((size_t)nshift * sizeof(double));
  if (rel == NULL) hr_error("out of memory");
  for (int i = 0; i < nshift; i++) {
    shifted_ctx sc = {A, shift[i]};
    hr_linear_operator Si = {shifted_apply, NULL, NULL, NULL, &sc, A->flops};
    rel[i] = solver_true_residual(&Si, b, x + i, wc);
    solver_count_apply(&run, &Si, 0);
    if (s != HR_SOLVER_BREAKDOWN && !(rel[i] <= p->tol) && total.iterations < p->max_iter) {
      if (p->verbosity >= 1)
        lprintf("INVERTER", 10, "%s: shift %d (%g): true residual %.3e, refining with CG\n",
                run.name, i, shift[i], rel[i]);
      double rr;
      solver_cg_core(&run, &Si, b, x + i, 1, tol_abs * tol_abs, wc, &rr);
      rel[i] = sqrt(rr) / run.bnorm;
    }
  }
  if (wc != w) free_spinor_field_f(wc);
  free_spinor_field_f(w);
  for (int i = 0; i < nshift; i++) {
    res[i] = total;
    solver_run ri = run;
    ri.res = res + i;
    hr_solver_status si = s == HR_SOLVER_BREAKDOWN ? s : HR_SOLVER_CONVERGED;
    si = solver_end(&ri, si, rel[i]);
    if (si > worst) worst = si;
  }
  free(rel);
  return worst;
}

hr_solver_status cg_mshift_solve(spinor_field *x, const hr_linear_operator *A, int nshift,
                                 const double *shift, const spinor_field *b,
                                 const hr_solver_params *p, hr_solver_result *res) {
  return mshift_solve("CG-multishift", 0, A, nshift, shift, b, x, p, res);
}

hr_solver_status cg_mshift_mixed_solve(spinor_field *x, const hr_linear_operator *A,
                                       int nshift, const double *shift,
                                       const spinor_field *b, const hr_solver_params *p,
                                       hr_solver_result *res) {
  return mshift_solve("CG-multishift-mixed", 1, A, nshift, shift, b, x, p, res);
}
