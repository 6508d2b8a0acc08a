/* propagator.h -- quark propagators and meson correlators on top of the solvers of
 * inverters.h and the Dirac operators of dirac.h: the Dirac operators as
 * hr_linear_operator, point sources, the even/odd preconditioned solve of D x = b with the
 * full solution reconstructed and checked with the full operator, the 4 x NF columns of a
 * point-source propagator, and the meson two-point functions. Conventions (gamma matrices,
 * signs, normalisation): Doc/solvers_and_spectrum.md. */
#ifndef PROPAGATOR_H
#define PROPAGATOR_H

#include "inverters.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which Dirac operator (dirac.h) a hr_linear_operator applies. */
typedef enum {
  HR_OP_D = 0,      /* D (glattice), adjoint gamma5 D gamma5 */
  HR_OP_Q = 1,      /* Q = gamma5 D (glattice), Hermitian */
  HR_OP_Q2 = 2,     /* Q^2 (glattice), Hermitian positive */
  HR_OP_EO = 3,     /* Dphi_eopre (glat_even), adjoint gamma5 Dphi_eopre gamma5 */
  HR_OP_QEO = 4,    /* gamma5 Dphi_eopre (glat_even), Hermitian */
  HR_OP_QEO2 = 5    /* (gamma5 Dphi_eopre)^2 (glat_even), Hermitian positive */
} hr_dirac_op_kind;

/* Context of a Dirac hr_linear_operator (owned by the caller; free its temporaries with
 * dirac_operator_release). */
typedef struct {
  hr_dirac_op_kind kind;
  double m0;
  spinor_field *tmp;         /* temporaries of the adjoints, allocated at first use */
  spinor_field_flt *tmp_flt;
} hr_dirac_op;

/* The operator `kind` with bare mass m0 (both precisions, adjoint where not Hermitian);
 * `ctx` is filled and must outlive the returned operator. Flop count from
 * dirac_operator_flops. The operators act on the host copies of the fields (GPU builds:
 * the copies are synchronised around each application). */
hr_linear_operator dirac_linear_operator(hr_dirac_op *ctx, hr_dirac_op_kind kind, double m0);
/* Free the temporaries of a Dirac operator context. */
void dirac_operator_release(hr_dirac_op *ctx);
/* Floating-point operations of one application of `kind` on the whole lattice: the hopping
 * term counts dirac_hop_flop_per_site() per output site; the diagonal 4 + m0 + C
 * counts 2 (2NF)^2 complex multiply-adds (8 flop each) with clover, 2 x 8 NF flop without. */
double dirac_operator_flops(hr_dirac_op_kind kind);

/* s = point source at global site gx: 1 in spin `spin`, colour `colour`, 0 elsewhere
 * (s on glattice). */
void point_source(spinor_field *s, const int gx[4], int spin, int colour);

/* Solve D x = b (glattice) with even/odd preconditioning: b_e' = b_e - D_eo D_oo^-1 b_o,
 * CG on (gamma5 Dphi_eopre)^2 y = gamma5 b_e' (mixed: single precision with reliable
 * updates), x_e = gamma5 Dphi_eopre y, x_o = D_oo^-1 (b_o - D_oe x_e). res->residual is the
 * true |b - D x| / |b| of the full operator; the status is non-zero when it misses p->tol.
 * res->iterations etc. are those of the even-site solve. */
hr_solver_status dirac_solve_eo(double m0, const spinor_field *b, spinor_field *x, int mixed,
                                const hr_solver_params *p, hr_solver_result *res);

/* Point-source propagator: prop[spin * NF + colour] = D^-1 (point source at gx with that
 * spin and colour), 4 NF fields on glattice (e.g. alloc_spinor_field_f(4 * NF, &glattice)).
 * res: 4 NF results or NULL. Returns the worst status of the solves. */
hr_solver_status propagator_point(double m0, const int gx[4], spinor_field *prop, int mixed,
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
void meson_correlators(const spinor_field *prop, int t0, int nch, const hr_meson_channel *ch,
                       double *corr);

#ifdef __cplusplus
}
#endif

#endif
