/* heatbath.h -- pure-gauge updates of the Wilson action beta sum_P (1 - Re tr P / NG) for any
 * NG: Cabibbo-Marinari heatbath over all NG(NG-1)/2 SU(2) subgroups (Kennedy-Pendleton for
 * large coupling of the subgroup, a direct rejection step for small), over-relaxation, and
 * cold / hot starts. Links of one direction on sites of one parity share no staple, so each
 * sweep runs as 8 passes (parity x direction) parallel over sites (OpenMP, MPI); the halo of
 * the gauge field is exchanged after every pass. Random numbers: one draw number per pass
 * (rng_next_draw) and one stream per link keyed by its global index 4 * site + mu, so a run
 * does not depend on the process grid or the number of threads. In GPU builds with
 * hr_backend_current() == HR_BACKEND_GPU (the default there) every function runs on the
 * device copy of u (one kernel launch per piece and pass; afterwards only the device copy is
 * current), with the same random streams and per-link code as the CPU path, so both paths
 * give the same links (bitwise in the emulated build). u must live on glattice. Every
 * function is collective and leaves the halo of u current. Doc/pure_gauge.md.
 * Implemented in: Update/heatbath.c, Update/heatbath_gpu.c. */
#ifndef HEATBATH_H
#define HEATBATH_H

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One heatbath sweep over every link at coupling beta (beta >= 0). */
void heatbath_sweep(suNg_field *u, double beta);
/* One over-relaxation sweep over every link (keeps the action unchanged; needs no random
 * numbers). */
void overrelaxation_sweep(suNg_field *u);
/* nhb heatbath sweeps followed by nor over-relaxation sweeps. */
void pure_gauge_update(suNg_field *u, double beta, int nhb, int nor);
/* Cold start: every link the unit matrix. */
void gauge_field_cold(suNg_field *u);
/* Hot start: every link Haar-random (one draw number; stream per link). */
void gauge_field_hot(suNg_field *u);
/* Number of link updates of one sweep on the whole lattice (4 GLB_VOLUME). */
double links_per_sweep(void);

#ifdef __cplusplus
}
#endif

#endif
