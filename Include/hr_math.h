/* hr_math.h -- elementary functions written with plain arithmetic (+ - * /, sqrt, floor, ldexp,
 * comparisons and the bits of a double: all exact or exactly rounded on every backend), so
 * that host code, the emulated GPU backend and CUDA device code give the same bits (with
 * LibHR's contraction policy: no fused multiply-adds, Doc/gpu.md "nvcc flags"). The C
 * library's log, exp and atan2 and CUDA's differ in the last bit now and then; per-site code
 * that called them (Gaussian random numbers, the heatbath, the SU(N) projection, the clover
 * determinant) made a GPU run drift away from the CPU run of the same seed, and a Monte Carlo
 * chain amplifies a last-bit difference into a different configuration within a few sweeps.
 *
 *   hr_log(x)                 natural logarithm, x > 0 (within 1 ulp; 0 at x = 1)
 *   hr_exp(x)                 exponential (within 1.5 ulp; exp(0) = 1)
 *   hr_atan2(y, x)            the angle of (x, y) in [-pi, pi] (within 2 ulp)
 *   hr_sincos_2pi(u, &s, &c)  sin and cos of 2 pi u (within 2 ulp; exact at quarter turns)
 * The accuracy is measured against long-double references by TestProgram/Random/test_random_kat.
 * Implemented in: LibHR/Core (header only). */
#ifndef HR_MATH_H
#define HR_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "hr_inline.h"

/* pa = ca[0] + w ca[1] + .. + w^(n-1) ca[n-1], and pb likewise from cb, by Horner's rule in
 * one loop (n a compile-time constant: unrolled in device code). */
#define HR_HORNER2_(pa, pb, ca, cb, n, w)                                                      \
  do {                                                                                         \
    pa = (ca)[(n) - 1];                                                                        \
    pb = (cb)[(n) - 1];                                                                        \
    HR_DEVICE_UNROLL                                                                           \
    for (int hr_j_ = (n) - 2; hr_j_ >= 0; --hr_j_) {                                           \
      pa = (ca)[hr_j_] + (w) * pa;                                                             \
      pb = (cb)[hr_j_] + (w) * pb;                                                             \
    }                                                                                          \
  } while (0)

/* ln 2 split: HR_LN2_HI has 21 trailing zero bits (k HR_LN2_HI is exact for |k| < 2^21). */
#define HR_LN2_HI 6.93147180369123816490e-01
#define HR_LN2_LO 1.90821492927058770002e-10

/* Natural logarithm of x > 0: x = 2^e m with m in [sqrt(1/2), sqrt(2)], f = m - 1 (exact),
 * s = f / (2 + f), log m = 2 atanh s = f - s f + s R(s^2), R the series of 2 atanh(s)/s - 2
 * to s^20 (remainder below 1e-17 relative, |s| <= 0.172; its odd and even powers of s^2
 * summed apart), and e ln 2 added in two parts.
 * Returns -inf at 0, NaN for x < 0 or NaN, +inf at +inf. */
