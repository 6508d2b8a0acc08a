/* dirac_state_gpu_cuda.cu -- CUDA build of the kernels of the derived Dirac state: the source
 * is dirac_state_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "dirac_state_gpu.c"
