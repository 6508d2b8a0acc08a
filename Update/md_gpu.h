/* md_gpu.h -- the GPU path of the molecular dynamics (internal to Update/): launchers of the
 * link-update kernels (md_gpu.c, compiled by nvcc in CUDA builds and by the host compiler in
 * emulated builds). */
#ifndef MD_GPU_H
#define MD_GPU_H

#include "fields.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* U <- exp(eps P) U on the device copies, one kernel per piece of the master sites of u. */
void md_gpu_update_links(suNg_field *u, const suNg_av_field *p, double eps);
/* sum over the master sites of p's geometry, all processes, of sum_{mu,a} p^a(x,mu)^2: per
 * site on the device copy, summed there exactly (hr_gpu_sum_sites, reduction.h). */
double md_gpu_kinetic(const suNg_av_field *p);

#ifdef __cplusplus
}
#endif

#endif
