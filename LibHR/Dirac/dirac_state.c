/* dirac_state.c -- the derived state of the Dirac operators and the rule that keeps it
 * current: every state records the version of the gauge field it was built from (fields.h)
 * and is looked up by it, so a change of the links (heatbath, file read, HMC update, a
 * program's own loop after host_write_suNg_field) is seen on the next application with no
 * call in between. A few states are cached (links per gauge-field version and boundary
 * conditions, clover terms per links state, csw and m0), so that several operators on the
 * same links share them; the least recently used entry is rebuilt when another is needed.
 * With --enable-debug-checks a checksum of the links recorded at build time is compared at
 * every use, which catches links changed without a new version. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "halo_exchange.h"
#include "dirac_internal.h"
#include "dirac_state_gpu.h"
#include "dirac_state_sites.h"
#include "geometry.h"
#include "host_memory.h"
#include "hr_error.h"
#include "logger.h"
#include "suN.h"

/* Entries of each cache: links states, clover states. */
#define DIRAC_LINKS_CACHE 4
#define DIRAC_CLOVER_CACHE 6

static dirac_links_state links_cache[DIRAC_LINKS_CACHE];
static dirac_clover_state clover_cache[DIRAC_CLOVER_CACHE];
static unsigned long use_clock = 0;
static long builds = 0;

long dirac_state_builds(void) { return builds; }

/* ------------------------------------------------------------------ links */

static int bc_equal(const dirac_bc *a, const dirac_bc *b) {
  for (int mu = 0; mu < 4; mu++)
    if (a->kind[mu] != b->kind[mu] || a->theta[mu] != b->theta[mu]) return 0;
  return dirac_bc_diag_shift(a) == dirac_bc_diag_shift(b); /* cF: part of the clover key */
}

/* Hash of the master links of u (host copy, brought up to date). */
static unsigned long links_checksum(const suNg_field *u) {
  sync_host_suNg_field(u);
  /* FNV-style on 64-bit words in four independent lanes (each step is a bijection of the
   * lane, so a change of any one word changes the hash); 8 NG^2 words per site. */
  uint64_t h[4] = {1469598103934665603ULL, 0x9e3779b97f4a7c15ULL, 0xc2b2ae3d27d4eb4fULL,
                   0x165667b19e3779f9ULL};
  const size_t words = 4 * sizeof(suNg) / sizeof(uint64_t);
  _MASTER_FOR(u->type, ix) {
    const unsigned char *p = (const unsigned char *)_4FIELD_AT(u, ix, 0);
    for (size_t k = 0; k < words; k += 4)
      for (int l = 0; l < 4; l++) {
        uint64_t w;
        memcpy(&w, p + 8 * (k + l), sizeof w);
        h[l] = (h[l] ^ w) * 1099511628211ULL;
      }
  }
  return (unsigned long)(h[0] ^ (h[1] << 1 | h[1] >> 63) ^ (h[2] << 2 | h[2] >> 62) ^
                         (h[3] << 3 | h[3] >> 61));
}

static void links_state_free(dirac_links_state *s) {
  free_suNf_field(s->uf);
  free_suNf_field(s->uf_open);
  free_suNf_field_flt(s->uf_flt);
  hr_host_free(s->pack);
  hr_host_free(s->pack_flt);
  memset(s, 0, sizeof *s);
}

/* hop = uf without the links of dirac_open_cut_link (open time boundaries), halo exchanged. */
static void cut_open_links(suNf_field *hop, const suNf_field *uf) {
  const suNf *src = sync_host_suNf_field(uf);
  suNf *dst = host_write_suNf_field(hop);
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; mu++) {
      const int e = 4 * (ix - sh) + mu;
      if (dirac_open_cut_link(g[0], mu, GLB_T))
        suNf_zero(dst + e);
      else
        dst[e] = src[e];
    }
  }
  sendrecv_suNf_field(hop);
}

/* Represent and round the links of D into s: on the device copies when D runs on the GPU
 * path (dirac_state_gpu.c), else on the host; the packed host links follow on first use. */
