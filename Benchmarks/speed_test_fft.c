/* speed_test_fft.c -- speed of the momentum-space tools (Doc/momentum_space.md) on the lattice
 * of the input file (default input_file_fft: 16^4): one FFT (forward, all four directions) of
 * a spinor field against one application of the Wilson Dirac operator Dphi on the same field,
 * one global_access_sync of V random fetches, and the gauge-fixing time to theta < bench:gf
 * tolerance with and without Fourier acceleration on a heatbath configuration (bench:beta,
 * bench:sweeps heatbath sweeps from a hot start; bench:gf maxiter caps the plain run).
 * Usage: speed_test_fft -i input_file_fft; OMP_NUM_THREADS sets the threads. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "boundary_conditions.h"
#include "communications.h"
#include "dirac.h"
#include "fourier.h"
#include "gauge_fixing.h"
#include "geometry.h"
#include "global_access.h"
#include "gpu.h"
#include "heatbath.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "random.h"
#include "random_fields.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file_fft");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  double beta, gftol;
  int sweeps, reps, gfmax, do_gf;
  const input_key keys[] = {
      {"bench:beta", INPUT_DOUBLE, &beta, "6.0", NULL, "heatbath coupling"},
      {"bench:sweeps", INPUT_INT, &sweeps, "20", ">=0", "heatbath sweeps before gauge fixing"},
      {"bench:reps", INPUT_INT, &reps, "10", ">=1", "timed repetitions of FFT and Dphi"},
      {"bench:gaugefix", INPUT_BOOL, &do_gf, "true", NULL, "time the gauge fixing"},
      {"bench:gf tolerance", INPUT_DOUBLE, &gftol, "1e-12", ">0", "gauge-fixing tolerance"},
      {"bench:gf maxiter", INPUT_INT, &gfmax, "20000", ">=1", "iteration cap of each fixing"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  geometry_params gp;
  geometry_read_input(&gp, in);
  input_finish(in);
  if (!fft_available()) hr_fatal(HR_EXIT_SETUP, "speed_test_fft: this build has no FFTW");
  geometry_init(&gp);
  lprintf("BENCH", 0, "SU(%d) %s, lattice %dx%dx%dx%d, %d process(es) x %d thread(s)\n", NG,
          HR_REPR_NAME, GLB_T, GLB_X, GLB_Y, GLB_Z, hr_nranks(), hr_nthreads());
  suNg_field *u = alloc_gfield(&glattice);
  rng_init(5);
  gauge_field_hot(u);
  spinor_field *s = alloc_spinor_field(2, &glattice);
  gaussian_spinor_field(&s[0]);
  dirac_bc bc;
  dirac_bc_default(&bc);
  const dirac_op D = dirac_op_make(u, 0.1, 0.0, &bc);
  Dphi(&s[1], &D, &s[0]); /* warm-up (builds the derived links) */
  global_barrier();
  double t0 = now();
  for (int r = 0; r < reps; r++) Dphi(&s[1], &D, &s[0]);
  global_barrier();
  const double tdirac = (now() - t0) / reps;
  const int nc = fft_ncomp_spinor_field();
  hr_complex *p = fft_alloc(nc);
  fft_pack_spinor_field(p, &s[0]);
  fft_plain(p, nc, HR_FFT_ALL, HR_FFT_FORWARD); /* warm-up (plans) */
  fft_plain(p, nc, HR_FFT_ALL, HR_FFT_BACKWARD);
  global_barrier();
  const double c0 = fft_comm_seconds();
  t0 = now();
  for (int r = 0; r < reps; r++) {
    fft_plain(p, nc, HR_FFT_ALL, HR_FFT_FORWARD);
    fft_plain(p, nc, HR_FFT_ALL, HR_FFT_BACKWARD);
  }
  global_barrier();
  const double tfft = (now() - t0) / (2.0 * reps), tcomm = (fft_comm_seconds() - c0) / (2.0 * reps);
  t0 = now();
  fft_pack_spinor_field(p, &s[0]);
  fft_unpack_spinor_field(&s[1], p);
  const double tpack = now() - t0;
  lprintf("BENCH", 0, "spinor FFT (4 directions, one way): %.3f ms (of which all-to-all %.3f ms); "
          "pack + unpack %.3f ms; Dphi %.3f ms; FFT / Dphi = %.2f\n",
          1e3 * tfft, 1e3 * tcomm, 1e3 * tpack, 1e3 * tdirac, tfft / tdirac);
  fft_free(p);
  /* global access: VOLUME fetches of random sites per process */
  hr_global_access *a = global_access_spinor_field(&s[0]);
  long long *gs = malloc(sizeof(long long) * (size_t)VOLUME);
  suNf_spinor *got = malloc(sizeof(suNf_spinor) * (size_t)VOLUME);
  unsigned long long x = 12345 + (unsigned long long)hr_rank();
  for (int i = 0; i < VOLUME; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    gs[i] = (long long)((x >> 20) % (unsigned long long)GLB_VOLUME);
  }
  global_barrier();
  t0 = now();
  global_fetch_many(got, a, VOLUME, gs, NULL);
  global_access_sync(a);
  global_barrier();
  lprintf("BENCH", 0, "global access: %d random fetches per process in one sync: %.3f ms "
          "(%.3f us per fetch)\n", VOLUME, 1e3 * (now() - t0), 1e6 * (now() - t0) / VOLUME);
  global_access_free(a);
  free(gs);
  free(got);
  if (do_gf) {
    for (int k = 0; k < sweeps; k++) heatbath_sweep(u, beta);
    suNg_field *v = alloc_gfield(&glattice);
    copy_suNg_field(v, u);
    gauge_fixing_params gf;
    gauge_fixing_params_default(&gf);
    gf.tolerance = gftol;
    gf.maxiter = gfmax;
    for (int fa = 1; fa >= 0; fa--) {
      copy_suNg_field(v, u);
      gf.fourier = fa;
      t0 = now();
      const gauge_fixing_result r = gauge_fix(v, &gf);
      const double t = now() - t0;
      lprintf("BENCH", 0, "Landau gauge fixing %s: %d iterations, %.2f s (%.2f ms per iteration), "
              "theta %.3e%s\n", fa ? "Fourier accelerated" : "plain steepest ascent",
              r.iterations, t, 1e3 * t / (r.iterations ? r.iterations : 1), r.theta,
              r.converged ? "" : " (NOT converged: iteration cap)");
    }
    free_gfield(v);
  }
  free_spinor_field(s);
  free_gfield(u);
  dirac_finalize();
  geometry_finalize();
  hr_finalize();
  return 0;
}
