/* catch_error.h -- for unit tests: run a statement that must stop the program with a fatal
 * error, catch the error through hr_error_set_test_handler, and check its code and text. */
#ifndef CATCH_ERROR_H
#define CATCH_ERROR_H

#include <check.h>
#include <setjmp.h>
#include <string.h>

#include "hr_error.h"

static jmp_buf catch_error_jump;
static volatile int catch_error_code = -1;

/* Test handler: remember the exit code and jump back into the test. */
static void catch_error_handler(int code, const char *message) {
  (void)message;
  catch_error_code = code;
  longjmp(catch_error_jump, 1);
}

/* Run `statement`, which must stop with exit code `code`; leaves the message in
 * hr_last_error(). Fails the test when no error occurs. */
#define CATCH_FATAL(statement, code)                                                     \
  do {                                                                                   \
    catch_error_code = -1;                                                               \
    hr_error_set_test_handler(catch_error_handler);                                      \
    if (setjmp(catch_error_jump) == 0) {                                                 \
      statement;                                                                         \
      hr_error_set_test_handler(NULL);                                                   \
      ck_abort_msg("no fatal error from: %s", #statement);                               \
    }                                                                                    \
    hr_error_set_test_handler(NULL);                                                     \
    ck_assert_int_eq(catch_error_code, (code));                                          \
  } while (0)

/* As CATCH_FATAL, and the message must be exactly `message`. */
#define EXPECT_FATAL(statement, code, message)                                           \
  do {                                                                                   \
    CATCH_FATAL(statement, code);                                                        \
    ck_assert_str_eq(hr_last_error(), (message));                                        \
  } while (0)

/* As CATCH_FATAL, and the message must start with `start`. */
#define EXPECT_FATAL_START(statement, code, start)                                       \
  do {                                                                                   \
    CATCH_FATAL(statement, code);                                                        \
    ck_assert_msg(strncmp(hr_last_error(), (start), strlen(start)) == 0,                 \
                  "message '%s' does not start with '%s'", hr_last_error(), (start));    \
  } while (0)

#endif
