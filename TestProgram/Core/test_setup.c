/* test_setup.c -- hr_setup in-process: -i and -o options, default input file, log keys,
 * consumed arguments, command-line errors, names beside the options (hr_setup_with_names);
 * rank, size and thread queries; the finalisers of hr_at_finalize (reverse order, each once,
 * before the log closes). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catch_error.h"
#include "hr_core.h"
#include "logger.h"
#include "../check_suite.h"

#if HR_WITH_OPENMP
#include <omp.h>
#endif

static char dir[] = "/tmp/hr_test_setup_XXXXXX";
static char input_path[512], log_path[512];

static void setup(void) {
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(input_path, sizeof input_path, "%s/run.in", dir);
  snprintf(log_path, sizeof log_path, "%s/run.log", dir);
  FILE *f = fopen(input_path, "w");
  fputs("GLB_T = 8\nlog:default = 10\nlog:MAIN = 20\n", f);
  fclose(f);
}

static void teardown(void) {
  unlink(input_path);
  unlink(log_path);
  rmdir(dir);
  strcpy(dir, "/tmp/hr_test_setup_XXXXXX");
}

/* Read the program's one key and check the rest of the file is known. */
static int read_glb_t(input_file *in) {
  int t = 0;
  input_key keys[] = {{"GLB_T", INPUT_INT, &t, NULL, NULL, "time extent"}, INPUT_KEYS_END};
  input_read(in, NULL, keys);
  input_finish(in);
  return t;
}

START_TEST(test_setup_with_options) {
  char *args[] = {"prog", "-i", input_path, "-o", log_path, NULL};
  int argc = 5;
  char **argv = args;
  input_file *in = hr_setup(&argc, &argv, NULL);
  ck_assert_ptr_nonnull(in);
  ck_assert_int_eq(argc, 1); /* every argument consumed */
  ck_assert_ptr_null(argv[1]);
  ck_assert_str_eq(input_filename(in), input_path);
  ck_assert_int_eq(read_glb_t(in), 8);
  ck_assert_int_eq(logger_level("MAIN"), 20);
  ck_assert_int_eq(hr_rank(), 0);
  ck_assert_int_eq(hr_nranks(), 1);
#if HR_WITH_OPENMP
  ck_assert_int_eq(hr_nthreads(), omp_get_max_threads());
#else
  ck_assert_int_eq(hr_nthreads(), 1);
#endif
  lprintf("MAIN", 20, "after setup\n");
  hr_finalize();
  /* the log went to the -o file */
  FILE *f = fopen(log_path, "r");
  ck_assert_ptr_nonnull(f);
  char line[512], last[512] = "";
  int has_input_line = 0;
  char expected_input_line[600];
  snprintf(expected_input_line, sizeof expected_input_line, "[SETUP][0]input file: %s\n",
           input_path);
  while (fgets(line, sizeof line, f) != NULL) {
    has_input_line |= strcmp(line, expected_input_line) == 0;
    strcpy(last, line);
  }
  fclose(f);
  ck_assert_int_eq(has_input_line, 1);
  ck_assert_str_eq(last, "[MAIN][20]after setup\n");
}
END_TEST

START_TEST(test_setup_default_input) {
  char *args[] = {"prog", NULL};
  int argc = 1;
  char **argv = args;
  input_file *in = hr_setup(&argc, &argv, input_path);
  ck_assert_str_eq(input_filename(in), input_path);
  ck_assert_int_eq(read_glb_t(in), 8);
  hr_finalize();
}
END_TEST

START_TEST(test_setup_command_line_errors) {
  char *unknown[] = {"/some/dir/prog", "-i", input_path, "-q", NULL};
  int argc = 4;
  char **argv = unknown;
  EXPECT_FATAL_START(hr_setup(&argc, &argv, NULL), HR_EXIT_INPUT,
                     "prog: unknown option '-q'\nusage: prog [-i INPUT_FILE] [-o LOG_FILE] [-h]\n");
  char *no_file[] = {"prog", NULL};
  argc = 1;
  argv = no_file;
  EXPECT_FATAL_START(hr_setup(&argc, &argv, NULL), HR_EXIT_INPUT,
                     "prog: no input file; give one with -i INPUT_FILE\nusage:");
  char *missing_arg[] = {"prog", "-o", NULL};
  argc = 2;
  argv = missing_arg;
  EXPECT_FATAL_START(hr_setup(&argc, &argv, input_path), HR_EXIT_INPUT,
                     "prog: option -o needs a file name\nusage:");
  char *bad_input[] = {"prog", "-i", "/nonexistent/run.in", NULL};
  argc = 3;
  argv = bad_input;
  EXPECT_FATAL(hr_setup(&argc, &argv, NULL), HR_EXIT_INPUT,
               "/nonexistent/run.in: cannot open the input file (No such file or directory)");
  hr_finalize();
}
END_TEST

