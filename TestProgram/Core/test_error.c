/* test_error.c -- fatal errors caught by the test handler: message text with and without
 * source location, exit codes, hr_assert, error hooks (order, once per registration). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catch_error.h"
#include "hr_error.h"
#include "../check_suite.h"

static int raise_line;

/* Raise an internal error from a function whose name the message must show. */
static void raise_internal_error(int value) {
  raise_line = __LINE__ + 1;
  hr_error("bad value %d (expected %s)", value, "0");
}

START_TEST(test_fatal_message_and_code) {
  EXPECT_FATAL(hr_fatal(HR_EXIT_IO, "cannot read '%s': %s", "conf.dat", "truncated"), HR_EXIT_IO,
               "cannot read 'conf.dat': truncated");
  /* a trailing newline is not part of the message */
  EXPECT_FATAL(hr_fatal(HR_EXIT_SETUP, "no process grid fits %d ranks\n", 7), HR_EXIT_SETUP,
               "no process grid fits 7 ranks");
  ck_assert_str_eq(hr_last_error(), "no process grid fits 7 ranks");
  /* errors can be caught again and again */
  for (volatile int code = HR_EXIT_INTERNAL; code <= HR_EXIT_NUMERICS; code++) {
    char expected[64];
    snprintf(expected, sizeof expected, "error number %d", code);
    EXPECT_FATAL(hr_fatal(code, "error number %d", code), code, expected);
  }
}
END_TEST

START_TEST(test_error_has_source_location) {
  CATCH_FATAL(raise_internal_error(42), HR_EXIT_INTERNAL);
  const char *msg = hr_last_error();
  /* "<path>:<line>: raise_internal_error: bad value 42 (expected 0)", where <path> is a
   * trailing part of this file's path */
  char tail[256];
  snprintf(tail, sizeof tail, ":%d: raise_internal_error: bad value 42 (expected 0)", raise_line);
  const char *colon = strstr(msg, tail);
  ck_assert_msg(colon != NULL && strcmp(colon, tail) == 0, "message '%s' does not end with '%s'",
                msg, tail);
  size_t path_len = (size_t)(colon - msg);
  ck_assert_msg(path_len >= strlen("test_error.c"), "no file name in '%s'", msg);
  const char *file = __FILE__;
  ck_assert_msg(strlen(file) >= path_len &&
                    strncmp(file + strlen(file) - path_len, msg, path_len) == 0,
                "'%.*s' is not the end of '%s'", (int)path_len, msg, file);
  ck_assert_msg(strncmp(msg + path_len - strlen("test_error.c"), "test_error.c", 12) == 0,
                "%s", msg);
}
END_TEST

START_TEST(test_error_code_and_assert) {
  CATCH_FATAL(hr_error_code(HR_EXIT_NUMERICS, "CG did not converge after %d steps", 100),
              HR_EXIT_NUMERICS);
  ck_assert_ptr_nonnull(strstr(hr_last_error(), ": CG did not converge after 100 steps"));
  volatile int calls = 0;
  hr_assert(calls == 0, "never printed");
  hr_error_set_test_handler(catch_error_handler);
  if (setjmp(catch_error_jump) == 0) {
    hr_assert(1 + 1 == 2, "arithmetic is broken");
    calls++;
  }
  hr_error_set_test_handler(NULL);
  ck_assert_int_eq(calls, 1);
  CATCH_FATAL(hr_assert(calls == 2, "calls = %d", calls), HR_EXIT_INTERNAL);
  ck_assert_ptr_nonnull(strstr(hr_last_error(), ": calls = 1"));
}
END_TEST

static char hook_trace[64];

static void hook_a(void) { strcat(hook_trace, "a"); }
static void hook_b(void) { strcat(hook_trace, "b"); }

START_TEST(test_hooks_run_once_in_reverse_order) {
  ck_assert_int_eq(hr_atexit_error(hook_a), 0);
  ck_assert_int_eq(hr_atexit_error(hook_b), 0);
  ck_assert_int_eq(hr_atexit_error(hook_a), 0); /* already registered: not added again */
  hook_trace[0] = '\0';
  CATCH_FATAL(hr_fatal(HR_EXIT_IO, "x"), HR_EXIT_IO);
  ck_assert_str_eq(hook_trace, "ba");
  hook_trace[0] = '\0';
  CATCH_FATAL(hr_error("y"), HR_EXIT_INTERNAL);
  ck_assert_str_eq(hook_trace, "ba");
}
END_TEST

#define DEFINE_HOOK(n) \
  static void hook_##n(void) {}
DEFINE_HOOK(0)
DEFINE_HOOK(1)
DEFINE_HOOK(2)
DEFINE_HOOK(3)
DEFINE_HOOK(4)
DEFINE_HOOK(5)
DEFINE_HOOK(6)
DEFINE_HOOK(7)

START_TEST(test_hook_table_is_bounded) {
  /* hook_a and hook_b registered (again: no change when the case before ran in this process,
   * as without fork); 8 hooks at most */
  ck_assert_int_eq(hr_atexit_error(hook_a), 0);
  ck_assert_int_eq(hr_atexit_error(hook_b), 0);
  void (*hooks[])(void) = {hook_0, hook_1, hook_2, hook_3, hook_4, hook_5, hook_6, hook_7};
  int accepted = 0;
  for (int i = 0; i < 8; i++) accepted += hr_atexit_error(hooks[i]) == 0;
  ck_assert_int_eq(accepted, 6);
  ck_assert_int_eq(hr_atexit_error(hook_a), 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("error");
  TCase *tc = tcase_create("error");
  tcase_add_test(tc, test_fatal_message_and_code);
  tcase_add_test(tc, test_error_has_source_location);
  tcase_add_test(tc, test_error_code_and_assert);
  tcase_add_test(tc, test_hooks_run_once_in_reverse_order);
  tcase_add_test(tc, test_hook_table_is_bounded); /* last: fills the hook table */
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
