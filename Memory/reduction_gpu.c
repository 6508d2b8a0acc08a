/* reduction_gpu.c -- the device kernels of the exact sums (reduction.h, reduction_sites.h):
 * the largest finite |value| of each interleaved sum, and the integer limb sums, each as
 * per-block partial results of one launch per segment and one final single-block launch, so
 * that only k + 1 doubles and 4 k integers come to the host, whatever the number of values.
 * Maxima and integer sums do not depend on the order, so the block size (tuned) never
 * changes a result. Written in the common subset of C11 and CUDA C++: the host compiler
 * builds it for the emulated backend, nvcc through reduction_gpu_cuda.cu; CPU builds compile
 * nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include <string.h>

#include "gpu.h"
#include "reduction_sites.h"

/* Tree combination of s[0 .. dim-1] into s[0] for any block size dim (not only powers of
 * two): entries at or beyond dim count as the neutral element. OP(a, b) combines. */
#define RX_TREE_(s, OP)                                                                        \
  do {                                                                                         \
    int p2_ = 1;                                                                               \
    while (p2_ < HR_BLOCK_DIM()) p2_ <<= 1;                                                    \
    for (int h_ = p2_ / 2; h_ > 0; h_ >>= 1) {                                                 \
      HR_THREAD_LOOP(t) {                                                                      \
        if (t < h_ && t + h_ < HR_BLOCK_DIM()) s[t] = OP(s[t], s[t + h_]);                     \
      }                                                                                        \
      HR_SYNC_THREADS();                                                                       \
    }                                                                                          \
  } while (0)
#define RX_MAX_(a, b) ((b) > (a) ? (b) : (a))
#define RX_ADD_(a, b) ((a) + (b))

/* Partial maxima of rows [0, n) of v (k values per row): block b writes
 * part[b (k + 1) + j] = largest finite |v[r k + j]| of its rows, part[b (k + 1) + k] = 1 if one
 * of its values is not finite. */
HR_KERNEL_ANY_BLOCK(rx_max_kernel, const double *v, int n, int k, double *part) {
  HR_SHARED double m[HR_REDUCE_MAX_BLOCK];
  HR_SHARED double bad[HR_REDUCE_MAX_BLOCK];
  for (int j = 0; j < k; j++) {
    HR_THREAD_LOOP(t) {
      const long i = (long)HR_BLOCK_INDEX() * HR_BLOCK_DIM() + t;
      const double a = i < n ? hr_exact_finite_abs(v[i * k + j]) : 0.0;
      m[t] = a > 0 ? a : 0.0;
      const double b = a < 0 ? 1.0 : 0.0;
      bad[t] = j == 0 ? b : RX_MAX_(bad[t], b);
    }
    HR_SYNC_THREADS();
    RX_TREE_(m, RX_MAX_);
    HR_THREAD_LOOP(t) {
      if (t == 0) part[(long)HR_BLOCK_INDEX() * (k + 1) + j] = m[0];
    }
    HR_SYNC_THREADS();
  }
  RX_TREE_(bad, RX_MAX_);
  HR_THREAD_LOOP(t) {
    if (t == 0) part[(long)HR_BLOCK_INDEX() * (k + 1) + k] = bad[0];
  }
}

/* Column maxima of rows x w numbers: res[j] = max over r of part[r w + j] (one block). */
HR_KERNEL_ANY_BLOCK(rx_max_final_kernel, const double *part, long rows, int w, double *res) {
  HR_SHARED double m[HR_REDUCE_MAX_BLOCK];
  for (int j = 0; j < w; j++) {
    HR_THREAD_LOOP(t) {
      double a = 0.0;
      for (long r = t; r < rows; r += HR_BLOCK_DIM()) a = RX_MAX_(a, part[r * w + j]);
      m[t] = a;
    }
    HR_SYNC_THREADS();
    RX_TREE_(m, RX_MAX_);
    HR_THREAD_LOOP(t) {
      if (t == 0) res[j] = m[0];
    }
    HR_SYNC_THREADS();
  }
}

/* Partial limb sums of rows [0, n) of v: block b writes part[b 4k + 4 j + l] = sum over its
 * rows of limb l of v[r k + j] sc.s[j] (integers: exact in any order). */
HR_KERNEL_ANY_BLOCK(rx_limbs_kernel, const double *v, int n, int k, hr_exact_scales sc,
                    int64_t *part) {
  HR_SHARED int64_t s[HR_EXACT_LIMBS][HR_REDUCE_MAX_BLOCK];
  for (int j = 0; j < k; j++) {
    /* a selection, not an index into the parameter (which would put it on the stack) */
    const double scj = j == 0 ? sc.s[0] : j == 1 ? sc.s[1] : j == 2 ? sc.s[2] : sc.s[3];
    HR_THREAD_LOOP(t) {
      const long i = (long)HR_BLOCK_INDEX() * HR_BLOCK_DIM() + t;
      int32_t l[HR_EXACT_LIMBS] = {0, 0, 0, 0};
      if (i < n) hr_exact_split(v[i * k + j] * scj, l);
      s[0][t] = l[0];
      s[1][t] = l[1];
      s[2][t] = l[2];
      s[3][t] = l[3];
    }
    HR_SYNC_THREADS();
    for (int q = 0; q < HR_EXACT_LIMBS; q++) RX_TREE_(s[q], RX_ADD_);
    HR_THREAD_LOOP(t) {
      if (t < HR_EXACT_LIMBS)
        part[(long)HR_BLOCK_INDEX() * HR_EXACT_LIMBS * k + HR_EXACT_LIMBS * j + t] = s[t][0];
    }
    HR_SYNC_THREADS();
  }
}

