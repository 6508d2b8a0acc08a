/* random_fields_gpu_cuda.cu -- CUDA build of the GPU path of the random fields: the source is
 * random_fields_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "random_fields_gpu.c"
