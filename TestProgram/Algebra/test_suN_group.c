/* test_suN_group.c -- the generic SU(n) functions of suN_generic.h for n = 2, 3, 4 (in any
 * build): generators (normalisation, completeness relation, Pauli and Gell-Mann matrices
 * written out here), structure constants (commutators, the tabulated su(2) and su(3) values),
 * algebra vector <-> matrix, the exponential (unitarity, det = 1, a long Taylor series without
 * scaling, exp(X) exp(-X) = 1, exp(2X) = exp(X)^2, det exp(X) = exp(tr X), SU(2) closed form),
 * reunitarisation, determinants, and the error for a dimension beyond HR_SUN_NMAX. */
#include "algebra_test_util.h"
#include "hr_error.h"
#include "suN_generic.h"
#include <check.h>
#include <math.h>
#include <setjmp.h>
#include <string.h>

#define NMAT (HR_SUN_NMAX * HR_SUN_NMAX)

/* The dimension of a loop test: _i = 0, 1, 2 -> n = 2, 3, 4. */
#define N_OF(i) ((i) + 2)

/* sum_a v_a M_a with v real, M_a the dense generators; out = i sum_a v_a T^a. */
static void dense_algebra_matrix(int n, const double *v, hr_complex *out) {
  hr_complex T[NMAT];
  cmat_zero(out, n);
  for (int a = 0; a < n * n - 1; ++a) {
    suN_generator(T, n, a);
    for (int i = 0; i < n * n; ++i)
      out[i] += hr_cmplx(0.0, v[a]) * T[i];
  }
}

/* exp(X) by the plain Taylor series with `terms` terms (no scaling): the reference. */
static void taylor_exp(int n, const hr_complex *X, int terms, hr_complex *E) {
  hr_complex term[NMAT], tmp[NMAT];
  cmat_unit(E, n);
  cmat_unit(term, n);
  for (int k = 1; k < terms; ++k) {
    cmat_mul(tmp, n, term, X);
    for (int i = 0; i < n * n; ++i)
      term[i] = tmp[i] / (double)k;
    for (int i = 0; i < n * n; ++i)
      E[i] += term[i];
  }
}

START_TEST(test_generators) {
  const int n = N_OF(_i);
  hr_complex Ta[NMAT], Tb[NMAT], P[NMAT];
  const int ng = suN_ngen(n);
  ck_assert_int_eq(ng, n * n - 1);
  for (int a = 0; a < ng; ++a) {
    suN_generator(Ta, n, a);
    /* Hermitian and traceless */
    cmat_dagger(P, n, Ta);
    ck_assert_small(test_maxdiff(n, Ta, P), 0.0, "T^%d Hermitian", a);
    ck_assert_small(cabs(cmat_trace(n, Ta)), 1e-15, "tr T^%d", a);
    /* tr(T^a T^b) = delta/2 */
    for (int b = 0; b < ng; ++b) {
      suN_generator(Tb, n, b);
      cmat_mul(P, n, Ta, Tb);
      ck_assert_small(cabs(cmat_trace(n, P) - (a == b ? 0.5 : 0.0)), 1e-15, "tr T%d T%d", a, b);
    }
    /* the index bookkeeping */
    int kind, j, k;
    suN_generator_info(&kind, &j, &k, a);
    if (kind == SUN_GEN_DIAG)
      ck_assert_int_eq(suN_generator_diag_index(k), a);
    else
      ck_assert_int_eq(suN_generator_sym_index(j, k) + kind, a);
    ck_assert(j <= k && k < n);
  }
  /* completeness: sum_a T^a_ij T^a_kl = (delta_il delta_jk - delta_ij delta_kl / n) / 2 */
  static hr_complex all[HR_SUN_NMAX * HR_SUN_NMAX - 1][NMAT];
  for (int a = 0; a < ng; ++a)
    suN_generator(all[a], n, a);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        for (int l = 0; l < n; ++l) {
          hr_complex s = 0.0;
          for (int a = 0; a < ng; ++a)
            s += all[a][i * n + j] * all[a][k * n + l];
          double expect = 0.5 * ((i == l && j == k) - (i == j && k == l) / (double)n);
          ck_assert_small(cabs(s - expect), 1e-15, "completeness n=%d", n);
        }
}
END_TEST

