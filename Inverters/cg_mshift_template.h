/* cg_mshift_template.h -- the multi-shift CG iteration written once for both precisions;
 * included by cg_mshift.c with MS_FIELD (spinor_field / spinor_field_flt), MS_LA(op) (the
 * linear-algebra name of that precision), MS_APPLY (apply / apply_flt), MS_IS_FLT (0 / 1)
 * and MS_NAME (function name) defined. Not compiled alone.
 *
 * Solves (B + d[i]) x[i] = rhs, B = A + s0, d[i] >= 0, in the Krylov space of B: the seed
 * CG on B gives alpha_k, beta_k and the residual r_k; shifted system i has the collinear
 * residual zeta_i r_k with
 *   zeta_{k+1} = zeta_k zeta_{k-1} a_{k-1} /
 *                (a_k b_{k-1} (zeta_{k-1} - zeta_k) + zeta_{k-1} a_{k-1} (1 + d a_k)),
 *   a^i_k = a_k zeta_{k+1} / zeta_k,  b^i_k = b_k (zeta_{k+1} / zeta_k)^2,
 *   x^i += a^i_k p^i,  p^i = zeta_{k+1} r_{k+1} + b^i_k p^i.
 * Shift i stops when |zeta_i| |r| <= tol_abs; the loop when all have stopped. Work: w[0..2]
 * (r, p, q) and pi[0..n-1]; zeta: 3 n doubles of scratch. Returns the status of the loop;
 * the true residuals are the caller's business. */

/* The parameters must be defined by the includer. */
#ifndef MS_FIELD
#error "cg_mshift_template.h: define MS_FIELD (the field type, spinor_field or spinor_field_flt) before including"
#endif
#ifndef MS_LA
#error "cg_mshift_template.h: define MS_LA (MS_LA(op): the linear-algebra name of that precision) before including"
#endif
#ifndef MS_APPLY
#error "cg_mshift_template.h: define MS_APPLY (the operator member, apply or apply_flt) before including"
#endif
#ifndef MS_IS_FLT
#error "cg_mshift_template.h: define MS_IS_FLT (0 or 1) before including"
#endif
#ifndef MS_NAME
#error "cg_mshift_template.h: define MS_NAME (the function name) before including"
#endif
static hr_solver_status MS_NAME(solver_run *run, const hr_linear_operator *A, double s0,
                                int n, const double *d, const MS_FIELD *rhs, MS_FIELD *x,
                                double tol_abs, MS_FIELD *w, MS_FIELD *pi, double *scratch) {
  MS_FIELD *r = w, *p = w + 1, *q = w + 2;
  double *zeta = scratch, *zeta_prev = scratch + n, *active = scratch + 2 * n;
  hr_solver_result *res = run->res;
  const double rhs2 = MS_LA(sqnorm)(rhs);
  MS_LA(copy)(r, rhs);
  MS_LA(copy)(p, rhs);
  for (int i = 0; i < n; i++) {
    MS_LA(zero)(x + i);
    MS_LA(copy)(pi + i, rhs);
    zeta[i] = zeta_prev[i] = 1;
    active[i] = 1;
  }
  double rr = rhs2, alpha_prev = 1, beta_prev = 0;
  int nactive = n;
  while (nactive > 0 && res->iterations < run->p->max_iter) {
    A->MS_APPLY(q, p, A->ctx);
    solver_count_apply(run, A, MS_IS_FLT);
    if (s0 != 0) {
      MS_LA(mul_add_assign)(q, s0, p);
      solver_count(run, LA_FLOP_AXPY);
    }
    const double pq = MS_LA(prod_re)(p, q);
    solver_count(run, LA_FLOP_SQNORM);
    if (!solver_finite(pq) || pq <= 0) {
      lprintf("INVERTER", 0, "%s: <p, A p> = %g at iteration %d: the operator is not positive "
              "definite or the numbers broke down\n", run->name, pq, res->iterations);
      return HR_SOLVER_BREAKDOWN;
    }
    const double alpha = rr / pq;
    for (int i = 0; i < n; i++) {
      if (!active[i]) continue;
      const double zn = zeta[i] * zeta_prev[i] * alpha_prev /
                        (alpha * beta_prev * (zeta_prev[i] - zeta[i]) +
                         zeta_prev[i] * alpha_prev * (1 + d[i] * alpha));
      zeta_prev[i] = zeta[i];
      zeta[i] = zn;
      MS_LA(mul_add_assign)(x + i, alpha * zn / zeta_prev[i], pi + i);
      solver_count(run, LA_FLOP_AXPY);
    }
    MS_LA(mul_add_assign)(r, -alpha, q);
    const double rr_new = MS_LA(sqnorm)(r);
    solver_count(run, LA_FLOP_AXPY + LA_FLOP_SQNORM);
    res->iterations++;
    if (!solver_finite(rr_new)) return HR_SOLVER_BREAKDOWN;
    solver_log_iter(run, res->iterations, sqrt(rr_new / rhs2));
    const double beta = rr_new / rr;
    for (int i = 0; i < n; i++) {
      if (!active[i]) continue;
      if (!solver_finite(zeta[i])) return HR_SOLVER_BREAKDOWN;
      if (fabs(zeta[i]) * sqrt(rr_new) <= tol_abs) {
        active[i] = 0;
        nactive--;
        continue;
      }
      const double ratio = zeta[i] / zeta_prev[i];
      /* p_i = zeta r + beta_i p_i */
      MS_LA(lc)(pi + i, zeta[i], r, beta * ratio * ratio, pi + i);
      solver_count(run, LA_FLOP_LC);
    }
    MS_LA(cg_direction)(p, beta, r);
    solver_count(run, LA_FLOP_AXPY);
    alpha_prev = alpha;
    beta_prev = beta;
    rr = rr_new;
  }
  return nactive == 0 ? HR_SOLVER_CONVERGED : HR_SOLVER_MAX_ITER;
}
