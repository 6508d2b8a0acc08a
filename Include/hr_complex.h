/* hr_complex.h -- the complex number types of LibHR, hr_complex (double) and hr_complex_flt
 * (float), and helpers that behave the same in C and in CUDA C++.
 *
 * In C the types are C99 complex numbers. In C++ (nvcc compiling CUDA, or any C++ compiler)
 * they are structs {re, im} with the same size, alignment and memory layout, and with
 * __host__ __device__ arithmetic operators (+ - * / with complex and real operands, unary -,
 * += -= *= /=, == !=), so per-site code written with operators compiles in both languages.
 * Mixed precision follows C: an operation with a double operand gives a double result.
 *
 * Helpers (both languages, both precisions; the precision follows the arguments):
 *   hr_cmplx(re, im), hr_cmplx_flt(re, im)   build a number
 *   hr_creal(z), hr_cimag(z)                 real and imaginary part
 *   hr_conj(z)                               complex conjugate
 *   hr_cabs2(z), hr_cabs(z)                  |z|^2 and |z|
 *   hr_cmul(a, b)                            a b (never calls a library routine)
 *   hr_cmul_conj(a, b)                       a conj(b)
 *   hr_conj_cmul(a, b)                       conj(a) b   (the term of an inner product)
 *   hr_ctimes_i(z)                           i z
 *   hr_cexpi(phi)                            exp(i phi), double
 *   hr_cexpi_2pi(u)                          exp(2 pi i u) from hr_sincos_2pi of hr_math.h:
 *                                            the same bits in host and device code
 *   hr_complex_to_flt(z), hr_complex_to_dbl(z)  change the precision
 * Shared code never uses the I macro of <complex.h>: write hr_cmplx(0, 1) or hr_ctimes_i.
 *
 * HR_UNIT_LOAD(&v, p) / HR_UNIT_STORE(p, &v) move one number (complex or real, either
 * precision) between memory at p and a value v, a plain assignment. With HR_GPU_WIDE_LOADS=1
 * (nvcc flag, e.g. configure NVCCFLAGS=-DHR_GPU_WIDE_LOADS=1) CUDA device code moves a
 * double-precision complex number as one 128-bit access (double2) and a single-precision one
 * as one 64-bit access (float2). The device layout of gpu.h reads and writes fields through
 * them, and its alignment allows it (device memory starts 256-byte aligned, and every piece,
 * site and unit offset is a whole number of units). Off by default: the vector registers
 * make ptxas spill in kernels that now fit (Doc/gpu.md, "Wide loads").
 * Implemented in: LibHR/Core (header only). */
#ifndef HR_COMPLEX_H
#define HR_COMPLEX_H

#include "hr_inline.h"
#include "hr_math.h"

#ifndef __cplusplus
/* ------------------------------------------------------------------ C: C99 complex numbers */
#include <complex.h>
#include <math.h>

typedef double _Complex hr_complex;
typedef float _Complex hr_complex_flt;

_Static_assert(sizeof(hr_complex) == 2 * sizeof(double), "hr_complex must be two doubles");
_Static_assert(sizeof(hr_complex_flt) == 2 * sizeof(float), "hr_complex_flt must be two floats");

/* The number re + i im in double precision. */
HR_INLINE hr_complex hr_cmplx(double re, double im) {
#ifdef CMPLX
  return CMPLX(re, im);
#else
  return __builtin_complex(re, im);
#endif
}
/* The number re + i im in single precision. */
HR_INLINE hr_complex_flt hr_cmplx_flt(float re, float im) {
#ifdef CMPLXF
  return CMPLXF(re, im);
#else
  return __builtin_complex(re, im);
#endif
}

