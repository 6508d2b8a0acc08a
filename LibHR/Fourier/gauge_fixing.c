/* gauge_fixing.c -- Landau and Coulomb gauge fixing (gauge_fixing.h): steepest ascent of the
 * functional, Fourier accelerated (Davies et al.: the gradient is multiplied by p2max / p^2 in
 * momentum space) or plain, and over-relaxation on SU(2) subgroups, one checkerboard at a
 * time. The links are processed on the host copy (a device copy is staged through it). */
#include "gauge_fixing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "halo_exchange.h"
#include "fourier.h"
#include "geometry.h"
#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"
#include "reduction.h"
#include "suN.h"

#define GF_PI 3.14159265358979323846

void gauge_fixing_params_default(gauge_fixing_params *p) {
  p->kind = HR_GF_LANDAU;
  p->method = HR_GF_STEEPEST;
  p->fourier = 1;
  p->alpha = 0.08;
  p->omega = 1.7;
  p->tolerance = 1e-14;
  p->maxiter = 10000;
  p->print_every = 0;
}

const char *gauge_kind_name(hr_gauge_kind k) {
  return k == HR_GF_LANDAU ? "landau" : k == HR_GF_COULOMB ? "coulomb" : "none";
}

int gauge_kind_from_name(const char *name) {
  if (strcmp(name, "landau") == 0) return HR_GF_LANDAU;
  if (strcmp(name, "coulomb") == 0) return HR_GF_COULOMB;
  if (strcmp(name, "none") == 0) return HR_GF_NONE;
  return -1;
}

/* ------------------------------------------------------------------ per-site mathematics */

/* w(x) = sum_{mu >= mu0} [U_mu(x) + U_mu(x-mu)^+]: Re tr[g(x) w(x)] is the part of the
 * functional that depends on g(x). */
HR_INLINE void gf_site_w(suNg *w, const suNg_field *u, int ix, int mu0) {
  suNg t;
  suNg_zero(w);
  for (int mu = mu0; mu < 4; mu++) {
    suNg_add(w, w, _4FIELD_AT(u, ix, mu));
    suNg_dagger(&t, _4FIELD_AT(u, idn(ix, mu), mu));
    suNg_add(w, w, &t);
  }
}

/* Y = (w^+ - w)/2 made traceless: antihermitian, Y = i Delta(x); tr[Delta Delta^+] = |Y|^2. */
HR_INLINE void gf_site_gradient(suNg *Y, const suNg *w) {
  hr_complex tr = hr_cmplx(0, 0);
  for (int a = 0; a < NG; a++)
    for (int b = 0; b < NG; b++)
      Y->c[a * NG + b] = 0.5 * (hr_conj(w->c[b * NG + a]) - w->c[a * NG + b]);
  for (int a = 0; a < NG; a++) tr += Y->c[a * NG + a];
  for (int a = 0; a < NG; a++) Y->c[a * NG + a] -= tr / NG;
}

/* Antihermitian traceless part of X, in place (removes rounding after the FFT). */
HR_INLINE void gf_site_project_ah(suNg *X) {
  suNg t;
  suNg_dagger(&t, X);
  hr_complex tr = hr_cmplx(0, 0);
  for (int k = 0; k < NG * NG; k++) X->c[k] = 0.5 * (X->c[k] - t.c[k]);
  for (int a = 0; a < NG; a++) tr += X->c[a * NG + a];
  for (int a = 0; a < NG; a++) X->c[a * NG + a] -= tr / NG;
}

/* g maximising Re tr[g w] by one pass over the SU(2) subgroups, each rotation raised to the
 * power omega (over-relaxation). */
