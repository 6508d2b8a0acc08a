/* hmc.c -- HMC/hmc: generation of gauge configurations with the Hybrid Monte Carlo for
 * SU(N) gauge theories with dynamical Wilson(-clover) fermions in the compiled
 * representation. Usage: hmc -i input_file [-o logfile]. Prints per trajectory
 *   traj=<n> accepted=<0|1> dH=<value> plaquette=<value> seconds=<value>
 * and the solver iterations of each fermion monomial; at the end the acceptance rate and
 * <exp(-dH)> with its error over the trajectories after the first `therm`. Saves
 * <conf dir>/<run name>_n<traj> with the generator state; "gauge start = <saved file>"
 * continues that run bitwise (Doc/hmc.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boundary_conditions.h"
#include "communications.h"
#include "geometry.h"
#include "hmc.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "observables.h"
#include "run_state.h"

/* The run parameters of the input file (the HMC's own keys: hmc_read_input). */
typedef struct {
  char start[INPUT_STRING_MAX];
  int ntraj, therm, meas_freq, save_freq, rev_freq;
  char conf_dir[INPUT_STRING_MAX];
  char run_name[INPUT_STRING_MAX];
  long long seed;
  double csw;
} run_params;

static void read_params(input_file *in, run_params *r) {
  const input_key keys[] = {
      {"gauge start", INPUT_STRING, r->start, "cold", NULL,
       "cold, hot, or the path of a saved configuration (continues its run)"},
      {"ntraj", INPUT_INT, &r->ntraj, NULL, ">=0", "last trajectory number of the run"},
      {"therm", INPUT_INT, &r->therm, "0", ">=0",
       "trajectories 1 to therm (thermalisation) are left out of the acceptance and <exp(-dH)> "
       "printed at the end"},
      {"meas freq", INPUT_INT, &r->meas_freq, "1", ">=1", "print the plaquette every n trajectories"},
      {"save freq", INPUT_INT, &r->save_freq, "0", ">=0", "save every n trajectories (0: never)"},
      {"rev freq", INPUT_INT, &r->rev_freq, "0", ">=0",
       "reversibility check every n trajectories (0: never)"},
      {"conf dir", INPUT_STRING, r->conf_dir, ".", NULL, "folder of the saved configurations"},
      {"run name", INPUT_STRING, r->run_name, "run", NULL, "name prefix of saved configurations"},
      {"seed", INPUT_LONG, &r->seed, NULL, ">=0", "random-number seed (>= 0)"},
      {"csw", INPUT_DOUBLE, &r->csw, "0", NULL, "clover coefficient (0: plain Wilson fermions)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  if (r->run_name[0] == '\0' || strchr(r->run_name, '/') != NULL)
    input_fail(in, NULL, "run name", "must be a non-empty name without '/'");
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file");
  run_params r;
  read_params(in, &r);
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

  lprintf("MAIN", 0, "HMC: SU(%d), fermions in the %s representation (NF = %d), lattice "
                     "%dx%dx%dx%d, process grid %dx%dx%dx%d, csw = %g\n",
          NG, HR_REPR_LONG_NAME, NF, GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z, r.csw);
  dirac_bc_print(&fs.bc);
  stout_params_print(&fs.smear);
  hmc_print_params(&h);
  if (r.save_freq > 0) run_prepare_conf_dir(r.conf_dir);
  suNg_field *u = alloc_gfield(&glattice);
  const int first = run_start(u, (uint64_t)r.seed, r.start);
  if (fs.bc.kind[0] == HR_BC_OPEN) gauge_zero_open_links(u); /* the absent links: zero */
  int accepted = 0, n = 0;
  double sum_e = 0, sum_e2 = 0;
  for (int traj = first + 1; traj <= r.ntraj; ++traj) {
    hmc_result res;
    hmc_trajectory(u, &h, &res);
    if (traj > r.therm) { /* the summary leaves out the thermalisation */
      const double e = exp(-res.dH);
      accepted += res.accepted;
      n++;
      sum_e += e;
      sum_e2 += e * e;
    }
    lprintf("MAIN", 0, "traj=%d accepted=%d dH=%.10e plaquette=%.16g seconds=%.3f\n", traj,
            res.accepted, res.dH, avr_plaquette(u), res.seconds);
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
    if (r.save_freq > 0 && traj % r.save_freq == 0) run_save(r.conf_dir, r.run_name, traj, u);
  }
  if (n > 0) {
    const double mean = sum_e / n;
    const double err = n > 1 ? sqrt((sum_e2 / n - mean * mean) / (n - 1)) : 0.0;
    lprintf("MAIN", 0,
            "trajectories=%d acceptance=%.4f exp(-dH)=%.6f +- %.6f (trajectories %d to %d)\n", n,
            (double)accepted / n, mean, err, r.ntraj - n + 1, r.ntraj);
  } else if (r.ntraj > first) {
    lprintf("MAIN", 0, "trajectories=0: all of this run's trajectories (%d to %d) are within "
                       "therm = %d, no acceptance or <exp(-dH)>\n",
            first + 1, r.ntraj, r.therm);
  }
  hmc_free(&h);
  free_gfield(u);
  geometry_finalize();
  hr_finalize();
  return 0;
}
