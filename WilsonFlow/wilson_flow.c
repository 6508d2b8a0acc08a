/* wilson_flow.c -- WilsonFlow/wilson_flow: the gradient flow of stored gauge configurations.
 * Usage: wilson_flow -i input_file [-o logfile] CONFIG... For each configuration (any format
 * archive.h recognises) it prints, through the logger (prefix [MAIN][0]), at flow time 0 and
 * every `flow:meas every` up to `flow:tmax`
 *   conf=<file> t=<t> Wact=<v> Yact=<v> Q=<v> t2E=<v> steps=<n>
 * with `flow:time slices = true` followed by the time-slice sums as lines
 * "conf=<file> t=<t> Wsl T=<t> <v>" (and Ysl, Qsl), and at the end t0 and w0 (reference 0.3,
 * linear interpolation) when the flow reached them. Keys: lattice (GLB_*), grid (NP_*),
 * bc_t = periodic|open, flow:action, flow:integrator, flow:eps, flow:tolerance, flow:tmax,
 * flow:meas every, flow:ms3 schedule, flow:time slices (Doc/wilson_flow.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "communications.h"
#include "dirac.h"
#include "geometry.h"
#include "gpu.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "wilson_flow.h"

/* The flow settings of the input file. */
typedef struct {
  wf_params p;
  double eps, tmax, meas_every;
  int time_slices; /* print the time-slice sums Wsl, Ysl, Qsl */
} flow_input;

