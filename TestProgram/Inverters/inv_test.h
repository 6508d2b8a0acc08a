/* inv_test.h -- helpers of the solver tests (cases and CHECK: ../test_cases.h): the
 * geometry of a test lattice on a process grid, and the gauge field / Dirac operator set-up
 * (random or unit links, boundary conditions, csw). */
#ifndef INV_TEST_H
#define INV_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boundary_conditions.h"
#include "clover.h"
#include "communications.h"
#include "dirac.h"
#include "fields.h"
#include "geometry.h"
#include "hr_core.h"
#include "inverters.h"
#include "linear_algebra.h"
#include "logger.h"
#include "propagator.h"
#include "random.h"
#include "random_fields.h"
#include "suN.h"

#include "../test_cases.h"

static void it_start(int *argc, char ***argv) {
  tc_start(argc, argv);
  rng_init(20261122);
}

static int it_finish(const char *program) {
  dirac_finalize();
  return tc_finish(program);
}

/* Process grid from argv[1..4] (default 1 1 1 1). */
static void it_grid_args(int argc, char **argv, int np[4]) {
  for (int mu = 0; mu < 4; mu++) np[mu] = argc > 4 ? atoi(argv[1 + mu]) : 1;
}

/* Geometry of lattice glb on grid np. */
static void it_geometry(const int glb[4], const int np[4]) {
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; mu++) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
  }
  geometry_init(&p);
}

/* The links of the tests' Dirac operators: u (fundamental gauge links) with boundary
 * conditions bc and clover coefficient csw; the mass is chosen per case by it_op. */
static dirac_op it_links;
static inline void it_set_links(const suNg_field *u, const dirac_bc *bc, double csw) {
  it_links = dirac_op_make(u, 0., csw, bc);
}
/* The operator on the links of it_set_links with mass m0. */
static inline dirac_op it_op(double m0) {
  dirac_op D = it_links;
  D.m0 = m0;
  return D;
}

/* Unit links. */
static inline void it_unit_gauge(suNg_field *u) {
  host_write_suNg_field(u);
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) suNg_unit(_4FIELD_AT(u, ix, mu));
  }
}

#endif
