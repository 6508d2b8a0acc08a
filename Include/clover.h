/* clover.h -- the clover term of the Wilson-clover operator for any N and representation:
 *   C(x) = csw (i/4) sum_mu,nu sigma_mu,nu F_mu,nu(x) = csw (i/2) sum_mu<nu sigma F,
 *   F_mu,nu(x) = (Q_mu,nu(x) - Q_mu,nu(x)^+) / 8,  Q = sum of the 4 clover leaves built from
 *   the represented links U^R (boundary phases cancel in every leaf; open links give 0).
 * In the chiral basis sigma_mu,nu is block diagonal, so 4 + m0 + C(x) is two Hermitian
 * (2 NF) x (2 NF) blocks per site (chirality 0: spin components 0,1; chirality 1: 2,3),
 * index s * NF + a for spin s in the block and colour a. The blocks are factorised as
 * L D L^+ (Cholesky form without square roots); a block that is not positive definite stops
 * the program. Blocks, inverses and log-determinants belong to a Dirac operator (dirac.h):
 * they are computed on first use and recomputed when its gauge field, csw or m0 changes.
 * Implemented in: LibHR/Dirac/clover.c. */
#ifndef CLOVER_H
#define CLOVER_H

#include "dirac.h"
#include "hr_complex.h"
#include "suN_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Dimension of one clover block. */
#define CLOVER_BLOCK_DIM (2 * NF)

/* F_mu,nu(x) (anti-Hermitian, NF x NF) at master site ix of the represented links uf
 * (gauge halo exchanged, e.g. dirac_links(D)). */
void clover_field_strength(suNf *F, const suNf_field *uf, int ix, int mu, int nu);
/* blk = block `chirality` (0 or 1) of 4 + m0 + C of D at master site ix (row-major, DIM^2
 * complex numbers). */
void clover_block(hr_complex *blk, const dirac_op *D, int ix, int chirality);
/* inv = the inverse of that block. */
void clover_block_inverse(hr_complex *inv, const dirac_op *D, int ix, int chirality);
/* The field of the inverse blocks of D's clover term (glattice, one suNf_clover per site:
 * c[chirality] as clover_block_inverse), built if stale; NULL when csw = 0. For the HMC force
 * (Update/fermion_force.c), which reads it on the host or the device copy. */
const clover_field *clover_inverse_field(const dirac_op *D);
/* Sum over the master sites of `parity` (HR_PARITY_EVEN, _ODD, _BOTH), all processes, of
 * log det (4 + m0 + C(x)) (both blocks): the HMC's clover determinant term. Summed with the
 * reduction policy of reduction.h (bitwise the same for any thread count, process grid and
 * backend). With csw = 0 it is 4 NF log(4 + m0) per site. */
double clover_logdet(const dirac_op *D, int parity);

#ifdef __cplusplus
}
#endif

#endif
