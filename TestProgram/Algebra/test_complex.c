/* test_complex.c -- the complex helpers of hr_complex.h in C: each helper against C's own
 * complex arithmetic (an independent implementation), the precision chosen by _Generic, the
 * memory layout (real part first), and the precision conversions. */
#include "algebra_test_util.h"
#include "hr_complex.h"
#include <check.h>
#include <complex.h>
#include <math.h>
#include <string.h>

/* Relative distance |a - b| / max(1, |b|). */
static double reldiff(hr_complex a, hr_complex b) {
  double nb = cabs(b);
  return cabs(a - b) / (nb > 1.0 ? nb : 1.0);
}

START_TEST(test_build_and_parts) {
  hr_complex z = hr_cmplx(1.5, -2.25);
  ck_assert(creal(z) == 1.5 && cimag(z) == -2.25);
  ck_assert(hr_creal(z) == 1.5 && hr_cimag(z) == -2.25);
  hr_complex_flt f = hr_cmplx_flt(0.5f, 4.0f);
  ck_assert(crealf(f) == 0.5f && cimagf(f) == 4.0f);
  ck_assert(hr_creal(f) == 0.5f && hr_cimag(f) == 4.0f);
  /* hr_cmplx keeps signed zeros and infinities intact (not re + im*I) */
  hr_complex w = hr_cmplx(INFINITY, 0.0);
  ck_assert(isinf(creal(w)) && cimag(w) == 0.0 && !isnan(cimag(w)));
  /* layout: real part first, then imaginary part */
  double raw[2];
  memcpy(raw, &z, sizeof raw);
  ck_assert(raw[0] == 1.5 && raw[1] == -2.25);
  float rawf[2];
  memcpy(rawf, &f, sizeof rawf);
  ck_assert(rawf[0] == 0.5f && rawf[1] == 4.0f);
}
END_TEST

START_TEST(test_products_match_c) {
  hr_rng_stream s = test_stream(1);
  const hr_complex i1 = hr_cmplx(0.0, 1.0);
  for (int t = 0; t < 1000; ++t) {
    double v[4];
    for (int k = 0; k < 4; ++k)
      v[k] = rng_gaussian(&s);
    hr_complex a = v[0] + v[1] * i1, b = v[2] + v[3] * i1;
    ck_assert_small(reldiff(hr_cmul(a, b), a * b), 1e-15, "cmul");
    ck_assert_small(reldiff(hr_cmul_conj(a, b), a * conj(b)), 1e-15, "cmul_conj");
    ck_assert_small(reldiff(hr_conj_cmul(a, b), conj(a) * b), 1e-15, "conj_cmul");
    ck_assert_small(reldiff(hr_ctimes_i(a), i1 * a), 1e-15, "ctimes_i");
    ck_assert_small(reldiff(hr_conj(a), conj(a)), 0.0, "conj");
    ck_assert_small(hr_cabs2(a) - cabs(a) * cabs(a), 1e-14 * hr_cabs2(a), "cabs2");
    ck_assert_small(hr_cabs(a) - cabs(a), 1e-15 * cabs(a), "cabs");
    hr_complex_flt af = hr_complex_to_flt(a), bf = hr_complex_to_flt(b);
    hr_complex_flt pf = hr_cmul(af, bf);
    hr_complex_flt pc = af * bf;
    ck_assert_small(cabsf(pf - pc) / (1.0f + cabsf(pc)), 1e-6, "cmul flt");
    ck_assert_small(cabsf(hr_conj_cmul(af, bf) - conjf(af) * bf) / (1.0f + cabsf(pc)), 1e-6,
                    "conj_cmul flt");
    ck_assert_small(reldiff(hr_complex_to_dbl(af), a), 1e-7, "flt round trip");
  }
}
END_TEST

START_TEST(test_precision_dispatch) {
  hr_complex z = hr_cmplx(1.0, 2.0);
  hr_complex_flt f = hr_cmplx_flt(1.0f, 2.0f);
  ck_assert_uint_eq(sizeof(hr_creal(f)), sizeof(float));
  ck_assert_uint_eq(sizeof(hr_creal(z)), sizeof(double));
  ck_assert_uint_eq(sizeof(hr_conj(f)), sizeof(hr_complex_flt));
  ck_assert_uint_eq(sizeof(hr_cabs2(f)), sizeof(float));
  ck_assert_uint_eq(sizeof(hr_cmul(f, f)), sizeof(hr_complex_flt));
  ck_assert_uint_eq(sizeof(hr_cmul(f, z)), sizeof(hr_complex)); /* promotes as C does */
  ck_assert_uint_eq(sizeof(hr_ctimes_i(f)), sizeof(hr_complex_flt));
  ck_assert_uint_eq(sizeof(hr_complex), 2 * sizeof(double));
  ck_assert_uint_eq(sizeof(hr_complex_flt), 2 * sizeof(float));
  /* a precise double product must not be rounded to float when mixed */
  hr_complex big = hr_cmplx(1.0 + 1e-12, 0.0);
  ck_assert(hr_creal(hr_cmul(f, big)) != 1.0f * 1.0);
}
END_TEST

START_TEST(test_expi) {
  const double pi = 3.14159265358979323846;
  ck_assert_small(cabs(hr_cexpi(pi / 2) - hr_cmplx(0.0, 1.0)), 1e-16, "exp(i pi/2)");
  ck_assert_small(cabs(hr_cexpi(pi) + 1.0), 1e-15, "exp(i pi)");
  ck_assert_small(cabs(hr_cexpi(0.3) - cexp(hr_cmplx(0.0, 0.3))), 1e-16, "exp(0.3 i)");
}
END_TEST

int main(void) {
  Suite *s = suite_create("hr_complex");
  TCase *tc = tcase_create("helpers");
  tcase_add_test(tc, test_build_and_parts);
  tcase_add_test(tc, test_products_match_c);
  tcase_add_test(tc, test_precision_dispatch);
  tcase_add_test(tc, test_expi);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
