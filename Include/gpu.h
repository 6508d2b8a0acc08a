/* gpu.h -- the GPU side of LibHR, shared by the CUDA backend and the emulated GPU backend
 * (HR_GPU_BACKEND in hr_build_config.h): the device layout of fields and its accessors
 * (_GPU_FIELD_BLK, _GPU_4FIELD_BLK, read_gpu_<type>, write_gpu_<type>), the kernel language
 * (HR_KERNEL, HR_LAUNCH, HR_THREAD_LOOP, ...) that one kernel source is written in for both
 * backends, device memory, and the run-time block-size tuner. Doc/fields_and_backends.md
 * explains it with examples.
 *
 * Device layout (structure of arrays per piece). A field's device copy has the same size as
 * its host copy and each piece ixp (master pieces and receive-buffer pieces) occupies the
 * same byte range as on the host, starting at _GPU_FIELD_BLK(f, ixp) (site fields) or
 * _GPU_4FIELD_BLK(f, ixp) (link fields). Inside a piece of `stride` sites, the value of site
 * ix is split into components ("units": one hr_complex / hr_complex_flt for complex types,
 * one double / float for real types); unit u of element `comp` of the site (comp = 0 for a
 * site field, the direction mu for a link field, the spin index when a spinor is read as 4
 * suNf_vector) lives at
 *     ((unit *)block)[(comp * n + u) * stride + (ix - piece start)],   n = units per element.
 * Copy sites (duplicates of boundary sites for contiguous send buffers) have no meaning on
 * the device; halo exchanges gather from the master sites.
 *
 * Kernel language (one source for nvcc and the host compiler). A kernel is called once per
 * block of threads; HR_THREAD_LOOP(t) runs its body for each thread t of the block (in CUDA:
 * once, for t = threadIdx.x; emulated: a loop over the block). Values that must survive an
 * HR_SYNC_THREADS() live in HR_SHARED arrays. Example, r += c s on one piece of n sites:
 *
 *   HR_KERNEL(axpy_kernel, int n, double c, suNf_spinor *r, const suNf_spinor *s) {
 *     HR_THREAD_LOOP(t) {
 *       const int i = HR_THREAD_INDEX(t);
 *       if (i < n) { suNf_spinor a, b;
 *         read_gpu_suNf_spinor(n, &a, r, i, 0); read_gpu_suNf_spinor(n, &b, s, i, 0);
 *         suNf_spinor_mul_add(&a, &a, c, &b); write_gpu_suNf_spinor(n, &a, r, i, 0); }
 *     }
 *   }
 *   _PIECE_FOR(r->type, ixp) {
 *     const int n = _PIECE_LENGTH(r->type, ixp);
 *     HR_TUNED_LAUNCH(axpy_kernel, n, HR_TUNE_STREAMING, n, c, _GPU_FIELD_BLK(r, ixp),
 *                     _GPU_FIELD_BLK(s, ixp));
 *   }
 * Kernels are static to their file; write them in the common subset of C11 and C++17 (no
 * compound literals, designated initialisers, _Generic or implicit void* conversions).
 * Implemented in: Memory/gpu_runtime.c, Memory/gpu_tuner.c, Memory/gpu_sites.c,
 *  Memory/field_exchange.c. */
#ifndef GPU_H
#define GPU_H

#include <stddef.h>
#include <stdint.h>

#include "field_kinds.h"
#include "geometry.h"
#include "hr_build_config.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "suN_types.h"

/* 1 in builds with a GPU backend (CUDA or emulated). */
#define HR_GPU_ENABLED (HR_GPU_BACKEND != HR_GPU_NONE)

#define HR_STR_(x) #x
/* String of x after macro expansion. */
#define HR_STR(x) HR_STR_(x)

#ifdef __cplusplus
#define HR_STATIC_ASSERT(c, msg) static_assert(c, msg)
#else
#define HR_STATIC_ASSERT(c, msg) _Static_assert(c, msg)
#endif

/* ------------------------------------------------------------------ layout and accessors */

/* Number of sites of piece ixp of geometry g (0 is possible). */
#define _PIECE_LENGTH(g, ixp) ((g)->master_end[ixp] - (g)->master_start[ixp] + 1)
/* Device address of piece ixp of a site field f (pointer to its site type). */
#define _GPU_FIELD_BLK(f, ixp)                                                                 \
  ((f)->gpu_ptr + ((f)->type->master_start[ixp] - (f)->type->master_shift))
