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
 * Open time boundaries follow openQCD (1.4 and later): the quark fields live on the time
 * slices 1 .. GLB_T - 2. The operator is block diagonal: on those slices it is the Wilson-clover
 * operator with the hops to the slices 0 and GLB_T - 1 left out and 4 + m0 + cF - 1 on the
 * slices 1 and GLB_T - 2 (cF, default 1, only with bc_t = open); on the slices 0 and GLB_T - 1
 * it is the identity (openQCD's unit SW term there), so its determinant, forces and the
 * solutions on the inner slices are those of openQCD's operator (which sets the fields on the
 * slices 0 and GLB_T - 1 to zero). The clover blocks carry the boundary, so with bc_t = open
 * the operator uses them even with csw = 0.
 * Implemented in: LibHR/Dirac/boundary_conditions.c. */
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
                      diagonal term gets cF - 1 added on the time slices 1 and GLB_T - 2 */
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
/* 1 with open time boundaries (bc_t = open). */
static inline int dirac_bc_open_t(const dirac_bc *bc) { return bc->kind[0] == HR_BC_OPEN; }
/* Phase of the link U_mu at global coordinate x_mu (0 <= x_mu < GLB_SIZE[mu]). */
hr_complex dirac_bc_link_phase(const dirac_bc *bc, int mu, int x_mu);
/* uf = U^R (suNg_to_suNf) of every link of u times its boundary phase, on all master sites
 * of glattice, then the gauge-layout halo of uf is exchanged. u needs no halo. These are the
 * links of the clover term and of the force; with bc_t = open the hopping term of the
 * operator also leaves out the links that touch the slices 0 and GLB_T - 1. */
void represent_gauge_field(suNf_field *uf, const suNg_field *u, const dirac_bc *bc);

#endif
