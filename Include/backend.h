/* backend.h -- where field operations run: the one switch that every component consults
 * (linear algebra, Dirac operators, observables, heatbath, and the HMC to come).
 *
 *   HR_BACKEND_CPU  host loops over the host copies (any build)
 *   HR_BACKEND_GPU  kernels over the device copies (CUDA or emulated GPU builds only)
 *
 * The default is the GPU in GPU builds and the CPU otherwise. hr_backend_set changes the
 * choice for the calls that follow (tests compare the two paths this way); a Dirac operator
 * can also carry its own choice (dirac_op.backend, dirac.h). Every operation brings the
 * copies it reads to its side first and marks the fields it writes current there only
 * (fields.h), so mixing the backends never reads stale data.
 * Implemented in: Memory/backend.c. */
#ifndef BACKEND_H
#define BACKEND_H

#ifdef __cplusplus
extern "C" {
#endif

/* Where an operation runs. */
typedef enum {
  HR_BACKEND_DEFAULT = 0, /* the global choice (hr_backend_current) */
  HR_BACKEND_CPU = 1,     /* host copies */
  HR_BACKEND_GPU = 2      /* device copies (GPU builds only) */
} hr_backend;

/* Choose the backend of the following calls (HR_BACKEND_DEFAULT: the build's default); stops
 * with a message when HR_BACKEND_GPU is asked for in a build without GPU backend. Returns the
 * previous choice, so that a caller can restore it. */
hr_backend hr_backend_set(hr_backend b);
/* The backend calls run on now: HR_BACKEND_CPU or HR_BACKEND_GPU. */
hr_backend hr_backend_current(void);
/* The backend a call with its own choice b runs on: b itself, or the global choice when b
 * is HR_BACKEND_DEFAULT (stops on HR_BACKEND_GPU in a build without GPU backend). */
hr_backend hr_backend_resolve(hr_backend b);
/* 1 when the backend a call with choice b runs on is the GPU. */
static inline int hr_backend_on_gpu(hr_backend b) { return hr_backend_resolve(b) == HR_BACKEND_GPU; }

#ifdef __cplusplus
}
#endif

#endif
