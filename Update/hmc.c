/* hmc.c -- the HMC of hmc.h: the nested multi-level integrators (each written as one list of
 * momentum and link sub-steps, consecutive momentum sub-steps merged), the Hamiltonian, one
 * trajectory with Metropolis accept/reject, and the reversibility check. */
#include "hmc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "gauge_action.h"
#include "geometry.h"
#include "hr_core.h"
#include "hr_error.h"
#include "linear_algebra.h"
#include "logger.h"
#include "md.h"
#include "random.h"
#include "random_fields.h"

/* ------------------------------------------------------------------ integrators */

/* One step of an integrator as alternating sub-steps: momentum(f[0] eps), links(l[0] eps),
 * momentum(f[1] eps), ..., links(l[n-1] eps), momentum(f[n] eps). Symmetric schemes, so
 * they integrate backwards with eps < 0. */
typedef struct {
  int n; /* link sub-steps */
  double f[6], l[5];
} hmc_scheme;

/* Second-order Omelyan parameter (minimal error norm). */
#define OMF2_LAMBDA 0.1931833275037836
/* Fourth-order Omelyan-Mryglod-Folk coefficients of the 4-force-stage scheme with minimal
 * error norm (velocity form, here applied to the momenta first). */
#define OMF4_XI 0.1786178958448091
#define OMF4_LAMBDA (-0.2123418310626054)
#define OMF4_CHI (-0.06626458266981849)

static hmc_scheme scheme_of(hmc_integrator_type t) {
  hmc_scheme s;
  memset(&s, 0, sizeof s);
  switch (t) {
    case HMC_LEAPFROG:
      s.n = 1;
      s.f[0] = s.f[1] = 0.5;
      s.l[0] = 1.0;
      break;
    case HMC_OMF2:
      s.n = 2;
      s.f[0] = s.f[2] = OMF2_LAMBDA;
      s.f[1] = 1.0 - 2.0 * OMF2_LAMBDA;
      s.l[0] = s.l[1] = 0.5;
      break;
    case HMC_OMF4:
      s.n = 4;
      s.f[0] = s.f[4] = OMF4_XI;
      s.f[1] = s.f[3] = OMF4_CHI;
      s.f[2] = 1.0 - 2.0 * (OMF4_CHI + OMF4_XI);
      s.l[0] = s.l[3] = 0.5 * (1.0 - 2.0 * OMF4_LAMBDA);
      s.l[1] = s.l[2] = OMF4_LAMBDA;
      break;
  }
  return s;
}

const char *hmc_integrator_name(hmc_integrator_type t) {
  switch (t) {
    case HMC_LEAPFROG: return "lf";
    case HMC_OMF2: return "omf2";
    case HMC_OMF4: return "omf4";
  }
  return "unknown";
}

int hmc_integrator_from_name(const char *name) {
  if (strcmp(name, "lf") == 0) return HMC_LEAPFROG;
  if (strcmp(name, "omf2") == 0) return HMC_OMF2;
  if (strcmp(name, "omf4") == 0) return HMC_OMF4;
  return -1;
}

void hmc_check_params(const hmc_params *h) {
  if (!(h->tlen > 0)) hr_fatal(HR_EXIT_INPUT, "HMC: the trajectory length must be > 0");
  if (h->nlevels < 1 || h->nlevels > HMC_MAX_LEVELS)
    hr_fatal(HR_EXIT_INPUT, "HMC: %d integrator levels (1 to %d)", h->nlevels, HMC_MAX_LEVELS);
  if (h->nmonomials < 1 || h->nmonomials > HMC_MAX_MONOMIALS)
    hr_fatal(HR_EXIT_INPUT, "HMC: %d monomials (1 to %d)", h->nmonomials, HMC_MAX_MONOMIALS);
  for (int l = 0; l < h->nlevels; l++)
    if (h->level[l].steps < 1)
      hr_fatal(HR_EXIT_INPUT, "HMC: integrator level %d has %d steps (>= 1)", l,
               h->level[l].steps);
  for (int i = 0; i < h->nmonomials; i++) {
    const hmc_monomial *m = h->monomial[i];
    if (m->level < 0 || m->level >= h->nlevels)
      hr_fatal(HR_EXIT_INPUT, "HMC: monomial %d (%s) sits on level %d, but the integrator has "
                              "levels 0 to %d",
               i + 1, m->name, m->level, h->nlevels - 1);
  }
}

