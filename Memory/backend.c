/* backend.c -- the global backend choice of backend.h. */
#include "backend.h"

#include "gpu.h"
#include "hr_error.h"

static hr_backend backend_choice = HR_BACKEND_DEFAULT;

static void backend_check(hr_backend b, const char *who) {
  if (b == HR_BACKEND_GPU && !HR_GPU_ENABLED)
    hr_error("%s: this build has no GPU backend (configure --enable-gpu=cuda or "
             "--enable-gpu=emulated)",
             who);
}

hr_backend hr_backend_set(hr_backend b) {
  backend_check(b, "hr_backend_set");
  const hr_backend old = backend_choice;
  backend_choice = b;
  return old;
}

hr_backend hr_backend_current(void) {
  if (backend_choice == HR_BACKEND_DEFAULT) return HR_GPU_ENABLED ? HR_BACKEND_GPU : HR_BACKEND_CPU;
  return backend_choice;
}

hr_backend hr_backend_resolve(hr_backend b) {
  if (b == HR_BACKEND_DEFAULT) return hr_backend_current();
  backend_check(b, "hr_backend_resolve");
  return b;
}
