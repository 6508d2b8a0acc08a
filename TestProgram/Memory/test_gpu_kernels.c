/* test_gpu_kernels.c -- unit tests (Check) of the GPU layer of gpu.h that need no lattice:
 *   read_gpu_<type> / write_gpu_<type> for every site type put unit u of element comp of
 *     site ix at block[(comp*n + u)*stride + ix] (checked against that formula) and are
 *     inverse to each other;
 *   the kernel language in its host form (the emulated backend): HR_LAUNCH runs every thread
 *     index of every block exactly once, HR_THREAD_LOOP / HR_SYNC_THREADS / HR_SHARED give a
 *     block-wide halving tree equal to the serial one; HR_TUNED_LAUNCH launches nothing for
 *     n = 0 and covers [0, n) for any n and any block size the tuner tries;
 *   the tuner: with chosen times it tries every candidate HR_TUNE_ROUNDS times and keeps the
 *     fastest; keys (kernel, n) are independent; reduction candidates are multiples of
 *     HR_REDUCE_CHUNK;
 *   launch limits: a kernel declared with 168 registers (512 and 1024 threads forbidden) runs
 *     every tuned launch, tuned to an allowed size; sizes the device refuses beyond its
 *     reported limits are skipped, never fatal; a forced size is lowered to the limit; the
 *     tuning file round trip; the emulated thread order is a scrambled permutation. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libhr.h"
#include "../check_suite.h"

/* ------------------------------------------------------------------ accessors */

#define ACCESSOR_TEST_(T, U)                                                                   \
  static void accessor_test_##T(void) {                                                        \
    enum { n_units = (int)(sizeof(T) / sizeof(U)), stride = 37, ncomp = 4 };                   \
    U *block = (U *)calloc((size_t)n_units * ncomp * stride, sizeof(U));                       \
    ck_assert_ptr_nonnull(block);                                                              \
    for (int comp = 0; comp < ncomp; comp++)                                                   \
      for (int ix = 0; ix < stride; ix += 5) {                                                 \
        T v;                                                                                   \
        unsigned char *raw = (unsigned char *)&v;                                              \
        for (size_t b = 0; b < sizeof(T); b++) raw[b] = (unsigned char)(b * 7 + ix + comp);    \
        write_gpu_##T(stride, &v, block, ix, comp);                                            \
        for (int u = 0; u < n_units; u++)                                                      \
          ck_assert_msg(memcmp(&block[(comp * n_units + u) * stride + ix], (U *)&v + u,        \
                               sizeof(U)) == 0,                                                \
                        #T ": unit %d of comp %d of site %d misplaced", u, comp, ix);          \
        T w;                                                                                   \
        read_gpu_##T(stride, &w, block, ix, comp);                                             \
        ck_assert_msg(memcmp(&v, &w, sizeof(T)) == 0, #T ": read_gpu does not invert write_gpu"); \
      }                                                                                        \
    free(block);                                                                               \
  }
HR_GPU_SITE_TYPES(ACCESSOR_TEST_)

START_TEST(test_accessors) {
#define ACCESSOR_CALL_(T, U) accessor_test_##T();
  HR_GPU_SITE_TYPES(ACCESSOR_CALL_)
}
END_TEST

/* A spinor read as 4 suNf_vector (comp = spin) is the same as read whole. */
START_TEST(test_spinor_as_vectors) {
  enum { stride = 10 };
  suNf_spinor *blk = calloc(stride, sizeof(suNf_spinor));
  suNf_spinor s, t;
  for (int a = 0; a < 4; a++)
    for (int c = 0; c < NF; c++) s.c[a].c[c] = hr_cmplx(a + 0.25 * c, -a);
  write_gpu_suNf_spinor(stride, &s, blk, 3, 0);
  for (int a = 0; a < 4; a++) read_gpu_suNf_vector(stride, &t.c[a], blk, 3, a);
  ck_assert(memcmp(&s, &t, sizeof s) == 0);
  free(blk);
}
END_TEST

/* ------------------------------------------------------------------ kernel language */

HR_KERNEL_ANY_BLOCK(count_kernel, int n, int *hits) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) hits[i] += 1;
  }
}

