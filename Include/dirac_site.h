/* dirac_site.h -- per-site kernels of the Wilson Dirac operator, shared by the CPU loops,
 * the emulated GPU launcher and CUDA kernels (all HR_INLINE, acting on site values only):
 * spin projection (1 -/+ gamma_mu) psi to a half spinor (2 colour vectors), the two
 * colour mat-vecs with U or U^+, reconstruction into the 4 spin components, and the whole
 * hopping sum of one site, the clover block product, the diagonal part and the end of a
 * hopping application (dirac_site_clover_mul, dirac_site_diag, dirac_site_finish),
 *   dirac_site_hop(out, up, dn, uup, udn):
 *   out = sum_mu [ (1 - gamma_mu) U_mu(x) psi(x+mu) + (1 + gamma_mu) U_mu(x-mu)^+ psi(x-mu) ]
 * (the Wilson operator is D = (4 + m0) - out/2 + clover). The same functions exist in single
 * precision with the suffix _flt (dirac_site_hop_flt, ...): one template,
 * dirac_site_template.h, instantiated twice here. Gamma matrices: gamma.h.
 *
 * Flop count of dirac_site_hop (the standard count, 1320 for SU(3) fundamental):
 *   per direction and sign: projection 2 NF complex adds (4 NF flop), two mat-vecs
 *   2 (8 NF^2 - 2 NF) flop, accumulation 4 NF complex adds (8 NF flop); the first
 *   accumulation is a copy: total 8 (16 NF^2 + 8 NF) - 8 NF = 128 NF^2 + 56 NF.
 * Implemented in: LibHR/Dirac (header only; internal, not installed: the per-site kernels of
 *  LibHR/Dirac and of the fermion force in Update/). */
#ifndef DIRAC_SITE_H
#define DIRAC_SITE_H

#include "field_kinds.h"
#include "gamma.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "suN.h"
#include "suN_types.h"

/* What a hopping application does with the hopping sum of a site (dirac_site_finish). */
typedef enum { DIRAC_HOP_PLAIN = 0, DIRAC_HOP_PLUS_DIAG = 1, DIRAC_HOP_THEN_INV = 2 } dirac_hop_mode;

/* Standard flop count of the hopping sum of one site for colour dimension nf. */
#define DIRAC_HOP_FLOP_PER_SITE(nf) (128L * (nf) * (nf) + 56L * (nf))
/* Unavoidable bytes per output site of the even/odd hopping term: 8 links read, the input
 * spinors read once (one per output site), one spinor written; real_bytes = 8 or 4. */
#define DIRAC_HOP_BYTES_PER_SITE(nf, real_bytes)                                                \
  ((8L * (nf) * (nf) + 2L * 4L * (nf)) * 2L * (real_bytes))

/* Force inlining of the small helpers so that the direction and sign fold to constants. */
#if defined(__GNUC__) && !defined(__CUDACC__)
#define DIRAC_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define DIRAC_ALWAYS_INLINE HR_INLINE
#endif

/* Hint that `bytes` bytes from p will be read soon, into every cache level (DIRAC_PREFETCH) or
 * into the L2 cache only (DIRAC_PREFETCH_L2: prefetcht2 on x86); CPU loops, nothing elsewhere. */
#if defined(__GNUC__) && !defined(__CUDACC__)
#define DIRAC_PREFETCH_LOCALITY(p, bytes, locality)                                             \
  do {                                                                                         \
    const char *dirac_pf_ = (const char *)(p);                                                 \
    for (unsigned dirac_o_ = 0; dirac_o_ < (unsigned)(bytes); dirac_o_ += 64)                  \
      __builtin_prefetch(dirac_pf_ + dirac_o_, 0, locality);                                   \
  } while (0)
#define DIRAC_PREFETCH(p, bytes) DIRAC_PREFETCH_LOCALITY(p, bytes, 3)
#define DIRAC_PREFETCH_L2(p, bytes) DIRAC_PREFETCH_LOCALITY(p, bytes, 1)
#else
#define DIRAC_PREFETCH_LOCALITY(p, bytes, locality) ((void)(p))
#define DIRAC_PREFETCH(p, bytes) ((void)(p))
#define DIRAC_PREFETCH_L2(p, bytes) ((void)(p))
#endif

