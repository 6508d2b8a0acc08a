/* gpu_sites.c -- device tables for kernels that read other sites than their own (neighbours,
 * halo): where every stored index of glattice, glat_even and glat_odd lives in the device
 * layout (piece start and length), device copies of hr_iup, hr_idn and hr_ipt, the global
 * index of every site and its boundary bits (hr_gpu_edge_flags); built on
 * first use for the current geometry and rebuilt when it changes (gpu.h). Nothing in CPU
 * builds. */
#include "gpu.h"

#include <stdlib.h>

#include "hr_error.h"
#include "random_fields.h"

#if HR_GPU_ENABLED
static struct {
  int generation;   /* geometry_generation() the tables belong to; -1: none */
  int *sites[3];    /* glattice, glat_even, glat_odd: off[n] then len[n], n = gsize_gauge */
  int *iup, *idn, *ipt;
  uint64_t *glb; /* global index of every stored element of glattice */
  unsigned char *edge; /* boundary bits of every stored element of glattice */
} tab = {-1, {NULL, NULL, NULL}, NULL, NULL, NULL, NULL, NULL};

void hr_gpu_sites_release(void) {
  for (int k = 0; k < 3; k++) {
    hr_gpu_free(tab.sites[k]);
    tab.sites[k] = NULL;
  }
  hr_gpu_free(tab.iup);
  hr_gpu_free(tab.idn);
  hr_gpu_free(tab.ipt);
  hr_gpu_free(tab.glb);
  hr_gpu_free(tab.edge);
  tab.iup = tab.idn = tab.ipt = NULL;
  tab.glb = NULL;
  tab.edge = NULL;
  tab.generation = -1;
}

static int *device_ints(const int *h, size_t n) {
  int *d = (int *)hr_gpu_alloc(n * sizeof(int));
  hr_gpu_copy_to_device(d, h, n * sizeof(int));
  return d;
}

/* off/len of the stored elements of g: the piece (master or receive buffer) holding each
 * index, and for a copy the piece holding its master. */
static int *site_table(const geometry_descriptor *g) {
  const int n = g->gsize_gauge;
  int *off = malloc(2 * (size_t)n * sizeof(int)), *len = off + n;
  if (off == NULL) hr_error("out of memory for the device site tables");
  for (int e = 0; e < 2 * n; e++) off[e] = -1;
  for (int p = 0; p < g->total_gauge_master_pieces; p++)
    for (int ix = g->master_start[p]; ix <= g->master_end[p]; ix++) {
      off[ix - g->master_shift] = g->master_start[p] - g->master_shift;
      len[ix - g->master_shift] = g->master_end[p] - g->master_start[p] + 1;
    }
  for (int e = 0; e < n; e++)
    if (off[e] < 0) {
      const int m = master_index(e + g->master_shift) - g->master_shift;
      if (m >= 0 && m < n && off[m] >= 0) {
        off[e] = off[m];
        len[e] = len[m];
      }
    }
  int *d = device_ints(off, 2 * (size_t)n);
  free(off);
  return d;
}

static void tables_update(void) {
  hr_assert(geometry_initialized(), "device site tables requested before geometry_init");
  if (tab.generation == geometry_generation()) return;
  hr_gpu_sites_release();
  tab.sites[0] = site_table(&glattice);
  tab.sites[1] = site_table(&glat_even);
  tab.sites[2] = site_table(&glat_odd);
  const size_t nn = 4 * (size_t)geometry_total_sites();
  tab.iup = device_ints(hr_iup, nn);
  tab.idn = device_ints(hr_idn, nn);
  tab.ipt = device_ints(hr_ipt, (size_t)VOLUME);
  const int n = glattice.gsize_gauge;
  uint64_t *glb = malloc((size_t)n * sizeof(uint64_t));
  if (glb == NULL) hr_error("out of memory for the device site tables");
  for (int e = 0; e < n; e++) glb[e] = global_site_index(e + glattice.master_shift);
  tab.glb = (uint64_t *)hr_gpu_alloc((size_t)n * sizeof(uint64_t));
  hr_gpu_copy_to_device(tab.glb, glb, (size_t)n * sizeof(uint64_t));
  unsigned char *edge = malloc((size_t)(n > 0 ? n : 1));
  if (edge == NULL) hr_error("out of memory for the device site tables");
  for (int e = 0; e < n; e++) {
    int x[4];
    global_coordinates(x, e + glattice.master_shift);
    unsigned char bits = 0;
    for (int mu = 0; mu < 4; mu++) {
      if (x[mu] == GLB_SIZE[mu] - 1) bits |= (unsigned char)(1u << mu);
      if (x[mu] == 0) bits |= (unsigned char)(16u << mu);
    }
    edge[e] = bits;
  }
  tab.edge = (unsigned char *)hr_gpu_alloc((size_t)(n > 0 ? n : 1));
  hr_gpu_copy_to_device(tab.edge, edge, (size_t)n);
  free(edge);
  free(glb);
  tab.generation = geometry_generation();
}

hr_gpu_sites hr_gpu_sites_of(const geometry_descriptor *g) {
  tables_update();
  const int k = g == &glattice ? 0 : (g == &glat_even ? 1 : 2);
  hr_assert(g == &glattice || g == &glat_even || g == &glat_odd,
            "hr_gpu_sites_of: not one of glattice, glat_even, glat_odd");
  hr_gpu_sites s;
  s.off = tab.sites[k];
  s.len = tab.sites[k] + g->gsize_gauge;
  s.shift = g->master_shift;
  return s;
}
const int *hr_gpu_iup(void) { tables_update(); return tab.iup; }
const int *hr_gpu_idn(void) { tables_update(); return tab.idn; }
const int *hr_gpu_ipt(void) { tables_update(); return tab.ipt; }
const uint64_t *hr_gpu_global_index(void) { tables_update(); return tab.glb; }
const unsigned char *hr_gpu_edge_flags(void) { tables_update(); return tab.edge; }
#else
void hr_gpu_sites_release(void) {}
#endif
