/* random_fields.h -- random fields drawn from the counter-based generator of random.h. Each
 * call takes one draw number (rng_next_draw(), the same on every process) and fills every
 * master site of the field's geometry from the stream (seed, draw, global index), where the
 * global index of the site with global coordinates (t,x,y,z) is
 *     ((t * GLB_X + x) * GLB_Y + y) * GLB_Z + z,
 * and link mu of that site uses the stream 4 * (global index) + mu. The result is therefore
 * the same, bit for bit, on every process grid, every number of threads and every backend;
 * a field on glat_even / glat_odd equals the even / odd part of a glattice field of the same
 * draw. Spinors and momenta are drawn where hr_backend_current() says (backend.h): on the
 * host copy, or by kernels on the device copy (GPU backend, the same bits); Haar-random gauge
 * fields on the host. The written copy becomes the current one; halo sites are not exchanged.
 * Each call gives the field a new version (fields.h).
 * Implemented in: Memory/random_fields.c, Memory/random_fields_gpu.c. */
#ifndef RANDOM_FIELDS_H
#define RANDOM_FIELDS_H

#include <stdint.h>

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Global index of any stored site ix (master, copy or halo): see above. */
uint64_t global_site_index(int ix);

/* Gaussian spinor: every real component (real and imaginary part of each spin-colour
 * component) independent N(0, 1/2), so <|psi_a|^2> = 1 per complex component and
 * <|psi(x)|^2> = 4 NF per site. Numbers taken per spin, per colour, real part first. */
void gaussian_spinor_field(spinor_field *s);
/* The same numbers rounded to single precision (equal to the rounded double field of the
 * same draw). */
void gaussian_spinor_field_flt(spinor_field_flt *s);
/* Every link an independent Haar-random SU(NG) matrix (suNg_random). */
void random_suNg_field(suNg_field *u);
/* Every link an algebra vector of independent standard normal components (HMC momenta,
 * distribution exp(-sum_a p_a^2 / 2)). */
void gaussian_momenta(suNg_av_field *momenta);

/* HiRep name of random_suNg_field. */
static inline void random_u(suNg_field *u) { random_suNg_field(u); }

#ifdef __cplusplus
}
#endif

#endif
