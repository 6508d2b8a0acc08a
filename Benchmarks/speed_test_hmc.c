/* speed_test_hmc.c -- speed of the HMC: seconds per trajectory and the shares of the solvers,
 * the rest of the force updates, and everything else, for the action and integrators of its
 * input file (the keys of HMC/hmc, Doc/hmc.md), on the threads and processes of the run; and
 * the solvers' GFLOP/s against the even/odd Dirac operator's (same links, same run) and the
 * STREAM-triad bandwidth ceiling. `gauge start` (cold, hot or a saved configuration) as in
 * HMC/hmc: solver iterations, and so the time, are realistic only on a thermalised
 * configuration. Each fermion monomial also gets its own line (solver time, iterations and
 * GFLOP/s against the operator; for rhmc monomials the multi-shift CG). Usage:
 * speed_test_hmc -i input_file_hmc (or input_file_rhmc). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "communications.h"
#include "dirac.h"
#include "geometry.h"
#include "gpu.h"
#include "heatbath.h"
#include "hmc.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "linear_algebra.h"
#include "logger.h"
#include "random.h"
#include "random_fields.h"
#include "run_state.h"

/* GFLOP/s of g5Dphi_eopre_sq of D (best of 3 batches of about 0.3 s). */
static double operator_gflops(const dirac_op *D) {
  hr_linear_operator op = dirac_linear_operator(D, DIRAC_FORM_QEO2);
  spinor_field *a = alloc_spinor_field(2, &glat_even);
  gaussian_spinor_field(a);
  double best = 0;
  for (int batch = 0; batch < 3; batch++) {
    int n = 0;
    const double t0 = bench_wtime();
    double t;
    do {
      op.apply(a + 1, a, op.ctx);
      n++;
      t = bench_wtime() - t0;
      global_max(&t, 1);
    } while (t < 0.3);
    if (n * op.flops / t * 1e-9 > best) best = n * op.flops / t * 1e-9;
  }
  free_spinor_field(a);
  return best;
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file_hmc");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_params gp;
  geometry_read_input(&gp, in);
  hmc_fermion_setup fs;
  dirac_bc_read_input(&fs.bc, in);
  stout_params_read_input(&fs.smear, in);
  int ntherm = 0, ntraj = 0;
  long long seed = 0;
  char start[INPUT_STRING_MAX];
  const input_key keys[] = {
      {"gauge start", INPUT_STRING, start, "cold", NULL,
       "cold, hot or a saved configuration (e.g. a thermalised one of HMC/hmc)"},
      {"csw", INPUT_DOUBLE, &fs.csw, "0", NULL, "clover coefficient"},
      {"seed", INPUT_LONG, &seed, "1", NULL, "random-number seed"},
      {"bench:ntherm", INPUT_INT, &ntherm, "2", ">=0", "trajectories before timing"},
      {"bench:ntraj", INPUT_INT, &ntraj, "3", ">=1", "timed trajectories"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  hmc_params h;
  hmc_read_input(in, &h);
  input_finish(in);
  geometry_init(&gp);
  hmc_build_monomials(&h, &fs);
  hmc_print_params(&h);
  suNg_field *u = alloc_suNg_field(1, &glattice);
  run_start_links(u, start, (uint64_t)seed);
  for (int k = 0; k < ntherm; k++) {
    hmc_result r;
    hmc_trajectory(u, &h, &r);
  }
  double total = 0, force = 0, force_solver = 0, solver = 0, flops = 0;
  double mon_sec[HMC_MAX_MONOMIALS] = {0}, mon_flops[HMC_MAX_MONOMIALS] = {0};
  long mon_iters[HMC_MAX_MONOMIALS] = {0};
  long iters = 0;
  int acc = 0;
  for (int k = 0; k < ntraj; k++) {
    hmc_result r;
    hmc_trajectory(u, &h, &r);
    total += r.seconds;
    force += r.force_seconds;
    force_solver += r.force_solver_seconds;
    acc += r.accepted;
    for (int i = 0; i < h.nmonomials; i++) {
      solver += r.solver[i].seconds;
      flops += r.solver[i].flops;
      iters += r.solver[i].iterations;
      mon_sec[i] += r.solver[i].seconds;
      mon_flops[i] += r.solver[i].flops;
      mon_iters[i] += r.solver[i].iterations;
    }
  }
  const dirac_op D = dirac_op_make(u, 0.0, fs.csw, &fs.bc);
  const double op_gf = operator_gflops(&D);
  const double solver_gf = solver > 0 ? flops / solver * 1e-9 : 0;
  const size_t footprint = (size_t)(4.0 * geometry_field_size(&glattice, HR_LAYOUT_GAUGE) *
                                        sizeof(suNf) +
                                    geometry_field_size(&glattice, HR_LAYOUT_SPINOR) *
                                        sizeof(suNf_spinor));
  const double triad = bench_stream_triad(footprint / 3, 10);
  /* the even/odd operator's bytes per flop: 2 hopping terms of DIRAC_HOP_BYTES_PER_SITE */
  const double op_gbps = op_gf * (double)dirac_hop_bytes_per_site(8) /
                         (double)dirac_hop_flop_per_site();
  lprintf("BENCH", 0,
          "hmc lattice=%dx%dx%dx%d ranks=%d threads=%d trajectories=%d accepted=%d "
          "seconds_per_traj=%.3f solver_share=%.3f force_share_without_solver=%.3f "
          "rest_share=%.3f\n",
          GLB_T, GLB_X, GLB_Y, GLB_Z, hr_nranks(), hr_nthreads(), ntraj, acc, total / ntraj,
          solver / total, (force - force_solver) / total,
          (total - solver - (force - force_solver)) / total);
  lprintf("BENCH", 0,
          "hmc solver_gflops=%.2f operator_gflops=%.2f solver/operator=%.2f iterations=%ld "
          "triad_GBps=%.2f operator_roofline_fraction=%.3f\n",
          solver_gf, op_gf, op_gf > 0 ? solver_gf / op_gf : 0, iters / ntraj, triad,
          triad > 0 ? op_gbps / triad : 0);
  /* each fermion monomial's solver (rhmc: the multi-shift CG) against the operator */
  for (int i = 0; i < h.nmonomials; i++) {
    if (mon_sec[i] <= 0) continue;
    const double gf = mon_flops[i] / mon_sec[i] * 1e-9;
    lprintf("BENCH", 0,
            "hmc monomial=%d type=%s solver_seconds_per_traj=%.3f iterations_per_traj=%ld "
            "solver_gflops=%.2f solver/operator=%.2f\n",
            i + 1, h.monomial[i]->name, mon_sec[i] / ntraj, mon_iters[i] / ntraj, gf,
            op_gf > 0 ? gf / op_gf : 0);
  }
  hmc_free(&h);
  free_suNg_field(u);
  dirac_finalize();
  geometry_finalize();
  hr_finalize();
  return 0;
}