/* Device address of piece ixp of a link field f (4 elements per site). */
#define _GPU_4FIELD_BLK(f, ixp)                                                                \
  ((f)->gpu_ptr + 4 * ((f)->type->master_start[ixp] - (f)->type->master_shift))

/* read_gpu_<type>(stride, &value, block, ix, comp): value = element `comp` of site ix of a
 * piece of `stride` sites starting at `block` (device layout above), a unit at a time
 * (HR_UNIT_LOAD of hr_complex.h: one 128-bit access per double-precision complex unit in
 * device code); read_gpu_<type>_units(stride, &value, block, ix, comp, n) its first n units;
 * read_gpu_<type>_unit(stride, block, ix, comp, u) returns unit u alone.
 * write_gpu_<type>(stride, &value, block, ix, comp): the reverse. Usable in host and device
 * code; in host code only on memory the host can address (emulated backend, staging). */
#define HR_GPU_ACCESSORS_(T, U)                                                                \
  HR_STATIC_ASSERT(sizeof(T) % sizeof(U) == 0, #T " is not a whole number of " #U " units");   \
  /* unit u of the element alone (the plaquette reads a link a row at a time) */            \
  HR_INLINE U read_gpu_##T##_unit(int stride, const void *block, int ix, int comp, int u) {    \
    enum { hr_n_ = (int)(sizeof(T) / sizeof(U)) };                                             \
    const size_t at = ((size_t)comp * hr_n_ + (size_t)u) * (size_t)stride + (size_t)ix;       \
    U v;                                                                                       \
    HR_UNIT_LOAD(&v, (const U *)block + at);                                                   \
    return v;                                                                                  \
  }                                                                                            \
  /* the first nunits units only (read_gpu_suNf_units: the two rows of a 12-number link) */  \
  HR_INLINE void read_gpu_##T##_units(int stride, T *out, const void *block, int ix, int comp, \
                                      int nunits) {                                            \
    U *o = (U *)out;                                                                           \
    for (int u = 0; u < nunits; ++u)                                                           \
      o[u] = read_gpu_##T##_unit(stride, block, ix, comp, u);                                  \
  }                                                                                            \
  HR_INLINE void read_gpu_##T(int stride, T *out, const void *block, int ix, int comp) {       \
    read_gpu_##T##_units(stride, out, block, ix, comp, (int)(sizeof(T) / sizeof(U)));          \
  }                                                                                            \
  HR_INLINE void write_gpu_##T(int stride, const T *value, void *block, int ix, int comp) {    \
    enum { hr_n_ = (int)(sizeof(T) / sizeof(U)) };                                             \
    U *out = (U *)block + (size_t)comp * hr_n_ * (size_t)stride + ix;                          \
    const U *v = (const U *)value;                                                             \
    for (int u = 0; u < hr_n_; ++u)                                                            \
      HR_UNIT_STORE(&out[(size_t)u * (size_t)stride], &v[u]);                                  \
  }
HR_GPU_SITE_TYPES(HR_GPU_ACCESSORS_)
#undef HR_GPU_ACCESSORS_

/* ------------------------------------------------------------------ kernel language */

/* Launch bounds. Every kernel declares the largest block it may be launched with
 * (max_threads) and the registers per thread it is budgeted (regs): HR_KERNEL_BOUNDED. CUDA
 * gets __launch_bounds__(max_threads, 65536 / (max_threads * regs) blocks per multiprocessor),
 * so ptxas keeps the kernel launchable with max_threads threads (within regs registers when
 * max_threads * regs divides the register file); Make/ptxas_check.sh checks the budgets. The
 * emulated backend takes regs as the kernel's register count and refuses, as a GPU would,
 * blocks above max_threads or above 65536 / regs (rounded down to a warp). The tuner asks the
 * runtime for each kernel's limits (hr_tune_begin_kernel) and tries only sizes that fit. */
#define HR_REGISTER_FILE 65536
#define HR_WARP 32
/* Default bounds of HR_KERNEL: blocks of up to 256 threads, 128 registers. */
#define HR_KERNEL_DEFAULT_THREADS 256
#define HR_KERNEL_DEFAULT_REGS 128
/* Declared limits of a kernel (filled by the HR_KERNEL_* macros). */
typedef struct {
  int max_threads; /* largest block declared (launch bounds) */
  int regs;        /* registers per thread budgeted (emulated: the kernel's register count) */
} hr_kernel_limits;
#define HR_LB_MIN_BLOCKS_(t, r) ((t) * (r) >= HR_REGISTER_FILE ? 1 : HR_REGISTER_FILE / ((t) * (r)))
/* Host function returning the declared limits of kernel `name` (name_hr_limits). */
#define HR_KERNEL_LIMITS_FN_(name, t, r)                                                       \
  static inline hr_kernel_limits HR_CAT(name, _hr_limits)(void) {                              \
    hr_kernel_limits l;                                                                        \
    l.max_threads = (t);                                                                       \
    l.regs = (r);                                                                              \
    return l;                                                                                  \
  }
