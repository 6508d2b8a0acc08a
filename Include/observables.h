/* observables.h -- gauge observables of an suNg_field on glattice: average plaquette (all,
 * temporal, spatial; plain and with HiRep's open-boundary weights), the openQCD plaquette
 * sum, the Polyakov loop, and at zero flow time the clover-leaf action density E and the
 * topological charge Q with openQCD's definitions (Doc/archives_and_observables.md).
 * Backends (hr_backend_current(), backend.h): the CPU path reads the host copy of
 * u (made current first) including its halo (gauge layout, edges included): exchange the
 * host halo after changing u (the archive readers and the update functions of LibHR leave it
 * current). The GPU path (default in GPU builds) brings the device copy up to date and
 * exchanges its halo on the device itself (afterwards the device copy is the current one),
 * then runs one kernel per piece. Both paths evaluate the same per-site functions and sum
 * exactly: they agree bit for bit in the emulated backend, to rounding with CUDA. Results are
 * global (summed over all processes) and every process gets them.
 * Implemented in: LibHR/Observables/observables.c, LibHR/Observables/observables_gpu.c. */
#ifndef OBSERVABLES_H
#define OBSERVABLES_H

#include "fields.h"
#include "hr_complex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Average over sites and the 6 planes of Re tr P / NG (HiRep normalisation, all periodic). */
double avr_plaquette(const suNg_field *u);
/* The temporal (mu = 0) and spatial plane averages of Re tr P / NG; their mean is
 * avr_plaquette. */
void avr_plaquette_parts(double *temporal, double *spatial, const suNg_field *u);
/* HiRep's average plaquette for open time boundaries: space-like plaquettes at global t = 0
 * and t = GLB_T-1 weigh 1/2, time-like ones at t = GLB_T-1 weigh 0, the weighted sum of
 * Re tr P / NG is divided by 6 GLB_X GLB_Y GLB_Z (GLB_T-1). */
double avr_plaquette_open_bc(const suNg_field *u);
/* Sum over all 6 V plaquettes of Re tr P (no weights, no 1/NG): openQCD's header plaquette
 * is this divided by 6 V. */
double plaquette_retr_sum(const suNg_field *u);
/* Polyakov loop: average over spatial sites of tr(prod_t U_0(t, x)) / NG (complex). The
 * product runs over the whole time extent, across processes when NP_T > 1. */
hr_complex polyakov_loop(const suNg_field *u);

/* openQCD-style gauge observables at zero flow time (ms3's Wact, Yact and Q). */
typedef struct {
  double wact; /* sum of 2 Re tr(1 - P) over plaquettes (open b.c.: openQCD's weights) */
  double yact; /* sum over x of E(x) = -sum_{mu<nu} tr F_{mu nu}(x)^2 (clover F) */
  double qtop; /* sum over x of q(x), the clover topological charge density */
} gauge_action_observables;
/* Wact, Yact and Q as printed by openQCD's ms3 at flow time 0. With open_bc_t non-zero the
 * field has openQCD's open time boundaries: boundary weights in Wact, E and q summed only
 * over 0 < t < GLB_T-1. */
gauge_action_observables gauge_action_observables_compute(const suNg_field *u, int open_bc_t);
/* The per-site numbers of the Wilson flow's time-slice sums, 4 per site at (ix - master_shift)
 * 4 (zeros elsewhere): the site's spatial plaquettes' share of Wact plus half of its temporal
 * ones', the other half (it belongs to the next slice), E(x) and q(x), with open_bc_t as
 * above. A new host array of *n sites (free it); on the GPU path computed on the device
 * copy of u and copied back (32 bytes per site). */
double *gauge_flow_site_parts(const suNg_field *u, int open_bc_t, long *n);

#ifdef __cplusplus
}
#endif

#endif
