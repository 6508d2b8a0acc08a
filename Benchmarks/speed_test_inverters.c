/* speed_test_inverters.c -- speed of the even/odd preconditioned Wilson-clover solve
 * (CG on (gamma5 Dphi_eopre)^2, then reconstruction) in double precision and in mixed
 * precision (single-precision iterations, reliable updates in double) to the same final
 * residual, on (1) a stored 8^4 configuration and (2) a random gauge field on the lattice of
 * the input file. Prints per solve: iterations, reliable updates, time to solution, final
 * true residual |b - D x|/|b|, GFLOP/s (operator flops of dirac_operator_flops, whose
 * hopping term counts dirac_hop_flop_per_site() per output site, plus the linear-algebra
 * flops the solver counts), the operator's own GFLOP/s (g5Dphi_eopre_sq applied alone in the
 * same precision), the ratio solver/operator, and the speed-up of mixed over double.
 * Times are the best of three interleaved solves and of three operator batches (less
 * sensitive to other load on a shared machine).
 * usage: [mpirun -np N] speed_test_inverters -i input_file_inverters */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "boundary_conditions.h"
#include "clover.h"
#include "communications.h"
#include "dirac.h"
#include "fields.h"
#include "geometry.h"
#include "gpu.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "inverters.h"
#include "linear_algebra.h"
#include "logger.h"
#include "propagator.h"
#include "random.h"
#include "random_fields.h"

#ifndef HR_ABS_SRCDIR
#define HR_ABS_SRCDIR ".."
#endif

/* Input of the benchmark. */
typedef struct {
  double m0, csw, tol, conf_kappa, conf_csw, min_time, delta;
  char conf[INPUT_STRING_MAX];
} bench_params;

/* GFLOP/s of g5Dphi_eopre_sq alone in one precision: the best of 3 batches of at least
 * min_time / 3 seconds each (the best batch is the least disturbed by other load). */
static double operator_gflops(const dirac_op *D, int single, double min_time) {
  hr_linear_operator op = dirac_linear_operator(D, DIRAC_FORM_QEO2);
  spinor_field *a = alloc_spinor_field_f(2, &glat_even);
  spinor_field_flt *af = alloc_spinor_field_f_flt(2, &glat_even);
  gaussian_spinor_field(a);
  to_flt_spinor_field(af, a);
  double best = 0;
  for (int batch = 0; batch < 3; batch++) {
    int n = 0;
    double t0 = hr_wtime(), t = 0;
    do {
      for (int k = 0; k < 5; k++) {
        if (single)
          op.apply_flt(af + 1, af, op.ctx);
        else
          op.apply(a + 1, a, op.ctx);
      }
      n += 5;
      t = hr_wtime() - t0;
      global_max(&t, 1);
    } while (t < min_time / 3);
    const double gf = n * op.flops / t * 1e-9;
    if (gf > best) best = gf;
  }
  free_spinor_field_f(a);
  free_spinor_field_f_flt(af);
  return best;
}

