/* gpu_runtime.c -- device memory, copies, synchronisation and launch checks of gpu.h: the
 * CUDA runtime in --enable-gpu=cuda builds, aligned host memory otherwise (the emulated
 * backend; CPU builds only use it in tests); the device of each rank and the input key
 * gpu:halo (hr_gpu_read_input); and the transfer counter of every host <-> device copy (by
 * direction, purpose and origin). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "host_memory.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#if HR_WITH_MPI
#include <mpi.h>
#endif

#if HR_GPU_BACKEND == HR_GPU_CUDA
#include <cuda_runtime_api.h>

/* Stop with the CUDA error text. */
static void cuda_check(cudaError_t err, const char *what, size_t bytes) {
  if (err != cudaSuccess)
    hr_error_code(HR_EXIT_SETUP, "CUDA %s (%zu bytes) failed: %s; check that a GPU is visible "
                  "(nvidia-smi) and has enough free memory",
                  what, bytes, cudaGetErrorString(err));
}

void *hr_gpu_alloc(size_t bytes) {
  if (bytes == 0) return NULL;
  void *p = NULL;
  cuda_check(cudaMalloc(&p, bytes), "cudaMalloc", bytes);
  return p;
}
void hr_gpu_free(void *p) {
  if (p != NULL) cuda_check(cudaFree(p), "cudaFree", 0);
}
/* The raw copies (not counted). */
static void raw_to_device(void *device, const void *host, size_t bytes) {
  if (bytes) cuda_check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "copy to device", bytes);
}
static void raw_to_host(void *host, const void *device, size_t bytes) {
  if (bytes) cuda_check(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), "copy to host", bytes);
}
void hr_gpu_copy_on_device(void *dst, const void *src, size_t bytes) {
  if (bytes) cuda_check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "device copy", bytes);
}
void hr_gpu_zero(void *device, size_t bytes) {
  if (bytes) cuda_check(cudaMemset(device, 0, bytes), "cudaMemset", bytes);
}
void *hr_gpu_host_alloc(size_t bytes) {
  if (bytes == 0) return NULL;
  void *p = NULL;
  cuda_check(cudaMallocHost(&p, bytes), "cudaMallocHost (page-locked host memory)", bytes);
  return p;
}
void hr_gpu_host_free(void *p) {
  if (p != NULL) cuda_check(cudaFreeHost(p), "cudaFreeHost", 0);
}
/* On the legacy default stream: after every launched kernel, before every later one. */
static void raw_to_device_async(void *device, const void *host, size_t bytes) {
  if (bytes)
    cuda_check(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, 0),
               "asynchronous copy to device", bytes);
}
void hr_gpu_synchronize(void) { cuda_check(cudaDeviceSynchronize(), "synchronisation", 0); }

/* The halo stream (gpu.h) and the events that order it against the default stream. */
static cudaStream_t halo_stream;
static cudaEvent_t compute_done, halo_done;
static void halo_stream_init(void) {
  if (halo_stream != NULL) return;
  cuda_check(cudaStreamCreateWithFlags(&halo_stream, cudaStreamNonBlocking), "stream creation", 0);
  cuda_check(cudaEventCreateWithFlags(&compute_done, cudaEventDisableTiming), "event creation", 0);
  cuda_check(cudaEventCreateWithFlags(&halo_done, cudaEventDisableTiming), "event creation", 0);
}
void *hr_gpu_halo_stream(void) {
  halo_stream_init();
  return (void *)halo_stream;
}
void hr_gpu_halo_after_compute(void) {
  halo_stream_init();
  cuda_check(cudaEventRecord(compute_done, 0), "event record", 0);
  cuda_check(cudaStreamWaitEvent(halo_stream, compute_done, 0), "stream wait", 0);
}
void hr_gpu_compute_after_halo(void) {
  halo_stream_init();
  cuda_check(cudaEventRecord(halo_done, halo_stream), "event record", 0);
  cuda_check(cudaStreamWaitEvent(0, halo_done, 0), "stream wait", 0);
}
void hr_gpu_halo_stream_wait(void) {
  halo_stream_init();
  cuda_check(cudaStreamSynchronize(halo_stream), "halo stream synchronisation", 0);
}
/* A copy on the halo stream. */
static void raw_halo_copy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind) {
  halo_stream_init();
  if (bytes)
    cuda_check(cudaMemcpyAsync(dst, src, bytes, kind, halo_stream), "halo stream copy", bytes);
}
/* Emulated-backend hooks: nothing to check on a device. */
void hr_gpu_emu_halo_launch(const char *kernel, int on) {
  (void)kernel;
  (void)on;
}
void hr_gpu_emu_note_launch(void) {}
#define HALO_TO_HOST_ cudaMemcpyDeviceToHost
#define HALO_TO_DEVICE_ cudaMemcpyHostToDevice
#define HALO_ON_DEVICE_ cudaMemcpyDeviceToDevice
void hr_gpu_check_launch(const char *kernel) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    hr_error_code(HR_EXIT_SETUP, "launch of kernel %s failed: %s", kernel, cudaGetErrorString(err));
}
#else
void *hr_gpu_alloc(size_t bytes) {
  return bytes == 0 ? NULL : hr_host_alloc(bytes, "(emulated) device memory");
}
static void emu_halo_drain(void);
/* As cudaFree, wait for the queued copies first (one of them may target p). */
void hr_gpu_free(void *p) {
  emu_halo_drain();
  hr_host_free(p);
}
void *hr_gpu_host_alloc(size_t bytes) { return hr_gpu_alloc(bytes); }
void hr_gpu_host_free(void *p) { hr_gpu_free(p); }
/* The raw copies (not counted). */
static void raw_to_device(void *device, const void *host, size_t bytes) {
  if (bytes) memcpy(device, host, bytes);
}
static void raw_to_host(void *host, const void *device, size_t bytes) {
  if (bytes) memcpy(host, device, bytes);
}
/* Kernels run when launched: the copy is done at once. */
static void raw_to_device_async(void *device, const void *host, size_t bytes) {
  raw_to_device(device, host, bytes);
}
void hr_gpu_copy_on_device(void *dst, const void *src, size_t bytes) {
  if (bytes) memmove(dst, src, bytes);
}
void hr_gpu_zero(void *device, size_t bytes) {
  if (bytes) memset(device, 0, bytes);
}
void hr_gpu_check_launch(const char *kernel) { (void)kernel; }

