/* reduction_sites.h -- the per-value mathematics of the exact sums of reduction.h, written
 * once for the host loops (Memory/reduction.c) and the device kernels
 * (Memory/reduction_gpu.c): the magnitude with its finiteness test, the scale of a sum, the
 * split of a value into integer-valued limbs; and the launchers of the device kernels
 * (internal to LibHR: the public entry points are hr_gpu_sum_exact_n and hr_gpu_sum_sites of
 * reduction.h). */
#ifndef REDUCTION_SITES_H
#define REDUCTION_SITES_H

#include <math.h>
#include <stdint.h>

#include "hr_inline.h"

/* Limbs per value, bits per limb, largest number of interleaved sums. */
#define HR_EXACT_LIMBS 4
#define HR_EXACT_LIMB_BITS 22
#define HR_EXACT_MAX_SUMS 4

/* |x| if x is finite, else +infinity (NaN and infinities: a false comparison, branch free),
 * so that the largest magnitude of a sum says whether one of its values is not finite. */
HR_INLINE double hr_exact_magnitude(double x) {
  const double a = x < 0 ? -x : x;
  return a <= 1.7976931348623157e308 ? a : (double)INFINITY;
}

/* The power of two 2^-e by which the values of a sum of largest magnitude big are scaled
 * before the split (big = m 2^e, 1/2 <= m < 1, so |v| 2^-e < 1; e = 0 for big = 0), and e;
 * 0 (and e = 0) when big is not finite. Exact: the same bits on the host and the device. */
HR_INLINE double hr_exact_scale(double big, int *e) {
  *e = 0;
  if (!(big <= 1.7976931348623157e308)) return 0.0;
  frexp(big, e);
  return ldexp(1.0, -*e);
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

/* Add the limbs of x (|x| < 1) to the integer sums s0 .. s3 (lvalues: OpenMP reduction
 * variables on the host, registers in the kernels). */
#define HR_EXACT_ACCUMULATE(x, s0, s1, s2, s3)                                                 \
  do {                                                                                         \
    int32_t hr_l_[HR_EXACT_LIMBS];                                                             \
    hr_exact_split((x), hr_l_);                                                                \
    (s0) += hr_l_[0];                                                                          \
    (s1) += hr_l_[1];                                                                          \
    (s2) += hr_l_[2];                                                                          \
    (s3) += hr_l_[3];                                                                          \
  } while (0)

/* A list of segments of a device array of k interleaved values per row: segment q has
 * len[q] rows starting at row off[q] (host arrays). */
typedef struct {
  int n;
  const long *off, *len;
} hr_exact_segments;

#ifdef __cplusplus
extern "C" {
#endif

/* Device kernels (GPU builds, Memory/reduction_gpu.c) over the rows of the segments of the
 * device array v (k values per row), each one launch per segment and one final launch:
 * big[j] = the largest hr_exact_magnitude(v[r k + j]) (+infinity: a value is not finite);
 * k doubles come to the host. */
void hr_exact_gpu_max(double *big, const double *v, hr_exact_segments seg, int k);
/* limb[4 j + l] = sum over the rows of limb l of v[r k + j] scale[j] (scale: host array of k
 * powers of two from hr_exact_scale); exact integer sums, 4 k integers come to the host. */
void hr_exact_gpu_limbs(int64_t *limb, const double *v, hr_exact_segments seg, int k,
                        const double *scale);
/* Both for one process, with a single copy to the host (8 k + 32 k bytes): the maxima, the
 * scales computed from them on the device (hr_exact_scale; all 0 when a value is not
 * finite), then the limb sums. */
void hr_exact_gpu_local(double *big, int64_t *limb, const double *v, hr_exact_segments seg,
                        int k);

#ifdef __cplusplus
}
#endif

#endif
