/* linear_algebra_gpu.c -- the GPU path of the linear algebra: for every operation a kernel
 * (one thread per site of a piece: read the site values with read_gpu_*, apply the per-site
 * function of la_sites.h, write back) and a launcher that starts it once per piece with the
 * tuned block size. Reductions store the per-site contributions, which the host sums
 * exactly (reduction.h) like the CPU path. Written in the common subset of C11 and CUDA C++:
 * the host compiler builds it for the emulated backend, nvcc through linear_algebra_gpu_cuda.cu;
 * CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "la_sites.h"
#include "reduction.h"

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

/* Kernel and launcher of a reduction with nres results per site: each thread writes the
 * contributions of its site to part[nres i + k]; they are copied to the host and summed
 * exactly (reduction.h), as on the CPU path, so both paths agree bit for bit whatever the
 * block size. */
#define LA_GPU_REDUCE_(fn, kernel, site_fn, mask, nres, T0, T1, T2, T3)                        \
  HR_KERNEL(kernel, la_args a, int n, T0 *b0, T1 *b1, T2 *b2, T3 *b3, double *part) {          \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      if (i < n) {                                                                             \
        double out[2] = {0, 0};                                                                \
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
        for (int k = 0; k < (nres); k++) part[(nres) * i + k] = out[k];                        \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
  void fn(la_args a, const geometry_descriptor *g, T0 *d0, T1 *d1, T2 *d2, T3 *d3,             \
          double *res) {                                                                       \
    const long nsites = la_count_sites(g);                                                     \
    double *dpart = la_device_partials((nres) * nsites);                                       \
    long base = 0;                                                                             \
    _PIECE_FOR(g, ixp) {                                                                       \
      const int n = _PIECE_LENGTH(g, ixp);                                                     \
      const int off = g->master_start[ixp] - g->master_shift;                                  \
      HR_TUNED_LAUNCH(kernel, n, HR_TUNE_STREAMING, a, n, LA_BLK_(d0, off), LA_BLK_(d1, off),  \
                      LA_BLK_(d2, off), LA_BLK_(d3, off), dpart + (nres) * base);              \
      base += n;                                                                               \
    }                                                                                          \
    double *hpart = la_host_partials((nres) * nsites);                                         \
    hr_gpu_copy_to_host(hpart, dpart, (size_t)((nres) * nsites) * sizeof(double));             \
    global_sum_exact_n(hpart, nsites, nres, res);                                              \
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