HR_INLINE double hr_log(double x) {
  if (x == 0.0) return -INFINITY;
  if (!(x > 0.0)) return NAN; /* negative or NaN */
  if (x == INFINITY) return x;
  /* x = m 2^e with m in [1, 2), read off the bits (frexp is a library call on the host) */
  int e = 0;
  if (x < 2.2250738585072014e-308) { /* subnormal: made normal, exactly */
    x *= 18014398509481984.0; /* 2^54 */
    e = -54;
  }
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  e += (int)(bits >> 52) - 1023;
  bits = (bits & UINT64_C(0x000FFFFFFFFFFFFF)) | UINT64_C(0x3FF0000000000000);
  double m;
  memcpy(&m, &bits, sizeof m);
  if (m > 1.41421356237309504880) { /* m in [sqrt(1/2), sqrt(2)] */
    m *= 0.5;
    e += 1;
  }
  const double f = m - 1.0; /* exact: m in [1/2, 2] */
  const double s = f / (2.0 + f), z = s * s;
  /* 2 / (2j + 1): j = 1, 3, .., 9 (ko) and j = 2, 4, .., 10 (ke), in powers of w = z^2 (two
   * short chains of dependent operations rather than one long one) */
  const double ko[5] = {6.666666666666666296592e-01, 2.857142857142856984254e-01,
                        1.818181818181818232283e-01, 1.333333333333333314830e-01,
                        1.052631578947368362620e-01};
  const double ke[5] = {4.000000000000000222045e-01, 2.222222222222222098864e-01,
                        1.538461538461538546940e-01, 1.176470588235294101320e-01,
                        9.523809523809523280846e-02};
  const double w = z * z;
  double po, pe;
  HR_HORNER2_(po, pe, ko, ke, 5, w);
  const double r = z * (po + z * pe); /* R = sum_j 2 z^j / (2j + 1), j = 1 .. 10 */
  const double hfsq = 0.5 * f * f, dk = (double)e;
  /* log m = f - (hfsq - s (hfsq + R)) (s f = hfsq (1 - s) exactly in real arithmetic) */
  return dk * HR_LN2_HI - ((hfsq - (s * (hfsq + r) + dk * HR_LN2_LO)) - f);
}

/* Exponential: x = k ln 2 + r with k the nearest whole number to x / ln 2 (|r| <= 0.35),
 * exp(r) by its Taylor polynomial to degree 15 (remainder below 1e-18; even and odd powers
 * summed apart), times 2^k (ldexp, exact unless the result is subnormal). Overflows to +inf
 * above 709.79, 0 below -745.2. */
HR_INLINE double hr_exp(double x) {
  if (x != x) return x;
  if (x > 709.79) return INFINITY;
  if (x < -745.2) return 0.0;
  const double k = floor(x * 1.44269504088896340736 + 0.5);
  const double r = (x - k * HR_LN2_HI) - k * HR_LN2_LO;
  /* 1 / j!: j = 2, 4, .., 14 (ke) and j = 3, 5, .., 15 (ko), in powers of r2 = r^2 (two short
   * chains of dependent operations) */
  const double ke[7] = {5.000000000000000000000e-01, 4.166666666666666435370e-02,
                        1.388888888888888941894e-03, 2.480158730158730156579e-05,
                        2.755731922398588827579e-07, 2.087675698786810018656e-09,
                        1.147074559772972450730e-11};
  const double ko[7] = {1.666666666666666574148e-01, 8.333333333333333217685e-03,
                        1.984126984126984125263e-04, 2.755731922398589251095e-06,
                        2.505210838544172022387e-08, 1.605904383682161334086e-10,
                        7.647163731819816405514e-13};
  const double r2 = r * r;
  double pe, po;
  HR_HORNER2_(pe, po, ke, ko, 7, r2);
  /* exp(r) = 1 + r + r^2 (ke(r2) + r ko(r2)) */
  const double p = 1.0 + (r + r2 * (pe + r * po));
  return ldexp(p, (int)k);
}

/* atan(t) for 0 <= t <= 1: t = tan(atan c + a) with c = 0 (t <= 3/16), 1/4 (t <= 7/16), 1/2
 * (t <= 11/16) or 1, a = atan(u), u = (t - c) / (1 + c t) (t - c exact), |u| <= 0.19; the
 * Taylor series of atan to u^23 (remainder below 1e-17 relative), its odd and even powers of
 * z = u^2 summed apart (two short chains of dependent operations, not one long one); atan c
 * in two parts. */
