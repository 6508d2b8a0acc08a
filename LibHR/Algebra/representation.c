/* representation.c -- names of the fermion representations and the error reported when a
 * generic SU(n) function gets a dimension it has no room for. */
#include "representation.h"
#include "hr_error.h"
#include "suN_generic.h"
#include <string.h>

void suN_dimension_error(int n, const char *func) {
  hr_error("%s: dimension n = %d is outside 2 .. %d (HR_SUN_NMAX); the generic SU(n) "
           "functions keep n x n matrices on the stack: use a smaller n or configure a "
           "larger --with-ng",
           func, n, HR_SUN_NMAX);
}

static const char *const repr_short_names[HR_NUM_REPRS] = {"fund", "adj", "2s", "2as"};
static const char *const repr_long_names[HR_NUM_REPRS] = {
    "fundamental", "adjoint", "two-index symmetric", "two-index antisymmetric"};

const char *repr_name(hr_repr r) {
  return ((unsigned)r < HR_NUM_REPRS) ? repr_short_names[r] : "unknown";
}

const char *repr_long_name(hr_repr r) {
  return ((unsigned)r < HR_NUM_REPRS) ? repr_long_names[r] : "unknown";
}

int repr_from_name(hr_repr *r, const char *name) {
  for (int i = 0; i < HR_NUM_REPRS; ++i)
    if (name != NULL && strcmp(name, repr_short_names[i]) == 0) {
      *r = (hr_repr)i;
      return 0;
    }
  return -1;
}
