/* field_gpu_kernels_cuda.cu -- CUDA build of the device kernels of Memory/: the source is
 * field_gpu_kernels.c, written in the common subset of C11 and CUDA C++. */
#include "field_gpu_kernels.c"
