/* heatbath_sites.h -- the per-link mathematics of the pure-gauge update (internal to Update/),
 * written once and shared by the CPU loops of heatbath.c and the kernels of heatbath_gpu.c
 * (host compiler in CPU and emulated builds, nvcc in CUDA builds): the SU(2)-subgroup
 * heatbath (Kennedy-Pendleton / rejection) and over-relaxation steps of Cabibbo-Marinari, the
 * staple sum read through a gauge_view (Include/gauge_view.h: host or device copy), the
 * update of one link and the cold / hot start value of one link. The random stream of link mu
 * of global site s is rng_stream_init(seed, draw, 4 s + mu) on every path. Description of the
 * algorithm: heatbath.c and Doc/pure_gauge.md. */
#ifndef HEATBATH_SITES_H
#define HEATBATH_SITES_H

#include <math.h>
#include <stdint.h>

#include "gauge_view.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "random.h"
#include "suN.h"
#include "suN_random.h"

/* A 2x2 complex matrix m[row][col]. */
typedef struct {
  hr_complex m[2][2];
} hb_su2_block;

/* What one pass does: heatbath at beta with the streams (seed, draw, 4 s + mu), or
 * over-relaxation (no random numbers). */
typedef struct {
  double beta;
  uint64_t seed, draw;
  int overrelax;
} hb_pass_params;

/* The SU(2) matrix a0 + i a.sigma. */
HR_INLINE hb_su2_block hb_su2_from_quaternion(double a0, double a1, double a2, double a3) {
  hb_su2_block v;
  v.m[0][0] = hr_cmplx(a0, a3);
  v.m[0][1] = hr_cmplx(a2, a1);
  v.m[1][0] = hr_cmplx(-a2, a1);
  v.m[1][1] = hr_cmplx(a0, -a3);
  return v;
}

/* a b^+ for 2x2 blocks. */
HR_INLINE hb_su2_block hb_su2_mul_dag(const hb_su2_block *a, const hb_su2_block *b) {
  hb_su2_block r;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      r.m[i][j] = hr_cmul_conj(a->m[i][0], b->m[j][0]) + hr_cmul_conj(a->m[i][1], b->m[j][1]);
  return r;
}

/* Rows i and j of the NG x NG matrix whose entry k is m[k stride] become V applied to them:
 * (M_i, M_j) <- V (M_i, M_j) (a matrix held by the caller: stride 1; a link in memory: the
 * stride of gauge_view_link_in). */
HR_INLINE void hb_su2_apply_rows(hr_complex *m, int stride, const hb_su2_block *v, int i,
                                  int j) {
  HR_UNROLL
  for (int c = 0; c < NG; ++c) {
    hr_complex *const pi = &m[(size_t)(i * NG + c) * stride];
    hr_complex *const pj = &m[(size_t)(j * NG + c) * stride];
    hr_complex mi, mj;
    HR_UNIT_LOAD(&mi, pi);
    HR_UNIT_LOAD(&mj, pj);
    const hr_complex ni = hr_cmul(v->m[0][0], mi) + hr_cmul(v->m[0][1], mj);
    const hr_complex nj = hr_cmul(v->m[1][0], mi) + hr_cmul(v->m[1][1], mj);
    HR_UNIT_STORE(pi, &ni);
    HR_UNIT_STORE(pj, &nj);
  }
}

/* X_0 with density proportional to sqrt(1 - X_0^2) exp(alpha X_0) on [-1, 1]. */
HR_INLINE double hb_su2_heatbath_x0(double alpha, hr_rng_stream *s) {
  if (alpha > 2.0) { /* Kennedy-Pendleton */
    for (;;) {
      const double r1 = rng_uniform(s), r2 = rng_uniform(s), r3 = rng_uniform(s);
      const double r4 = rng_uniform(s);
      double sn, c;
      hr_sincos_2pi(r2, &sn, &c); /* c = cos(2 pi r2) */
      const double delta = -(hr_log(r1) + c * c * hr_log(r3)) / alpha;
      if (r4 * r4 <= 1.0 - 0.5 * delta) return 1.0 - delta;
    }
  }
  for (;;) { /* uniform proposal, accept with sqrt(1 - x^2) exp(alpha (x - 1)) <= 1 */
    const double x0 = 2.0 * rng_uniform(s) - 1.0;
    const double r = rng_uniform(s);
    if (r <= sqrt(1.0 - x0 * x0) * hr_exp(alpha * (x0 - 1.0))) return x0;
  }
}

/* Random SU(2) element X with weight exp(alpha X_0) times the Haar measure. */
HR_INLINE hb_su2_block hb_su2_heatbath_element(double alpha, hr_rng_stream *s) {
  const double x0 = hb_su2_heatbath_x0(alpha, s);
  const double r = sqrt(fmax(0.0, 1.0 - x0 * x0));
  const double cos_theta = 2.0 * rng_uniform(s) - 1.0;
  const double sin_theta = sqrt(fmax(0.0, 1.0 - cos_theta * cos_theta));
  double sin_phi, cos_phi; /* phi uniform in [0, 2 pi) */
  hr_sincos_2pi(rng_uniform(s), &sin_phi, &cos_phi);
  return hb_su2_from_quaternion(x0, r * sin_theta * cos_phi, r * sin_theta * sin_phi,
                                r * cos_theta);
}

