/* gauge_action_gpu_cuda.cu -- CUDA build of the GPU path of the gauge actions: the source is
 * gauge_action_gpu.c, written in the common subset of C11 and CUDA C++. */
#include "gauge_action_gpu.c"
