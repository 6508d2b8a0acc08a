/* gpu_runtime.c -- device memory, copies, synchronisation and launch checks of gpu.h: the
 * CUDA runtime in --enable-gpu=cuda builds, aligned host memory otherwise (the emulated
 * backend; CPU builds only use it in tests). */
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
void hr_gpu_copy_to_device(void *device, const void *host, size_t bytes) {
  if (bytes) cuda_check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "copy to device", bytes);
}
void hr_gpu_copy_to_host(void *host, const void *device, size_t bytes) {
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
void hr_gpu_copy_to_device(void *device, const void *host, size_t bytes) {
  if (bytes) memcpy(device, host, bytes);
}
void hr_gpu_copy_to_host(void *host, const void *device, size_t bytes) {
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
