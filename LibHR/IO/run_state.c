/* run_state.c -- start, save and continue a chain of configurations (run_state.h): cold / hot
 * starts, saved configurations with their "<file>.rng" (generator state and step). */
#include "run_state.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "archive.h"
#include "communications.h"
#include "heatbath.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "random.h"

/* Longest path this module builds. */
#define RUN_PATH_MAX (2 * INPUT_STRING_MAX + 64)

/* Read "<conf>.rng": generator state and step. Returns 0, or -1 if absent; stops when it is
 * malformed. */
static int read_rng_file(const char *conf, hr_rng_state *st, int *step) {
  char path[RUN_PATH_MAX];
  snprintf(path, sizeof path, "%s.rng", conf);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  const int ok = rng_read_state(st, f) == 0 && fscanf(f, "step=%d", step) == 1 && *step >= 0;
  fclose(f);
  if (!ok)
    hr_fatal(HR_EXIT_IO, "%s: malformed generator-state file (expected the line "
                         "'libhr-rng seed=.. draw=..' and 'step=<n>')", path);
  return 0;
}

int run_start(suNg_field *u, uint64_t seed, const char *start) {
  rng_init(seed);
  if (strcmp(start, "cold") == 0) {
    gauge_field_cold(u);
    return 0;
  }
  if (strcmp(start, "hot") == 0) {
    gauge_field_hot(u);
    return 0;
  }
  archive_read(u, start, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_PERIODIC);
  hr_rng_state st;
  int step = 0;
  const int found = read_rng_file(start, &st, &step) == 0;
  /* every rank must agree: rank 0's file decides */
  int v[6] = {found, step, 0, 0, 0, 0};
  if (found) {
    v[2] = (int)(uint32_t)(st.seed >> 32);
    v[3] = (int)(uint32_t)st.seed;
    v[4] = (int)(uint32_t)(st.draw >> 32);
    v[5] = (int)(uint32_t)st.draw;
  }
  bcast_int(v, 6);
  if (v[0]) {
    st.seed = ((uint64_t)(uint32_t)v[2] << 32) | (uint32_t)v[3];
    st.draw = ((uint64_t)(uint32_t)v[4] << 32) | (uint32_t)v[5];
    rng_set_state(st);
    lprintf("MAIN", 0, "continuing the run of %s after step %d (generator state restored)\n",
            start, v[1]);
    return v[1];
  }
  lprintf("MAIN", 0, "started from %s (no %s.rng: new run, seed %llu)\n", start, start,
          (unsigned long long)seed);
  return 0;
}

void run_prepare_conf_dir(const char *dir) {
  int ok = 1, err = 0;
  if (hr_rank() == 0) {
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) {
      ok = 0;
      err = errno;
    }
  }
  bcast_int(&ok, 1);
  if (!ok) hr_fatal(HR_EXIT_IO, "conf dir %s: cannot create it: %s", dir, strerror(err));
}

void run_save(const char *dir, const char *name, int step, suNg_field *u) {
  char path[RUN_PATH_MAX], rngpath[RUN_PATH_MAX + 8];
  snprintf(path, sizeof path, "%s/%s_n%d", dir, name, step);
  snprintf(rngpath, sizeof rngpath, "%s.rng", path);
  archive_write(path, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u);
  int ok = 1;
  if (hr_rank() == 0) {
    hr_ofile *f = hr_ofile_open(rngpath, "w");
    ok = f != NULL && rng_write_state(hr_ofile_stream(f), rng_get_state()) == 0 &&
         fprintf(hr_ofile_stream(f), "step=%d\n", step) > 0;
    if (f != NULL) ok = ok ? hr_ofile_commit(f) == 0 : (hr_ofile_abort(f), 0);
  }
  bcast_int(&ok, 1);
  if (!ok)
    hr_fatal(HR_EXIT_IO, "%s: cannot write the generator state: %s", rngpath, strerror(errno));
  lprintf("MAIN", 10, "saved %s\n", path);
}
