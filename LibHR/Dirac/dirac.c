/* dirac.c -- module state of the Dirac operators (links packed for the CPU hopping loop in
 * both precisions; in GPU builds the single-precision links with a device copy and the device
 * site and neighbour tables of the GPU path; the overlap switch) and the operators of dirac.h
 * in double and single precision, instantiated from dirac_ops_template.c on the per-site
 * kernels of dirac_site.h. */
#include "dirac.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "dirac_gpu.h"
#include "dirac_internal.h"
#include "dirac_site.h"
#include "geometry.h"
#include "hr_error.h"
#include "suN.h"

static const suNf_field *links = NULL;
/* Links packed for the CPU hopping loop: 8 per master site ix of glattice, at 8 (ix -
 * glattice.master_shift): U_mu(x) for mu = 0..3, then U_mu(x - mu), so that the loop reads
 * them as one contiguous stream. Both precisions. */
static suNf *pack = NULL;
static suNf_flt *pack_flt = NULL;
static int pack_len = 0;
static int dirac_overlap = 1;
/* geometry_generation() the module's temporaries and clover fields were made for */
static int made_for_geometry = -1;

#if HR_GPU_ENABLED
/* GPU path: the links rounded to single precision (all stored sites, with a device copy),
 * device site tables of glattice, glat_even, glat_odd (dirac_gpu.h) and neighbour tables. */
static suNf_field_flt *links_flt = NULL;
static int *dev_tab[3] = {NULL, NULL, NULL};
static int *dev_iup = NULL, *dev_idn = NULL;

/* Device table of geometry g: off[] then len[] for its gsize_gauge stored elements. */
static int *site_table_build(const geometry_descriptor *g) {
  const int n = g->gsize_gauge;
  int *t = malloc(2 * (size_t)n * sizeof(int));
  if (t == NULL) hr_error("out of memory for the GPU site tables");
  for (int e = 0; e < 2 * n; e++) t[e] = -1;
  for (int p = 0; p < g->total_gauge_master_pieces; p++)
    for (int ix = g->master_start[p]; ix <= g->master_end[p]; ix++) {
      t[ix - g->master_shift] = g->master_start[p] - g->master_shift;
      t[n + ix - g->master_shift] = g->master_end[p] - g->master_start[p] + 1;
    }
  int *d = hr_gpu_alloc(2 * (size_t)n * sizeof(int));
  hr_gpu_copy_to_device(d, t, 2 * (size_t)n * sizeof(int));
  free(t);
  return d;
}

static void gpu_tables_free(void) {
  for (int k = 0; k < 3; k++) {
    hr_gpu_free(dev_tab[k]);
    dev_tab[k] = NULL;
  }
  hr_gpu_free(dev_iup);
  hr_gpu_free(dev_idn);
  dev_iup = dev_idn = NULL;
  free_suNf_field_flt(links_flt);
  links_flt = NULL;
}

/* (Re)build the tables for the current geometry and round the links to single precision. */
static void gpu_state_build(const suNf_field *uf) {
  gpu_tables_free();
  const geometry_descriptor *g[3] = {&glattice, &glat_even, &glat_odd};
  for (int k = 0; k < 3; k++) dev_tab[k] = site_table_build(g[k]);
  const size_t nn = 4 * (size_t)geometry_total_sites() * sizeof(int);
  dev_iup = hr_gpu_alloc(nn);
  dev_idn = hr_gpu_alloc(nn);
  hr_gpu_copy_to_device(dev_iup, hr_iup, nn);
  hr_gpu_copy_to_device(dev_idn, hr_idn, nn);
  links_flt = alloc_suNf_field_flt(1, &glattice);
  const suNf *u = sync_host_suNf_field(uf);
  suNf_flt *uflt = host_write_suNf_field_flt(links_flt);
  const int n = 4 * geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
  for (int k = 0; k < n; k++) suNf_to_flt(u + k, uflt + k);
}

static dirac_gpu_sites sites_of(const geometry_descriptor *g) {
  const int k = g == &glattice ? 0 : (g == &glat_even ? 1 : 2);
  dirac_gpu_sites s;
  s.off = dev_tab[k];
  s.len = dev_tab[k] + g->gsize_gauge;
  s.shift = g->master_shift;
  return s;
}

/* Arguments of a GPU application from fields on ig to fields on og (tables filled, the rest
 * zero: the caller sets fields and coefficients). */
