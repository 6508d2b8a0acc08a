/* field_test.h -- helpers of the field and linear-algebra test programs (TestProgram/Memory,
 * TestProgram/LinearAlgebra), which run under mpirun on several process grids (cases and
 * CHECK: ../test_cases.h): start-up, the geometry of a test lattice, values that encode
 * global coordinates, "VALUE name number" lines that the run script compares between process
 * grids, and the finish. */
#ifndef FIELD_TEST_H
#define FIELD_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libhr.h"

#include "../test_cases.h"

/* Start MPI, silence the log, read the process grid "NP_T NP_X NP_Y NP_Z" from the command
 * line (default 1 1 1 1); "--has-openmp" answers run_grids.sh whether thread counts matter. */
static void ft_start(int *argc, char ***argv, int np[4]) {
  if (*argc == 2 && strcmp((*argv)[1], "--has-openmp") == 0) exit(HR_WITH_OPENMP ? 0 : 1);
  tc_start_grid(argc, argv, np);
}

/* Lattice of the current case, put into the names of printed values. */
static char ft_value_prefix[64] = "";
/* Print a value that must agree between process grids (compared by the run script): exactly
 * when `name` starts with "exact.", else to rounding. */
static inline void ft_value_line(const char *name, double v) {
  if (hr_rank() != 0) return;
  if (strncmp(name, "exact.", 6) == 0)
    printf("VALUE exact.%s%s %.17g\n", ft_value_prefix, name + 6, v);
  else
    printf("VALUE %s%s %.17g\n", ft_value_prefix, name, v);
}

/* Finish: print the summary, stop MPI, return the exit status. */
static int ft_finish(const char *program) { return tc_finish(program); }

/* The geometry of lattice glb on grid np with a halo forced in the directions of the bits of
 * `force`; fills a description into name. Returns 0 when the grid does not fit. */
static int ft_setup(const int glb[4], const int np[4], int force, char *name, size_t len) {
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; mu++) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
    p.force_halo[mu] = (force >> mu) & 1;
  }
  snprintf(name, len, "lattice %dx%dx%dx%d grid %dx%dx%dx%d%s", glb[0], glb[1], glb[2], glb[3],
           np[0], np[1], np[2], np[3], force ? " forced halo" : "");
  snprintf(ft_value_prefix, sizeof ft_value_prefix, "%dx%dx%dx%d%s.", glb[0], glb[1], glb[2],
           glb[3], force ? "f" : "");
  return tc_geometry_init(&p, name);
}

/* The lattices of the tests: a small one that fits every grid of the *.gridtest files, and
 * one whose pieces end in partial reduction chunks, which fits 1x1x1x1, 2x1x1x1, 2x2x1x1 and
 * 1x2x1x1 (other grids skip it: a local extent would be odd). */
static const int ft_lattices[][4] = {{8, 8, 4, 4}, {12, 8, 6, 4}};
#define FT_NLATTICES ((int)(sizeof ft_lattices / sizeof ft_lattices[0]))

/* The three geometries and their names. */
static const geometry_descriptor *const ft_geometries[3] = {&glattice, &glat_even, &glat_odd};
static const char *const ft_geometry_names[3] = {"glattice", "glat_even", "glat_odd"};

/* Number of the global site of index ix (grid independent). */
static inline long long ft_global_code(int ix) {
  int g[4];
  global_coordinates(g, ix);
  return ((long long)(g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3];
}

/* Whether index ix lies in one of the first `npieces` pieces of g. */
static inline int ft_in_pieces(const geometry_descriptor *g, int npieces, int ix) {
  for (int p = 0; p < npieces; p++)
    if (ix >= g->master_start[p] && ix <= g->master_end[p]) return 1;
  return 0;
}
/* Whether index ix is a copy site of g (for `ncopies` copy ranges). */
static inline int ft_is_copy(const geometry_descriptor *g, int ncopies, int ix) {
  for (int c = 0; c < ncopies; c++)
    if (ix >= g->copy_to[c] && ix < g->copy_to[c] + g->copy_len[c]) return 1;
  return 0;
}

#endif
