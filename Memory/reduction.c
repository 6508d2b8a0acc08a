/* reduction.c -- the exact global sums of reduction.h: a global maximum fixes the binary
 * exponent, every value is split into 4 integer-valued limbs of 22 bits whose sums are exact
 * in any order (threads, processes), and the limb sums are combined in a fixed order. The
 * same from device arrays (hr_gpu_sum_exact_n, hr_gpu_sum_sites): the maxima and limb sums
 * are reduced on the device (Memory/reduction_gpu.c), the rest is shared with the host path. */
#include "reduction.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "communications.h"
#include "gpu.h"
#include "hr_core.h"
#include "hr_error.h"
#include "reduction_sites.h"

#define LIMBS HR_EXACT_LIMBS
#define LIMB_BITS HR_EXACT_LIMB_BITS
#define MAX_SUMS HR_EXACT_MAX_SUMS

/* Grow-only host buffers: the callers' scratch and the gather buffer of global_sum_sites. */
static double *scratch = NULL, *gather = NULL;
static long scratch_len = 0, gather_len = 0;

static double *grow(double **buf, long *len, long n) {
  if (n > *len) {
    free(*buf);
    *buf = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (*buf == NULL) hr_error("out of memory for %ld reduction values", n);
    *len = n;
  }
  return *buf;
}

/* The plain sums (NaN or Inf somewhere: keeps them visible), over all processes. */
static void plain_sum(double *out, const double *v, long n, int k) {
  for (int j = 0; j < k; j++) {
    double s = 0;
    for (long i = 0; i < n; i++) s += v[i * k + j];
    out[j] = s;
  }
  global_sum(out, k);
}

/* Binary exponent e of each global maximum big[j] and the scale 2^-e (hr_exact_scale, the
 * same function as on the device). */
static void exponents(const double *big, int k, double *scale, int *expo) {
  for (int j = 0; j < k; j++) scale[j] = hr_exact_scale(big[j], &expo[j]);
}

/* Sum the limb sums over the processes (exact) and combine them in a fixed order. */
static void combine(double *out, double *limb, const double *big, const int *expo, int k) {
  global_sum(limb, k * LIMBS);
  for (int j = 0; j < k; j++) {
    const double *s = limb + j * LIMBS;
    const double x = ((s[3] * 0x1p-22 + s[2]) * 0x1p-22 + s[1]) * 0x1p-22 + s[0];
    out[j] = big[j] > 0 ? ldexp(x, expo[j] - LIMB_BITS) : 0.0;
  }
}

/* out[j] = exact sum over processes of the k interleaved sums of v (n rows). */
void global_sum_exact_n(double *out, const double *v, long n, int k) {
  hr_assert(k >= 1 && k <= MAX_SUMS, "global_sum_exact_n: %d sums (1 to %d)", k, MAX_SUMS);
  /* largest |value| of each sum, and whether any value is not finite */
  double big[MAX_SUMS + 1] = {0, 0, 0, 0, 0};
  for (int j = 0; j < k; j++) {
    double m = 0, bad = 0;
    HR_OMP_PRAGMA(omp parallel for simd schedule(static) reduction(max : m, bad))
    for (long i = 0; i < n; i++) {
      const double a = fabs(v[i * k + j]);
      const int finite = a <= 1.7976931348623157e308; /* false for NaN and Inf */
      bad = finite ? bad : 1;                         /* branch free: vectorises */
      m = (finite && a > m) ? a : m;
    }
    big[j] = m;
    if (bad > big[MAX_SUMS]) big[MAX_SUMS] = bad;
  }
  global_max(big, MAX_SUMS + 1);
  if (big[MAX_SUMS] > 0) { /* NaN or Inf somewhere: the plain sum keeps it visible */
    plain_sum(out, v, n, k);
    return;
  }
  double limb[MAX_SUMS * LIMBS] = {0};
  double scale[MAX_SUMS];
  int expo[MAX_SUMS];
  exponents(big, k, scale, expo);
  for (int j = 0; j < k; j++) {
    int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0; /* below 2^53 for n < 2^31 */
    const double sc = scale[j];
    HR_OMP_PRAGMA(omp parallel for simd schedule(static) reduction(+ : s0, s1, s2, s3))
    for (long i = 0; i < n; i++) HR_EXACT_ACCUMULATE(v[i * k + j] * sc, s0, s1, s2, s3);
    limb[j * LIMBS + 0] = (double)s0; /* exact: below 2^53 */
    limb[j * LIMBS + 1] = (double)s1;
    limb[j * LIMBS + 2] = (double)s2;
    limb[j * LIMBS + 3] = (double)s3;
  }
  combine(out, limb, big, expo, k);
}

double global_sum_exact(const double *v, long n) {
  double s;
  global_sum_exact_n(&s, v, n, 1);
  return s;
}

