/* heatbath.c -- Cabibbo-Marinari heatbath and over-relaxation for the Wilson gauge action of
 * SU(NG), and cold / hot starts (heatbath.h). The SU(2) subgroup step: for a link U with
 * staple sum A (the action of U is -(beta/NG) Re tr(U A)) and the subgroup acting on rows
 * (i, j), the 2x2 block of W = U A projected on the quaternions is k qhat with qhat in SU(2);
 * the new link is V U with V in the subgroup, drawn with weight exp((beta/NG) Re tr(V W)):
 * X = V qhat has weight exp(alpha X_0), alpha = 2 beta k / NG (Kennedy-Pendleton for
 * alpha > 2, direct rejection from the Haar measure below), or, for over-relaxation, the
 * reflection V = (qhat^+)^2 that leaves Re tr(V W) unchanged. */
#include "heatbath.h"

#include <math.h>
#include <stdint.h>

#include "communications.h"
#include "geometry.h"
#include "random.h"
#include "suN.h"
#include "suN_random.h"

#define HR_TWO_PI 6.283185307179586476925286766559

#define LINK(u, ix, mu) (_4FIELD_AT(u, ix, mu))

/* ------------------------------------------------------------------ per-link mathematics */

/* A 2x2 complex matrix m[row][col]. */
typedef struct {
  hr_complex m[2][2];
} su2_block;

/* The SU(2) matrix a0 + i a.sigma. */
static inline su2_block su2_from_quaternion(double a0, double a1, double a2, double a3) {
  su2_block v;
  v.m[0][0] = hr_cmplx(a0, a3);
  v.m[0][1] = hr_cmplx(a2, a1);
  v.m[1][0] = hr_cmplx(-a2, a1);
  v.m[1][1] = hr_cmplx(a0, -a3);
  return v;
}

/* a b^+ for 2x2 blocks. */
static inline su2_block su2_mul_dag(const su2_block *a, const su2_block *b) {
  su2_block r;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      r.m[i][j] = hr_cmul_conj(a->m[i][0], b->m[j][0]) + hr_cmul_conj(a->m[i][1], b->m[j][1]);
  return r;
}

/* Rows i and j of M become V applied to them: (M_i, M_j) <- V (M_i, M_j). */
static inline void su2_apply_rows(const su2_block *v, int i, int j, suNg *M) {
  for (int c = 0; c < NG; ++c) {
    const hr_complex mi = M->c[i * NG + c], mj = M->c[j * NG + c];
    M->c[i * NG + c] = hr_cmul(v->m[0][0], mi) + hr_cmul(v->m[0][1], mj);
    M->c[j * NG + c] = hr_cmul(v->m[1][0], mi) + hr_cmul(v->m[1][1], mj);
  }
}

/* X_0 with density proportional to sqrt(1 - X_0^2) exp(alpha X_0) on [-1, 1]. */
static inline double su2_heatbath_x0(double alpha, hr_rng_stream *s) {
  if (alpha > 2.0) { /* Kennedy-Pendleton */
    for (;;) {
      const double r1 = rng_uniform(s), r2 = rng_uniform(s), r3 = rng_uniform(s);
      const double r4 = rng_uniform(s);
      const double c = cos(HR_TWO_PI * r2);
      const double delta = -(log(r1) + c * c * log(r3)) / alpha;
      if (r4 * r4 <= 1.0 - 0.5 * delta) return 1.0 - delta;
    }
  }
  for (;;) { /* uniform proposal, accept with sqrt(1 - x^2) exp(alpha (x - 1)) <= 1 */
    const double x0 = 2.0 * rng_uniform(s) - 1.0;
    const double r = rng_uniform(s);
    if (r <= sqrt(1.0 - x0 * x0) * exp(alpha * (x0 - 1.0))) return x0;
  }
}

/* Random SU(2) element X with weight exp(alpha X_0) times the Haar measure. */
static inline su2_block su2_heatbath_element(double alpha, hr_rng_stream *s) {
  const double x0 = su2_heatbath_x0(alpha, s);
  const double r = sqrt(fmax(0.0, 1.0 - x0 * x0));
  const double cos_theta = 2.0 * rng_uniform(s) - 1.0;
  const double sin_theta = sqrt(fmax(0.0, 1.0 - cos_theta * cos_theta));
  const double phi = HR_TWO_PI * rng_uniform(s);
  return su2_from_quaternion(x0, r * sin_theta * cos(phi), r * sin_theta * sin(phi),
                             r * cos_theta);
}

/* Update the link U with staple sum A: all subgroups (i < j) in order; heatbath with the
 * stream s, or over-relaxation when s is NULL. */
