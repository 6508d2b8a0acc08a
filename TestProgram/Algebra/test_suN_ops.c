/* test_suN_ops.c -- the per-site operations of suN.h on the compiled types (suNg: NG, suNf:
 * NF, double and single precision, vectors, spinors, algebra vectors) against the generic
 * run-time-dimension functions of suN_generic.h, against element-wise formulas written out
 * here, and against identities (det(AB) = det A det B, <w, U v> = <U^+ w, v>, ...). */
#include "algebra_test_util.h"
#include "suN.h"
#include <check.h>
#include <math.h>

#define TOL 1e-13

/* Fill any struct made of hr_complex (double) with Gaussian numbers. */
static void fill(hr_rng_stream *s, hr_complex *c, int len) {
  for (int i = 0; i < len; ++i) {
    double re = rng_gaussian(s);
    double im = rng_gaussian(s);
    c[i] = hr_cmplx(re, im);
  }
}

/* max |a_i - b_i| over len numbers. */
static double maxdiff(const hr_complex *a, const hr_complex *b, int len) {
  double m = 0.0;
  for (int i = 0; i < len; ++i) {
    double v = cabs(a[i] - b[i]);
    if (v > m)
      m = v;
  }
  return m;
}

/* max |a - b| over all components of two spinors. */
static double spinor_maxdiff(const suNf_spinor *a, const suNf_spinor *b) {
  double m = 0.0;
  for (int k = 0; k < 4; ++k) {
    double v = maxdiff(a->c[k].c, b->c[k].c, NF);
    if (v > m)
      m = v;
  }
  return m;
}

/* Matrix and vector tests, written once for the matrix type M with vector type V and
 * dimension D (suNg/NG and suNf/NF). */
