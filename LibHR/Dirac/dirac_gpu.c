/* dirac_gpu.c -- kernels and per-piece launchers of the GPU path of the Dirac operators: one
 * thread per output site reads its neighbours, links and clover block from the device layout
 * (gpu.h) through the site tables of dirac_gpu.h and applies the per-site functions of
 * dirac_site.h, the same ones the CPU loops use. Both precisions come from
 * dirac_gpu_template.h. Written in the common subset of C11 and CUDA C++: the host compiler
 * builds it for the emulated backend, nvcc through dirac_gpu_cuda.cu; CPU builds compile
 * nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "dirac_gpu.h"
#include "dirac_site.h"
#include "gpu.h"

#define DGPU_SFX
#define DGPU_SPINOR suNf_spinor
#define DGPU_VEC suNf_vector
#define DGPU_MAT suNf
#define DGPU_CLOVER suNf_clover
#define DGPU_REAL double
#define DGPU_CPLX hr_complex
#define DGPU_REGS 128
#include "dirac_gpu_template.h"

#define DGPU_SFX _flt
#define DGPU_SPINOR suNf_spinor_flt
#define DGPU_VEC suNf_vector_flt
#define DGPU_MAT suNf_flt
#define DGPU_CLOVER suNf_clover_flt
#define DGPU_REAL float
#define DGPU_CPLX hr_complex_flt
#define DGPU_REGS 96
#include "dirac_gpu_template.h"

#else
/* Nothing to build without a GPU backend. */
typedef int hr_dirac_gpu_unused;
#endif
