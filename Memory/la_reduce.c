/* la_reduce.c -- the reduction scratch of the linear algebra: grow-only host and device
 * arrays for the per-site contributions, which the CPU loops and the GPU kernels write and
 * the exact sum of reduction.h adds up (the same for both paths). */
#include <stdlib.h>

#include "hr_error.h"
#include "la_internal.h"

long la_count_sites(const geometry_descriptor *g) {
  long n = 0;
  for (int p = 0; p < g->local_master_pieces; p++) n += _PIECE_LENGTH(g, p);
  return n;
}

static double *host_part = NULL, *device_part = NULL;
static long host_len = 0, device_len = 0;

double *la_host_partials(long n) {
  if (n < 1) n = 1;
  if (n > host_len) {
    free(host_part);
    host_part = malloc((size_t)n * sizeof(double));
    if (host_part == NULL) hr_error("out of memory for %ld reduction contributions", n);
    host_len = n;
  }
  return host_part;
}

double *la_device_partials(long n) {
#if HR_GPU_ENABLED
  if (n < 1) n = 1;
  if (n > device_len) {
    hr_gpu_free(device_part);
    device_part = (double *)hr_gpu_alloc((size_t)n * sizeof(double));
    device_len = n;
  }
  return device_part;
#else
  (void)n, (void)device_len;
  hr_error("no device in a CPU build");
  return device_part;
#endif
}