START_TEST(test_pauli_gell_mann) {
  /* SU(2): T^a = sigma_a / 2 */
  const hr_complex i1 = hr_cmplx(0.0, 1.0);
  const hr_complex sigma[3][4] = {{0, 1, 1, 0}, {0, -i1, i1, 0}, {1, 0, 0, -1}};
  hr_complex T[NMAT];
  for (int a = 0; a < 3; ++a) {
    suN_generator(T, 2, a);
    for (int i = 0; i < 4; ++i)
      ck_assert_small(cabs(T[i] - 0.5 * sigma[a][i]), 0.0, "sigma %d", a);
  }
  /* SU(3): lambda_1 .. lambda_8 / 2 */
  const double r3 = 1.0 / sqrt(3.0);
  const hr_complex lambda[8][9] = {
      {0, 1, 0, 1, 0, 0, 0, 0, 0},    {0, -i1, 0, i1, 0, 0, 0, 0, 0},
      {1, 0, 0, 0, -1, 0, 0, 0, 0},   {0, 0, 1, 0, 0, 0, 1, 0, 0},
      {0, 0, -i1, 0, 0, 0, i1, 0, 0}, {0, 0, 0, 0, 0, 1, 0, 1, 0},
      {0, 0, 0, 0, 0, -i1, 0, i1, 0}, {r3, 0, 0, 0, r3, 0, 0, 0, -2 * r3}};
  for (int a = 0; a < 8; ++a) {
    suN_generator(T, 3, a);
    for (int i = 0; i < 9; ++i)
      ck_assert_small(cabs(T[i] - 0.5 * lambda[a][i]), 1e-16, "lambda %d", a + 1);
  }
  /* SU(4) starts with the SU(3) generators embedded in the upper-left block */
  hr_complex T4[NMAT];
  for (int a = 0; a < 8; ++a) {
    suN_generator(T, 3, a);
    suN_generator(T4, 4, a);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        ck_assert(T4[i * 4 + j] == (i < 3 && j < 3 ? T[i * 3 + j] : 0.0));
  }
}
END_TEST

START_TEST(test_structure_constants) {
  const int n = N_OF(_i);
  const int ng = n * n - 1;
  hr_complex Ta[NMAT], Tb[NMAT], Tc[NMAT], C[NMAT], C2[NMAT];
  for (int a = 0; a < ng; ++a)
    for (int b = 0; b < ng; ++b) {
      suN_generator(Ta, n, a);
      suN_generator(Tb, n, b);
      cmat_mul(C, n, Ta, Tb);
      cmat_mul(C2, n, Tb, Ta);
      for (int i = 0; i < n * n; ++i)
        C[i] -= C2[i];
      /* [T^a, T^b] = i f^{abc} T^c */
      cmat_zero(C2, n);
      for (int c = 0; c < ng; ++c) {
        double f = suN_structure_constant(n, a, b, c);
        /* total antisymmetry */
        ck_assert_small(f + suN_structure_constant(n, b, a, c), 1e-15, "f antisym ab");
        ck_assert_small(f - suN_structure_constant(n, b, c, a), 1e-15, "f cyclic");
        suN_generator(Tc, n, c);
        for (int i = 0; i < n * n; ++i)
          C2[i] += hr_cmplx(0.0, f) * Tc[i];
      }
      ck_assert_small(test_maxdiff(n, C, C2), 1e-15, "[T%d,T%d] n=%d", a, b, n);
    }
  if (n == 2) { /* f^{abc} = epsilon_{abc} */
    ck_assert_small(suN_structure_constant(2, 0, 1, 2) - 1.0, 1e-15, "f123 su2");
    ck_assert_small(suN_structure_constant(2, 0, 0, 2), 0.0, "f113 su2");
  }
  if (n == 3) { /* the standard table, indices from 1 in the literature */
    const int abc[9][3] = {{1, 2, 3}, {1, 4, 7}, {1, 5, 6}, {2, 4, 6}, {2, 5, 7},
                           {3, 4, 5}, {3, 6, 7}, {4, 5, 8}, {6, 7, 8}};
    const double val[9] = {1.0, 0.5, -0.5, 0.5, 0.5, 0.5, -0.5, sqrt(3.0) / 2, sqrt(3.0) / 2};
    for (int t = 0; t < 9; ++t)
      ck_assert_small(suN_structure_constant(3, abc[t][0] - 1, abc[t][1] - 1, abc[t][2] - 1) -
                          val[t],
                      1e-15, "f%d%d%d su3", abc[t][0], abc[t][1], abc[t][2]);
    ck_assert_small(suN_structure_constant(3, 0, 1, 7), 1e-15, "f128 su3");
  }
}
END_TEST

