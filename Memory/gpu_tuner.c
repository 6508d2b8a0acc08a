/* gpu_tuner.c -- run-time choice of kernel block sizes, keyed by (kernel name, local volume,
 * number of threads), and the launch limits of kernels: the runtime's (CUDA) or the declared
 * ones that the emulated launcher enforces (with its scrambled thread order). The first
 * launches of a key try every candidate block size the kernel can launch HR_TUNE_ROUNDS times
 * (each launch does its real work once, so results never depend on the tuning); from then on
 * the candidate with the shortest time is used. A refused candidate is logged and dropped.
 * Decisions are logged once and can be saved to / read from a file (HR_GPU_TUNE_FILE).
 * Launches come from one host thread. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "hr_error.h"
#include "logger.h"

#if HR_GPU_BACKEND == HR_GPU_CUDA
#include <cuda_runtime_api.h>
#endif

/* Candidate block sizes. Reductions need multiples of HR_REDUCE_CHUNK. */
static const int streaming_sizes[] = {64, 128, 256, 512, 1024};
static const int reduction_sizes[] = {HR_REDUCE_CHUNK, 2 * HR_REDUCE_CHUNK, 4 * HR_REDUCE_CHUNK};
#define HR_TUNE_MAX_CANDIDATES 8
/* Block size used when the table is full. */
#define HR_TUNE_FALLBACK 128
#define HR_TUNE_NAME 96

HR_STATIC_ASSERT(4 * HR_REDUCE_CHUNK <= HR_REDUCE_MAX_BLOCK, "reduction block too large");

typedef struct {
  char kernel[HR_TUNE_NAME]; /* "": free slot */
  int volume, n;
  hr_tune_class cls;
  int ncand;                           /* candidates that can launch (0: not yet set up) */
  int cand[HR_TUNE_MAX_CANDIDATES];
  int trials;                          /* timed launches so far */
  double best[HR_TUNE_MAX_CANDIDATES]; /* shortest time of each candidate */
  int block;                           /* chosen block size, 0 while exploring */
  int max_threads;                     /* largest block the kernel can launch (0: unknown) */
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

static uint64_t key_hash(const char *kernel, int volume, int n) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (const char *c = kernel; *c; c++) h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
  h = (h ^ (uint64_t)(unsigned)n) * UINT64_C(1099511628211);
  h = (h ^ (uint64_t)(unsigned)volume) * UINT64_C(1099511628211);
  return h;
}

/* Slot of (kernel, volume, n): existing, or a new one when `create`; -1 if absent / full. */
static int find_slot(const char *kernel, int volume, int n, int create) {
  const uint64_t h = key_hash(kernel, volume, n);
  for (int probe = 0; probe < HR_TUNE_TABLE; probe++) {
    const int s = (int)((h + (uint64_t)probe) % HR_TUNE_TABLE);
    tune_entry *e = &table[s];
    if (e->kernel[0] == '\0') {
      if (!create || strlen(kernel) >= HR_TUNE_NAME) return -1;
      strcpy(e->kernel, kernel);
      e->volume = volume;
      e->n = n;
      return s;
    }
    if (e->n == n && e->volume == volume && strcmp(e->kernel, kernel) == 0) return s;
  }
  return -1;
}

/* ------------------------------------------------------------------ kernel limits */

static int emu_refuse_above = 0;

hr_kernel_limits hr_tune_kernel_limits(const void *func, hr_kernel_limits declared) {
  hr_kernel_limits l = declared;
#if HR_GPU_BACKEND == HR_GPU_CUDA
  struct cudaFuncAttributes attr;
  if (func != NULL && cudaFuncGetAttributes(&attr, func) == cudaSuccess) {
    l.max_threads = attr.maxThreadsPerBlock;
    l.regs = attr.numRegs;
    return l;
  }
  (void)cudaGetLastError();
#else
  (void)func;
#endif
  /* As a GPU: registers x threads within the register file, whole warps. */
  if (l.regs > 0) {
    const int by_regs = HR_REGISTER_FILE / l.regs / HR_WARP * HR_WARP;
    if (by_regs < l.max_threads) l.max_threads = by_regs;
  }
  if (l.max_threads > HR_REDUCE_MAX_BLOCK) l.max_threads = HR_REDUCE_MAX_BLOCK;
  return l;
}

