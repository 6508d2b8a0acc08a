/* linear_algebra_gpu.c -- the GPU path of the field algebra: for every operation and every
 * kind that offers it (the lists of linear_algebra.h) a kernel (one thread per site of a
 * piece, applying the per-site function of la_sites.h to the device layout in place) and a
 * launcher that starts it once per piece with the tuned block size. Reductions store the
 * per-site contributions on the device and sum them exactly there (reduction.h).
 * Written in the common subset of C11 and CUDA C++: the host compiler builds it for the
 * emulated backend, nvcc through linear_algebra_gpu_cuda.cu; CPU builds compile nothing from
 * it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "la_sites.h"
#include "reduction.h"

/* Device address of the piece starting `off` reals into a field (NULL stays NULL). */
#define LA_BLK_(d, off) ((d) ? (d) + (off) : (d))

/* Kernel and launcher of streaming operation op on kind (nr reals per site, w per unit): one
 * thread per site of a piece of n sites; the site's units lie w n reals apart (gpu.h), so the
 * per-site function reads and writes the device copy in place, coalesced across threads. */
#define LA_GPU_S1_(op, mask, kind, R, nr, w, sfx)                                              \
  HR_KERNEL(la_kernel_##op##_##kind, la_args a, int n, R *b0, R *b1, R *b2, R *b3) {           \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      if (i < n) {                                                                             \
        const int o = (w) * i;                                                                 \
        HR_CAT(la_site_##op##_, sfx)(&a, nr, w, (w) * n, LA_BLK_(b0, o), LA_BLK_(b1, o),       \
                                     LA_BLK_(b2, o), LA_BLK_(b3, o));                          \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
  void la_gpu_##op##_##kind(la_args a, const geometry_descriptor *g, R *d0, R *d1, R *d2,      \
                            R *d3) {                                                           \
    _PIECE_FOR(g, ixp) {                                                                       \
      const int n = _PIECE_LENGTH(g, ixp);                                                     \
      const size_t off = (size_t)(g->master_start[ixp] - g->master_shift) * (size_t)(nr);      \
      HR_TUNED_LAUNCH(la_kernel_##op##_##kind, n, HR_TUNE_STREAMING, a, n, LA_BLK_(d0, off),   \
                      LA_BLK_(d1, off), LA_BLK_(d2, off), LA_BLK_(d3, off));                   \
    }                                                                                          \
  }

/* Kernel and launcher of a reduction with nres results per site: each thread writes the
 * contributions of its site to part[nres i + k]; they are summed exactly on the device
 * (hr_gpu_sum_exact_n, reduction.h: only the limb sums reach the host), the same sum as on the
 * CPU path, so both paths agree bit for bit whatever the block size. */
#define LA_GPU_R1_(op, mask, nres, kind, R, nr, w, sfx)                                        \
  HR_KERNEL(la_kernel_##op##_##kind, la_args a, int n, R *b0, R *b1, R *b2, R *b3,             \
            double *part) {                                                                    \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      if (i < n) {                                                                             \
        const int o = (w) * i;                                                                 \
        double out[2] = {0, 0};                                                                \
        HR_CAT(la_site_##op##_, sfx)(out, &a, nr, w, (w) * n, LA_BLK_(b0, o), LA_BLK_(b1, o),  \
                                     LA_BLK_(b2, o), LA_BLK_(b3, o));                          \
        for (int k = 0; k < (nres); k++) part[(nres) * i + k] = out[k];                        \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
  void la_gpu_##op##_##kind(la_args a, const geometry_descriptor *g, R *d0, R *d1, R *d2,      \
                            R *d3, double *res) {                                              \
    const long nsites = la_count_sites(g);                                                     \
    double *dpart = la_device_partials((nres) * nsites);                                       \
    long base = 0;                                                                             \
    _PIECE_FOR(g, ixp) {                                                                       \
      const int n = _PIECE_LENGTH(g, ixp);                                                     \
      const size_t off = (size_t)(g->master_start[ixp] - g->master_shift) * (size_t)(nr);      \
      HR_TUNED_LAUNCH(la_kernel_##op##_##kind, n, HR_TUNE_STREAMING, a, n, LA_BLK_(d0, off),   \
                      LA_BLK_(d1, off), LA_BLK_(d2, off), LA_BLK_(d3, off),                    \
                      dpart + (nres) * base);                                                  \
      base += n;                                                                               \
    }                                                                                          \
    hr_gpu_sum_exact_n(res, dpart, nsites, nres);                                              \
  }

#define LA_GPU_S_(op, shape, needs, mask, kind, alg, R, nr, w, sfx)                            \
  HR_LA_PICK(needs, alg, LA_GPU_S1_, HR_LA_NONE)(op, mask, kind, R, nr, w, sfx)
#define LA_GPU_R_(op, shape, needs, mask, nres, kind, alg, R, nr, w, sfx)                      \
  HR_LA_PICK(needs, alg, LA_GPU_R1_, HR_LA_NONE)(op, mask, nres, kind, R, nr, w, sfx)
#define LA_GPU_KIND_(kind, site, nlinks, layout, unit, alg)                                    \
  HR_LA_STREAMING_OPS(LA_GPU_S_, kind, alg, LA_REAL(unit), LA_NREAL(site, nlinks, unit),       \
                      LA_W(unit), LA_TAG(unit))                                                \
  HR_LA_REDUCTION_OPS(LA_GPU_R_, kind, alg, LA_REAL(unit), LA_NREAL(site, nlinks, unit),       \
                      LA_W(unit), LA_TAG(unit))
HR_FIELD_KINDS(LA_GPU_KIND_)

/* Precision conversions of the kinds with a single-precision twin (nr reals per site, from
 * the kind's hr_field_kind_info, as a kernel argument). Every such kind has complex units, so
 * the kernel moves each unit as one access (w = 2 known to the compiler, la_sites.h); the
 * caller (linear_algebra.c) stops with a message for a twin of a real kind. */
#define LA_GPU_CONVERT_(name, site_fn, R_OUT, R_IN, K_IN)                                      \
  HR_KERNEL(la_kernel_##name, int n, int nr, R_OUT *b0, const R_IN *b1) {                      \
    HR_THREAD_LOOP(t) {                                                                        \
      const int i = HR_THREAD_INDEX(t);                                                        \
      if (i < n) site_fn(b0 + 2 * i, b1 + 2 * i, nr, 2, 2 * n);                                \
    }                                                                                          \
  }                                                                                            \
  void la_gpu_##name(const geometry_descriptor *g, R_OUT *d0, const R_IN *d1) {                \
    const int nr = hr_kind_##K_IN.nlinks * hr_kind_##K_IN.units * 2;                           \
    _PIECE_FOR(g, ixp) {                                                                       \
      const int n = _PIECE_LENGTH(g, ixp);                                                     \
      const size_t off = (size_t)(g->master_start[ixp] - g->master_shift) * (size_t)nr;        \
      HR_TUNED_LAUNCH(la_kernel_##name, n, HR_TUNE_STREAMING, n, nr, d0 + off, d1 + off);      \
    }                                                                                          \
  }
#define LA_GPU_PAIR_(kind, kind_flt)                                                           \
  LA_GPU_CONVERT_(to_flt_##kind, la_site_to_flt, float, double, kind)                          \
  LA_GPU_CONVERT_(to_dbl_##kind_flt, la_site_to_dbl, double, float, kind_flt)
HR_FIELD_KIND_PAIRS(LA_GPU_PAIR_)

#else
/* Nothing to build without a GPU backend. */
typedef int hr_linear_algebra_gpu_unused;
#endif
