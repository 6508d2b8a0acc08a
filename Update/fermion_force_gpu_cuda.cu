/* fermion_force_gpu_cuda.cu -- CUDA build of the GPU path of the fermion force: the source is
 * fermion_force_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "fermion_force_gpu.c"