/* ------------------------------------------------------------------ emulated launcher */

static int emu_refused = 0;

/* Scrambled thread order, unless HR_GPU_EMU_ORDER=sequential (-1: not read yet). */
static int scramble = -1;

static int gcd(int a, int b) {
  while (b != 0) {
    const int r = a % b;
    a = b;
    b = r;
  }
  return a;
}


int hr_gpu_emu_launch_ok(const char *kernel, hr_kernel_limits lim, int threads) {
  (void)kernel;
  hr_gpu_emu_note_launch();
  if (scramble < 0) {
    const char *env = getenv("HR_GPU_EMU_ORDER");
    scramble = (env != NULL && strcmp(env, "sequential") == 0) ? 0 : 1;
  }
  const hr_kernel_limits l = hr_tune_kernel_limits(NULL, lim);
  if (threads < 1 || threads > l.max_threads || (emu_refuse_above > 0 && threads > emu_refuse_above)) {
    emu_refused = 1;
    return 0;
  }
  return 1;
}

void hr_gpu_emu_check_launch(const char *kernel) {
  if (emu_refused) {
    emu_refused = 0;
    hr_error_code(HR_EXIT_SETUP, "launch of kernel %s failed: too many threads per block for "
                  "its launch bounds or registers (emulated device)", kernel);
  }
}

void hr_gpu_emu_refuse_above(int threads) { emu_refuse_above = threads > 0 ? threads : 0; }

/* In CUDA builds too: C files (the kernel-language test) compile kernels in the host form. */
void hr_gpu_emu_block(void *ctx_, int block, int dim) {
  hr_block_ctx *ctx = (hr_block_ctx *)ctx_;
  const int s = scramble > 0; /* set by hr_gpu_emu_launch_ok before the blocks run */
  ctx->block = block;
  ctx->dim = dim;
  ctx->mul = 1;
  ctx->add = 0;
  if (s && dim > 2) {
    const uint64_t h = ((uint64_t)(unsigned)block + 1) * UINT64_C(0x9E3779B97F4A7C15);
    int m = (int)((h >> 33) % (uint64_t)dim);
    if (m < 2) m = 2;
    while (gcd(m, dim) != 1) m = m + 1 < dim ? m + 1 : 2;
    if (gcd(m, dim) != 1) m = dim - 1; /* dim - 1 is always coprime to dim */
    ctx->mul = m;
    ctx->add = (int)((h >> 13) % (uint64_t)dim);
  } else if (s && dim == 2) {
    ctx->mul = dim - 1; /* 1 then 0 */
    ctx->add = 1;
  }
}

/* ------------------------------------------------------------------ forced size */

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

/* ------------------------------------------------------------------ tuning file */

static int file_state = -1; /* -1: HR_GPU_TUNE_FILE not looked at; 0: none; 1: in use */
static const char *tune_file = NULL;

static void tune_file_init(void) {
  if (file_state >= 0) return;
  tune_file = getenv("HR_GPU_TUNE_FILE");
  file_state = (tune_file != NULL && tune_file[0] != '\0') ? 1 : 0;
  if (file_state) {
    const int k = hr_tune_load(tune_file);
    if (k >= 0) lprintf("GPU", 10, "block sizes: %d entries read from %s\n", k, tune_file);
  }
}

int hr_tune_save(const char *path) {
  if (CART_RANK != 0) return 0;
  FILE *f = fopen(path, "w");
  if (f == NULL) return -1;
  fprintf(f, "# LibHR GPU block sizes: kernel local-volume threads block\n");
  for (int s = 0; s < HR_TUNE_TABLE; s++) {
    const tune_entry *e = &table[s];
    if (e->kernel[0] != '\0' && e->block > 0)
      fprintf(f, "%s %d %d %d\n", e->kernel, e->volume, e->n, e->block);
  }
  return fclose(f) == 0 ? 0 : -1;
}

