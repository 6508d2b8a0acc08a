/* test_logger.c -- lprintf into a log file read back: "[TOPIC][level]" prefix, per-topic
 * and default levels (set directly and from log:* input keys), malformed levels, long
 * messages, whole lines under concurrent threads; a log file is appended to, its directory
 * created when missing (refused under a regular file), and a fatal error's message goes
 * into it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catch_error.h"
#include "hr_build_config.h"
#include "input_file.h"
#include "logger.h"
#include "../check_suite.h"

#if HR_WITH_OPENMP
#include <omp.h>
#endif

static char log_dir[] = "/tmp/hr_test_logger_XXXXXX";
static char log_path[512];

/* Whole content of the log file (after logger_close); caller frees. */
static char *read_log(void) {
  FILE *f = fopen(log_path, "rb");
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  ck_assert_int_eq(fread(text, 1, (size_t)n, f), (size_t)n);
  text[n] = '\0';
  fclose(f);
  return text;
}

static void setup(void) {
  ck_assert_ptr_nonnull(mkdtemp(log_dir));
  snprintf(log_path, sizeof log_path, "%s/test.log", log_dir);
}

static void teardown(void) {
  logger_close();
  unlink(log_path);
  rmdir(log_dir);
  strcpy(log_dir, "/tmp/hr_test_logger_XXXXXX");
}

START_TEST(test_levels_by_topic) {
  ck_assert_int_eq(logger_level("ANYTHING"), 10); /* default without input */
  logger_set_output(log_path, 0);
  lprintf("MAIN", 10, "shown at the default level %d\n", 10);
  lprintf("MAIN", 11, "hidden\n");
  lprintf("MAIN", -1, "negative levels are always shown\n");
  logger_set_level("GEOMETRY", 30);
  lprintf("geometry", 25, "topics match without case: %s\n", "yes");
  lprintf("GEOMETRY", 31, "hidden\n");
  logger_set_level("default", 3);
  ck_assert_int_eq(logger_level("default"), 3);
  ck_assert_int_eq(logger_level("MAIN"), 3);
  ck_assert_int_eq(logger_level("Geometry"), 30);
  lprintf("MAIN", 5, "hidden\n");
  lprintf("MAIN", 3, "shown at level 3\n");
  lprintf("GEOMETRY", 30, "a topic's own level wins\n");
  logger_close();
  char *text = read_log();
  ck_assert_str_eq(text,
                   "[MAIN][10]shown at the default level 10\n"
                   "[MAIN][-1]negative levels are always shown\n"
                   "[geometry][25]topics match without case: yes\n"
                   "[MAIN][3]shown at level 3\n"
                   "[GEOMETRY][30]a topic's own level wins\n");
  free(text);
  logger_set_level("default", 10);
}
END_TEST

START_TEST(test_levels_from_input) {
  char err[1024];
  input_file *in = input_parse_string(
      "run.in", "GLB_T = 4\nlog:default = 2\nlog:MAIN = 7\nlog:Update=-1\n", err, sizeof err);
  ck_assert_ptr_nonnull(in);
  logger_read_input(in);
  ck_assert_int_eq(logger_level("default"), 2);
  ck_assert_int_eq(logger_level("OTHER"), 2);
  ck_assert_int_eq(logger_level("main"), 7);
  ck_assert_int_eq(logger_level("UPDATE"), -1);
  /* the log keys count as used; GLB_T does not */
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:1: GLB_T: unknown key (this program does not use it; check the "
                        "spelling or remove the line)");
  input_free(in);
  logger_set_output(log_path, 1); /* rank 0 writes to the path itself */
  lprintf("MAIN", 7, "main %d\n", 7);
  lprintf("MAIN", 8, "hidden\n");
  lprintf("OTHER", 2, "other\n");
  lprintf("OTHER", 3, "hidden\n");
  lprintf("UPDATE", 0, "hidden\n");
  logger_close();
  char *text = read_log();
  ck_assert_str_eq(text, "[MAIN][7]main 7\n[OTHER][2]other\n");
  free(text);
  logger_set_level("default", 10);
}
END_TEST

START_TEST(test_malformed_levels) {
  char err[1024];
  const char *bad[][2] = {
      {"a = 1\nlog:MAIN = high\n",
       "run.in:2: log:MAIN: malformed value 'high' (expected an integer log level)"},
      {"log:default = 1.5\n",
       "run.in:1: log:default: malformed value '1.5' (expected an integer log level)"},
      {"log:X = 99999999999\n",
       "run.in:1: log:X: malformed value '99999999999' (expected an integer log level)"},
      {"log:X =\n", "run.in:1: log:X: malformed value '' (expected an integer log level)"},
      {"log: = 3\n", "run.in:1: log:: missing topic name after 'log:' (e.g. log:default)"},
  };
  for (volatile size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    input_file *in = input_parse_string("run.in", bad[i][0], err, sizeof err);
    ck_assert_ptr_nonnull(in);
    EXPECT_FATAL(logger_read_input(in), HR_EXIT_INPUT, bad[i][1]);
    input_free(in);
  }
  /* a misspelt log:default is suggested */
  input_file *in = input_parse_string("run.in", "lgo:default = 3\n", err, sizeof err);
  logger_read_input(in);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:1: lgo:default: unknown key (did you mean 'log:default'?)");
  input_free(in);
}
END_TEST