START_TEST(test_launch_covers_each_thread_once) {
  const int sizes[] = {1, 63, 64, 65, 256, 1000, 4097};
  const int blocks[] = {32, 64, 256, 1024};
  for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
      const int n = sizes[a], bs = blocks[b];
      int *hits = calloc((size_t)n + 16, sizeof(int));
      HR_LAUNCH(count_kernel, (n + bs - 1) / bs, bs, n, hits);
      for (int i = 0; i < n + 16; i++)
        ck_assert_msg(hits[i] == (i < n), "n %d block %d: thread %d ran %d times", n, bs, i,
                      hits[i]);
      free(hits);
    }
}
END_TEST

/* Block-wide tree sum of x[block*dim .. ] through shared memory, as the reductions do. */
HR_KERNEL_ANY_BLOCK(tree_kernel, int n, const double *x, double *sums) {
  HR_SHARED double s[HR_REDUCE_MAX_BLOCK];
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    s[t] = i < n ? x[i] : 0.0;
  }
  HR_SYNC_THREADS();
  for (int h = HR_BLOCK_DIM() / 2; h > 0; h >>= 1) {
    HR_THREAD_LOOP(t) {
      if (t < h) s[t] += s[t + h];
    }
    HR_SYNC_THREADS();
  }
  HR_THREAD_LOOP(t) {
    if (t == 0) sums[HR_BLOCK_INDEX()] = s[0];
  }
}

START_TEST(test_shared_tree) {
  const int n = 1500, bs = 256, nb = (n + bs - 1) / bs;
  double *x = malloc(n * sizeof(double)), *sums = calloc((size_t)nb, sizeof(double));
  for (int i = 0; i < n; i++) x[i] = 1.0 / (1 + i) + 1e-3 * (i % 7);
  HR_LAUNCH(tree_kernel, nb, bs, n, x, sums);
  for (int b = 0; b < nb; b++) {
    double v[256];
    for (int t = 0; t < bs; t++) v[t] = b * bs + t < n ? x[b * bs + t] : 0.0;
    for (int h = bs / 2; h > 0; h >>= 1)
      for (int t = 0; t < h; t++) v[t] += v[t + h];
    ck_assert_msg(sums[b] == v[0], "block %d: %.17g != %.17g", b, sums[b], v[0]);
  }
  free(x);
  free(sums);
}
END_TEST

START_TEST(test_tuned_launch) {
  hr_tune_reset();
  const int sizes[] = {0, 1, 300, 5000};
  const int *cand;
  const int nc = hr_tune_candidates(HR_TUNE_STREAMING, &cand);
  for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++) {
    const int n = sizes[a];
    int *hits = calloc((size_t)n + 8, sizeof(int));
    const int launches = HR_TUNE_ROUNDS * nc + 3;
    for (int r = 0; r < launches; r++) HR_TUNED_LAUNCH(count_kernel, n, HR_TUNE_STREAMING, n, hits);
    for (int i = 0; i < n + 8; i++)
      ck_assert_msg(hits[i] == (i < n ? launches : 0), "n %d: thread %d ran %d times", n, i,
                    hits[i]);
    const int chosen = hr_tune_lookup("count_kernel", n);
    if (n == 0) {
      ck_assert_int_eq(chosen, -1); /* nothing launched, nothing learnt */
    } else {
      int known = 0;
      for (int c = 0; c < nc; c++) known |= chosen == cand[c];
      ck_assert_msg(known, "n %d: tuner chose %d, not a candidate", n, chosen);
    }
    free(hits);
  }
}
END_TEST

/* ------------------------------------------------------------------ tuner logic */

