/* test_representation.c -- the representations of representation.h for n = 2, 3, 4 and
 * fund, adj, 2s, 2as (every build): U^R against an independent construction (the tensor
 * product U (x) U between explicitly built basis tensors; 2 Re tr(T^a U T^b U^+) with dense
 * matrices), the homomorphism R(UV) = R(U) R(V), unitarity, determinants of U(n) matrices,
 * the generators (Hermitian, tr(T^a_R T^b_R) = T_R delta, sum_a T^a_R T^a_R = C_2(R) 1, the
 * su(n) commutators, finite-difference derivative of the map, covariance
 * R(U) T^a_R R(U)^+ = T^b_R R^adj_ba(U)), the generator traces, and the shortcuts for the
 * compiled theory. */
#include "algebra_test_util.h"
#include "representation.h"
#include "suN.h"
#include <check.h>
#include <math.h>
#include <string.h>

#define NMAT (HR_SUN_NMAX * HR_SUN_NMAX)
#define TOL 1e-14

/* Loop test index _i -> (n, r): n = 2 + _i / 4, r = _i % 4. */
#define CASE_N(i) (2 + (i) / 4)
#define CASE_R(i) ((hr_repr)((i) % 4))

static const char *rname(hr_repr r) { return repr_name(r); }

/* Expected dimension, from counting: n, n^2-1, pairs i<=j, pairs i<j. */
static int count_dim(hr_repr r, int n) {
  int c = 0;
  switch (r) {
  case HR_FUND: return n;
  case HR_ADJ: return n * n - 1;
  case HR_2S:
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i)
        ++c;
    return c;
  case HR_2AS:
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < j; ++i)
        ++c;
    return c;
  }
  return -1;
}

/* Independent U^R: for two-index representations, <e_I| U (x) U |e_K> with the basis tensors
 * built as n^2-vectors; for the adjoint, 2 Re tr(T^a U T^b U^+) with dense generators. */
static void reference_map(hr_repr r, int n, const hr_complex *U, hr_complex *R) {
  const int d = repr_dim(r, n);
  if (r == HR_FUND) {
    cmat_copy(R, n, U);
    return;
  }
  if (r == HR_ADJ) {
    hr_complex Ta[NMAT], Tb[NMAT], A[NMAT], B[NMAT];
    for (int a = 0; a < d; ++a)
      for (int b = 0; b < d; ++b) {
        suN_generator(Ta, n, a);
        suN_generator(Tb, n, b);
        cmat_mul(A, n, U, Tb);
        cmat_mul_dag(B, n, A, U);
        cmat_mul(A, n, Ta, B);
        R[a * d + b] = 2.0 * creal(cmat_trace(n, A));
      }
    return;
  }
  /* basis[I][x*n+y]: component (x, y) of tensor I, in the documented order */
  static hr_complex basis[TEST_DMAX][NMAT];
  const double s = (r == HR_2S) ? 1.0 : -1.0;
  int idx = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      if (r == HR_2AS && i == j)
        continue;
      for (int x = 0; x < n * n; ++x)
        basis[idx][x] = 0.0;
      if (i == j) {
        basis[idx][i * n + i] = 1.0;
      } else {
        basis[idx][i * n + j] = 1.0 / sqrt(2.0);
        basis[idx][j * n + i] = s / sqrt(2.0);
      }
      ++idx;
    }
  ck_assert_int_eq(idx, d);
  for (int row = 0; row < d; ++row)
    for (int col = 0; col < d; ++col) {
      hr_complex sum = 0.0;
      for (int x = 0; x < n; ++x)
        for (int y = 0; y < n; ++y)
          for (int z = 0; z < n; ++z)
            for (int w = 0; w < n; ++w)
              sum +=
                  conj(basis[row][x * n + y]) * U[x * n + z] * U[y * n + w] * basis[col][z * n + w];
      R[row * d + col] = sum;
    }
}

START_TEST(test_constants) {
  const int n = CASE_N(_i);
  const hr_repr r = CASE_R(_i);
  const int d = repr_dim(r, n);
  ck_assert_int_eq(d, count_dim(r, n));
  /* C_2(R) d_R = T_R (n^2 - 1) (trace of the Casimir relation) */
  ck_assert_small(repr_casimir(r, n) * d - repr_index(r, n) * (n * n - 1), 1e-13, "%s n=%d",
                  rname(r), n);
  ck_assert_int_eq(repr_is_real(r), r == HR_ADJ);
}
END_TEST

