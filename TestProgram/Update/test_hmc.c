/* test_hmc.c -- the HMC integrators and trajectories (hmc.h), each against an independent
 * truth:
 *   reversibility: forward, momenta flipped, forward again returns links and momenta to
 *     1e-10 and the two energy changes cancel, for lf, omf2, omf4 on two nested levels (the
 *     gauge action split between the levels), with and without a fermion monomial;
 *   order: halving the step divides |dH| by 4 (lf, omf2) or 16 (omf4) within 25%, on a
 *     fixed configuration and fixed momenta;
 *   exactness (with HR_LONG_TESTS set): the pure-gauge HMC reproduces the plaquette of the
 *     heatbath (heatbath.h) at the same beta within two standard errors (binned), and
 *     <exp(-dH)> = 1 within two standard errors;
 *   layout: with --print, dH and the plaquette of a few trajectories are printed in hex for
 *     the comparison between process grids and backends (test_hmc_grids.sh).
 * Options: --cpu runs on the CPU loops in GPU builds; --has-gpu exits 0 in GPU builds.
 * Usage: test_hmc [NP_T NP_X NP_Y NP_Z] [--print] [--cpu] [--has-gpu] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "communications.h"
#include "gpu.h"
#include "geometry.h"
#include "heatbath.h"
#include "hmc.h"
#include "hr_core.h"
#include "logger.h"
#include "md.h"
#include "observables.h"
#include "random.h"
#include "random_fields.h"

#include "../test_cases.h"

static const double BETA = 5.8;

/* Pure-gauge HMC: the Wilson action split between `nlevels` levels (beta / nlevels each),
 * every level the integrator t with `steps` steps, optionally a fermion monomial on level
 * 0. */
static void make_hmc(hmc_params *h, hmc_integrator_type t, int nlevels, int steps, double tlen,
                     int fermion) {
  memset(h, 0, sizeof *h);
  h->tlen = tlen;
  h->nlevels = nlevels;
  for (int l = 0; l < nlevels; l++) {
    h->level[l].type = t;
    h->level[l].steps = l == 0 ? steps : 2;
    h->monomial[h->nmonomials++] = hmc_monomial_gauge(BETA / nlevels, 0.0, l);
  }
  if (fermion) {
    hmc_monomial_params fp;
    hmc_monomial_params_init(&fp, "hmc");
    fp.mass = 0.2;
    fp.csw = 1.1;
    fp.force_prec = 1e-14;
    h->monomial[h->nmonomials++] = hmc_monomial_new(&fp);
  }
  hmc_check_params(h);
}

/* A thermalised-looking configuration: hot start and a few heatbath sweeps. */
static void warm_links(suNg_field *u) {
  gauge_field_hot(u);
  for (int k = 0; k < 5; k++) heatbath_sweep(u, BETA);
}

static void check_reversibility(suNg_field *u) {
  for (int fermion = 0; fermion < 2; fermion++)
    for (int t = 0; t < 3; t++) {
      hmc_params h;
      make_hmc(&h, (hmc_integrator_type)t, 2, 4, 1.0, fermion);
      double du, dp, dh;
      hmc_reversibility(&du, &dp, &dh, &h, u);
      CHECK(du < 1e-10 && dp < 1e-10 && fabs(dh) < 1e-9,
            "%s%s: forward and back: max|dU| = %.3e, max|dP| = %.3e, dH sum = %.3e",
            hmc_integrator_name((hmc_integrator_type)t), fermion ? " + fermions" : "", du, dp, dh);
      if (hr_rank() == 0)
        printf("  reversibility %s%s: |dU| %.2e |dP| %.2e dH %.2e\n",
               hmc_integrator_name((hmc_integrator_type)t), fermion ? " + fermions" : "", du, dp,
               dh);
      hmc_free(&h);
    }
  tc_case_end("reversibility of lf, omf2, omf4 on two levels, with and without fermions");
}

/* dH of one integration from u with the momenta of generator state st (u unchanged). */
static double integration_dh(const hmc_params *h, const suNg_field *u, hr_rng_state st) {
  suNg_field *w = alloc_suNg_field(1, &glattice);
  suNg_av_field *p = alloc_suNg_av_field(1, &glattice);
  copy_suNg_field(w, u);
  rng_set_state(st);
  gaussian_momenta(p);
  const double H0 = hmc_hamiltonian(h, w, p);
  hmc_integrate(w, p, h, h->tlen);
  const double dh = hmc_hamiltonian(h, w, p) - H0;
  free_suNg_av_field(p);
  free_suNg_field(w);
  return dh;
}

static void check_order(const suNg_field *u) {
  const hr_rng_state st = rng_get_state();
  const int steps[3] = {40, 16, 8};
  const double want[3] = {4, 4, 16};
  for (int t = 0; t < 3; t++) {
    hmc_params h1, h2;
    make_hmc(&h1, (hmc_integrator_type)t, 1, steps[t], 1.0, 0);
    make_hmc(&h2, (hmc_integrator_type)t, 1, 2 * steps[t], 1.0, 0);
    const double d1 = integration_dh(&h1, u, st), d2 = integration_dh(&h2, u, st);
    const double ratio = fabs(d1 / d2);
    CHECK(fabs(ratio / want[t] - 1) < 0.25, "%s: |dH(eps)| / |dH(eps/2)| = %.3f (%.3e / %.3e), "
          "expected %g within 25%%", hmc_integrator_name((hmc_integrator_type)t), ratio, d1, d2,
          want[t]);
    if (hr_rank() == 0)
      printf("  order %s: dH(%d steps) = %.4e, dH(%d steps) = %.4e, ratio %.3f (want %g)\n",
             hmc_integrator_name((hmc_integrator_type)t), steps[t], d1, 2 * steps[t], d2, ratio,
             want[t]);
    hmc_free(&h1);
    hmc_free(&h2);
  }
  rng_set_state(st);
  tc_case_end("integrator order: dH scales as eps^2 (lf, omf2) and eps^4 (omf4)");
}

