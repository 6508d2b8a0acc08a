/* suN.c -- PureGauge/suN: pure SU(N) gauge theory with the Wilson action, generated with the
 * Cabibbo-Marinari heatbath plus over-relaxation. Usage: suN -i input_file [-o logfile].
 * Prints "step=<n> plaquette=<value> polyakov=<re> <im>" at each measurement and saves
 * <conf dir>/<run name>_n<step> (HiRep format) with the generator state and step in
 * <file>.rng; "gauge start = <saved file>" continues that run bitwise (Doc/pure_gauge.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#include "run_state.h"

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
      {"beta", INPUT_DOUBLE, &r->beta, NULL, ">=0", "Wilson gauge coupling beta"},
      {"gauge start", INPUT_STRING, r->start, "cold", NULL,
       "cold, hot, or the path of a saved configuration (continues its run)"},
      {"nth", INPUT_INT, &r->nth, "0", ">=0", "thermalisation steps (neither measured nor saved)"},
      {"nsteps", INPUT_INT, &r->nsteps, NULL, ">=0", "last step number of the run"},
      {"nhb", INPUT_INT, &r->nhb, "1", ">=0", "heatbath sweeps per step"},
      {"nor", INPUT_INT, &r->nor, "3", ">=0", "over-relaxation sweeps per step"},
      {"meas freq", INPUT_INT, &r->meas_freq, "1", ">=1", "measure every this many steps"},
      {"save freq", INPUT_INT, &r->save_freq, "0", ">=0", "save every this many steps (0: never)"},
      {"conf dir", INPUT_STRING, r->conf_dir, ".", NULL, "folder of the saved configurations"},
      {"run name", INPUT_STRING, r->run_name, "run", NULL, "name prefix of saved configurations"},
      {"seed", INPUT_LONG, &r->seed, NULL, ">=0", "random-number seed"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  if (r->run_name[0] == '\0' || strchr(r->run_name, '/') != NULL)
    input_fail(in, NULL, "run name", "must be a non-empty name without '/'");
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
  geometry_read_input(&gp, in);
  input_finish(in);
  geometry_init(&gp);

  lprintf("MAIN", 0, "pure SU(%d) gauge theory, Wilson action, beta = %.10g, lattice %dx%dx%dx%d, "
                     "process grid %dx%dx%dx%d\n",
          NG, r.beta, GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z);
  if (r.save_freq > 0) run_prepare_conf_dir(r.conf_dir);
  suNg_field *u = alloc_gfield(&glattice);
  const int step = run_start(u, (uint64_t)r.seed, r.start);
  if (step == 0) {
    for (int i = 0; i < r.nth; ++i)
      pure_gauge_update(u, r.beta, r.nhb, r.nor);
    if (r.nth > 0) lprintf("MAIN", 10, "%d thermalisation steps done\n", r.nth);
  }
  for (int n = step + 1; n <= r.nsteps; ++n) {
    pure_gauge_update(u, r.beta, r.nhb, r.nor);
    if (n % r.meas_freq == 0) measure(n, u);
    if (r.save_freq > 0 && n % r.save_freq == 0) run_save(r.conf_dir, r.run_name, n, u);
  }
  free_gfield(u);
  geometry_finalize();
  hr_finalize();
  return 0;
}
