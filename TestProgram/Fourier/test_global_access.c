/* test_global_access.c -- global store / fetch / add (global_access.h) on the process grid
 * given by the arguments (NP_T NP_X NP_Y NP_Z):
 *  - every process stores the global index of its share of a random permutation of the sites
 *    (scalar field), every process fetches all sites back in another random order (batched
 *    multi-fetch) and finds the index; the local master values and the refreshed halo agree;
 *  - adds from all processes to every site accumulate exactly (double and float spinors);
 *  - links: store / fetch of every (site, direction) of a gauge field, halo holds the
 *    encoded global coordinates afterwards;
 *  - is_local / owner / local index agree with the geometry on every site;
 *  - GPU builds: a field whose only current copy is the device one is fetched, stored and
 *    added through the host staging, and the device copy holds the result afterwards. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../test_cases.h"
#include "fields.h"
#include "global_access.h"

/* Random permutation of 0..n-1 from a fixed seed (the same on every process). */
static void permutation(long long *p, long long n, uint64_t seed) {
  for (long long i = 0; i < n; i++) p[i] = i;
  for (long long i = n - 1; i > 0; i--) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const long long j = (long long)((seed >> 33) % (uint64_t)(i + 1));
    const long long t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static void scalar_permutation(void) {
  const int np = hr_nranks(), me = hr_rank();
  scalar_field *s = alloc_scalar_field(1, &glattice);
  hr_global_access *a = global_access_scalar_field(s);
  long long *perm = malloc(sizeof(long long) * (size_t)GLB_VOLUME);
  permutation(perm, GLB_VOLUME, 12345);
  for (long long i = me; i < GLB_VOLUME; i += np) {
    const double v = (double)perm[i];
    global_store(a, perm[i], 0, &v);
  }
  global_access_sync(a);
  CHECK(global_access_pending(a) == 0, "requests left after the sync");
  /* local masters and halo */
  const double *h = sync_host_scalar_field(s);
  (void)h;
  for (int ix = 0; ix < geometry_total_sites(); ix++) {
    if (ix >= glattice.gsize_spinor) break;
    int g[4];
    global_coordinates(g, ix);
    if (g[0] < 0) continue;
    CHECK(*_FIELD_AT(s, ix) == (double)ga_site_index(g), "site %d holds %g, not %lld", ix,
          *_FIELD_AT(s, ix), ga_site_index(g));
  }
  /* every process reads every site back */
  permutation(perm, GLB_VOLUME, 999 + (uint64_t)me);
  double *got = malloc(sizeof(double) * (size_t)GLB_VOLUME);
  global_fetch_many(got, a, GLB_VOLUME, perm, NULL);
  global_access_sync(a);
  for (long long i = 0; i < GLB_VOLUME; i++)
    CHECK(got[i] == (double)perm[i], "fetched %g at site %lld", got[i], perm[i]);
  free(got);
  free(perm);
  global_access_free(a);
  free_scalar_field(s);
  tc_case_end("scalar field: stores of a random permutation from all processes, fetched back by all");
}

static void spinor_adds(void) {
  const int np = hr_nranks(), me = hr_rank();
  spinor_field *s = alloc_spinor_field(1, &glattice);
  spinor_field_flt *f = alloc_spinor_field_flt(1, &glattice);
  hr_global_access *a = global_access_spinor_field(s), *b = global_access_spinor_field_flt(f);
  /* start: x = gsite in every real; each process adds (me + 1) everywhere, twice */
  for (long long gs = me; gs < GLB_VOLUME; gs += np) {
    suNf_spinor v;
    suNf_spinor_flt w;
    double *d = (double *)&v;
    float *e = (float *)&w;
    for (size_t k = 0; k < sizeof v / sizeof(double); k++) d[k] = (double)gs + k;
    for (size_t k = 0; k < sizeof w / sizeof(float); k++) e[k] = (float)(gs % 1000);
    global_store(a, gs, 0, &v);
    global_store(b, gs, 0, &w);
  }
  global_access_sync(a);
  global_access_sync(b);
  for (int rep = 0; rep < 2; rep++) {
    for (long long gs = 0; gs < GLB_VOLUME; gs++) {
      suNf_spinor v;
      suNf_spinor_flt w;
      double *d = (double *)&v;
      float *e = (float *)&w;
      for (size_t k = 0; k < sizeof v / sizeof(double); k++) d[k] = me + 1;
      for (size_t k = 0; k < sizeof w / sizeof(float); k++) e[k] = (float)(me + 1);
      global_add(a, gs, 0, &v);
      global_add(b, gs, 0, &w);
    }
    global_access_sync(a);
    global_access_sync(b);
  }
  const double sum = 2.0 * np * (np + 1) / 2;
  /* fetch a few sites from every process and the local ones directly */
  for (long long gs = (me * 7) % GLB_VOLUME, n = 0; n < 50; gs = (gs + 37) % GLB_VOLUME, n++) {
    suNf_spinor v;
    suNf_spinor_flt w;
    global_fetch(&v, a, gs, 0);
    global_fetch(&w, b, gs, 0);
    global_access_sync(a);
    global_access_sync(b);
    const double *d = (const double *)&v;
    const float *e = (const float *)&w;
    for (size_t k = 0; k < sizeof v / sizeof(double); k++)
      CHECK(d[k] == (double)gs + k + sum, "site %lld real %zu: %g", gs, k, d[k]);
    for (size_t k = 0; k < sizeof w / sizeof(float); k++)
      CHECK(e[k] == (float)(gs % 1000) + (float)sum, "float site %lld: %g", gs, (double)e[k]);
  }
  sync_host_spinor_field(s);
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    const double *d = (const double *)_FIELD_AT(s, ix);
    CHECK(d[3] == (double)ga_site_index(g) + 3 + sum, "local site %d: %g", ix, d[3]);
  }
  global_access_free(a);
  global_access_free(b);
  free_spinor_field(s);
  free_spinor_field_flt(f);
  tc_case_end("spinor fields (double, float): adds from every process accumulate exactly");
}