static void links_state_build(dirac_links_state *s, const dirac_op *D) {
  if (s->uf != NULL && s->generation != geometry_generation()) links_state_free(s);
  if (s->uf == NULL) {
    s->uf = alloc_suNf_field(1, &glattice);
    const size_t np = 8 * (size_t)geometry_field_size(&glattice, HR_LAYOUT_SPINOR);
    s->pack = hr_host_alloc(np * sizeof(suNf), "the packed links");
    s->pack_flt = hr_host_alloc(np * sizeof(suNf_flt), "the packed single-precision links");
#if HR_GPU_ENABLED
    s->uf_flt = alloc_suNf_field_flt(1, &glattice);
#endif
  }
  const int open_t = dirac_bc_open_t(&D->bc);
  if (open_t && GLB_T < 3)
    hr_fatal(HR_EXIT_INPUT, "bc_t = open needs a time extent of at least 3 (the quark fields "
             "live on the slices 1 .. T-2), not %d", GLB_T);
  if (open_t && s->uf_open == NULL) s->uf_open = alloc_suNf_field(1, &glattice);
  s->uf_hop = open_t ? s->uf_open : s->uf;
  s->u = D->u;
  s->version = D->u->version;
  s->generation = geometry_generation();
  s->bc = D->bc;
  s->pack_ready = 0;
#if HR_GPU_ENABLED
  if (dirac_on_gpu(D)) { /* built on the device copies: no field crosses to the host */
    for (int mu = 1; mu < 4; mu++)
      if (D->bc.kind[mu] == HR_BC_OPEN)
        hr_fatal(HR_EXIT_INPUT, "open boundary conditions are supported in time only");
    dirac_phases ph;
    for (int mu = 0; mu < 4; mu++) {
      ph.glb[mu] = GLB_SIZE[mu];
      ph.bulk[mu] = dirac_bc_link_phase(&D->bc, mu, 0);
      ph.last[mu] = dirac_bc_link_phase(&D->bc, mu, GLB_SIZE[mu] - 1);
    }
    ph.open_cut = 0;
    const suNg *u = sync_gpu_suNg_field(D->u);
    dirac_gpu_represent(gpu_write_suNf_field(s->uf), gpu_write_suNf_field_flt(s->uf_flt), u, &ph);
    if (open_t) { /* the hopping links: uf_flt is written again from them */
      ph.open_cut = 1;
      dirac_gpu_represent(gpu_write_suNf_field(s->uf_open), gpu_write_suNf_field_flt(s->uf_flt),
                          u, &ph);
      start_sendrecv_suNf_field(s->uf_open);
    }
    start_sendrecv_suNf_field(s->uf);
    start_sendrecv_suNf_field_flt(s->uf_flt);
    complete_sendrecv_suNf_field(s->uf);
    complete_sendrecv_suNf_field_flt(s->uf_flt);
    if (open_t) complete_sendrecv_suNf_field(s->uf_open);
  } else
#endif
  {
    represent_gauge_field(s->uf, D->u, &D->bc);
    if (open_t) cut_open_links(s->uf_open, s->uf);
#if HR_GPU_ENABLED
    const suNf *src = sync_host_suNf_field(s->uf_hop);
    suNf_flt *dst = host_write_suNf_field_flt(s->uf_flt);
    const int n = 4 * geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
    for (int k = 0; k < n; k++) suNf_to_flt(dst + k, src + k);
#endif
  }
  if (HR_DEBUG_CHECKS) s->checksum = links_checksum(D->u);
  builds++;
  lprintf("DIRAC", 50, "derived links rebuilt for gauge field version %lu\n", s->version);
}

const void *dirac_links_pack(const dirac_links_state *ls, int flt) {
  dirac_links_state *s = (dirac_links_state *)(uintptr_t)ls;
  if (!s->pack_ready) { /* first use by a CPU loop since the links were built */
    const suNf_field *uf = s->uf_hop;
    sync_host_suNf_field(uf);
    const int sh = glattice.master_shift;
    suNf *pack = s->pack;
    suNf_flt *pack_flt = s->pack_flt;
    _OMP_MASTER_FOR(&glattice, ix) {
      const suNf *uup[4], *udn[4];
      for (int mu = 0; mu < 4; mu++) {
        uup[mu] = _4FIELD_AT(uf, ix, mu);
        udn[mu] = _4FIELD_AT(uf, idn(ix, mu), mu);
      }
      dirac_cpu_pack_links(pack + 8 * (ix - sh), pack_flt + 8 * (ix - sh), uup, udn);
    }
    s->pack_ready = 1;
  }
  return flt ? (const void *)s->pack_flt : (const void *)s->pack;
}

