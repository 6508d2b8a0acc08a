/* md_gpu_cuda.cu -- CUDA build of the GPU path of the molecular dynamics: the source is
 * md_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "md_gpu.c"
