/* la_reduce.c -- the reduction scratch (grow-only host and device arrays of chunk sums) and
 * the deterministic final summation: a fixed pairwise tree over the chunk sums of this
 * process, used by the CPU and the GPU path alike. */
#include <stdlib.h>

#include "hr_error.h"
#include "la_internal.h"

int la_count_chunks(const geometry_descriptor *g) {
  int n = 0;
  for (int p = 0; p < g->local_master_pieces; p++) n += la_piece_chunks(_PIECE_LENGTH(g, p));
  return n;
}

static double *host_part = NULL, *device_part = NULL;
static int host_len = 0, device_len = 0;

double *la_host_partials(int n) {
  if (n > host_len) {
    free(host_part);
    host_part = malloc((size_t)n * sizeof(double));
    if (host_part == NULL) hr_error("out of memory for %d reduction partial sums", n);
    host_len = n;
  }
  return host_part;
}

double *la_device_partials(int n) {
#if HR_GPU_ENABLED
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

/* Pairwise sum of x[0], x[stride], ..., n values (n >= 1): halves, recursively. */
static double pairwise(const double *x, int n, int stride) {
  if (n == 1) return x[0];
  if (n == 2) return x[0] + x[stride];
  const int h = n / 2;
  return pairwise(x, h, stride) + pairwise(x + (size_t)h * stride, n - h, stride);
}

void la_sum_partials(const double *part, int nchunks, int nres, double *res) {
  for (int k = 0; k < nres; k++) res[k] = nchunks > 0 ? pairwise(part + k, nchunks, 2) : 0.0;
}