/* The emulated halo stream (gpu.h): its copies wait in a queue until the host or the compute
 * stream waits for them; their destinations read as NaN meanwhile. */
typedef struct {
  void *dst;
  const void *src;
  size_t bytes;
} emu_copy;
static emu_copy *emu_queue;
static int emu_queued, emu_queue_cap;
static int emu_compute_since_join; /* compute kernels launched since hr_gpu_halo_after_compute */
static int emu_in_halo_launch;
static void raw_halo_copy(void *dst, const void *src, size_t bytes, int kind) {
  (void)kind;
  if (bytes == 0) return;
  if (emu_queued == emu_queue_cap) {
    emu_queue_cap = emu_queue_cap ? 2 * emu_queue_cap : 16;
    emu_queue = (emu_copy *)realloc(emu_queue, (size_t)emu_queue_cap * sizeof(emu_copy));
    if (emu_queue == NULL) hr_error_code(HR_EXIT_SETUP, "out of memory (emulated halo stream)");
  }
  emu_queue[emu_queued].dst = dst;
  emu_queue[emu_queued].src = src;
  emu_queue[emu_queued].bytes = bytes;
  emu_queued++;
  memset(dst, 0xff, bytes);
}
static void emu_halo_drain(void) {
  for (int i = 0; i < emu_queued; i++)
    memmove(emu_queue[i].dst, emu_queue[i].src, emu_queue[i].bytes);
  emu_queued = 0;
}
void *hr_gpu_halo_stream(void) { return NULL; }
void hr_gpu_halo_after_compute(void) { emu_compute_since_join = 0; }
void hr_gpu_compute_after_halo(void) { emu_halo_drain(); }
void hr_gpu_halo_stream_wait(void) { emu_halo_drain(); }
void hr_gpu_synchronize(void) { emu_halo_drain(); }
void hr_gpu_emu_halo_launch(const char *kernel, int on) {
  if (on && emu_compute_since_join)
    hr_error("kernel %s is launched on the halo stream after compute kernels without "
             "hr_gpu_halo_after_compute: on a GPU it could run before them (gpu.h)", kernel);
  emu_in_halo_launch = on;
}
void hr_gpu_emu_note_launch(void) {
  if (!emu_in_halo_launch) emu_compute_since_join = 1;
}
#define HALO_TO_HOST_ 0
#define HALO_TO_DEVICE_ 0
#define HALO_ON_DEVICE_ 0
#endif

/* ------------------------------------------------------------------ device of this rank */

static hr_gpu_device_choice device_choice = {-1, 0, 1, 0, 0};

/* This rank's rank among the ranks of its node, and their number (MPI_COMM_TYPE_SHARED). */
static void node_local_rank(int *local, int *nlocal) {
  *local = 0;
  *nlocal = 1;
#if HR_WITH_MPI
  int init = 0;
  MPI_Initialized(&init);
  if (!init) return;
  MPI_Comm node;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, local);
  MPI_Comm_size(node, nlocal);
  MPI_Comm_free(&node);
#endif
}

