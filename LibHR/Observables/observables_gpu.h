/* observables_gpu.h -- the GPU path of the gauge observables (internal to LibHR/Observables):
 * launchers of the kernels of observables_gpu.c (host compiler in emulated builds, nvcc
 * through observables_gpu_cuda.cu in CUDA builds). Each kernel evaluates a per-site function
 * of observables_sites.h on the device copy of the links and writes one value per site into
 * device arrays indexed like the field (element ix - master_shift), which observables.c copies
 * to the host and sums exactly, as the CPU path does. */
#ifndef OBSERVABLES_GPU_H
#define OBSERVABLES_GPU_H

#include "geometry.h"
#include "observables_sites.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[ix - shift] = obs_site_plaquettes(v, ix, which) for every master site ix of g (one
 * launch per piece); v and out in device memory. */
void obs_gpu_plaquettes(double *out, const obs_gauge_view *v, const geometry_descriptor *g,
                        int which);
/* obs_site_action(v, ix, open_bc_t, &w[e], &e_[e], &q[e]), e = ix - shift, for every master
 * site ix of g (one launch per piece). */
void obs_gpu_action(double *w, double *e, double *q,
                    const obs_gauge_view *v, const geometry_descriptor *g, int open_bc_t);
/* obs_site_flow_parts(&r[4 e], v, ix, open_bc_t), e = ix - shift, for every master site ix of
 * g (one launch per piece). */
void obs_gpu_flow_parts(double *r, const obs_gauge_view *v, const geometry_descriptor *g,
                        int open_bc_t);
/* For s < vs: obs_polyakov_line(v, ipt, vs, s, nt, start_new, &line[s]) and, when re and im
 * are not NULL, the real and imaginary part of its trace into re[s], im[s]. */
void obs_gpu_polyakov(suNg *line, double *re, double *im, const obs_gauge_view *v, const int *ipt,
                      int vs, int nt, int start_new);

#ifdef __cplusplus
}
#endif

#endif