/* Double and mixed solves of D x = b (b gaussian); prints the lines. */
static void bench_solves(const char *label, const dirac_op *D, const bench_params *bp) {
  spinor_field *b = alloc_spinor_field_f(1, &glattice);
  spinor_field *x = alloc_spinor_field_f(1, &glattice);
  gaussian_spinor_field(b);
  hr_solver_params p;
  solver_params_default(&p);
  p.tol = bp->tol;
  p.max_iter = 50000;
  p.delta = bp->delta;
  double op_gf[2] = {operator_gflops(D, 0, bp->min_time), operator_gflops(D, 1, bp->min_time)};
  /* double and mixed solves interleaved, three times each; the best time of each counts
   * (the machine may be shared: interleaving exposes both to the same load) */
  double secs[2] = {INFINITY, INFINITY};
  hr_solver_result r[2];
  hr_solver_status st[2] = {HR_SOLVER_CONVERGED, HR_SOLVER_CONVERGED};
  for (int rep = 0; rep < 3; rep++)
    for (int mixed = 0; mixed < 2; mixed++) {
      double t0 = hr_wtime();
      const hr_solver_status sr = dirac_solve_eo(x, D, b, mixed, &p, r + mixed);
      double tr = hr_wtime() - t0;
      global_max(&tr, 1);
      if (tr < secs[mixed]) secs[mixed] = tr;
      if (sr != HR_SOLVER_CONVERGED) st[mixed] = sr;
    }
  for (int mixed = 0; mixed < 2; mixed++) {
    const double t = secs[mixed];
    const double gf = r[mixed].flops / t * 1e-9;
    /* the operator rate of the mix: single-precision applications at the single rate */
    const double fq = dirac_form_flops(D, DIRAC_FORM_QEO2);
    const double op_time =
        (r[mixed].applies * fq / op_gf[0] + r[mixed].applies_flt * fq / op_gf[1]) * 1e-9;
    const double op_rate = (r[mixed].applies + r[mixed].applies_flt) * fq / op_time * 1e-9;
    if (hr_rank() == 0)
      printf("solve=%s prec=%s lattice=%dx%dx%dx%d ranks=%d threads=%d m0=%.6g csw=%.6g "
             "status=%s iterations=%d reliable_updates=%d seconds=%.3f residual=%.3e "
             "gflops=%.2f operator_gflops=%.2f solver/operator=%.2f\n",
             label, mixed ? "mixed" : "double", GLB_T, GLB_X, GLB_Y, GLB_Z, hr_nranks(),
             hr_nthreads(), D->m0, D->csw,
             st[mixed] == HR_SOLVER_CONVERGED ? "converged" : "FAILED", r[mixed].iterations,
             r[mixed].reliable_updates, t, r[mixed].residual, gf, op_rate, gf / op_rate);
  }
  if (hr_rank() == 0)
    printf("solve=%s speedup_mixed_over_double=%.2f (operator alone: double %.2f GFLOP/s, "
           "single %.2f GFLOP/s)\n", label, secs[0] / secs[1], op_gf[0], op_gf[1]);
  fflush(stdout);
  free_spinor_field_f(b);
  free_spinor_field_f(x);
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file_inverters");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_params gp;
  geometry_read_input(&gp, in);
  dirac_bc bc;
  dirac_bc_read_input(&bc, in);
  bench_params bp;
  const input_key keys[] = {
      {"bench:m0", INPUT_DOUBLE, &bp.m0, NULL, NULL, "bare mass on the random gauge field"},
      {"bench:csw", INPUT_DOUBLE, &bp.csw, "0", NULL, "clover coefficient (random field)"},
      {"bench:precision", INPUT_DOUBLE, &bp.tol, "1e-10", ">0 <1", "relative residual"},
      {"bench:delta", INPUT_DOUBLE, &bp.delta, "0.1", ">0 <1",
       "mixed precision: reliable update when the residual dropped by this factor"},
      {"bench:min_time", INPUT_DOUBLE, &bp.min_time, "1", ">0", "seconds of operator timing"},
      {"bench:conf", INPUT_STRING, bp.conf, "default", NULL,
       "stored 8^4 configuration ('default': the periodic one of "
       "<srcdir>/TestProgram/data, 'none': skip)"},
      {"bench:conf_kappa", INPUT_DOUBLE, &bp.conf_kappa, "0.13", NULL, "kappa on the stored conf"},
      {"bench:conf_csw", INPUT_DOUBLE, &bp.conf_csw, "1.234", NULL, "csw on the stored conf"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  input_finish(in);
  rng_init(4321);
  if (hr_rank() == 0)
    printf("flops: hopping term %ld per output site; clover diagonal 2 (2NF)^2 complex "
           "multiply-adds per site\n", dirac_hop_flop_per_site());

  /* (1) the stored configuration, on an 8^4 lattice with the input's process grid */
  if (strcmp(bp.conf, "none") != 0) {
    char path[2 * INPUT_STRING_MAX];
    if (strcmp(bp.conf, "default") == 0)
      snprintf(path, sizeof path, "%s/TestProgram/data/"
               "HiRep_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1", HR_ABS_SRCDIR);
    else
      snprintf(path, sizeof path, "%s", bp.conf);
    geometry_params g8 = gp;
    for (int mu = 0; mu < 4; mu++) g8.glb[mu] = 8;
    geometry_init(&g8);
    suNg_field *u = alloc_gfield(&glattice);
    char err[1024];
    if (archive_read_checked(u, path, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err)
        == 0) {
      dirac_bc pbc = bc;
      pbc.kind[0] = HR_BC_PERIODIC;
      const dirac_op D = dirac_op_make(u, 1.0 / (2 * bp.conf_kappa) - 4, bp.conf_csw, &pbc);
      bench_solves("stored_conf", &D, &bp);
    } else if (hr_rank() == 0) {
      printf("stored configuration skipped: %s\n", err);
    }
    dirac_finalize();
    free_gfield(u);
  }
  /* (2) random gauge field on the input's lattice */
  geometry_init(&gp);
  suNg_field *u = alloc_gfield(&glattice);
  random_u(u);
  const dirac_op D = dirac_op_make(u, bp.m0, bp.csw, &bc);
  bench_solves("random_gauge", &D, &bp);
  dirac_finalize();
  free_gfield(u);
  geometry_finalize();
  hr_finalize();
  return 0;
}
