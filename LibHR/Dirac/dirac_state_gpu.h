/* dirac_state_gpu.h -- the GPU path of the derived state of the Dirac operators (internal to
 * LibHR/Dirac): launchers of the kernels (dirac_state_gpu.c) that build the represented
 * links, their single-precision copy and the clover blocks on the device copies, and zero a
 * spinor on the outer slices of open time boundaries. */
#ifndef DIRAC_STATE_GPU_H
#define DIRAC_STATE_GPU_H

#include "dirac_state_sites.h"
#include "fields.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* uf = phase R(u) and uf_flt = uf rounded, on the master sites of glattice (device copies,
 * current for u; written for uf and uf_flt; halos are left to the caller). */
void dirac_gpu_represent(suNf *uf, suNf_flt *uf_flt, const suNg *u, const dirac_phases *ph);

/* The clover state on the master sites of glattice from the links view v (device copy,
 * halo current): blocks blk, inverses inv, their single-precision copies and the log det of
 * both blocks per site (device arrays indexed by ix - master_shift; dirac_site_clover). */
void dirac_gpu_clover(suNf_clover *blk, suNf_clover *inv, suNf_clover_flt *blk_flt,
                      suNf_clover_flt *inv_flt, double *logdet, const dirac_links_view *v,
                      const dirac_sigma_blocks *sig, double csw, double m0);

/* s = 0 on the time slices 0 and GLB_T - 1 (device copy, brought up to date first; time: the
 * device time table of dirac_time_table). */
void dirac_gpu_zero_outer_slices(spinor_field *s, const int *time);

#ifdef __cplusplus
}
#endif

#endif