/* Declared limits of kernel `name`. */
#define HR_KERNEL_LIMITS(name) HR_CAT(name, _hr_limits)()

#ifdef __CUDACC__
/* Define a kernel (static to the file) launchable with blocks of up to max_threads threads,
 * budgeted regs registers per thread. */
#define HR_KERNEL_BOUNDED(name, max_threads, regs, ...)                                        \
  HR_KERNEL_LIMITS_FN_(name, max_threads, regs)                                                \
  static __global__ void __launch_bounds__(max_threads, HR_LB_MIN_BLOCKS_(max_threads, regs))  \
      name(__VA_ARGS__)
/* Run kernel_ on nblocks_ blocks of nthreads_ threads (asynchronous on a real GPU); a launch
 * the device refuses stops the program (tuned launches retry instead). */
#define HR_LAUNCH(kernel_, nblocks_, nthreads_, ...)                                           \
  do {                                                                                         \
    kernel_<<<(nblocks_), (nthreads_)>>>(__VA_ARGS__);                                         \
    hr_gpu_check_launch(HR_STR(kernel_));                                                      \
    HR_COUNT_LAUNCH_(kernel_);                                                                 \
  } while (0)
/* The same without the check (the caller asks hr_tune_launched). */
#define HR_LAUNCH_UNCHECKED_(kernel_, nblocks_, nthreads_, ...)                                \
  kernel_<<<(nblocks_), (nthreads_)>>>(__VA_ARGS__)
/* The same on the halo stream (hr_gpu_halo_stream below: the packing of the Dirac halo). */
#define HR_LAUNCH_HALO_UNCHECKED_(kernel_, nblocks_, nthreads_, ...)                           \
  kernel_<<<(nblocks_), (nthreads_), 0, (cudaStream_t)hr_gpu_halo_stream()>>>(__VA_ARGS__)
