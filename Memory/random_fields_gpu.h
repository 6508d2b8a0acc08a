/* random_fields_gpu.h -- the GPU path of the random fields (internal to Memory/): launchers of
 * the kernels of random_fields_gpu.c, which fill the master sites of a field's device copy
 * with the same per-site draws as the CPU loops (random_sites.h). */
#ifndef RANDOM_FIELDS_GPU_H
#define RANDOM_FIELDS_GPU_H

#include <stdint.h>

#include "geometry.h"
#include "suN_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Gaussian spinors on the master sites of g (dev: device copy of a field on g). */
void random_gpu_spinor(const geometry_descriptor *g, suNf_spinor *dev, uint64_t seed,
                       uint64_t draw);
void random_gpu_spinor_flt(const geometry_descriptor *g, suNf_spinor_flt *dev, uint64_t seed,
                           uint64_t draw);
/* Gaussian momenta on every link of the master sites of g. */
void random_gpu_momenta(const geometry_descriptor *g, suNg_algebra_vector *dev, uint64_t seed,
                        uint64_t draw);

#ifdef __cplusplus
}
#endif

#endif