/* Time spent in the force updates of each monomial, and in their solves (for hmc_result). */
static double force_time[HMC_MAX_MONOMIALS], force_solver_time[HMC_MAX_MONOMIALS];

/* p -= eps F of the monomials of level l. */
static void momenta_update(const hmc_params *h, int l, const suNg_field *u, suNg_av_field *p,
                           double eps) {
  for (int i = 0; i < h->nmonomials; i++) {
    hmc_monomial *m = h->monomial[i];
    if (m->level != l) continue;
    hmc_solver_stats s0 = {0, 0.0, 0.0}, s1 = {0, 0.0, 0.0};
    if (m->solver_stats != NULL) m->solver_stats(m, &s0);
    const double t0 = hr_wtime();
    m->force_update(m, u, p, eps);
    force_time[i] += hr_wtime() - t0;
    if (m->solver_stats != NULL) m->solver_stats(m, &s1);
    force_solver_time[i] += s1.seconds - s0.seconds;
  }
}

static void integrate_level(const hmc_params *h, int l, suNg_field *u, suNg_av_field *p,
                            double tau);

/* The link sub-step of level l: the next level over eps, or the link update. */
static void links_step(const hmc_params *h, int l, suNg_field *u, suNg_av_field *p, double eps) {
  if (l + 1 < h->nlevels)
    integrate_level(h, l + 1, u, p, eps);
  else
    md_update_links(u, p, eps);
}

static void integrate_level(const hmc_params *h, int l, suNg_field *u, suNg_av_field *p,
                            double tau) {
  const hmc_scheme s = scheme_of(h->level[l].type);
  const int n = h->level[l].steps;
  const double eps = tau / n;
  double pending = s.f[0] * eps; /* momentum sub-step not yet done (merged across steps) */
  for (int step = 0; step < n; step++) {
    for (int j = 0; j < s.n; j++) {
      momenta_update(h, l, u, p, pending);
      links_step(h, l, u, p, s.l[j] * eps);
      pending = s.f[j + 1] * eps;
    }
    if (step + 1 < n) pending += s.f[0] * eps;
  }
  momenta_update(h, l, u, p, pending);
}

void hmc_integrate(suNg_field *u, suNg_av_field *p, const hmc_params *h, double tau) {
  integrate_level(h, 0, u, p, tau);
}

/* ------------------------------------------------------------------ trajectories */

double hmc_hamiltonian(const hmc_params *h, const suNg_field *u, const suNg_av_field *p) {
  double H = md_kinetic_energy(p);
  for (int i = 0; i < h->nmonomials; i++) H += h->monomial[i]->action(h->monomial[i], u);
  return H;
}

/* H at the start: K plus each monomial's action after its heatbath. */
static double start_hamiltonian(const hmc_params *h, const suNg_field *u, const suNg_av_field *p) {
  double H = md_kinetic_energy(p);
  for (int i = 0; i < h->nmonomials; i++) {
    hmc_monomial *m = h->monomial[i];
    H += m->heatbath != NULL ? m->heatbath(m, u) : m->action(m, u);
  }
  return H;
}