void global_sum_sites(double *out, const geometry_descriptor *g, const double *v, int k) {
  /* the master sites of g: their pieces, separated by copies and halos unless g has none */
  long n = 0;
  for (int p = 0; p < g->local_master_pieces; p++) n += g->master_end[p] - g->master_start[p] + 1;
  const int last = g->local_master_pieces - 1;
  if (last < 0 || (g->master_start[0] == g->master_shift &&
                   g->master_end[last] - g->master_shift + 1 == n)) { /* contiguous */
    global_sum_exact_n(out, v, n, k);
    return;
  }
  double *w = grow(&gather, &gather_len, n * k);
  long m = 0;
  for (int p = 0; p < g->local_master_pieces; p++)
    for (int ix = g->master_start[p]; ix <= g->master_end[p]; ix++, m++)
      for (int j = 0; j < k; j++) w[m * k + j] = v[(long)(ix - g->master_shift) * k + j];
  global_sum_exact_n(out, w, n, k);
}

double *reduction_scratch(long n) { return grow(&scratch, &scratch_len, n); }

/* ------------------------------------------------------------------ device arrays */

/* The exact sums of the rows of the segments of a device array: maxima and limb sums on the
 * device, the same exponents and combination as global_sum_exact_n. */
static void device_sum(double *out, const double *dev_v, hr_exact_segments seg, int k) {
  hr_assert(k >= 1 && k <= MAX_SUMS, "hr_gpu_sum_exact_n: %d sums (1 to %d)", k, MAX_SUMS);
#if HR_GPU_ENABLED
  /* one process: maxima, scales and limb sums in one sequence on the device, one copy; else
   * the maxima first, for global_max over the processes, then the limb sums */
  const int one = hr_nranks() == 1;
  double big[MAX_SUMS + 1] = {0, 0, 0, 0, 0};
  int64_t ls[MAX_SUMS * LIMBS];
  if (one)
    hr_exact_gpu_local(big, ls, dev_v, seg, k);
  else
    hr_exact_gpu_max(big, dev_v, seg, k);
  for (int j = 0; j < k; j++) /* +infinity: a value is not finite */
    if (!(big[j] <= 1.7976931348623157e308)) big[MAX_SUMS] = 1;
  global_max(big, MAX_SUMS + 1);
  long n = 0;
  for (int q = 0; q < seg.n; q++) n += seg.len[q];
  if (big[MAX_SUMS] > 0) { /* NaN or Inf: an error case, the values come to the host */
    double *w = grow(&gather, &gather_len, n * k > 0 ? n * k : 1);
    long m = 0;
    for (int q = 0; q < seg.n; q++) {
      hr_gpu_copy_to_host(w + m * k, dev_v + seg.off[q] * k,
                          (size_t)(seg.len[q] * k) * sizeof(double));
      m += seg.len[q];
    }
    plain_sum(out, w, n, k);
    return;
  }
  double scale[MAX_SUMS];
  int expo[MAX_SUMS];
  exponents(big, k, scale, expo);
  if (!one) hr_exact_gpu_limbs(ls, dev_v, seg, k, scale);
  double limb[MAX_SUMS * LIMBS] = {0};
  for (int i = 0; i < k * LIMBS; i++) limb[i] = (double)ls[i]; /* exact: below 2^53 */
  combine(out, limb, big, expo, k);
#else
  /* CPU builds: "device" memory is host memory (hr_gpu_alloc) */
  long n = 0;
  for (int q = 0; q < seg.n; q++) n += seg.len[q];
  double *w = grow(&gather, &gather_len, n * k > 0 ? n * k : 1);
  long m = 0;
  for (int q = 0; q < seg.n; q++)
    for (long i = 0; i < seg.len[q] * k; i++) w[m++] = dev_v[seg.off[q] * k + i];
  global_sum_exact_n(out, w, n, k);
#endif
}

void hr_gpu_sum_exact_n(double *out, const double *dev_v, long n, int k) {
  const long off = 0;
  hr_exact_segments seg;
  seg.n = 1;
  seg.off = &off;
  seg.len = &n;
  device_sum(out, dev_v, seg, k);
}

void hr_gpu_sum_sites(double *out, const geometry_descriptor *g, const double *dev_v, int k) {
  enum { STATIC_PIECES = 64 };
  long off_s[STATIC_PIECES] = {0}, len_s[STATIC_PIECES] = {0};
  const int np = g->local_master_pieces;
  long *off = np <= STATIC_PIECES ? off_s : (long *)malloc((size_t)np * sizeof(long));
  long *len = np <= STATIC_PIECES ? len_s : (long *)malloc((size_t)np * sizeof(long));
  if (off == NULL || len == NULL) hr_error("out of memory for %d pieces", np);
  for (int p = 0; p < np; p++) {
    off[p] = g->master_start[p] - g->master_shift;
    len[p] = g->master_end[p] - g->master_start[p] + 1;
  }
  hr_exact_segments seg;
  seg.n = np;
  seg.off = off;
  seg.len = len;
  device_sum(out, dev_v, seg, k);
  if (off != off_s) free(off);
  if (len != len_s) free(len);
}
