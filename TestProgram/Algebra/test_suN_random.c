/* test_suN_random.c -- random SU(n) matrices and algebra vectors of suN_random.h for n = 2, 3,
 * 4 and the compiled SU(NG): every matrix is in SU(n); Haar moments E[tr U] = 0,
 * E[|tr U|^2] = 1, E[|tr U|^4] = 2, E[tr U^2] = -1 (n = 2) or 0 (n >= 3), E[|U_00|^2] = 1/n,
 * E[|U_00|^4] = 2/(n(n+1));
 * Gaussian algebra vectors have E[v.v] = n^2 - 1; the same stream gives the same matrix.
 *
 * Thresholds: each moment is a mean over N_SAMPLES independent matrices; it must lie within
 * Z_MAX = 5 standard errors (estimated from the sample itself) of the exact value: a false
 * alarm has probability 6e-7 per check, and the seeds are fixed. The same checks are applied
 * to two non-Haar samples, which must be rejected: exp of small algebra elements (far from
 * Haar), and Gram-Schmidt of matrices with entries uniform in a square instead of Gaussian
 * (close to Haar; rejected through E[|U_00|^4] at about 20 to 40 standard errors). */
#include "algebra_test_util.h"
#include "suN.h"
#include "suN_random.h"
#include <check.h>
#include <math.h>

#define Z_MAX 5.0
#define N_SAMPLES 40000
#define NMAT (HR_SUN_NMAX * HR_SUN_NMAX)

static const uint64_t seed = UINT64_C(777123);

/* Running mean and variance of one statistic. */
typedef struct {
  double sum, sum2;
  long count;
} moment;

static void moment_add(moment *m, double x) {
  m->sum += x;
  m->sum2 += x * x;
  m->count++;
}

/* |mean - expected| in units of the standard error of the mean. */
static double moment_z(const moment *m, double expected) {
  double mean = m->sum / m->count;
  double var = m->sum2 / m->count - mean * mean;
  double se = sqrt((var > 1e-30 ? var : 1e-30) / m->count);
  return fabs(mean - expected) / se;
}

/* Haar moments of a sample: which = 0: Haar matrices; 1: exp(i 0.5 v.T); 2: Gram-Schmidt of
 * uniform entries (1 and 2 are not Haar).
 * Returns the largest z of the moment checks; also checks SU(n) membership. */
static double haar_moments_max_z(int n, int which) {
  moment re_tr = {0}, im_tr = {0}, abs2 = {0}, abs4 = {0}, re_tr2 = {0}, im_tr2 = {0}, u00 = {0},
         u00_4 = {0};
  hr_complex U[NMAT], U2[NMAT];
  double worst_unitarity = 0.0, worst_det = 0.0;
  for (long k = 0; k < N_SAMPLES; ++k) {
    hr_rng_stream s;
    rng_stream_init(&s, seed, (uint64_t)(10 * n + which), (uint64_t)k);
    if (which == 0) {
      suN_random_haar(U, n, &s);
    } else if (which == 2) {
      for (int i = 0; i < n * n; ++i) {
        double re = 2.0 * rng_uniform(&s) - 1.0;
        double im = 2.0 * rng_uniform(&s) - 1.0;
        U[i] = hr_cmplx(re, im);
      }
      suN_reunitarize(U, n);
    } else {
      double v[NMAT];
      suN_random_algebra(v, n, &s);
      for (int a = 0; a < n * n - 1; ++a)
        v[a] *= 0.5;
      suN_exp_algebra(U, n, v);
    }
    double du = test_unitarity(n, U), dd = test_det_defect(n, U);
    if (du > worst_unitarity)
      worst_unitarity = du;
    if (dd > worst_det)
      worst_det = dd;
    hr_complex t = cmat_trace(n, U);
    moment_add(&re_tr, creal(t));
    moment_add(&im_tr, cimag(t));
    double a2 = creal(t) * creal(t) + cimag(t) * cimag(t);
    moment_add(&abs2, a2);
    moment_add(&abs4, a2 * a2);
    cmat_mul(U2, n, U, U);
    hr_complex t2 = cmat_trace(n, U2);
    moment_add(&re_tr2, creal(t2));
    moment_add(&im_tr2, cimag(t2));
    double e2 = creal(U[0]) * creal(U[0]) + cimag(U[0]) * cimag(U[0]);
    moment_add(&u00, e2);
    moment_add(&u00_4, e2 * e2);
  }
  ck_assert_small(worst_unitarity, 1e-14, "unitarity n=%d", n);
  ck_assert_small(worst_det, 1e-14, "det n=%d", n);
  double z[8] = {moment_z(&re_tr, 0.0),
                 n == 2 ? 0.0 : moment_z(&im_tr, 0.0), /* tr U is real for SU(2) */
                 moment_z(&abs2, 1.0),
                 moment_z(&abs4, 2.0),
                 moment_z(&re_tr2, n == 2 ? -1.0 : 0.0),
                 n == 2 ? 0.0 : moment_z(&im_tr2, 0.0),
                 moment_z(&u00, 1.0 / n),
                 moment_z(&u00_4, 2.0 / (n * (n + 1.0)))};
  const char *names[8] = {"Re tr U",   "Im tr U",   "|tr U|^2", "|tr U|^4",
                          "Re tr U^2", "Im tr U^2", "|U_00|^2", "|U_00|^4"};
  double zmax = 0.0;
  for (int i = 0; i < 8; ++i) {
    fprintf(stderr, "n=%d %s %-10s z = %6.2f\n", n,
            which == 0   ? "Haar    "
            : which == 1 ? "exp     "
                         : "uniform ",
            names[i], z[i]);
    if (z[i] > zmax)
      zmax = z[i];
  }
  if (n == 2) { /* the imaginary parts vanish identically for SU(2) */
    ck_assert_small(im_tr.sum2, 1e-20 * N_SAMPLES, "Im tr U, SU(2)");
  }
  return zmax;
}

