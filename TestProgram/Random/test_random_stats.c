/* test_random_stats.c -- statistical tests of the random numbers at fixed seeds:
 * moments and chi-square of uniform and Gaussian draws, and the absence of correlation
 * between neighbouring sites, draws, seeds and successive numbers of a stream.
 *
 * Thresholds. A normally distributed statistic (a mean, a variance, a fourth moment, a
 * correlation coefficient, each over millions of samples) must lie within Z_MAX = 5
 * standard errors: two-sided false-alarm probability 5.7e-7 per check. A chi-square with
 * k degrees of freedom must lie between the 2.5e-7 and 1 - 2.5e-7 quantiles of the
 * chi-square distribution (two-sided probability 1e-6), computed offline from the
 * regularised incomplete gamma function: k = 99: [44.70, 183.69]; k = 81: [33.18, 159.17].
 * The seeds are fixed, so each run gives the same verdict; the thresholds say how unlikely
 * a failure of a correct generator would be. Each test also feeds a deliberately flawed
 * sample to the same check and asserts that it is rejected. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "random.h"
#include "../check_suite.h"

#define Z_MAX 5.0
#define CHI2_99_LOW 44.70
#define CHI2_99_HIGH 183.69
#define CHI2_81_LOW 33.18
#define CHI2_81_HIGH 159.17

#define N_SAMPLES (1 << 22)
#define N_PAIRS (1 << 20)

static const uint64_t seed = UINT64_C(20240611);

/* Within Z_MAX standard errors? Prints the outcome. */
static int within_sigma(const char *what, double value, double expected, double std_error) {
  const double z = (value - expected) / std_error;
  fprintf(stderr, "%-40s %12.8f expected %12.8f  z = %6.2f\n", what, value, expected, z);
  return fabs(z) < Z_MAX;
}

/* Chi-square of counts against expected counts. */
static double chi_square(const long *counts, const double *expected, int nbins) {
  double chi2 = 0.0;
  for (int b = 0; b < nbins; ++b) {
    const double d = (double)counts[b] - expected[b];
    chi2 += d * d / expected[b];
  }
  return chi2;
}

/* Chi-square of n uniforms in 100 equal bins; inside the two-sided 1e-6 band? */
static int uniform_chi2_ok(const char *what, const double *u, long n) {
  long counts[100] = {0};
  double expected[100];
  for (long i = 0; i < n; ++i) {
    int b = (int)(u[i] * 100.0);
    if (b < 0) b = 0;
    if (b > 99) b = 99;
    counts[b]++;
  }
  for (int b = 0; b < 100; ++b) expected[b] = (double)n / 100.0;
  const double chi2 = chi_square(counts, expected, 100);
  fprintf(stderr, "%-40s chi2 = %8.2f (99 dof, band [%.2f, %.2f])\n", what, chi2, CHI2_99_LOW,
          CHI2_99_HIGH);
  return chi2 > CHI2_99_LOW && chi2 < CHI2_99_HIGH;
}

/* Standard normal distribution function. */
static double normal_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

/* Chi-square of n Gaussians in 80 bins of width 0.1 on [-4, 4] plus the two tails, against
 * the normal distribution; inside the two-sided 1e-6 band? */
static int gaussian_chi2_ok(const char *what, const double *g, long n) {
  enum { NB = 82 };
  long counts[NB] = {0};
  double expected[NB];
  for (long i = 0; i < n; ++i) {
    int b;
    if (g[i] < -4.0)
      b = 0;
    else if (g[i] >= 4.0)
      b = NB - 1;
    else {
      b = 1 + (int)floor((g[i] + 4.0) * 10.0);
      if (b > NB - 2) b = NB - 2;
    }
    counts[b]++;
  }
  expected[0] = (double)n * normal_cdf(-4.0);
  expected[NB - 1] = (double)n * normal_cdf(-4.0);
  for (int b = 1; b < NB - 1; ++b)
    expected[b] = (double)n * (normal_cdf(-4.0 + 0.1 * b) - normal_cdf(-4.0 + 0.1 * (b - 1)));
  const double chi2 = chi_square(counts, expected, NB);
  fprintf(stderr, "%-40s chi2 = %8.2f (81 dof, band [%.2f, %.2f])\n", what, chi2, CHI2_81_LOW,
          CHI2_81_HIGH);
  return chi2 > CHI2_81_LOW && chi2 < CHI2_81_HIGH;
}

/* Sample mean and the mean of (x - mean)^k for k = 2, 4. */
static void moments(const double *x, long n, double *mean, double *m2, double *m4) {
  double s = 0.0;
  for (long i = 0; i < n; ++i) s += x[i];
  *mean = s / (double)n;
  double s2 = 0.0, s4 = 0.0;
  for (long i = 0; i < n; ++i) {
    const double d = x[i] - *mean;
    s2 += d * d;
    s4 += d * d * d * d;
  }
  *m2 = s2 / (double)n;
  *m4 = s4 / (double)n;
}

