/* boundary_conditions.c -- fermion boundary conditions as link phases (input keys bc_*,
 * theta_*) and the represented gauge field with those phases. */
#include "boundary_conditions.h"

#include <math.h>
#include <string.h>

#include "communications.h"
#include "halo_exchange.h"
#include "dirac_state_sites.h"
#include "geometry.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "representation.h"
#include "suN.h"

static const char *const bc_names[] = {"periodic", "antiperiodic", "open"};
static const char dir_names[4] = {'t', 'x', 'y', 'z'};

void dirac_bc_default(dirac_bc *bc) {
  for (int mu = 0; mu < 4; mu++) {
    bc->kind[mu] = mu == 0 ? HR_BC_ANTIPERIODIC : HR_BC_PERIODIC;
    bc->theta[mu] = 0.;
  }
  bc->cf = 1.;
}

void dirac_bc_read_input(dirac_bc *bc, struct input_file *in) {
  int kind[4];
  input_key keys[] = {
      {"bc_t", INPUT_CHOICE, &kind[0], "antiperiodic", "periodic|antiperiodic|open",
       "fermion boundary condition in time"},
      {"bc_x", INPUT_CHOICE, &kind[1], "periodic", "periodic|antiperiodic",
       "fermion boundary condition in x"},
      {"bc_y", INPUT_CHOICE, &kind[2], "periodic", "periodic|antiperiodic",
       "fermion boundary condition in y"},
      {"bc_z", INPUT_CHOICE, &kind[3], "periodic", "periodic|antiperiodic",
       "fermion boundary condition in z"},
      {"theta_t", INPUT_DOUBLE, &bc->theta[0], "0", NULL, "twisting angle in t (units of pi)"},
      {"theta_x", INPUT_DOUBLE, &bc->theta[1], "0", NULL, "twisting angle in x (units of pi)"},
      {"theta_y", INPUT_DOUBLE, &bc->theta[2], "0", NULL, "twisting angle in y (units of pi)"},
      {"theta_z", INPUT_DOUBLE, &bc->theta[3], "0", NULL, "twisting angle in z (units of pi)"},
      {"cF", INPUT_DOUBLE, &bc->cf, "1", NULL,
       "bc_t = open: boundary coefficient cF (4 + m0 + cF - 1 on the time slices 1, T-2)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  for (int mu = 0; mu < 4; mu++) bc->kind[mu] = (hr_bc_kind)kind[mu];
  if (bc->cf != 1. && bc->kind[0] != HR_BC_OPEN)
    input_fail(in, NULL, "cF", "cF = %g needs bc_t = open (it is the open-boundary coefficient)",
               bc->cf);
}

void dirac_bc_print(const dirac_bc *bc) {
  for (int mu = 0; mu < 4; mu++)
    lprintf("DIRAC", 10, "boundary condition in %c: %s, theta_%c = %g pi\n", dir_names[mu],
            bc_names[bc->kind[mu]], dir_names[mu], bc->theta[mu]);
  if (bc->kind[0] == HR_BC_OPEN) lprintf("DIRAC", 10, "open time boundaries: cF = %g\n", bc->cf);
}

hr_complex dirac_bc_link_phase(const dirac_bc *bc, int mu, int x_mu) {
  const double pi = 3.14159265358979323846;
  hr_complex ph = hr_cexpi(pi * bc->theta[mu] / GLB_SIZE[mu]);
  if (x_mu == GLB_SIZE[mu] - 1) {
    if (bc->kind[mu] == HR_BC_ANTIPERIODIC) ph = -ph;
    if (bc->kind[mu] == HR_BC_OPEN) ph = hr_cmplx(0, 0);
  }
  return ph;
}

void represent_gauge_field(suNf_field *uf, const suNg_field *u, const dirac_bc *bc) {
  hr_assert(u->type == &glattice && uf->type == &glattice,
            "represent_gauge_field: both fields must live on glattice");
  for (int mu = 1; mu < 4; mu++)
    if (bc->kind[mu] == HR_BC_OPEN)
      hr_fatal(HR_EXIT_INPUT, "open boundary conditions are supported in time only (bc_%c)",
               dir_names[mu]);
  sync_host_suNg_field(u);
  host_write_suNf_field(uf);
  _OMP_MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; mu++) /* dirac_state_sites.h: shared with the kernels */
      dirac_site_represent(_4FIELD_AT(uf, ix, mu), _4FIELD_AT(u, ix, mu),
                           dirac_bc_link_phase(bc, mu, g[mu]));
  }
  sendrecv_field(&glattice, HR_LAYOUT_GAUGE, uf->ptr, 4 * sizeof(suNf));
}
