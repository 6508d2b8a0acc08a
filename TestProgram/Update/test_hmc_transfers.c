/* test_hmc_transfers.c -- an HMC trajectory on the GPU path moves no field between host and
 * device, only scalars, measured with the transfer counter of gpu.h:
 *   after one trajectory of setup (site tables, exchange tables, spin tables, tuner, the first
 *   derived Dirac state), the counter is reset and a second trajectory runs; every host <->
 *   device copy it makes must be a scalar copy: at most SCALAR_COPY bytes per copy on average
 *   for each origin (a device exact sum brings k + 1 doubles and 4 k integers, <= 168 bytes; a
 *   field on the 8x4^3 lattice is >= 16 KiB), and no layout-converting field copy at all
 *   (origins named by a field kind). Halo exchanges staged through the host
 *   (HR_GPU_HALO=host with MPI) are communication and are only reported.
 * Three trajectories: pure gauge (Wilson plaquette + rectangles on two levels), with a
 * Wilson-clover fermion monomial (csw 1.1), and the same with open time boundaries (cG 1.3,
 * cF 1.2: zero boundary links and momenta). Every origin of the second is listed with the
 * monomial or step whose calls made it (the monomials' functions are wrapped).
 * GPU builds only: exit 77 (skip) in CPU builds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "gauge_action.h"
#include "gpu.h"
#include "geometry.h"
#include "heatbath.h"
#include "hmc.h"
#include "hr_core.h"
#include "md.h"
#include "random.h"

#include "../test_cases.h"

/* Largest average bytes per copy of one origin that count as scalars. */
#define SCALAR_COPY 256

#if HR_GPU_ENABLED
/* ------------------------------------------------------------------ attribution */

/* Which step made the copies of each origin: the monomial call or the integrator step. */
#define MAX_STEPS 16
static const char *step_name[MAX_STEPS];
static int nsteps = 0;
#define MAX_ORIG 64
static unsigned long long by_step[MAX_ORIG][MAX_STEPS]; /* bytes per origin and step */

/* Add the copies since the last call to step s (origins by number since the reset). */
static unsigned long long seen[MAX_ORIG];
static void attribute(int s) {
  const char *what;
  hr_gpu_xfer_kind kind;
  unsigned long long bytes, copies;
  for (int i = 0; i < MAX_ORIG && hr_gpu_transfer_origin(i, &what, &kind, &bytes, &copies); i++) {
    by_step[i][s] += bytes - seen[i];
    seen[i] = bytes;
  }
}

static int step_of(const char *name) {
  for (int s = 0; s < nsteps; s++)
    if (strcmp(step_name[s], name) == 0) return s;
  if (nsteps == MAX_STEPS) return MAX_STEPS - 1;
  step_name[nsteps] = name;
  return nsteps++;
}

/* The original functions of each wrapped monomial. */
typedef struct {
  hmc_monomial *m;
  double (*heatbath)(hmc_monomial *, const suNg_field *);
  double (*action)(hmc_monomial *, const suNg_field *);
  void (*force)(hmc_monomial *, const suNg_field *, suNg_av_field *, double);
  int s_heatbath, s_action, s_force;
} wrapped;
static wrapped wraps[HMC_MAX_MONOMIALS];
static int nwraps = 0;
static int s_other; /* link updates, kinetic energy, momenta, accept/reject */

static wrapped *wrap_of(const hmc_monomial *m) {
  for (int i = 0; i < nwraps; i++)
    if (wraps[i].m == m) return &wraps[i];
  return NULL;
}
static double w_heatbath(hmc_monomial *m, const suNg_field *u) {
  wrapped *w = wrap_of(m);
  attribute(s_other);
  const double r = w->heatbath(m, u);
  attribute(w->s_heatbath);
  return r;
}
static double w_action(hmc_monomial *m, const suNg_field *u) {
  wrapped *w = wrap_of(m);
  attribute(s_other);
  const double r = w->action(m, u);
  attribute(w->s_action);
  return r;
}
static void w_force(hmc_monomial *m, const suNg_field *u, suNg_av_field *p, double eps) {
  wrapped *w = wrap_of(m);
  attribute(s_other);
  w->force(m, u, p, eps);
  attribute(w->s_force);
}

/* Names "<monomial> <what>" (static storage). */
static char names[HMC_MAX_MONOMIALS * 3][64];
static int nnames = 0;
static const char *name_of(const char *monomial, int i, const char *what) {
  char *n = names[nnames++];
  snprintf(n, sizeof names[0], "monomial %d (%s) %s", i + 1, monomial, what);
  return n;
}

static void wrap_monomials(hmc_params *h) {
  nwraps = 0;
  nnames = 0;
  nsteps = 0;
  s_other = step_of("integrator: links, momenta, kinetic energy, accept/reject");
  for (int i = 0; i < h->nmonomials; i++) {
    hmc_monomial *m = h->monomial[i];
    wrapped *w = &wraps[nwraps++];
    w->m = m;
    w->heatbath = m->heatbath;
    w->action = m->action;
    w->force = m->force_update;
    w->s_heatbath = step_of(name_of(m->name, i, "heatbath"));
    w->s_action = step_of(name_of(m->name, i, "action"));
    w->s_force = step_of(name_of(m->name, i, "force"));
    if (m->heatbath != NULL) m->heatbath = w_heatbath;
    m->action = w_action;
    m->force_update = w_force;
  }
}

/* ------------------------------------------------------------------ the check */

