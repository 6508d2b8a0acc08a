/* geo_test.h -- helpers of the geometry test programs (which run under mpirun on several
 * process grids): MPI start-up, a CHECK macro that counts failures and reports the first
 * few per process, the process grid from the command line, and the final verdict (rank 0
 * prints PASS/FAIL per case; the exit status is non-zero when any process failed). */
#ifndef GEO_TEST_H
#define GEO_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "geometry.h"
#include "hr_core.h"
#include "logger.h"

/* Failures and checks of the current case on this process, and failed cases overall. */
static long geo_fail = 0, geo_checks = 0;
static int geo_failed_cases = 0, geo_cases = 0;
/* Failures reported per case and process before going quiet. */
#define GEO_MAX_REPORTS 5

#define CHECK(cond, ...)                                                                   \
  do {                                                                                     \
    geo_checks++;                                                                          \
    if (!(cond)) {                                                                         \
      if (geo_fail++ < GEO_MAX_REPORTS) {                                                  \
        fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", hr_rank(), __FILE__,        \
                __LINE__, #cond);                                                          \
        fprintf(stderr, __VA_ARGS__);                                                      \
        fprintf(stderr, "\n");                                                             \
      }                                                                                    \
    }                                                                                      \
  } while (0)

/* Start MPI (MPI builds), silence the log, read the process grid "NP_T NP_X NP_Y NP_Z" from
 * the command line (default 1 1 1 1). */
static void geo_test_start(int *argc, char ***argv, int np[4]) {
#if HR_WITH_MPI
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
#endif
  logger_set_level("default", 0);
  for (int mu = 0; mu < 4; mu++) np[mu] = 1;
  if (*argc == 5)
    for (int mu = 0; mu < 4; mu++) np[mu] = atoi((*argv)[mu + 1]);
  else if (*argc != 1) {
    fprintf(stderr, "usage: %s [NP_T NP_X NP_Y NP_Z]\n", (*argv)[0]);
    exit(2);
  }
}

/* Close a test case: sum failures over processes, rank 0 prints the verdict. */
static void geo_case_end(const char *name) {
  long counts[2] = {geo_fail, geo_checks};
  double d[2] = {(double)counts[0], (double)counts[1]};
  global_sum(d, 2);
  geo_cases++;
  if (d[0] > 0) geo_failed_cases++;
  if (hr_rank() == 0) {
    printf("%s: %s (%.0f checks on %d process%s, %.0f failed)\n", d[0] > 0 ? "FAIL" : "PASS",
           name, d[1], hr_nranks(), hr_nranks() > 1 ? "es" : "", d[0]);
    fflush(stdout);
  }
  geo_fail = 0;
  geo_checks = 0;
}

/* Finish: print the summary, stop MPI, return the exit status. */
static int geo_test_finish(const char *program) {
  if (hr_rank() == 0)
    printf("%s: %d case(s), %d failed\n", program, geo_cases, geo_failed_cases);
  geometry_finalize();
#if HR_WITH_MPI
  MPI_Finalize();
#endif
  return geo_failed_cases ? 1 : 0;
}

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
  char msg[512];
  if (geometry_check_params(&p, hr_nranks(), msg, sizeof msg) != NULL) {
    if (hr_rank() == 0) printf("SKIP: %s: %s\n", name, msg);
    return 0;
  }
  geometry_init(&p);
  return 1;
}

/* The lattices every grid is tested on; each fits all grids of the test suite. */
static const int geo_lattices[][4] = {{8, 4, 4, 4}, {8, 12, 4, 8}};
#define GEO_NLATTICES ((int)(sizeof geo_lattices / sizeof geo_lattices[0]))

/* Number encoding global coordinates g (distinct for distinct sites). */
static inline double geo_code(const int g[4]) {
  return (double)(((g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3]);
}

#endif
