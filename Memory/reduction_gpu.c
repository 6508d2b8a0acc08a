/* reduction_gpu.c -- the device kernels of the exact sums (reduction.h, reduction_sites.h):
 * the largest magnitude of each interleaved sum, and the integer limb sums, each as partial
 * results per block (one launch per segment, every thread first combining its share of the
 * rows) and one final single-block launch, so that only k doubles and 4 k integers come to
 * the host, whatever the number of values; for one process, in one copy (the scales computed
 * on the device). Maxima and integer sums do not depend on the order, so the block size
 * (tuned) and the shares never change a result. Written in the common subset of C11 and CUDA
 * C++: the host compiler builds it for the emulated backend, nvcc through
 * reduction_gpu_cuda.cu; CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include <string.h>

#include "gpu.h"
#include "reduction_sites.h"

/* Threads of one launch over a segment at most: each thread first combines its share of the
 * rows (rows g, g + L, g + 2 L, ... for L threads: maxima and integer sums, so the share never
 * changes a result), then the threads of each block combine theirs. */
#define RX_MAX_THREADS (1 << 17)
/* Threads launched over a segment of n rows, and the rows of partial results reserved for
 * them: one per block of the smallest size the tuner hands out (a warp). */
static int rx_threads(long n) { return n < RX_MAX_THREADS ? (int)n : RX_MAX_THREADS; }
static long rx_slots(long n) { return (rx_threads(n) + HR_WARP - 1) / HR_WARP; }

/* Combination of the NS arrays s[q][0 .. dim-1] into s[q][0] for any block size dim (not only
 * powers of two): a halving tree whose partners at or beyond dim count as neutral. */
#define RX_TREE_(NS, s, OP)                                                                    \
  do {                                                                                         \
    int p2_ = 1;                                                                               \
    while (p2_ < HR_BLOCK_DIM()) p2_ <<= 1;                                                    \
    for (int h_ = p2_ / 2; h_ > 0; h_ >>= 1) {                                                 \
      HR_THREAD_LOOP(t) {                                                                      \
        if (t < h_ && t + h_ < HR_BLOCK_DIM())                                                 \
          for (int q_ = 0; q_ < (NS); q_++) s[q_][t] = OP(s[q_][t], s[q_][t + h_]);            \
      }                                                                                        \
      HR_SYNC_THREADS();                                                                       \
    }                                                                                          \
  } while (0)
#define RX_MAX_(a, b) ((b) > (a) ? (b) : (a))
#define RX_ADD_(a, b) ((a) + (b))

/* Block 0 of a launch of L threads zeroes the reserved rows (w numbers each) beyond those of
 * the launched blocks: the neutral element of both reductions, so the final kernel may read
 * all rx_slots(L) rows whatever the block size. */
#define RX_ZERO_UNUSED_ROWS_(part, L, w)                                                       \
  HR_THREAD_LOOP(t) {                                                                          \
    if (HR_BLOCK_INDEX() == 0) {                                                               \
      const long used_ = ((L) + HR_BLOCK_DIM() - 1) / HR_BLOCK_DIM();                          \
      const long rows_ = ((L) + HR_WARP - 1) / HR_WARP;                                        \
      for (long i_ = used_ * (w) + t; i_ < rows_ * (w); i_ += HR_BLOCK_DIM()) part[i_] = 0;    \
    }                                                                                          \
  }

/* Partial maxima of rows [0, n) of v (k values per row) by L threads: block b writes
 * part[b k + j] = the largest hr_exact_magnitude(v[r k + j]) of its threads' rows. */
HR_KERNEL_ANY_BLOCK(rx_max_kernel, const double *v, int n, int L, int k, double *part) {
  HR_SHARED double m[HR_EXACT_MAX_SUMS][HR_REDUCE_MAX_BLOCK];
  RX_ZERO_UNUSED_ROWS_(part, L, k);
  HR_THREAD_LOOP(t) {
    const int g = HR_THREAD_INDEX(t);
    double a[HR_EXACT_MAX_SUMS] = {0, 0, 0, 0};
    for (long i = g; g < L && i < n; i += L) {
      HR_UNROLL
      for (int j = 0; j < HR_EXACT_MAX_SUMS; j++)
        if (j < k) a[j] = RX_MAX_(a[j], hr_exact_magnitude(v[i * k + j]));
    }
    HR_UNROLL
    for (int j = 0; j < HR_EXACT_MAX_SUMS; j++) m[j][t] = a[j];
  }
  HR_SYNC_THREADS();
  RX_TREE_(k, m, RX_MAX_);
  HR_THREAD_LOOP(t) {
    if (t == 0)
      for (int j = 0; j < k; j++) part[(long)HR_BLOCK_INDEX() * k + j] = m[j][0];
  }
}

