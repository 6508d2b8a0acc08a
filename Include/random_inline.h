/* random_inline.h -- the per-stream mathematics of the random-number layer, usable in host
 * code, CUDA device code and the emulated GPU backend: the Philox-4x32-10 block function
 * (Salmon, Moraes, Dror, Shaw, SC11), the packing of (seed, draw, site) into its key and
 * counter, and uniform and Gaussian numbers drawn from a stream. Included by random.h.
 * Implemented in: LibHR/Random (header only). */
#ifndef RANDOM_INLINE_H
#define RANDOM_INLINE_H

#include <math.h>
#include <stdint.h>
#include "hr_complex.h"
#include "random.h"

/* Philox-4x32 constants: round multipliers and Weyl increments of the key. */
#define HR_PHILOX_M0 UINT32_C(0xD2511F53)
#define HR_PHILOX_M1 UINT32_C(0xCD9E8D57)
#define HR_PHILOX_W0 UINT32_C(0x9E3779B9)
#define HR_PHILOX_W1 UINT32_C(0xBB67AE85)
#define HR_PHILOX_ROUNDS 10

/* Philox-4x32-10 block function: out = Philox(ctr, key) (out may be ctr itself). */
HR_INLINE void rng_philox4x32_10(uint32_t out[4], const uint32_t ctr[4], const uint32_t key[2]) {
  uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3];
  uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < HR_PHILOX_ROUNDS; ++round) {
    if (round > 0) {
      k0 += HR_PHILOX_W0;
      k1 += HR_PHILOX_W1;
    }
    const uint64_t p0 = (uint64_t)HR_PHILOX_M0 * x0;
    const uint64_t p1 = (uint64_t)HR_PHILOX_M1 * x2;
    const uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0;
    const uint32_t y1 = (uint32_t)p1;
    const uint32_t y2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1;
    const uint32_t y3 = (uint32_t)p0;
    x0 = y0; x1 = y1; x2 = y2; x3 = y3;
  }
  out[0] = x0; out[1] = x1; out[2] = x2; out[3] = x3;
}

/* Counter packing (128 bits, collision-free for draw <= HR_RNG_MAX_DRAW and
 * site <= HR_RNG_MAX_SITE or site == HR_RNG_NO_SITE):
 *   ctr[0] = block index inside the stream (0, 1, 2, ...)
 *   ctr[1] = site bits 0..31
 *   ctr[2] = site bits 32..47 | draw bits 0..15 << 16
 *   ctr[3] = draw bits 16..47
 * key[0], key[1] = low and high 32 bits of the seed. HR_RNG_NO_SITE maps to site 2^48-1. */
HR_INLINE void rng_stream_init(hr_rng_stream *s, uint64_t seed, uint64_t draw, uint64_t site) {
  const uint64_t site48 = site & UINT64_C(0xFFFFFFFFFFFF);
  s->key[0] = (uint32_t)seed;
  s->key[1] = (uint32_t)(seed >> 32);
  s->ctr[0] = 0;
  s->ctr[1] = (uint32_t)site48;
  s->ctr[2] = (uint32_t)(site48 >> 32) | ((uint32_t)(draw & 0xFFFF) << 16);
  s->ctr[3] = (uint32_t)(draw >> 16);
  s->out[0] = s->out[1] = s->out[2] = s->out[3] = 0;
  s->pos = 4;
  s->has_spare = 0;
  s->spare = 0.0;
}

/* Next 32 random bits of the stream. */
HR_INLINE uint32_t rng_u32(hr_rng_stream *s) {
  if (s->pos >= 4) {
    rng_philox4x32_10(s->out, s->ctr, s->key);
    s->ctr[0] += 1; /* wraps after 2^32 blocks: documented limit */
    s->pos = 0;
  }
  /* a selection rather than out[pos]: in device code a run-time index would put the stream
   * in local memory */
  const int p = s->pos++;
  return p == 0 ? s->out[0] : (p == 1 ? s->out[1] : (p == 2 ? s->out[2] : s->out[3]));
}

/* Next 64 random bits of the stream (two words, the first one in the high half). */
HR_INLINE uint64_t rng_u64(hr_rng_stream *s) {
  const uint64_t hi = rng_u32(s);
  return (hi << 32) | rng_u32(s);
}

/* Uniform double in the open interval (0,1) from 64 random bits: (2k+1) * 2^-53 with k the
 * top 52 bits, so every value is exact, the smallest is 2^-53 and the largest 1 - 2^-53. */
HR_INLINE double rng_bits_to_uniform(uint64_t bits) {
  const uint64_t k = bits >> 12;
  return ((double)k + 0.5) * 2.220446049250313080847263336181640625e-16; /* 2^-52 */
}

/* Uniform float in the open interval (0,1) from 32 random bits: (2k+1) * 2^-24 with k the
 * top 23 bits; smallest 2^-24, largest 1 - 2^-24. */
HR_INLINE float rng_bits_to_uniform_flt(uint32_t bits) {
  const uint32_t k = bits >> 9;
  return ((float)k + 0.5f) * 1.1920928955078125e-07f; /* 2^-23 */
}

/* Uniform double in the open interval (0,1), 52 random bits (two words of the stream). */
HR_INLINE double rng_uniform(hr_rng_stream *s) { return rng_bits_to_uniform(rng_u64(s)); }

/* Uniform float in the open interval (0,1), 23 random bits (one word of the stream). */
HR_INLINE float rng_uniform_flt(hr_rng_stream *s) { return rng_bits_to_uniform_flt(rng_u32(s)); }

/* Standard normal double (mean 0, variance 1) by the Box-Muller transform of two uniforms;
 * the second value of each pair is kept in the stream and returned by the next call. */
HR_INLINE double rng_gaussian(hr_rng_stream *s) {
  if (s->has_spare) {
    s->has_spare = 0;
    return s->spare;
  }
  const double u1 = rng_uniform(s);
  const double u2 = rng_uniform(s);
  const double r = sqrt(-2.0 * hr_log(u1));
  double sn, cs;
  hr_sincos_2pi(u2, &sn, &cs);
  s->spare = r * sn;
  s->has_spare = 1;
  return r * cs;
}

/* Standard normal float: the double Gaussian rounded to float (one home for the math). */
HR_INLINE float rng_gaussian_flt(hr_rng_stream *s) {
  return (float)rng_gaussian(s);
}

#endif
