/* test_host_memory.c -- hr_host_alloc: alignment (64 B; 2 MiB from 2 MiB on with huge pages),
 * every byte usable, the huge-page advice present exactly where asked (VmFlags of
 * /proc/self/smaps, where the kernel has transparent huge pages), memory:huge_pages in the
 * input file, and the errors of impossible sizes. Each test runs in its own process (Check's
 * fork), so that no earlier advice lingers in memory the allocator hands out again. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catch_error.h"
#include "host_memory.h"
#include "hr_core.h"
#include "../check_suite.h"

/* 1 where the kernel has transparent huge pages, so that advice leaves a mark. */
static int kernel_has_thp(void) {
  return access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0 &&
         hr_host_huge_pages_advised(&(int){0}, sizeof(int)) >= 0;
}

/* Write a pattern over every byte of p and read it back. */
static void check_usable(unsigned char *p, size_t bytes) {
  for (size_t i = 0; i < bytes; i++) p[i] = (unsigned char)(i * 7 + 3);
  for (size_t i = 0; i < bytes; i += 4093) ck_assert_int_eq(p[i], (unsigned char)(i * 7 + 3));
  ck_assert_int_eq(p[bytes - 1], (unsigned char)((bytes - 1) * 7 + 3));
}

START_TEST(test_small_arrays) {
  ck_assert_int_eq(hr_huge_pages(), 1); /* the default */
  const size_t sizes[] = {0, 1, 63, 1000, 100000, HR_HUGE_PAGE_BYTES - 1};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    unsigned char *p = hr_host_alloc(sizes[k], "a test array");
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % HR_HOST_ALIGN_BYTES, 0);
    if (sizes[k] > 0) check_usable(p, sizes[k]);
    hr_host_free(p);
  }
  hr_host_free(NULL);
}
END_TEST

START_TEST(test_large_arrays_off) {
  hr_set_huge_pages(0);
  ck_assert_int_eq(hr_huge_pages(), 0);
  const size_t bytes = 5 * HR_HUGE_PAGE_BYTES + 1;
  unsigned char *p = hr_host_alloc(bytes, "a test array");
  ck_assert_uint_eq((uintptr_t)p % HR_HOST_ALIGN_BYTES, 0);
  check_usable(p, bytes);
  if (kernel_has_thp()) ck_assert_int_eq(hr_host_huge_pages_advised(p, bytes), 0);
  hr_host_free(p);
}
END_TEST

START_TEST(test_large_arrays_on) {
  hr_set_huge_pages(1);
  const size_t sizes[] = {HR_HUGE_PAGE_BYTES, 5 * HR_HUGE_PAGE_BYTES + 1, 3 * HR_HUGE_PAGE_BYTES};
  unsigned char *p[3];
  for (int k = 0; k < 3; k++) {
    p[k] = hr_host_alloc(sizes[k], "a test array");
    ck_assert_uint_eq((uintptr_t)p[k] % HR_HUGE_PAGE_BYTES, 0);
    check_usable(p[k], sizes[k]);
    if (kernel_has_thp())
      ck_assert_msg(hr_host_huge_pages_advised(p[k], sizes[k]) == 1,
                    "no huge-page advice on the %zu bytes at %p", sizes[k], (void *)p[k]);
  }
  /* a small array beside them gets no advice */
  unsigned char *s = hr_host_alloc(1000, "a small test array");
  if (kernel_has_thp()) ck_assert_int_eq(hr_host_huge_pages_advised(s, 1000), 0);
  const long long huge = hr_host_huge_page_bytes();
  ck_assert(huge == -1 || huge >= 0); /* how many the kernel gave is its choice */
  hr_host_free(s);
  for (int k = 0; k < 3; k++) hr_host_free(p[k]);
}
END_TEST

START_TEST(test_impossible_sizes) {
  CATCH_FATAL(hr_host_alloc(SIZE_MAX, "the clover blocks"), HR_EXIT_SETUP);
  ck_assert_ptr_nonnull(strstr(hr_last_error(), "cannot allocate 18446744073709551615 bytes for "
                                                "the clover blocks: more than memory can hold"));
#ifndef __SANITIZE_ADDRESS__ /* AddressSanitizer stops on such a request itself */
  CATCH_FATAL(hr_host_alloc((size_t)1 << 62, "the spinor fields"), HR_EXIT_SETUP);
  ck_assert_ptr_nonnull(strstr(hr_last_error(), "out of host memory allocating "
                                                "4611686018427387904 bytes for the spinor fields"));
#endif
}
END_TEST

/* memory:huge_pages in the input file of hr_setup. */
START_TEST(test_input_key) {
  char dir[] = "/tmp/hr_test_host_memory_XXXXXX", path[600];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/run.in", dir);
  const char *values[] = {"off", "on"};
  for (int v = 0; v < 2; v++) {
    FILE *f = fopen(path, "w");
    fprintf(f, "memory:huge_pages = %s\n", values[v]);
    fclose(f);
    char *args[] = {"prog", "-i", path, NULL};
    int argc = 3;
    char **argv = args;
    input_file *in = hr_setup(&argc, &argv, NULL);
    input_finish(in);
    ck_assert_int_eq(hr_huge_pages(), v);
    hr_finalize();
  }
  FILE *f = fopen(path, "w");
  fputs("memory:huge_pages = maybe\n", f);
  fclose(f);
  char *args[] = {"prog", "-i", path, NULL};
  int argc = 3;
  char **argv = args;
  CATCH_FATAL(hr_setup(&argc, &argv, NULL), HR_EXIT_INPUT);
  ck_assert_ptr_nonnull(strstr(hr_last_error(), "memory:huge_pages: invalid value 'maybe'"));
  unlink(path);
  rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("host_memory");
  TCase *tc = tcase_create("host_memory");
  tcase_add_test(tc, test_small_arrays);
  tcase_add_test(tc, test_large_arrays_off);
  tcase_add_test(tc, test_large_arrays_on);
  tcase_add_test(tc, test_impossible_sizes);
  tcase_add_test(tc, test_input_key);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