HR_INLINE double hr_atan_unit_(double t) {
  const double c = t <= 0.1875 ? 0.0 : t <= 0.4375 ? 0.25 : t <= 0.6875 ? 0.5 : 1.0;
  const double hi = c == 0.0 ? 0.0 : c == 0.25 ? 2.4497866312686414e-01
                  : c == 0.5 ? 4.636476090008061e-01 : 7.853981633974483e-01;
  const double lo = c == 0.0 ? 0.0 : c == 0.25 ? 1.0698755618734451e-17
                  : c == 0.5 ? 2.2698777452961687e-17 : 3.061616997868383e-17;
  const double u = c == 0.0 ? t : (t - c) / (1.0 + c * t), z = u * u, w = z * z;
  /* (-1)^j / (2j + 1): j = 1, 3, .., 11 (ko) and j = 2, 4, .., 10 (ke, its last coefficient
   * 0: the same length, and the same result, w * 0 + ke[4] being ke[4]), in powers of w */
  const double ko[6] = {-3.333333333333333148296e-01, -1.428571428571428492127e-01,
                        -9.090909090909091161414e-02, -6.666666666666666574148e-02,
                        -5.263157894736841813099e-02, -4.347826086956521618454e-02};
  const double ke[6] = {2.000000000000000111022e-01, 1.111111111111111049432e-01,
                        7.692307692307692734701e-02, 5.882352941176470506601e-02,
                        4.761904761904761640423e-02, 0.0};
  double po, pe;
  HR_HORNER2_(po, pe, ko, ke, 6, w);
  /* sum_j (-1)^j z^j / (2j + 1), j >= 1: z (ko(w) + z ke(w)) */
  return hi + ((u * (z * (po + z * pe)) + lo) + u);
}

/* The angle of the point (x, y) in [-pi, pi], as the C library's atan2 (atan2(0, x) = 0 for
 * x >= 0 and pi for x < 0, the sign following y's); pi/2 and pi in two parts. NaN in, NaN
 * out. */
HR_INLINE double hr_atan2(double y, double x) {
  if (x != x || y != y) return x + y;
  const double ax = fabs(x), ay = fabs(y);
  double a;
  if (ax == 0.0 && ay == 0.0) {
    a = 0.0;
  } else if (ay <= ax) {
    a = hr_atan_unit_(ay / ax);
  } else { /* pi/2 - atan(x/y) */
    a = 1.5707963267948966 + (6.123233995736766e-17 - hr_atan_unit_(ax / ay));
  }
  if (signbit(x)) a = 3.141592653589793 + (1.2246467991473532e-16 - a);
  return signbit(y) ? -a : a;
}

/* *s = sin(2 pi u), *c = cos(2 pi u) for |u| < 2^50, within 2 ulp: exact reduction of 4u to
 * r = 4u - q, q the nearest whole number of quarter turns (|r| <= 1/2), then the Taylor
 * polynomials of sin and cos of (pi/2) r (terms to degree 17 and 16, the remainder below
 * 1e-19) and the quadrant q mod 4. (Besides giving the same bits everywhere, no library call:
 * the slow argument reduction of the device's sin and cos takes a stack frame in every kernel
 * that calls them.) */
HR_INLINE void hr_sincos_2pi(double u, double *s, double *c) {
  const double v = 4.0 * u; /* exact */
  const double q = floor(v + 0.5);
  const double r = v - q, z = r * r; /* r exact: q is a whole number within 1/2 of v */
  /* Taylor coefficients of sin(pi r / 2) / r and cos(pi r / 2) in z = r^2, by Horner's rule */
  const double ks[9] = {1.570796326794896619231e+0,  -6.459640975062462536558e-1,
                        7.969262624616704512051e-2,  -4.681754135318688100685e-3,
                        1.604411847873598218727e-4,  -3.598843235212085340459e-6,
                        5.692172921967926811775e-8,  -6.688035109811467232478e-10,
                        6.066935731106195667101e-12};
  const double kc[9] = {1.0,                         -1.233700550136169827354e+0,
                        2.536695079010480136366e-1,  -2.086348076335296087305e-2,
                        9.192602748394265802417e-4,  -2.520204237306060548105e-5,
                        4.710874778818171503670e-7,  -6.386603083791852241090e-9,
                        6.565963114979472362210e-11};
  double sp, cp;
  HR_HORNER2_(sp, cp, ks, kc, 9, z);
  sp *= r;
  switch ((int)((long long)q & 3)) { /* a quarter turn: (sin, cos) -> (cos, -sin) */
    case 0: *s = sp; *c = cp; break;
    case 1: *s = cp; *c = -sp; break;
    case 2: *s = -sp; *c = -cp; break;
    default: *s = -cp; *c = sp; break;
  }
}

#endif