/* Mean and binned standard error of x[0..n-1] (bins of b). */
static void binned_mean(const double *x, int n, int b, double *mean, double *err) {
  const int nb = n / b;
  double s = 0, s2 = 0;
  for (int i = 0; i < nb; i++) {
    double m = 0;
    for (int k = 0; k < b; k++) m += x[i * b + k];
    m /= b;
    s += m;
    s2 += m * m;
  }
  *mean = s / nb;
  *err = sqrt((s2 / nb - *mean * *mean) / (nb - 1));
}

static void check_exactness(suNg_field *u) {
  enum { NTHERM = 50, NMEAS = 400, BIN = 20 };
  double *plaq_hmc = malloc(NMEAS * sizeof(double)), *plaq_hb = malloc(NMEAS * sizeof(double));
  double *e = malloc(NMEAS * sizeof(double));
  hmc_params h;
  make_hmc(&h, HMC_OMF2, 1, 6, 1.0, 0);
  gauge_field_hot(u);
  int acc = 0;
  for (int k = 0; k < NTHERM + NMEAS; k++) {
    hmc_result r;
    hmc_trajectory(u, &h, &r);
    if (k >= NTHERM) {
      plaq_hmc[k - NTHERM] = avr_plaquette(u);
      e[k - NTHERM] = exp(-r.dH);
      acc += r.accepted;
    }
  }
  hmc_free(&h);
  gauge_field_hot(u);
  for (int k = 0; k < NTHERM + NMEAS; k++) {
    pure_gauge_update(u, BETA, 1, 2);
    if (k >= NTHERM) plaq_hb[k - NTHERM] = avr_plaquette(u);
  }
  double m1, e1, m2, e2, me, ee;
  binned_mean(plaq_hmc, NMEAS, BIN, &m1, &e1);
  binned_mean(plaq_hb, NMEAS, BIN, &m2, &e2);
  binned_mean(e, NMEAS, BIN, &me, &ee);
  const double sig = sqrt(e1 * e1 + e2 * e2);
  if (hr_rank() == 0)
    printf("  exactness: HMC plaquette %.6f +- %.6f, heatbath %.6f +- %.6f (%.2f sigma); "
           "<exp(-dH)> = %.5f +- %.5f; acceptance %.3f\n",
           m1, e1, m2, e2, fabs(m1 - m2) / sig, me, ee, (double)acc / NMEAS);
  CHECK(fabs(m1 - m2) < 2 * sig, "HMC plaquette %.6f +- %.6f vs heatbath %.6f +- %.6f", m1, e1,
        m2, e2);
  CHECK(fabs(me - 1) < 2 * ee, "<exp(-dH)> = %.5f +- %.5f", me, ee);
  CHECK(acc > NMEAS / 2, "acceptance %d of %d too low for a meaningful test", acc, NMEAS);
  free(plaq_hmc);
  free(plaq_hb);
  free(e);
  tc_case_end("exactness: pure-gauge HMC = heatbath plaquette, <exp(-dH)> = 1");
}

/* dH and plaquette of 3 trajectories with fermions, printed in hex for test_hmc_grids.sh. */
static void print_trajectories(suNg_field *u) {
  hmc_params h;
  make_hmc(&h, HMC_OMF2, 2, 3, 0.5, 1);
  for (int k = 0; k < 3; k++) {
    hmc_result r;
    hmc_trajectory(u, &h, &r);
    const double plaq = avr_plaquette(u); /* collective: every process */
    if (hr_rank() == 0)
      printf("traj %d accepted %d dH %a plaquette %a\n", k + 1, r.accepted, r.dH, plaq);
  }
  hmc_free(&h);
}

int main(int argc, char **argv) {
  int np[4] = {1, 1, 1, 1}, print = 0, a = 1;
  for (int k = 1; k < argc; k++) /* for the scripts: exit 0 in GPU builds */
    if (strcmp(argv[k], "--has-gpu") == 0) return HR_GPU_ENABLED ? 0 : 1;
  tc_start(&argc, &argv);
  if (argc >= 5 && argv[1][0] != '-') {
    for (int mu = 0; mu < 4; mu++) np[mu] = atoi(argv[1 + mu]);
    a = 5;
  }
  for (; a < argc; a++) {
    if (strcmp(argv[a], "--print") == 0) print = 1;
    if (strcmp(argv[a], "--cpu") == 0) hr_backend_set(HR_BACKEND_CPU);
  }
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; mu++) {
    p.glb[mu] = 4;
    p.np[mu] = np[mu];
  }
  p.glb[0] = 8;
  if (!tc_geometry_init(&p, "test_hmc")) return 77;
  rng_init(777);
  suNg_field *u = alloc_suNg_field(1, &glattice);
  warm_links(u);
  if (print) {
    print_trajectories(u);
  } else {
    check_reversibility(u);
    check_order(u);
    if (getenv("HR_LONG_TESTS") != NULL) /* 900 trajectories: CI's su3-fund build runs it */
      check_exactness(u);
    else if (hr_rank() == 0)
      printf("(the exactness test runs with HR_LONG_TESTS=1, as in CI's su3-fund build)\n");
  }
  free_suNg_field(u);
  return tc_finish("test_hmc");
}