START_TEST(test_algebra_vectors) {
  const int n = N_OF(_i);
  const int ng = n * n - 1;
  hr_rng_stream s = test_stream(10 + n);
  double v[NMAT], w[NMAT];
  hr_complex X[NMAT], Y[NMAT], M[NMAT], t[NMAT], T[NMAT], P[NMAT];
  for (int rep = 0; rep < 10; ++rep) {
    suN_random_algebra(v, n, &s);
    suN_algebra_to_matrix(X, n, v);
    dense_algebra_matrix(n, v, Y);
    ck_assert_small(test_maxdiff(n, X, Y), 1e-15, "i v.T n=%d", n);
    /* antihermitian, traceless */
    cmat_dagger(Y, n, X);
    for (int i = 0; i < n * n; ++i)
      Y[i] += X[i];
    ck_assert_small(cmat_sqnorm(n, Y), 0.0, "X + X^+ = 0");
    ck_assert_small(cabs(cmat_trace(n, X)), 1e-15, "tr X");
    suN_project_to_algebra(w, n, X);
    for (int a = 0; a < ng; ++a)
      ck_assert_small(w[a] - v[a], 1e-15, "project(X) = v");
    /* general M: the projection is the traceless antihermitian part */
    test_random_matrix(n, &s, M);
    suN_project_to_algebra(w, n, M);
    suN_algebra_to_matrix(X, n, w);
    cmat_dagger(Y, n, M);
    hr_complex tr = cmat_trace(n, M) - cmat_trace(n, Y);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        Y[i * n + j] = 0.5 * (M[i * n + j] - Y[i * n + j]) - (i == j ? tr / (2.0 * n) : 0.0);
    ck_assert_small(test_maxdiff(n, X, Y), 1e-15, "traceless antihermitian part");
    /* suN_generator_traces = tr(T^a M) computed densely */
    suN_generator_traces(t, n, M);
    for (int a = 0; a < ng; ++a) {
      suN_generator(T, n, a);
      cmat_mul(P, n, T, M);
      ck_assert_small(cabs(t[a] - cmat_trace(n, P)), 1e-15, "tr(T^%d M)", a);
    }
  }
}
END_TEST

