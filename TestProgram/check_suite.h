/* check_suite.h -- running a Check suite from a test program's main: the one place that
 * creates the runner, runs every case with normal output and turns the failures into the
 * exit code make check reads. */
#ifndef CHECK_SUITE_H
#define CHECK_SUITE_H

#include <check.h>
#include <stdlib.h>

/* Run suite s with CK_NORMAL output; EXIT_SUCCESS when no case failed, else EXIT_FAILURE. */
static inline int test_run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
