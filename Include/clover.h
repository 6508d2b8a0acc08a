/* clover.h -- the clover term of the Wilson-clover operator for any N and representation:
 *   C(x) = csw (i/4) sum_mu,nu sigma_mu,nu F_mu,nu(x) = csw (i/2) sum_mu<nu sigma F,
 *   F_mu,nu(x) = (Q_mu,nu(x) - Q_mu,nu(x)^+) / 8,  Q = sum of the 4 clover leaves built from
 *   the represented links U^R (boundary phases cancel in every leaf; open links give 0).
 * In the chiral basis sigma_mu,nu is block diagonal, so 4 + m0 + C(x) is two Hermitian
 * (2 NF) x (2 NF) blocks per site (chirality 0: spin components 0,1; chirality 1: 2,3),
 * index s * NF + a for spin s in the block and colour a. The blocks are factorised as
 * L D L^+ (Cholesky form without square roots); a block that is not positive definite stops
 * the program. Blocks and inverses are computed lazily for the links set by
 * dirac_set_gauge_field and the m0 of the operator call. */
#ifndef CLOVER_H
#define CLOVER_H

#include "hr_complex.h"
#include "suN_types.h"

/* Dimension of one clover block. */
#define CLOVER_BLOCK_DIM (2 * NF)

/* Set csw (default 0: pure Wilson); marks the blocks for recomputation. */
void clover_set_csw(double csw);
double clover_csw(void);
/* F_mu,nu(x) (anti-Hermitian, NF x NF) at master site ix from the current links. */
void clover_field_strength(int ix, int mu, int nu, suNf *F);
/* Compute blocks and inverses for mass m0 if they are not current (called by the operators). */
void clover_update(double m0);
/* Copy block `chirality` (0 or 1) of 4 + m0 + C at master site ix (row-major, DIM^2 complex). */
void clover_block(double m0, int ix, int chirality, hr_complex *blk);
/* Copy the inverse of that block. */
void clover_block_inverse(double m0, int ix, int chirality, hr_complex *inv);
/* sum over the master sites of `parity` (HR_PARITY_EVEN, _ODD, _BOTH), all processes, of
 * log det (4 + m0 + C(x)) (both blocks): the HMC's clover determinant term. */
double clover_logdet(double m0, int parity);
/* Release the blocks. */
void clover_finalize(void);

#endif
