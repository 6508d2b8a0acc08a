/* eigensolver.c -- the lowest eigenpairs of a Hermitian positive operator by thick-restart
 * Lanczos with full reorthogonalisation (eig_lowest), and the dense real symmetric
 * eigensolver (cyclic Jacobi) of its Rayleigh-Ritz step (eig_dense_symmetric). */
#include <stdlib.h>
#include <string.h>

#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"
#include "random_fields.h"
#include "solver_internal.h"

/* ------------------------------------------------------------------ dense Jacobi */

void eig_dense_symmetric(int n, const double *a_in, double *w, double *z) {
  double *a = malloc((size_t)n * n * sizeof(double));
  if (a == NULL) hr_fatal(HR_EXIT_INTERNAL, "eig_dense_symmetric: out of memory (n = %d)", n);
  memcpy(a, a_in, (size_t)n * n * sizeof(double));
  double fro2 = 0;
  for (int i = 0; i < n * n; i++) fro2 += a[i] * a[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) z[i * n + j] = (i == j);
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    if (off <= 1e-34 * fro2) break;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) {
        const double apq = a[p * n + q];
        if (apq == 0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = fabs(theta) > 1e150
                             ? 0.5 / theta
                             : (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        const double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; k++) { /* columns: A J */
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; k++) { /* rows: J^T (A J) */
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; k++) { /* eigenvectors: Z J */
          const double zkp = z[k * n + p], zkq = z[k * n + q];
          z[k * n + p] = c * zkp - s * zkq;
          z[k * n + q] = s * zkp + c * zkq;
        }
      }
  }
  for (int i = 0; i < n; i++) w[i] = a[i * n + i];
  for (int i = 0; i < n; i++) { /* ascending order (selection sort of the columns) */
    int lo = i;
    for (int j = i + 1; j < n; j++)
      if (w[j] < w[lo]) lo = j;
    if (lo == i) continue;
    const double tw = w[i];
    w[i] = w[lo];
    w[lo] = tw;
    for (int k = 0; k < n; k++) {
      const double tz = z[k * n + i];
      z[k * n + i] = z[k * n + lo];
      z[k * n + lo] = tz;
    }
  }
  free(a);
}

/* ------------------------------------------------------------------ Lanczos */

void eig_params_default(hr_eig_params *p) {
  p->nev = 10;
  p->tol = 1e-10;
  p->max_restarts = 200;
  p->krylov_size = 0;
  p->verbosity = 0;
}

/* w -= sum_i <V[i], w> V[i] for i = 0..n-1 (modified Gram-Schmidt), repeated once when the
 * norm of w dropped below 1/2 of its start (orthogonality to rounding); returns Re <V[n-1], w>
 * removed in total. */
static double orthogonalise(spinor_field *w, const spinor_field *V, int n) {
  double last = 0, norm2_in = sqnorm_spinor_field(w);
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < n; i++) {
      const hr_complex c = prod_spinor_field(V + i, w);
      mulc_add_assign_spinor_field(w, -c, V + i);
      if (i == n - 1) last += creal(c);
    }
    const double after = sqnorm_spinor_field(w);
    if (after > 0.25 * norm2_in) break;
    norm2_in = after;
  }
  return last;
}

/* A new random unit vector orthogonal to V[0..n-1] into out (a new direction after the
 * Krylov space became invariant); returns 0 when none is left (the space is exhausted). */
static int fresh_direction(spinor_field *out, const spinor_field *V, int n) {
  for (int attempt = 0; attempt < 3; attempt++) {
    gaussian_spinor_field(out);
    const double n0 = sqrt(sqnorm_spinor_field(out));
    orthogonalise(out, V, n);
    const double n1 = sqrt(sqnorm_spinor_field(out));
    if (n1 > 1e-8 * n0) {
      mul_spinor_field(out, 1 / n1, out);
      return 1;
    }
  }
  return 0;
}