/* Implementations for each precision; use the generic names below. */
HR_INLINE double hr_cabs2_dbl_(hr_complex z) { return creal(z) * creal(z) + cimag(z) * cimag(z); }
HR_INLINE float hr_cabs2_flt_(hr_complex_flt z) {
  return crealf(z) * crealf(z) + cimagf(z) * cimagf(z);
}
HR_INLINE hr_complex hr_cmul_dbl_(hr_complex a, hr_complex b) {
  return hr_cmplx(creal(a) * creal(b) - cimag(a) * cimag(b),
                  creal(a) * cimag(b) + cimag(a) * creal(b));
}
HR_INLINE hr_complex_flt hr_cmul_flt_(hr_complex_flt a, hr_complex_flt b) {
  return hr_cmplx_flt(crealf(a) * crealf(b) - cimagf(a) * cimagf(b),
                      crealf(a) * cimagf(b) + cimagf(a) * crealf(b));
}
HR_INLINE hr_complex hr_cmul_conj_dbl_(hr_complex a, hr_complex b) {
  return hr_cmplx(creal(a) * creal(b) + cimag(a) * cimag(b),
                  cimag(a) * creal(b) - creal(a) * cimag(b));
}
HR_INLINE hr_complex_flt hr_cmul_conj_flt_(hr_complex_flt a, hr_complex_flt b) {
  return hr_cmplx_flt(crealf(a) * crealf(b) + cimagf(a) * cimagf(b),
                      cimagf(a) * crealf(b) - crealf(a) * cimagf(b));
}
HR_INLINE hr_complex hr_conj_cmul_dbl_(hr_complex a, hr_complex b) {
  return hr_cmplx(creal(a) * creal(b) + cimag(a) * cimag(b),
                  creal(a) * cimag(b) - cimag(a) * creal(b));
}
HR_INLINE hr_complex_flt hr_conj_cmul_flt_(hr_complex_flt a, hr_complex_flt b) {
  return hr_cmplx_flt(crealf(a) * crealf(b) + cimagf(a) * cimagf(b),
                      crealf(a) * cimagf(b) - cimagf(a) * crealf(b));
}
HR_INLINE hr_complex hr_ctimes_i_dbl_(hr_complex z) { return hr_cmplx(-cimag(z), creal(z)); }
HR_INLINE hr_complex_flt hr_ctimes_i_flt_(hr_complex_flt z) {
  return hr_cmplx_flt(-cimagf(z), crealf(z));
}

/* Generic helpers: the precision is that of the argument(s), as C's arithmetic would give. */
#define hr_creal(z) _Generic((z), hr_complex_flt : crealf, float : crealf, default : creal)(z)
#define hr_cimag(z) _Generic((z), hr_complex_flt : cimagf, float : cimagf, default : cimag)(z)
#define hr_conj(z) _Generic((z), hr_complex_flt : conjf, float : conjf, default : conj)(z)
#define hr_cabs2(z) _Generic((z), hr_complex_flt : hr_cabs2_flt_, default : hr_cabs2_dbl_)(z)
#define hr_cabs(z) _Generic((z), hr_complex_flt : cabsf, default : cabs)(z)
#define hr_cmul(a, b)                                                                              \
  _Generic((a) + (b), hr_complex_flt : hr_cmul_flt_, default : hr_cmul_dbl_)(a, b)
#define hr_cmul_conj(a, b)                                                                         \
  _Generic((a) + (b), hr_complex_flt : hr_cmul_conj_flt_, default : hr_cmul_conj_dbl_)(a, b)
#define hr_conj_cmul(a, b)                                                                         \
  _Generic((a) + (b), hr_complex_flt : hr_conj_cmul_flt_, default : hr_conj_cmul_dbl_)(a, b)
#define hr_ctimes_i(z)                                                                             \
  _Generic((z), hr_complex_flt : hr_ctimes_i_flt_, default : hr_ctimes_i_dbl_)(z)

/* exp(i phi). */
HR_INLINE hr_complex hr_cexpi(double phi) { return hr_cmplx(cos(phi), sin(phi)); }
/* Round a double complex number to single precision. */
HR_INLINE hr_complex_flt hr_complex_to_flt(hr_complex z) {
  return hr_cmplx_flt((float)creal(z), (float)cimag(z));
}
/* Widen a single-precision complex number to double precision. */
HR_INLINE hr_complex hr_complex_to_dbl(hr_complex_flt z) {
  return hr_cmplx((double)crealf(z), (double)cimagf(z));
}

#else
/* ------------------------------------------------ C++ / CUDA: structs with the same layout */
#include <cmath>

struct hr_complex_flt;

/* Double-precision complex number, layout-compatible with C's double _Complex. */
struct hr_complex {
  double re, im;
  hr_complex() = default;
  HR_HOST_DEVICE constexpr hr_complex(double r, double i = 0.0) : re(r), im(i) {}
  HR_HOST_DEVICE inline hr_complex(const hr_complex_flt &z);
};

/* Single-precision complex number, layout-compatible with C's float _Complex. */
struct hr_complex_flt {
  float re, im;
  hr_complex_flt() = default;
  HR_HOST_DEVICE constexpr hr_complex_flt(float r, float i = 0.0f) : re(r), im(i) {}
  /* Rounding from double precision is implicit, as in C. */
  HR_HOST_DEVICE constexpr hr_complex_flt(const hr_complex &z) : re((float)z.re), im((float)z.im) {}
};

HR_HOST_DEVICE inline hr_complex::hr_complex(const hr_complex_flt &z)
    : re((double)z.re), im((double)z.im) {}

static_assert(sizeof(hr_complex) == 2 * sizeof(double), "hr_complex must be two doubles");
static_assert(sizeof(hr_complex_flt) == 2 * sizeof(float), "hr_complex_flt must be two floats");
static_assert(alignof(hr_complex) == alignof(double), "hr_complex alignment as in C");
static_assert(alignof(hr_complex_flt) == alignof(float), "hr_complex_flt alignment as in C");

