/* heatbath_gpu_cuda.cu -- CUDA build of the GPU path of the pure-gauge update: the source is
 * heatbath_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "heatbath_gpu.c"
