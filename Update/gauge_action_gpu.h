/* gauge_action_gpu.h -- the GPU path of the gauge actions (internal to Update/): launchers of
 * the kernels of gauge_action_gpu.c (host compiler in emulated builds, nvcc through
 * gauge_action_gpu_cuda.cu in CUDA builds). Each launch covers one piece of a geometry with
 * one thread per master site and runs a per-site function of gauge_action_sites.h on the
 * device copies (device views: gauge_view_of_device). GPU builds only. */
#ifndef GAUGE_ACTION_GPU_H
#define GAUGE_ACTION_GPU_H

#include "gauge_action_sites.h"
#include "geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ga_site_store_staples(f, ix) for every master site ix of g. */
void ga_gpu_store_staples(const ga_fields *f, const geometry_descriptor *g);
/* ga_site_force_update(f, ix, rect, c0, c1, coef, b) for every master site ix of g. */
void ga_gpu_force_update(const ga_fields *f, const geometry_descriptor *g, int rect, double c0,
                         double c1, double coef, const ga_boundary *b);
/* Zero the momenta f->mom of the links ga_open_boundary_link(&f->u, ix, 0) of the master
 * sites ix of g (f->u: a device view with the time table; links not read). */
void ga_gpu_zero_open_momenta(const ga_fields *f, const geometry_descriptor *g);
/* ga_site_action(&plaq[e], &rects[e], v, ix, rect, b), e = ix - shift, for every master site
 * ix of g (device arrays). */
void ga_gpu_action(double *plaq, double *rects, const gauge_view *v, const geometry_descriptor *g,
                   int rect, const ga_boundary *b);

#ifdef __cplusplus
}
#endif

#endif
