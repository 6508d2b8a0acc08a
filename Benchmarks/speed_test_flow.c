/* speed_test_flow.c -- speed of the gradient flow (wilson_flow.h): seconds per RK3 step of
 * the action of the input file on its lattice (16^4 in input_file_flow) with 1 and 2 OpenMP
 * threads, and the fraction of the step spent in the staple sums (the three force
 * evaluations gauge_force_update, timed alone on the same field), and the seconds of one
 * measurement of the flow observables (wf_measure: plaquettes, clover E and q). Usage:
 * speed_test_flow -i input_file_flow. */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "communications.h"
#include "dirac.h"
#include "gauge_action.h"
#include "geometry.h"
#include "gpu.h"
#include "heatbath.h"
#include "hr_core.h"
#include "input_file.h"
#include "logger.h"
#include "random.h"
#include "wilson_flow.h"

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file_flow");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  int nsteps, action;
  const input_key keys[] = {
      {"nsteps", INPUT_INT, &nsteps, "3", NULL, "RK3 steps timed per thread count"},
      {"flow:action", INPUT_CHOICE, &action, "wilson", "wilson|symanzik", "action of the flow"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  geometry_params gp;
  geometry_read_input(&gp, in);
  input_finish(in);
  geometry_init(&gp);
  suNg_field *u = alloc_gfield(&glattice);
  suNg_av_field *z = alloc_avfield(&glattice);
  rng_init(1);
  gauge_field_hot(u);
  const wf_params p = {(wf_action)action, WF_RK3, 0, 0.0, 0};
  const double c1 = action == WF_ACTION_SYMANZIK ? GAUGE_C1_SYMANZIK : GAUGE_C1_WILSON;
  lprintf("MAIN", 0, "gradient flow speed: %s action, RK3, %dx%dx%dx%d, %d processes\n",
          wf_action_name(p.action), GLB_T, GLB_X, GLB_Y, GLB_Z, hr_nranks());
  for (int threads = 1; threads <= 2; ++threads) {
    const int used = bench_set_threads(threads);
    wf_rk3_step(u, &p, 0.01); /* warm-up: scratch fields */
    double t0 = bench_wtime();
    for (int k = 0; k < nsteps; ++k) wf_rk3_step(u, &p, 0.01);
    double step = (bench_wtime() - t0) / nsteps;
    global_max(&step, 1);
    t0 = bench_wtime();
    for (int k = 0; k < 3 * nsteps; ++k) gauge_force_update(z, u, 2.0 * NG, c1, 0.01);
    double force = (bench_wtime() - t0) / nsteps;
    global_max(&force, 1);
    wf_measurement m = {0}; /* wf_measure allocates the slices of a zeroed struct */
    wf_measure(&m, u, 0, 0.0); /* warm-up */
    wf_measurement_free(&m);
    t0 = bench_wtime();
    for (int k = 0; k < nsteps; ++k) {
      wf_measure(&m, u, 0, 0.0);
      wf_measurement_free(&m);
    }
    double measure = (bench_wtime() - t0) / nsteps;
    global_max(&measure, 1);
    lprintf("MAIN", 0,
            "threads=%d seconds_per_rk3_step=%.4g staple_sum_fraction=%.3f "
            "seconds_per_measurement=%.4g\n",
            used, step, force / step, measure);
  }
  free_avfield(z);
  free_gfield(u);
  hr_finalize();
  return 0;
}
