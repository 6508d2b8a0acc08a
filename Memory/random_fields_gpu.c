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

/* Kernel of Gaussian spinors of one precision (site type S, per-site draw FILL). */
#define RF_SPINOR_KERNEL_(name, S, FILL)                                                       \
  HR_KERNEL(name, S *blk, int n, int start, const uint64_t *glb, uint64_t seed, uint64_t draw) { \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      if (i < n) {                                                                             \
        hr_rng_stream st;                                                                      \
        S v;                                                                                   \
        rng_stream_init(&st, seed, draw, glb[start + i]);                                      \
        FILL(&st, &v);                                                                         \
        HR_CAT(write_gpu_, S)(n, &v, blk, i, 0);                                               \
      }                                                                                        \
    }                                                                                          \
  }
RF_SPINOR_KERNEL_(rf_spinor_kernel, suNf_spinor, random_gaussian_spinor_site)
RF_SPINOR_KERNEL_(rf_spinor_flt_kernel, suNf_spinor_flt, random_gaussian_spinor_flt_site)

HR_KERNEL(rf_momenta_kernel, suNg_algebra_vector *blk, int n, int start, const uint64_t *glb,
          uint64_t seed, uint64_t draw) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      for (int mu = 0; mu < 4; mu++) {
        hr_rng_stream st;
        suNg_algebra_vector v;
        rng_stream_init(&st, seed, draw, 4 * glb[start + i] + (uint64_t)mu);
        suNg_algebra_vector_random(&v, &st);
        write_gpu_suNg_algebra_vector(n, &v, blk, i, mu);
      }
    }
  }
}

/* start: element of the piece's first site in the glattice numbering of the index table. */
#define RF_PIECE_START_(g, ixp) ((g)->master_start[ixp] - glattice.master_shift)
#define RF_PIECE_BLK_(g, dev, ixp, nl) ((dev) + (nl) * ((g)->master_start[ixp] - (g)->master_shift))

/* Launcher of a kernel over the master sites of g, nl elements per site of dev. */
#define RF_LAUNCH_(kernel, g, dev, nl, seed, draw)                                             \
  do {                                                                                         \
    const uint64_t *glb_ = hr_gpu_global_index();                                              \
    _PIECE_FOR(g, ixp) {                                                                       \
      const int n_ = _PIECE_LENGTH(g, ixp);                                                    \
      HR_TUNED_LAUNCH(kernel, n_, HR_TUNE_STREAMING, RF_PIECE_BLK_(g, dev, ixp, nl), n_,       \
                      RF_PIECE_START_(g, ixp), glb_, seed, draw);                              \
    }                                                                                          \
  } while (0)

void random_gpu_spinor(const geometry_descriptor *g, suNf_spinor *dev, uint64_t seed,
                       uint64_t draw) {
  RF_LAUNCH_(rf_spinor_kernel, g, dev, 1, seed, draw);
}

void random_gpu_spinor_flt(const geometry_descriptor *g, suNf_spinor_flt *dev, uint64_t seed,
                           uint64_t draw) {
  RF_LAUNCH_(rf_spinor_flt_kernel, g, dev, 1, seed, draw);
}

void random_gpu_momenta(const geometry_descriptor *g, suNg_algebra_vector *dev, uint64_t seed,
                        uint64_t draw) {
  RF_LAUNCH_(rf_momenta_kernel, g, dev, 4, seed, draw);
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_random_fields_gpu_unused;
#endif
