/* dirac_fields.h -- the field types the Dirac operators act on (spinor_field,
 * spinor_field_flt, suNg_field, suNf_field of the fields component, fields.h). The operators
 * rely only on `ptr` (site 0 of the field's geometry is ptr[0], so _FIELD_AT / _4FIELD_AT
 * work) and `type` (the geometry descriptor) and act on the host copy. */
#ifndef DIRAC_FIELDS_H
#define DIRAC_FIELDS_H

#include "fields.h"
#include "geometry.h"
#include "suN_types.h"

#endif
