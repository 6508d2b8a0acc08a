/* suN.c -- PureGauge/suN: pure SU(N) gauge theory with the Wilson action, generated with the
 * Cabibbo-Marinari heatbath plus over-relaxation. Usage: suN -i input_file [-o logfile].
 * Prints "step=<n> plaquette=<value> polyakov=<re> <im>" at each measurement and saves
 * <conf dir>/<run name>_n<step> (HiRep format) with the generator state and step in
 * <file>.rng; "gauge start = <saved file>" continues that run bitwise (Doc/pure_gauge.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive.h"
#include "communications.h"
#include "geometry.h"
#include "heatbath.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "observables.h"
#include "random.h"

/* The run parameters of the input file. */
typedef struct {
  double beta;
  char start[INPUT_STRING_MAX];
  int nth, nsteps, nhb, nor, meas_freq, save_freq;
  char conf_dir[INPUT_STRING_MAX];
  char run_name[INPUT_STRING_MAX];
  long long seed;
} run_params;

static void read_params(input_file *in, run_params *r) {
  const input_key keys[] = {
      {"beta", INPUT_DOUBLE, &r->beta, NULL, NULL, "Wilson gauge coupling beta"},
      {"gauge start", INPUT_STRING, r->start, "cold", NULL,
       "cold, hot, or the path of a saved configuration (continues its run)"},
      {"nth", INPUT_INT, &r->nth, "0", NULL, "thermalisation steps (neither measured nor saved)"},
      {"nsteps", INPUT_INT, &r->nsteps, NULL, NULL, "last step number of the run"},
      {"nhb", INPUT_INT, &r->nhb, "1", NULL, "heatbath sweeps per step"},
      {"nor", INPUT_INT, &r->nor, "3", NULL, "over-relaxation sweeps per step"},
      {"meas freq", INPUT_INT, &r->meas_freq, "1", NULL, "measure every this many steps"},
      {"save freq", INPUT_INT, &r->save_freq, "0", NULL, "save every this many steps (0: never)"},
      {"conf dir", INPUT_STRING, r->conf_dir, ".", NULL, "folder of the saved configurations"},
      {"run name", INPUT_STRING, r->run_name, "run", NULL, "name prefix of saved configurations"},
      {"seed", INPUT_LONG, &r->seed, NULL, NULL, "random-number seed (>= 0)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  const char *file = input_filename(in);
  if (!(r->beta >= 0.0)) hr_fatal(HR_EXIT_INPUT, "%s: beta: must be >= 0", file);
  if (r->nth < 0 || r->nsteps < 0 || r->nhb < 0 || r->nor < 0)
    hr_fatal(HR_EXIT_INPUT, "%s: nth, nsteps, nhb and nor must be >= 0", file);
  if (r->meas_freq < 1) hr_fatal(HR_EXIT_INPUT, "%s: meas freq: must be >= 1", file);
  if (r->save_freq < 0) hr_fatal(HR_EXIT_INPUT, "%s: save freq: must be >= 0", file);
  if (r->seed < 0) hr_fatal(HR_EXIT_INPUT, "%s: seed: must be >= 0", file);
  if (r->run_name[0] == '\0' || strchr(r->run_name, '/') != NULL)
    hr_fatal(HR_EXIT_INPUT, "%s: run name: must be a non-empty name without '/'", file);
}


/* Read "<conf>.rng": generator state and step. Returns 0, or -1 if absent or malformed. */
static int read_rng_file(const char *conf, hr_rng_state *st, int *step) {
  char path[2 * INPUT_STRING_MAX + 16];
  snprintf(path, sizeof path, "%s.rng", conf);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  int ok = rng_read_state(f, st) == 0 && fscanf(f, "step=%d", step) == 1 && *step >= 0;
  fclose(f);
  if (!ok) hr_fatal(HR_EXIT_IO, "%s: malformed generator-state file (expected the line "
                                "'libhr-rng seed=.. draw=..' and 'step=<n>')", path);
  return 0;
}

/* Save the configuration and "<file>.rng" (both atomically). */
static void save(const run_params *r, int step, suNg_field *u) {
  char path[2 * INPUT_STRING_MAX + 32], rngpath[2 * INPUT_STRING_MAX + 48];
  snprintf(path, sizeof path, "%s/%s_n%d", r->conf_dir, r->run_name, step);
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
  if (!ok) hr_fatal(HR_EXIT_IO, "%s: cannot write the generator state: %s", rngpath,
                    strerror(errno));
  lprintf("MAIN", 10, "saved %s\n", path);
}

static void measure(int step, const suNg_field *u) {
  const double plaq = avr_plaquette(u);
  const hr_complex poly = polyakov_loop(u);
  lprintf("MAIN", 0, "step=%d plaquette=%.16g polyakov=%.16g %.16g\n", step, plaq,
          creal(poly), cimag(poly));
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file");
  run_params r;
  read_params(in, &r);
  geometry_params gp;
  geometry_read_input(in, &gp);
  input_finish(in);
  geometry_init(&gp);

  lprintf("MAIN", 0, "pure SU(%d) gauge theory, Wilson action, beta = %.10g, lattice %dx%dx%dx%d, "
                     "process grid %dx%dx%dx%d\n",
          NG, r.beta, GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z);
  if (r.save_freq > 0 && hr_rank() == 0) {
    struct stat st;
    if (stat(r.conf_dir, &st) != 0 && mkdir(r.conf_dir, 0777) != 0 && errno != EEXIST)
      hr_fatal(HR_EXIT_IO, "conf dir %s: cannot create it: %s", r.conf_dir, strerror(errno));
  }
  suNg_field *u = alloc_gfield(&glattice);
  rng_init((uint64_t)r.seed);
  int step = 0;
  if (strcmp(r.start, "cold") == 0) {
    gauge_field_cold(u);
  } else if (strcmp(r.start, "hot") == 0) {
    gauge_field_hot(u);
  } else {
    archive_read(r.start, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_PERIODIC, u);
    hr_rng_state st;
    if (read_rng_file(r.start, &st, &step) == 0) {
      rng_set_state(st);
      lprintf("MAIN", 0, "continuing the run of %s after step %d (generator state restored)\n",
              r.start, step);
    } else {
      lprintf("MAIN", 0, "started from %s (no %s.rng: new run, seed %lld)\n", r.start, r.start,
              r.seed);
    }
  }
  if (step == 0) {
    for (int i = 0; i < r.nth; ++i)
      pure_gauge_update(u, r.beta, r.nhb, r.nor);
    if (r.nth > 0) lprintf("MAIN", 10, "%d thermalisation steps done\n", r.nth);
  }
  for (int n = step + 1; n <= r.nsteps; ++n) {
    pure_gauge_update(u, r.beta, r.nhb, r.nor);
    if (n % r.meas_freq == 0) measure(n, u);
    if (r.save_freq > 0 && n % r.save_freq == 0) save(&r, n, u);
  }
  free_gfield(u);
  geometry_finalize();
  hr_finalize();
  return 0;
}