static void cabibbo_marinari_link(suNg *U, const suNg *A, double beta, hr_rng_stream *s) {
  suNg W;
  suNg_mul(U, A, &W);
  for (int i = 0; i < NG; ++i)
    for (int j = i + 1; j < NG; ++j) {
      const hr_complex wii = W.c[i * NG + i], wjj = W.c[j * NG + j];
      const hr_complex wij = W.c[i * NG + j], wji = W.c[j * NG + i];
      const double q0 = 0.5 * (creal(wii) + creal(wjj)), q3 = 0.5 * (cimag(wii) - cimag(wjj));
      const double q2 = 0.5 * (creal(wij) - creal(wji)), q1 = 0.5 * (cimag(wij) + cimag(wji));
      const double k = sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
      su2_block v;
      if (s != NULL) {
        const su2_block x = su2_heatbath_element(2.0 * beta * k / NG, s);
        if (k > 0.0) {
          const su2_block qhat = su2_from_quaternion(q0 / k, q1 / k, q2 / k, q3 / k);
          v = su2_mul_dag(&x, &qhat); /* V = X qhat^+ */
        } else {
          v = x;
        }
      } else {
        if (!(k > 0.0)) continue;
        /* V = (qhat^+)^2 = quaternion conj(qhat)^2 */
        const double a0 = q0 / k, a1 = -q1 / k, a2 = -q2 / k, a3 = -q3 / k;
        v = su2_from_quaternion(a0 * a0 - a1 * a1 - a2 * a2 - a3 * a3, 2 * a0 * a1, 2 * a0 * a2,
                                2 * a0 * a3);
      }
      su2_apply_rows(&v, i, j, U);
      su2_apply_rows(&v, i, j, &W);
    }
  suNg_reunitarize(U);
}

/* Sum of the staples of U_mu(x): the action of the link is -(beta/NG) Re tr(U_mu(x) A). */
static void staple_sum(const suNg_field *u, int ix, int mu, suNg *A) {
  suNg a, b;
  const int xpm = iup(ix, mu);
  suNg_zero(A);
  for (int nu = 0; nu < 4; ++nu) {
    if (nu == mu) continue;
    const int xpn = iup(ix, nu), xmn = idn(ix, nu), xpm_mn = idn(xpm, nu);
    /* U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+ */
    suNg_mul_dag(LINK(u, xpm, nu), LINK(u, xpn, mu), &a);
    suNg_mul_dag(&a, LINK(u, ix, nu), &b);
    suNg_add(A, &b, A);
    /* U_nu(x+mu-nu)^+ U_mu(x-nu)^+ U_nu(x-nu) = (U_mu(x-nu) U_nu(x+mu-nu))^+ U_nu(x-nu) */
    suNg_mul(LINK(u, xmn, mu), LINK(u, xpm_mn, nu), &a);
    suNg_dag_mul(&a, LINK(u, xmn, nu), &b);
    suNg_add(A, &b, A);
  }
}

/* ------------------------------------------------------------------ sweeps */

/* Global index of link mu of site ix: 4 * (lexicographic global site index) + mu. */
static inline uint64_t global_link_index(int ix, int mu) {
  int g[4];
  global_coordinates(ix, g);
  const uint64_t site = (((uint64_t)g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3];
  return 4 * site + (uint64_t)mu;
}

/* Halo exchange of the sites of one parity of u (the only ones a pass changes). */
static void exchange_parity(suNg_field *u, const geometry_descriptor *g) {
  sendrecv_field(g, HR_LAYOUT_GAUGE, u->ptr + 4 * (g->master_shift - u->type->master_shift),
                 4 * sizeof(suNg));
}

/* One pass: the links of direction mu on the sites of geometry g. */
static void update_pass(suNg_field *u, const geometry_descriptor *g, int mu, double beta,
                        int overrelax) {
  const uint64_t draw = overrelax ? 0 : rng_next_draw();
  const uint64_t seed = rng_get_state().seed;
  _OMP_MASTER_FOR(g, ix) {
    suNg A;
    staple_sum(u, ix, mu, &A);
    if (overrelax) {
      cabibbo_marinari_link(LINK(u, ix, mu), &A, beta, NULL);
    } else {
      hr_rng_stream s;
      rng_stream_init(&s, seed, draw, global_link_index(ix, mu));
      cabibbo_marinari_link(LINK(u, ix, mu), &A, beta, &s);
    }
  }
  exchange_parity(u, g);
}

static void sweep(suNg_field *u, double beta, int overrelax) {
  host_write_suNg_field(u); /* CPU path: the host copy is updated, the GPU copy goes stale */
  const geometry_descriptor *parities[2] = {&glat_even, &glat_odd};
  for (int p = 0; p < 2; ++p)
    for (int mu = 0; mu < 4; ++mu)
      update_pass(u, parities[p], mu, beta, overrelax);
}

void heatbath_sweep(suNg_field *u, double beta) { sweep(u, beta, 0); }

void overrelaxation_sweep(suNg_field *u) { sweep(u, 0.0, 1); }

void pure_gauge_update(suNg_field *u, double beta, int nhb, int nor) {
  for (int i = 0; i < nhb; ++i)
    heatbath_sweep(u, beta);
  for (int i = 0; i < nor; ++i)
    overrelaxation_sweep(u);
}

double links_per_sweep(void) { return 4.0 * (double)GLB_VOLUME; }

/* ------------------------------------------------------------------ starts */

static void exchange_all(suNg_field *u) {
  sendrecv_field(u->type, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
}

void gauge_field_cold(suNg_field *u) {
  host_write_suNg_field(u);
  _OMP_MASTER_FOR(u->type, ix) {
    for (int mu = 0; mu < 4; ++mu)
      suNg_unit(LINK(u, ix, mu));
  }
  exchange_all(u);
}

void gauge_field_hot(suNg_field *u) {
  host_write_suNg_field(u);
  const uint64_t draw = rng_next_draw();
  const uint64_t seed = rng_get_state().seed;
  _OMP_MASTER_FOR(u->type, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      hr_rng_stream s;
      rng_stream_init(&s, seed, draw, global_link_index(ix, mu));
      suNg_random(&s, LINK(u, ix, mu));
    }
  }
  exchange_all(u);
}
