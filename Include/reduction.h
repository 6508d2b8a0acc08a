/* reduction.h -- the one reduction policy of LibHR: every global sum of per-site numbers
 * (linear algebra, observables, the clover log-determinant, actions and kinetic energies of
 * the HMC) is an EXACT sum, so its result is the same bit for bit whatever the number of
 * threads, the GPU block size, the backend and the process grid (wherever the per-site numbers
 * are the same, e.g. random fields keyed by the global site). Doc/fields_and_backends.md.
 *
 * How: the largest |v| over all sites and processes fixes a binary exponent e (a maximum does
 * not depend on the order); every value is split into 4 integer-valued limbs of 22 bits,
 *   v = (l0 + l1 2^-22 + l2 2^-44 + l3 2^-66) 2^(e-22) + (a rest below 2^(e-88)),
 * limb sums are sums of integers below 2^53 -- exact in any order -- for fewer than 2^31 sites,
 * they are summed over the processes (exact as well) and combined in a fixed order at the
 * end. Accuracy: each value is represented to 2^(e-88), i.e. 2^-88 relative to the largest
 * term; for a sum of N terms the error is below N 2^(e-88) plus the roundings of the final
 * combination of the limb sums (3, each relative 2^-53), far below
 * double precision for sums of positive terms. A NaN or infinite value makes the result the
 * plain sum (NaN / Inf stay visible). Device arrays: hr_gpu_sum_exact_n, hr_gpu_sum_sites.
 * Implemented in: Memory/reduction.c, Memory/reduction_gpu.c. */
#ifndef REDUCTION_H
#define REDUCTION_H

#include "geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sum over all processes of v[0 .. n-1] of every process (host arrays), exactly as above. */
double global_sum_exact(const double *v, long n);
/* The same for `k` interleaved sums: out[j] = sum over i of v[i * k + j], j < k <= 4. */
void global_sum_exact_n(double *out, const double *v, long n, int k);
/* Sum over the master sites of g, all processes, of the per-site numbers v[ix - g->master_shift]
 * (k interleaved numbers per site as in global_sum_exact_n: out[0 .. k-1]). */
void global_sum_sites(double *out, const geometry_descriptor *g, const double *v, int k);
/* The same as global_sum_exact_n (bit for bit) for n rows of k <= 4 interleaved values in
 * DEVICE memory (GPU builds; CPU builds: memory of hr_gpu_alloc): maxima and limb sums are
 * reduced by kernels, only k + 1 doubles and 4 k integers come to the host. */
void hr_gpu_sum_exact_n(double *out, const double *dev_v, long n, int k);
/* The same as global_sum_sites for a device array of per-site numbers
 * dev_v[(ix - g->master_shift) k + j] (only the master pieces of g are read). */
void hr_gpu_sum_sites(double *out, const geometry_descriptor *g, const double *dev_v, int k);
/* Host scratch of at least n doubles for per-site numbers (grow-only, one per thread of the
 * caller: not re-entrant). */
double *reduction_scratch(long n);

#ifdef __cplusplus
}
#endif

#endif