START_TEST(test_exp) {
  const int n = N_OF(_i);
  hr_rng_stream s = test_stream(20 + n);
  const double norms[] = {1e-8, 1e-3, 0.3, 1.0, 3.0, 10.0};
  double v[NMAT], v2[NMAT];
  hr_complex X[NMAT], U[NMAT], V[NMAT], W[NMAT], R[NMAT];
  for (size_t in = 0; in < sizeof norms / sizeof norms[0]; ++in)
    for (int rep = 0; rep < 5; ++rep) {
      suN_random_algebra(v, n, &s);
      double len = 0.0;
      for (int a = 0; a < n * n - 1; ++a)
        len += v[a] * v[a];
      for (int a = 0; a < n * n - 1; ++a)
        v[a] *= norms[in] / sqrt(len);
      suN_exp_algebra(U, n, v);
      /* the triangle form of suN_exp_core (device code's suN_exp_algebra) gives the bits of
       * the full form */
      suN_algebra_to_matrix(X, n, v);
      suN_exp_core(R, n, X, 1);
      suN_exp_core(W, n, X, 0);
      ck_assert_msg(memcmp(W, R, (size_t)(n * n) * sizeof(hr_complex)) == 0 &&
                        memcmp(U, R, (size_t)(n * n) * sizeof(hr_complex)) == 0,
                    "exp by triangles differs in its bits from the full form, n=%d |v|=%g", n,
                    norms[in]);
      const double tol = 1e-14 * (1.0 + norms[in]);
      ck_assert_small(test_unitarity(n, U), tol, "exp unitary n=%d |v|=%g", n, norms[in]);
      ck_assert_small(test_det_defect(n, U), tol, "det exp n=%d |v|=%g", n, norms[in]);
      /* against the plain Taylor series (accurate without scaling for moderate norms) */
      if (norms[in] <= 3.0) {
        suN_algebra_to_matrix(X, n, v);
        taylor_exp(n, X, 80, R);
        ck_assert_small(test_maxdiff(n, U, R), 1e-14 * (1.0 + norms[in] * norms[in]),
                        "exp vs Taylor n=%d |v|=%g", n, norms[in]);
      }
      /* exp(X) exp(-X) = 1 */
      for (int a = 0; a < n * n - 1; ++a)
        v2[a] = -v[a];
      suN_exp_algebra(V, n, v2);
      cmat_mul(W, n, U, V);
      ck_assert_small(test_maxdiff_unit(n, W, 1.0), tol, "exp(X)exp(-X)");
      /* exp(2X) = exp(X)^2 */
      for (int a = 0; a < n * n - 1; ++a)
        v2[a] = 2.0 * v[a];
      suN_exp_algebra(V, n, v2);
      cmat_mul(W, n, U, U);
      ck_assert_small(test_maxdiff(n, V, W), 4 * tol, "exp(2X) = exp(X)^2 n=%d |v|=%g", n,
                      norms[in]);
    }
  /* derivative at 0: (exp(eps X) - exp(-eps X)) / (2 eps) = X + O(eps^2) */
  suN_random_algebra(v, n, &s);
  const double eps = 1e-5;
  for (int a = 0; a < n * n - 1; ++a)
    v2[a] = eps * v[a];
  suN_exp_algebra(U, n, v2);
  for (int a = 0; a < n * n - 1; ++a)
    v2[a] = -eps * v[a];
  suN_exp_algebra(V, n, v2);
  suN_algebra_to_matrix(X, n, v);
  for (int i = 0; i < n * n; ++i)
    W[i] = (U[i] - V[i]) / (2 * eps);
  ck_assert_small(test_maxdiff(n, W, X), 1e-9, "d/deps exp(eps X)");
  /* a general (not antihermitian) matrix: det exp(M) = exp(tr M), and Taylor */
  hr_complex M[NMAT];
  test_random_matrix(n, &s, M);
  for (int i = 0; i < n * n; ++i)
    M[i] *= 0.5;
  suN_exp(U, n, M);
  taylor_exp(n, M, 80, R);
  ck_assert_small(test_maxdiff(n, U, R), 1e-13, "exp(general M) vs Taylor");
  ck_assert_small(cabs(suN_det(n, U) - cexp(cmat_trace(n, M))) / cabs(cexp(cmat_trace(n, M))),
                  1e-13, "det exp M = exp tr M");
}
END_TEST

START_TEST(test_exp_su2_closed_form) {
  /* exp(i theta nhat.sigma/2) = cos(theta/2) + i sin(theta/2) nhat.sigma */
  const hr_complex i1 = hr_cmplx(0.0, 1.0);
  hr_rng_stream s = test_stream(30);
  for (int rep = 0; rep < 20; ++rep) {
    double v[3];
    suN_random_algebra(v, 2, &s);
    for (int a = 0; a < 3; ++a)
      v[a] *= 2.0;
    double theta = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double c = cos(theta / 2), sn = sin(theta / 2) / theta;
    hr_complex E[4] = {c + i1 * sn * v[2], i1 * sn * (v[0] - i1 * v[1]),
                       i1 * sn * (v[0] + i1 * v[1]), c - i1 * sn * v[2]};
    hr_complex U[4];
    suN_exp_algebra(U, 2, v);
    ck_assert_small(test_maxdiff(2, U, E), 1e-14, "SU(2) closed form theta=%g", theta);
  }
  /* diagonal algebra element: exp is the diagonal of phases */
  double v[8] = {0, 0, 0.7, 0, 0, 0, 0, -1.9};
  hr_complex U[9];
  suN_exp_algebra(U, 3, v);
  double ph[3];
  for (int m = 0; m < 3; ++m)
    ph[m] = 0.7 * suN_diag_generator_entry(1, m) - 1.9 * suN_diag_generator_entry(2, m);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      ck_assert_small(cabs(U[i * 3 + j] - (i == j ? cexp(i1 * ph[i]) : 0.0)), 1e-15, "diag exp");
}
END_TEST

