/* propagator.h -- quark propagators and meson correlators on top of the solvers of
 * inverters.h and the Dirac operators of dirac.h (dirac_linear_operator gives the solvers'
 * view of an operator): point sources, the even/odd preconditioned solve of D x = b with the
 * full solution reconstructed and checked with the full operator, the 4 x NF columns of a
 * point-source propagator, and the meson two-point functions. Conventions (gamma matrices,
 * signs, normalisation): Doc/solvers_and_spectrum.md.
 * Implemented in: LibHR/Spectrum/propagator.c, LibHR/Spectrum/quark_smearing.c. */
#ifndef PROPAGATOR_H
#define PROPAGATOR_H

#include "dirac.h"
#include "inverters.h"
#include "smearing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* s = point source at global site gx: 1 in spin `spin`, colour `colour`, 0 elsewhere
 * (s on glattice). */
void point_source(spinor_field *s, const int gx[4], int spin, int colour);

/* Solve D x = b (glattice) with even/odd preconditioning: b_e' = b_e - D_eo D_oo^-1 b_o,
 * CG on (gamma5 Dphi_eopre)^2 y = gamma5 b_e' (mixed: single precision with reliable
 * updates), x_e = gamma5 Dphi_eopre y, x_o = D_oo^-1 (b_o - D_oe x_e). res->residual is the
 * true |b - D x| / |b| of the full operator; the status is non-zero when it misses p->tol.
 * res->iterations etc. are those of the even-site solve. */
hr_solver_status dirac_solve_eo(spinor_field *x, const dirac_op *D, const spinor_field *b,
                                int mixed, const hr_solver_params *p, hr_solver_result *res);

/* Point-source propagator: prop[spin * NF + colour] = D^-1 (point source at gx with that
 * spin and colour), 4 NF fields on glattice (e.g. alloc_spinor_field_f(4 * NF, &glattice)).
 * res: 4 NF results or NULL. Returns the worst status of the solves. */
hr_solver_status propagator_point(spinor_field *prop, const dirac_op *D, const int gx[4],
                                  int mixed, const hr_solver_params *p, hr_solver_result *res);

/* ---- Gaussian (Wuppertal) quark smearing: psi <- [(1 + kappa H) / (1 + 6 kappa)]^steps psi,
 * H psi(x) = sum_{k=1..3} [U_k(x) psi(x+k) + U_k(x-k)^+ psi(x-k)] with the represented links
 * (times the Dirac operator's boundary phases) of the gauge field, optionally APE / stout /
 * HYP smeared first (smearing.h). Normalised: for unit links without phases a constant field
 * is unchanged. Doc/solvers_and_spectrum.md, "Quark smearing". */
/* What a quark smearing does. */
typedef struct {
  double kappa;       /* kappa_s >= 0 */
  int steps;          /* number of applications n >= 0 */
  smear_params links; /* link smearing before use (kind SMEAR_NONE: the links as they are) */
} quark_smearing_params;
/* A quark smearing ready to apply: its represented links and parameters. */
typedef struct {
  suNf_field *links; /* (smeared) represented links times boundary phases, halo exchanged */
  double kappa;
  int steps;
} quark_smearing;
/* Build qs for the links u (fundamental, glattice; its halo is not used) with boundary
 * conditions bc. Collective. */
void quark_smearing_init(quark_smearing *qs, const suNg_field *u, const dirac_bc *bc,
                         const quark_smearing_params *p);
/* Free the links of qs. */
void quark_smearing_free(quark_smearing *qs);
/* out = H in (spatial hopping term of qs's links; glattice, out != in). Collective. */
void quark_smearing_hop(spinor_field *out, const quark_smearing *qs, const spinor_field *in);
/* psi <- [(1 + kappa H) / (1 + 6 kappa)]^steps psi (glattice). Collective. */
void quark_smear(spinor_field *psi, const quark_smearing *qs);
/* Smeared sink: quark_smear on each of the 4 NF columns of a propagator. Collective. */
void propagator_smear_sink(spinor_field *prop, const quark_smearing *qs);
/* As propagator_point with every point source smeared by quark_smear(., qs) before its solve
 * (smeared source); qs == NULL gives propagator_point. */
hr_solver_status propagator_smeared_point(spinor_field *prop, const dirac_op *D,
                                          const int gx[4], const quark_smearing *qs, int mixed,
                                          const hr_solver_params *p, hr_solver_result *res);

/* Meson channels: name and the Dirac matrices Gamma averaged over. */
typedef struct {
  const char *name;
  int ngamma;
  int gamma[3]; /* 0..3: gamma_mu; 4: gamma5; 5: 1; 6 + mu: gamma_mu gamma5 */
} hr_meson_channel;
/* The standard channels: pi (gamma5), rho (gamma_1..3 averaged), a0 (1), axial
 * (gamma0 gamma5), a1 (gamma_k gamma5 averaged); their number in *n. */
const hr_meson_channel *meson_channels(int *n);
/* C_Gamma(t) = - sum_x sum_{colours} tr[gamma5 Gamma S(x) Gammabar gamma5 S(x)^+], where
 * Gammabar = gamma0 Gamma^+ gamma0, S(x) the propagator from the source at time slice t0
 * (prop as from propagator_point) and t = x_0 - t0 (mod GLB_T); averaged over the
 * matrices of the channel. corr: nch x GLB_T numbers, channel-major. Collective. */
void meson_correlators(double *corr, const spinor_field *prop, int t0, int nch,
                       const hr_meson_channel *ch);

#ifdef __cplusplus
}
#endif

#endif
