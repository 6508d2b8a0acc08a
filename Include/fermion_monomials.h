/* fermion_monomials.h -- the fermion monomials of the HMC for the even/odd preconditioned
 * Wilson-clover operator of the compiled representation (dirac.h), any SU(N): pseudofermion
 * heatbath, action and force update, and the force of a pair of spinor fields that both are
 * built from (Doc/hmc.md, "Fermion monomials", has the derivation).
 *
 * Notation: D = D(m0) the Wilson-clover operator of mass m0, D_oo = 4 + m0 + C on odd sites,
 * Dhat = D_ee - D_eo D_oo^-1 D_oe on glat_even, Q = gamma5 Dhat (Hermitian). det(D^+ D) =
 * det(D_oo)^2 det(Q^2), so with S_det(m0) = -2 sum_{x odd} log det(4 + m0 + C(x)):
 *   hmc (two flavours, mass m):
 *     S = phi^+ (Q(m)^2)^-1 phi + S_det(m)                      weight det(D(m)^+ D(m))
 *     heatbath phi = Q(m) eta
 *   hasenbusch (mass m, shift dm; Q1 = Q(m), Q2 = Q(m + dm)):
 *     S = phi^+ Q2 (Q1^2)^-1 Q2 phi + S_det(m) - S_det(m + dm)
 *                                       weight det(D(m)^+ D(m)) / det(D(m+dm)^+ D(m+dm))
 *     heatbath phi = Q2^-1 Q1 eta
 * with eta Gaussian (exp(-eta^+ eta), gaussian_spinor_field), so that S = eta^+ eta + S_det
 * right after the heatbath. hasenbusch(m, dm) stacked with hmc(m + dm) has the weight of
 * hmc(m) exactly, clover determinants included. The S_det terms are left out for csw = 0
 * (constants). Forces follow md.h: p^a(x,mu) -= eps F^a(x,mu), F^a the derivative of S along
 * U(x,mu) -> exp(i w T^a) U(x,mu) of the fundamental link (through U -> U^R, the boundary
 * phases and the clover leaves).
 *
 * The heatbath draws phi from its distribution (one Gaussian field, the global generator) and
 * returns the action at u, eta^+ eta + the determinant terms; it resets the solver bookkeeping
 * and the chronological history. Invalid parameters (tolerances <= 0, chrono out of 0..8,
 * dm < 0) end the program (exit code 2) when the monomial is built.
 * Solves: mixed-precision CG (cg_mixed_solve) on Q^2 with the relative residual mt_prec for
 * the heatbath and the action and force_prec for the force; with chrono = n > 0 the force
 * solve starts from the polynomial extrapolation of its last n solutions (forgotten at every
 * heatbath). A solve that does not converge stops the program.
 * Backends: the solves and Dirac operators run where hr_backend_current() says; the force
 * pieces are CPU loops (OpenMP, MPI halos), so in GPU builds each force evaluation brings its
 * spinor fields and links to the host and the momenta back (no GPU kernels for them yet).
 * Implemented in: Update/fermion_monomials.c, Update/fermion_force.c. */
#ifndef FERMION_MONOMIALS_H
#define FERMION_MONOMIALS_H

#include "boundary_conditions.h"
#include "dirac.h"
#include "fields.h"
#include "hmc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most solutions kept for the chronological initial guess (key chrono). */
#define FERMION_CHRONO_MAX 8

/* The data of an hmc or hasenbusch monomial (the kinds "hmc" and "hasenbusch" of hmc.h,
 * built by hmc_monomial_new; its ctx): parameters, pseudofermion field, solver bookkeeping. */
typedef struct {
  hmc_monomial_params par;                /* mass, dm, csw, bc, mt_prec, force_prec, chrono */
  int hasenbusch;                         /* 1: the kind hasenbusch */
  spinor_field *phi;                      /* pseudofermion field on glat_even */
  spinor_field *chrono_x;                 /* last solutions of the force solve (ring) */
  int chrono_n;                           /* solutions stored */
  int chrono_last;                        /* index of the newest one */
  hmc_solver_stats solver;                /* solver work since the last heatbath */
} fermion_monomial;

/* ------------------------------------------------------------------ the force pieces */

/* Accumulator of a fermion force: per link the matrix Sigma (fermion representation) with
 * dS = sum Re tr[d(U^R_bc) Sigma] over the represented links with boundary phases, and per
 * site the clover insertions of the six planes. Opaque. */
typedef struct fermion_force_acc fermion_force_acc;

/* An empty accumulator (all host fields on glattice); csw is the clover coefficient of the
 * operators whose terms it will take (0: no clover pieces). */
fermion_force_acc *fermion_force_acc_new(double csw);
/* Set it to zero (start of a force). */
void fermion_force_acc_zero(fermion_force_acc *f);
/* Free it (NULL is ignored). */
void fermion_force_acc_free(fermion_force_acc *f);
/* Add the derivative of c Re[ l^+ Dhat r ] (l, r on glat_even, Dhat the even/odd operator of
 * D; D's csw must be the accumulator's). */
void fermion_force_add_eo(fermion_force_acc *f, const dirac_op *D, double c,
                          const spinor_field *l, const spinor_field *r);
/* Add the derivative of c sum_{x of parity} log det(4 + m0 + C(x)) (nothing for csw = 0). */
void fermion_force_add_logdet(fermion_force_acc *f, const dirac_op *D, double c, int parity);
/* p^a(x,mu) -= eps F^a(x,mu) from the accumulated terms (links of D: the same gauge field and
 * boundary conditions as every term added). */
void fermion_force_apply(suNg_av_field *p, fermion_force_acc *f, const dirac_op *D, double eps);

#ifdef __cplusplus
}
#endif

#endif