static void encode_link(suNg *u, long long gs, int mu) {
  memset(u, 0, sizeof *u);
  u->c[0] = hr_cmplx((double)gs, mu);
  u->c[NG * NG - 1] = hr_cmplx(-mu, 0.5 * gs);
}

static void links(void) {
  const int np = hr_nranks(), me = hr_rank();
  suNg_field *u = alloc_suNg_field(1, &glattice);
  hr_global_access *a = global_access_suNg_field(u);
  for (long long gs = GLB_VOLUME - 1 - me; gs >= 0; gs -= np)
    for (int mu = 0; mu < 4; mu++) {
      suNg v;
      encode_link(&v, gs, mu);
      global_store(a, gs, mu, &v);
    }
  global_access_sync(a);
  /* every stored site, halo included */
  sync_host_suNg_field(u);
  long bad = 0;
  for (int ix = 0; ix < glattice.gsize_gauge; ix++) {
    int g[4];
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; mu++) {
      suNg v;
      encode_link(&v, ga_site_index(g), mu);
      if (memcmp(&v, _4FIELD_AT(u, ix, mu), sizeof v) != 0) bad++;
    }
  }
  CHECK(bad == 0, "%ld links (halo included) differ from the stored values", bad);
  /* fetch every link from rank-dependent places */
  const long n = 4 * (long)GLB_VOLUME;
  long long *gs = malloc(sizeof(long long) * (size_t)n);
  int *mus = malloc(sizeof(int) * (size_t)n);
  suNg *got = malloc(sizeof(suNg) * (size_t)n);
  for (long i = 0; i < n; i++) {
    const long j = (i * 7 + me) % n;
    gs[i] = j / 4;
    mus[i] = (int)(j % 4);
  }
  global_fetch_many(got, a, n, gs, mus);
  global_access_sync(a);
  for (long i = 0; i < n; i++) {
    suNg v;
    encode_link(&v, gs[i], mus[i]);
    CHECK(memcmp(&v, &got[i], sizeof v) == 0, "link (%lld, %d) fetched wrong", gs[i], mus[i]);
  }
  free(gs);
  free(mus);
  free(got);
  global_access_free(a);
  free_suNg_field(u);
  tc_case_end("gauge field: store / fetch of every link, halo refreshed");
}