int hr_tune_load(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  char line[256], name[HR_TUNE_NAME];
  int count = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    int vol, n, block;
    if (line[0] == '#') continue;
    if (sscanf(line, "%95s %d %d %d", name, &vol, &n, &block) != 4 || block <= 0 ||
        block > HR_REDUCE_MAX_BLOCK)
      continue;
    const int s = find_slot(name, vol, n, 1);
    if (s < 0) continue;
    table[s].block = block;
    table[s].trials = -1; /* from the file: checked against the kernel's limits at first use */
    count++;
  }
  fclose(f);
  return count;
}

/* ------------------------------------------------------------------ tuning */

/* Fill the candidates of a new entry: those of its class that the kernel can launch. */
static void setup_entry(tune_entry *e, hr_tune_class cls, int max_threads) {
  const int *sizes;
  const int nc = hr_tune_candidates(cls, &sizes);
  e->cls = cls;
  e->max_threads = max_threads;
  e->ncand = 0;
  for (int c = 0; c < nc; c++)
    if (max_threads <= 0 || sizes[c] <= max_threads) e->cand[e->ncand++] = sizes[c];
  if (e->ncand == 0) /* smaller than every candidate: the largest whole-warp size it allows */
    e->cand[e->ncand++] = max_threads >= HR_WARP ? max_threads / HR_WARP * HR_WARP : max_threads;
  for (int c = 0; c < e->ncand; c++) e->best[c] = -1;
  e->trials = 0;
}

static void decided(tune_entry *e) {
  double best = -1;
  for (int c = 0; c < e->ncand; c++)
    if (e->cand[c] == e->block) best = e->best[c];
  lprintf("GPU", 10, "tuned %s (volume %d, %d threads): block %d (%.3g s)\n", e->kernel,
          e->volume, e->n, e->block, best);
  if (file_state == 1 && hr_tune_save(tune_file) != 0)
    lprintf("GPU", 0, "cannot write the block sizes to %s\n", tune_file);
}

static int begin(const char *kernel, const void *func, const hr_kernel_limits *lim, int n,
                 hr_tune_class cls, hr_tune_token *tok) {
  tok->slot = -1;
  tok->trial = 0;
  tok->t0 = 0;
  tok->entry = -1;
  tok->kernel = kernel;
  tune_file_init();
  const int s = find_slot(kernel, VOLUME, n, 1);
  int max_threads = 0;
  if (s >= 0 && table[s].max_threads > 0) {
    max_threads = table[s].max_threads;
  } else if (lim != NULL) {
    const hr_kernel_limits l = hr_tune_kernel_limits(func, *lim);
    max_threads = l.max_threads;
    if (s >= 0)
      lprintf("GPU", 20, "kernel %s: %d registers, at most %d threads per block\n", kernel,
              l.regs, l.max_threads);
  }
  const int forced = forced_for(cls);
  if (forced > 0) {
    tok->entry = s;
    tok->block = max_threads > 0 && forced > max_threads ? max_threads : forced;
    if (s >= 0 && table[s].ncand == 0) setup_entry(&table[s], cls, max_threads);
    return tok->block;
  }
  if (s < 0) {
    if (!table_full_reported) {
      lprintf("GPU", 10, "block-size tuner table full: further kernels use %d threads\n",
              HR_TUNE_FALLBACK);
      table_full_reported = 1;
    }
    tok->block = max_threads > 0 && HR_TUNE_FALLBACK > max_threads ? max_threads : HR_TUNE_FALLBACK;
    return tok->block;
  }
  tune_entry *e = &table[s];
  tok->entry = s;
  if (e->trials < 0) { /* read from the tuning file */
    const int block = e->block;
    setup_entry(e, cls, max_threads);
    if (max_threads <= 0 || block <= max_threads) {
      e->block = block;
      e->trials = HR_TUNE_ROUNDS * e->ncand;
    } else {
      e->block = 0;
      lprintf("GPU", 10, "tuning file: block %d of %s exceeds its limit %d: retuned\n", block,
              kernel, max_threads);
    }
  } else if (e->ncand == 0) {
    setup_entry(e, cls, max_threads);
  }
  if (e->block > 0) return tok->block = e->block;
  tok->slot = s;
  tok->trial = e->trials;
  hr_gpu_synchronize();
  tok->t0 = hr_gpu_wtime();
  return tok->block = e->cand[e->trials % e->ncand];
}

