/* dirac_internal.h -- what the files of LibHR/Dirac share (not installed): the clover blocks
 * and their inverses as fields on glattice, the change notice of the links, and the backend
 * choice of the operators. */
#ifndef DIRAC_INTERNAL_H
#define DIRAC_INTERNAL_H

#include "clover.h"
#include "dirac.h"
#include "fields.h"
#include "field_kinds.h"
#include "gpu.h"
#include "linear_algebra.h"

/* The clover blocks 4 + m0 + C (inverse = 0) or their inverses (inverse = 1) for m0 as a
 * field on glattice, computed on the host if needed; NULL when csw = 0. */
const clover_field *clover_block_field(double m0, int inverse);
const clover_field_flt *clover_block_field_flt(double m0, int inverse);
/* Called by dirac_set_gauge_field: the links changed. */
void clover_links_changed(void);

/* 1 when the operators run on the GPU path (GPU builds with the GPU backend chosen for the
 * field operations, hr_backend_current()), 0 for the CPU loops. */
static inline int dirac_on_gpu(void) {
  return HR_GPU_ENABLED && hr_backend_current() == HR_BACKEND_GPU;
}

#endif
