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

/* The site of thread i of a launch over the runs rs, or -1 past the last run. */
HR_INLINE int dirac_gpu_run_site(const dirac_gpu_runs *rs, int i) {
  if (i >= rs->first_thread[rs->n]) return -1;
  int r = 0;
  while (r + 1 < rs->n && i >= rs->first_thread[r + 1]) ++r;
  return rs->start[r] + i - rs->first_thread[r];
}

/* The runs of the pieces *p .. p1-1 of g that fit in one launch (consecutive pieces merged,
 * empty ones skipped); *p is advanced past them. */
static dirac_gpu_runs dirac_gpu_runs_of(const geometry_descriptor *g, int *p, int p1) {
  dirac_gpu_runs rs;
  rs.n = 0;
  rs.first_thread[0] = 0;
  for (; *p < p1; ++*p) {
    const int len = _PIECE_LENGTH(g, *p), start = g->master_start[*p];
    if (len <= 0) continue;
    /* one past the last index of the last run */
    const int end =
        rs.n > 0 ? rs.start[rs.n - 1] + rs.first_thread[rs.n] - rs.first_thread[rs.n - 1] : -1;
    if (rs.n > 0 && start == end) {
      rs.first_thread[rs.n] += len; /* continues the last run */
      continue;
    }
    if (rs.n == DIRAC_GPU_MAX_RUNS) break;
    rs.start[rs.n] = start;
    rs.first_thread[rs.n + 1] = rs.first_thread[rs.n] + len;
    rs.n++;
  }
  return rs;
}

#define DGPU_SFX
#define DGPU_SPINOR suNf_spinor
#define DGPU_VEC suNf_vector
#define DGPU_MAT suNf
#define DGPU_CLOVER suNf_clover
#define DGPU_REAL double
#define DGPU_CPLX hr_complex
#define DGPU_MKCPLX hr_cmplx
/* Budgets (Doc/gpu.md): 128 registers at blocks of up to 256 threads. */
#define DGPU_REGS 128
#define DGPU_THREADS 256
#include "dirac_gpu_template.h"

#define DGPU_SFX _flt
#define DGPU_SPINOR suNf_spinor_flt
#define DGPU_VEC suNf_vector_flt
#define DGPU_MAT suNf_flt
#define DGPU_CLOVER suNf_clover_flt
#define DGPU_REAL float
#define DGPU_CPLX hr_complex_flt
#define DGPU_MKCPLX hr_cmplx_flt
/* 96 registers: __launch_bounds__ only holds a kernel to 96 with blocks of at most 128
 * threads (five blocks per multiprocessor). */
#define DGPU_REGS 96
#define DGPU_THREADS 128
#include "dirac_gpu_template.h"

#else
/* Nothing to build without a GPU backend. */
typedef int hr_dirac_gpu_unused;
#endif
