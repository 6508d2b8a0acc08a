/* hmc.c -- HMC/hmc: generation of gauge configurations with the Hybrid Monte Carlo for
 * SU(N) gauge theories with dynamical Wilson(-clover) fermions in the compiled
 * representation. Usage: hmc -i input_file [-o logfile]. Prints per trajectory
 *   traj=<n> accepted=<0|1> dH=<value> plaquette=<value> seconds=<value>
 * and the solver iterations of each fermion monomial; at the end the acceptance rate and
 * <exp(-dH)> with its error over the trajectories after the first `therm`. Saves
 * <conf dir>/<run name>_n<traj> with the generator state; "gauge start = <saved file>"
 * continues that run bitwise; stops cleanly at `time limit` or on SIGTERM / SIGUSR1
 * (run_state.h, Doc/hmc.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boundary_conditions.h"
#include "communications.h"
#include "dirac.h"
#include "geometry.h"
#include "gpu.h"
#include "hmc.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "observables.h"
#include "run_state.h"

/* The run parameters of the input file (the HMC's own keys: hmc_read_input; the chain's:
 * run_chain_read_input). */
typedef struct {
  int ntraj, therm, meas_freq, rev_freq;
  double csw;
} run_params;

static void read_params(input_file *in, run_params *r) {
  const input_key keys[] = {
      {"ntraj", INPUT_INT, &r->ntraj, NULL, ">=0", "last trajectory number of the run"},
      {"therm", INPUT_INT, &r->therm, "0", ">=0",
       "trajectories 1 to therm (thermalisation) are left out of the acceptance and <exp(-dH)> "
       "printed at the end"},
      {"meas freq", INPUT_INT, &r->meas_freq, "1", ">=1", "print the plaquette every n trajectories"},
      {"rev freq", INPUT_INT, &r->rev_freq, "0", ">=0",
       "reversibility check every n trajectories (0: never)"},
      {"csw", INPUT_DOUBLE, &r->csw, "0", NULL, "clover coefficient (0: plain Wilson fermions)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
}

/* The summary of the run: acceptance and <exp(-dH)> over the trajectories after therm. */
typedef struct {
  int accepted, n, first, last;
  double sum_e, sum_e2;
} run_summary;

static void summary_print(const run_summary *s, int therm) {
  if (s->n > 0) {
    const double mean = s->sum_e / s->n;
    const double err = s->n > 1 ? sqrt((s->sum_e2 / s->n - mean * mean) / (s->n - 1)) : 0.0;
    lprintf("MAIN", 0,
            "trajectories=%d acceptance=%.4f exp(-dH)=%.6f +- %.6f (trajectories %d to %d)\n",
            s->n, (double)s->accepted / s->n, mean, err, s->last - s->n + 1, s->last);
  } else if (s->last > s->first) {
    lprintf("MAIN", 0, "trajectories=0: all of this run's trajectories (%d to %d) are within "
                       "therm = %d, no acceptance or <exp(-dH)>\n",
            s->first + 1, s->last, therm);
  } else {
    lprintf("MAIN", 0, "trajectories=0: this run made no trajectory\n");
  }
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  run_params r;
  read_params(in, &r);
  run_chain chain;
  run_chain_read_input(&chain, in, "trajectory");
  geometry_params gp;
  geometry_read_input(&gp, in);
  hmc_fermion_setup fs;
  fs.csw = r.csw;
  dirac_bc_read_input(&fs.bc, in);
  stout_params_read_input(&fs.smear, in);
  hmc_params h;
  hmc_read_input(in, &h);
  if (h.cg != 1.0 && fs.bc.kind[0] != HR_BC_OPEN)
    input_fail(in, NULL, "cG", "cG = %g needs bc_t = open (it is the open-boundary coefficient)",
               h.cg);
  input_finish(in);
  geometry_init(&gp);
  hmc_build_monomials(&h, &fs);
  const int open_bc = fs.bc.kind[0] == HR_BC_OPEN;

  lprintf("MAIN", 0, "HMC: SU(%d), fermions in the %s representation (NF = %d), lattice "
                     "%dx%dx%dx%d, process grid %dx%dx%dx%d, csw = %g\n",
          NG, HR_REPR_LONG_NAME, NF, GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z, r.csw);
  dirac_bc_print(&fs.bc);
  stout_params_print(&fs.smear);
  hmc_print_params(&h);
  lprintf("MAIN", 0, "plaquette printed: %s\n",
          open_bc ? "open boundaries: weighted average of Re tr P / N (space-like plaquettes at "
                    "t = 0 and T-1 weigh 1/2, time-like ones at T-1 0; divided by "
                    "6 (T-1) X Y Z: openQCD's normalisation / N)"
                  : "average of Re tr P / N over all plaquettes");
  suNg_field *u = alloc_gfield(&glattice);
  const int first = run_start(u, &chain);
  if (open_bc) gauge_zero_open_links(u); /* the absent links: zero */
  run_summary sum = {0, 0, first, first, 0.0, 0.0};
  int stop = RUN_CONTINUE;
  if (first >= r.ntraj)
    lprintf("MAIN", 0, "nothing to do: the start configuration is trajectory %d and ntraj = %d; "
                       "raise ntraj to continue the chain\n",
            first, r.ntraj);
  for (int traj = first + 1; traj <= r.ntraj && stop == RUN_CONTINUE; ++traj) {
    hmc_result res;
    hmc_trajectory(u, &h, &res);
    sum.last = traj;
    if (traj > r.therm) { /* the summary leaves out the thermalisation */
      const double e = exp(-res.dH);
      sum.accepted += res.accepted;
      sum.n++;
      sum.sum_e += e;
      sum.sum_e2 += e * e;
    }
    lprintf("MAIN", 0, "traj=%d accepted=%d dH=%.10e plaquette=%.16g seconds=%.3f\n", traj,
            res.accepted, res.dH, open_bc ? avr_plaquette_open_bc(u) : avr_plaquette(u),
            res.seconds);
    for (int i = 0; i < h.nmonomials; i++)
      if (res.solver[i].iterations > 0)
        lprintf("MAIN", 0, "traj=%d monomial=%d (%s) iterations=%ld solver_seconds=%.3f "
                            "force_seconds=%.3f\n",
                traj, i + 1, h.monomial[i]->name, res.solver[i].iterations,
                res.solver[i].seconds, res.monomial_force_seconds[i]);
    if (traj % r.meas_freq == 0)
      lprintf("MAIN", 10, "traj=%d polyakov=%.16g %.16g\n", traj, creal(polyakov_loop(u)),
              cimag(polyakov_loop(u)));
    if (r.rev_freq > 0 && traj % r.rev_freq == 0) {
      double du, dp, dh;
      hmc_reversibility(&du, &dp, &dh, &h, u);
      lprintf("MAIN", 0, "traj=%d reversibility max|dU|=%.3e max|dP|=%.3e dH_forward+back=%.3e\n",
              traj, du, dp, dh);
    }
    if (chain.save_freq > 0 && traj % chain.save_freq == 0) run_save(&chain, traj, u);
    stop = run_stop_requested(&chain, traj, r.ntraj, u);
  }
  summary_print(&sum, r.therm);
  hmc_free(&h);
  free_gfield(u);
  geometry_finalize();
  hr_finalize();
  return run_exit_code(stop);
}
