/* inv_test.h -- helpers of the solver tests: MPI start-up, a CHECK macro that counts
 * failures (first few printed per process), per-case verdicts summed over processes, the
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

static long it_fail = 0, it_checks = 0;
static int it_failed_cases = 0, it_cases = 0;

#define CHECK(cond, ...)                                                                       \
  do {                                                                                         \
    it_checks++;                                                                               \
    if (!(cond)) {                                                                             \
      if (it_fail++ < 8) {                                                                     \
        fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", hr_rank(), __FILE__, __LINE__, \
                #cond);                                                                        \
        fprintf(stderr, __VA_ARGS__);                                                          \
        fprintf(stderr, "\n");                                                                 \
      }                                                                                        \
    }                                                                                          \
  } while (0)

/* Close a test case: failures summed over processes, verdict printed by rank 0. */
static void it_case_end(const char *name) {
  double d[2] = {(double)it_fail, (double)it_checks};
  global_sum(d, 2);
  it_cases++;
  if (d[0] > 0) it_failed_cases++;
  if (hr_rank() == 0) {
    printf("%s: %s (%.0f checks, %.0f failed)\n", d[0] > 0 ? "FAIL" : "PASS", name, d[1], d[0]);
    fflush(stdout);
  }
  it_fail = it_checks = 0;
}

static void it_start(int *argc, char ***argv) {
#if HR_WITH_MPI
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
#else
  (void)argc;
  (void)argv;
#endif
  logger_set_level("default", 0);
  rng_init(20261122);
}

static int it_finish(const char *program) {
  if (hr_rank() == 0) printf("%s: %d case(s), %d failed\n", program, it_cases, it_failed_cases);
  dirac_finalize();
  geometry_finalize();
#if HR_WITH_MPI
  MPI_Finalize();
#endif
  return it_failed_cases ? 1 : 0;
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

/* The links of the Dirac operator: u (fundamental gauge links) with boundary conditions bc,
 * clover coefficient csw. Returns the represented field (free with free_gfield_f). */
static suNf_field *it_set_links(const suNg_field *u, const dirac_bc *bc, double csw) {
  suNf_field *uf = alloc_gfield_f(&glattice);
  represent_gauge_field(u, bc, uf);
  dirac_set_gauge_field(uf);
  clover_set_csw(csw);
  return uf;
}

/* Unit links. */
static inline void it_unit_gauge(suNg_field *u) {
  host_write_suNg_field(u);
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) suNg_unit(_4FIELD_AT(u, ix, mu));
  }
}

#endif