HR_INLINE void gf_site_overrelax(suNg *g, const suNg *w, double omega) {
  suNg m = *w;
  suNg_unit(g);
  for (int i = 0; i < NG; i++)
    for (int j = i + 1; j < NG; j++) {
      const hr_complex m00 = m.c[i * NG + i], m01 = m.c[i * NG + j], m10 = m.c[j * NG + i],
                       m11 = m.c[j * NG + j];
      double b[4] = {hr_creal(m00 + m11), -hr_cimag(m10 + m01), hr_creal(m10 - m01),
                     -hr_cimag(m00 - m11)};
      const double nb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
      if (nb < 1e-300) continue;
      for (int k = 0; k < 4; k++) b[k] /= nb;
      /* b = (cos phi, n sin phi) -> (cos omega phi, n sin omega phi) */
      const double s = sqrt(b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
      if (s > 1e-300) {
        const double phi = atan2(s, b[0]), f = sin(omega * phi) / s;
        b[0] = cos(omega * phi);
        for (int k = 1; k < 4; k++) b[k] *= f;
      }
      const hr_complex r00 = hr_cmplx(b[0], b[3]), r01 = hr_cmplx(b[2], b[1]),
                       r10 = hr_cmplx(-b[2], b[1]), r11 = hr_cmplx(b[0], -b[3]);
      /* rows i, j of m and g: left-multiplied by r */
      for (int c = 0; c < NG; c++) {
        const hr_complex mi = m.c[i * NG + c], mj = m.c[j * NG + c];
        m.c[i * NG + c] = r00 * mi + r01 * mj;
        m.c[j * NG + c] = r10 * mi + r11 * mj;
        const hr_complex gi = g->c[i * NG + c], gj = g->c[j * NG + c];
        g->c[i * NG + c] = r00 * gi + r01 * gj;
        g->c[j * NG + c] = r10 * gi + r11 * gj;
      }
    }
}

/* ------------------------------------------------------------------ helpers */

void gauge_transform_links(suNg_field *u, const suNg *g) {
  host_write_suNg_field(u);
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      suNg t;
      suNg_mul(&t, &g[ix], _4FIELD_AT(u, ix, mu));
      suNg_mul_dag(_4FIELD_AT(u, ix, mu), &t, &g[iup(ix, mu)]);
    }
  }
  sendrecv_suNg_field(u);
}

/* theta and F of u (halo current) in one pass: out[0] = theta, out[1] = F. */
static void gf_measure(double out[2], const suNg_field *u, int mu0) {
  double *v = reduction_scratch(2L * glattice.gsize_spinor);
  _OMP_MASTER_FOR(&glattice, ix) {
    suNg w, Y;
    gf_site_w(&w, u, ix, mu0);
    gf_site_gradient(&Y, &w);
    double f = 0;
    for (int mu = mu0; mu < 4; mu++) f += suNg_re_trace(_4FIELD_AT(u, ix, mu));
    v[2 * ix] = suNg_sqnorm(&Y);
    v[2 * ix + 1] = f;
  }
  global_sum_sites(out, &glattice, v, 2);
  out[0] /= (double)NG * (double)GLB_VOLUME;
  out[1] /= (double)NG * (4 - mu0) * (double)GLB_VOLUME;
}

double gauge_fixing_theta(const suNg_field *u, hr_gauge_kind k) {
  sync_host_suNg_field(u);
  sendrecv_suNg_field((suNg_field *)u);
  double o[2];
  gf_measure(o, u, k == HR_GF_COULOMB ? 1 : 0);
  return o[0];
}

double gauge_fixing_functional(const suNg_field *u, hr_gauge_kind k) {
  sync_host_suNg_field(u);
  sendrecv_suNg_field((suNg_field *)u);
  double o[2];
  gf_measure(o, u, k == HR_GF_COULOMB ? 1 : 0);
  return o[1];
}

/* One Fourier-accelerated or plain steepest-ascent step: g = exp(alpha Y'). */
static void gf_steepest_step(suNg *g, const suNg_field *u, int mu0, double alpha, int fourier,
                             hr_complex *plain, const int *lex) {
  if (!fourier) {
    _OMP_MASTER_FOR(&glattice, ix) {
      suNg w, Y;
      gf_site_w(&w, u, ix, mu0);
      gf_site_gradient(&Y, &w);
      suNg_scale(&Y, alpha, &Y);
      suNg_exp_matrix(&g[ix], &Y);
    }
    return;
  }
  const int nc = NG * NG;
  _OMP_MASTER_FOR(&glattice, ix) {
    suNg w, Y;
    gf_site_w(&w, u, ix, mu0);
    gf_site_gradient(&Y, &w);
    memcpy(plain + (size_t)lex[ix] * nc, Y.c, sizeof(hr_complex) * nc);
  }
  const unsigned mask = mu0 == 0 ? HR_FFT_ALL : HR_FFT_SPACE;
  fft_plain(plain, nc, mask, HR_FFT_FORWARD);
  const double p2max = 4.0 * (4 - mu0);
  _OMP_MASTER_FOR(&glattice, ix) {
    int x[4];
    local_coordinates(x, ix);
    double p2 = 0;
    for (int mu = mu0; mu < 4; mu++) {
      const double s = sin(GF_PI * (ZERO_COORD[mu] + x[mu]) / GLB_SIZE[mu]);
      p2 += 4 * s * s;
    }
    const double f = p2 > 1e-12 ? p2max / p2 : 0.0;
    for (int k = 0; k < nc; k++) plain[(size_t)lex[ix] * nc + k] *= f;
  }
  fft_plain(plain, nc, mask, HR_FFT_BACKWARD);
  _OMP_MASTER_FOR(&glattice, ix) {
    suNg Y;
    memcpy(Y.c, plain + (size_t)lex[ix] * nc, sizeof(hr_complex) * nc);
    gf_site_project_ah(&Y);
    suNg_scale(&Y, alpha, &Y);
    suNg_exp_matrix(&g[ix], &Y);
  }
}

