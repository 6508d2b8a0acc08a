/* smearing.h -- gauge-covariant smearing of SU(N) gauge fields for measurements (any N):
 * APE (projected back to SU(N) by the polar decomposition), stout (Morningstar-Peardon,
 * exponential of the traceless antihermitian part of the staple sum), and HYP
 * (Hasenfratz-Knechtli, three levels of decorated links restricted to the hypercube). The
 * smeared field is a copy; the input is unchanged. All directions are smeared isotropically
 * (the time links too). Doc/wilson_flow.md, section "Smearing".
 * Implemented in: Update/smearing.c. */
#ifndef SMEARING_H
#define SMEARING_H

#include "fields.h"
#include "gauge_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kind of smearing. */
typedef enum { SMEAR_NONE = 0, SMEAR_APE = 1, SMEAR_STOUT = 2, SMEAR_HYP = 3 } smear_kind;

/* What smear_gauge_field does. */
typedef struct {
  smear_kind kind;
  int steps;         /* number of iterations */
  double alpha;      /* APE: weight of the 6 staples (V ~ (1-alpha) U + alpha/6 sum C) */
  double rho;        /* stout: weight of each staple (Q from rho * sum C) */
  double hyp[3];     /* HYP: alpha1, alpha2, alpha3 (usual 0.75, 0.6, 0.3) */
} smear_params;

/* Parse "none", "ape", "stout", "hyp"; -1 if unknown. */
int smear_kind_from_name(const char *name);
/* Name of a kind. */
const char *smear_kind_name(smear_kind k);

/* out = the smeared copy of u (both on glattice; u's halo current; out's halo exchanged).
 * Collective. */
void smear_gauge_field(suNg_field *out, const suNg_field *u, const smear_params *p);

/* W = the SU(N) matrix closest to X in the sense of the polar decomposition X = W H
 * (H hermitian positive), with its determinant phase removed; gauge covariant: g X h^+ gives
 * g W h^+. */
void smear_project_sun(suNg *W, const suNg *X);

/* c += the staple of link (ix, mu) in the plane (mu, nu) on the links of v:
 *   U_nu(x) U_mu(x+nu) U_nu(x+mu)^+ + U_nu(x-nu)^+ U_mu(x-nu) U_nu(x-nu+mu). */
void smear_add_staple(suNg *c, const gauge_view *v, int ix, int mu, int nu);
/* A = the traceless antihermitian part of rho C U^+, C the staple sum of the link U: one stout
 * step makes U into exp(A) U (Morningstar and Peardon). */
void smear_stout_exponent(suNg *A, const suNg *c, const suNg *u, double rho);

#ifdef __cplusplus
}
#endif

#endif
