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
#include "dirac.h"
#include "geometry.h"
#include "gpu.h"
#include "heatbath.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "observables.h"
#include "random.h"
#include "run_state.h"

/* The run parameters of the input file (the chain's keys: run_chain_read_input). */
typedef struct {
  double beta;
  int nth, nsteps, nhb, nor, meas_freq;
} run_params;

static void read_params(input_file *in, run_params *r) {
  const input_key keys[] = {
      {"beta", INPUT_DOUBLE, &r->beta, NULL, ">=0", "Wilson gauge coupling beta"},
      {"nth", INPUT_INT, &r->nth, "0", ">=0", "thermalisation steps (neither measured nor saved)"},
      {"nsteps", INPUT_INT, &r->nsteps, NULL, ">=0", "last step number of the run"},
      {"nhb", INPUT_INT, &r->nhb, "1", ">=0", "heatbath sweeps per step"},
      {"nor", INPUT_INT, &r->nor, "3", ">=0", "over-relaxation sweeps per step"},
      {"meas freq", INPUT_INT, &r->meas_freq, "1", ">=1", "measure every this many steps"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
}

static void measure(int step, const suNg_field *u) {
  const double plaq = avr_plaquette(u);
  const hr_complex poly = polyakov_loop(u);
  lprintf("MAIN", 0, "step=%d plaquette=%.16g polyakov=%.16g %.16g\n", step, plaq,
          creal(poly), cimag(poly));
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  run_params r;
  read_params(in, &r);
  run_chain chain;
  run_chain_read_input(&chain, in, "step");
  geometry_params gp;
  geometry_read_input(&gp, in);
  input_finish(in);
  geometry_init(&gp);

  lprintf("MAIN", 0, "pure SU(%d) gauge theory, Wilson action, beta = %.10g, lattice %dx%dx%dx%d, "
                     "process grid %dx%dx%dx%d\n",
          NG, r.beta, GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z);
  suNg_field *u = alloc_gfield(&glattice);
  const int first = run_start(u, &chain);
  if (first == 0) {
    for (int i = 0; i < r.nth; ++i)
      pure_gauge_update(u, r.beta, r.nhb, r.nor);
    if (r.nth > 0) lprintf("MAIN", 10, "%d thermalisation steps done\n", r.nth);
  }
  if (first >= r.nsteps)
    lprintf("MAIN", 0, "nothing to do: the start configuration is step %d and nsteps = %d; "
                       "raise nsteps to continue the chain\n",
            first, r.nsteps);
  int stop = RUN_CONTINUE, done = 0;
  for (int n = first + 1; n <= r.nsteps && stop == RUN_CONTINUE; ++n) {
    pure_gauge_update(u, r.beta, r.nhb, r.nor);
    done++;
    if (n % r.meas_freq == 0) measure(n, u);
    if (chain.save_freq > 0 && n % chain.save_freq == 0) run_save(&chain, n, u);
    stop = run_stop_requested(&chain, n, r.nsteps, u);
  }
  lprintf("MAIN", 0, "steps=%d (%d to %d) seconds=%.3f\n", done, first + 1, first + done,
          hr_wtime() - chain.t_start);
  free_gfield(u);
  geometry_finalize();
  hr_finalize();
  return run_exit_code(stop);
}