START_TEST(test_map) {
  const int n = CASE_N(_i);
  const hr_repr r = CASE_R(_i);
  const int d = repr_dim(r, n);
  hr_rng_stream s = test_stream(1000 + _i);
  hr_complex U[NMAT], V[NMAT], UV[NMAT];
  hr_complex RU[TEST_MAT], RV[TEST_MAT], RUV[TEST_MAT], P[TEST_MAT], Ref[TEST_MAT];
  for (int rep = 0; rep < 10; ++rep) {
    suN_random_haar(U, n, &s);
    suN_random_haar(V, n, &s);
    cmat_mul(UV, n, U, V);
    repr_map(RU, r, n, U);
    repr_map(RV, r, n, V);
    repr_map(RUV, r, n, UV);
    reference_map(r, n, U, Ref);
    ck_assert_small(test_maxdiff(d, RU, Ref), TOL, "map vs reference %s n=%d", rname(r), n);
    cmat_mul(P, d, RU, RV);
    ck_assert_small(test_maxdiff(d, RUV, P), TOL, "R(UV) = R(U)R(V) %s n=%d", rname(r), n);
    ck_assert_small(test_unitarity(d, RU), TOL, "R(U) unitary %s n=%d", rname(r), n);
    ck_assert_small(test_det_defect(d, RU), 1e-13, "det R(U) = 1 %s n=%d", rname(r), n);
    if (r == HR_ADJ)
      for (int i = 0; i < d * d; ++i)
        ck_assert(cimag(RU[i]) == 0.0);
    /* R(U^+) = R(U)^+ */
    cmat_dagger(V, n, U);
    repr_map(RV, r, n, V);
    cmat_dagger(P, d, RU);
    ck_assert_small(test_maxdiff(d, RV, P), TOL, "R(U^+) = R(U)^+ %s n=%d", rname(r), n);
    /* det R(U) = det(U)^q for U in U(n): q = 1, 0, n+1, n-1 */
    test_random_unitary(n, &s, U);
    repr_map(RU, r, n, U);
    const int q = r == HR_FUND ? 1 : r == HR_ADJ ? 0 : r == HR_2S ? n + 1 : n - 1;
    hr_complex detU = suN_det(n, U), expect = cpow(detU, q);
    cmat_copy(P, d, RU);
    ck_assert_small(cabs(cmat_det_inplace(d, P) - expect), 1e-13, "det R(U(n)) %s n=%d", rname(r),
                    n);
    ck_assert_small(test_unitarity(d, RU), TOL, "R(U(n)) unitary %s n=%d", rname(r), n);
  }
  /* R(1) = 1 */
  cmat_unit(U, n);
  repr_map(RU, r, n, U);
  ck_assert_small(test_maxdiff_unit(d, RU, 1.0), 1e-15, "R(1) %s n=%d", rname(r), n);
}
END_TEST

START_TEST(test_generators) {
  const int n = CASE_N(_i);
  const hr_repr r = CASE_R(_i);
  const int d = repr_dim(r, n), ng = n * n - 1;
  static hr_complex T[HR_SUN_NMAX * HR_SUN_NMAX - 1][TEST_MAT];
  hr_complex P[TEST_MAT], Q[TEST_MAT], C[TEST_MAT], Sum[TEST_MAT];
  for (int a = 0; a < ng; ++a)
    repr_generator(T[a], r, n, a);
  const double TR = repr_index(r, n), C2 = repr_casimir(r, n);
  cmat_zero(Sum, d);
  for (int a = 0; a < ng; ++a) {
    cmat_dagger(P, d, T[a]);
    ck_assert_small(test_maxdiff(d, T[a], P), 1e-15, "T^%d_R Hermitian %s n=%d", a, rname(r), n);
    for (int b = 0; b < ng; ++b) {
      cmat_mul(P, d, T[a], T[b]);
      ck_assert_small(cabs(cmat_trace(d, P) - (a == b ? TR : 0.0)), TOL,
                      "tr(T%d T%d) = T_R delta %s n=%d", a, b, rname(r), n);
      if (a == b)
        for (int i = 0; i < d * d; ++i)
          Sum[i] += P[i];
      /* [T^a_R, T^b_R] = i f^{abc} T^c_R */
      cmat_mul(Q, d, T[b], T[a]);
      for (int i = 0; i < d * d; ++i)
        C[i] = P[i] - Q[i];
      for (int c = 0; c < ng; ++c) {
        double f = suN_structure_constant(n, a, b, c);
        if (f != 0.0)
          for (int i = 0; i < d * d; ++i)
            C[i] -= hr_cmplx(0.0, f) * T[c][i];
      }
      ck_assert_small(sqrt(cmat_sqnorm(d, C)), TOL, "[T%d,T%d] = i f T %s n=%d", a, b, rname(r), n);
    }
  }
  ck_assert_small(test_maxdiff_unit(d, Sum, C2), TOL, "sum T^a T^a = C_2 %s n=%d", rname(r), n);
}
END_TEST