START_TEST(test_setup_with_names) {
  char *args[] = {"prog", "a.cfg", "-i", input_path, "b.cfg", "-o", log_path, "c.cfg", NULL};
  int nnames = -1;
  char **names = NULL;
  input_file *in = hr_setup_with_names(8, args, NULL, &nnames, &names);
  ck_assert_str_eq(input_filename(in), input_path);
  ck_assert_int_eq(read_glb_t(in), 8);
  ck_assert_int_eq(nnames, 3); /* the names in their order, the options and their files not */
  ck_assert_str_eq(names[0], "a.cfg");
  ck_assert_str_eq(names[1], "b.cfg");
  ck_assert_str_eq(names[2], "c.cfg");
  ck_assert_str_eq(args[7], "c.cfg"); /* argv is not changed */
  hr_finalize();
  char *none[] = {"prog", NULL};
  in = hr_setup_with_names(1, none, input_path, &nnames, &names);
  ck_assert_int_eq(nnames, 0);
  ck_assert_str_eq(input_filename(in), input_path);
  hr_finalize();
  /* the options still go through hr_setup's checks */
  char *unknown[] = {"prog", "a.cfg", "-q", NULL};
  EXPECT_FATAL_START(hr_setup_with_names(3, unknown, input_path, &nnames, &names), HR_EXIT_INPUT,
                     "prog: unknown option '-q'\nusage:");
  char *missing_arg[] = {"prog", "a.cfg", "-i", NULL};
  EXPECT_FATAL_START(hr_setup_with_names(3, missing_arg, NULL, &nnames, &names), HR_EXIT_INPUT,
                     "prog: option -i needs a file name\nusage:");
  hr_finalize();
}
END_TEST

/* The finalisers of test_at_finalize write their letter here, in the order they run. */
static char finalized[16];
static void append_finalized(char c) {
  const size_t n = strlen(finalized);
  if (n + 1 < sizeof finalized) {
    finalized[n] = c;
    finalized[n + 1] = '\0';
  }
}
static void finalize_a(void) { append_finalized('a'); }
static void finalize_b(void) { append_finalized('b'); }
static void finalize_e(void) { append_finalized('e'); }
/* A finaliser that logs (the log is still open) and registers another one while it runs. */
static void finalize_c(void) {
  append_finalized('c');
  lprintf("MAIN", 0, "finaliser c, MPI running %d\n", hr_mpi_running());
  hr_at_finalize(finalize_e);
}

START_TEST(test_at_finalize) {
  char *args[] = {"prog", "-i", input_path, "-o", log_path, NULL};
  int argc = 5;
  char **argv = args;
  input_file *in = hr_setup(&argc, &argv, NULL);
  read_glb_t(in);
  const int mpi_running = hr_mpi_running();
  finalized[0] = '\0';
  hr_at_finalize(finalize_a);
  hr_at_finalize(finalize_b);
  hr_at_finalize(finalize_a); /* again: keeps its first place, runs once */
  hr_at_finalize(finalize_c);
  ck_assert_str_eq(finalized, "");
  hr_finalize();
  ck_assert_str_eq(finalized, "cba"); /* the latest first, each once */
  /* the line of finaliser c reached the -o log: the finalisers run before it closes, and
   * before MPI_Finalize (MPI runs for them as it did after hr_setup; with CK_FORK=no an
   * earlier case may have ended MPI already) */
  FILE *f = fopen(log_path, "r");
  ck_assert_ptr_nonnull(f);
  char line[512], expected[64];
  snprintf(expected, sizeof expected, "[MAIN][0]finaliser c, MPI running %d\n", mpi_running);
  int found = 0;
  while (fgets(line, sizeof line, f) != NULL) found += strcmp(line, expected) == 0;
  fclose(f);
  ck_assert_int_eq(found, 1);
  /* a second hr_finalize runs only what was registered since: e, from inside c */
  hr_finalize();
  ck_assert_str_eq(finalized, "cbae");
  hr_finalize();
  ck_assert_str_eq(finalized, "cbae");
}
END_TEST

int main(void) {
  Suite *s = suite_create("setup");
  TCase *tc = tcase_create("setup");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_setup_with_options);
  tcase_add_test(tc, test_setup_default_input);
  tcase_add_test(tc, test_setup_command_line_errors);
  tcase_add_test(tc, test_setup_with_names);
  tcase_add_test(tc, test_at_finalize);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
