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

/* The data of an rhmc monomial (the kind "rhmc" of hmc.h, built by hmc_monomial_new; its
 * ctx). Its parameters (hmc_monomial_params): nf (1, 2 or 3), mass, csw, bc, lmin, lmax,
 * degree, precision, mt_prec, force_prec, meas_freq, strict, cache. The heatbath draws
 * phi = h(Q^2) eta (the spectral check first when due) and returns the action of phi at u;
 * the action is phi^+ r(Q^2) phi + (nf/2) S_det (solves to mt_prec); the force is the sum over
 * the poles of the hmc force kernel of (Q^2 + b_k)^-1 phi. */
typedef struct {
  hmc_monomial_params par;
  rational_approx act; /* x^(-nf/2): action and force */
  rational_approx hb;  /* x^(nf/4): heatbath */
  spinor_field *phi;   /* pseudofermion field on glat_even */
  long heatbaths;      /* heatbaths so far */
  double spec_min, spec_max; /* last measured estimate of the spectral range of Q^2 */
  hmc_solver_stats solver;   /* solver work since the last heatbath */
} rhmc_monomial;

/* Estimate of the spectral range of Q^2 at u: measure it, log it, compare it with the range of
 * the approximations (outside: message at level 0, stop when strict); returns 1 inside. */
int rhmc_monomial_check_spectrum(rhmc_monomial *m, const suNg_field *u);

/* Extremal eigenvalues of Q^2 (Q of D, on glat_even): *lmax the larger of niter power
 * iterations and the Lanczos estimate, *lmin the smallest Ritz value of nlanczos Lanczos steps
 * (an upper bound of the smallest eigenvalue, close for enough steps). */
void dirac_q2_spectrum(double *lmin, double *lmax, const dirac_op *D, int niter, int nlanczos);

#ifdef __cplusplus
}
#endif

#endif
