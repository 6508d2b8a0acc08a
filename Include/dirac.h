/* dirac.h -- the Wilson and Wilson-clover Dirac operators (DESIGN section 3, Doc/dirac.md):
 *   D psi(x) = (4 + m0) psi(x) + C psi(x) + Dphi_ psi(x),
 *   Dphi_ psi(x) = -1/2 sum_mu [(1 - gamma_mu) U_mu(x) psi(x+mu)
 *                              + (1 + gamma_mu) U_mu(x-mu)^+ psi(x-mu)],
 *   C = csw (i/4) sum_mu,nu sigma_mu,nu F_mu,nu (clover.h; zero when csw = 0),
 * with U the represented links set by dirac_set_gauge_field (boundary phases included,
 * boundary_conditions.h). Even/odd preconditioning: D_ee = D_oo = 4 + m0 + C on one parity,
 *   Dphi_eopre = D_ee - D_eo D_oo^-1 D_oe   (fields on glat_even),
 * and the Hermitian Q = gamma5 D forms. Every operator has a single-precision twin with the
 * suffix _flt acting on spinor_field_flt (links rounded from the double ones).
 * Under MPI each application starts the halo exchange of its input, computes the inner pieces,
 * completes the exchange and computes the boundary pieces (dirac_set_comm_overlap(0): wait
 * for the exchange first). Output and input must be different fields. */
#ifndef DIRAC_H
#define DIRAC_H

#include "boundary_conditions.h"
#include "clover.h"
#include "dirac_fields.h"

/* Use `uf` (represented links with boundary phases and exchanged halo, kept by pointer and
 * not copied: call again after changing it) for all operators; packs it (8 links per site, both
 * precisions) for the hopping loop and marks the clover term for recomputation. */
void dirac_set_gauge_field(const suNf_field *uf);
/* The links set by dirac_set_gauge_field (NULL before). */
const suNf_field *dirac_gauge_field(void);
/* Overlap of communication and computation: 1 (default) or 0. */
void dirac_set_comm_overlap(int on);
int dirac_comm_overlap(void);
/* Standard flop count of one application of the hopping term per output site. */
long dirac_hop_flop_per_site(void);
/* Unavoidable bytes per output site of the even/odd hopping term (double: 8, single: 4). */
long dirac_hop_bytes_per_site(int real_bytes);

/* --------------------------------------------------------------- double precision */
/* out = Dphi_ in: hopping term from the parity of in to the parity of out (glat_even <-
 * glat_odd, glat_odd <- glat_even, or glattice <- glattice). */
void Dphi_(spinor_field *out, const spinor_field *in);
/* out = D in on glattice. */
void Dphi(double m0, spinor_field *out, const spinor_field *in);
/* out = gamma5 D in on glattice. */
void g5Dphi(double m0, spinor_field *out, const spinor_field *in);
/* out = (gamma5 D)^2 in on glattice. */
void g5Dphi_sq(double m0, spinor_field *out, const spinor_field *in);
/* out = (D_ee - D_eo D_oo^-1 D_oe) in on glat_even. */
void Dphi_eopre(double m0, spinor_field *out, const spinor_field *in);
/* out = gamma5 Dphi_eopre in. */
void g5Dphi_eopre(double m0, spinor_field *out, const spinor_field *in);
/* out = (gamma5 Dphi_eopre)^2 in. */
void g5Dphi_eopre_sq(double m0, spinor_field *out, const spinor_field *in);
/* out = (4 + m0 + C) in, site by site (any geometry). */
void Dphi_diag(double m0, spinor_field *out, const spinor_field *in);
/* out = (4 + m0 + C)^-1 in, site by site (any geometry). */
void Dphi_diag_inv(double m0, spinor_field *out, const spinor_field *in);

/* --------------------------------------------------------------- single precision */
void Dphi_flt_(spinor_field_flt *out, const spinor_field_flt *in);
void Dphi_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);
void g5Dphi_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);
void g5Dphi_sq_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);
void Dphi_eopre_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);
void g5Dphi_eopre_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);
void g5Dphi_eopre_sq_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);
void Dphi_diag_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);
void Dphi_diag_inv_flt(double m0, spinor_field_flt *out, const spinor_field_flt *in);

/* Release the module's temporaries and single-precision links (optional, at exit). */
void dirac_finalize(void);

#endif