void hmc_trajectory(suNg_field *u, const hmc_params *h, hmc_result *res) {
  memset(res, 0, sizeof *res);
  memset(force_time, 0, sizeof force_time);
  memset(force_solver_time, 0, sizeof force_solver_time);
  const double t0 = hr_wtime();
  suNg_av_field *p = alloc_suNg_av_field(1, &glattice);
  suNg_field *u0 = alloc_suNg_field(1, &glattice);
  copy_suNg_field(u0, u);
  gaussian_momenta(p);
  if (h->open_t) gauge_zero_open_momenta(p);
  res->H0 = start_hamiltonian(h, u, p);
  hmc_integrate(u, p, h, h->tlen);
  res->H1 = hmc_hamiltonian(h, u, p);
  res->dH = res->H1 - res->H0;
  hr_rng_stream st;
  rng_global_stream(&st); /* drawn on every trajectory, accepted or not */
  const double r = rng_uniform(&st);
  res->accepted = res->dH <= 0 || r < exp(-res->dH);
  if (!res->accepted) copy_suNg_field(u, u0);
  for (int i = 0; i < h->nmonomials; i++) {
    hmc_monomial *m = h->monomial[i];
    if (m->solver_stats != NULL) m->solver_stats(m, &res->solver[i]);
    res->monomial_force_seconds[i] = force_time[i];
    res->force_seconds += force_time[i];
    res->force_solver_seconds += force_solver_time[i];
  }
  free_suNg_field(u0);
  free_suNg_av_field(p);
  res->seconds = hr_wtime() - t0;
}

/* Largest element-wise |a - b| of two link fields over the master sites, all processes. */
static double links_max_diff(const suNg_field *a, const suNg_field *b) {
  const suNg *pa = sync_host_suNg_field(a), *pb = sync_host_suNg_field(b);
  const int sh = glattice.master_shift;
  double d = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int k = 0; k < 4; k++)
      for (int e = 0; e < NG * NG; e++) {
        const double x = hr_cabs(pa[4 * (ix - sh) + k].c[e] - pb[4 * (ix - sh) + k].c[e]);
        if (x > d) d = x;
      }
  }
  global_max(&d, 1);
  return d;
}

/* Largest |a^a + b^a| of two momentum fields (a = -b after a flip), all processes. */
static double momenta_max_sum(const suNg_av_field *a, const suNg_av_field *b) {
  const suNg_algebra_vector *pa = sync_host_suNg_av_field(a), *pb = sync_host_suNg_av_field(b);
  const int sh = glattice.master_shift;
  double d = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int k = 0; k < 4; k++)
      for (int e = 0; e < NG * NG - 1; e++) {
        const double x = fabs(pa[4 * (ix - sh) + k].c[e] + pb[4 * (ix - sh) + k].c[e]);
        if (x > d) d = x;
      }
  }
  global_max(&d, 1);
  return d;
}

void hmc_reversibility(double *du, double *dp, double *dh, const hmc_params *h,
                       const suNg_field *u) {
  suNg_field *w = alloc_suNg_field(1, &glattice);
  suNg_av_field *p = alloc_suNg_av_field(2, &glattice); /* p[1]: the start */
  copy_suNg_field(w, u);
  gaussian_momenta(p);
  if (h->open_t) gauge_zero_open_momenta(p);
  copy_suNg_av_field(p + 1, p);
  const double H0 = start_hamiltonian(h, w, p);
  hmc_integrate(w, p, h, h->tlen);
  const double H1 = hmc_hamiltonian(h, w, p);
  minus_suNg_av_field(p, p); /* flip the momenta */
  hmc_integrate(w, p, h, h->tlen);
  const double H2 = hmc_hamiltonian(h, w, p);
  *du = links_max_diff(w, u);
  *dp = momenta_max_sum(p, p + 1);
  *dh = (H1 - H0) + (H2 - H1);
  free_suNg_av_field(p);
  free_suNg_field(w);
}

void hmc_free(hmc_params *h) {
  for (int i = 0; i < h->nmonomials; i++) {
    hmc_monomial *m = h->monomial[i];
    if (m->free != NULL) m->free(m);
  }
  h->nmonomials = 0;
}