hr_solver_status eig_lowest(double *eval, spinor_field *evec, double *residual,
                            const hr_linear_operator *A, const hr_eig_params *p,
                            hr_eig_result *res) {
  const double t0 = hr_wtime();
  memset(res, 0, sizeof *res);
  res->status = HR_SOLVER_BAD_INPUT;
  if (A == NULL || A->apply == NULL || evec == NULL || eval == NULL || residual == NULL ||
      p == NULL) {
    lprintf("INVERTER", 0, "Lanczos: missing operator, parameters or output arrays\n");
    return res->status;
  }
  const geometry_descriptor *g = evec->type;
  const double dim = 4.0 * NF * solver_global_sites(g);
  const int nev = p->nev;
  /* default Krylov size max(2 nev + 20, nev + 40) */
  int m = p->krylov_size > 0 ? p->krylov_size : (nev > 20 ? 2 * nev + 20 : nev + 40);
  if (m > dim) m = (int)dim;
  if (nev < 1 || !(p->tol > 0) || p->max_restarts < 1 || nev + 2 > m) {
    lprintf("INVERTER", 0, "Lanczos: invalid parameters nev = %d, tol = %g, max restarts = %d, "
            "Krylov size = %d (need nev >= 1, tol > 0, max restarts >= 1, nev + 2 <= Krylov "
            "size <= field dimension %.0f)\n", nev, p->tol, p->max_restarts, m, dim);
    return res->status;
  }
  const int keep = nev + (m - nev) / 2 < m - 1 ? nev + (m - nev) / 2 : m - 1;
  spinor_field *V = solver_alloc(m + 1, g);
  spinor_field *R = solver_alloc(keep, g); /* Ritz vectors of a cycle */
  spinor_field *w = solver_alloc(1, g);
  double *T = calloc((size_t)m * m, sizeof(double));
  double *Y = malloc((size_t)m * m * sizeof(double));
  double *theta = malloc((size_t)m * sizeof(double));
  if (T == NULL || Y == NULL || theta == NULL)
    hr_fatal(HR_EXIT_INTERNAL, "eig_lowest: out of memory (Krylov size %d)", m);

  hr_solver_status status = HR_SOLVER_MAX_ITER;
  double worst = INFINITY;
  if (!fresh_direction(V, V, 0)) status = HR_SOLVER_BREAKDOWN;
  int k = 0;          /* vectors kept from the previous cycle */
  int confirming = 0;  /* this cycle checks converged pairs against a fresh direction */
  for (int cycle = 0; status == HR_SOLVER_MAX_ITER && cycle < p->max_restarts; cycle++) {
    res->restarts = cycle + 1;
    double beta = 0;
    for (int j = k; j < m; j++) { /* extend the Lanczos basis to m vectors */
      A->apply(w, V + j, A->ctx);
      res->applies++;
      const double anorm = sqrt(sqnorm_spinor_field(w));
      T[j * m + j] = orthogonalise(w, V, j + 1);
      beta = sqrt(sqnorm_spinor_field(w));
      if (!isfinite(beta) || !isfinite(anorm)) {
        lprintf("INVERTER", 0, "Lanczos: NaN or Inf in the operator's output at step %d\n", j);
        status = HR_SOLVER_BREAKDOWN;
        break;
      }
      if (beta <= 1e-12 * anorm) { /* invariant subspace: continue with a new direction */
        beta = 0;
        if (!fresh_direction(V + j + 1, V, j + 1)) {
          status = HR_SOLVER_BREAKDOWN;
          break;
        }
      } else {
        mul_spinor_field(V + j + 1, 1 / beta, w);
      }
      if (j + 1 < m) T[j * m + j + 1] = T[(j + 1) * m + j] = beta;
    }
    if (status == HR_SOLVER_BREAKDOWN) break;
    eig_dense_symmetric(m, T, theta, Y); /* Rayleigh-Ritz */
    int estimated = 1;
    for (int i = 0; i < nev; i++)
      if (fabs(beta * Y[(m - 1) * m + i]) > 0.5 * p->tol * fabs(theta[i])) estimated = 0;
    for (int i = 0; i < keep; i++) { /* Ritz vectors R[i] = sum_j Y[j][i] V[j] */
      mul_spinor_field(R + i, Y[i], V);
      for (int j = 1; j < m; j++) mul_add_assign_spinor_field(R + i, Y[j * m + i], V + j);
    }
    if (confirming) {
      /* a Ritz value below the converged ones: a missed (e.g. degenerate) eigenvalue */
      confirming = 0;
      int lower = -1; /* the first Ritz value below the converged eigenvalue of its rank */
      for (int i = 0; i < nev && lower < 0; i++)
        if (theta[i] < eval[i] * (1 - 10 * p->tol)) lower = i;
      if (lower < 0) {
        status = HR_SOLVER_CONVERGED;
        break;
      }
      if (p->verbosity >= 1)
        lprintf("INVERTER", 10, "Lanczos: cycle %d: Ritz value %d %.15e below the converged "
                "%.15e, continuing\n", cycle + 1, lower, theta[lower], eval[lower]);
    } else if (estimated || cycle == p->max_restarts - 1) { /* check with the operator */
      worst = 0;
      for (int i = 0; i < nev; i++) {
        copy_spinor_field(evec + i, R + i);
        A->apply(w, evec + i, A->ctx);
        res->applies++;
        const double vv = sqnorm_spinor_field(evec + i);
        eval[i] = prod_re_spinor_field(evec + i, w) / vv;
        mul_add_assign_spinor_field(w, -eval[i], evec + i);
        residual[i] = sqrt(sqnorm_spinor_field(w) / vv) / fabs(eval[i]);
        if (!(residual[i] <= worst)) worst = residual[i];
      }
      if (worst <= p->tol) {
        /* confirm: one cycle from the converged vectors and a fresh random direction */
        confirming = 1;
        memset(T, 0, (size_t)m * m * sizeof(double));
        for (int i = 0; i < nev; i++) T[i * m + i] = theta[i];
        if (!fresh_direction(V + nev, evec, nev)) { /* the whole space is spanned */
          status = HR_SOLVER_CONVERGED;
          break;
        }
        for (int i = nev - 1; i >= 0; i--) copy_spinor_field(V + i, evec + i);
        k = nev;
        continue;
      }
    }
    if (p->verbosity >= 1)
      lprintf("INVERTER", 10, "Lanczos: cycle %d, lowest Ritz value %.15e, estimated residual "
              "of pair %d %.3e\n", cycle + 1, theta[0], nev - 1,
              fabs(beta * Y[(m - 1) * m + nev - 1]) / fabs(theta[nev - 1]));
    /* thick restart: the `keep` lowest Ritz vectors and the residual direction */
    for (int i = 0; i < keep; i++) copy_spinor_field(V + i, R + i);
    copy_spinor_field(V + keep, V + m);
    memset(T, 0, (size_t)m * m * sizeof(double));
    for (int i = 0; i < keep; i++) {
      T[i * m + i] = theta[i];
      T[i * m + keep] = T[keep * m + i] = beta * Y[(m - 1) * m + i];
    }
    k = keep;
  }
  if (isfinite(worst))
    for (int i = 1; i < nev; i++) /* ascending Rayleigh quotients (insertion sort) */
      for (int j = i; j > 0 && eval[j] < eval[j - 1]; j--) {
        const double te = eval[j], tr = residual[j];
        eval[j] = eval[j - 1], residual[j] = residual[j - 1];
        eval[j - 1] = te, residual[j - 1] = tr;
        copy_spinor_field(w, evec + j);
        copy_spinor_field(evec + j, evec + j - 1);
        copy_spinor_field(evec + j - 1, w);
      }
  res->status = status;
  res->max_residual = worst;
  res->seconds = hr_wtime() - t0;
  if (status == HR_SOLVER_CONVERGED) {
    lprintf("INVERTER", 10, "Lanczos: %d eigenpairs converged after %d cycles, %ld operator "
            "applications, largest residual %.3e, %.2f s\n", nev, res->restarts, res->applies,
            worst, res->seconds);
  } else if (worst <= p->tol) {
    lprintf("INVERTER", 0, "Lanczos: cycle limit %d reached while the converged eigenpairs "
            "awaited confirmation against a fresh direction (%ld operator applications); raise the "
            "cycle limit or the Krylov size\n", p->max_restarts, res->applies);
  } else {
    lprintf("INVERTER", 0, "Lanczos: %s after %d cycles (%ld operator applications): largest "
            "residual |A v - lambda v| / |lambda| = %.3e > tolerance %.3e; raise the cycle "
            "limit or the Krylov size, or loosen the tolerance\n", solver_status_name(status),
            res->restarts, res->applies, worst, p->tol);
  }
  free(theta);
  free(Y);
  free(T);
  free_spinor_field_f(w);
  free_spinor_field_f(R);
  free_spinor_field_f(V);
  return status;
}