/* Stop when the links of an up-to-date state changed without a new version. */
static void links_state_verify(const dirac_links_state *s) {
  if (!HR_DEBUG_CHECKS) return;
  if (links_checksum(s->u) != s->checksum)
    hr_error("the links of a gauge field were changed without a new version, so the Dirac "
             "operators would use stale derived links: call host_write_suNg_field(u) (or "
             "gpu_write_suNg_field) before writing the links through their pointer");
}

const dirac_links_state *dirac_links_state_of(const dirac_op *D) {
  hr_assert(D != NULL && D->u != NULL, "Dirac operator without gauge field (dirac_op_make)");
  hr_assert(D->u->type == &glattice, "the gauge field of a Dirac operator must live on glattice");
  const int gen = geometry_generation();
  dirac_links_state *hit = NULL, *same = NULL, *victim = NULL;
  for (int i = 0; i < DIRAC_LINKS_CACHE; i++) {
    dirac_links_state *s = &links_cache[i];
    if (s->u == D->u && bc_equal(&s->bc, &D->bc)) {
      if (s->version == D->u->version && s->generation == gen) {
        hit = s;
        break;
      }
      same = s; /* an older version of the same links: rebuilt in place */
    }
    if (victim == NULL || (victim->u != NULL && (s->u == NULL || s->last_use < victim->last_use)))
      victim = s; /* an unused entry, else the least recently used */
  }
  if (hit != NULL)
    links_state_verify(hit);
  else {
    hit = same != NULL ? same : victim;
    links_state_build(hit, D);
  }
  hit->last_use = ++use_clock;
  return hit;
}

const suNf_field *dirac_links(const dirac_op *D) { return dirac_links_state_of(D)->uf; }

/* ------------------------------------------------------------------ open boundaries */

void dirac_zero_outer_slices(spinor_field *s, const dirac_op *D) {
  if (!dirac_bc_open_t(&D->bc)) return;
#if HR_GPU_ENABLED
  if (dirac_on_gpu(D)) {
    dirac_gpu_zero_outer_slices(s, dirac_time_table(1));
    return;
  }
#endif
  const int *time = dirac_time_table(0);
  sync_host_spinor_field(s); /* only some sites are written: the others must be current */
  suNf_spinor *h = host_write_spinor_field(s);
  const int sh = s->type->master_shift, shg = glattice.master_shift;
  _OMP_MASTER_FOR(s->type, ix) {
    if (dirac_open_outer_slice(time[ix - shg], GLB_T)) suNf_spinor_zero(h + ix - sh);
  }
}

/* ------------------------------------------------------------------ clover */

const dirac_clover_state *dirac_clover_state_of(const dirac_op *D) {
  if (D->csw == 0. && !dirac_bc_open_t(&D->bc)) return NULL; /* no blocks needed */
  const dirac_links_state *ls = dirac_links_state_of(D);
  dirac_clover_state *hit = NULL, *same = NULL, *victim = NULL;
  for (int i = 0; i < DIRAC_CLOVER_CACHE; i++) {
    dirac_clover_state *c = &clover_cache[i];
    if (c->links == ls && c->csw == D->csw && c->m0 == D->m0) {
      if (c->links_version == ls->version && c->u == ls->u && c->generation == ls->generation) {
        hit = c;
        break;
      }
      same = c;
    }
    if (victim == NULL ||
        (victim->links != NULL && (c->links == NULL || c->last_use < victim->last_use)))
      victim = c;
  }
  if (hit == NULL) {
    hit = same != NULL ? same : victim;
    hit->links = ls;
    hit->links_version = ls->version;
    hit->u = ls->u;
    hit->csw = D->csw;
    hit->m0 = D->m0;
    hit->on_gpu = dirac_on_gpu(D);
    clover_state_build(hit);
    builds++;
  }
  hit->last_use = ++use_clock;
  return hit;
}

/* ------------------------------------------------------------------ release */

void dirac_state_release(void) {
  for (int i = 0; i < DIRAC_CLOVER_CACHE; i++) clover_state_free(&clover_cache[i]);
  for (int i = 0; i < DIRAC_LINKS_CACHE; i++) links_state_free(&links_cache[i]);
}