START_TEST(test_generator_derivative) {
  /* (R(exp(i eps T^a)) - R(exp(-i eps T^a))) / (2 i eps) = T^a_R + O(eps^2) */
  const int n = CASE_N(_i);
  const hr_repr r = CASE_R(_i);
  const int d = repr_dim(r, n), ng = n * n - 1;
  const double eps = 1e-4;
  double v[NMAT];
  hr_complex U[NMAT], Rp[TEST_MAT], Rm[TEST_MAT], D[TEST_MAT], T[TEST_MAT];
  for (int a = 0; a < ng; ++a) {
    for (int b = 0; b < ng; ++b)
      v[b] = (a == b) ? eps : 0.0;
    suN_exp_algebra(U, n, v);
    repr_map(Rp, r, n, U);
    v[a] = -eps;
    suN_exp_algebra(U, n, v);
    repr_map(Rm, r, n, U);
    for (int i = 0; i < d * d; ++i)
      D[i] = (Rp[i] - Rm[i]) / hr_cmplx(0.0, 2.0 * eps);
    repr_generator(T, r, n, a);
    ck_assert_small(test_maxdiff(d, D, T), 1e-7, "dR/deps = T^%d_R %s n=%d", a, rname(r), n);
  }
}
END_TEST

START_TEST(test_covariance_and_traces) {
  const int n = CASE_N(_i);
  const hr_repr r = CASE_R(_i);
  const int d = repr_dim(r, n), ng = n * n - 1;
  hr_rng_stream s = test_stream(2000 + _i);
  hr_complex U[NMAT], RU[TEST_MAT], Radj[TEST_MAT], Ta[TEST_MAT], Tb[TEST_MAT];
  hr_complex A[TEST_MAT], B[TEST_MAT], W[TEST_MAT], t[TEST_MAT];
  suN_random_haar(U, n, &s);
  repr_map(RU, r, n, U);
  repr_map(Radj, HR_ADJ, n, U);
  /* R(U) T^a_R R(U)^+ = sum_b T^b_R Radj_ba */
  for (int a = 0; a < ng; ++a) {
    repr_generator(Ta, r, n, a);
    cmat_mul(A, d, RU, Ta);
    cmat_mul_dag(B, d, A, RU);
    cmat_zero(A, d);
    for (int b = 0; b < ng; ++b) {
      repr_generator(Tb, r, n, b);
      for (int i = 0; i < d * d; ++i)
        A[i] += Radj[b * ng + a] * Tb[i];
    }
    ck_assert_small(test_maxdiff(d, A, B), TOL, "covariance of T^%d_R %s n=%d", a, rname(r), n);
  }
  /* generator traces: tr(T^a_R W) for a random W, against the dense generators */
  test_random_matrix(d, &s, W);
  repr_generator_traces(t, r, n, W);
  for (int a = 0; a < ng; ++a) {
    repr_generator(Ta, r, n, a);
    cmat_mul(A, d, Ta, W);
    ck_assert_small(cabs(t[a] - cmat_trace(d, A)), 1e-13, "tr(T^%d_R W) %s n=%d", a, rname(r), n);
  }
  /* the force projection: with W = U^R M, d/deps tr((exp(i eps T^a) U)^R M) = i t_a */
  hr_complex M[TEST_MAT], E[NMAT], EU[NMAT], RE[TEST_MAT];
  test_random_matrix(d, &s, M);
  cmat_mul(W, d, RU, M);
  repr_generator_traces(t, r, n, W);
  const double eps = 1e-5;
  for (int a = 0; a < ng; ++a) {
    hr_complex f[2];
    for (int sgn = 0; sgn < 2; ++sgn) {
      double v[NMAT] = {0};
      v[a] = sgn == 0 ? eps : -eps;
      suN_exp_algebra(E, n, v);
      cmat_mul(EU, n, E, U);
      repr_map(RE, r, n, EU);
      cmat_mul(A, d, RE, M);
      f[sgn] = cmat_trace(d, A);
    }
    hr_complex deriv = (f[0] - f[1]) / (2 * eps);
    ck_assert_small(cabs(deriv - hr_cmplx(0.0, 1.0) * t[a]), 1e-8 * (1.0 + cabs(t[a])),
                    "force projection a=%d %s n=%d", a, rname(r), n);
  }
}
END_TEST