/* tlen 0.5 on two levels: omf2 with 2 steps outside, `inner` with 2 steps inside. */
static void two_levels(hmc_params *h, hmc_integrator_type inner) {
  memset(h, 0, sizeof *h);
  h->tlen = 0.5;
  h->nlevels = 2;
  h->level[0].type = HMC_OMF2;
  h->level[0].steps = 2;
  h->level[1].type = inner;
  h->level[1].steps = 2;
}

/* A trajectory after a setup trajectory; every copy of the second must be scalar. */
static void check_trajectory(const char *label, hmc_params *h, suNg_field *u) {
  hmc_result r;
  hmc_trajectory(u, h, &r); /* setup: tables, tuner, allocations, derived state */
  wrap_monomials(h);
  memset(by_step, 0, sizeof by_step);
  memset(seen, 0, sizeof seen);
  hr_gpu_transfers_reset();
  hmc_trajectory(u, h, &r);
  attribute(s_other);
  const unsigned long long up = hr_gpu_transfer_bytes(HR_XFER_TO_DEVICE),
                           down = hr_gpu_transfer_bytes(HR_XFER_TO_HOST);
  printf("%s: dH = %.3e; copied to the device %llu bytes in %llu copies, to the host %llu bytes "
         "in %llu copies; staged halo exchange %llu + %llu bytes (communication)\n",
         label, r.dH, up, hr_gpu_transfer_copies(HR_XFER_TO_DEVICE), down,
         hr_gpu_transfer_copies(HR_XFER_TO_HOST), hr_gpu_transfer_bytes(HR_XFER_HALO_TO_HOST),
         hr_gpu_transfer_bytes(HR_XFER_HALO_TO_DEVICE));
  const char *what;
  hr_gpu_xfer_kind kind;
  unsigned long long bytes, copies;
  for (int i = 0; i < MAX_ORIG && hr_gpu_transfer_origin(i, &what, &kind, &bytes, &copies); i++) {
    if (kind == HR_XFER_HALO_TO_DEVICE || kind == HR_XFER_HALO_TO_HOST) continue;
    const int field = strchr(what, ':') == NULL; /* a field kind's name: a field moved */
    const int scalar = !field && bytes <= (unsigned long long)SCALAR_COPY * copies;
    const char *verdict = scalar ? "ok" : "FAIL";
    printf("  %-5s %s %s: %llu bytes in %llu copies%s\n", verdict,
           kind == HR_XFER_TO_DEVICE ? "to device" : "to host  ", what, bytes, copies,
           field ? " (a field)" : scalar ? "" : " (arrays, not scalars)");
    for (int s = 0; s < nsteps; s++)
      if (by_step[i][s] > 0) printf("          by %s: %llu bytes\n", step_name[s], by_step[i][s]);
    CHECK(scalar, "%s: %s moves %s to the %s (%llu bytes in %llu copies)", label, what,
          field ? "a field" : "arrays", kind == HR_XFER_TO_DEVICE ? "device" : "host", bytes,
          copies);
  }
  tc_case_end(label);
}
#endif

int main(int argc, char **argv) {
#if !HR_GPU_ENABLED
  (void)argc, (void)argv;
  printf("test_hmc_transfers: CPU build (no device): skipped\n");
  return 77;
#else
  tc_start(&argc, &argv);
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; mu++) p.glb[mu] = 4;
  p.glb[0] = 8;
  if (!tc_geometry_init(&p, "test_hmc_transfers")) return 77;
  hr_backend_set(HR_BACKEND_GPU);
  rng_init(4242);
  suNg_field *u = alloc_suNg_field(1, &glattice);
  gauge_field_hot(u);
  for (int k = 0; k < 3; k++) heatbath_sweep(u, 5.8);

  hmc_params h;
  two_levels(&h, HMC_LEAPFROG);
  h.monomial[h.nmonomials++] = hmc_monomial_gauge(2.9, -0.331 / 4, 0);
  h.monomial[h.nmonomials++] = hmc_monomial_gauge(2.9, -0.331 / 4, 1);
  hmc_check_params(&h);
  check_trajectory("pure gauge trajectory", &h, u);
  hmc_free(&h);

  two_levels(&h, HMC_OMF2);
  h.monomial[h.nmonomials++] = hmc_monomial_gauge(5.8, 0.0, 1);
  hmc_monomial_params fp;
  hmc_monomial_params_init(&fp, "hmc");
  fp.mass = 0.2;
  fp.csw = 1.1;
  fp.mt_prec = 1e-12;
  fp.force_prec = 1e-12;
  h.monomial[h.nmonomials++] = hmc_monomial_new(&fp);
  hmc_check_params(&h);
  check_trajectory("trajectory with a clover fermion monomial", &h, u);
  hmc_free(&h);

  /* open time boundaries: zero links and momenta, cG and cF weights (all on the device) */
  gauge_zero_open_links(u);
  two_levels(&h, HMC_OMF2);
  h.open_t = 1;
  h.cg = 1.3;
  const gauge_boundary gb = {1, 1.3};
  h.monomial[h.nmonomials++] = hmc_monomial_gauge_bc(5.8, GAUGE_C1_SYMANZIK, &gb, 1);
  fp.bc.kind[0] = HR_BC_OPEN;
  fp.bc.cf = 1.2;
  h.monomial[h.nmonomials++] = hmc_monomial_new(&fp);
  hmc_check_params(&h);
  check_trajectory("trajectory with open time boundaries", &h, u);
  hmc_free(&h);

  free_suNg_field(u);
  return tc_finish("test_hmc_transfers");
#endif
}
