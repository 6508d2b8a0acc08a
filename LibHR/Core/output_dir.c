/* output_dir.c -- hr_check_output_dir: before any work, make sure that an output directory
 * exists (created with its missing parents) and takes files (a file is created and removed in
 * it), so that a read-only mount, missing permissions or a full disk end a run at its start. */
#include "hr_core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Longest directory path checked. */
#define OUTPUT_DIR_PATH_MAX 4096

/* Create directory `path` unless it exists. Returns 0, or -1 with the reason in err. */
static int make_one_dir(const char *path, char *err, size_t errlen) {
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return 0;
    snprintf(err, errlen, "'%s' is not a directory", path);
    return -1;
  }
  if (errno == ENOENT && mkdir(path, 0777) == 0) return 0;
  if (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0; /* a race */
  snprintf(err, errlen, "cannot create directory '%s': %s", path, strerror(errno));
  return -1;
}

/* Create `dir` and its missing parents, one path element after another. */
static int make_dirs(const char *dir, char *err, size_t errlen) {
  char path[OUTPUT_DIR_PATH_MAX];
  if (strlen(dir) >= sizeof path) {
    snprintf(err, errlen, "directory name too long (%zu characters; at most %zu)", strlen(dir),
             sizeof path - 1);
    return -1;
  }
  strcpy(path, dir);
  for (char *p = path + 1; *p != '\0'; p++) {
    if (*p != '/' || p[-1] == '/') continue;
    *p = '\0';
    int rc = make_one_dir(path, err, errlen);
    *p = '/';
    if (rc != 0) return -1;
  }
  return make_one_dir(path, err, errlen);
}

/* Create, write, close and remove a file in `dir`. */
static int try_a_file(const char *dir, char *err, size_t errlen) {
  char path[OUTPUT_DIR_PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/.hr_write_check.XXXXXX", dir);
  int fd = mkstemp(path);
  if (fd < 0) {
    snprintf(err, errlen, "cannot create a file in directory '%s': %s", dir, strerror(errno));
    return -1;
  }
  const char byte = '\n';
  int ok = write(fd, &byte, 1) == 1;
  int saved = errno;
  if (close(fd) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  unlink(path);
  if (!ok) {
    snprintf(err, errlen, "cannot write a file in directory '%s': %s", dir, strerror(saved));
    return -1;
  }
  return 0;
}

void hr_parent_dir(char *dir, size_t len, const char *path) {
  const char *slash = strrchr(path, '/');
  if (slash == NULL)
    snprintf(dir, len, ".");
  else if (slash == path)
    snprintf(dir, len, "/");
  else
    snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int hr_check_output_dir(const char *dir, char *err, size_t errlen) {
  char scratch[8];
  if (err == NULL || errlen == 0) { /* the caller wants no reason */
    err = scratch;
    errlen = sizeof scratch;
  }
  if (dir == NULL || *dir == '\0') dir = ".";
  if (make_dirs(dir, err, errlen) != 0) return -1;
  return try_a_file(dir, err, errlen);
}