int hr_tune_begin(hr_tune_token *tok, const char *kernel, int n, hr_tune_class cls) {
  return begin(kernel, NULL, NULL, n, cls, tok);
}

int hr_tune_begin_kernel(hr_tune_token *tok, const char *kernel, const void *func,
                         hr_kernel_limits lim, int n, hr_tune_class cls) {
  return begin(kernel, func, &lim, n, cls, tok);
}

int hr_tune_launched(hr_tune_token *tok) {
  (void)tok;
  if (emu_refused) { /* a launch in the host form (every build: see hr_gpu_emu_block) */
    emu_refused = 0;
    return 0;
  }
#if HR_GPU_BACKEND == HR_GPU_CUDA
  const cudaError_t err = cudaPeekAtLastError();
  if (err == cudaErrorLaunchOutOfResources || err == cudaErrorInvalidConfiguration) {
    (void)cudaGetLastError();
    return 0;
  }
  if (err != cudaSuccess) hr_gpu_check_launch(tok->kernel);
#endif
  return 1;
}

int hr_tune_retry(hr_tune_token *tok) {
  const int refused = tok->block;
  lprintf("GPU", 10, "kernel %s: a block of %d threads was refused: size skipped\n", tok->kernel,
          refused);
  tok->slot = -1;
  tune_entry *e = tok->entry >= 0 ? &table[tok->entry] : NULL;
  if (e == NULL || refused <= HR_WARP)
    hr_error_code(HR_EXIT_SETUP, "kernel %s cannot be launched with %d threads per block, nor "
                  "with any other candidate", tok->kernel, refused);
  /* Never offer this size (or larger) again: restart the exploration with what is left. */
  e->max_threads = refused - 1;
  const hr_tune_class cls = e->cls;
  const int keep = e->max_threads;
  setup_entry(e, cls, keep);
  e->block = 0;
  if (forced_for(cls) > 0) {
    int b = refused / 2;
    if (b < HR_WARP) b = HR_WARP;
    return tok->block = b;
  }
  tok->slot = tok->entry;
  tok->trial = e->trials;
  hr_gpu_synchronize();
  tok->t0 = hr_gpu_wtime();
  return tok->block = e->cand[e->trials % e->ncand];
}

void hr_tune_record(hr_tune_token *tok, double seconds) {
  if (tok->slot < 0) return;
  tune_entry *e = &table[tok->slot];
  tok->slot = -1;
  if (e->block > 0 || tok->trial != e->trials) return;
  const int c = e->trials % e->ncand;
  if (e->best[c] < 0 || seconds < e->best[c]) e->best[c] = seconds;
  e->trials++;
  if (e->trials >= HR_TUNE_ROUNDS * e->ncand) {
    int best = 0;
    for (int i = 1; i < e->ncand; i++)
      if (e->best[i] < e->best[best]) best = i;
    e->block = e->cand[best];
    decided(e);
  }
}

void hr_tune_end(hr_tune_token *tok) {
  if (tok->slot < 0) return;
  hr_gpu_synchronize();
  hr_tune_record(tok, hr_gpu_wtime() - tok->t0);
}

int hr_tune_lookup(const char *kernel, int n) {
  const int s = find_slot(kernel, VOLUME, n, 0);
  if (s < 0 || table[s].trials < 0) return -1;
  return table[s].block;
}

void hr_tune_reset(void) {
  memset(table, 0, sizeof table);
  table_full_reported = 0;
}

void hr_tune_report(void) {
  for (int s = 0; s < HR_TUNE_TABLE; s++) {
    const tune_entry *e = &table[s];
    if (e->kernel[0] == '\0' || e->block == 0 || e->trials < 0) continue;
    double best = -1;
    for (int c = 0; c < e->ncand; c++)
      if (e->cand[c] == e->block) best = e->best[c];
    lprintf("GPU", 10, "tuned %s (volume %d, %d threads): block %d (%.3g s)\n", e->kernel,
            e->volume, e->n, e->block, best);
  }
}