START_TEST(test_tuner_keeps_fastest) {
  hr_tune_reset();
  const int *cand;
  const int nc = hr_tune_candidates(HR_TUNE_STREAMING, &cand);
  ck_assert_int_ge(nc, 2);
  const int fastest = nc - 2; /* made fastest in the second round only */
  for (int r = 0; r < HR_TUNE_ROUNDS; r++)
    for (int c = 0; c < nc; c++) {
      hr_tune_token tok;
      const int bs = hr_tune_begin(&tok, "fake_kernel", 1234, HR_TUNE_STREAMING);
      ck_assert_int_eq(bs, cand[c]);
      ck_assert_int_eq(hr_tune_lookup("fake_kernel", 1234), 0);
      double t = 1.0 + 0.1 * c;
      if (c == fastest && r == HR_TUNE_ROUNDS - 1) t = 0.5;
      hr_tune_record(&tok, t);
    }
  ck_assert_int_eq(hr_tune_lookup("fake_kernel", 1234), cand[fastest]);
  hr_tune_token tok;
  ck_assert_int_eq(hr_tune_begin(&tok, "fake_kernel", 1234, HR_TUNE_STREAMING), cand[fastest]);
  ck_assert_int_eq(tok.slot, -1); /* decided: not timed any more */
  /* Another size of the same kernel starts afresh. */
  ck_assert_int_eq(hr_tune_lookup("fake_kernel", 1235), -1);
  ck_assert_int_eq(hr_tune_begin(&tok, "fake_kernel", 1235, HR_TUNE_STREAMING), cand[0]);
  hr_tune_reset();
  ck_assert_int_eq(hr_tune_lookup("fake_kernel", 1234), -1);
}
END_TEST

START_TEST(test_reduction_candidates) {
  const int *cand;
  const int nc = hr_tune_candidates(HR_TUNE_REDUCTION, &cand);
  ck_assert_int_ge(nc, 1);
  for (int c = 0; c < nc; c++) {
    ck_assert_int_eq(cand[c] % HR_REDUCE_CHUNK, 0);
    ck_assert_int_le(cand[c], HR_REDUCE_MAX_BLOCK);
  }
}
END_TEST

/* ------------------------------------------------------------------ launch limits */

/* Declared with 168 registers per thread: 65536 / 168 allows 384 threads, not 512 or 1024. */
HR_KERNEL_BOUNDED(heavy_kernel, 1024, 168, int n, int *hits, int *maxdim) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) hits[i] += 1;
    if (t == 0 && HR_BLOCK_DIM() > *maxdim) *maxdim = HR_BLOCK_DIM();
  }
}

/* Tuned launches of a kernel whose registers forbid 512 and 1024 threads: every launch runs,
 * only allowed sizes are tried, the choice is allowed; then a device that refuses more than
 * it reports (blocks above 128): those sizes are skipped, nothing fatal. */
START_TEST(test_tuner_respects_limits) {
  hr_tune_reset();
  hr_kernel_limits l = hr_tune_kernel_limits(NULL, HR_KERNEL_LIMITS(heavy_kernel));
  ck_assert_int_eq(l.max_threads, 384);
  const int n = 5000, launches = 40;
  int *hits = calloc(n, sizeof(int));
  int maxdim = 0;
  for (int r = 0; r < launches; r++) HR_TUNED_LAUNCH(heavy_kernel, n, HR_TUNE_STREAMING, n, hits, &maxdim);
  for (int i = 0; i < n; i++) ck_assert_int_eq(hits[i], launches);
  ck_assert_int_le(maxdim, 384);
  const int chosen = hr_tune_lookup("heavy_kernel", n);
  ck_assert_msg(chosen >= 64 && chosen <= 256, "chose %d", chosen);
  /* Refusals the limits did not predict are skipped. */
  hr_tune_reset();
  hr_gpu_emu_refuse_above(128);
  maxdim = 0;
  for (int r = 0; r < launches; r++) HR_TUNED_LAUNCH(heavy_kernel, n, HR_TUNE_STREAMING, n, hits, &maxdim);
  hr_gpu_emu_refuse_above(0);
  for (int i = 0; i < n; i++) ck_assert_int_eq(hits[i], 2 * launches);
  ck_assert_int_le(maxdim, 128);
  ck_assert_int_le(hr_tune_lookup("heavy_kernel", n), 128);
  ck_assert_int_gt(hr_tune_lookup("heavy_kernel", n), 0);
  /* A forced size above the limit is lowered to it. */
  hr_tune_reset();
  hr_tune_force_block(1024);
  maxdim = 0;
  HR_TUNED_LAUNCH(heavy_kernel, n, HR_TUNE_STREAMING, n, hits, &maxdim);
  hr_tune_force_block(0);
  ck_assert_int_eq(maxdim, 384);
  for (int i = 0; i < n; i++) ck_assert_int_eq(hits[i], 2 * launches + 1);
  free(hits);
  hr_tune_reset();
}
END_TEST

