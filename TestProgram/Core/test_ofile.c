/* test_ofile.c -- output files written whole or not at all: the final name appears only at
 * commit, with the complete content and the usual permissions; abort and fatal errors
 * remove the temporary file; an existing file stays intact until the commit. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catch_error.h"
#include "hr_core.h"
#include "../check_suite.h"

static char dir[] = "/tmp/hr_test_ofile_XXXXXX";

static void setup(void) { ck_assert_ptr_nonnull(mkdtemp(dir)); }

/* Remove every file of the test folder, then the folder. */
static void teardown(void) {
  DIR *d = opendir(dir);
  if (d != NULL) {
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
    closedir(d);
  }
  rmdir(dir);
  strcpy(dir, "/tmp/hr_test_ofile_XXXXXX");
}

/* Number of entries of the test folder whose name starts with `prefix`. */
static int count_files(const char *prefix) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
         strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  closedir(d);
  return n;
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* Content of a (small) file. */
static const char *content(const char *path) {
  static char buf[4096];
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void path_in_dir(char *path, size_t len, const char *name) {
  snprintf(path, len, "%s/%s", dir, name);
}

START_TEST(test_commit) {
  char path[1024];
  path_in_dir(path, sizeof path, "conf.dat");
  hr_ofile *f = hr_ofile_open(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fprintf(hr_ofile_stream(f), "plaquette %.6f\n", 0.593), 19);
  fflush(hr_ofile_stream(f));
  ck_assert(!exists(path));
  ck_assert_int_eq(count_files("conf.dat.tmp."), 1);
  ck_assert_int_eq(hr_ofile_commit(f), 0);
  ck_assert(exists(path));
  ck_assert_int_eq(count_files("conf.dat.tmp."), 0);
  ck_assert_int_eq(count_files(""), 1);
  ck_assert_str_eq(content(path), "plaquette 0.593000\n");
  /* the usual permissions, not mkstemp's 0600 */
  mode_t mask = umask(0);
  umask(mask);
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_int_eq(st.st_mode & 0777, 0666 & ~mask);
}
END_TEST

START_TEST(test_abort) {
  char path[1024];
  path_in_dir(path, sizeof path, "half.dat");
  hr_ofile *f = hr_ofile_open(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("half written", hr_ofile_stream(f));
  ck_assert_int_eq(count_files("half.dat.tmp."), 1);
  hr_ofile_abort(f);
  ck_assert(!exists(path));
  ck_assert_int_eq(count_files(""), 0);
}
END_TEST

START_TEST(test_existing_file_kept_until_commit) {
  char path[1024];
  path_in_dir(path, sizeof path, "out.txt");
  FILE *old = fopen(path, "w");
  fputs("old content\n", old);
  fclose(old);
  hr_ofile *f = hr_ofile_open(path, "w");
  fputs("new content\n", hr_ofile_stream(f));
  fflush(hr_ofile_stream(f));
  ck_assert_str_eq(content(path), "old content\n");
  hr_ofile_abort(f);
  ck_assert_str_eq(content(path), "old content\n");
  f = hr_ofile_open(path, "w");
  fputs("new content\n", hr_ofile_stream(f));
  ck_assert_str_eq(content(path), "old content\n");
  ck_assert_int_eq(hr_ofile_commit(f), 0);
  ck_assert_str_eq(content(path), "new content\n");
  ck_assert_int_eq(count_files(""), 1);
}
END_TEST

START_TEST(test_fatal_error_removes_temporaries) {
  char a[1024], b[1024], c[1024];
  path_in_dir(a, sizeof a, "a.dat");
  path_in_dir(b, sizeof b, "b.dat");
  path_in_dir(c, sizeof c, "c.dat");
  hr_ofile *fa = hr_ofile_open(a, "w");
  hr_ofile *fb = hr_ofile_open(b, "w");
  hr_ofile *fc = hr_ofile_open(c, "w");
  fputs("a", hr_ofile_stream(fa));
  fputs("b", hr_ofile_stream(fb));
  fputs("c", hr_ofile_stream(fc));
  ck_assert_int_eq(hr_ofile_commit(fc), 0);
  ck_assert_int_eq(count_files(""), 3);
  CATCH_FATAL(hr_fatal(HR_EXIT_IO, "disk full"), HR_EXIT_IO);
  ck_assert_int_eq(count_files(""), 1); /* only the committed c.dat */
  ck_assert(exists(c));
  /* the handles stay usable: commit fails, abort is harmless */
  errno = 0;
  ck_assert_int_eq(hr_ofile_commit(fa), -1);
  ck_assert_int_eq(errno, ENOENT);
  hr_ofile_abort(fb);
  ck_assert(!exists(a));
  ck_assert(!exists(b));
  /* files opened after the error are protected again */
  hr_ofile *fd = hr_ofile_open(a, "w");
  ck_assert_ptr_nonnull(fd);
  CATCH_FATAL(hr_error("internal"), HR_EXIT_INTERNAL);
  ck_assert_int_eq(count_files("a.dat"), 0);
  hr_ofile_abort(fd);
}
END_TEST

START_TEST(test_open_errors) {
  errno = 0;
  ck_assert_ptr_null(hr_ofile_open("/nonexistent-dir/x.dat", "w"));
  ck_assert_int_eq(errno, ENOENT);
  char path[1024];
  path_in_dir(path, sizeof path, "x.dat");
  errno = 0;
  ck_assert_ptr_null(hr_ofile_open(path, "r"));
  ck_assert_int_eq(errno, EINVAL);
  ck_assert_ptr_null(hr_ofile_open(path, "a"));
  ck_assert_int_eq(count_files(""), 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("ofile");
  TCase *tc = tcase_create("ofile");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_commit);
  tcase_add_test(tc, test_abort);
  tcase_add_test(tc, test_existing_file_kept_until_commit);
  tcase_add_test(tc, test_fatal_error_removes_temporaries);
  tcase_add_test(tc, test_open_errors);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
