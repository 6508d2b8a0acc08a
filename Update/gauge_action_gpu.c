/* gauge_action_gpu.c -- kernels of the GPU path of the gauge actions and their launchers
 * (gauge_action_gpu.h): one thread per master site of a piece runs the per-site function of
 * gauge_action_sites.h that the CPU loop of gauge_action.c runs (staples, force update,
 * action terms). Written in the common subset of C11 and CUDA C++: the host compiler builds
 * it for the emulated backend, nvcc through gauge_action_gpu_cuda.cu; CPU builds compile
 * nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "gauge_action_gpu.h"

HR_KERNEL(ga_staples_kernel, ga_fields f, int start, int n) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) ga_site_store_staples(&f, start + i);
  }
}

/* The force and action kernels, each in four variants: periodic (the per-site function gets
 * b = NULL and compiles without the boundary weights) or open (the weights of b), with the
 * plaquettes alone (rect = 0: the Wilson action; the rectangle code is not compiled in) or
 * with the rectangles. */
#define GA_FORCE_KERNEL(name, bptr, rect)                                                        \
  HR_KERNEL(name, ga_fields f, int start, int n, double c0, double c1, double coef,              \
            ga_boundary b) {                                                                     \
    (void)b;                                                                                     \
    HR_THREAD_LOOP(t) {                                                                          \
      const int i = HR_THREAD_INDEX(t);                                                          \
      if (i < n) ga_site_force_update(&f, start + i, rect, c0, c1, coef, bptr);                 \
    }                                                                                            \
  }
GA_FORCE_KERNEL(ga_force_kernel, NULL, 0)
/* the periodic rectangle force takes its weights (all 1) at run time too: with them known,
 * ptxas schedules it into 32 B of spills on sm_80 (none this way; Doc/gpu.md) */
GA_FORCE_KERNEL(ga_force_rect_kernel, &b, 1)
GA_FORCE_KERNEL(ga_force_open_kernel, &b, 0)
GA_FORCE_KERNEL(ga_force_rect_open_kernel, &b, 1)

#define GA_ACTION_KERNEL(name, bptr, rect)                                                       \
  HR_KERNEL(name, gauge_view v, int start, int n, double *plaq, double *rects, ga_boundary b) {  \
    (void)b;                                                                                     \
    HR_THREAD_LOOP(t) {                                                                          \
      const int i = HR_THREAD_INDEX(t);                                                          \
      if (i < n) {                                                                               \
        const int ix = start + i;                                                                \
        ga_site_action(&plaq[ix - v.shift], &rects[ix - v.shift], &v, ix, rect, bptr);          \
      }                                                                                          \
    }                                                                                            \
  }
GA_ACTION_KERNEL(ga_action_kernel, NULL, 0)
GA_ACTION_KERNEL(ga_action_rect_kernel, NULL, 1)
GA_ACTION_KERNEL(ga_action_open_kernel, &b, 0)
GA_ACTION_KERNEL(ga_action_rect_open_kernel, &b, 1)

/* Launch the variant of family `kind` (force or action) that open and rect select, once per
 * master piece of g (n the piece length), with the arguments after the piece's n. */
#define GA_LAUNCH_VARIANT_(kind, open, rect, g, ...)                                             \
  _PIECE_FOR(g, ixp) {                                                                           \
    const int n = _PIECE_LENGTH(g, ixp);                                                         \
    const int s = (g)->master_start[ixp];                                                        \
    if (open && rect)                                                                            \
      HR_TUNED_LAUNCH(ga_##kind##_rect_open_kernel, n, HR_TUNE_STREAMING, __VA_ARGS__);          \
    else if (open)                                                                               \
      HR_TUNED_LAUNCH(ga_##kind##_open_kernel, n, HR_TUNE_STREAMING, __VA_ARGS__);               \
    else if (rect)                                                                               \
      HR_TUNED_LAUNCH(ga_##kind##_rect_kernel, n, HR_TUNE_STREAMING, __VA_ARGS__);               \
    else                                                                                         \
      HR_TUNED_LAUNCH(ga_##kind##_kernel, n, HR_TUNE_STREAMING, __VA_ARGS__);                    \
  }

HR_KERNEL(ga_zero_open_momenta_kernel, ga_fields f, int start, int n) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n && ga_open_boundary_link(&f.u, start + i, 0)) {
      suNg_algebra_vector zero;
      suNg_algebra_vector_zero(&zero);
      ga_momentum_write(&f, start + i, 0, &zero);
    }
  }
}

void ga_gpu_zero_open_momenta(const ga_fields *f, const geometry_descriptor *g) {
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(ga_zero_open_momenta_kernel, n, HR_TUNE_STREAMING, *f, g->master_start[ixp],
                    n);
  }
}

void ga_gpu_store_staples(const ga_fields *f, const geometry_descriptor *g) {
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(ga_staples_kernel, n, HR_TUNE_STREAMING, *f, g->master_start[ixp], n);
  }
}

void ga_gpu_force_update(const ga_fields *f, const geometry_descriptor *g, int rect, double c0,
                         double c1, double coef, const ga_boundary *b) {
  GA_LAUNCH_VARIANT_(force, b->open, rect, g, *f, s, n, c0, c1, coef, *b);
}

void ga_gpu_action(double *plaq, double *rects, const gauge_view *v, const geometry_descriptor *g,
                   int rect, const ga_boundary *b) {
  GA_LAUNCH_VARIANT_(action, b->open, rect, g, *v, s, n, plaq, rects, *b);
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_gauge_action_gpu_unused;
#endif