hr_gpu_device_choice hr_gpu_select_device(void) {
  if (device_choice.device >= 0) return device_choice;
  hr_gpu_device_choice c;
  node_local_rank(&c.local_rank, &c.local_ranks);
  c.forced = 0;
#if HR_GPU_BACKEND == HR_GPU_CUDA
  int n = 0;
  cuda_check(cudaGetDeviceCount(&n), "cudaGetDeviceCount", 0);
  if (n < 1)
    hr_error_code(HR_EXIT_SETUP, "no CUDA device is visible to this process (node-local rank "
                  "%d): check nvidia-smi and CUDA_VISIBLE_DEVICES", c.local_rank);
#else
  const int n = 1; /* the emulated device */
#endif
  c.devices = n;
  c.device = c.local_rank % n;
  const char *env = getenv("HR_GPU_DEVICE");
  if (env != NULL && *env != '\0') {
    char *end = NULL;
    const long d = strtol(env, &end, 10);
    if (*end != '\0' || d < 0 || d >= n)
      hr_error_code(HR_EXIT_SETUP, "HR_GPU_DEVICE=%s: not a device number 0..%d of this node",
                    env, n - 1);
    c.device = (int)d;
    c.forced = 1;
  }
#if HR_GPU_BACKEND == HR_GPU_CUDA
  cuda_check(cudaSetDevice(c.device), "cudaSetDevice", 0);
#endif
  device_choice = c;
  return c;
}

void hr_gpu_device_name(char *buf, size_t len) {
#if HR_GPU_BACKEND == HR_GPU_CUDA
  struct cudaDeviceProp prop;
  cuda_check(cudaGetDeviceProperties(&prop, device_choice.device < 0 ? 0 : device_choice.device),
             "cudaGetDeviceProperties", 0);
  snprintf(buf, len, "%s, compute capability %d.%d, %.1f GiB", prop.name, prop.major,
           prop.minor, (double)prop.totalGlobalMem / 1073741824.);
#else
  snprintf(buf, len, "emulated device (host memory and threads)");
#endif
}

#if HR_GPU_ENABLED
/* Choose the GPU of every rank (hr_gpu_select_device) and say which: one line per rank on
 * rank 0's log, and a note when ranks of a node share a device. */
static void log_gpu_devices(void) {
  const hr_gpu_device_choice c = hr_gpu_select_device();
  char name[256];
  hr_gpu_device_name(name, sizeof name);
  int mine[5] = {c.device, c.devices, c.local_rank, c.local_ranks, c.forced};
  int n = hr_nranks();
  int *all = hr_rank() == 0 ? malloc(sizeof(int) * 5 * (size_t)n) : NULL;
  if (hr_rank() == 0 && all == NULL) hr_error("out of memory (device log)");
#if HR_WITH_MPI
  if (hr_mpi_running())
    MPI_Gather(mine, 5, MPI_INT, all, 5, MPI_INT, 0, MPI_COMM_WORLD);
  else if (all != NULL)
    memcpy(all, mine, sizeof mine);
#else
  if (all != NULL) memcpy(all, mine, sizeof mine);
#endif
  lprintf("GPU", 10, "rank 0 uses %s\n", name);
  lprintf("GPU", 10, "halo exchange (MPI builds): %s\n",
          hr_gpu_halo_through_device() ? "device memory handed to MPI"
                                       : "staged through host memory");
  for (int r = 0; r < n && all != NULL; r++) {
    const int *a = all + 5 * r;
    lprintf("GPU", 10, "rank %d: device %d of %d on its node (node-local rank %d of %d%s)%s\n",
            r, a[0], a[1], a[2], a[3], a[4] ? ", set by HR_GPU_DEVICE" : "",
            a[3] > a[1] ? ": ranks of this node share its devices" : "");
  }
  free(all);
}
#endif

