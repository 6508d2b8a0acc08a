/* hr_error.h -- fatal errors: printf-style messages with the source location added, clean
 * abort of all MPI ranks, and removal of half-written output files before exiting.
 * Implemented in: LibHR/Core/error.c. */
#ifndef HR_ERROR_H
#define HR_ERROR_H

#include <stdarg.h>

/* Exit codes used by LibHR programs. */
enum {
  HR_EXIT_OK = 0,
  HR_EXIT_INTERNAL = 1,   /* a bug or an impossible state inside LibHR */
  HR_EXIT_INPUT = 2,      /* bad input file or command line */
  HR_EXIT_IO = 3,         /* unreadable, corrupt or mismatched file */
  HR_EXIT_SETUP = 4,      /* impossible lattice / process grid / resources */
  HR_EXIT_NUMERICS = 5,   /* e.g. a solver that did not converge */
  HR_EXIT_STOPPED = 6     /* stopped early on SIGTERM / SIGUSR1, state saved (run_state.h) */
};

/* Stop the whole run: print "file:line: func: message" on stderr (every rank that calls it;
 * prefixed "[rank R] " when several ranks run), run the error hooks (removal of temporary
 * output files), then MPI_Abort all ranks (MPI running, size > 1) or exit with `code`. */
_Noreturn void hr_error_at(int code, const char *file, int line, const char *func,
                           const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Stop the whole run with a message meant for the user (no source location), e.g. a bad
 * input file, which every rank detects: rank 0 prints it; another rank prints it (with
 * "[rank R] ") only if rank 0 has not stopped the run within 2 seconds. Otherwise as
 * hr_error_at. */
_Noreturn void hr_fatal(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Internal error with source location: hr_error("what %d", x). */
#define hr_error(...) hr_error_at(HR_EXIT_INTERNAL, __FILE__, __LINE__, __func__, __VA_ARGS__)
/* Error with an explicit exit code and source location: hr_error_code(HR_EXIT_IO, "..."). */
#define hr_error_code(code, ...) hr_error_at((code), __FILE__, __LINE__, __func__, __VA_ARGS__)
/* Stop with an internal error when `cond` is false. */
#define hr_assert(cond, ...)                                                                   \
  do {                                                                                         \
    if (!(cond)) hr_error_at(HR_EXIT_INTERNAL, __FILE__, __LINE__, __func__, __VA_ARGS__);     \
  } while (0)

/* Hook run by hr_error_at/hr_fatal before the process exits (at most a few; used by the
 * output-file layer to delete temporary files). Returns 0 on success. */
int hr_atexit_error(void (*hook)(void));

/* For the unit tests: with a handler installed, hr_error_at/hr_fatal print nothing, run the
 * error hooks, keep the message in hr_last_error() and call the handler (which longjmps
 * back into the test) instead of exiting. */
typedef void (*hr_error_test_handler)(int code, const char *message);
/* Install (or with NULL remove) a handler that replaces the exit in hr_error_at/hr_fatal.
 * The handler must not return (e.g. it longjmps back into the test). */
void hr_error_set_test_handler(hr_error_test_handler handler);
/* The text of the last error message, without trailing newline (for tests). */
const char *hr_last_error(void);

#endif