START_TEST(test_haar) {
  const int n = 2 + _i;
  ck_assert_msg(haar_moments_max_z(n, 0) < Z_MAX, "Haar moments off for n = %d", n);
  ck_assert_msg(haar_moments_max_z(n, 1) > Z_MAX, "non-Haar sample not detected for n = %d", n);
  ck_assert_msg(haar_moments_max_z(n, 2) > Z_MAX, "non-Haar sample not detected for n = %d", n);
}
END_TEST

START_TEST(test_algebra) {
  const int n = 2 + _i;
  moment norm = {0}, comp = {0};
  double v[NMAT];
  for (long k = 0; k < N_SAMPLES; ++k) {
    hr_rng_stream s;
    rng_stream_init(&s, seed, 100 + n, (uint64_t)k);
    suN_random_algebra(v, n, &s);
    double q = 0.0;
    for (int a = 0; a < n * n - 1; ++a)
      q += v[a] * v[a];
    moment_add(&norm, q);
    moment_add(&comp, v[k % (n * n - 1)]);
  }
  ck_assert_msg(moment_z(&norm, n * n - 1.0) < Z_MAX, "E[v.v] = n^2-1, n = %d", n);
  ck_assert_msg(moment_z(&comp, 0.0) < Z_MAX, "E[v_a] = 0, n = %d", n);
}
END_TEST

START_TEST(test_reproducible_and_compiled) {
  hr_rng_stream s1, s2, s3;
  rng_stream_init(&s1, seed, 7, 42);
  rng_stream_init(&s2, seed, 7, 42);
  rng_stream_init(&s3, seed, 7, 43);
  suNg A, B, C;
  suNg_random(&A, &s1);
  suNg_random(&B, &s2);
  suNg_random(&C, &s3);
  ck_assert_small(test_maxdiff(NG, A.c, B.c), 0.0, "same stream, same matrix");
  ck_assert_msg(test_maxdiff(NG, A.c, C.c) > 1e-3, "different sites give different matrices");
  hr_complex G[NG * NG];
  rng_stream_init(&s1, seed, 7, 42);
  suN_random_haar(G, NG, &s1);
  ck_assert_small(test_maxdiff(NG, A.c, G), 0.0, "suNg_random = suN_random_haar(NG)");
  /* compiled SU(NG): in the group, and E[tr U] = 0 over a sample */
  moment re = {0};
  for (long k = 0; k < 5000; ++k) {
    rng_stream_init(&s1, seed, 8, (uint64_t)k);
    suNg_random(&A, &s1);
    ck_assert_small(test_unitarity(NG, A.c), 1e-14, "suNg_random unitary");
    ck_assert_small(cabs(suNg_det(&A) - 1.0), 1e-14, "suNg_random det");
    moment_add(&re, suNg_re_trace(&A));
  }
  ck_assert_msg(moment_z(&re, 0.0) < Z_MAX, "E[Re tr U] = 0 for SU(NG)");
  suNg_algebra_vector p;
  suNg_algebra_vector_random(&p, &s1);
  ck_assert(suNg_algebra_vector_sqnorm(&p) > 0.0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("suN_random");
  TCase *tc = tcase_create("Haar SU(n)");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_haar, 0, 3);
  tcase_add_loop_test(tc, test_algebra, 0, 3);
  tcase_add_test(tc, test_reproducible_and_compiled);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
