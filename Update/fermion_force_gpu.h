/* fermion_force_gpu.h -- the GPU path of the fermion force (internal to Update/): launchers
 * of the kernels of fermion_force_gpu.c, one per piece of the force (fermion_force.c calls
 * them on the device copies; compiled by nvcc in CUDA builds and by the host compiler in
 * emulated builds). Each runs one thread per master site of glattice (or of the geometry
 * given) calling the site function of fermion_force_sites.h that the CPU loop calls. The
 * view v must be a device view (device site tables, neighbour tables and spin matrices). */
#ifndef FERMION_FORCE_GPU_H
#define FERMION_FORCE_GPU_H

#include "fermion_force_sites.h"
#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ff_site_zero on every master site (z NULL: no clover accumulator). */
void fermion_force_gpu_zero(const fermion_force_view *v, suNf *sig, const ff_clover_acc *z);
/* full (device copy, glattice) = even on the even master sites, odd on the odd ones. */
void fermion_force_gpu_assemble(spinor_field *full, const spinor_field *even,
                                const spinor_field *odd);
/* ff_site_eo on every master site. */
void fermion_force_gpu_eo(const fermion_force_view *v, const suNf_spinor *L,
                          const suNf_spinor *R, suNf *sig, const ff_clover_acc *z,
                          hr_complex chop, hr_complex cclover);
/* ff_site_logdet on every master site of g. */
void fermion_force_gpu_logdet(const fermion_force_view *v, const geometry_descriptor *g,
                              const suNf_clover *inv, const ff_clover_acc *z, hr_complex cc);
/* ff_site_antihermitian on every master site. */
void fermion_force_gpu_antihermitian(const fermion_force_view *v, const ff_clover_acc *z);
/* ff_site_clover_sigma on every master site. */
void fermion_force_gpu_clover_sigma(suNf *sig, const fermion_force_view *v, const suNf *uf,
                                    const ff_clover_acc *z);
/* ff_site_apply on every master site. */
void fermion_force_gpu_apply(const fermion_force_view *v, const suNf *uf, const suNf *sig,
                             suNg_algebra_vector *p, double eps);

#ifdef __cplusplus
}
#endif

#endif
