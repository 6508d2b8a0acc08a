/* boundary_conditions.h -- fermion boundary conditions applied as phases of the
 * represented links, and the represented gauge field built from the fundamental links (the
 * Dirac operators do this themselves, dirac.h).
 *
 * Convention (Doc/dirac.md): in direction mu with global extent L_mu,
 *   every link U^R_mu(x) is multiplied by exp(i pi theta_mu / L_mu)   (twisting angle),
 *   the links with x_mu = L_mu - 1 (crossing the global boundary going up) also by
 *     +1 (periodic), -1 (antiperiodic) or 0 (open; time direction only, openQCD's choice).
 * For U = 1 the plane waves exp(i p.x) with p_mu = (2 pi n_mu + pi [antiperiodic]) / L_mu
 * then see the momentum p_mu + pi theta_mu / L_mu.
 * Input keys: bc_t, bc_x, bc_y, bc_z = periodic | antiperiodic (| open for bc_t), defaults
 * antiperiodic in time and periodic in space; theta_t .. theta_z (units of pi, default 0);
 * cF (default 1, only with bc_t = open): 4 + m0 becomes 4 + m0 + cF - 1 on the time slices 0
 * and GLB_T - 1 (the clover blocks carry it, so csw = 0 with cF != 1 uses them too). */
#ifndef BOUNDARY_CONDITIONS_H
#define BOUNDARY_CONDITIONS_H

#include "dirac_fields.h"
#include "hr_complex.h"

struct input_file;

/* Kind of boundary condition of one direction. */
typedef enum { HR_BC_PERIODIC = 0, HR_BC_ANTIPERIODIC = 1, HR_BC_OPEN = 2 } hr_bc_kind;

/* Boundary conditions of the four directions (0 = t). */
typedef struct {
  hr_bc_kind kind[4];
  double theta[4]; /* twisting angles in units of pi */
  double cf;       /* open time boundaries: openQCD's boundary coefficient cF (1: none); the
                      diagonal term gets cF - 1 added on the time slices 0 and GLB_T - 1 */
} dirac_bc;

/* Defaults: antiperiodic in time, periodic in space, no twist. */
void dirac_bc_default(dirac_bc *bc);
/* Read bc_t..bc_z and theta_t..theta_z from the top level of `in` (stops with file:line:
 * key on a bad value, e.g. bc_x = open). */
void dirac_bc_read_input(dirac_bc *bc, struct input_file *in);
/* Log the boundary conditions (topic "DIRAC", level 10). */
void dirac_bc_print(const dirac_bc *bc);
/* The boundary shift cF - 1 of the diagonal term (0 unless bc_t = open). */
static inline double dirac_bc_diag_shift(const dirac_bc *bc) {
  return bc->kind[0] == HR_BC_OPEN ? bc->cf - 1.0 : 0.0;
}
/* Phase of the link U_mu at global coordinate x_mu (0 <= x_mu < GLB_SIZE[mu]). */
hr_complex dirac_bc_link_phase(const dirac_bc *bc, int mu, int x_mu);
/* uf = U^R (suNg_to_suNf) of every link of u times its boundary phase, on all master sites
 * of glattice, then the gauge-layout halo of uf is exchanged. u needs no halo. */
void represent_gauge_field(suNf_field *uf, const suNg_field *u, const dirac_bc *bc);

#endif