/* Pearson correlation coefficient of x and y. */
static double correlation(const double *x, const double *y, long n) {
  double mx = 0.0, my = 0.0;
  for (long i = 0; i < n; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= (double)n;
  my /= (double)n;
  double sxy = 0.0, sxx = 0.0, syy = 0.0;
  for (long i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxy / sqrt(sxx * syy);
}

/* Under independence the correlation coefficient has standard error 1/sqrt(n). */
static int uncorrelated(const char *what, const double *x, const double *y, long n) {
  return within_sigma(what, correlation(x, y, n), 0.0, 1.0 / sqrt((double)n));
}

/* n uniforms, `per_site` from each site stream of (seed, draw), sites 0, 1, 2, ... */
static void site_uniforms(double *u, long n, uint64_t draw, int per_site) {
  for (long i = 0; i < n; i += per_site) {
    hr_rng_stream s;
    rng_stream_init(&s, seed, draw, (uint64_t)(i / per_site));
    for (int k = 0; k < per_site && i + k < n; ++k) u[i + k] = rng_uniform(&s);
  }
}

static double *alloc_doubles(long n) {
  double *p = malloc((size_t)n * sizeof *p);
  ck_assert_ptr_nonnull(p);
  return p;
}

START_TEST(test_uniform) {
  const long n = N_SAMPLES;
  double *u = alloc_doubles(n);
  double mean, m2, m4;
  /* Many site streams, 8 numbers each. */
  site_uniforms(u, n, 3, 8);
  moments(u, n, &mean, &m2, &m4);
  ck_assert(within_sigma("uniform mean", mean, 0.5, sqrt(1.0 / 12.0 / n)));
  ck_assert(within_sigma("uniform variance", m2, 1.0 / 12.0, sqrt(1.0 / 180.0 / n)));
  ck_assert(within_sigma("uniform 4th central moment", m4, 1.0 / 80.0,
                         sqrt((1.0 / 2304.0 - 1.0 / 6400.0) / n)));
  ck_assert(uniform_chi2_ok("uniform, site streams", u, n));
  long outside = 0;
  for (long i = 0; i < n; ++i) outside += !(u[i] > 0.0 && u[i] < 1.0);
  ck_assert_int_eq(outside, 0);
  /* One long site-less stream. */
  hr_rng_stream s;
  rng_stream_init(&s, seed, 4, HR_RNG_NO_SITE);
  for (long i = 0; i < n; ++i) u[i] = rng_uniform(&s);
  moments(u, n, &mean, &m2, &m4);
  ck_assert(within_sigma("uniform mean, long stream", mean, 0.5, sqrt(1.0 / 12.0 / n)));
  ck_assert(uniform_chi2_ok("uniform, long stream", u, n));
  /* Single precision. */
  rng_stream_init(&s, seed, 5, 12345);
  for (long i = 0; i < n; ++i) {
    const float f = rng_uniform_flt(&s);
    outside += !(f > 0.0f && f < 1.0f);
    u[i] = f;
  }
  ck_assert_int_eq(outside, 0);
  moments(u, n, &mean, &m2, &m4);
  ck_assert(within_sigma("uniform_flt mean", mean, 0.5, sqrt(1.0 / 12.0 / n)));
  ck_assert(within_sigma("uniform_flt variance", m2, 1.0 / 12.0, sqrt(1.0 / 180.0 / n)));
  ck_assert(uniform_chi2_ok("uniform_flt", u, n));
  /* The checks reject a slightly skewed sample u^1.02 and a shifted one. */
  site_uniforms(u, n, 3, 8);
  for (long i = 0; i < n; ++i) u[i] = pow(u[i], 1.02);
  ck_assert(!uniform_chi2_ok("flawed: u^1.02 (must fail)", u, n));
  site_uniforms(u, n, 3, 8);
  for (long i = 0; i < n; ++i) u[i] = 0.995 * u[i] + 0.005;
  moments(u, n, &mean, &m2, &m4);
  ck_assert(!within_sigma("flawed: 0.995 u + 0.005 mean (must fail)", mean, 0.5,
                          sqrt(1.0 / 12.0 / n)));
  free(u);
}
END_TEST

START_TEST(test_gaussian) {
  const long n = N_SAMPLES;
  double *g = alloc_doubles(n);
  double mean, m2, m4;
  /* Site streams with 5 numbers each (an odd count: the cached second value is dropped). */
  for (long i = 0; i < n; i += 5) {
    hr_rng_stream s;
    rng_stream_init(&s, seed, 6, (uint64_t)(i / 5));
    for (int k = 0; k < 5 && i + k < n; ++k) g[i + k] = rng_gaussian(&s);
  }
  moments(g, n, &mean, &m2, &m4);
  ck_assert(within_sigma("gaussian mean", mean, 0.0, sqrt(1.0 / n)));
  ck_assert(within_sigma("gaussian variance", m2, 1.0, sqrt(2.0 / n)));
  ck_assert(within_sigma("gaussian 4th moment", m4, 3.0, sqrt(96.0 / n)));
  ck_assert(gaussian_chi2_ok("gaussian, site streams", g, n));
  /* Single precision, one long stream. */
  hr_rng_stream s;
  rng_stream_init(&s, seed, 7, HR_RNG_NO_SITE);
  for (long i = 0; i < n; ++i) g[i] = rng_gaussian_flt(&s);
  moments(g, n, &mean, &m2, &m4);
  ck_assert(within_sigma("gaussian_flt mean", mean, 0.0, sqrt(1.0 / n)));
  ck_assert(within_sigma("gaussian_flt variance", m2, 1.0, sqrt(2.0 / n)));
  ck_assert(within_sigma("gaussian_flt 4th moment", m4, 3.0, sqrt(96.0 / n)));
  ck_assert(gaussian_chi2_ok("gaussian_flt, long stream", g, n));
  /* The checks reject a sample with 1% too large width. */
  for (long i = 0; i < n; ++i) g[i] *= 1.01;
  moments(g, n, &mean, &m2, &m4);
  ck_assert(!within_sigma("flawed: 1.01 g variance (must fail)", m2, 1.0, sqrt(2.0 / n)));
  ck_assert(!gaussian_chi2_ok("flawed: 1.01 g (must fail)", g, n));
  free(g);
}
END_TEST

START_TEST(test_correlations) {
  const long n = N_PAIRS;
  double *x = alloc_doubles(n), *y = alloc_doubles(n);
  hr_rng_stream a, b;
  /* First uniform of neighbouring sites 2i, 2i + 1 of one draw. */
  for (long i = 0; i < n; ++i) {
    rng_stream_init(&a, seed, 10, (uint64_t)(2 * i));
    rng_stream_init(&b, seed, 10, (uint64_t)(2 * i + 1));
    x[i] = rng_uniform(&a);
    y[i] = rng_uniform(&b);
  }
  ck_assert(uncorrelated("neighbouring sites", x, y, n));
  /* The same site in neighbouring draws, and in draws 2^16 apart (other counter word). */
  for (long i = 0; i < n; ++i) {
    rng_stream_init(&a, seed, 11, (uint64_t)i);
    rng_stream_init(&b, seed, 12, (uint64_t)i);
    x[i] = rng_uniform(&a);
    y[i] = rng_uniform(&b);
  }
  ck_assert(uncorrelated("neighbouring draws", x, y, n));
  for (long i = 0; i < n; ++i) {
    rng_stream_init(&b, seed, 11 + 65536, (uint64_t)i);
    y[i] = rng_uniform(&b);
  }
  ck_assert(uncorrelated("draws 2^16 apart", x, y, n));
  /* Sites 2^32 apart (other counter word), and neighbouring seeds. */
  for (long i = 0; i < n; ++i) {
    rng_stream_init(&b, seed, 11, (uint64_t)i + UINT64_C(0x100000000));
    y[i] = rng_uniform(&b);
  }
  ck_assert(uncorrelated("sites 2^32 apart", x, y, n));
  for (long i = 0; i < n; ++i) {
    rng_stream_init(&b, seed + 1, 11, (uint64_t)i);
    y[i] = rng_uniform(&b);
  }
  ck_assert(uncorrelated("neighbouring seeds", x, y, n));
  /* Successive numbers of one long stream. */
  rng_stream_init(&a, seed, 13, HR_RNG_NO_SITE);
  for (long i = 0; i < n; ++i) {
    x[i] = rng_uniform(&a);
    y[i] = rng_uniform(&a);
  }
  ck_assert(uncorrelated("successive uniforms", x, y, n));
  /* The two Gaussians of a Box-Muller pair, and their squares. */
  for (long i = 0; i < n; ++i) {
    x[i] = rng_gaussian(&a);
    y[i] = rng_gaussian(&a);
  }
  ck_assert(uncorrelated("gaussian pair", x, y, n));
  for (long i = 0; i < n; ++i) {
    x[i] *= x[i];
    y[i] *= y[i];
  }
  ck_assert(uncorrelated("squares of a gaussian pair", x, y, n));
  /* The check rejects a weak correlation (coefficient about 0.01). */
  for (long i = 0; i < n; ++i) {
    x[i] = rng_uniform(&a);
    y[i] = rng_uniform(&a) + 0.01 * x[i];
  }
  ck_assert(!uncorrelated("flawed: correlation 0.01 (must fail)", x, y, n));
  free(x);
  free(y);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("random_stats");
  TCase *tc = tcase_create("stats");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_uniform);
  tcase_add_test(tc, test_gaussian);
  tcase_add_test(tc, test_correlations);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