#define MATRIX_TESTS(M, V, D)                                                                      \
  START_TEST(test_##M##_products) {                                                                \
    hr_rng_stream s = test_stream(100 + D);                                                        \
    for (int t = 0; t < 20; ++t) {                                                                 \
      M a, b, r, ref, tmp;                                                                         \
      fill(&s, a.c, D *D);                                                                         \
      fill(&s, b.c, D *D);                                                                         \
      M##_mul(&r, &a, &b);                                                                         \
      cmat_mul(ref.c, D, a.c, b.c);                                                                \
      ck_assert_small(maxdiff(r.c, ref.c, D *D), TOL, #M "_mul");                                  \
      M##_mul_dag(&r, &a, &b);                                                                     \
      cmat_mul_dag(ref.c, D, a.c, b.c);                                                            \
      ck_assert_small(maxdiff(r.c, ref.c, D *D), TOL, #M "_mul_dag");                              \
      M##_dag_mul(&r, &a, &b);                                                                     \
      cmat_dag_mul(ref.c, D, a.c, b.c);                                                            \
      ck_assert_small(maxdiff(r.c, ref.c, D *D), TOL, #M "_dag_mul");                              \
      M##_dagger(&r, &a);                                                                          \
      cmat_dagger(ref.c, D, a.c);                                                                  \
      ck_assert_small(maxdiff(r.c, ref.c, D *D), 0.0, #M "_dagger");                               \
      /* A B^+ = A (B^+) with the separately computed dagger */                                    \
      M##_dagger(&tmp, &b);                                                                        \
      M##_mul(&ref, &a, &tmp);                                                                     \
      M##_mul_dag(&r, &a, &b);                                                                     \
      ck_assert_small(maxdiff(r.c, ref.c, D *D), TOL, #M "_mul_dag vs dagger");                    \
      /* outputs may alias inputs */                                                               \
      M##_mul(&ref, &a, &b);                                                                       \
      r = a;                                                                                       \
      M##_mul(&r, &r, &b);                                                                         \
      ck_assert_small(maxdiff(r.c, ref.c, D *D), 0.0, #M "_mul aliased");                          \
      M##_dagger(&ref, &a);                                                                        \
      r = a;                                                                                       \
      M##_dagger(&r, &r);                                                                          \
      ck_assert_small(maxdiff(r.c, ref.c, D *D), 0.0, #M "_dagger aliased");                       \
      /* traces and norms */                                                                       \
      ck_assert_small(cabs(M##_trace(&a) - cmat_trace(D, a.c)), TOL, #M "_trace");                 \
      ck_assert_small(M##_re_trace(&a) - creal(cmat_trace(D, a.c)), TOL, #M "_re_trace");          \
      M##_dag_mul(&tmp, &a, &a);                                                                   \
      ck_assert_small(M##_sqnorm(&a) - creal(M##_trace(&tmp)), TOL * D * D, #M "_sqnorm");         \
    }                                                                                              \
  }                                                                                                \
  END_TEST                                                                                         \
                                                                                                   \
  START_TEST(test_##M##_elementwise) {                                                             \
    hr_rng_stream s = test_stream(200 + D);                                                        \
    M a, b, r, u;                                                                                  \
    fill(&s, a.c, D *D);                                                                           \
    fill(&s, b.c, D *D);                                                                           \
    const double x = 0.37;                                                                         \
    const hr_complex z = hr_cmplx(-0.4, 1.3);                                                      \
    M##_add(&r, &a, &b);                                                                           \
    for (int i = 0; i < D * D; ++i)                                                                \
      ck_assert(r.c[i] == a.c[i] + b.c[i]);                                                        \
    M##_sub(&r, &a, &b);                                                                           \
    for (int i = 0; i < D * D; ++i)                                                                \
      ck_assert(r.c[i] == a.c[i] - b.c[i]);                                                        \
    M##_minus(&r, &a);                                                                             \
    for (int i = 0; i < D * D; ++i)                                                                \
      ck_assert(r.c[i] == -a.c[i]);                                                                \
    M##_scale(&r, x, &a);                                                                          \
    for (int i = 0; i < D * D; ++i)                                                                \
      ck_assert_small(cabs(r.c[i] - x * a.c[i]), 1e-15, "scale");                                  \
    M##_scale_cmplx(&r, z, &a);                                                                    \
    for (int i = 0; i < D * D; ++i)                                                                \
      ck_assert_small(cabs(r.c[i] - z * a.c[i]), 1e-15, "scale_cmplx");                            \
    M##_mul_add(&r, &a, x, &b);                                                                    \
    for (int i = 0; i < D * D; ++i)                                                                \
      ck_assert_small(cabs(r.c[i] - (a.c[i] + x * b.c[i])), 1e-15, "mul_add");                     \
    M##_zero(&r);                                                                                  \
    for (int i = 0; i < D * D; ++i)                                                                \
      ck_assert(r.c[i] == 0.0);                                                                    \
    M##_unit(&u);                                                                                  \
    M##_mul(&r, &u, &a);                                                                           \
    ck_assert_small(maxdiff(r.c, a.c, D *D), 0.0, #M "_unit");                                     \
    ck_assert(creal(M##_trace(&u)) == D && cimag(M##_trace(&u)) == 0.0);                           \
    M##_copy(&r, &a);                                                                              \
    ck_assert_small(maxdiff(r.c, a.c, D *D), 0.0, #M "_copy");                                     \
  }                                                                                                \
  END_TEST                                                                                         \
                                                                                                   \
  START_TEST(test_##M##_det) {                                                                     \
    hr_rng_stream s = test_stream(300 + D);                                                        \
    for (int t = 0; t < 20; ++t) {                                                                 \
      M a, b, ab, ad;                                                                              \
      fill(&s, a.c, D *D);                                                                         \
      fill(&s, b.c, D *D);                                                                         \
      M##_mul(&ab, &a, &b);                                                                        \
      hr_complex da = M##_det(&a), db = M##_det(&b), dab = M##_det(&ab);                           \
      ck_assert_small(cabs(dab - da * db) / cabs(dab), 1e-12, #M "_det of a product");             \
      M##_dagger(&ad, &a);                                                                         \
      ck_assert_small(cabs(M##_det(&ad) - conj(da)) / cabs(da), 1e-12, #M "_det of dagger");       \
      hr_complex lu[D * D];                                                                        \
      cmat_copy(lu, D, a.c);                                                                       \
      ck_assert_small(cabs(cmat_det_inplace(D, lu) - da) / cabs(da), 1e-13, #M "_det vs cmat");    \
    }                                                                                              \
    /* a permuted diagonal matrix: det = sign(permutation) * product of the entries */             \
    M p;                                                                                           \
    M##_zero(&p);                                                                                  \
    hr_complex prod = 1.0;                                                                         \
    for (int i = 0; i < D; ++i) {                                                                  \
      hr_complex e = hr_cmplx(1.0 + i, 0.5 * i);                                                   \
      p.c[i * D + (i + 1) % D] = e; /* cyclic shift: sign (-1)^(D-1) */                            \
      prod *= e;                                                                                   \
    }                                                                                              \
    double sign = (D % 2 == 1) ? 1.0 : -1.0;                                                       \
    ck_assert_small(cabs(M##_det(&p) - sign * prod) / cabs(prod), 1e-14, #M "_det permutation");   \
    M##_zero(&p);                                                                                  \
    ck_assert(M##_det(&p) == 0.0);                                                                 \
  }                                                                                                \
  END_TEST                                                                                         \
                                                                                                   \
  START_TEST(test_##M##_mul_vec) {                                                                 \
    hr_rng_stream s = test_stream(400 + D);                                                        \
    for (int t = 0; t < 20; ++t) {                                                                 \
      M U;                                                                                         \
      V v, w, r, r2, ref;                                                                          \
      fill(&s, U.c, D *D);                                                                         \
      fill(&s, v.c, D);                                                                            \
      fill(&s, w.c, D);                                                                            \
      M##_mul_vec(&r, &U, &v);                                                                     \
      for (int i = 0; i < D; ++i) {                                                                \
        ref.c[i] = 0.0;                                                                            \
        for (int k = 0; k < D; ++k)                                                                \
          ref.c[i] += U.c[i * D + k] * v.c[k];                                                     \
      }                                                                                            \
      ck_assert_small(maxdiff(r.c, ref.c, D), TOL, #M "_mul_vec");                                 \
      /* <w, U v> = <U^+ w, v> */                                                                  \
      M##_dag_mul_vec(&r2, &U, &w);                                                                \
      ck_assert_small(cabs(V##_prod(&w, &r) - V##_prod(&r2, &v)), TOL *D, #M "_dag_mul_vec");      \
      /* accumulating forms */                                                                     \
      r2 = w;                                                                                      \
      M##_mul_vec_add(&r2, &U, &v);                                                                \
      V##_add(&ref, &w, &r);                                                                       \
      ck_assert_small(maxdiff(r2.c, ref.c, D), TOL, #M "_mul_vec_add");                            \
      M##_dag_mul_vec(&r, &U, &v);                                                                 \
      r2 = w;                                                                                      \
      M##_dag_mul_vec_add(&r2, &U, &v);                                                            \
      V##_add(&ref, &w, &r);                                                                       \
      ck_assert_small(maxdiff(r2.c, ref.c, D), TOL, #M "_dag_mul_vec_add");                        \
      /* aliasing: v = U v */                                                                      \
      M##_mul_vec(&ref, &U, &v);                                                                   \
      M##_mul_vec(&v, &U, &v);                                                                     \
      ck_assert_small(maxdiff(v.c, ref.c, D), 0.0, #M "_mul_vec aliased");                         \
    }                                                                                              \
  }                                                                                                \
  END_TEST                                                                                         \
                                                                                                   \
  START_TEST(test_##V##_ops) {                                                                     \
    hr_rng_stream s = test_stream(500 + D);                                                        \
    V a, b, r;                                                                                     \
    fill(&s, a.c, D);                                                                              \
    fill(&s, b.c, D);                                                                              \
    const double x = -1.7;                                                                         \
    const hr_complex z = hr_cmplx(0.3, -0.8), i1 = hr_cmplx(0.0, 1.0);                             \
    V##_add(&r, &a, &b);                                                                           \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert(r.c[i] == a.c[i] + b.c[i]);                                                        \
    V##_sub(&r, &a, &b);                                                                           \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert(r.c[i] == a.c[i] - b.c[i]);                                                        \
    V##_minus(&r, &a);                                                                             \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert(r.c[i] == -a.c[i]);                                                                \
    V##_add_i(&r, &a, &b);                                                                         \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert_small(cabs(r.c[i] - (a.c[i] + i1 * b.c[i])), 1e-15, "add_i");                      \
    V##_sub_i(&r, &a, &b);                                                                         \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert_small(cabs(r.c[i] - (a.c[i] - i1 * b.c[i])), 1e-15, "sub_i");                      \
    V##_scale(&r, x, &a);                                                                          \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert_small(cabs(r.c[i] - x * a.c[i]), 1e-15, "scale");                                  \
    V##_scale_cmplx(&r, z, &a);                                                                    \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert_small(cabs(r.c[i] - z * a.c[i]), 1e-15, "scale_c");                                \
    V##_mul_add(&r, &a, x, &b);                                                                    \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert_small(cabs(r.c[i] - (a.c[i] + x * b.c[i])), 1e-15, "mul_add");                     \
    V##_mul_add_cmplx(&r, &a, z, &b);                                                              \
    for (int i = 0; i < D; ++i)                                                                    \
      ck_assert_small(cabs(r.c[i] - (a.c[i] + z * b.c[i])), 1e-15, "mul_add_c");                   \
    hr_complex p = 0.0;                                                                            \
    double n2 = 0.0;                                                                               \
    for (int i = 0; i < D; ++i) {                                                                  \
      p += conj(a.c[i]) * b.c[i];                                                                  \
      n2 += creal(a.c[i]) * creal(a.c[i]) + cimag(a.c[i]) * cimag(a.c[i]);                         \
    }                                                                                              \
    ck_assert_small(cabs(V##_prod(&a, &b) - p), TOL, #V "_prod");                                  \
    ck_assert_small(cabs(V##_prod(&b, &a) - conj(p)), TOL, #V "_prod symmetry");                   \
    ck_assert_small(V##_re_prod(&a, &b) - creal(p), TOL, #V "_re_prod");                           \
    ck_assert_small(V##_sqnorm(&a) - n2, TOL, #V "_sqnorm");                                       \
    V##_zero(&r);                                                                                  \
    ck_assert(V##_sqnorm(&r) == 0.0);                                                              \
    V##_copy(&r, &a);                                                                              \
    ck_assert_small(maxdiff(r.c, a.c, D), 0.0, #V "_copy");                                        \
  }                                                                                                \
  END_TEST

MATRIX_TESTS(suNg, suNg_vector, NG)
MATRIX_TESTS(suNf, suNf_vector, NF)

START_TEST(test_spinor_ops) {
  hr_rng_stream s = test_stream(600);
  suNf_spinor a, b, r, g;
  suNf U;
  for (int k = 0; k < 4; ++k) {
    fill(&s, a.c[k].c, NF);
    fill(&s, b.c[k].c, NF);
  }
  fill(&s, U.c, NF * NF);
  const double x = 0.61;
  const hr_complex z = hr_cmplx(1.1, 0.4);
  /* each spinor operation is the vector operation on the 4 spin components */
  suNf_spinor_mul_add_cmplx(&r, &a, z, &b);
  for (int k = 0; k < 4; ++k) {
    suNf_vector ref;
    suNf_vector_mul_add_cmplx(&ref, &a.c[k], z, &b.c[k]);
    ck_assert_small(maxdiff(r.c[k].c, ref.c, NF), 0.0, "spinor mul_add_cmplx");
  }
  hr_complex p = 0.0;
  double n2 = 0.0, rp = 0.0;
  for (int k = 0; k < 4; ++k) {
    p += suNf_vector_prod(&a.c[k], &b.c[k]);
    n2 += suNf_vector_sqnorm(&a.c[k]);
    rp += suNf_vector_re_prod(&a.c[k], &b.c[k]);
  }
  ck_assert_small(cabs(suNf_spinor_prod(&a, &b) - p), TOL, "spinor prod");
  ck_assert_small(suNf_spinor_sqnorm(&a) - n2, TOL, "spinor sqnorm");
  ck_assert_small(suNf_spinor_re_prod(&a, &b) - rp, TOL, "spinor re_prod");
  suNf_spinor_add(&r, &a, &b);
  suNf_spinor_sub(&r, &r, &b);
  suNf_spinor_sub(&r, &r, &a);
  ck_assert_small(suNf_spinor_sqnorm(&r), 1e-28, "spinor (a + b) - b - a");
  suNf_spinor_scale(&r, x, &a);
  suNf_spinor_mul_add(&r, &r, -x, &a);
  ck_assert_small(suNf_spinor_sqnorm(&r), 1e-28, "spinor x a - x a");
  suNf_spinor_scale_cmplx(&r, z, &a);
  ck_assert_small(cabs(suNf_spinor_prod(&b, &r) - z * suNf_spinor_prod(&b, &a)), TOL,
                  "spinor scale_cmplx");
  suNf_spinor_minus(&r, &a);
  suNf_spinor_add(&r, &r, &a);
  ck_assert(suNf_spinor_sqnorm(&r) == 0.0);
  /* gamma5 = diag(1,1,-1,-1): squares to one, Hermitian, traceless, g5_prod, g5_mul_add */
  suNf_spinor_g5(&g, &a);
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < NF; ++i)
      ck_assert(g.c[k].c[i] == (k < 2 ? a.c[k].c[i] : -a.c[k].c[i]));
  suNf_spinor_g5(&r, &g);
  ck_assert_small(spinor_maxdiff(&r, &a), 0.0, "g5^2 = 1");
  ck_assert_small(cabs(suNf_spinor_g5_prod(&a, &b) - suNf_spinor_prod(&g, &b)), TOL,
                  "<a, g5 b> = <g5 a, b>");
  ck_assert_small(cimag(suNf_spinor_g5_prod(&a, &a)), TOL, "<a, g5 a> real");
  suNf_spinor_g5(&g, &b);
  ck_assert_small(cabs(suNf_spinor_g5_prod(&a, &b) - suNf_spinor_prod(&a, &g)), TOL, "g5_prod");
  suNf_spinor_g5_mul_add(&r, &a, x, &b);
  suNf_spinor ref;
  suNf_spinor_mul_add(&ref, &a, x, &g);
  ck_assert_small(spinor_maxdiff(&r, &ref), 1e-15, "g5_mul_add");
  /* colour matrix on each spin component */
  suNf_spinor_mul_colour(&r, &U, &a);
  for (int k = 0; k < 4; ++k) {
    suNf_vector v;
    suNf_mul_vec(&v, &U, &a.c[k]);
    ck_assert_small(maxdiff(r.c[k].c, v.c, NF), 0.0, "mul_colour");
  }
  suNf_spinor_zero(&r);
  ck_assert(suNf_spinor_sqnorm(&r) == 0.0);
  suNf_spinor_copy(&r, &a);
  ck_assert(suNf_spinor_sqnorm(&r) == suNf_spinor_sqnorm(&a));
}
END_TEST

/* Single precision: the _flt operations agree with double precision to float rounding, and
 * conversions round-trip. */
START_TEST(test_single_precision) {
  hr_rng_stream s = test_stream(700);
  suNg a, b, r, back;
  suNg_flt af, bf, rf;
  fill(&s, a.c, NG * NG);
  fill(&s, b.c, NG * NG);
  suNg_to_flt(&af, &a);
  suNg_to_flt(&bf, &b);
  suNg_flt_to_dbl(&back, &af);
  ck_assert_small(maxdiff(back.c, a.c, NG * NG), 1e-6, "suNg round trip");
  for (int i = 0; i < NG * NG; ++i)
    ck_assert(af.c[i] == hr_complex_to_flt(a.c[i]));
  suNg_mul(&r, &a, &b);
  suNg_flt_mul(&rf, &af, &bf);
  suNg_flt_to_dbl(&back, &rf);
  ck_assert_small(maxdiff(back.c, r.c, NG * NG), 1e-5 * NG, "suNg_flt_mul");
  ck_assert_small(cabs(hr_complex_to_dbl(suNg_flt_det(&af)) - suNg_det(&a)) / cabs(suNg_det(&a)),
                  1e-4, "suNg_flt_det");

  suNf U;
  suNf_flt Uf;
  suNf_spinor x, y;
  suNf_spinor_flt xf, yf;
  fill(&s, U.c, NF * NF);
  for (int k = 0; k < 4; ++k)
    fill(&s, x.c[k].c, NF);
  suNf_to_flt(&Uf, &U);
  suNf_spinor_to_flt(&xf, &x);
  suNf_spinor_mul_colour(&y, &U, &x);
  suNf_spinor_flt_mul_colour(&yf, &Uf, &xf);
  suNf_spinor_flt_to_dbl(&x, &yf);
  for (int k = 0; k < 4; ++k)
    ck_assert_small(maxdiff(x.c[k].c, y.c[k].c, NF), 1e-5 * NF, "flt mul_colour");
  ck_assert_small(suNf_spinor_flt_sqnorm(&yf) / suNf_spinor_sqnorm(&y) - 1.0, 1e-5, "flt sqnorm");
  suNf_spinor_to_flt(&yf, &y);
  suNf_flt_dag_mul_vec(&xf.c[0], &Uf, &yf.c[0]);
  suNf_dag_mul_vec(&y.c[1], &U, &y.c[0]);
  suNf_vector_flt_to_dbl(&y.c[0], &xf.c[0]);
  ck_assert_small(maxdiff(y.c[0].c, y.c[1].c, NF), 1e-5 * NF * NF, "flt dag_mul_vec");

  suNg_algebra_vector v, w;
  suNg_algebra_vector_flt vf;
  for (int i = 0; i < NG * NG - 1; ++i)
    v.c[i] = rng_gaussian(&s);
  suNg_algebra_vector_to_flt(&vf, &v);
  suNg_algebra_vector_flt_to_dbl(&w, &vf);
  for (int i = 0; i < NG * NG - 1; ++i)
    ck_assert_small(w.c[i] - v.c[i], 1e-6 * fabs(v.c[i]), "alg round trip");
  ck_assert_small(suNg_algebra_vector_flt_sqnorm(&vf) / suNg_algebra_vector_sqnorm(&v) - 1.0, 1e-6,
                  "alg flt sqnorm");
}
END_TEST

START_TEST(test_algebra_vector_ops) {
  hr_rng_stream s = test_stream(800);
  suNg_algebra_vector a, b, r;
  for (int i = 0; i < NG * NG - 1; ++i) {
    a.c[i] = rng_gaussian(&s);
    b.c[i] = rng_gaussian(&s);
  }
  double n2 = 0.0;
  for (int i = 0; i < NG * NG - 1; ++i)
    n2 += a.c[i] * a.c[i];
  ck_assert_small(suNg_algebra_vector_sqnorm(&a) - n2, 1e-14, "alg sqnorm");
  suNg_algebra_vector_mul_add(&r, &a, 0.5, &b);
  for (int i = 0; i < NG * NG - 1; ++i)
    ck_assert(r.c[i] == a.c[i] + 0.5 * b.c[i]);
  suNg_algebra_vector_add(&r, &a, &b);
  suNg_algebra_vector_sub(&r, &r, &b);
  suNg_algebra_vector_sub(&r, &r, &a);
  ck_assert_small(suNg_algebra_vector_sqnorm(&r), 1e-28, "alg add/sub");
  suNg_algebra_vector_scale(&r, 3.0, &a);
  for (int i = 0; i < NG * NG - 1; ++i)
    ck_assert(r.c[i] == 3.0 * a.c[i]);
  suNg_algebra_vector_zero(&r);
  ck_assert(suNg_algebra_vector_sqnorm(&r) == 0.0);
  /* |v|^2 = 2 tr(X^+ X) for X = i v_a T^a */
  suNg X, XX;
  suNg_algebra_vector_to_matrix(&X, &a);
  suNg_dag_mul(&XX, &X, &X);
  ck_assert_small(2.0 * suNg_re_trace(&XX) - n2, 1e-13, "alg norm vs matrix norm");
  suNg_project_to_algebra(&r, &X);
  suNg_algebra_vector_sub(&r, &r, &a);
  ck_assert_small(suNg_algebra_vector_sqnorm(&r), 1e-28, "project(to_matrix(v)) = v");
  /* the compiled group operations are the generic ones at n = NG */
  suNg U, V, T;
  suNg_exp(&U, &a);
  suN_exp_algebra(V.c, NG, a.c);
  ck_assert_small(maxdiff(U.c, V.c, NG * NG), 0.0, "suNg_exp");
  suNg_exp_matrix(&V, &X);
  ck_assert_small(maxdiff(U.c, V.c, NG * NG), 0.0, "suNg_exp_matrix");
  ck_assert_small(test_unitarity(NG, U.c), 1e-14, "suNg_exp unitary");
  suNg_generator(&T, NG * NG - 2);
  suN_generator(V.c, NG, NG * NG - 2);
  ck_assert_small(maxdiff(T.c, V.c, NG * NG), 0.0, "suNg_generator");
}
END_TEST

int main(void) {
  Suite *s = suite_create("suN_ops");
  TCase *tc = tcase_create("compiled types");
  tcase_add_test(tc, test_suNg_products);
  tcase_add_test(tc, test_suNg_elementwise);
  tcase_add_test(tc, test_suNg_det);
  tcase_add_test(tc, test_suNg_mul_vec);
  tcase_add_test(tc, test_suNg_vector_ops);
  tcase_add_test(tc, test_suNf_products);
  tcase_add_test(tc, test_suNf_elementwise);
  tcase_add_test(tc, test_suNf_det);
  tcase_add_test(tc, test_suNf_mul_vec);
  tcase_add_test(tc, test_suNf_vector_ops);
  tcase_add_test(tc, test_spinor_ops);
  tcase_add_test(tc, test_single_precision);
  tcase_add_test(tc, test_algebra_vector_ops);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
