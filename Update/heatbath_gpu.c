/* heatbath_gpu.c -- the kernels of the GPU path of the pure-gauge update and their launchers
 * (heatbath_gpu.h): one thread per master site of a piece, launched once per piece with the
 * tuned block size; a pass kernel updates link mu of its site with hb_update_link (staple
 * from the device copy of the links, neighbours through the device copies of the neighbour
 * and piece tables), a start kernel sets the four links of its site. Written in the common
 * subset of C11 and CUDA C++: the host compiler builds it for the emulated backend, nvcc
 * through heatbath_gpu_cuda.cu; CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "heatbath_gpu.h"

HR_KERNEL(hb_pass_kernel, gauge_view v, suNg *mem, int start, int n, int mu, hb_pass_params p,
          const uint64_t *glb) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      const int ix = start + i;
      hb_update_link(&v, mem, ix, mu, glb[ix - v.shift], &p);
    }
  }
}

HR_KERNEL(hb_start_kernel, gauge_view v, suNg *mem, int start, int n, int hot, uint64_t seed,
          uint64_t draw, const uint64_t *glb) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      const int ix = start + i;
      hb_start_site(&v, mem, ix, glb[ix - v.shift], hot, seed, draw);
    }
  }
}

void hb_gpu_pass(const gauge_view *v, suNg *mem, const geometry_descriptor *g, int mu,
                 const hb_pass_params *p, const uint64_t *glb) {
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(hb_pass_kernel, n, HR_TUNE_STREAMING, *v, mem, g->master_start[ixp], n, mu,
                    *p, glb);
  }
}

void hb_gpu_start(const gauge_view *v, suNg *mem, const geometry_descriptor *g, int hot,
                  uint64_t seed, uint64_t draw, const uint64_t *glb) {
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(hb_start_kernel, n, HR_TUNE_STREAMING, *v, mem, g->master_start[ixp], n,
                    hot, seed, draw, glb);
  }
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_heatbath_gpu_unused;
#endif