static void locality(void) {
  long long nloc = 0;
  for (long long gs = 0; gs < GLB_VOLUME; gs++) {
    const int loc = ga_site_is_local(gs);
    nloc += loc;
    int g[4];
    ga_site_coordinates(g, gs);
    CHECK(ga_site_index(g) == gs, "index of coordinates of %lld", gs);
    const int ix = ga_site_local_index(gs);
    CHECK((ix >= 0) == loc, "local index %d of site %lld (local %d)", ix, gs, loc);
    if (ix >= 0) {
      int h[4];
      global_coordinates(h, ix);
      CHECK(ga_site_index(h) == gs, "site %lld maps to local %d at another place", gs, ix);
    }
  }
  CHECK(nloc == VOLUME, "%lld local sites, VOLUME %d", nloc, VOLUME);
  double tot = (double)nloc;
  global_sum(&tot, 1);
  CHECK(tot == (double)GLB_VOLUME, "sites owned %g of %lld", tot, GLB_VOLUME);
  tc_case_end("is_local, owner and local index agree with the geometry");
}

#if HR_GPU_ENABLED
static void device_staging(void) {
  const int np = hr_nranks(), me = hr_rank();
  spinor_field *s = alloc_spinor_field(1, &glattice);
  suNf_spinor *h = host_write_spinor_field(s);
  (void)h;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    double *d = (double *)_FIELD_AT(s, ix);
    for (size_t k = 0; k < sizeof(suNf_spinor) / sizeof(double); k++) d[k] = ga_site_index(g) + 0.25 * k;
  }
  copy_to_gpu_spinor_field(s);
  gpu_write_spinor_field(s); /* device copy only */
  memset(s->ptr, 0, sizeof(suNf_spinor) * (size_t)glattice.gsize_spinor);
  hr_global_access *a = global_access_spinor_field(s);
  suNf_spinor v;
  const long long probe = (GLB_VOLUME / 2 + me) % GLB_VOLUME;
  global_fetch(&v, a, probe, 0);
  global_access_sync(a);
  CHECK(((double *)&v)[1] == probe + 0.25, "fetch from a device-only field: %g", ((double *)&v)[1]);
  for (long long gs = me; gs < GLB_VOLUME; gs += np) {
    suNf_spinor w;
    for (size_t k = 0; k < sizeof w / sizeof(double); k++) ((double *)&w)[k] = 1.0;
    global_add(a, gs, 0, &w);
  }
  global_access_sync(a);
  sync_gpu_spinor_field(s);
  memset(s->ptr, 0, sizeof(suNf_spinor) * (size_t)glattice.gsize_spinor);
  s->current = HR_COPY_GPU;
  copy_from_gpu_spinor_field(s);
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    const double *d = (const double *)_FIELD_AT(s, ix);
    CHECK(d[2] == ga_site_index(g) + 0.5 + 1.0, "device copy after the add: %g", d[2]);
  }
  global_access_free(a);
  free_spinor_field(s);
  tc_case_end("device field: fetch and add staged through the host copy");
}
#endif

int main(int argc, char **argv) {
  int np[4];
  tc_start_grid(&argc, &argv, np);
  geometry_params p;
  geometry_params_default(&p);
  const int glb[4] = {8, 4, 4, 4};
  for (int mu = 0; mu < 4; mu++) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
  }
  if (!tc_geometry_init(&p, "global access")) return tc_finish("test_global_access");
  locality();
  scalar_permutation();
  spinor_adds();
  links();
#if HR_GPU_ENABLED
  device_staging();
#endif
  return tc_finish("test_global_access");
}