/* Column maxima of rows x k numbers: big[j] = max over r of part[r k + j]; with scale (not
 * NULL) also the scales of the sums (hr_exact_scale; all 0 if a maximum is not finite, so
 * that the limb kernel skips every value). One block. */
HR_KERNEL_ANY_BLOCK(rx_max_final_kernel, const double *part, long rows, int k, double *big,
                    double *scale) {
  HR_SHARED double m[HR_EXACT_MAX_SUMS][HR_REDUCE_MAX_BLOCK];
  HR_THREAD_LOOP(t) {
    for (int j = 0; j < k; j++) {
      double a = 0.0;
      for (long r = t; r < rows; r += HR_BLOCK_DIM()) a = RX_MAX_(a, part[r * k + j]);
      m[j][t] = a;
    }
  }
  HR_SYNC_THREADS();
  RX_TREE_(k, m, RX_MAX_);
  HR_THREAD_LOOP(t) {
    if (t == 0) {
      int finite = 1;
      for (int j = 0; j < k; j++) {
        big[j] = m[j][0];
        finite = finite && m[j][0] <= 1.7976931348623157e308;
      }
      for (int j = 0; scale != NULL && j < k; j++) {
        int e;
        scale[j] = finite ? hr_exact_scale(m[j][0], &e) : 0.0;
      }
    }
  }
}

/* Partial limb sums of rows [0, n) of v by L threads: block b writes part[b 4k + 4 j + l] =
 * the sum over its threads' rows of limb l of v[r k + j] scale[j] (integers: exact in any
 * order; a sum of scale 0 adds nothing). scale: k doubles in device memory. */
