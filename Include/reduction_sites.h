/* reduction_sites.h -- the per-value mathematics of the exact sums of reduction.h, written
 * once for the host loops (Geometry/reduction.c) and the device kernels
 * (Memory/reduction_gpu.c): the finiteness test, the split of a value into integer-valued
 * limbs; and the launchers of the device kernels (internal to LibHR: the public entry points
 * are hr_gpu_sum_exact_n and hr_gpu_sum_sites of reduction.h). */
#ifndef REDUCTION_SITES_H
#define REDUCTION_SITES_H

#include <stdint.h>

#include "hr_inline.h"

/* Limbs per value, bits per limb, largest number of interleaved sums. */
#define HR_EXACT_LIMBS 4
#define HR_EXACT_LIMB_BITS 22
#define HR_EXACT_MAX_SUMS 4

/* |x| if x is finite, else -1 (NaN and infinities: false comparison, branch free). */
HR_INLINE double hr_exact_finite_abs(double x) {
  const double a = x < 0 ? -x : x;
  return a <= 1.7976931348623157e308 ? a : -1.0;
}

/* Limbs of x (|x| < 1): x = (l0 + l1 2^-22 + l2 2^-44 + l3 2^-66) 2^-22 + (below 2^-88),
 * every step exact (a power-of-two scaling, a truncation, the difference of a number and its
 * integer part); the limbs are integers below 2^22 in magnitude. */
HR_INLINE void hr_exact_split(double x, int32_t l[HR_EXACT_LIMBS]) {
  double y = x * 4194304.0; /* 2^22 */
  for (int k = 0; k < HR_EXACT_LIMBS; k++) {
    l[k] = (int32_t)y;
    y = (y - (double)l[k]) * 4194304.0;
  }
}

/* The power-of-two scales 2^-e of the k sums (by value into kernels). */
typedef struct {
  double s[HR_EXACT_MAX_SUMS];
} hr_exact_scales;

/* A list of segments of a device array of k interleaved values per row: segment q has
 * len[q] rows starting at row off[q] (host arrays). */
typedef struct {
  int n;
  const long *off, *len;
} hr_exact_segments;

#ifdef __cplusplus
extern "C" {
#endif

/* Device kernels (GPU builds, Memory/reduction_gpu.c). big[j] (j < k) = the largest finite
 * |v[r k + j]| over the rows of the segments, big[k] = 1 if any value is not finite, else 0
 * (host array of k + 1; one launch per segment and one final launch, k + 1 doubles come to
 * the host). */
void hr_exact_gpu_max(double *big, const double *v, hr_exact_segments seg, int k);
/* limb[4 j + l] = sum over the rows of limb l of v[r k + j] sc.s[j] (host array of 4 k; exact
 * integer sums, 4 k integers come to the host). */
void hr_exact_gpu_limbs(int64_t *limb, const double *v, hr_exact_segments seg, int k,
                        hr_exact_scales sc);

#ifdef __cplusplus
}
#endif

#endif
