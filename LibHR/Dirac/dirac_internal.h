/* dirac_internal.h -- state shared by the files of LibHR/Dirac (not installed): the clover
 * blocks and their inverses per site, and the per-site clover
 * product written once for both precisions. */
#ifndef DIRAC_INTERNAL_H
#define DIRAC_INTERNAL_H

#include "clover.h"
#include "dirac.h"
#include "field_kinds.h"
#include "hr_inline.h"
#include "suN_types.h"

#define CLOVER_D_ CLOVER_BLOCK_DIM
/* The two blocks of one site (or their inverses), row-major: the clover site type of
 * field_kinds.h. */
typedef suNf_clover clover_site;
typedef suNf_clover_flt clover_site_flt;

/* Clover blocks / inverses for m0 (computed if needed), indexed by glattice site index;
 * NULL when csw = 0. */
const clover_site *clover_blocks(double m0);
const clover_site *clover_inverses(double m0);
const clover_site_flt *clover_blocks_flt(double m0);
const clover_site_flt *clover_inverses_flt(double m0);
/* Called by dirac_set_gauge_field: the links changed. */
void clover_links_changed(void);

/* out = M x for the two blocks M of one site (x, out spinors; out must not be x). */
#define CLOVER_SITE_MUL_DEF(NAME, SITE, SPINOR, CPLX)                                          \
  HR_INLINE void NAME(const SITE *m, const SPINOR *x, SPINOR *out) {                          \
    for (int ch = 0; ch < 2; ++ch)                                                             \
      for (int s = 0; s < 2; ++s)                                                              \
        for (int a = 0; a < NF; ++a) {                                                         \
          const CPLX *row = m->c[ch] + (s * NF + a) * CLOVER_D_;                               \
          CPLX acc = hr_cmul(row[0], x->c[2 * ch].c[0]);                                       \
          for (int b = 1; b < NF; ++b) acc += hr_cmul(row[b], x->c[2 * ch].c[b]);              \
          for (int b = 0; b < NF; ++b) acc += hr_cmul(row[NF + b], x->c[2 * ch + 1].c[b]);     \
          out->c[2 * ch + s].c[a] = acc;                                                       \
        }                                                                                      \
  }
CLOVER_SITE_MUL_DEF(clover_site_mul, clover_site, suNf_spinor, hr_complex)
CLOVER_SITE_MUL_DEF(clover_site_flt_mul, clover_site_flt, suNf_spinor_flt, hr_complex_flt)

#endif
