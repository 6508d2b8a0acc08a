/* observables_gpu.c -- the kernels of the GPU path of the gauge observables and their
 * launchers (observables_gpu.h): one thread per master site of a piece, launched once per
 * piece of glattice with the tuned block size, evaluating the per-site functions of
 * observables_sites.h on the device copy of the links (neighbours found through device
 * copies of the neighbour and piece tables); the Polyakov kernel has one thread per spatial
 * site. Written in the common subset of C11 and CUDA C++: the host compiler builds it for the
 * emulated backend, nvcc through observables_gpu_cuda.cu; CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "observables_gpu.h"

HR_KERNEL(obs_plaquette_kernel, obs_gauge_view v, int start, int n, int which, double *out) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      const int ix = start + i;
      out[ix - v.shift] = obs_site_plaquettes(&v, ix, which);
    }
  }
}

HR_KERNEL(obs_action_kernel, obs_gauge_view v, int start, int n, int open_bc_t, double *w,
          double *e, double *q) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      const int ix = start + i, el = ix - v.shift;
      obs_site_action(&w[el], &e[el], &q[el], &v, ix, open_bc_t);
    }
  }
}

HR_KERNEL(obs_flow_parts_kernel, obs_gauge_view v, int start, int n, int open_bc_t,
          double *r) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      const int ix = start + i;
      obs_site_flow_parts(&r[4 * (ix - v.shift)], &v, ix, open_bc_t);
    }
  }
}

HR_KERNEL(obs_polyakov_kernel, obs_gauge_view v, const int *ipt, int vs, int nt, int start_new,
          suNg *line, double *re, double *im) {
  HR_THREAD_LOOP(t) {
    const int s = HR_THREAD_INDEX(t);
    if (s < vs) {
      obs_polyakov_line(&line[s], &v, ipt, vs, s, nt, start_new);
      if (re != NULL) obs_trace_parts(&re[s], &im[s], &line[s]);
    }
  }
}

/* Launch `kernel` once per piece of g, one thread per master site: its arguments are the view
 * *v, the piece's first site and length, then those given. */
#define OBS_LAUNCH_PER_PIECE_(kernel, g, v, ...)                                               \
  _PIECE_FOR(g, ixp) {                                                                         \
    const int n = _PIECE_LENGTH(g, ixp);                                                       \
    HR_TUNED_LAUNCH(kernel, n, HR_TUNE_STREAMING, *(v), (g)->master_start[ixp], n,             \
                    __VA_ARGS__);                                                              \
  }

void obs_gpu_plaquettes(double *out, const obs_gauge_view *v, const geometry_descriptor *g,
                        int which) {
  OBS_LAUNCH_PER_PIECE_(obs_plaquette_kernel, g, v, which, out);
}

void obs_gpu_action(double *w, double *e, double *q,
                    const obs_gauge_view *v, const geometry_descriptor *g, int open_bc_t) {
  OBS_LAUNCH_PER_PIECE_(obs_action_kernel, g, v, open_bc_t, w, e, q);
}

void obs_gpu_flow_parts(double *r, const obs_gauge_view *v, const geometry_descriptor *g,
                        int open_bc_t) {
  OBS_LAUNCH_PER_PIECE_(obs_flow_parts_kernel, g, v, open_bc_t, r);
}

void obs_gpu_polyakov(suNg *line, double *re, double *im, const obs_gauge_view *v, const int *ipt,
                      int vs, int nt, int start_new) {
  HR_TUNED_LAUNCH(obs_polyakov_kernel, vs, HR_TUNE_STREAMING, *v, ipt, vs, nt, start_new, line,
                  re, im);
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_observables_gpu_unused;
#endif