START_TEST(test_long_message) {
  logger_set_output(log_path, 0);
  char big[5000];
  memset(big, 'q', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  lprintf("BIG", 0, "%s|%d\n", big, 12345);
  logger_close();
  char *text = read_log();
  char expected[5100];
  snprintf(expected, sizeof expected, "[BIG][0]%s|12345\n", big);
  ck_assert_str_eq(text, expected);
  free(text);
}
END_TEST

START_TEST(test_threads_write_whole_lines) {
  enum { N_MESSAGES = 2000 };
  logger_set_output(log_path, 0);
#if HR_WITH_OPENMP
  omp_set_num_threads(4);
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (int i = 0; i < N_MESSAGES; i++)
    lprintf("THREADS", 0, "message %d of a line long enough to be split if it were not atomic\n", i);
  logger_close();
  char *text = read_log();
  static int seen[N_MESSAGES];
  memset(seen, 0, sizeof seen);
  int lines = 0;
  for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
    int i = -1, end = 0;
    ck_assert_msg(sscanf(line, "[THREADS][0]message %d of a line long enough to be split if it "
                               "were not atomic%n", &i, &end) == 1 && line[end] == '\0',
                  "mangled line '%s'", line);
    ck_assert(i >= 0 && i < N_MESSAGES);
    seen[i]++;
    lines++;
  }
  ck_assert_int_eq(lines, N_MESSAGES);
  for (int i = 0; i < N_MESSAGES; i++) ck_assert_int_eq(seen[i], 1);
  free(text);
}
END_TEST

START_TEST(test_unwritable_log_file) {
  /* a log file under a regular file: its directory cannot be created */
  char plain[600], bad_log[700], expected[2000];
  snprintf(plain, sizeof plain, "%s/plain", log_dir);
  FILE *f = fopen(plain, "w");
  ck_assert_ptr_nonnull(f);
  fclose(f);
  snprintf(bad_log, sizeof bad_log, "%s/sub/x.log", plain);
  snprintf(expected, sizeof expected,
           "log file '%s': '%s' is not a directory; choose a log file (-o) where files can be "
           "written",
           bad_log, plain);
  EXPECT_FATAL(logger_set_output(bad_log, 0), HR_EXIT_IO, expected);
  unlink(plain);
  /* a missing directory is created */
  char sub_log[700], sub_dir[650];
  snprintf(sub_dir, sizeof sub_dir, "%s/new", log_dir);
  snprintf(sub_log, sizeof sub_log, "%s/x.log", sub_dir);
  logger_set_output(sub_log, 0);
  lprintf("MAIN", 0, "in a new directory\n");
  logger_close();
  ck_assert_int_eq(unlink(sub_log), 0);
  ck_assert_int_eq(rmdir(sub_dir), 0);
}
END_TEST

START_TEST(test_append_and_fatal_error_in_log) {
  logger_set_output(log_path, 0);
  lprintf("MAIN", 0, "first run\n");
  /* a fatal error's message goes into the log file as well */
  EXPECT_FATAL(hr_fatal(HR_EXIT_IO, "run.in:3: conf: cannot write 'x': %s", "No space left"),
               HR_EXIT_IO, "run.in:3: conf: cannot write 'x': No space left");
  logger_close();
  /* opened again: appended, not truncated */
  logger_set_output(log_path, 0);
  lprintf("MAIN", 0, "second run\n");
  logger_close();
  /* once closed, errors go to stderr only */
  EXPECT_FATAL(hr_fatal(HR_EXIT_INPUT, "not in the log"), HR_EXIT_INPUT, "not in the log");
  char *text = read_log();
  ck_assert_str_eq(text, "[MAIN][0]first run\n"
                         "run.in:3: conf: cannot write 'x': No space left\n"
                         "[MAIN][0]second run\n");
  free(text);
}
END_TEST

int main(void) {
  Suite *s = suite_create("logger");
  TCase *tc = tcase_create("logger");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_levels_by_topic);
  tcase_add_test(tc, test_levels_from_input);
  tcase_add_test(tc, test_malformed_levels);
  tcase_add_test(tc, test_long_message);
  tcase_add_test(tc, test_threads_write_whole_lines);
  tcase_add_test(tc, test_unwritable_log_file);
  tcase_add_test(tc, test_append_and_fatal_error_in_log);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