void hr_gpu_read_input(struct input_file *in) {
  int halo_path = HR_GPU_HALO_AUTO;
  const input_key keys[] = {
      {"gpu:halo", INPUT_CHOICE, &halo_path, "auto", HR_GPU_HALO_CHOICES,
       "GPU halo exchanges: device memory to MPI where it reads it (auto), always (device), "
       "or staged through host memory (host)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
#if HR_GPU_ENABLED
  hr_gpu_set_halo_path((hr_gpu_halo_path)halo_path);
  log_gpu_devices();
#endif
}

double hr_gpu_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ launch counter */

static hr_launch_site *launch_sites = NULL;

void hr_gpu_launch_register(hr_launch_site *site) {
  HR_OMP_PRAGMA(omp critical(hr_gpu_launches)) {
    if (!site->listed) {
      site->next = launch_sites;
      launch_sites = site;
      site->listed = 1;
    }
  }
}

unsigned long long hr_gpu_launch_count(const char *prefix) {
  unsigned long long n = 0;
  const size_t len = strlen(prefix);
  for (const hr_launch_site *s = launch_sites; s != NULL; s = s->next)
    if (strncmp(s->kernel, prefix, len) == 0) n += s->count;
  return n;
}

void hr_gpu_launches_reset(void) {
  for (hr_launch_site *s = launch_sites; s != NULL; s = s->next) s->count = 0;
}

/* ------------------------------------------------------------------ transfer counter */

/* Origins kept apart; later ones are counted under the last entry ("other"). */
#define XFER_ORIGINS 64

static struct {
  unsigned long long bytes[HR_XFER_KINDS], copies[HR_XFER_KINDS];
  int norigins;
  struct {
    const char *what;
    hr_gpu_xfer_kind kind;
    unsigned long long bytes, copies;
  } origin[XFER_ORIGINS];
} xfer;

void hr_gpu_transfer_note(hr_gpu_xfer_kind kind, size_t bytes, const char *what) {
  if (bytes == 0 || (int)kind < 0 || (int)kind >= HR_XFER_KINDS) return;
  HR_OMP_PRAGMA(omp critical(hr_gpu_xfer)) {
    xfer.bytes[kind] += bytes;
    xfer.copies[kind]++;
    int i = 0;
    while (i < xfer.norigins &&
           !(xfer.origin[i].kind == kind && strcmp(xfer.origin[i].what, what) == 0))
      i++;
    if (i == xfer.norigins) {
      if (i == XFER_ORIGINS) {
        i = XFER_ORIGINS - 1;
        xfer.origin[i].what = "other";
      } else {
        xfer.norigins++;
        xfer.origin[i].what = what;
        xfer.origin[i].kind = kind;
        xfer.origin[i].bytes = xfer.origin[i].copies = 0;
      }
    }
    xfer.origin[i].bytes += bytes;
    xfer.origin[i].copies++;
  }
}

unsigned long long hr_gpu_transfer_bytes(hr_gpu_xfer_kind kind) {
  return (int)kind >= 0 && (int)kind < HR_XFER_KINDS ? xfer.bytes[kind] : 0;
}
unsigned long long hr_gpu_transfer_copies(hr_gpu_xfer_kind kind) {
  return (int)kind >= 0 && (int)kind < HR_XFER_KINDS ? xfer.copies[kind] : 0;
}
void hr_gpu_transfers_reset(void) { memset(&xfer, 0, sizeof xfer); }

int hr_gpu_transfer_origin(int i, const char **what, hr_gpu_xfer_kind *kind,
                           unsigned long long *bytes, unsigned long long *copies) {
  if (i < 0 || i >= xfer.norigins) return 0;
  *what = xfer.origin[i].what;
  *kind = xfer.origin[i].kind;
  *bytes = xfer.origin[i].bytes;
  *copies = xfer.origin[i].copies;
  return 1;
}

/* ------------------------------------------------------------------ counted copies */

void hr_gpu_copy_to_device_at(void *device, const void *host, size_t bytes, const char *where) {
  hr_gpu_transfer_note(HR_XFER_TO_DEVICE, bytes, where);
  raw_to_device(device, host, bytes);
}
void hr_gpu_copy_to_host_at(void *host, const void *device, size_t bytes, const char *where) {
  hr_gpu_transfer_note(HR_XFER_TO_HOST, bytes, where);
  raw_to_host(host, device, bytes);
}
void hr_gpu_copy_halo_to_host(void *host, const void *device, size_t bytes) {
  hr_gpu_transfer_note(HR_XFER_HALO_TO_HOST, bytes, "halo");
  raw_to_host(host, device, bytes);
}
void hr_gpu_copy_halo_to_device(void *device, const void *host, size_t bytes) {
  hr_gpu_transfer_note(HR_XFER_HALO_TO_DEVICE, bytes, "halo");
  raw_to_device(device, host, bytes);
}
void hr_gpu_copy_halo_to_device_async(void *device, const void *host, size_t bytes) {
  hr_gpu_transfer_note(HR_XFER_HALO_TO_DEVICE, bytes, "halo");
  raw_to_device_async(device, host, bytes);
}
void hr_gpu_halo_copy_to_host_async(void *host, const void *device, size_t bytes) {
  hr_gpu_transfer_note(HR_XFER_HALO_TO_HOST, bytes, "halo");
  raw_halo_copy(host, device, bytes, HALO_TO_HOST_);
}
void hr_gpu_halo_copy_to_device_async(void *device, const void *host, size_t bytes) {
  hr_gpu_transfer_note(HR_XFER_HALO_TO_DEVICE, bytes, "halo");
  raw_halo_copy(device, host, bytes, HALO_TO_DEVICE_);
}
void hr_gpu_halo_copy_on_device_async(void *dst, const void *src, size_t bytes) {
  raw_halo_copy(dst, src, bytes, HALO_ON_DEVICE_);
}
