/* gauge_action.h -- the gauge actions of the HMC for any SU(NG): Wilson plaquette plus 2x1
 * rectangle (Luescher-Weisz form), with any rectangle coefficient c1, and their forces in the
 * convention of md.h (Doc/hmc.md, section "Gauge actions"):
 *
 *   S_G = (beta/NG) sum_x [ c0 sum_{mu<nu} Re tr(1 - P_{mu nu}(x))
 *                         + c1 sum_{mu != nu} Re tr(1 - R_{mu nu}(x)) ],   c0 = 1 - 8 c1,
 *
 * P the plaquettes (6 per site), R_{mu nu}(x) the 2x1 rectangle from x two steps along mu and
 * one along nu (12 per site: each rectangle of the lattice once). c1 = 0: Wilson (S_G = beta
 * 6 V (1 - avr_plaquette)); -1/12: tree-level Symanzik; -0.331: Iwasaki; -1.4088: DBW2.
 *
 * Both functions run where hr_backend_current() says (backend.h): the CPU path reads the host
 * copy of u, whose halo must be current (every update of LibHR leaves it so); the GPU path
 * works on the device copies only (the device halo of u is refreshed on the device). The
 * rectangles reach two links away: the force builds them from the 24 plaquette staples of
 * every site, stored in intermediate link fields whose depth-one halo is exchanged, so it
 * works on any process grid with the ordinary gauge halo. Results do not depend on the process
 * grid, the thread count or the backend (bitwise in the emulated GPU build). u must live on
 * glattice. Both functions are collective.
 * Implemented in: Update/gauge_action.c, Update/gauge_action_gpu.c. */
#ifndef GAUGE_ACTION_H
#define GAUGE_ACTION_H

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rectangle coefficients of the common improved actions (c0 = 1 - 8 c1). */
#define GAUGE_C1_WILSON 0.0
#define GAUGE_C1_SYMANZIK (-1.0 / 12.0)
#define GAUGE_C1_IWASAKI (-0.331)
#define GAUGE_C1_DBW2 (-1.4088)

/* Time boundaries of the gauge action: open = 0 periodic; open = 1 openQCD's open boundary
 * conditions (the links U_0(x) at global time GLB_T - 1 are zero -- gauge_zero_open_links --,
 * the loops through them are left out, and the spatial plaquettes and rectangles in the time
 * slices 0 and GLB_T - 1 have weight cg/2; cg = 1 at tree level). Doc/hmc.md. */
typedef struct {
  int open;
  double cg;
} gauge_boundary;

/* S_G of the links u at coupling beta and rectangle coefficient c1 (global sum, every process
 * gets it). */
double gauge_action(const suNg_field *u, double beta, double c1);
/* Force update of the momenta: p^a(x,mu) -= eps F^a(x,mu) on every link, with
 * F^a(x,mu) = d/dw S_G[exp(i w T^a) U(x,mu)] at w = 0 (md.h); p = 0, eps = -1 gives F. */
void gauge_force_update(suNg_av_field *p, const suNg_field *u, double beta, double c1,
                        double eps);
/* gauge_action with time boundaries b (NULL: periodic). */
double gauge_action_bc(const suNg_field *u, double beta, double c1, const gauge_boundary *b);
/* gauge_force_update with time boundaries b (NULL: periodic); with open boundaries the zero
 * links get no force. */
void gauge_force_update_bc(suNg_av_field *p, const suNg_field *u, double beta, double c1,
                           double eps, const gauge_boundary *b);
/* Set the links U_0(x) at global time GLB_T - 1 to zero (open boundaries); halo exchanged. */
void gauge_zero_open_links(suNg_field *u);
/* Open boundaries: set the momenta of the links U_0(x) at global time GLB_T - 1 (the zero
 * links) to zero, so that they stay zero through a trajectory. Runs where
 * hr_backend_current() says (on the GPU path no field crosses to the host). */
void gauge_zero_open_momenta(suNg_av_field *p);

#ifdef __cplusplus
}
#endif

#endif
