/* cxx_algebra_check.cpp -- the C++ side of the algebra headers (the code path that nvcc
 * compiles): the struct hr_complex operators against std::complex, and the inline SU(N)
 * functions compiled as C++ against group identities. A host program, no GPU needed:
 *   g++ -std=c++17 -I<src>/Include -I<build>/Include cxx_algebra_check.cpp <build>/LibHR/.libs/libhr.a -lm
 * (or nvcc -x cu ... for the CUDA host compiler). Exit code 0 when every check passes. */
#include <complex>
#include <cstdio>
#include <cstdlib>
#include "representation.h"
#include "suN.h"
#include "suN_random.h"

static int failures = 0;

static void check(bool ok, const char *what, double value) {
  if (!ok) {
    std::fprintf(stderr, "FAIL %s (%.3e)\n", what, value);
    ++failures;
  }
}

static double dist(hr_complex a, std::complex<double> b) {
  return std::abs(std::complex<double>(a.re, a.im) - b);
}

int main() {
  /* operators against std::complex, double and float, and C's promotion rules */
  hr_rng_stream s;
  rng_stream_init(&s, 99, 1, 0);
  for (int t = 0; t < 1000; ++t) {
    double v[4];
    for (int k = 0; k < 4; ++k) v[k] = rng_gaussian(&s);
    hr_complex a = hr_cmplx(v[0], v[1]), b = hr_cmplx(v[2], v[3]);
    std::complex<double> A(v[0], v[1]), B(v[2], v[3]);
    double tol = 1e-14 * (1.0 + std::abs(A) * std::abs(B) + 1.0 / std::abs(B));
    check(dist(a + b, A + B) < tol, "a + b", dist(a + b, A + B));
    check(dist(a - b, A - B) < tol, "a - b", dist(a - b, A - B));
    check(dist(a * b, A * B) < tol, "a * b", dist(a * b, A * B));
    check(dist(a / b, A / B) < tol, "a / b", dist(a / b, A / B));
    check(dist(2.5 * a - b * 0.5 + 1.0, 2.5 * A - B * 0.5 + 1.0) < tol, "real mix", 0);
    check(dist(-a, -A) == 0.0, "-a", 0);
    check(dist(hr_conj(a), std::conj(A)) == 0.0, "conj", 0);
    check(std::abs(hr_cabs2(a) - std::norm(A)) < tol, "cabs2", 0);
    check(dist(hr_ctimes_i(a), std::complex<double>(0, 1) * A) == 0.0, "times i", 0);
    check(dist(hr_conj_cmul(a, b), std::conj(A) * B) < tol, "conj_cmul", 0);
    check(dist(hr_cmul_conj(a, b), A * std::conj(B)) < tol, "cmul_conj", 0);
    hr_complex c = a;
    c += b;
    c *= a;
    c -= 2.0;
    c /= b;
    std::complex<double> C = ((A + B) * A - 2.0) / B;
    check(dist(c, C) < 10 * tol, "compound", dist(c, C));
    hr_complex_flt af = a, bf = b; /* implicit rounding, as in C */
    hr_complex_flt pf = af * bf + 2 * af;
    std::complex<float> Af((float)v[0], (float)v[1]), Bf((float)v[2], (float)v[3]);
    std::complex<float> Pf = Af * Bf + 2.0f * Af;
    check(std::abs(std::complex<float>(pf.re, pf.im) - Pf) < 1e-5f * (1 + std::abs(Pf)), "flt",
          0);
    hr_complex mixed = af * 1.0 + b; /* double result */
    check(dist(mixed, std::complex<double>(af.re, af.im) + B) < tol, "mixed", 0);
  }
  static_assert(sizeof(decltype(hr_complex_flt() * 1.0)) == sizeof(hr_complex), "promotion");
  static_assert(sizeof(decltype(hr_complex_flt() * 1.0f)) == sizeof(hr_complex_flt), "float");
  static_assert(sizeof(decltype(hr_complex_flt() * 2)) == sizeof(hr_complex_flt), "int");

  /* SU(N) operations compiled as C++ */
  for (int t = 0; t < 20; ++t) {
    suNg U, V, UV, W;
    suNg_random(&U, &s);
    suNg_random(&V, &s);
    suNg_mul(&UV, &U, &V);
    hr_complex d = suNg_det(&UV);
    check(dist(d, 1.0) < 1e-14, "det U V", dist(d, 1.0));
    suNg_dag_mul(&W, &U, &U);
    check(dist(suNg_trace(&W), (double)NG) < 1e-14, "U^+ U", 0);
    suNf RU, RV, RUV, P;
    suNg_to_suNf(&RU, &U);
    suNg_to_suNf(&RV, &V);
    suNg_to_suNf(&RUV, &UV);
    suNf_mul(&P, &RU, &RV);
    suNf_sub(&P, &P, &RUV);
    check(suNf_sqnorm(&P) < 1e-26, "R(UV) = R(U)R(V)", suNf_sqnorm(&P));
    suNg_algebra_vector p;
    suNg_algebra_vector_random(&p, &s);
    suNg_exp(&W, &p);
    check(dist(suNg_det(&W), 1.0) < 1e-14, "det exp", 0);
    suNf_spinor a, b;
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < NF; ++i) a.c[k].c[i] = hr_cmplx(rng_gaussian(&s), 0.5);
    suNf_spinor_mul_colour(&b, &RU, &a);
    double n1 = suNf_spinor_sqnorm(&a), n2 = suNf_spinor_sqnorm(&b);
    check(std::abs(n1 - n2) < 1e-13 * n1, "|U a| = |a|", std::abs(n1 - n2));
  }
  std::printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
