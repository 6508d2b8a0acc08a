/* random_fields_gpu.c -- kernels of the GPU path of the random fields and their launchers
 * (random_fields_gpu.h): one thread per master site of a piece starts the stream of its
 * global site (or link) from the device table of global indices (gpu.h) and draws its value
 * with the per-site functions of random_sites.h, as the CPU loop does. Written in the common
 * subset of C11 and CUDA C++: the host compiler builds it for the emulated backend, nvcc
 * through random_fields_gpu_cuda.cu; CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "gpu.h"
#include "random_fields_gpu.h"
#include "random_sites.h"

HR_KERNEL(rf_spinor_kernel, suNf_spinor *blk, int n, int start, const uint64_t *glb,
          uint64_t seed, uint64_t draw) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      hr_rng_stream st;
      suNf_spinor v;
      rng_stream_init(&st, seed, draw, glb[start + i]);
      random_gaussian_spinor_site(&st, &v);
      write_gpu_suNf_spinor(n, &v, blk, i, 0);
    }
  }
}

HR_KERNEL(rf_spinor_flt_kernel, suNf_spinor_flt *blk, int n, int start, const uint64_t *glb,
          uint64_t seed, uint64_t draw) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      hr_rng_stream st;
      suNf_spinor_flt v;
      rng_stream_init(&st, seed, draw, glb[start + i]);
      random_gaussian_spinor_flt_site(&st, &v);
      write_gpu_suNf_spinor_flt(n, &v, blk, i, 0);
    }
  }
}

HR_KERNEL(rf_momenta_kernel, suNg_algebra_vector *blk, int n, int start, const uint64_t *glb,
          uint64_t seed, uint64_t draw) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      for (int mu = 0; mu < 4; mu++) {
        hr_rng_stream st;
        suNg_algebra_vector v;
        rng_stream_init(&st, seed, draw, 4 * glb[start + i] + (uint64_t)mu);
        suNg_algebra_vector_random(&st, &v);
        write_gpu_suNg_algebra_vector(n, &v, blk, i, mu);
      }
    }
  }
}

/* start: element of the piece's first site in the glattice numbering of the index table. */
#define RF_PIECE_START_(g, ixp) ((g)->master_start[ixp] - glattice.master_shift)
#define RF_PIECE_BLK_(g, dev, ixp, nl) ((dev) + (nl) * ((g)->master_start[ixp] - (g)->master_shift))

void random_gpu_spinor(const geometry_descriptor *g, suNf_spinor *dev, uint64_t seed,
                       uint64_t draw) {
  const uint64_t *glb = hr_gpu_global_index();
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(rf_spinor_kernel, n, HR_TUNE_STREAMING, RF_PIECE_BLK_(g, dev, ixp, 1), n,
                    RF_PIECE_START_(g, ixp), glb, seed, draw);
  }
}

void random_gpu_spinor_flt(const geometry_descriptor *g, suNf_spinor_flt *dev, uint64_t seed,
                           uint64_t draw) {
  const uint64_t *glb = hr_gpu_global_index();
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(rf_spinor_flt_kernel, n, HR_TUNE_STREAMING, RF_PIECE_BLK_(g, dev, ixp, 1), n,
                    RF_PIECE_START_(g, ixp), glb, seed, draw);
  }
}

void random_gpu_momenta(const geometry_descriptor *g, suNg_algebra_vector *dev, uint64_t seed,
                        uint64_t draw) {
  const uint64_t *glb = hr_gpu_global_index();
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(rf_momenta_kernel, n, HR_TUNE_STREAMING, RF_PIECE_BLK_(g, dev, ixp, 4), n,
                    RF_PIECE_START_(g, ixp), glb, seed, draw);
  }
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_random_fields_gpu_unused;
#endif
