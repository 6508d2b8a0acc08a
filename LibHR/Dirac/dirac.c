/* dirac.c -- module state of the Dirac operators (links packed for the CPU hopping loop in
 * both precisions; in GPU builds the single-precision links with a device copy; the overlap
 * switch) and the operators of dirac.h
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
/* GPU path: the links rounded to single precision (all stored sites, with a device copy). */
static suNf_field_flt *links_flt = NULL;

static void gpu_links_free(void) {
  free_suNf_field_flt(links_flt);
  links_flt = NULL;
}

/* Round the links to single precision for the GPU path. */
static void gpu_links_build(const suNf_field *uf) {
  gpu_links_free();
  links_flt = alloc_suNf_field_flt(1, &glattice);
  const suNf *u = sync_host_suNf_field(uf);
  suNf_flt *uflt = host_write_suNf_field_flt(links_flt);
  const int n = 4 * geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
  for (int k = 0; k < n; k++) suNf_to_flt(u + k, uflt + k);
}

/* Arguments of a GPU application from fields on ig to fields on og (site and neighbour
 * tables filled, the rest zero: the caller sets fields and coefficients). */
static dirac_gpu_args dirac_gpu_args_for(const geometry_descriptor *og,
                                         const geometry_descriptor *ig) {
  dirac_gpu_args a;
  memset(&a, 0, sizeof a);
  a.osites = hr_gpu_sites_of(og);
  a.isites = hr_gpu_sites_of(ig);
  a.usites = hr_gpu_sites_of(&glattice);
  a.iup = hr_gpu_iup();
  a.idn = hr_gpu_idn();
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
  gpu_links_build(uf);
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
  gpu_links_free();
#endif
  hr_gpu_sites_release();
}