/* Reads the flow keys (and bc_t) of the input file into f. */
static void read_flow_input(input_file *in, flow_input *f) {
  int bc, action, integrator;
  const input_key keys[] = {
      {"bc_t", INPUT_CHOICE, &bc, "periodic", "periodic|open",
       "gauge boundary condition in time (open: openQCD's, U_0 at t = T-1 zero)"},
      {"flow:action", INPUT_CHOICE, &action, "wilson", "wilson|symanzik", "action of the flow"},
      {"flow:integrator", INPUT_CHOICE, &integrator, "rk3", "euler|rk3|adaptive", "integrator"},
      {"flow:eps", INPUT_DOUBLE, &f->eps, NULL, ">0", "step (adaptive: initial step)"},
      {"flow:tolerance", INPUT_DOUBLE, &f->p.tolerance, "1e-6", ">0",
       "adaptive: largest link distance between 3rd- and 2nd-order results per step"},
      {"flow:tmax", INPUT_DOUBLE, &f->tmax, NULL, ">=0", "last flow time"},
      {"flow:meas every", INPUT_DOUBLE, &f->meas_every, NULL, ">0",
       "flow time between measurements"},
      {"flow:ms3 schedule", INPUT_BOOL, &f->p.ms3_schedule, "false", NULL,
       "openQCD-2.0 ms3 step schedule (shorter steps below t = 1)"},
      {"flow:time slices", INPUT_BOOL, &f->time_slices, "false", NULL,
       "print the time-slice sums Wsl, Ysl, Qsl at every measurement"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  f->p.open_bc_t = bc == 1;
  f->p.action = (wf_action)action;
  f->p.integrator = (wf_integrator)integrator;
  if (f->p.open_bc_t && f->p.action != WF_ACTION_WILSON)
    input_fail(in, NULL, "flow:action", "with bc_t = open only flow:action = wilson is implemented");
}

/* The lines of one measurement: the totals, and the time-slice sums when asked for. */
static void print_measurement(const char *conf, const wf_measurement *m, int open_bc_t,
                              int time_slices, long steps) {
  lprintf("MAIN", 0, "conf=%s t=%.10g Wact=%.16e Yact=%.16e Q=%.16e t2E=%.16e steps=%ld\n", conf,
          m->t, m->wact, m->yact, m->qtop, wf_t2E(m, open_bc_t), steps);
  if (!time_slices) return;
  static const char *names[3] = {"Wsl", "Ysl", "Qsl"};
  const double *sl[3] = {m->wsl, m->ysl, m->qsl};
  for (int k = 0; k < 3; ++k)
    for (int t = 0; t < GLB_T; ++t)
      lprintf("MAIN", 0, "conf=%s t=%.10g %s T=%d %.16e\n", conf, m->t, names[k], t, sl[k][t]);
}

/* Flows configuration `conf` (read into u), printing every measurement and then t0 and w0. */
static void flow_configuration(const char *conf, const flow_input *f, suNg_field *u) {
  archive_read(u, conf,
               HR_ARCHIVE_UNKNOWN, f->p.open_bc_t ? HR_ARCHIVE_BC_OPEN : HR_ARCHIVE_BC_PERIODIC);
  if (f->p.open_bc_t && !gauge_field_has_open_time_boundary(u))
    hr_fatal(HR_EXIT_INPUT, "%s: bc_t = open, but the links U_0 at t = T-1 are not zero", conf);
  const int nmeas = (int)floor(f->tmax / f->meas_every + 1e-9) + 1;
  double *ts = malloc((size_t)nmeas * sizeof(double)), *t2e = malloc((size_t)nmeas * sizeof(double));
  if (ts == NULL || t2e == NULL) hr_error("out of memory");
  wf_measurement m;
  memset(&m, 0, sizeof m);
  double eps = f->eps, t = 0.0;
  long steps = 0;
  for (int k = 0; k < nmeas; ++k) {
    const double target = k * f->meas_every;
    steps += wf_flow(u, &f->p, t, target - t, &eps);
    t = target;
    wf_measure(&m, u, f->p.open_bc_t, t);
    print_measurement(conf, &m, f->p.open_bc_t, f->time_slices, steps);
    ts[k] = t;
    t2e[k] = wf_t2E(&m, f->p.open_bc_t);
  }
  const double t0 = wf_crossing(ts, t2e, nmeas, 0.3), w0 = wf_w0(ts, t2e, nmeas, 0.3);
  if (t0 > 0)
    lprintf("MAIN", 0, "conf=%s t0=%.16e sqrt(t0)=%.16e\n", conf, t0, sqrt(t0));
  else
    lprintf("MAIN", 0, "conf=%s t0 not reached (t^2 <E> < 0.3 up to t = %.10g)\n", conf, t);
  if (w0 > 0)
    lprintf("MAIN", 0, "conf=%s w0=%.16e\n", conf, w0);
  else
    lprintf("MAIN", 0, "conf=%s w0 not reached\n", conf);
  wf_measurement_free(&m);
  free(ts);
  free(t2e);
}

int main(int argc, char **argv) {
  int nconf = 0;
  char **confs = NULL; /* the configuration files: every argument that is not an option */
  input_file *in = hr_setup_with_names(argc, argv, "input_file", &nconf, &confs);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  flow_input f;
  memset(&f, 0, sizeof f);
  read_flow_input(in, &f);
  geometry_params gp;
  geometry_read_input(&gp, in);
  input_finish(in);
  geometry_init(&gp);
  if (nconf == 0) hr_fatal(HR_EXIT_INPUT, "usage: wilson_flow -i input_file CONFIG...");
  lprintf("MAIN", 0, "gradient flow: action %s, integrator %s, eps %.10g%s, tmax %.10g, "
                     "measure every %.10g, %s time boundary, SU(%d), lattice %dx%dx%dx%d\n",
          wf_action_name(f.p.action), wf_integrator_name(f.p.integrator), f.eps,
          f.p.ms3_schedule ? " (ms3 schedule)" : "", f.tmax, f.meas_every,
          f.p.open_bc_t ? "open" : "periodic", NG, GLB_T, GLB_X, GLB_Y, GLB_Z);
  suNg_field *u = alloc_gfield(&glattice);
  for (int i = 0; i < nconf; ++i) flow_configuration(confs[i], &f, u);
  free_gfield(u);
  hr_finalize();
  return 0;
}