START_TEST(test_pairs_and_names) {
  for (int n = 2; n <= 4; ++n)
    for (hr_repr r = HR_2S; r <= HR_2AS; r = (hr_repr)(r + 1)) {
      int idx = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i + (r == HR_2AS) <= j; ++i, ++idx) {
          ck_assert_int_eq(repr_pair_index(r, i, j), idx);
          int ii, jj;
          repr_pair(&ii, &jj, r, idx);
          ck_assert(ii == i && jj == j);
        }
      ck_assert_int_eq(idx, repr_dim(r, n));
    }
  for (int k = 0; k < HR_NUM_REPRS; ++k) {
    hr_repr r;
    ck_assert_int_eq(repr_from_name(&r, repr_name((hr_repr)k)), 0);
    ck_assert_int_eq(r, k);
    ck_assert(strlen(repr_long_name((hr_repr)k)) > 3);
  }
  hr_repr r = HR_FUND;
  ck_assert_int_eq(repr_from_name(&r, "adjoint"), -1);
  ck_assert_int_eq(repr_from_name(&r, NULL), -1);
  ck_assert_int_eq(r, HR_FUND);
}
END_TEST

/* The compiled theory: NF, the name, and the shortcuts are those of (NG, HR_BUILD_REPR), and
 * suNg_to_suNf agrees with the independent reference map. */
START_TEST(test_compiled_theory) {
  ck_assert_int_eq(NF, repr_dim(HR_BUILD_REPR, NG));
  ck_assert_int_eq(HR_REPR_IS_REAL, repr_is_real(HR_BUILD_REPR));
  ck_assert_str_eq(HR_REPR_NAME, repr_name(HR_BUILD_REPR));
  hr_rng_stream s = test_stream(3000);
  suNg U, V, UV;
  suNf RU, RV, RUV, P;
  hr_complex Ref[NF * NF];
  for (int rep = 0; rep < 10; ++rep) {
    suNg_random(&U, &s);
    suNg_random(&V, &s);
    suNg_mul(&UV, &U, &V);
    suNg_to_suNf(&RU, &U);
    suNg_to_suNf(&RV, &V);
    suNg_to_suNf(&RUV, &UV);
    if (NG <= HR_SUN_NMAX && NF <= TEST_DMAX) {
      reference_map(HR_BUILD_REPR, NG, U.c, Ref);
      ck_assert_small(test_maxdiff(NF, RU.c, Ref), TOL, "suNg_to_suNf vs reference");
    }
    suNf_mul(&P, &RU, &RV);
    ck_assert_small(test_maxdiff(NF, RUV.c, P.c), TOL, "suNf homomorphism");
    ck_assert_small(test_unitarity(NF, RU.c), TOL, "suNf unitary");
  }
  suNf T;
  hr_complex G[NF * NF], t[NG * NG - 1];
  for (int a = 0; a < NG * NG - 1; ++a) {
    suNf_generator(&T, a);
    repr_generator(G, HR_BUILD_REPR, NG, a);
    ck_assert_small(test_maxdiff(NF, T.c, G), 0.0, "suNf_generator");
  }
  suNf_generator_traces(t, &RU);
  for (int a = 0; a < NG * NG - 1; ++a) {
    suNf_generator(&T, a);
    suNf_mul(&P, &T, &RU);
    ck_assert_small(cabs(t[a] - suNf_trace(&P)), 1e-13, "suNf_generator_traces");
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("representation");
  TCase *tc = tcase_create("n = 2, 3, 4 x fund, adj, 2s, 2as");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_constants, 0, 12);
  tcase_add_loop_test(tc, test_map, 0, 12);
  tcase_add_loop_test(tc, test_generators, 0, 12);
  tcase_add_loop_test(tc, test_generator_derivative, 0, 12);
  tcase_add_loop_test(tc, test_covariance_and_traces, 0, 12);
  tcase_add_test(tc, test_pairs_and_names);
  tcase_add_test(tc, test_compiled_theory);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
