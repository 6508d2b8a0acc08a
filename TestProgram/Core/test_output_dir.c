/* test_output_dir.c -- hr_check_output_dir: an existing directory passes and keeps no file of
 * the check; a missing directory is created with its parents; a path under a regular file is
 * refused; a read-only directory is refused (skipped as root: permission bits do not hold for root). */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hr_core.h"
#include "../check_suite.h"

static char dir[] = "/tmp/hr_test_output_dir_XXXXXX";

static void setup(void) { ck_assert_ptr_nonnull(mkdtemp(dir)); }

static void teardown(void) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  strcpy(dir, "/tmp/hr_test_output_dir_XXXXXX");
}

/* Number of entries of `path` other than . and .. */
static int count_entries(const char *path) {
  DIR *d = opendir(path);
  ck_assert_ptr_nonnull(d);
  int n = 0;
  for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

/* Whether `path` is a directory. */
static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

START_TEST(test_existing_dir) {
  char err[1024] = "";
  ck_assert_int_eq(hr_check_output_dir(dir, err, sizeof err), 0);
  ck_assert_int_eq(count_entries(dir), 0); /* the file of the check is gone */
  ck_assert_int_eq(hr_check_output_dir(NULL, NULL, 0), 0); /* the current directory */
  ck_assert_int_eq(hr_check_output_dir("", err, sizeof err), 0);
}
END_TEST

START_TEST(test_missing_dir_created) {
  char path[600], err[1024] = "";
  snprintf(path, sizeof path, "%s/a/b//c/", dir);
  ck_assert_int_eq(hr_check_output_dir(path, err, sizeof err), 0);
  snprintf(path, sizeof path, "%s/a/b/c", dir);
  ck_assert(is_dir(path));
  ck_assert_int_eq(count_entries(path), 0);
}
END_TEST

START_TEST(test_under_regular_file) {
  char file[600], path[700], err[1024] = "", expected[2000];
  snprintf(file, sizeof file, "%s/plain", dir);
  FILE *f = fopen(file, "w");
  ck_assert_ptr_nonnull(f);
  fclose(f);
  snprintf(path, sizeof path, "%s/sub/deeper", file);
  ck_assert_int_eq(hr_check_output_dir(path, err, sizeof err), -1);
  snprintf(expected, sizeof expected, "'%s' is not a directory", file);
  ck_assert_str_eq(err, expected);
  ck_assert_int_eq(hr_check_output_dir(file, err, sizeof err), -1); /* the file itself */
  ck_assert_str_eq(err, expected);
}
END_TEST

START_TEST(test_read_only_dir) {
  if (geteuid() == 0) {
    printf("test_read_only_dir: skipped (running as root: permission bits do not hold for root)\n");
    return;
  }
  char ro[600], path[700], err[1024] = "", expected[2000];
  snprintf(ro, sizeof ro, "%s/ro", dir);
  ck_assert_int_eq(mkdir(ro, 0555), 0);
  ck_assert_int_eq(hr_check_output_dir(ro, err, sizeof err), -1);
  snprintf(expected, sizeof expected, "cannot create a file in directory '%s': Permission denied",
           ro);
  ck_assert_str_eq(err, expected);
  snprintf(path, sizeof path, "%s/new", ro);
  ck_assert_int_eq(hr_check_output_dir(path, err, sizeof err), -1);
  snprintf(expected, sizeof expected, "cannot create directory '%s': Permission denied", path);
  ck_assert_str_eq(err, expected);
}
END_TEST

int main(void) {
  Suite *s = suite_create("output_dir");
  TCase *tc = tcase_create("output_dir");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_existing_dir);
  tcase_add_test(tc, test_missing_dir_created);
  tcase_add_test(tc, test_under_regular_file);
  tcase_add_test(tc, test_read_only_dir);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
