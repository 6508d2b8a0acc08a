/* headers_check.cu -- compiled by nvcc in --enable-gpu=cuda builds: proves that the public
 * headers' per-site functions (random numbers, ...) compile as host and device code. */
#include "hr_build_config.h"
#include "hr_inline.h"
#include "random.h"

__global__ void draw_uniform(double *out, unsigned long long seed, unsigned long long draw, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    hr_rng_stream s;
    rng_stream_init(&s, seed, draw, (unsigned long long)i);
    out[i] = rng_uniform(&s);
  }
}