HR_KERNEL_ANY_BLOCK(rx_limbs_kernel, const double *v, int n, int L, int k, const double *scale,
                    int64_t *part) {
  HR_SHARED int64_t s[HR_EXACT_LIMBS][HR_REDUCE_MAX_BLOCK];
  RX_ZERO_UNUSED_ROWS_(part, L, HR_EXACT_LIMBS * k);
  for (int j = 0; j < k; j++) {
    const double sc = scale[j];
    HR_THREAD_LOOP(t) {
      const int g = HR_THREAD_INDEX(t);
      int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      for (long i = g; sc != 0 && g < L && i < n; i += L)
        HR_EXACT_ACCUMULATE(v[i * k + j] * sc, a0, a1, a2, a3);
      s[0][t] = a0;
      s[1][t] = a1;
      s[2][t] = a2;
      s[3][t] = a3;
    }
    HR_SYNC_THREADS();
    RX_TREE_(HR_EXACT_LIMBS, s, RX_ADD_);
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
  HR_SHARED int64_t s[1][HR_REDUCE_MAX_BLOCK];
  for (int j = 0; j < w; j++) {
    HR_THREAD_LOOP(t) {
      int64_t a = 0;
      for (long r = t; r < rows; r += HR_BLOCK_DIM()) a += part[r * w + j];
      s[0][t] = a;
    }
    HR_SYNC_THREADS();
    RX_TREE_(1, s, RX_ADD_);
    HR_THREAD_LOOP(t) {
      if (t == 0) res[j] = s[0][0];
    }
    HR_SYNC_THREADS();
  }
}

/* The final results on the device (rx_res) and their page-locked host copy (rx_res_host), for
 * k sums: the k maxima, then right after them the 4 k limb sums (so that one copy of 40 k
 * bytes brings both), and at a fixed place the scales. */
#define RX_RES_DOUBLES ((1 + HR_EXACT_LIMBS + 1) * HR_EXACT_MAX_SUMS)
static double *rx_big(double *res) { return res; }
static int64_t *rx_limb(double *res, int k) { return (int64_t *)(res + k); }
static double *rx_scale(double *res) { return res + (1 + HR_EXACT_LIMBS) * HR_EXACT_MAX_SUMS; }
/* Grow-only device scratch: the partial rows (every row is written before it is read). */
static void *rx_part = NULL;
static size_t rx_part_bytes = 0;
static double *rx_res = NULL, *rx_res_host = NULL;

/* Rows of partial results reserved for the launches over seg (rx_slots), the scratch grown
 * to hold `row_bytes` for each. */
static long rx_rows(hr_exact_segments seg, size_t row_bytes) {
  long rows = 0;
  for (int q = 0; q < seg.n; q++) rows += rx_slots(seg.len[q]);
  const size_t bytes = (size_t)(rows > 0 ? rows : 1) * row_bytes;
  if (bytes > rx_part_bytes) {
    hr_gpu_free(rx_part);
    rx_part = hr_gpu_alloc(bytes);
    rx_part_bytes = bytes;
  }
  if (rx_res == NULL) {
    rx_res = (double *)hr_gpu_alloc(RX_RES_DOUBLES * sizeof(double));
    rx_res_host = (double *)hr_gpu_host_alloc(RX_RES_DOUBLES * sizeof(double));
  }
  return rows;
}

/* Launches of the maxima into rx_big(rx_res), and the scales into rx_scale(rx_res) when
 * `scales`. */
static void rx_launch_max(const double *v, hr_exact_segments seg, int k, int scales) {
  /* the scratch sized for the limb sums that follow (no reallocation between the two) */
  const long rows = rx_rows(seg, (size_t)(HR_EXACT_LIMBS * k) * sizeof(int64_t));
  double *part = (double *)rx_part;
  long row = 0;
  for (int q = 0; q < seg.n; q++) {
    const int n = (int)seg.len[q], L = rx_threads(n);
    HR_TUNED_LAUNCH(rx_max_kernel, L, HR_TUNE_REDUCTION, v + seg.off[q] * k, n, L, k,
                    part + row * k);
    row += rx_slots(n);
  }
  /* one block (a launch for 1 thread), of the size the tuner finds */
  HR_TUNED_LAUNCH(rx_max_final_kernel, 1, HR_TUNE_REDUCTION, part, rows, k, rx_big(rx_res),
                  scales ? rx_scale(rx_res) : NULL);
}

/* Launches of the limb sums with the scales of rx_scale(rx_res), into rx_limb(rx_res, k). */
static void rx_launch_limbs(const double *v, hr_exact_segments seg, int k) {
  const int w = HR_EXACT_LIMBS * k;
  const long rows = rx_rows(seg, (size_t)w * sizeof(int64_t));
  int64_t *part = (int64_t *)rx_part;
  long row = 0;
  for (int q = 0; q < seg.n; q++) {
    const int n = (int)seg.len[q], L = rx_threads(n);
    HR_TUNED_LAUNCH(rx_limbs_kernel, L, HR_TUNE_REDUCTION, v + seg.off[q] * k, n, L, k,
                    rx_scale(rx_res), part + row * w);
    row += rx_slots(n);
  }
  HR_TUNED_LAUNCH(rx_limbs_final_kernel, 1, HR_TUNE_REDUCTION, part, rows, w,
                  rx_limb(rx_res, k)); /* one block */
}

void hr_exact_gpu_max(double *big, const double *v, hr_exact_segments seg, int k) {
  rx_launch_max(v, seg, k, 0);
  hr_gpu_copy_to_host(rx_res_host, rx_res, (size_t)k * sizeof(double));
  memcpy(big, rx_big(rx_res_host), (size_t)k * sizeof(double));
}

void hr_exact_gpu_limbs(int64_t *limb, const double *v, hr_exact_segments seg, int k,
                        const double *scale) {
  rx_rows(seg, 1); /* the result buffers */
  memcpy(rx_scale(rx_res_host), scale, (size_t)k * sizeof(double));
  hr_gpu_copy_to_device(rx_scale(rx_res), rx_scale(rx_res_host), (size_t)k * sizeof(double));
  rx_launch_limbs(v, seg, k);
  const size_t bytes = (size_t)(HR_EXACT_LIMBS * k) * sizeof(int64_t);
  hr_gpu_copy_to_host(rx_limb(rx_res_host, k), rx_limb(rx_res, k), bytes);
  memcpy(limb, rx_limb(rx_res_host, k), bytes);
}

void hr_exact_gpu_local(double *big, int64_t *limb, const double *v, hr_exact_segments seg,
                        int k) {
  rx_launch_max(v, seg, k, 1);
  rx_launch_limbs(v, seg, k);
  const size_t lb = (size_t)(HR_EXACT_LIMBS * k) * sizeof(int64_t);
  hr_gpu_copy_to_host(rx_res_host, rx_res, (size_t)k * sizeof(double) + lb); /* big, limb */
  memcpy(big, rx_big(rx_res_host), (size_t)k * sizeof(double));
  memcpy(limb, rx_limb(rx_res_host, k), lb);
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_reduction_gpu_unused;
#endif
