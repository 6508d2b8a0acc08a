/* dirac.c -- module state of the Dirac operators (links packed for the hopping loop in both
 * precisions, overlap switch) and the operators of dirac.h in double and single precision,
 * instantiated from dirac_ops_template.c on the per-site kernels of dirac_site.h. */
#include "dirac.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "dirac_internal.h"
#include "dirac_site.h"
#include "geometry.h"
#include "hr_error.h"
#include "suN.h"

static const suNf_field *links = NULL;
/* Links packed for the hopping loop: 8 per master site ix of glattice, at 8 (ix -
 * glattice.master_shift): U_mu(x) for mu = 0..3, then U_mu(x - mu), so that the loop reads
 * them as one contiguous stream. Both precisions. */
static suNf *pack = NULL;
static suNf_flt *pack_flt = NULL;
static int pack_len = 0;
static int dirac_overlap = 1;

void dirac_set_gauge_field(const suNf_field *uf) {
  hr_assert(uf != NULL && uf->type == &glattice,
            "dirac_set_gauge_field: the links must live on glattice");
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
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      const int iz = idn(ix, mu);
      pack[8 * (ix - sh) + mu] = *_4FIELD_AT(uf, ix, mu);
      pack[8 * (ix - sh) + 4 + mu] = *_4FIELD_AT(uf, iz, mu);
    }
    for (int k = 0; k < 8; k++) suNf_to_flt(pack + 8 * (ix - sh) + k, pack_flt + 8 * (ix - sh) + k);
  }
  clover_links_changed();
}

const suNf_field *dirac_gauge_field(void) { return links; }
void dirac_set_comm_overlap(int on) { dirac_overlap = on != 0; }
int dirac_comm_overlap(void) { return dirac_overlap; }
long dirac_hop_flop_per_site(void) { return DIRAC_HOP_FLOP_PER_SITE(NF); }
long dirac_hop_bytes_per_site(int real_bytes) { return DIRAC_HOP_BYTES_PER_SITE(NF, real_bytes); }

static const suNf *pack_dbl(void) { return links != NULL ? pack : NULL; }
static const suNf_flt *pack_single(void) { return links != NULL ? pack_flt : NULL; }

/* Sites ahead whose neighbours the hopping loop prefetches. */
#define DIRAC_PF_DIST 2

/* Epilogues of the hopping loop (see dirac_ops_template.c). */
typedef enum { HOP_PLAIN, HOP_PLUS_DIAG, HOP_THEN_INV } hop_mode;

#define DOP_SFX
#define DOP_SPINOR suNf_spinor
#define DOP_MAT suNf
#define DOP_FIELD spinor_field
#define DOP_REAL double
#define DOP_CLOVER clover_site
#define DOP_CLOVER_MUL clover_site_mul
#define DOP_LINKS pack_dbl
#define DOP_CLOVER_BLK clover_blocks
#define DOP_CLOVER_INV clover_inverses
#include "dirac_ops_template.c"

#define DOP_SFX _flt
#define DOP_SPINOR suNf_spinor_flt
#define DOP_MAT suNf_flt
#define DOP_FIELD spinor_field_flt
#define DOP_REAL float
#define DOP_CLOVER clover_site_flt
#define DOP_CLOVER_MUL clover_site_flt_mul
#define DOP_LINKS pack_single
#define DOP_CLOVER_BLK clover_blocks_flt
#define DOP_CLOVER_INV clover_inverses_flt
#include "dirac_ops_template.c"

void dirac_finalize(void) {
  tmp_field(-1, NULL);
  tmp_field_flt(-1, NULL);
  free(pack);
  free(pack_flt);
  pack = NULL;
  pack_flt = NULL;
  pack_len = 0;
  links = NULL;
  clover_finalize();
}
