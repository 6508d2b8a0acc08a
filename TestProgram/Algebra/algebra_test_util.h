/* algebra_test_util.h -- helpers shared by the Algebra tests: random matrices from fixed
 * seeds, matrix distances, and a Check assertion with a tolerance that prints the values
 * (and test_run_suite of check_suite.h). */
#ifndef ALGEBRA_TEST_UTIL_H
#define ALGEBRA_TEST_UTIL_H

#include "random.h"
#include "suN_generic.h"
#include "suN_random.h"
#include <check.h>
#include "../check_suite.h" /* test_run_suite */
#include <math.h>
#include <stdio.h>

/* Largest representation dimension for n <= HR_SUN_NMAX (the adjoint), and the size of a
 * scratch array for one d x d matrix of any representation. */
#define TEST_DMAX (HR_SUN_NMAX * HR_SUN_NMAX - 1)
#define TEST_MAT (TEST_DMAX * TEST_DMAX)

/* Assert |value| <= tol, naming the check and the values. */
#define ck_assert_small(value, tol, ...)                                                           \
  do {                                                                                             \
    double v_ = fabs((double)(value));                                                             \
    if (!(v_ <= (tol))) {                                                                          \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fprintf(stderr, ": |%s| = %.3e > %.1e\n", #value, v_, (double)(tol));                        \
    }                                                                                              \
    ck_assert_msg(v_ <= (tol), "%s = %.3e exceeds %.1e", #value, v_, (double)(tol));               \
  } while (0)

/* A stream for test number `which` (fixed seed). */
static inline hr_rng_stream test_stream(uint64_t which) {
  hr_rng_stream s;
  rng_stream_init(&s, UINT64_C(0x5EED0A16EB7A), which, 0);
  return s;
}

/* A = d x d matrix of independent complex standard Gaussians (not unitary). */
static inline void test_random_matrix(int d, hr_rng_stream *s, hr_complex *A) {
  for (int i = 0; i < d * d; ++i) {
    double re = rng_gaussian(s);
    double im = rng_gaussian(s);
    A[i] = hr_cmplx(re, im);
  }
}

/* A = element of U(n) with a non-trivial determinant: Haar SU(n) times exp(i phi). */
static inline void test_random_unitary(int n, hr_rng_stream *s, hr_complex *A) {
  suN_random_haar(A, n, s);
  hr_complex phase = hr_cexpi(2.0 * rng_uniform(s) - 1.0);
  for (int i = 0; i < n * n; ++i)
    A[i] = hr_cmul(A[i], phase);
}

/* max_ij |A_ij - B_ij|. */
static inline double test_maxdiff(int d, const hr_complex *A, const hr_complex *B) {
  double m = 0.0;
  for (int i = 0; i < d * d; ++i) {
    double v = sqrt(hr_cabs2(A[i] - B[i]));
    if (v > m)
      m = v;
  }
  return m;
}

/* max_ij |A_ij - c delta_ij|. */
static inline double test_maxdiff_unit(int d, const hr_complex *A, hr_complex c) {
  double m = 0.0;
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      double v = sqrt(hr_cabs2(A[i * d + j] - (i == j ? c : hr_cmplx(0.0, 0.0))));
      if (v > m)
        m = v;
    }
  return m;
}

/* max_ij |(A^+ A - 1)_ij|. */
static inline double test_unitarity(int d, const hr_complex *A) {
  hr_complex P[TEST_MAT];
  cmat_dag_mul(P, d, A, A);
  return test_maxdiff_unit(d, P, hr_cmplx(1.0, 0.0));
}

/* |det A - 1| for an n x n matrix. */
static inline double test_det_defect(int d, const hr_complex *A) {
  hr_complex lu[TEST_MAT];
  cmat_copy(lu, d, A);
  return sqrt(hr_cabs2(cmat_det_inplace(d, lu) - 1.0));
}

#endif
