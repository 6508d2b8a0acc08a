/* heatbath_gpu.h -- the GPU path of the pure-gauge update (internal to Update/): launchers of
 * the kernels of heatbath_gpu.c (host compiler in emulated builds, nvcc through
 * heatbath_gpu_cuda.cu in CUDA builds). Each launch covers one piece of a geometry with one
 * thread per master site, running the per-link functions of heatbath_sites.h on the device
 * copy of the links (view v with v->host == NULL, mem = the field's gpu_ptr). glb is the
 * device table of the global lexicographic index of every stored element e = ix - shift of
 * glattice (heatbath.c builds it). GPU builds only. */
#ifndef HEATBATH_GPU_H
#define HEATBATH_GPU_H

#include <stdint.h>

#include "gauge_view.h"
#include "geometry.h"
#include "heatbath_sites.h"

#ifdef __cplusplus
extern "C" {
#endif

/* hb_update_link(v, mem, ix, mu, glb[ix - shift], p) for every master site ix of g (glat_even
 * or glat_odd): one launch per piece of g. */
void hb_gpu_pass(const gauge_view *v, suNg *mem, const geometry_descriptor *g, int mu,
                 const hb_pass_params *p, const uint64_t *glb);
/* hb_start_site(v, mem, ix, glb[ix - shift], hot, seed, draw) for every master site ix of g:
 * one launch per piece of g. */
void hb_gpu_start(const gauge_view *v, suNg *mem, const geometry_descriptor *g, int hot,
                  uint64_t seed, uint64_t draw, const uint64_t *glb);

#ifdef __cplusplus
}
#endif

#endif
