/* linear_algebra_gpu.c -- the GPU path of the linear algebra: for every operation a kernel
 * (one thread per site of a piece: read the site values with read_gpu_*, apply the per-site
 * function of la_sites.h, write back) and a launcher that starts it once per piece with the
 * tuned block size. Reductions sum the per-site contributions of each chunk of
 * HR_REDUCE_CHUNK sites with the same halving tree as the CPU path, store the chunk sums, and
 * the host combines them (la_reduce.c). Written in the common subset of C11 and CUDA C++:
 * the host compiler builds it for the emulated backend, nvcc through linear_algebra_gpu_cuda.cu;
 * CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "la_sites.h"

/* Device address of the piece starting `off` sites into a field (NULL stays NULL). */
#define LA_BLK_(d, off) ((d) ? (d) + (off) : (d))

/* Kernel and launcher of a streaming operation with slot types T0..T3. */
#define LA_GPU_STREAM_(fn, kernel, site_fn, mask, T0, T1, T2, T3)                              \
  HR_KERNEL(kernel, la_args a, int n, T0 *b0, T1 *b1, T2 *b2, T3 *b3) {                        \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      if (i < n) {                                                                             \
        T0 v0;                                                                                 \
        T1 v1;                                                                                 \
        T2 v2;                                                                                 \
        T3 v3;                                                                                 \
        if (LA_READS(mask, 0)) HR_CAT(read_gpu_, T0)(n, &v0, b0, i, 0);                        \
        if (LA_READS(mask, 1)) HR_CAT(read_gpu_, T1)(n, &v1, b1, i, 0);                        \
        if (LA_READS(mask, 2)) HR_CAT(read_gpu_, T2)(n, &v2, b2, i, 0);                        \
        if (LA_READS(mask, 3)) HR_CAT(read_gpu_, T3)(n, &v3, b3, i, 0);                        \
        site_fn(&a, &v0, &v1, &v2, &v3);                                                       \
        if (LA_WRITES(mask, 0)) HR_CAT(write_gpu_, T0)(n, &v0, b0, i, 0);                      \
        if (LA_WRITES(mask, 1)) HR_CAT(write_gpu_, T1)(n, &v1, b1, i, 0);                      \
        if (LA_WRITES(mask, 2)) HR_CAT(write_gpu_, T2)(n, &v2, b2, i, 0);                      \
        if (LA_WRITES(mask, 3)) HR_CAT(write_gpu_, T3)(n, &v3, b3, i, 0);                      \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
  void fn(la_args a, const geometry_descriptor *g, T0 *d0, T1 *d1, T2 *d2, T3 *d3) {           \
    _PIECE_FOR(g, ixp) {                                                                       \
      const int n = _PIECE_LENGTH(g, ixp);                                                     \
      const int off = g->master_start[ixp] - g->master_shift;                                  \
      HR_TUNED_LAUNCH(kernel, n, HR_TUNE_STREAMING, a, n, LA_BLK_(d0, off), LA_BLK_(d1, off),  \
                      LA_BLK_(d2, off), LA_BLK_(d3, off));                                     \
    }                                                                                          \
  }

/* Kernel and launcher of a reduction with nres results per site. */
#define LA_GPU_REDUCE_(fn, kernel, site_fn, mask, nres, T0, T1, T2, T3)                        \
  HR_KERNEL(kernel, la_args a, int n, T0 *b0, T1 *b1, T2 *b2, T3 *b3, double *part) {          \
    HR_SHARED double s0[HR_REDUCE_MAX_BLOCK];                                                  \
    HR_SHARED double s1[HR_REDUCE_MAX_BLOCK];                                                  \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      double out[2] = {0, 0};                                                                  \
      if (i < n) {                                                                             \
        T0 v0;                                                                                 \
        T1 v1;                                                                                 \
        T2 v2;                                                                                 \
        T3 v3;                                                                                 \
        if (LA_READS(mask, 0)) HR_CAT(read_gpu_, T0)(n, &v0, b0, i, 0);                        \
        if (LA_READS(mask, 1)) HR_CAT(read_gpu_, T1)(n, &v1, b1, i, 0);                        \
        if (LA_READS(mask, 2)) HR_CAT(read_gpu_, T2)(n, &v2, b2, i, 0);                        \
        if (LA_READS(mask, 3)) HR_CAT(read_gpu_, T3)(n, &v3, b3, i, 0);                        \
        site_fn(&a, &v0, &v1, &v2, &v3, out);                                                  \
        if (LA_WRITES(mask, 0)) HR_CAT(write_gpu_, T0)(n, &v0, b0, i, 0);                      \
        if (LA_WRITES(mask, 1)) HR_CAT(write_gpu_, T1)(n, &v1, b1, i, 0);                      \
        if (LA_WRITES(mask, 2)) HR_CAT(write_gpu_, T2)(n, &v2, b2, i, 0);                      \
        if (LA_WRITES(mask, 3)) HR_CAT(write_gpu_, T3)(n, &v3, b3, i, 0);                      \
      }                                                                                        \
      s0[t] = out[0];                                                                          \
      s1[t] = out[1];                                                                          \
    }                                                                                          \
    HR_SYNC_THREADS();                                                                         \
    for (int h = HR_REDUCE_CHUNK / 2; h > 0; h >>= 1) {                                        \
      HR_THREAD_LOOP(t) {                                                                      \
        if ((t & (HR_REDUCE_CHUNK - 1)) < h) {                                                 \
          s0[t] += s0[t + h];                                                                  \
          if ((nres) > 1) s1[t] += s1[t + h];                                                  \
        }                                                                                      \
      }                                                                                        \
      HR_SYNC_THREADS();                                                                       \
    }                                                                                          \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      if ((t & (HR_REDUCE_CHUNK - 1)) == 0 && i < n) {                                         \
        const int c = i / HR_REDUCE_CHUNK;                                                     \
        part[2 * c] = s0[t];                                                                   \
        part[2 * c + 1] = s1[t];                                                               \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
  void fn(la_args a, const geometry_descriptor *g, T0 *d0, T1 *d1, T2 *d2, T3 *d3,             \
          double *res) {                                                                       \
    const int nchunks = la_count_chunks(g);                                                    \
    double *dpart = la_device_partials(2 * nchunks);                                           \
    int base = 0;                                                                              \
    _PIECE_FOR(g, ixp) {                                                                       \
      const int n = _PIECE_LENGTH(g, ixp);                                                     \
      const int off = g->master_start[ixp] - g->master_shift;                                  \
      HR_TUNED_LAUNCH(kernel, n, HR_TUNE_REDUCTION, a, n, LA_BLK_(d0, off), LA_BLK_(d1, off),  \
                      LA_BLK_(d2, off), LA_BLK_(d3, off), dpart + 2 * base);                   \
      base += la_piece_chunks(n);                                                              \
    }                                                                                          \
    double *hpart = la_host_partials(2 * nchunks);                                             \
    hr_gpu_copy_to_host(hpart, dpart, (size_t)(2 * nchunks) * sizeof(double));                 \
    la_sum_partials(hpart, nchunks, nres, res);                                                \
  }

#define LA_GPU_S_F_(name, mask)                                                                \
  LA_GPU_STREAM_(la_gpu_##name##_f, la_kernel_##name##_f, la_site_##name##_f, mask,            \
                 suNf_spinor, suNf_spinor, suNf_spinor, suNf_spinor)
#define LA_GPU_S_FLT_(name, mask)                                                              \
  LA_GPU_STREAM_(la_gpu_##name##_f_flt, la_kernel_##name##_f_flt, la_site_##name##_f_flt,      \
                 mask, suNf_spinor_flt, suNf_spinor_flt, suNf_spinor_flt, suNf_spinor_flt)
#define LA_GPU_R_F_(name, mask, nres)                                                          \
  LA_GPU_REDUCE_(la_gpu_##name##_f, la_kernel_##name##_f, la_site_##name##_f, mask, nres,      \
                 suNf_spinor, suNf_spinor, suNf_spinor, suNf_spinor)
#define LA_GPU_R_FLT_(name, mask, nres)                                                        \
  LA_GPU_REDUCE_(la_gpu_##name##_f_flt, la_kernel_##name##_f_flt, la_site_##name##_f_flt,      \
                 mask, nres, suNf_spinor_flt, suNf_spinor_flt, suNf_spinor_flt,                \
                 suNf_spinor_flt)

LA_STREAMING_OPS(LA_GPU_S_F_)
LA_STREAMING_OPS(LA_GPU_S_FLT_)
LA_REDUCTION_OPS(LA_GPU_R_F_)
LA_REDUCTION_OPS(LA_GPU_R_FLT_)
LA_GPU_STREAM_(la_gpu_to_flt, la_kernel_to_flt, la_site_to_flt, LA_MASK_to_flt, suNf_spinor_flt,
               suNf_spinor, suNf_spinor, suNf_spinor)
LA_GPU_STREAM_(la_gpu_to_dbl, la_kernel_to_dbl, la_site_to_dbl, LA_MASK_to_dbl, suNf_spinor,
               suNf_spinor_flt, suNf_spinor, suNf_spinor)

#else
/* Nothing to build without a GPU backend. */
typedef int hr_linear_algebra_gpu_unused;
#endif