/* Update the link U (entry k at u[k us]: in memory, so that it is not held beside W in GPU
 * registers), given W = U A with A its staple sum: all subgroups (i < j) in order; heatbath
 * with the stream s, or over-relaxation when s is NULL. W is overwritten; U is not
 * reunitarised here. */
HR_INLINE void hb_cabibbo_marinari_link(hr_complex *u, int us, suNg *W, double beta,
                                        hr_rng_stream *s) {
  /* unrolled in device code: with run-time subgroup indices U and W would go to local memory */
  HR_DEVICE_UNROLL
  for (int i = 0; i < NG; ++i) {
    HR_DEVICE_UNROLL
    for (int j = i + 1; j < NG; ++j) {
      const hr_complex wii = W->c[i * NG + i], wjj = W->c[j * NG + j];
      const hr_complex wij = W->c[i * NG + j], wji = W->c[j * NG + i];
      const double q0 = 0.5 * (hr_creal(wii) + hr_creal(wjj));
      const double q3 = 0.5 * (hr_cimag(wii) - hr_cimag(wjj));
      const double q2 = 0.5 * (hr_creal(wij) - hr_creal(wji));
      const double q1 = 0.5 * (hr_cimag(wij) + hr_cimag(wji));
      const double k = sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
      hb_su2_block v;
      if (s != NULL) {
        const hb_su2_block x = hb_su2_heatbath_element(2.0 * beta * k / NG, s);
        if (k > 0.0) {
          const hb_su2_block qhat = hb_su2_from_quaternion(q0 / k, q1 / k, q2 / k, q3 / k);
          v = hb_su2_mul_dag(&x, &qhat); /* V = X qhat^+ */
        } else {
          v = x;
        }
      } else {
        if (!(k > 0.0)) continue;
        /* V = (qhat^+)^2 = quaternion conj(qhat)^2 */
        const double a0 = q0 / k, a1 = -q1 / k, a2 = -q2 / k, a3 = -q3 / k;
        v = hb_su2_from_quaternion(a0 * a0 - a1 * a1 - a2 * a2 - a3 * a3, 2 * a0 * a1,
                                   2 * a0 * a2, 2 * a0 * a3);
      }
      hb_su2_apply_rows(u, us, &v, i, j);
      hb_su2_apply_rows(&W->c[0], 1, &v, i, j);
    }
  }
}

/* Sum of the staples of U_mu(x): the action of the link is -(beta/NG) Re tr(U_mu(x) A). Each
 * staple V_{mu nu +-}(x) is added a row at a time (gauge_view_staple_add, as in the gauge
 * force: one row live, GPU registers), with the bits of the matrix products. */
HR_INLINE void hb_staple_sum(suNg *A, const gauge_view *v, int ix, int mu) {
  suNg_zero(A);
  /* unrolled in device code (all eight staples in line): rolled, ptxas spilled 8 B of the
   * pass kernel on sm_90 at 128 registers (Doc/gpu.md); the host loop is unchanged */
  HR_DEVICE_UNROLL
  for (int nu = 0; nu < 4; ++nu) {
    if (nu == mu) continue;
    HR_UNROLL
    for (int side = 0; side < 2; ++side)
      gauge_view_staple_add(A, 1.0, v, ix, mu, nu, side ? -1 : 1);
  }
}

/* One pass's update of link mu of the master site ix (global lexicographic site index
 * glb_site) in the copy the view reads (mem: its writable pointer, gauge_view_store). No
 * other link of the pass is in its staple, so the links of a pass may be updated in any
 * order or in parallel. */
HR_INLINE void hb_update_link(const gauge_view *v, suNg *mem, int ix, int mu, uint64_t glb_site,
                              const hb_pass_params *p) {
  suNg A, U, W;
  hb_staple_sum(&A, v, ix, mu);
  /* W = U A, a row of U at a time (read where used: U, A and W are not live together; the
   * bits of suNg_mul); then U is updated in place in mem and reunitarised */
  const gauge_link_ref u = gauge_view_link_ref(v, ix, mu);
  HR_UNROLL
  for (int i = 0; i < NG; ++i) {
    gauge_row(&W.c[i * NG], u, i);
    gauge_row_mul(&W.c[i * NG], gauge_link_ref_of(&A));
  }
  int us;
  hr_complex *const um = gauge_view_link_in(mem, v, ix, mu, &us);
  if (p->overrelax) {
    hb_cabibbo_marinari_link(um, us, &W, p->beta, NULL);
  } else {
    hr_rng_stream s;
    rng_stream_init(&s, p->seed, p->draw, 4 * glb_site + (uint64_t)mu);
    hb_cabibbo_marinari_link(um, us, &W, p->beta, &s);
  }
  gauge_view_link(&U, v, ix, mu);
  suNg_reunitarize(&U);
  gauge_view_store(mem, v, ix, mu, &U);
}

/* Start value of the four links of the master site ix (global site index glb_site): the unit
 * matrix (cold) or Haar-random from the streams (seed, draw, 4 glb_site + mu) (hot). */
HR_INLINE void hb_start_site(const gauge_view *v, suNg *mem, int ix, uint64_t glb_site, int hot,
                             uint64_t seed, uint64_t draw) {
  for (int mu = 0; mu < 4; ++mu) {
    suNg U;
    if (hot) {
      hr_rng_stream s;
      rng_stream_init(&s, seed, draw, 4 * glb_site + (uint64_t)mu);
      suNg_random(&U, &s);
    } else {
      suNg_unit(&U);
    }
    gauge_view_store(mem, v, ix, mu, &U);
  }
}

#endif
