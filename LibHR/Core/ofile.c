/* ofile.c -- output files that appear under their final name only when complete: writing
 * goes to "<path>.tmp.XXXXXX" beside the final name; commit = flush, fsync, rename; abort,
 * a fatal error, an exit without commit or a termination signal (SIGTERM, e.g. from
 * MPI_Abort on another rank; SIGINT; SIGHUP) removes the temporary file. The signal handling
 * of the process lives here: hr_stop_on_signals turns the first SIGTERM / SIGUSR1 into a stop
 * request (a second one ends the process after removing the temporary files); and the crash
 * points of the fault-injection tests. */
#include "hr_core.h"
#include "hr_error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

struct hr_ofile {
  FILE *stream;
  char *final_path;
  char *temp_path;
  struct hr_ofile *next; /* list of open files, for removal on error */
};

static hr_ofile *open_files = NULL;
static int hooks_registered = 0;

/* The signal of a stop request (hr_stop_on_signals), 0 while none came. */
static volatile sig_atomic_t stop_signal_received = 0;
/* Whether hr_stop_on_signals handles SIGTERM / SIGUSR1 (then the removal handler leaves
 * SIGTERM alone). */
static int stop_handlers_installed = 0;

/* Signals after which temporary files are removed, and the actions they had before. */
static const int cleanup_signals[] = {SIGTERM, SIGINT, SIGHUP};
#define N_CLEANUP_SIGNALS (int)(sizeof cleanup_signals / sizeof cleanup_signals[0])
static struct sigaction previous_actions[N_CLEANUP_SIGNALS];

/* Signal handler: unlink the temporary files (unlink is async-signal-safe), then let the
 * signal do what it did before (by default: end the process). */
static void remove_temporaries_on_signal(int sig) {
  for (hr_ofile *f = open_files; f != NULL; f = f->next)
    if (f->temp_path != NULL) unlink(f->temp_path);
  for (int i = 0; i < N_CLEANUP_SIGNALS; i++)
    if (cleanup_signals[i] == sig) sigaction(sig, &previous_actions[i], NULL);
  raise(sig); /* delivered when this handler returns */
}

/* Install the signal handler, except where the signal is ignored (e.g. nohup) or is a stop
 * request (hr_stop_on_signals). */
static void install_signal_handlers(void) {
  for (int i = 0; i < N_CLEANUP_SIGNALS; i++) {
    if (stop_handlers_installed && cleanup_signals[i] == SIGTERM) continue;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_temporaries_on_signal;
    sigemptyset(&action.sa_mask);
    if (sigaction(cleanup_signals[i], NULL, &previous_actions[i]) == 0 &&
        previous_actions[i].sa_handler != SIG_IGN)
      sigaction(cleanup_signals[i], &action, NULL);
  }
}

/* Error hook: remove every temporary file still open. The handles stay valid (commit then
 * fails, abort is harmless) and are freed by close_files_at_exit. */
static void remove_open_temporaries(void) {
  for (hr_ofile *f = open_files; f != NULL; f = f->next) {
    if (f->temp_path != NULL) unlink(f->temp_path);
    free(f->temp_path);
    f->temp_path = NULL;
  }
}

static void unlink_from_list(hr_ofile *f) {
  for (hr_ofile **p = &open_files; *p != NULL; p = &(*p)->next) {
    if (*p == f) {
      *p = f->next;
      return;
    }
  }
}

static void free_ofile(hr_ofile *f) {
  free(f->final_path);
  free(f->temp_path);
  free(f);
}

/* atexit: close, remove and free the files neither committed nor aborted. */
static void close_files_at_exit(void) {
  while (open_files != NULL) {
    hr_ofile *f = open_files;
    open_files = f->next;
    fclose(f->stream);
    if (f->temp_path != NULL) unlink(f->temp_path);
    free_ofile(f);
  }
}

