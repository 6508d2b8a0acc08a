/* speed_test_heatbath.c -- speed of the pure-gauge update: heatbath and over-relaxation
 * sweeps per second and microseconds per link update (wall-clock, all processes and
 * threads together), on the lattice of the input file (default input_file_heatbath: 16^4).
 * Usage: speed_test_heatbath -i input_file_heatbath; set OMP_NUM_THREADS for the threads. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "communications.h"
#include "dirac.h"
#include "geometry.h"
#include "gpu.h"
#include "heatbath.h"
#include "hr_core.h"
#include "input_file.h"
#include "logger.h"
#include "observables.h"
#include "random.h"

static double clock_seconds(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
static double now(void) { return clock_seconds(CLOCK_MONOTONIC); }
/* CPU seconds of this process (all its threads): shows the cost on a busy machine. */
static double cpu_now(void) { return clock_seconds(CLOCK_PROCESS_CPUTIME_ID); }

/* Wall-clock seconds per sweep of `kind` (0 heatbath, 1 over-relaxation), timed over n
 * sweeps; *cpu: CPU seconds per sweep of this process. */
static double time_sweeps(suNg_field *u, double beta, int kind, int n, double *cpu) {
  global_barrier();
  const double t0 = now(), c0 = cpu_now();
  for (int i = 0; i < n; ++i) {
    if (kind == 0)
      heatbath_sweep(u, beta);
    else
      overrelaxation_sweep(u);
  }
  global_barrier();
  *cpu = (cpu_now() - c0) / n;
  return (now() - t0) / n;
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file_heatbath");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  double beta;
  int nsweeps;
  const input_key keys[] = {
      {"beta", INPUT_DOUBLE, &beta, "6.0", NULL, "gauge coupling"},
      {"nsweeps", INPUT_INT, &nsweeps, "5", NULL, "timed sweeps of each kind"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  geometry_params gp;
  geometry_read_input(&gp, in);
  input_finish(in);
  geometry_init(&gp);

  suNg_field *u = alloc_gfield(&glattice);
  rng_init(1);
  gauge_field_hot(u);
  heatbath_sweep(u, beta); /* warm-up */

  double hb_cpu, or_cpu;
  const double hb = time_sweeps(u, beta, 0, nsweeps, &hb_cpu);
  const double orx = time_sweeps(u, beta, 1, nsweeps, &or_cpu);
  const double links = links_per_sweep();
  lprintf("BENCH", 0, "SU(%d) lattice %dx%dx%dx%d, %d process(es) x %d thread(s), beta = %g\n", NG,
          GLB_T, GLB_X, GLB_Y, GLB_Z, hr_nranks(), hr_nthreads(), beta);
  lprintf("BENCH", 0,
          "heatbath:         %.3f sweeps/s, %.3f us per link update (CPU time of process 0: "
          "%.3f us per link)\n",
          1.0 / hb, 1e6 * hb / links, 1e6 * hb_cpu / links);
  lprintf("BENCH", 0,
          "over-relaxation:  %.3f sweeps/s, %.3f us per link update (CPU time of process 0: "
          "%.3f us per link)\n",
          1.0 / orx, 1e6 * orx / links, 1e6 * or_cpu / links);
  lprintf("BENCH", 0, "1 hb + 1 or:      %.3f steps/s; plaquette after the run %.8f\n",
          1.0 / (hb + orx), avr_plaquette(u));
  free_gfield(u);
  geometry_finalize();
  hr_finalize();
  return 0;
}
