/* rhmc_monomial.h -- the rhmc fermion monomial: nf = 1, 2 or 3 flavours (any nf by stacking) of the Wilson-clover
 * operator of the compiled representation, even/odd preconditioned with the odd-site clover
 * determinant, through rational approximations (rational_approx.h) of powers of Q^2:
 *     S = phi^+ r(Q^2) phi + (nf/2) S_det,   r(x) ~ x^(-nf/2),   weight det(D^+ D)^(nf/2)
 *     heatbath phi = h(Q^2) eta,             h(x) ~ x^(nf/4)
 * (Q, S_det as in fermion_monomials.h), solves by the mixed-precision multi-shift CG, and a
 * check of the spectral range of Q^2 (power iteration and Lanczos) against the range of the
 * approximations at the first heatbath and every meas_freq heatbaths (Doc/hmc.md, RHMC).
* Implemented in: Update/rhmc_monomial.c. */
#ifndef RHMC_MONOMIAL_H
#define RHMC_MONOMIAL_H

#include "boundary_conditions.h"
#include "dirac.h"
#include "fields.h"
#include "hmc.h"
#include "rational_approx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters of an rhmc monomial. */
typedef struct {
  int nf;            /* flavours (>= 1) */
  double m0, csw;    /* bare mass, clover coefficient */
  dirac_bc bc;       /* fermion boundary conditions */
  double lmin, lmax; /* spectral range of Q^2 covered by the approximations */
  int degree;        /* degree of the action's approximation (0: from precision) */
  double precision;  /* its required maximal relative error (with degree 0; with a degree:
                        checked, 0 for no check) */
  double mt_prec, force_prec; /* relative residuals of action/heatbath and force solves */
  int meas_freq;     /* spectral range measured every meas_freq heatbaths (0: first only) */
  int strict;        /* 1: a spectrum outside [lmin, lmax] stops the run */
  char cache[256];   /* cache file of the approximations ("": the default) */
} rhmc_monomial_params;

/* An rhmc monomial. */
typedef struct {
  rhmc_monomial_params par;
  rational_approx act; /* x^(-nf/2): action and force */
  rational_approx hb;  /* x^(nf/4): heatbath */
  spinor_field *phi;   /* pseudofermion field on glat_even */
  long heatbaths;      /* heatbaths so far */
  double spec_min, spec_max; /* last measured estimate of the spectral range of Q^2 */
  long iterations;     /* solver iterations since the last heatbath */
  double solver_seconds, solver_flops;
} rhmc_monomial;

/* Defaults: nf 1, m0 0, csw 0, dirac_bc_default, range [1e-3, 10], degree 0, precision 1e-10,
 * mt_prec 1e-14, force_prec 1e-10, meas_freq 1, not strict, default cache. */
void rhmc_monomial_params_default(rhmc_monomial_params *p);
/* A new monomial (phi = 0) with its approximations (rational_approx_get); stops on invalid
 * parameters. */
rhmc_monomial *rhmc_monomial_new(const rhmc_monomial_params *p);
/* Free it (NULL is ignored). */
void rhmc_monomial_free(rhmc_monomial *m);
/* Draw phi = h(Q^2) eta (spectral check first when due); returns the action of phi at u. */
double rhmc_monomial_heatbath(rhmc_monomial *m, const suNg_field *u);
/* The action phi^+ r(Q^2) phi + (nf/2) S_det at u (solves to mt_prec). */
double rhmc_monomial_action(rhmc_monomial *m, const suNg_field *u);
/* p^a -= eps F^a: sum over the poles of the hmc force kernel of (Q^2 + b_k)^-1 phi. */
void rhmc_monomial_force_update(rhmc_monomial *m, const suNg_field *u, suNg_av_field *p,
                                double eps);
/* Estimate of the spectral range of Q^2 at u: measure it, log it, compare it with the range of
 * the approximations (outside: message at level 0, stop when strict); returns 1 inside. */
int rhmc_monomial_check_spectrum(rhmc_monomial *m, const suNg_field *u);

/* Extremal eigenvalues of Q^2 (Q of D, on glat_even): *lmax the larger of niter power
 * iterations and the Lanczos estimate, *lmin the smallest Ritz value of nlanczos Lanczos steps
 * (an upper bound of the smallest eigenvalue, close for enough steps). */
void dirac_q2_spectrum(double *lmin, double *lmax, const dirac_op *D, int niter, int nlanczos);

/* The rhmc monomial as an hmc_monomial ("rhmc"); fs gives csw and the boundary conditions
 * (p's are ignored). */
hmc_monomial *hmc_monomial_rhmc(const hmc_fermion_setup *fs, const rhmc_monomial_params *p,
                                int level);

#ifdef __cplusplus
}
#endif

#endif