hr_ofile *hr_ofile_open(const char *path, const char *mode) {
  if (path == NULL || mode == NULL || mode[0] != 'w') {
    errno = EINVAL;
    return NULL;
  }
  if (!hooks_registered) {
    if (hr_atexit_error(remove_open_temporaries) != 0 || atexit(close_files_at_exit) != 0)
      hr_error("cannot register the clean-up of temporary output files");
    install_signal_handlers();
    hooks_registered = 1;
  }
  hr_ofile *f = calloc(1, sizeof *f);
  if (f == NULL) return NULL;
  size_t n = strlen(path);
  f->final_path = malloc(n + 1);
  f->temp_path = malloc(n + sizeof ".tmp.XXXXXX");
  if (f->final_path == NULL || f->temp_path == NULL) {
    free_ofile(f);
    errno = ENOMEM;
    return NULL;
  }
  memcpy(f->final_path, path, n + 1);
  memcpy(f->temp_path, path, n);
  memcpy(f->temp_path + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
  int fd = mkstemp(f->temp_path);
  if (fd < 0) {
    int saved = errno;
    free_ofile(f);
    errno = saved;
    return NULL;
  }
  /* mkstemp creates the file with mode 0600; give it the usual mode 0666 & ~umask. */
  mode_t mask = umask(0);
  umask(mask);
  if (fchmod(fd, 0666 & ~mask) != 0 || (f->stream = fdopen(fd, mode)) == NULL) {
    int saved = errno;
    close(fd);
    unlink(f->temp_path);
    free_ofile(f);
    errno = saved;
    return NULL;
  }
  f->next = open_files;
  open_files = f;
  return f;
}

FILE *hr_ofile_stream(hr_ofile *f) { return f->stream; }

/* fsync the directory holding `path`, so that the rename survives a crash. */
static void sync_parent_directory(const char *path) {
  char dir[4096];
  hr_parent_dir(dir, sizeof dir, path);
  int fd = open(dir, O_RDONLY);
  if (fd >= 0) {
    fsync(fd); /* best effort: some file systems refuse fsync on directories */
    close(fd);
  }
}

/* Stop-request handler: the first signal is recorded; a second one removes the temporary
 * files and ends the process with the signal's default action. */
static void record_stop_signal(int sig) {
  if (stop_signal_received == 0) {
    stop_signal_received = sig;
    return;
  }
  for (hr_ofile *f = open_files; f != NULL; f = f->next)
    if (f->temp_path != NULL) unlink(f->temp_path);
  signal(sig, SIG_DFL);
  raise(sig);
}

void hr_stop_on_signals(void) {
  static const int stop_signals[] = {SIGTERM, SIGUSR1};
  for (int i = 0; i < 2; i++) {
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = record_stop_signal;
    sigemptyset(&action.sa_mask);
    if (sigaction(stop_signals[i], NULL, &previous) == 0 && previous.sa_handler != SIG_IGN)
      sigaction(stop_signals[i], &action, NULL);
  }
  stop_handlers_installed = 1;
}

int hr_stop_signal(void) { return (int)stop_signal_received; }

void hr_test_crash_point(const char *point) {
  const char *want = getenv("HR_TEST_CRASH_POINT");
  if (want != NULL && strcmp(want, point) == 0) {
    fflush(NULL);
    raise(SIGKILL);
  }
}

/* The crash point of a commit: "commit:<file name without folder>". */
static void commit_crash_point(const char *final_path) {
  if (getenv("HR_TEST_CRASH_POINT") == NULL) return;
  const char *slash = strrchr(final_path, '/');
  char point[512];
  snprintf(point, sizeof point, "commit:%s", slash ? slash + 1 : final_path);
  hr_test_crash_point(point);
}

int hr_ofile_commit(hr_ofile *f) {
  unlink_from_list(f);
  if (f->temp_path == NULL) { /* removed by an earlier error hook */
    fclose(f->stream);
    free_ofile(f);
    errno = ENOENT;
    return -1;
  }
  int ok = fflush(f->stream) == 0;
  ok = ok && !ferror(f->stream);
  ok = ok && fsync(fileno(f->stream)) == 0;
  int saved = errno;
  if (fclose(f->stream) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  if (ok) commit_crash_point(f->final_path);
  if (ok && rename(f->temp_path, f->final_path) != 0) {
    ok = 0;
    saved = errno;
  }
  if (!ok)
    unlink(f->temp_path);
  else
    sync_parent_directory(f->final_path);
  free_ofile(f);
  errno = saved;
  return ok ? 0 : -1;
}

void hr_ofile_abort(hr_ofile *f) {
  unlink_from_list(f);
  fclose(f->stream);
  if (f->temp_path != NULL) unlink(f->temp_path);
  free_ofile(f);
}
