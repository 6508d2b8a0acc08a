/* linear_algebra_gpu_cuda.cu -- CUDA build of the GPU path of the linear algebra: the source is
 * linear_algebra_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "linear_algebra_gpu.c"
