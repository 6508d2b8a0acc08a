/* test_cases.h -- the case bookkeeping shared by the test programs of TestProgram/ that run
 * on several process grids: a CHECK macro that counts failed checks of the current case and
 * prints the first few per process, tc_case_end (failures summed over processes, verdict
 * PASS/FAIL printed by rank 0), MPI start-up with a quiet log, and the final summary and
 * shut-down. */
#ifndef TEST_CASES_H
#define TEST_CASES_H

#include <stdio.h>
#include <stdlib.h>

#include "communications.h"
#include "geometry.h"
#include "hr_core.h"
#include "logger.h"

/* Failures and checks of the current case on this process, and cases overall. */
static long tc_fail = 0, tc_checks = 0;
static int tc_failed_cases = 0, tc_cases = 0;
/* Failed checks printed per process and case. */
#define TC_MAX_REPORTS 8

#define CHECK(cond, ...)                                                                       \
  do {                                                                                         \
    tc_checks++;                                                                               \
    if (!(cond)) {                                                                             \
      if (tc_fail++ < TC_MAX_REPORTS) {                                                        \
        fprintf(stderr, "[rank %d] %s:%d: check failed: %s: ", hr_rank(), __FILE__, __LINE__,  \
                #cond);                                                                        \
        fprintf(stderr, __VA_ARGS__);                                                          \
        fprintf(stderr, "\n");                                                                 \
      }                                                                                        \
    }                                                                                          \
  } while (0)

/* Close a test case: failures summed over processes, verdict printed by rank 0. */
static inline void tc_case_end(const char *name) {
  double d[2] = {(double)tc_fail, (double)tc_checks};
  global_sum(d, 2);
  tc_cases++;
  if (d[0] > 0) tc_failed_cases++;
  if (hr_rank() == 0) {
    printf("%s: %s (%.0f checks on %d process%s, %.0f failed)\n", d[0] > 0 ? "FAIL" : "PASS",
           name, d[1], hr_nranks(), hr_nranks() > 1 ? "es" : "", d[0]);
    fflush(stdout);
  }
  tc_fail = tc_checks = 0;
}

/* Start MPI (MPI builds) and silence the log. */
static inline void tc_start(int *argc, char ***argv) {
#if HR_WITH_MPI
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
#else
  (void)argc;
  (void)argv;
#endif
  logger_set_level("default", 0);
}

/* tc_start, then the process grid "NP_T NP_X NP_Y NP_Z" from the command line (default
 * 1 1 1 1; other arguments: usage message and exit 2). */
static inline void tc_start_grid(int *argc, char ***argv, int np[4]) {
  tc_start(argc, argv);
  for (int mu = 0; mu < 4; mu++) np[mu] = 1;
  if (*argc == 5)
    for (int mu = 0; mu < 4; mu++) np[mu] = atoi((*argv)[mu + 1]);
  else if (*argc != 1) {
    fprintf(stderr, "usage: %s [NP_T NP_X NP_Y NP_Z]\n", (*argv)[0]);
    exit(2);
  }
}

/* geometry_init(p) when the parameters fit the number of processes and return 1; otherwise
 * print "SKIP: <name>: <reason>" (rank 0) and return 0. */
static inline int tc_geometry_init(const geometry_params *p, const char *name) {
  char msg[512];
  if (geometry_check_params(p, hr_nranks(), msg, sizeof msg) != NULL) {
    if (hr_rank() == 0) printf("SKIP: %s: %s\n", name, msg);
    return 0;
  }
  geometry_init(p);
  return 1;
}

/* Print "<program>: N case(s), M failed" on rank 0; returns the exit status (0: all passed). */
static inline int tc_summary(const char *program) {
  if (hr_rank() == 0) printf("%s: %d case(s), %d failed\n", program, tc_cases, tc_failed_cases);
  return tc_failed_cases ? 1 : 0;
}

/* tc_summary, then geometry_finalize and MPI_Finalize; returns the exit status. */
static inline int tc_finish(const char *program) {
  const int status = tc_summary(program);
  geometry_finalize();
#if HR_WITH_MPI
  MPI_Finalize();
#endif
  return status;
}

#endif