/* Column sums of rows x w integers: res[j] = sum over r of part[r w + j] (one block). */
HR_KERNEL_ANY_BLOCK(rx_limbs_final_kernel, const int64_t *part, long rows, int w,
                    int64_t *res) {
  HR_SHARED int64_t s[HR_REDUCE_MAX_BLOCK];
  for (int j = 0; j < w; j++) {
    HR_THREAD_LOOP(t) {
      int64_t a = 0;
      for (long r = t; r < rows; r += HR_BLOCK_DIM()) a += part[r * w + j];
      s[t] = a;
    }
    HR_SYNC_THREADS();
    RX_TREE_(s, RX_ADD_);
    HR_THREAD_LOOP(t) {
      if (t == 0) res[j] = s[0];
    }
    HR_SYNC_THREADS();
  }
}

/* Grow-only device scratch: partial rows and the final results; the results come to the
 * host through page-locked memory (rx_res_host: one direct copy, no driver staging). */
static void *rx_part = NULL, *rx_res = NULL, *rx_res_host = NULL;
#define RX_RES_BYTES (HR_EXACT_LIMBS * HR_EXACT_MAX_SUMS * sizeof(int64_t))
static size_t rx_part_bytes = 0;

/* Rows of partial results the launches over seg may write: one per block of at least a warp
 * (the smallest block the tuner can hand out), zeroed (the neutral element of both
 * reductions) so that rows of unused blocks change nothing. */
static long rx_rows(hr_exact_segments seg, size_t row_bytes) {
  long rows = 0;
  for (int q = 0; q < seg.n; q++) rows += (seg.len[q] + HR_WARP - 1) / HR_WARP;
  const size_t bytes = (size_t)(rows > 0 ? rows : 1) * row_bytes;
  if (bytes > rx_part_bytes) {
    hr_gpu_free(rx_part);
    rx_part = hr_gpu_alloc(bytes);
    rx_part_bytes = bytes;
  }
  if (rx_res == NULL) {
    rx_res = hr_gpu_alloc(RX_RES_BYTES);
    rx_res_host = hr_gpu_host_alloc(RX_RES_BYTES);
  }
  hr_gpu_zero(rx_part, (size_t)rows * row_bytes);
  return rows;
}

/* The first `bytes` of the final results to `out`, through the page-locked buffer. */
static void rx_result_to_host(void *out, size_t bytes) {
  hr_gpu_copy_to_host(rx_res_host, rx_res, bytes);
  memcpy(out, rx_res_host, bytes);
}

void hr_exact_gpu_max(double *big, const double *v, hr_exact_segments seg, int k) {
  const int w = k + 1;
  const long rows = rx_rows(seg, (size_t)w * sizeof(double));
  double *part = (double *)rx_part, *res = (double *)rx_res;
  long row = 0;
  for (int q = 0; q < seg.n; q++) {
    const int n = (int)seg.len[q];
    HR_TUNED_LAUNCH(rx_max_kernel, n, HR_TUNE_REDUCTION, v + seg.off[q] * k, n, k,
                    part + row * w);
    row += (n + HR_WARP - 1) / HR_WARP;
  }
  HR_LAUNCH(rx_max_final_kernel, 1, HR_REDUCE_CHUNK, part, rows, w, res);
  rx_result_to_host(big, (size_t)w * sizeof(double));
}

void hr_exact_gpu_limbs(int64_t *limb, const double *v, hr_exact_segments seg, int k,
                        hr_exact_scales sc) {
  const int w = HR_EXACT_LIMBS * k;
  const long rows = rx_rows(seg, (size_t)w * sizeof(int64_t));
  int64_t *part = (int64_t *)rx_part, *res = (int64_t *)rx_res;
  long row = 0;
  for (int q = 0; q < seg.n; q++) {
    const int n = (int)seg.len[q];
    HR_TUNED_LAUNCH(rx_limbs_kernel, n, HR_TUNE_REDUCTION, v + seg.off[q] * k, n, k, sc,
                    part + row * w);
    row += (n + HR_WARP - 1) / HR_WARP;
  }
  HR_LAUNCH(rx_limbs_final_kernel, 1, HR_REDUCE_CHUNK, part, rows, w, res);
  rx_result_to_host(limb, (size_t)w * sizeof(int64_t));
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_reduction_gpu_unused;
#endif
