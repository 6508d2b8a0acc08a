/* gpu_tuner.c -- run-time choice of kernel block sizes, keyed by (kernel name, number of
 * threads). The first launches of a key try every candidate block size HR_TUNE_ROUNDS times
 * (each launch does its real work once, so results never depend on the tuning); from then
 * on the candidate with the shortest time is used. Launches come from one host thread. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "logger.h"

/* Candidate block sizes. Reductions need multiples of HR_REDUCE_CHUNK. */
static const int streaming_sizes[] = {64, 128, 256, 512, 1024};
static const int reduction_sizes[] = {HR_REDUCE_CHUNK, 2 * HR_REDUCE_CHUNK, 4 * HR_REDUCE_CHUNK};
#define HR_TUNE_MAX_CANDIDATES 8
/* Block size used when the table is full. */
#define HR_TUNE_FALLBACK 256

HR_STATIC_ASSERT(4 * HR_REDUCE_CHUNK <= HR_REDUCE_MAX_BLOCK, "reduction block too large");

typedef struct {
  const char *kernel; /* NULL: free slot */
  int n;
  hr_tune_class cls;
  int trials;                           /* timed launches so far */
  double best[HR_TUNE_MAX_CANDIDATES];  /* shortest time of each candidate */
  int block;                            /* chosen block size, 0 while exploring */
} tune_entry;

#define HR_TUNE_TABLE 1024
static tune_entry table[HR_TUNE_TABLE];
static int table_full_reported = 0;

int hr_tune_candidates(hr_tune_class cls, const int **sizes) {
  if (cls == HR_TUNE_REDUCTION) {
    *sizes = reduction_sizes;
    return (int)(sizeof reduction_sizes / sizeof reduction_sizes[0]);
  }
  *sizes = streaming_sizes;
  return (int)(sizeof streaming_sizes / sizeof streaming_sizes[0]);
}

static uint64_t key_hash(const char *kernel, int n) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (const char *c = kernel; *c; c++) h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
  h = (h ^ (uint64_t)(unsigned)n) * UINT64_C(1099511628211);
  return h;
}

/* Slot of (kernel, n): existing, or a new one when `create`; -1 if absent / table full. */
static int find_slot(const char *kernel, int n, int create) {
  const uint64_t h = key_hash(kernel, n);
  for (int probe = 0; probe < HR_TUNE_TABLE; probe++) {
    const int s = (int)((h + (uint64_t)probe) % HR_TUNE_TABLE);
    tune_entry *e = &table[s];
    if (e->kernel == NULL) {
      if (!create) return -1;
      e->kernel = kernel;
      e->n = n;
      return s;
    }
    if (e->n == n && strcmp(e->kernel, kernel) == 0) return s;
  }
  return -1;
}

/* Forced block size: 0 = tune; -1 = not yet read from the environment (HR_GPU_BLOCK). */
static int forced_block = -1;

void hr_tune_force_block(int block) { forced_block = block > 0 ? block : 0; }

/* The forced block size for class cls (reductions: rounded up to a multiple of
 * HR_REDUCE_CHUNK), 0 when not forced. */
static int forced_for(hr_tune_class cls) {
  if (forced_block < 0) {
    const char *env = getenv("HR_GPU_BLOCK");
    forced_block = 0;
    if (env != NULL && atoi(env) > 0) hr_tune_force_block(atoi(env));
  }
  int b = forced_block > HR_REDUCE_MAX_BLOCK ? HR_REDUCE_MAX_BLOCK : forced_block;
  if (b > 0 && cls == HR_TUNE_REDUCTION)
    b = (b + HR_REDUCE_CHUNK - 1) / HR_REDUCE_CHUNK * HR_REDUCE_CHUNK;
  return b;
}

int hr_tune_begin(const char *kernel, int n, hr_tune_class cls, hr_tune_token *tok) {
  tok->slot = -1;
  tok->trial = 0;
  tok->t0 = 0;
  const int forced = forced_for(cls);
  if (forced > 0) return forced;
  const int s = find_slot(kernel, n, 1);
  if (s < 0) {
    if (!table_full_reported) {
      lprintf("GPU", 10, "block-size tuner table full: further kernels use %d threads\n",
              HR_TUNE_FALLBACK);
      table_full_reported = 1;
    }
    return HR_TUNE_FALLBACK;
  }
  tune_entry *e = &table[s];
  const int *sizes;
  const int nc = hr_tune_candidates(cls, &sizes);
  if (e->trials == 0) {
    e->cls = cls;
    for (int c = 0; c < nc; c++) e->best[c] = -1;
  }
  if (e->block > 0) return e->block;
  tok->slot = s;
  tok->trial = e->trials;
  hr_gpu_synchronize();
  tok->t0 = hr_gpu_wtime();
  return sizes[e->trials % nc];
}

void hr_tune_record(hr_tune_token *tok, double seconds) {
  if (tok->slot < 0) return;
  tune_entry *e = &table[tok->slot];
  tok->slot = -1;
  if (e->block > 0 || tok->trial != e->trials) return;
  const int *sizes;
  const int nc = hr_tune_candidates(e->cls, &sizes);
  const int c = e->trials % nc;
  if (e->best[c] < 0 || seconds < e->best[c]) e->best[c] = seconds;
  e->trials++;
  if (e->trials >= HR_TUNE_ROUNDS * nc) {
    int best = 0;
    for (int i = 1; i < nc; i++)
      if (e->best[i] < e->best[best]) best = i;
    e->block = sizes[best];
  }
}

void hr_tune_end(hr_tune_token *tok) {
  if (tok->slot < 0) return;
  hr_gpu_synchronize();
  hr_tune_record(tok, hr_gpu_wtime() - tok->t0);
}

int hr_tune_lookup(const char *kernel, int n) {
  const int s = find_slot(kernel, n, 0);
  if (s < 0) return -1;
  return table[s].block;
}

void hr_tune_reset(void) {
  memset(table, 0, sizeof table);
  table_full_reported = 0;
}

void hr_tune_report(void) {
  for (int s = 0; s < HR_TUNE_TABLE; s++) {
    const tune_entry *e = &table[s];
    if (e->kernel == NULL || e->block == 0) continue;
    const int *sizes;
    const int nc = hr_tune_candidates(e->cls, &sizes);
    double best = -1;
    for (int c = 0; c < nc; c++)
      if (sizes[c] == e->block) best = e->best[c];
    lprintf("GPU", 10, "tuned %s on %d threads: block %d (%.3g s)\n", e->kernel, e->n, e->block,
            best);
  }
}
