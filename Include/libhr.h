/* libhr.h -- includes every public header of LibHR. */
#ifndef LIBHR_H
#define LIBHR_H

#include "hr_build_config.h"
#include "hr_inline.h"
#include "hr_error.h"
#include "logger.h"
#include "input_file.h"
#include "hr_core.h"
#include "random.h"
#include "hr_complex.h"
#include "suN_types.h"
#include "suN.h"
#include "suN_random.h"
#include "representation.h"
#include "geometry.h"
#include "communications.h"
#include "field_kinds.h"
#include "fields.h"
#include "gpu.h"
#include "linear_algebra.h"
#include "random_fields.h"
#include "gamma.h"
#include "boundary_conditions.h"
#include "clover.h"
#include "dirac.h"
#include "inverters.h"
#include "propagator.h"
#include "observables.h"
#include "archive.h"
#include "heatbath.h"

#endif