gauge_fixing_result gauge_fix(suNg_field *u, const gauge_fixing_params *p) {
  gauge_fixing_result r = {0, 0, 0, 0, 0};
  const double t0 = hr_wtime();
  hr_assert(u->type == &glattice, "gauge_fix: the links must live on glattice");
  hr_assert(p->kind == HR_GF_LANDAU || p->kind == HR_GF_COULOMB, "gauge_fix: no gauge chosen");
  const int mu0 = p->kind == HR_GF_COULOMB ? 1 : 0;
  const int fourier = p->method == HR_GF_STEEPEST && p->fourier;
  if (fourier && !fft_available())
    hr_error_code(HR_EXIT_SETUP, "gauge fixing: Fourier acceleration needs FFTW, which this build "
                                 "lacks (use gf:fourier = false, or install libfftw3-dev)");
  const int ns = glattice.gsize_spinor;
  suNg *g = malloc(sizeof(suNg) * (size_t)ns);
  int *lex = malloc(sizeof(int) * (size_t)ns);
  hr_complex *plain = fourier ? fft_alloc(NG * NG) : NULL;
  if (g == NULL || lex == NULL) hr_error_code(HR_EXIT_SETUP, "gauge fixing: out of memory");
  _MASTER_FOR(&glattice, ix) {
    int x[4];
    local_coordinates(x, ix);
    lex[ix] = fft_local_index(x);
  }
  sync_host_suNg_field(u);
  sendrecv_suNg_field(u);
  double m[2];
  for (;;) {
    gf_measure(m, u, mu0);
    if (p->print_every > 0 && r.iterations % p->print_every == 0)
      lprintf("GAUGEFIX", 10, "gauge=%s iteration=%d theta=%.16e functional=%.16e\n",
              gauge_kind_name(p->kind), r.iterations, m[0], m[1]);
    if (!(m[0] >= p->tolerance) || r.iterations >= p->maxiter) break; /* NaN stops too */
    if (p->method == HR_GF_OVERRELAX) {
      for (int par = 0; par < 2; par++) {
        _OMP_MASTER_FOR(&glattice, ix) {
          if (site_parity(ix) == par) {
            suNg w;
            gf_site_w(&w, u, ix, mu0);
            gf_site_overrelax(&g[ix], &w, p->omega);
          } else
            suNg_unit(&g[ix]);
        }
        sendrecv_field(&glattice, HR_LAYOUT_SPINOR, g, sizeof(suNg));
        gauge_transform_links(u, g);
      }
    } else {
      gf_steepest_step(g, u, mu0, p->alpha, fourier, plain, lex);
      sendrecv_field(&glattice, HR_LAYOUT_SPINOR, g, sizeof(suNg));
      gauge_transform_links(u, g);
    }
    r.iterations++;
  }
  /* remove the rounding drift of the many products: project every link back to SU(N)
   * (changes it by O(1e-16); zero links of open boundaries stay zero) and measure again */
  host_write_suNg_field(u);
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      if (suNg_sqnorm(_4FIELD_AT(u, ix, mu)) > 0.5) suNg_reunitarize(_4FIELD_AT(u, ix, mu));
  }
  sendrecv_suNg_field(u);
  gf_measure(m, u, mu0);
  r.theta = m[0];
  r.functional = m[1];
  r.converged = m[0] < p->tolerance;
  r.seconds = hr_wtime() - t0;
  lprintf("GAUGEFIX", 10,
          "gauge=%s done iterations=%d theta=%.16e functional=%.16e converged=%d seconds=%.3f\n",
          gauge_kind_name(p->kind), r.iterations, r.theta, r.functional, r.converged, r.seconds);
  if (plain) fft_free(plain);
  free(g);
  free(lex);
  return r;
}