/* The vectorised site kernel (GCC >= 12 or clang vector extensions, host C code); define
 * DIRAC_NO_SIMD to use the plain form everywhere. */
#if !defined(DIRAC_NO_SIMD) && !defined(__CUDACC__) && !defined(__cplusplus) &&                 \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12))
#define DIRAC_SIMD 1
#else
#define DIRAC_SIMD 0
#endif

#if DIRAC_SIMD && defined(__GNUC__) && !defined(__clang__) && !defined(__AVX__)
/* Without AVX (--disable-native --with-simd=portable) GCC warns at the end of the including
 * file that the 32-byte vectors of the vectorised form would change a call's ABI, outside the
 * diagnostic pragmas of dirac_site_template.h: its helpers are always inlined, no call passes
 * them, so the warning is off for the file that includes this header. */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/* Full unrolling of a short loop in the vectorised CPU form (GCC at -O2 keeps the NF loops,
 * and their partial sums go through memory). */
#if defined(__clang__)
#define DIRAC_CPU_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define DIRAC_CPU_UNROLL _Pragma("GCC unroll 16")
#else
#define DIRAC_CPU_UNROLL
#endif

/* Explicit fused multiply-adds in the vectorised form where the target has them (x86 with
 * FMA: the CPU Dirac loops, compiled with configure's --with-simd=avx2 or avx512 flags): each
 * is one instruction rounded once, so a result does not depend on where it is inlined.
 * Elsewhere a multiply and an add (no contraction: -ffp-contract=off), which give the plain
 * form's bits (and with DIRAC_NO_FMA: configure's --with-simd=portable). */