/* Decisions saved to a file and read back are used without retuning. */
START_TEST(test_tuning_file) {
  hr_tune_reset();
  const int n = 777;
  int *hits = calloc(n, sizeof(int));
  int maxdim = 0;
  const int *cand;
  const int launches = HR_TUNE_ROUNDS * hr_tune_candidates(HR_TUNE_STREAMING, &cand);
  for (int r = 0; r < launches; r++) HR_TUNED_LAUNCH(heavy_kernel, n, HR_TUNE_STREAMING, n, hits, &maxdim);
  const int chosen = hr_tune_lookup("heavy_kernel", n);
  ck_assert_int_gt(chosen, 0);
  char path[] = "/tmp/hr_tune_XXXXXX";
  const int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_int_eq(hr_tune_save(path), 0);
  hr_tune_reset();
  ck_assert_int_eq(hr_tune_lookup("heavy_kernel", n), -1);
  ck_assert_int_ge(hr_tune_load(path), 1);
  hr_tune_token tok;
  ck_assert_int_eq(hr_tune_begin_kernel(&tok, "heavy_kernel", NULL, HR_KERNEL_LIMITS(heavy_kernel),
                                        n, HR_TUNE_STREAMING),
                   chosen);
  ck_assert_int_eq(tok.slot, -1); /* not timed: decided by the file */
  ck_assert_int_eq(hr_tune_lookup("heavy_kernel", n), chosen);
  /* An entry above the kernel's limit is retuned, not used. */
  FILE *f = fopen(path, "w");
  fprintf(f, "heavy_kernel %d %d 1024\n", VOLUME, n);
  fclose(f);
  hr_tune_reset();
  ck_assert_int_eq(hr_tune_load(path), 1);
  ck_assert_int_le(hr_tune_begin_kernel(&tok, "heavy_kernel", NULL, HR_KERNEL_LIMITS(heavy_kernel),
                                        n, HR_TUNE_STREAMING),
                   384);
  hr_tune_end(&tok);
  remove(path);
  free(hits);
  hr_tune_reset();
}
END_TEST

/* The emulated thread order is a permutation of the block, different from 0 .. dim-1. */
HR_KERNEL_ANY_BLOCK(order_kernel, int *order, int *pos) {
  HR_THREAD_LOOP(t) { order[HR_BLOCK_INDEX() * HR_BLOCK_DIM() + (*pos)++ % HR_BLOCK_DIM()] = t; }
}

START_TEST(test_thread_order_is_permutation) {
  const int bs = 96;
  int order[96], seen[96], pos = 0;
  HR_LAUNCH(order_kernel, 1, bs, order, &pos);
  memset(seen, 0, sizeof seen);
  int moved = 0;
  for (int i = 0; i < bs; i++) {
    ck_assert(order[i] >= 0 && order[i] < bs);
    seen[order[i]]++;
    moved |= order[i] != i;
  }
  for (int i = 0; i < bs; i++) ck_assert_int_eq(seen[i], 1);
#if HR_GPU_BACKEND == HR_GPU_EMULATED
  const char *env = getenv("HR_GPU_EMU_ORDER");
  if (env == NULL || strcmp(env, "sequential") != 0) ck_assert_msg(moved, "threads ran in order");
#endif
}
END_TEST

int main(void) {
  Suite *s = suite_create("gpu_kernels");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_accessors);
  tcase_add_test(tc, test_spinor_as_vectors);
  tcase_add_test(tc, test_launch_covers_each_thread_once);
  tcase_add_test(tc, test_shared_tree);
  tcase_add_test(tc, test_tuned_launch);
  tcase_add_test(tc, test_tuner_keeps_fastest);
  tcase_add_test(tc, test_reduction_candidates);
  tcase_add_test(tc, test_tuner_respects_limits);
  tcase_add_test(tc, test_tuning_file);
  tcase_add_test(tc, test_thread_order_is_permutation);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
