/* error.c -- fatal errors: message printing (rank 0 and the failing rank), error hooks
 * (removal of temporary output files), MPI abort or exit, and the test handler that lets
 * unit tests catch fatal errors. Uses runtime.c (rank and size) only. */
#include "hr_error.h"
#include "hr_core.h"
#include "hr_build_config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if HR_WITH_MPI
#include <mpi.h>
#endif

/* Longest error message kept for hr_last_error (longer ones are truncated). */
#define HR_ERROR_MSG_MAX 4096
/* Most hooks hr_atexit_error accepts. */
#define HR_ERROR_MAX_HOOKS 8
/* Seconds a rank other than 0 waits in hr_fatal for rank 0 to report the same error. */
#define HR_FATAL_WAIT_SECONDS 2
/* Milliseconds a rank other than 0 waits after reporting an internal error before it aborts
 * the run (so that rank 0's report of the same error is not cut off). */
#define HR_ERROR_ABORT_DELAY_MS 1000

static void (*error_hooks[HR_ERROR_MAX_HOOKS])(void);
static int n_error_hooks = 0;
static hr_error_test_handler test_handler = NULL;
static char last_error[HR_ERROR_MSG_MAX] = "";
/* Set by the first thread that enters the error path; others stop and wait. */
static atomic_int error_in_progress = 0;
/* Set while this thread runs the error path (an error inside a hook exits at once). */
static _Thread_local int error_in_this_thread = 0;

int hr_atexit_error(void (*hook)(void)) {
  for (int i = 0; i < n_error_hooks; i++)
    if (error_hooks[i] == hook) return 0;
  if (n_error_hooks == HR_ERROR_MAX_HOOKS) return -1;
  error_hooks[n_error_hooks++] = hook;
  return 0;
}

void hr_error_set_test_handler(hr_error_test_handler handler) { test_handler = handler; }

const char *hr_last_error(void) { return last_error; }

/* Source path without leading "./" and "../" (out-of-tree builds). */
static const char *short_source_path(const char *file) {
  while (strncmp(file, "../", 3) == 0 || strncmp(file, "./", 2) == 0)
    file += (file[1] == '/') ? 2 : 3;
  return file;
}

/* Print the message to stderr, with "[rank R] " in front when it helps to know the rank. */
static void print_message(const char *msg, int with_rank, int rank) {
  if (with_rank)
    fprintf(stderr, "[rank %d] %s\n", rank, msg);
  else
    fprintf(stderr, "%s\n", msg);
  fflush(stderr);
}

static void run_hooks(void) {
  for (int i = n_error_hooks - 1; i >= 0; i--) error_hooks[i]();
}

/* Common error path. `everyone_reports` is 1 for hr_error_at (the failing rank prints), 0
 * for hr_fatal (errors the user made are found by every rank; rank 0 prints, other ranks
 * print only when rank 0 did not stop the run within a short wait). */
static _Noreturn void error_exit(int code, int everyone_reports, const char *prefix,
                                 const char *fmt, va_list ap) {
  if (error_in_this_thread) {
    /* An error inside an error hook: report briefly and leave. */
    char msg[HR_ERROR_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "%s%s (while handling an earlier error)\n", prefix, msg);
    _exit(code);
  }
  if (atomic_exchange(&error_in_progress, 1) != 0 && test_handler == NULL) {
    /* Another thread of this process is already stopping the program. */
    for (;;) pause();
  }
  error_in_this_thread = 1;

  size_t n = (size_t)snprintf(last_error, sizeof last_error, "%s", prefix);
  if (n < sizeof last_error) vsnprintf(last_error + n, sizeof last_error - n, fmt, ap);
  size_t len = strlen(last_error);
  while (len > 0 && last_error[len - 1] == '\n') last_error[--len] = '\0';

  if (test_handler != NULL) {
    run_hooks();
    error_in_this_thread = 0;
    atomic_store(&error_in_progress, 0);
    test_handler(code, last_error);
    /* A handler that returns: fall through to the normal exit. */
  }

  const int rank = hr_rank(), size = hr_nranks();
  if (rank == 0 || everyone_reports) {
    /* Internal errors may differ between ranks: say which rank failed. */
    print_message(last_error, size > 1 && everyone_reports, rank);
    run_hooks();
  } else {
    /* Clean up, then give rank 0 time to report the same error and abort everybody; if
     * this rank is still alive after the wait, the error was its own. */
    run_hooks();
    struct timespec wait = {HR_FATAL_WAIT_SECONDS, 0};
    nanosleep(&wait, NULL);
    print_message(last_error, 1, rank);
  }
  fflush(stdout);
#if HR_WITH_MPI
  if (size > 1) {
    if (rank != 0 && everyone_reports) {
      /* This rank has reported; when every rank failed, let rank 0 print its report too
       * before the abort tears the run down. */
      struct timespec pause = {HR_ERROR_ABORT_DELAY_MS / 1000,
                               1000000L * (HR_ERROR_ABORT_DELAY_MS % 1000)};
      nanosleep(&pause, NULL);
    }
    MPI_Abort(MPI_COMM_WORLD, code);
  }
#endif
  exit(code);
}

_Noreturn void hr_error_at(int code, const char *file, int line, const char *func,
                           const char *fmt, ...) {
  char prefix[512];
  snprintf(prefix, sizeof prefix, "%s:%d: %s: ", short_source_path(file), line, func);
  va_list ap;
  va_start(ap, fmt);
  error_exit(code, 1, prefix, fmt, ap);
}

_Noreturn void hr_fatal(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  error_exit(code, 0, "", fmt, ap);
}
