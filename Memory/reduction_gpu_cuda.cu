/* reduction_gpu_cuda.cu -- CUDA build of the kernels of the exact sums: the source is
 * reduction_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "reduction_gpu.c"
