/* dirac_gpu_cuda.cu -- CUDA build of the GPU path of the Dirac operators: the source is
 * dirac_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "dirac_gpu.c"
