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

#endif