#if DIRAC_SIMD && !defined(DIRAC_NO_FMA) && defined(__FMA__) && defined(__AVX__) &&               \
    (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define DIRAC_SIMD_FMA 1
#define DIRAC_V4_FMA_DBL(a, b, c) _mm256_fmadd_pd(a, b, c)
#define DIRAC_V4_FMA_FLT(a, b, c) _mm_fmadd_ps(a, b, c)
#define DIRAC_V4_FNMA_DBL(a, b, c) _mm256_fnmadd_pd(a, b, c)
#define DIRAC_V4_FNMA_FLT(a, b, c) _mm_fnmadd_ps(a, b, c)
/* The direction-pair form (dirac_site_template.h) in single precision, whose 8-real vectors
 * are 256 bits (AVX). Double precision keeps the pair form: its direction-pair form on
 * AVX-512 (512-bit vectors) was measured no faster on 16^4 (Doc/dirac.md). */
#define DIRAC_PAIRED_FLT 1
#define DIRAC_V8_FMA_FLT(a, b, c) _mm256_fmadd_ps(a, b, c)
/* the two reals at p repeated over a vector as one broadcast load (vbroadcastsd) */
#define DIRAC_V8_BCAST2_FLT(p) _mm256_castpd_ps(_mm256_set1_pd(dirac_load_bits64(p)))
/* The 8 bytes at p as a double (any type: memcpy). */
DIRAC_ALWAYS_INLINE double dirac_load_bits64(const void *p) {
  double d;
  __builtin_memcpy(&d, p, sizeof d);
  return d;
}
#else
#define DIRAC_SIMD_FMA 0
#define DIRAC_V4_FMA_DBL(a, b, c) ((a) * (b) + (c))
#define DIRAC_V4_FMA_FLT(a, b, c) ((a) * (b) + (c))
#define DIRAC_V4_FNMA_DBL(a, b, c) ((c) - (a) * (b))
#define DIRAC_V4_FNMA_FLT(a, b, c) ((c) - (a) * (b))
#endif

#ifndef DIRAC_PAIRED_FLT
#define DIRAC_PAIRED_FLT 0
#endif

/* Full unrolling of a short loop in device code (HR_DEVICE_UNROLL: the indices of the spin
 * components must be constants, or the spinor goes to local memory). */
#define DIRAC_UNROLL HR_DEVICE_UNROLL

/* The lower spin component paired with the upper component r (0, 1) by gamma_mu in the
 * projection (1 -/+ gamma_mu) psi (gamma.h, block form). */
DIRAC_ALWAYS_INLINE int dirac_spin_partner(int mu, int r) {
  const int perm[4][2] = HR_GAMMA_PERM_INIT;
  return 2 + perm[mu][r];
}

/* DIRAC_ROW_FENCE(): in device code a block-scope fence between the rows of the clover
 * epilogue, so that ptxas does not hoist the next rows' block entries into the registers of
 * this one (HR_GPU_LOAD_BARRIER of hr_inline.h; nothing on the host). The double M x + s H
 * kernels spilled 172 B on sm_90 without it, 40 B with it; the single-precision ones, held to
 * 96 registers, 8 B without it and none with it. */
#define DIRAC_ROW_FENCE() HR_GPU_LOAD_BARRIER()

/* double precision */
#define DIRAC_TMPL_SFX
#define DIRAC_TMPL_SPINOR suNf_spinor
#define DIRAC_TMPL_VEC suNf_vector
#define DIRAC_TMPL_MAT suNf
#define DIRAC_TMPL_CPLX hr_complex
#define DIRAC_TMPL_REAL double
#define DIRAC_TMPL_MKCPLX hr_cmplx
#define DIRAC_TMPL_CLOVER suNf_clover
#define DIRAC_TMPL_UINT unsigned long long
#define DIRAC_TMPL_HAS_FMA DIRAC_SIMD_FMA
#define DIRAC_TMPL_V4_FMA DIRAC_V4_FMA_DBL
#define DIRAC_TMPL_V4_FNMA DIRAC_V4_FNMA_DBL
#define DIRAC_TMPL_PAIRED 0
#include "dirac_site_template.h"

/* single precision */
#define DIRAC_TMPL_SFX _flt
#define DIRAC_TMPL_SPINOR suNf_spinor_flt
#define DIRAC_TMPL_VEC suNf_vector_flt
#define DIRAC_TMPL_MAT suNf_flt
#define DIRAC_TMPL_CPLX hr_complex_flt
#define DIRAC_TMPL_REAL float
#define DIRAC_TMPL_MKCPLX hr_cmplx_flt
#define DIRAC_TMPL_CLOVER suNf_clover_flt
#define DIRAC_TMPL_UINT unsigned int
#define DIRAC_TMPL_HAS_FMA DIRAC_SIMD_FMA
#define DIRAC_TMPL_V4_FMA DIRAC_V4_FMA_FLT
#define DIRAC_TMPL_V4_FNMA DIRAC_V4_FNMA_FLT
#define DIRAC_TMPL_PAIRED DIRAC_PAIRED_FLT
#define DIRAC_TMPL_V8_FMA DIRAC_V8_FMA_FLT
#define DIRAC_TMPL_V8_BCAST2 DIRAC_V8_BCAST2_FLT
#include "dirac_site_template.h"

/* The CPU site kernel (dirac_cpu_site_halo) as the library's CPU loops compile it, with the
 * vector instructions of configure's --with-simd (LibHR/Dirac/dirac.c); the tests compare it
 * with the generic form. hup / hdn: NULL, or per direction NULL or the projected half spinor
 * of the neighbour (the halo of another process). */
#ifndef __CUDACC__
void dirac_cpu_site_lib(suNf_spinor *out, int mode, int g5, double s, double diag,
                        const suNf_spinor *x, const suNf_clover *cl, const suNf_spinor *const up[4],
                        const suNf_spinor *const dn[4], const dirac_half_spinor *const *hup,
                        const dirac_half_spinor *const *hdn, const suNf *const uup[4],
                        const suNf *const udn[4]);
/* Single precision of dirac_cpu_site_lib. */
void dirac_cpu_site_lib_flt(suNf_spinor_flt *out, int mode, int g5, float s, float diag,
                            const suNf_spinor_flt *x, const suNf_clover_flt *cl,
                            const suNf_spinor_flt *const up[4], const suNf_spinor_flt *const dn[4],
                            const dirac_half_spinor_flt *const *hup,
                            const dirac_half_spinor_flt *const *hdn, const suNf_flt *const uup[4],
                            const suNf_flt *const udn[4]);
#endif

#endif