/* Arithmetic of complex type C with real type R (and mixed forms that promote like C). */
#define HR_CPLX_OPS_(C, R)                                                                         \
  HR_HOST_DEVICE inline C operator+(C a, C b) { return C(a.re + b.re, a.im + b.im); }              \
  HR_HOST_DEVICE inline C operator-(C a, C b) { return C(a.re - b.re, a.im - b.im); }              \
  HR_HOST_DEVICE inline C operator*(C a, C b) {                                                    \
    return C(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);                                \
  }                                                                                                \
  HR_HOST_DEVICE inline C operator/(C a, C b) {                                                    \
    R d = b.re * b.re + b.im * b.im;                                                               \
    return C((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);                    \
  }                                                                                                \
  HR_HOST_DEVICE inline C operator+(C a, R b) { return C(a.re + b, a.im); }                        \
  HR_HOST_DEVICE inline C operator+(R a, C b) { return C(a + b.re, b.im); }                        \
  HR_HOST_DEVICE inline C operator-(C a, R b) { return C(a.re - b, a.im); }                        \
  HR_HOST_DEVICE inline C operator-(R a, C b) { return C(a - b.re, -b.im); }                       \
  HR_HOST_DEVICE inline C operator*(C a, R b) { return C(a.re * b, a.im * b); }                    \
  HR_HOST_DEVICE inline C operator*(R a, C b) { return C(a * b.re, a * b.im); }                    \
  HR_HOST_DEVICE inline C operator/(C a, R b) { return C(a.re / b, a.im / b); }                    \
  HR_HOST_DEVICE inline C operator/(R a, C b) { return C(a, (R)0) / b; }                           \
  HR_HOST_DEVICE inline C operator-(C a) { return C(-a.re, -a.im); }                               \
  HR_HOST_DEVICE inline C operator+(C a) { return a; }                                             \
  HR_HOST_DEVICE inline C &operator+=(C &a, C b) { return a = a + b; }                             \
  HR_HOST_DEVICE inline C &operator-=(C &a, C b) { return a = a - b; }                             \
  HR_HOST_DEVICE inline C &operator*=(C &a, C b) { return a = a * b; }                             \
  HR_HOST_DEVICE inline C &operator/=(C &a, C b) { return a = a / b; }                             \
  HR_HOST_DEVICE inline C &operator+=(C &a, R b) { return a = a + b; }                             \
  HR_HOST_DEVICE inline C &operator-=(C &a, R b) { return a = a - b; }                             \
  HR_HOST_DEVICE inline C &operator*=(C &a, R b) { return a = a * b; }                             \
  HR_HOST_DEVICE inline C &operator/=(C &a, R b) { return a = a / b; }                             \
  HR_HOST_DEVICE inline bool operator==(C a, C b) { return a.re == b.re && a.im == b.im; }         \
  HR_HOST_DEVICE inline bool operator!=(C a, C b) { return !(a == b); }                            \
  HR_HOST_DEVICE inline R hr_creal(C z) { return z.re; }                                           \
  HR_HOST_DEVICE inline R hr_cimag(C z) { return z.im; }                                           \
  HR_HOST_DEVICE inline C hr_conj(C z) { return C(z.re, -z.im); }                                  \
  HR_HOST_DEVICE inline R hr_cabs2(C z) { return z.re * z.re + z.im * z.im; }                      \
  HR_HOST_DEVICE inline C hr_ctimes_i(C z) { return C(-z.im, z.re); }

HR_CPLX_OPS_(hr_complex, double)
HR_CPLX_OPS_(hr_complex_flt, float)
#undef HR_CPLX_OPS_

/* Mixed precision: the result is double, as in C. */
#define HR_CPLX_MIXED_(OP)                                                                         \
  HR_HOST_DEVICE inline hr_complex operator OP(hr_complex a, hr_complex_flt b) {                   \
    return a OP hr_complex(b);                                                                     \
  }                                                                                                \
  HR_HOST_DEVICE inline hr_complex operator OP(hr_complex_flt a, hr_complex b) {                   \
    return hr_complex(a) OP b;                                                                     \
  }                                                                                                \
  HR_HOST_DEVICE inline hr_complex operator OP(hr_complex_flt a, double b) {                       \
    return hr_complex(a) OP b;                                                                     \
  }                                                                                                \
  HR_HOST_DEVICE inline hr_complex operator OP(double a, hr_complex_flt b) {                       \
    return a OP hr_complex(b);                                                                     \
  }                                                                                                \
  HR_HOST_DEVICE inline hr_complex_flt operator OP(hr_complex_flt a, int b) {                      \
    return a OP(float) b;                                                                          \
  }                                                                                                \
  HR_HOST_DEVICE inline hr_complex_flt operator OP(int a, hr_complex_flt b) {                      \
    return (float)a OP b;                                                                          \
  }
HR_CPLX_MIXED_(+)
HR_CPLX_MIXED_(-)
HR_CPLX_MIXED_(*)
HR_CPLX_MIXED_(/)
#undef HR_CPLX_MIXED_

HR_HOST_DEVICE inline double hr_cabs(hr_complex z) { return sqrt(hr_cabs2(z)); }
HR_HOST_DEVICE inline float hr_cabs(hr_complex_flt z) { return sqrtf(hr_cabs2(z)); }

/* The number re + i im in double precision. */
HR_HOST_DEVICE inline hr_complex hr_cmplx(double re, double im) { return hr_complex(re, im); }
/* The number re + i im in single precision. */
HR_HOST_DEVICE inline hr_complex_flt hr_cmplx_flt(float re, float im) {
  return hr_complex_flt(re, im);
}
/* Real arguments of the generic helpers, as in C. */
HR_HOST_DEVICE inline double hr_creal(double x) { return x; }
HR_HOST_DEVICE inline double hr_cimag(double) { return 0.0; }
HR_HOST_DEVICE inline double hr_conj(double x) { return x; }
/* a b, a conj(b), conj(a) b with C's promotion rules. */
template <class A, class B> HR_HOST_DEVICE inline auto hr_cmul(A a, B b) -> decltype(a * b) {
  return a * b;
}
template <class A, class B>
HR_HOST_DEVICE inline auto hr_cmul_conj(A a, B b) -> decltype(a * hr_conj(b)) {
  return a * hr_conj(b);
}
template <class A, class B>
HR_HOST_DEVICE inline auto hr_conj_cmul(A a, B b) -> decltype(hr_conj(a) * b) {
  return hr_conj(a) * b;
}
/* exp(i phi). */
HR_HOST_DEVICE inline hr_complex hr_cexpi(double phi) { return hr_complex(cos(phi), sin(phi)); }
/* Round a double complex number to single precision. */
HR_HOST_DEVICE inline hr_complex_flt hr_complex_to_flt(hr_complex z) { return hr_complex_flt(z); }
/* Widen a single-precision complex number to double precision. */
HR_HOST_DEVICE inline hr_complex hr_complex_to_dbl(hr_complex_flt z) { return hr_complex(z); }


/* hr_unit_load_wide / hr_unit_store_wide (CUDA device code): one unit moved by one access as
 * wide as the unit: a complex number of type C as the vector type V (make_V builds one), a
 * real as itself. Always there for code that wants them (the field algebra, la_sites.h);
 * HR_UNIT_LOAD / HR_UNIT_STORE (above) use them when wide loads are asked for. */
#if defined(__CUDA_ARCH__)
#define HR_UNIT_VECTOR_(C, V)                                                                      \
  __device__ inline void hr_unit_load_wide(C *v, const C *p) {                                     \
    const V w = *reinterpret_cast<const V *>(p);                                                   \
    v->re = w.x;                                                                                   \
    v->im = w.y;                                                                                   \
  }                                                                                                \
  __device__ inline void hr_unit_store_wide(C *p, const C *v) {                                    \
    *reinterpret_cast<V *>(p) = make_##V(v->re, v->im);                                            \
  }
HR_UNIT_VECTOR_(hr_complex, double2)
HR_UNIT_VECTOR_(hr_complex_flt, float2)
#undef HR_UNIT_VECTOR_
template <class R> __device__ inline void hr_unit_load_wide(R *v, const R *p) { *v = *p; }
template <class R> __device__ inline void hr_unit_store_wide(R *p, const R *v) { *p = *v; }
#ifndef HR_GPU_WIDE_LOADS
#define HR_GPU_WIDE_LOADS 0
#endif
#if HR_GPU_WIDE_LOADS
#define HR_UNIT_LOAD(v, p) hr_unit_load_wide(v, p)
#define HR_UNIT_STORE(p, v) hr_unit_store_wide(p, v)
#endif
#endif

#endif /* __cplusplus */

/* exp(2 pi i u) from hr_sincos_2pi. */
HR_INLINE hr_complex hr_cexpi_2pi(double u) {
  double s, c;
  hr_sincos_2pi(u, &s, &c);
  return hr_cmplx(c, s);
}

#ifndef HR_UNIT_LOAD /* C, host code, or device code without wide loads */
#define HR_UNIT_LOAD(v, p) (*(v) = *(p))
#define HR_UNIT_STORE(p, v) (*(p) = *(v))
#endif

#endif
