/* dirac_fields.h -- the field types the Dirac operators act on (spinor_field,
 * spinor_field_flt, suNf_field of fields.h). The operators bring each input to the side they
 * run on (host loops, or device kernels in GPU builds with the GPU backend chosen) and mark
 * the output written there, following the current-copy rule of fields.h.
 * Implemented in: LibHR/Dirac (header only). */
#ifndef DIRAC_FIELDS_H
#define DIRAC_FIELDS_H

#include "fields.h"
#include "geometry.h"
#include "suN_types.h"

#endif
