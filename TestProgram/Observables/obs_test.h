/* obs_test.h -- helpers shared by the IO, Observables and Update test programs (cases and
 * CHECK: ../test_cases.h): geometry on a
 * process grid, gauge-field allocation, the
 * path of the stored configurations, and field comparisons. */
#ifndef OBS_TEST_H
#define OBS_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive.h"
#include "communications.h"
#include "geometry.h"
#include "heatbath.h"
#include "hr_core.h"
#include "logger.h"
#include "observables.h"
#include "random.h"
#include "suN.h"
#include "suN_random.h"

#include "../test_cases.h"

static void ot_start(int *argc, char ***argv) { tc_start(argc, argv); }

/* Exit status: 0 when every case passed. */
static int ot_finish(const char *program) { return tc_finish(program); }

/* Process grid from argv[1..4] (default 1 1 1 1). */
static void ot_grid(int argc, char **argv, int np[4]) {
  for (int mu = 0; mu < 4; ++mu)
    np[mu] = argc > 1 + mu ? atoi(argv[1 + mu]) : 1;
}

/* Geometry of a glb lattice on the grid np. */
static void ot_geometry(const int glb[4], const int np[4]) {
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; ++mu) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
  }
  geometry_init(&p);
}

static suNg_field *ot_gauge_new(void) { return alloc_gfield(&glattice); }
static void ot_gauge_free(suNg_field *u) { free_gfield(u); }

/* Folder of the stored configurations: $HR_STORED_CONFS if set, else
 * $HR_SRCDIR/TestProgram/data (HR_SRCDIR: the source tree, set by make check);
 * stops the test with FAIL when it is not there. */
static inline const char *ot_stored_dir(void) {
  static char dir[4096];
  const char *env = getenv("HR_STORED_CONFS"), *src = getenv("HR_SRCDIR");
  if (env != NULL && env[0] != '\0')
    snprintf(dir, sizeof dir, "%s", env);
  else
    snprintf(dir, sizeof dir, "%s/TestProgram/data", src ? src : "../..");
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return dir;
  if (hr_rank() == 0)
    fprintf(stderr,
            "FAIL: the stored configurations are missing: no folder %s (HR_SRCDIR=%s); run the "
            "tests with make check, or set HR_STORED_CONFS to the folder of the stored configurations\n",
            dir, src ? src : "(unset)");
#if HR_WITH_MPI
  MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  exit(1);
}

/* Number of links (master sites) that differ bitwise between a and b, summed over processes. */
static inline double ot_links_differ(const suNg_field *a, const suNg_field *b) {
  sync_host_suNg_field(a);
  sync_host_suNg_field(b);
  double n = 0;
  _MASTER_FOR(&glattice, ix) {
    if (memcmp(_4FIELD_AT(a, ix, 0), _4FIELD_AT(b, ix, 0), 4 * sizeof(suNg)) != 0) n += 1;
  }
  global_sum(&n, 1);
  return n;
}

#endif
