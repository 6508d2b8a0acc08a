/* inverters.h -- Krylov solvers on spinor fields: CG (Hermitian positive operators) with
 * CGNE / CGNR drivers, multi-shift CG, BiCGstab, MINRES (Hermitian indefinite), and
 * mixed-precision CG with reliable updates (iterations in single precision, true residual
 * and solution in double). Every solver sees the operator only through hr_linear_operator
 * and the fields only through linear_algebra.h, so it runs on any geometry, backend and
 * process grid. Doc/solvers_and_spectrum.md describes the algorithms and conventions.
 *
 * Conventions shared by all solvers:
 *   - stopping criterion: relative residual |b - A x| / |b| <= params.tol, where A is the
 *     operator of the system solved (for CGNE / CGNR: the original operator M);
 *   - at the end the true residual is recomputed in double precision with one more
 *     application of the operator and returned in result.residual; a recursive residual
 *     that claims convergence while the true one does not is followed by a restart from the
 *     current solution (up to the iteration limit);
 *   - the return value is the status: 0 (HR_SOLVER_CONVERGED) only when the recomputed true
 *     residual meets the tolerance; otherwise a non-zero status is returned and a message
 *     is logged at level 0 of topic "INVERTER" (it is never a silent wrong answer);
 *   - work fields are allocated once per solve (never per iteration) on the geometry of b;
 *   - b and x must be different fields on the same geometry; b is not modified.
 * Implemented in: Inverters/cg.c, Inverters/cg_mshift.c, Inverters/bicgstab.c, Inverters/minres.c,
 *  Inverters/solver_common.c. */
#ifndef INVERTERS_H
#define INVERTERS_H

#include "fields.h"
#include "linear_operator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Outcome of a solve. */
typedef enum {
  HR_SOLVER_CONVERGED = 0, /* true residual <= tol */
  HR_SOLVER_MAX_ITER = 1,  /* iteration limit reached before convergence */
  HR_SOLVER_BREAKDOWN = 2, /* NaN / Inf or a zero denominator met */
  HR_SOLVER_BAD_INPUT = 3  /* invalid arguments (e.g. tol <= 0) */
} hr_solver_status;

/* Parameters of a solve. */
typedef struct {
  double tol;        /* relative residual |b - A x| / |b| to reach */
  int max_iter;      /* iteration limit (operator applications of the Krylov loop) */
  int verbosity;     /* 0: final line only; 1: plus every reliable update / restart;
                        2: plus every iteration (all on topic "INVERTER", level 10) */
  double delta;      /* mixed precision: reliable update when the single-precision
                        residual dropped by this factor (0: default 0.1) */
  int initial_guess; /* 1: start from the x passed in; 0: start from x = 0 */
  const char *name;  /* label of the log lines (NULL: the solver's name) */
} hr_solver_params;

/* What a solve did. */
typedef struct {
  hr_solver_status status;
  int iterations;       /* Krylov iterations (all precisions, all restarts) */
  double residual;      /* true |b - A x| / |b| recomputed at the end in double precision */
  int reliable_updates; /* mixed precision: true residual recomputations in double */
  long applies;         /* double-precision operator applications */
  long applies_flt;     /* single-precision operator applications */
  double flops;         /* operator flops (from hr_linear_operator.flops) + linear algebra */
  double seconds;       /* wall-clock time of the solve */
} hr_solver_result;

/* Defaults: tol 1e-10, max_iter 10000, verbosity 0, delta 0.1, initial_guess 0. */
void solver_params_default(hr_solver_params *p);
/* Text of a status ("converged", "iteration limit reached", ...). */
const char *solver_status_name(hr_solver_status s);

/* CG on a Hermitian positive definite A: A x = b. */
hr_solver_status cg_solve(spinor_field *x, const hr_linear_operator *A, const spinor_field *b,
                          const hr_solver_params *p, hr_solver_result *res);
/* Mixed-precision CG with reliable updates on a Hermitian positive definite A (needs
 * apply_flt): the Krylov iterations in single precision; whenever the single-precision
 * residual drops by params.delta the solution is accumulated and the true residual
 * recomputed in double. Reaches the same double-precision tolerance as cg_solve. */
hr_solver_status cg_mixed_solve(spinor_field *x, const hr_linear_operator *A,
                                const spinor_field *b, const hr_solver_params *p,
                                hr_solver_result *res);
/* CGNE for any invertible M (needs apply_dag): solves M M^+ y = b by CG, x = M^+ y; the CG
 * residual is the true residual b - M x. mixed = 1 uses cg_mixed_solve (needs the _flt
 * operators). */
hr_solver_status cgne_solve(spinor_field *x, const hr_linear_operator *M,
                            const spinor_field *b, int mixed, const hr_solver_params *p,
                            hr_solver_result *res);
/* CGNR for any invertible M (needs apply_dag): solves M^+ M x = M^+ b by CG, tightening the
 * normal-equation tolerance until |b - M x| / |b| <= tol. */
hr_solver_status cgnr_solve(spinor_field *x, const hr_linear_operator *M,
                            const spinor_field *b, int mixed, const hr_solver_params *p,
                            hr_solver_result *res);
/* BiCGstab on a general invertible A. */
hr_solver_status bicgstab_solve(spinor_field *x, const hr_linear_operator *A,
                                const spinor_field *b, const hr_solver_params *p,
                                hr_solver_result *res);
/* MINRES on a Hermitian (possibly indefinite) A, e.g. Q = gamma5 D. */
hr_solver_status minres_solve(spinor_field *x, const hr_linear_operator *A,
                              const spinor_field *b, const hr_solver_params *p,
                              hr_solver_result *res);

/* Multi-shift CG: (A + shift[i]) x[i] = b for i = 0..nshift-1 in one Krylov space, A
 * Hermitian positive definite, shift[i] >= 0 (x: nshift fields, e.g. from
 * alloc_spinor_field_f(nshift, g); x[i] and b distinct). Each shift stops on its own
 * tolerance; the true residual of every shift is recomputed at the end (res[i], array of
 * nshift results; iterations are those of the shared Krylov space). Returns the worst status. */
hr_solver_status cg_mshift_solve(spinor_field *x, const hr_linear_operator *A, int nshift,
                                 const double *shift, const spinor_field *b,
                                 const hr_solver_params *p, hr_solver_result *res);
/* Mixed-precision multi-shift CG: multi-shift CG in single precision to a relative residual
 * of max(tol, 1e-5), then each shift refined by cg_mixed_solve started from that solution
 * (reliable updates do not carry over to the shifted systems, see the documentation). */
hr_solver_status cg_mshift_mixed_solve(spinor_field *x, const hr_linear_operator *A,
                                       int nshift, const double *shift,
                                       const spinor_field *b, const hr_solver_params *p,
                                       hr_solver_result *res);

/* |b - A x| / |b| with one application of A (tmp: a work field on b's geometry). */
double solver_true_residual(const hr_linear_operator *A, const spinor_field *b,
                            const spinor_field *x, spinor_field *tmp);

/* Global number of master sites of a geometry (all processes): the site count of the
 * linear-algebra flop counts. */
double solver_global_sites(const geometry_descriptor *g);

#ifdef __cplusplus
}
#endif

#endif