/* What the tuner passes to the runtime to ask for a kernel's attributes. */
#define HR_KERNEL_FUNC_(kernel_) ((const void *)(kernel_))
#define HR_BLOCK_INDEX() ((int)blockIdx.x)
#define HR_BLOCK_DIM() ((int)blockDim.x)
#define HR_THREAD_LOOP(t)                                                                      \
  for (int t = (int)threadIdx.x, hr_once_##t = 1; hr_once_##t; hr_once_##t = 0)
#define HR_SYNC_THREADS() __syncthreads()
#define HR_SHARED __shared__
#else
/* Emulated backend: a kernel is a host function called once per block. The threads of a
 * block run one after the other in the order t = (mul * i + add) mod dim, i = 0 .. dim-1,
 * with mul coprime to dim chosen per block and add changed at every HR_SYNC_THREADS(), so
 * that a kernel depending on the order of its threads between barriers shows it (scrambled
 * order is the default; HR_GPU_EMU_ORDER=sequential in the environment runs t = 0 .. dim-1). */
typedef struct {
  int block; /* index of the block */
  int dim;   /* threads per block */
  int mul;   /* thread order: t = (mul * i + add) mod dim */
  int add;
} hr_block_ctx;
#define HR_KERNEL_BOUNDED(name, max_threads, regs, ...)                                        \
  HR_KERNEL_LIMITS_FN_(name, max_threads, regs)                                                \
  static void name(hr_block_ctx hr_ctx_, __VA_ARGS__)
#define HR_LAUNCH_UNCHECKED_(kernel_, nblocks_, nthreads_, ...)                                \
  do {                                                                                         \
    const int hr_nb_ = (nblocks_), hr_bd_ = (nthreads_);                                       \
    if (hr_gpu_emu_launch_ok(HR_STR(kernel_), HR_KERNEL_LIMITS(kernel_), hr_bd_)) {            \
      HR_OMP_PRAGMA(omp parallel for schedule(static))                                         \
      for (int hr_b_ = 0; hr_b_ < hr_nb_; hr_b_++) {                                           \
        hr_block_ctx hr_c_;                                                                    \
        hr_gpu_emu_block(&hr_c_, hr_b_, hr_bd_);                                               \
        kernel_(hr_c_, __VA_ARGS__);                                                           \
      }                                                                                        \
    }                                                                                          \
  } while (0)
#define HR_LAUNCH(kernel_, nblocks_, nthreads_, ...)                                           \
  do {                                                                                         \
    HR_LAUNCH_UNCHECKED_(kernel_, nblocks_, nthreads_, __VA_ARGS__);                           \
    hr_gpu_emu_check_launch(HR_STR(kernel_));                                                  \
    HR_COUNT_LAUNCH_(kernel_);                                                                 \
  } while (0)
/* On the halo stream: run at once like every emulated kernel; the launch checks that the
 * halo stream waited for the compute stream since its last kernel (hr_gpu_halo_after_compute). */
#define HR_LAUNCH_HALO_UNCHECKED_(kernel_, nblocks_, nthreads_, ...)                           \
  do {                                                                                         \
    hr_gpu_emu_halo_launch(HR_STR(kernel_), 1);                                                \
    HR_LAUNCH_UNCHECKED_(kernel_, nblocks_, nthreads_, __VA_ARGS__);                           \
    hr_gpu_emu_halo_launch(HR_STR(kernel_), 0);                                                \
  } while (0)
#define HR_KERNEL_FUNC_(kernel_) ((const void *)0)
#define HR_BLOCK_INDEX() (hr_ctx_.block)
#define HR_BLOCK_DIM() (hr_ctx_.dim)
#define HR_THREAD_LOOP(t)                                                                      \
  for (int hr_i_##t = 0, t = 0;                                                                \
       hr_i_##t < hr_ctx_.dim &&                                                               \
       ((t = (int)(((long long)hr_ctx_.mul * hr_i_##t + hr_ctx_.add) % hr_ctx_.dim)), 1);      \
       hr_i_##t++)
#define HR_SYNC_THREADS() ((void)(hr_ctx_.add += hr_ctx_.mul == 1 ? 0 : 1 + hr_ctx_.dim / 3))
#define HR_SHARED
#endif
/* Define a kernel with the default bounds (HR_KERNEL_DEFAULT_THREADS threads, 128 registers). */
#define HR_KERNEL(name, ...)                                                                   \
  HR_KERNEL_BOUNDED(name, HR_KERNEL_DEFAULT_THREADS, HR_KERNEL_DEFAULT_REGS, __VA_ARGS__)
/* A kernel launchable with every block size the tuner tries (up to 1024 threads: the compiler
 * keeps it within 64 registers per thread, spilling if it needs more). */
#define HR_KERNEL_ANY_BLOCK(name, ...) HR_KERNEL_BOUNDED(name, 1024, 64, __VA_ARGS__)
/* Reductions sum per-site contributions in chunks of HR_REDUCE_CHUNK consecutive sites of a
 * piece (a fixed halving tree inside each chunk), on every backend; reduction kernels use
 * blocks of a multiple of HR_REDUCE_CHUNK threads, at most HR_REDUCE_MAX_BLOCK. */
#define HR_REDUCE_CHUNK 256
#define HR_REDUCE_MAX_BLOCK 1024

/* Global index of thread t of the current block. */
#define HR_THREAD_INDEX(t) (HR_BLOCK_INDEX() * HR_BLOCK_DIM() + (t))

/* Launch `kernel` for n threads with the block size chosen by the tuner for (kernel, n);
 * nothing is launched for n <= 0. A block size the device refuses is skipped (logged) and
 * the launch repeated with another candidate: never fatal while one can launch. */
#define HR_TUNED_LAUNCH(kernel_, n_, class_, ...)                                              \
  HR_TUNED_LAUNCH_BY_(HR_LAUNCH_UNCHECKED_, kernel_, n_, class_, __VA_ARGS__)
/* The same on the halo stream (hr_gpu_halo_stream). While a size is being tuned, the tuner's
 * timing waits for the whole device before and after the launch. */
#define HR_TUNED_LAUNCH_HALO(kernel_, n_, class_, ...)                                         \
  HR_TUNED_LAUNCH_BY_(HR_LAUNCH_HALO_UNCHECKED_, kernel_, n_, class_, __VA_ARGS__)
#define HR_TUNED_LAUNCH_BY_(launch_, kernel_, n_, class_, ...)                                 \
  do {                                                                                         \
    const int hr_n_ = (n_);                                                                    \
    if (hr_n_ > 0) {                                                                           \
      hr_tune_token hr_tok_;                                                                   \
      int hr_bs_ = hr_tune_begin_kernel(&hr_tok_, HR_STR(kernel_), HR_KERNEL_FUNC_(kernel_),   \
                                        HR_KERNEL_LIMITS(kernel_), hr_n_, (class_));           \
      for (;;) {                                                                               \
        launch_(kernel_, (hr_n_ + hr_bs_ - 1) / hr_bs_, hr_bs_, __VA_ARGS__);                  \
        if (hr_tune_launched(&hr_tok_)) break;                                                 \
        hr_bs_ = hr_tune_retry(&hr_tok_);                                                      \
      }                                                                                        \
      hr_tune_end(&hr_tok_);                                                                   \
      HR_COUNT_LAUNCH_(kernel_);                                                               \
    }                                                                                          \
  } while (0)
/* Count one launch of kernel_ (hr_gpu_launch_count): a counter per call site, listed on its
 * first use. */
#define HR_COUNT_LAUNCH_(kernel_)                                                              \
  do {                                                                                         \
    static hr_launch_site hr_ls_ = {HR_STR(kernel_), 0, 0, NULL};                              \
    if (!hr_ls_.listed) hr_gpu_launch_register(&hr_ls_);                                       \
    hr_ls_.count++;                                                                            \
  } while (0)

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ block-size tuner */

/* Kernel classes: streaming kernels may use any block size of HR_TUNE_STREAMING; reduction
 * kernels use multiples of HR_REDUCE_CHUNK (the summation order never depends on it). */
typedef enum { HR_TUNE_STREAMING = 0, HR_TUNE_REDUCTION = 1 } hr_tune_class;
/* How often each candidate block size is timed before the fastest is kept. */
#define HR_TUNE_ROUNDS 2
/* A launch being timed (filled by hr_tune_begin). */
typedef struct {
  int slot;  /* table entry, -1 when not timing */
  int trial; /* trial number while exploring */
  double t0; /* start time */
  int entry; /* table entry of the launch (-1: none), for hr_tune_retry */
  int block; /* block size handed out */
  const char *kernel;
} hr_tune_token;

/* Block size for the next launch of `kernel` over n threads. The first
 * HR_TUNE_ROUNDS x (number of candidates) launches of each (kernel, n) try each candidate in
 * turn, timed with synchronisation; afterwards the fastest is returned. Every candidate is
 * allowed (no kernel limits). */
int hr_tune_begin(hr_tune_token *tok, const char *kernel, int n, hr_tune_class cls);
/* The same for a kernel with limits: func is the kernel (CUDA: asked for its attributes with
 * cudaFuncGetAttributes: registers, largest block), lim its declared bounds (the emulated
 * backend's limits); only candidates that can launch are tried. Decisions are keyed by
 * (kernel, local VOLUME, n), logged once, and read from / written to the tuning file
 * HR_GPU_TUNE_FILE when that variable is set (hr_tune_load, hr_tune_save). */
int hr_tune_begin_kernel(hr_tune_token *tok, const char *kernel, const void *func,
                         hr_kernel_limits lim, int n, hr_tune_class cls);
/* 1 if the launch just made with tok's block size was accepted by the device, 0 if it was
 * refused (nothing ran; CUDA: the launch error is consumed). */
int hr_tune_launched(hr_tune_token *tok);
/* After a refused launch: logs it, never offers that size again for the kernel, and returns
 * the next block size to try (stops the program only when no candidate is left). */
int hr_tune_retry(hr_tune_token *tok);
/* Write the decided block sizes to `path` (lines "kernel volume n block"; rank 0 only);
 * returns 0, or -1 if it cannot be written. */
int hr_tune_save(const char *path);
/* Read decided block sizes from `path` (as written by hr_tune_save); returns the number of
 * entries read, or -1 if it cannot be read. Entries for another volume are kept but not used
 * on this one; a size the kernel cannot launch is retuned. */
int hr_tune_load(const char *path);
/* Limits of a kernel as the runtime reports them: largest block and registers (CUDA:
 * cudaFuncGetAttributes; emulated: from the declared limits). */
hr_kernel_limits hr_tune_kernel_limits(const void *func, hr_kernel_limits declared);
/* Launcher of the host form of the kernel language (emulated builds; C files of every build):
 * 1 if a block of `threads` may launch under `lim` (else records the refusal for
 * hr_tune_launched / hr_gpu_check_launch and returns 0); the thread order of block `block`
 * (HR_THREAD_LOOP). */
int hr_gpu_emu_launch_ok(const char *kernel, hr_kernel_limits lim, int threads);
void hr_gpu_emu_block(void *ctx, int block, int dim);
/* Emulated HR_LAUNCH: stop the program if the launch just made was refused. */
void hr_gpu_emu_check_launch(const char *kernel);
/* Emulated halo-stream launch (HR_TUNED_LAUNCH_HALO): on = 1 before the launch (stops the
 * program if compute kernels were launched since the last hr_gpu_halo_after_compute), 0 after
 * it. Every other emulated launch counts as compute work (hr_gpu_emu_launch_ok). */
void hr_gpu_emu_halo_launch(const char *kernel, int on);
/* Emulated: a kernel launch (from hr_gpu_emu_launch_ok), compute work unless on the halo stream. */
void hr_gpu_emu_note_launch(void);
/* Emulated builds, for tests: refuse launches with blocks above `threads` whatever the kernel
 * declares (0: no such limit), as a device that reports more than it accepts. */
void hr_gpu_emu_refuse_above(int threads);
/* End of a launch started with hr_tune_begin (records its time while exploring). */
void hr_tune_end(hr_tune_token *tok);
/* Record `seconds` for the launch of `tok` (hr_tune_end does this with the measured time;
 * tests call it with chosen times). */
void hr_tune_record(hr_tune_token *tok, double seconds);
/* The candidate block sizes of a class; returns their number. */
int hr_tune_candidates(hr_tune_class cls, const int **sizes);
/* The chosen block size of (kernel, n): > 0 when decided, 0 while exploring, -1 if unknown. */
int hr_tune_lookup(const char *kernel, int n);
/* Forget everything the tuner learnt. */
void hr_tune_reset(void);
/* Use block size `block` for every launch instead of tuning (0: tune again); reduction-class
 * kernels round it up to a multiple of HR_REDUCE_CHUNK. The environment variable
 * HR_GPU_BLOCK=<size> does the same from the start of a run (tests of block-size
 * independence). */
void hr_tune_force_block(int block);
/* Print the decided block sizes (kernel, n, block size, best time) to the log. */
void hr_tune_report(void);

/* ------------------------------------------------------------------ device site tables */

/* Where the stored indices of a geometry live in the device layout, for kernels that read
 * other sites than their own (neighbours, halo): for element e = ix - shift of a field on the
 * geometry, off[e] is the element where its piece (master or receive buffer) starts and len[e]
 * the piece length; the site is entry e - off[e] of that piece. Copies map to their master's
 * piece; -1 where the geometry stores nothing. Device memory (GPU builds). */
typedef struct {
  const int *off, *len;
  int shift; /* master_shift of the geometry */
} hr_gpu_sites;
/* Element of index ix in table tab: declares e_ (element), off_ (piece start), len_ (piece
 * length) for read_gpu_* / write_gpu_*(len_, ..., block + off_, e_ - off_, comp). */
#define HR_GPU_SITE_AT(tab, ix, e_, off_, len_)                                                \
  const int e_ = (ix) - (tab).shift;                                                           \
  const int off_ = (tab).off[e_];                                                              \
  const int len_ = (tab).len[e_]

/* The tables of glattice, glat_even or glat_odd, and device copies of hr_iup, hr_idn and
 * hr_ipt: built on first use for the current geometry, rebuilt when it changes (GPU builds
 * only). */
hr_gpu_sites hr_gpu_sites_of(const geometry_descriptor *g);
const int *hr_gpu_iup(void);
const int *hr_gpu_idn(void);
const int *hr_gpu_ipt(void);
/* Device copy of the global lexicographic index ((t GLB_X + x) GLB_Y + y) GLB_Z + z of every
 * stored element e = ix - glattice.master_shift of glattice (halo and copy elements: that of
 * the site they stand for): the key of the random streams of random_fields.h. */
const uint64_t *hr_gpu_global_index(void);
/* Device table of one byte per stored element e = ix - glattice.master_shift of glattice:
 * bit mu set when the site's global coordinate x_mu is GLB_SIZE[mu] - 1 (the link U_mu(x)
 * crosses the boundary), bit 4 + mu when x_mu is 0 (U_mu(x - mu) crosses it). */
const unsigned char *hr_gpu_edge_flags(void);
/* Free the tables (rebuilt on the next use; nothing to do in CPU builds). */
void hr_gpu_sites_release(void);

/* ------------------------------------------------------------------ device memory */

/* Allocate device memory (emulated: host memory aligned to 64 bytes); stops the program when
 * out of memory. Returns NULL for 0 bytes. */
void *hr_gpu_alloc(size_t bytes);
/* Free memory of hr_gpu_alloc (NULL is ignored). */
void hr_gpu_free(void *p);
/* Host memory the device copies to and from at full speed and asynchronously (CUDA:
 * page-locked, cudaMallocHost; otherwise aligned host memory): staging buffers of halos,
 * fields and reduction results. Stops when out of memory; NULL for 0 bytes. */
void *hr_gpu_host_alloc(size_t bytes);
/* Free memory of hr_gpu_host_alloc (NULL is ignored). */
void hr_gpu_host_free(void *p);
/* Copies between host and device memory (counted by the transfer counter below, under
 * `where`: a static string naming the caller), and inside device memory (not counted). */
void hr_gpu_copy_to_device_at(void *device, const void *host, size_t bytes, const char *where);
void hr_gpu_copy_to_host_at(void *host, const void *device, size_t bytes, const char *where);
/* The same, counted under the calling file and line. */
#define hr_gpu_copy_to_device(device, host, bytes)                                             \
  hr_gpu_copy_to_device_at(device, host, bytes, __FILE__ ":" HR_STR(__LINE__))
#define hr_gpu_copy_to_host(host, device, bytes)                                               \
  hr_gpu_copy_to_host_at(host, device, bytes, __FILE__ ":" HR_STR(__LINE__))
/* Copies of a halo exchange staged through host memory (MPI not reading device memory,
 * HR_GPU_HALO=host): counted as communication (HR_XFER_HALO_*), not as data moved. */
void hr_gpu_copy_halo_to_host(void *host, const void *device, size_t bytes);
void hr_gpu_copy_halo_to_device(void *device, const void *host, size_t bytes);
/* The same without waiting: ordered after every kernel launched before it and before every
 * later one (CUDA: the default stream); `host` (from hr_gpu_host_alloc) must not change
 * until the next hr_gpu_synchronize. */
void hr_gpu_copy_halo_to_device_async(void *device, const void *host, size_t bytes);
void hr_gpu_copy_on_device(void *dst, const void *src, size_t bytes);
/* The halo stream: the Dirac operators pack their halo and copy it between host and device
 * on a stream of its own, so that this overlaps the interior kernel on the compute stream
 * (the default stream, where every other kernel and copy runs). Events order the two:
 *   hr_gpu_halo_after_compute  later halo-stream work waits for the compute work queued so far
 *   hr_gpu_compute_after_halo  later compute work waits for the halo-stream work queued so far
 *   hr_gpu_halo_stream_wait    the host waits for the halo stream (before MPI reads a buffer)
 * and HR_TUNED_LAUNCH_HALO launches a kernel on it. hr_gpu_synchronize waits for both streams.
 * CUDA: a non-blocking stream and two events, made on first use. Emulated: kernels run at
 * launch, but the halo-stream copies are queued and done only when the host or the compute
 * stream waits for them, as late as a device may do them; until then their destination reads
 * as NaN (0xff bytes), so that a missing wait gives wrong results, never the right ones by
 * chance. */
void *hr_gpu_halo_stream(void); /* CUDA: the cudaStream_t; emulated: NULL */
void hr_gpu_halo_after_compute(void);
void hr_gpu_compute_after_halo(void);
void hr_gpu_halo_stream_wait(void);
/* Copies on the halo stream (host: memory of hr_gpu_host_alloc, unchanged until the copy is
 * waited for); the staged ones are counted as HR_XFER_HALO_*, as hr_gpu_copy_halo_*. */
void hr_gpu_halo_copy_to_host_async(void *host, const void *device, size_t bytes);
void hr_gpu_halo_copy_to_device_async(void *device, const void *host, size_t bytes);
void hr_gpu_halo_copy_on_device_async(void *dst, const void *src, size_t bytes);
/* Set device memory to zero bytes. */
void hr_gpu_zero(void *device, size_t bytes);
/* Wait until every launched kernel and copy has finished. */
void hr_gpu_synchronize(void);
/* Stop the program with a message if the last kernel launch failed (CUDA; no-op emulated). */
void hr_gpu_check_launch(const char *kernel);
/* Wall-clock time in seconds (for the tuner and benchmarks). */
double hr_gpu_wtime(void);

/* The GPU of this MPI rank: the ranks of a node (MPI_COMM_TYPE_SHARED) take the node's
 * devices in turn, device = node-local rank mod devices, unless the environment variable
 * HR_GPU_DEVICE=n names one. */
typedef struct {
  int device;      /* the device this rank uses */
  int devices;     /* devices visible on the node (the emulated backend: 1) */
  int local_ranks; /* ranks on this node */
  int local_rank;  /* this rank among them */
  int forced;      /* 1: chosen by HR_GPU_DEVICE */
} hr_gpu_device_choice;
/* Choose the device of this rank once (CUDA: cudaSetDevice) and return the choice;
 * hr_gpu_read_input calls it in GPU builds and logs it for every rank. Stops when no device is
 * visible or HR_GPU_DEVICE is not a device of the node. */
hr_gpu_device_choice hr_gpu_select_device(void);
/* Name, compute capability and memory of the chosen device (the emulated one: a fixed text). */
void hr_gpu_device_name(char *buf, size_t len);

/* How device halo exchanges reach MPI: auto (device memory where the MPI library reads it:
 * the emulated backend, CUDA-aware MPI by MPIX_Query_cuda_support; else host staging),
 * device (device pointers handed to MPI: for a CUDA-aware MPI that does not say so) or host
 * (staged through host buffers). Input key gpu:halo = auto|device|host (hr_gpu_read_input);
 * the environment variable HR_GPU_HALO (auto|device|host) overrides the key; a bad value
 * stops. */
typedef enum {
  HR_GPU_HALO_AUTO = 0,
  HR_GPU_HALO_DEVICE = 1,
  HR_GPU_HALO_HOST = 2
} hr_gpu_halo_path;
/* The names of the halo paths in the order of hr_gpu_halo_path (the key, the environment). */
#define HR_GPU_HALO_CHOICES "auto|device|host"
/* Choose the halo path (before the first exchange). */
void hr_gpu_set_halo_path(hr_gpu_halo_path path);
/* 1 when halo exchanges hand device memory to MPI, 0 when they are staged through the host. */
int hr_gpu_halo_through_device(void);

struct input_file;
/* Read the GPU key of a program's input file (after hr_setup, before input_finish): gpu:halo
 * (default auto; accepted and ignored in builds without a GPU). GPU builds then set the halo
 * path, choose the device of every rank (hr_gpu_select_device) and log both ([GPU][10] lines:
 * Doc/gpu.md, "The device of each rank"). */
void hr_gpu_read_input(struct input_file *in);

/* ------------------------------------------------------------------ launch counter */

/* The launches made at one call site of HR_LAUNCH / HR_TUNED_LAUNCH (kernel name, count). */
typedef struct hr_launch_site {
  const char *kernel;
  unsigned long long count;
  int listed;
  struct hr_launch_site *next;
} hr_launch_site;
/* List a call site (HR_COUNT_LAUNCH_, on its first launch). */
void hr_gpu_launch_register(hr_launch_site *site);
/* Launches since the last hr_gpu_launches_reset of the kernels whose name starts with prefix
 * ("" for all); a tuned launch counts once, however many block sizes it tried. */
unsigned long long hr_gpu_launch_count(const char *prefix);
/* Set every launch count to zero. */
void hr_gpu_launches_reset(void);

/* ------------------------------------------------------------------ transfer counter */

/* Every host <-> device copy of the runtime is counted (bytes and copies) by direction and
 * purpose, and by origin: the caller's file:line for hr_gpu_copy_to_*, the field kind's name
 * for the layout-converting copies of fields.h (copy_to_gpu_* / copy_from_gpu_*, also in the
 * emulated backend, which converts in place without a runtime copy), "halo" for staged halo
 * exchanges. Counted in every GPU build; tests use it to show what a computation moves. */
typedef enum {
  HR_XFER_TO_DEVICE = 0,      /* host -> device: fields, tables, scalars */
  HR_XFER_TO_HOST = 1,        /* device -> host */
  HR_XFER_HALO_TO_DEVICE = 2, /* staged halo exchange: received buffers up */
  HR_XFER_HALO_TO_HOST = 3,   /* staged halo exchange: packed send area down */
  HR_XFER_KINDS = 4
} hr_gpu_xfer_kind;
/* Bytes counted for `kind` since the last hr_gpu_transfers_reset (or the start). */
unsigned long long hr_gpu_transfer_bytes(hr_gpu_xfer_kind kind);
/* Number of copies counted for `kind` since the last reset. */
unsigned long long hr_gpu_transfer_copies(hr_gpu_xfer_kind kind);
/* Set every count (totals and origins) to zero. */
void hr_gpu_transfers_reset(void);
/* Count a copy of `bytes` of `kind` made for `what` (a static string); the runtime and the
 * field copies call it, code moving data by other means may too. */
void hr_gpu_transfer_note(hr_gpu_xfer_kind kind, size_t bytes, const char *what);
/* Origin number i (0, 1, ... in order of first use since the reset) of the counted copies:
 * its name, kind, bytes and copies; returns 0 when there is no origin i. */
int hr_gpu_transfer_origin(int i, const char **what, hr_gpu_xfer_kind *kind,
                           unsigned long long *bytes, unsigned long long *copies);

#ifdef __cplusplus
}
#endif

#endif
