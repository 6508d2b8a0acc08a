/* heatbath.c -- Cabibbo-Marinari heatbath and over-relaxation for the Wilson gauge action of
 * SU(NG), and cold / hot starts (heatbath.h). The SU(2) subgroup step: for a link U with
 * staple sum A (the action of U is -(beta/NG) Re tr(U A)) and the subgroup acting on rows
 * (i, j), the 2x2 block of W = U A projected on the quaternions is k qhat with qhat in SU(2);
 * the new link is V U with V in the subgroup, drawn with weight exp((beta/NG) Re tr(V W)):
 * X = V qhat has weight exp(alpha X_0), alpha = 2 beta k / NG (Kennedy-Pendleton for
 * alpha > 2, direct rejection from the Haar measure below), or, for over-relaxation, the
 * reflection V = (qhat^+)^2 that leaves Re tr(V W) unchanged. The per-link mathematics is in
 * heatbath_sites.h, shared with the GPU path (heatbath_gpu.c); hr_backend_current()
 * chooses the path: CPU (OpenMP loops over the host copy) or GPU (one kernel launch per piece
 * over the device copy, halo exchanged on the device). Both give the same links (bitwise in
 * the emulated build) since a link's random stream depends only on (seed, draw, global link
 * index). */
#include "heatbath.h"

#include <stdint.h>
#include <stdlib.h>

#include "communications.h"
#include "halo_exchange.h"
#include "gauge_view.h"
#include "geometry.h"
#include "gpu.h"
#include "heatbath_gpu.h"
#include "heatbath_sites.h"
#include "hr_error.h"
#include "linear_algebra.h"
#include "random.h"
#include "suN.h"

/* ------------------------------------------------------------------ site tables */

/* The global lexicographic site index ((t GLB_X + x) GLB_Y + y) GLB_Z + z of every stored
 * element e = ix - master_shift of glattice (halo elements: that of the site they stand for),
 * on the host and, in GPU builds, its device copy; rebuilt when geometry_generation()
 * changes. The random stream of link mu of site ix is keyed by 4 glb[e] + mu on both paths. */
static struct {
  int generation; /* geometry_generation() the tables belong to; -1: none */
  uint64_t *glb;
#if HR_GPU_ENABLED
  uint64_t *dev_glb;
#endif
} tab = {-1, NULL
#if HR_GPU_ENABLED
         ,
         NULL
#endif
};

static void tables_update(void) {
  hr_assert(geometry_initialized(), "pure-gauge update called before geometry_init");
  if (tab.generation == geometry_generation()) return;
  free(tab.glb);
  const geometry_descriptor *g = &glattice;
  const int n = g->gsize_gauge;
  tab.glb = (uint64_t *)malloc((size_t)n * sizeof(uint64_t));
  if (tab.glb == NULL) hr_error("out of memory for the heatbath's site table");
  for (int e = 0; e < n; ++e) {
    int x[4];
    global_coordinates(x, e + g->master_shift);
    tab.glb[e] = (((uint64_t)x[0] * GLB_X + (uint64_t)x[1]) * GLB_Y + (uint64_t)x[2]) * GLB_Z +
                 (uint64_t)x[3];
  }
#if HR_GPU_ENABLED
  hr_gpu_free(tab.dev_glb);
  tab.dev_glb = (uint64_t *)hr_gpu_alloc((size_t)n * sizeof(uint64_t));
  hr_gpu_copy_to_device(tab.dev_glb, tab.glb, (size_t)n * sizeof(uint64_t));
#endif
  tab.generation = geometry_generation();
}


/* View of the host copy of u; the caller has made it current (host_write_suNg_field). */
static gauge_view host_view(const suNg_field *u) {
  return gauge_view_of_host(u->ptr, NULL);
}

#if HR_GPU_ENABLED
/* Whether the calls run on the GPU path (hr_backend_current(), GPU builds only). */
static int use_gpu(void) { return hr_backend_current() == HR_BACKEND_GPU; }

/* View of the device copy of u; the caller has made it current (gpu_write_suNg_field). */
static gauge_view device_view(const suNg_field *u) {
  return gauge_view_of_device(u->gpu_ptr, NULL);
}
#endif

/* ------------------------------------------------------------------ sweeps */

/* Halo exchange of the sites of one parity of u's host copy (the only ones a pass changes). */
static void exchange_parity(suNg_field *u, const geometry_descriptor *g) {
  sendrecv_field(g, HR_LAYOUT_GAUGE, u->ptr + 4 * (g->master_shift - u->type->master_shift),
                 4 * sizeof(suNg));
}

static void sweep(suNg_field *u, double beta, int overrelax) {
  hr_assert(u->type == &glattice, "pure-gauge update: the links must live on glattice");
  tables_update();
  const geometry_descriptor *parities[2] = {&glat_even, &glat_odd};
  hb_pass_params p;
  p.beta = beta;
  p.overrelax = overrelax;
  p.draw = 0;
#if HR_GPU_ENABLED
  if (use_gpu()) {
    /* GPU path: the device copy is updated (host copy stale), its halo refreshed on the
     * device after every pass */
    gpu_write_suNg_field(u);
    const gauge_view v = device_view(u);
    for (int par = 0; par < 2; ++par)
      for (int mu = 0; mu < 4; ++mu) {
        p.draw = overrelax ? 0 : rng_next_draw();
        p.seed = rng_get_state().seed;
        hb_gpu_pass(&v, u->gpu_ptr, parities[par], mu, &p, tab.dev_glb);
        start_sendrecv_suNg_field(u);
        complete_sendrecv_suNg_field(u);
      }
    return;
  }
#endif
  host_write_suNg_field(u); /* CPU path: the host copy is updated, the GPU copy goes stale */
  const gauge_view v = host_view(u);
  for (int par = 0; par < 2; ++par)
    for (int mu = 0; mu < 4; ++mu) {
      const geometry_descriptor *g = parities[par];
      p.draw = overrelax ? 0 : rng_next_draw();
      p.seed = rng_get_state().seed;
      _OMP_MASTER_FOR(g, ix) { hb_update_link(&v, u->ptr, ix, mu, tab.glb[ix - v.shift], &p); }
      exchange_parity(u, g);
    }
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

/* Cold (hot = 0) or hot start: every master site's links on the path of
 * hr_backend_current(), then the halo. */
static void gauge_field_start(suNg_field *u, int hot) {
  hr_assert(u->type == &glattice, "pure-gauge start: the links must live on glattice");
  tables_update();
  const uint64_t draw = hot ? rng_next_draw() : 0;
  const uint64_t seed = rng_get_state().seed;
#if HR_GPU_ENABLED
  if (use_gpu()) {
    gpu_write_suNg_field(u);
    const gauge_view v = device_view(u);
    hb_gpu_start(&v, u->gpu_ptr, &glattice, hot, seed, draw, tab.dev_glb);
    start_sendrecv_suNg_field(u);
    complete_sendrecv_suNg_field(u);
    return;
  }
#endif
  host_write_suNg_field(u);
  const gauge_view v = host_view(u);
  _OMP_MASTER_FOR(u->type, ix) {
    hb_start_site(&v, u->ptr, ix, tab.glb[ix - v.shift], hot, seed, draw);
  }
  sendrecv_field(u->type, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
}

void gauge_field_cold(suNg_field *u) { gauge_field_start(u, 0); }

void gauge_field_hot(suNg_field *u) { gauge_field_start(u, 1); }