START_TEST(test_reunitarize) {
  const int n = N_OF(_i);
  hr_rng_stream s = test_stream(40 + n);
  hr_complex U[NMAT], V[NMAT], G[NMAT];
  for (int rep = 0; rep < 20; ++rep) {
    /* SU(n) matrices are unchanged */
    suN_random_haar(U, n, &s);
    cmat_copy(V, n, U);
    ck_assert_int_eq(suN_reunitarize(V, n), 0);
    ck_assert_small(test_maxdiff(n, U, V), 2e-15, "SU(n) unchanged n=%d", n);
    /* a perturbed matrix comes back into SU(n), close to where it started */
    const double delta[] = {1e-10, 1e-3, 0.1};
    for (int k = 0; k < 3; ++k) {
      test_random_matrix(n, &s, G);
      for (int i = 0; i < n * n; ++i)
        V[i] = U[i] + delta[k] * G[i];
      ck_assert_int_eq(suN_reunitarize(V, n), 0);
      ck_assert_small(test_unitarity(n, V), 1e-14, "unitary after n=%d delta=%g", n, delta[k]);
      ck_assert_small(test_det_defect(n, V), 1e-14, "det after n=%d delta=%g", n, delta[k]);
      ck_assert_small(test_maxdiff(n, U, V), 10.0 * n * delta[k] * sqrt(cmat_sqnorm(n, G)),
                      "close to U n=%d delta=%g", n, delta[k]);
    }
    /* U(n) with a phase: lands in SU(n) and the first row keeps its direction (Gram-Schmidt) */
    cmat_copy(V, n, U);
    hr_complex ph = hr_cexpi(0.9);
    for (int i = 0; i < n * n; ++i)
      V[i] = 3.0 * ph * V[i];
    suN_reunitarize(V, n);
    ck_assert_small(test_det_defect(n, V), 1e-14, "U(n) -> SU(n)");
    hr_complex ov = 0.0;
    for (int k = 0; k < n; ++k)
      ov += conj(V[k]) * U[k];
    ck_assert_small(cabs(ov) - 1.0, 1e-14, "first row direction");
  }
  /* linearly dependent rows are reported */
  test_random_matrix(n, &s, V);
  for (int k = 0; k < n; ++k)
    V[n + k] = 2.0 * V[k];
  ck_assert_int_eq(suN_reunitarize(V, n), -1);
}
END_TEST

START_TEST(test_det) {
  const int n = N_OF(_i);
  hr_rng_stream s = test_stream(50 + n);
  hr_complex A[NMAT], B[NMAT], C[NMAT];
  for (int rep = 0; rep < 20; ++rep) {
    test_random_matrix(n, &s, A);
    test_random_matrix(n, &s, B);
    cmat_mul(C, n, A, B);
    hr_complex da = suN_det(n, A), db = suN_det(n, B), dc = suN_det(n, C);
    ck_assert_small(cabs(dc - da * db) / cabs(dc), 1e-13, "det(AB) n=%d", n);
  }
  /* closed forms for n = 2, 3 */
  test_random_matrix(2, &s, A);
  ck_assert_small(cabs(suN_det(2, A) - (A[0] * A[3] - A[1] * A[2])), 1e-14, "det 2x2");
  test_random_matrix(3, &s, A);
  hr_complex d3 = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                  A[2] * (A[3] * A[7] - A[4] * A[6]);
  ck_assert_small(cabs(suN_det(3, A) - d3), 1e-13, "det 3x3");
}
END_TEST

/* Errors: catch hr_error through the test handler. */
static jmp_buf error_jump;
static void error_handler(int code, const char *message) {
  (void)code;
  (void)message;
  longjmp(error_jump, 1);
}

START_TEST(test_dimension_error) {
  hr_complex U[NMAT] = {0};
  hr_error_set_test_handler(error_handler);
  volatile int caught = 0;
  if (setjmp(error_jump) == 0)
    (void)suN_det(HR_SUN_NMAX + 1, U);
  else
    caught = 1;
  hr_error_set_test_handler(NULL);
  ck_assert_msg(caught, "suN_det accepted n = HR_SUN_NMAX + 1");
  ck_assert_msg(strstr(hr_last_error(), "suN_det") != NULL &&
                    strstr(hr_last_error(), "HR_SUN_NMAX"),
                "message: %s", hr_last_error());
}
END_TEST

int main(void) {
  Suite *s = suite_create("suN_group");
  TCase *tc = tcase_create("generic n");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_generators, 0, 3);
  tcase_add_test(tc, test_pauli_gell_mann);
  tcase_add_loop_test(tc, test_structure_constants, 0, 3);
  tcase_add_loop_test(tc, test_algebra_vectors, 0, 3);
  tcase_add_loop_test(tc, test_exp, 0, 3);
  tcase_add_test(tc, test_exp_su2_closed_form);
  tcase_add_loop_test(tc, test_reunitarize, 0, 3);
  tcase_add_loop_test(tc, test_det, 0, 3);
  tcase_add_test(tc, test_dimension_error);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
