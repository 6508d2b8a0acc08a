/* observables_gpu_cuda.cu -- CUDA build of the GPU path of the gauge observables: the source is
 * observables_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "observables_gpu.c"
