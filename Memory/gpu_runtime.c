/* gpu_runtime.c -- device memory, copies, synchronisation and launch checks of gpu.h: the
 * CUDA runtime in --enable-gpu=cuda builds, aligned host memory otherwise (the emulated
 * backend; CPU builds only use it in tests); and the transfer counter of every host <-> device
 * copy (by direction, purpose and origin). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "hr_error.h"

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
void hr_gpu_synchronize(void) { cuda_check(cudaDeviceSynchronize(), "synchronisation", 0); }
void hr_gpu_check_launch(const char *kernel) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    hr_error_code(HR_EXIT_SETUP, "launch of kernel %s failed: %s", kernel, cudaGetErrorString(err));
}
#else
void *hr_gpu_alloc(size_t bytes) {
  if (bytes == 0) return NULL;
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes) != 0 || p == NULL)
    hr_error_code(HR_EXIT_SETUP, "out of memory allocating %zu bytes of (emulated) device memory",
                  bytes);
  return p;
}
void hr_gpu_free(void *p) { free(p); }
/* The raw copies (not counted). */
static void raw_to_device(void *device, const void *host, size_t bytes) {
  if (bytes) memcpy(device, host, bytes);
}
static void raw_to_host(void *host, const void *device, size_t bytes) {
  if (bytes) memcpy(host, device, bytes);
}
void hr_gpu_copy_on_device(void *dst, const void *src, size_t bytes) {
  if (bytes) memmove(dst, src, bytes);
}
void hr_gpu_zero(void *device, size_t bytes) {
  if (bytes) memset(device, 0, bytes);
}
void hr_gpu_synchronize(void) {}
void hr_gpu_check_launch(const char *kernel) { (void)kernel; }
#endif

double hr_gpu_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
