/* geo_test.h -- helpers of the geometry test programs (which run under mpirun on several
 * process grids; cases and CHECK: ../test_cases.h): start with the process grid from the
 * command line, finish, and the geometry of a test case. */
#ifndef GEO_TEST_H
#define GEO_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "geometry.h"
#include "hr_core.h"
#include "logger.h"

#include "../test_cases.h"

/* Start MPI, silence the log, read the process grid from the command line. */
static void geo_test_start(int *argc, char ***argv, int np[4]) { tc_start_grid(argc, argv, np); }

/* Finish: print the summary, stop MPI, return the exit status. */
static int geo_test_finish(const char *program) { return tc_finish(program); }

/* The geometry of lattice glb on grid np, path blocking pb, halo forced in the directions
 * of force (bit mu); fills a description into name. Returns 0 when the grid does not fit
 * the lattice (case skipped). */
static int geo_setup(const int glb[4], const int np[4], const int pb[4], int force, char *name,
                     size_t len) {
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; mu++) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
    p.pb[mu] = pb[mu];
    p.force_halo[mu] = (force >> mu) & 1;
  }
  char halo[8] = "";
  int nh = 0;
  for (int mu = 0; mu < 4; mu++)
    if (p.np[mu] > 1 || p.force_halo[mu]) halo[nh++] = "txyz"[mu];
  halo[nh] = '\0';
  snprintf(name, len, "lattice %dx%dx%dx%d grid %dx%dx%dx%d pb %d%d%d%d halo %s%s", glb[0],
           glb[1], glb[2], glb[3], np[0], np[1], np[2], np[3], pb[0], pb[1], pb[2], pb[3],
           halo[0] ? halo : "none", force ? " (forced)" : "");
  return tc_geometry_init(&p, name);
}

/* The lattices every grid is tested on; each fits all grids of the test suite. */
static const int geo_lattices[][4] = {{8, 4, 4, 4}, {8, 12, 4, 8}};
#define GEO_NLATTICES ((int)(sizeof geo_lattices / sizeof geo_lattices[0]))

/* Number encoding global coordinates g (distinct for distinct sites). */
static inline double geo_code(const int g[4]) {
  return (double)(((g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3]);
}

#endif
