/* reduction.c -- the exact global sums of reduction.h: a global maximum fixes the binary
 * exponent, every value is split into 4 integer-valued limbs of 22 bits whose sums are exact
 * in any order (threads, processes), and the limb sums are combined in a fixed order. */
#include "reduction.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "communications.h"
#include "hr_error.h"

#define LIMBS 4
#define LIMB_BITS 22
#define MAX_SUMS 4

/* Limbs of x (|x| < 1): x = (l0 + l1 2^-22 + l2 2^-44 + l3 2^-66) 2^-22 + (below 2^-88),
 * every step exact (a power-of-two scaling, a truncation, the difference of a number and its
 * integer part); the limbs are integers below 2^22 in magnitude, so the truncation is a
 * conversion to int32_t and the sums run in int64_t (cheap and vectorisable). */
static inline void split(double x, int32_t l[LIMBS]) {
  double y = x * 0x1p22;
  for (int k = 0; k < LIMBS; k++) {
    l[k] = (int32_t)y;
    y = (y - (double)l[k]) * 0x1p22;
  }
}

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

/* out[j] = exact sum over processes of the k interleaved sums of v (n rows). */
void global_sum_exact_n(const double *v, long n, int k, double *out) {
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
    for (int j = 0; j < k; j++) {
      double s = 0;
      for (long i = 0; i < n; i++) s += v[i * k + j];
      out[j] = s;
    }
    global_sum(out, k);
    return;
  }
  double limb[MAX_SUMS * LIMBS] = {0};
  double scale[MAX_SUMS];
  int expo[MAX_SUMS];
  for (int j = 0; j < k; j++) {
    frexp(big[j], &expo[j]); /* big = m 2^e, 1/2 <= m < 1: |v| 2^-e < 1 */
    scale[j] = ldexp(1.0, -expo[j]);
  }
  for (int j = 0; j < k; j++) {
    int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0; /* below 2^53 for n < 2^31 */
    const double sc = scale[j];
    HR_OMP_PRAGMA(omp parallel for simd schedule(static) reduction(+ : s0, s1, s2, s3))
    for (long i = 0; i < n; i++) {
      int32_t l[LIMBS];
      split(v[i * k + j] * sc, l);
      s0 += l[0];
      s1 += l[1];
      s2 += l[2];
      s3 += l[3];
    }
    limb[j * LIMBS + 0] = (double)s0; /* exact: below 2^53 */
    limb[j * LIMBS + 1] = (double)s1;
    limb[j * LIMBS + 2] = (double)s2;
    limb[j * LIMBS + 3] = (double)s3;
  }
  global_sum(limb, k * LIMBS);
  for (int j = 0; j < k; j++) {
    const double *s = limb + j * LIMBS;
    const double x = ((s[3] * 0x1p-22 + s[2]) * 0x1p-22 + s[1]) * 0x1p-22 + s[0];
    out[j] = big[j] > 0 ? ldexp(x, expo[j] - LIMB_BITS) : 0.0;
  }
}

double global_sum_exact(const double *v, long n) {
  double s;
  global_sum_exact_n(v, n, 1, &s);
  return s;
}

void global_sum_sites(const geometry_descriptor *g, const double *v, int k, double *out) {
  /* the master sites of g: their pieces, separated by copies and halos unless g has none */
  long n = 0;
  for (int p = 0; p < g->local_master_pieces; p++) n += g->master_end[p] - g->master_start[p] + 1;
  const int last = g->local_master_pieces - 1;
  if (last < 0 || (g->master_start[0] == g->master_shift &&
                   g->master_end[last] - g->master_shift + 1 == n)) { /* contiguous */
    global_sum_exact_n(v, n, k, out);
    return;
  }
  double *w = grow(&gather, &gather_len, n * k);
  long m = 0;
  for (int p = 0; p < g->local_master_pieces; p++)
    for (int ix = g->master_start[p]; ix <= g->master_end[p]; ix++, m++)
      for (int j = 0; j < k; j++) w[m * k + j] = v[(long)(ix - g->master_shift) * k + j];
  global_sum_exact_n(w, n, k, out);
}

double *reduction_scratch(long n) { return grow(&scratch, &scratch_len, n); }