static dirac_gpu_args dirac_gpu_args_for(const geometry_descriptor *og,
                                         const geometry_descriptor *ig) {
  dirac_gpu_args a;
  memset(&a, 0, sizeof a);
  a.osites = sites_of(og);
  a.isites = sites_of(ig);
  a.usites = sites_of(&glattice);
  a.iup = dev_iup;
  a.idn = dev_idn;
  return a;
}
static const suNf *gpu_links(void) { return sync_gpu_suNf_field(links); }
static const suNf_flt *gpu_links_flt(void) { return sync_gpu_suNf_field_flt(links_flt); }
#endif

static void dirac_release_fields(void);

void dirac_set_gauge_field(const suNf_field *uf) {
  hr_assert(uf != NULL && uf->type == &glattice,
            "dirac_set_gauge_field: the links must live on glattice");
  if (made_for_geometry != geometry_generation()) { /* a new geometry: drop old fields */
    dirac_release_fields();
    made_for_geometry = geometry_generation();
  }
  links = uf;
  const int np = 8 * geometry_field_size(&glattice, HR_LAYOUT_SPINOR);
  if (pack_len < np) {
    free(pack);
    free(pack_flt);
    pack = aligned_alloc(64, ((size_t)np * sizeof(suNf) + 63) / 64 * 64);
    pack_flt = aligned_alloc(64, ((size_t)np * sizeof(suNf_flt) + 63) / 64 * 64);
    if (pack == NULL || pack_flt == NULL) hr_error("out of memory for the packed links");
    pack_len = np;
  }
  const int sh = glattice.master_shift;
  sync_host_suNf_field(uf);
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      const int iz = idn(ix, mu);
      pack[8 * (ix - sh) + mu] = *_4FIELD_AT(uf, ix, mu);
      pack[8 * (ix - sh) + 4 + mu] = *_4FIELD_AT(uf, iz, mu);
    }
    for (int k = 0; k < 8; k++) suNf_to_flt(pack + 8 * (ix - sh) + k, pack_flt + 8 * (ix - sh) + k);
  }
#if HR_GPU_ENABLED
  gpu_state_build(uf);
#endif
  clover_links_changed();
}

const suNf_field *dirac_gauge_field(void) { return links; }
void dirac_set_comm_overlap(int on) { dirac_overlap = on != 0; }
int dirac_comm_overlap(void) { return dirac_overlap; }
long dirac_hop_flop_per_site(void) { return DIRAC_HOP_FLOP_PER_SITE(NF); }
long dirac_hop_bytes_per_site(int real_bytes) { return DIRAC_HOP_BYTES_PER_SITE(NF, real_bytes); }

/* Sites ahead whose neighbours the CPU hopping loop prefetches. */
#define DIRAC_PF_DIST 2

#define DOP_SFX
#define DOP_SPINOR suNf_spinor
#define DOP_MAT suNf
#define DOP_FIELD spinor_field
#define DOP_CLOVER suNf_clover
#define DOP_CLOVER_KIND clover_field
#define DOP_REAL double
#define DOP_LINKS() ((const suNf *)pack)
#define DOP_GPU_LINKS gpu_links
#define DOP_CLOVER_FIELD clover_block_field
#include "dirac_ops_template.c"

#define DOP_SFX _flt
#define DOP_SPINOR suNf_spinor_flt
#define DOP_MAT suNf_flt
#define DOP_FIELD spinor_field_flt
#define DOP_CLOVER suNf_clover_flt
#define DOP_CLOVER_KIND clover_field_flt
#define DOP_REAL float
#define DOP_LINKS() ((const suNf_flt *)pack_flt)
#define DOP_GPU_LINKS gpu_links_flt
#define DOP_CLOVER_FIELD clover_block_field_flt
#include "dirac_ops_template.c"

/* Free the temporaries and clover fields (they live on the geometry they were made for). */
static void dirac_release_fields(void) {
  tmp_field(-1, NULL);
  tmp_field_flt(-1, NULL);
  clover_finalize();
}

void dirac_finalize(void) {
  dirac_release_fields();
  free(pack);
  free(pack_flt);
  pack = NULL;
  pack_flt = NULL;
  pack_len = 0;
  links = NULL;
#if HR_GPU_ENABLED
  gpu_tables_free();
#endif
}
