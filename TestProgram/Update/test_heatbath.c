/* test_heatbath.c -- the pure-gauge update against independent truths, on the process grid of
 * the arguments (NP_T NP_X NP_Y NP_Z [--write FILE | --compare FILE]):
 *  - strong coupling: the average plaquette agrees with the character expansion of the
 *    Wilson action, <P> = beta/(2N^2) + beta^2/216 (SU(3)), beta/4 - beta^3/96 (SU(2)),
 *    beta/(2N^2) (N >= 4), within the statistical error (batch means);
 *  - beta = 0 gives Haar-distributed links: E[Re tr U / N] = 0, E[|tr U|^2] = 1;
 *  - over-relaxation keeps the Wilson action (to rounding) and changes the links;
 *  - the links stay in SU(N);
 *  - GPU builds: the GPU path (hr_backend_current() == HR_BACKEND_GPU, the default) gives
 *    the same links as the CPU path from the same seed: hot and cold start, then heatbath and
 *    over-relaxation sweeps at two couplings (both branches of the SU(2) heatbath), bitwise
 *    in the emulated build (the same C code runs on both paths) and to 1e-12 in CUDA builds
 *    (nvcc's device math functions and contractions round differently from the host's); the
 *    GPU path leaves only the device copy current, the CPU path only the host copy;
 *  - --write FILE / --compare FILE: hot start, heatbath and over-relaxation at beta = 5.7
 *    with a fixed seed; the field must be bitwise the one written on one process.
 * The other cases run on the default path: the GPU path in GPU builds. */
#include "../Observables/obs_test.h"
#include "fields.h"
#include "gpu.h"
#include "linear_algebra.h"

/* Mean and batch-means error of nmeas plaquette measurements after ntherm sweeps. */
static void measure_plaquette(suNg_field *u, double beta, int ntherm, int nmeas, double *mean,
                              double *err) {
  enum { NBATCH = 10 };
  double batch[NBATCH] = {0};
  for (int i = 0; i < ntherm; ++i)
    heatbath_sweep(u, beta);
  for (int i = 0; i < nmeas; ++i) {
    heatbath_sweep(u, beta);
    overrelaxation_sweep(u);
    batch[i * NBATCH / nmeas] += avr_plaquette(u) / (nmeas / NBATCH);
  }
  double m = 0, v = 0;
  for (int b = 0; b < NBATCH; ++b)
    m += batch[b] / NBATCH;
  for (int b = 0; b < NBATCH; ++b)
    v += (batch[b] - m) * (batch[b] - m) / (NBATCH * (NBATCH - 1));
  *mean = m;
  *err = sqrt(v);
}

static void strong_coupling(void) {
  suNg_field *u = ot_gauge_new();
  rng_init(31337);
  gauge_field_cold(u);
  const double beta = 0.5;
  double expect, higher; /* expansion and a bound on the neglected orders */
  if (NG == 2) {
    expect = beta / 4 - beta * beta * beta / 96;
    higher = 1e-4;
  } else if (NG == 3) {
    expect = beta / 18 + beta * beta / 216;
    higher = 2e-4;
  } else {
    expect = beta / (2.0 * NG * NG);
    higher = 1e-4;
  }
  double mean, err;
  measure_plaquette(u, beta, 20, 200, &mean, &err);
  if (hr_rank() == 0)
    printf("beta = %g: <P> = %.6f +- %.6f, strong coupling %.6f\n", beta, mean, err, expect);
  CHECK(fabs(mean - expect) < 5 * err + higher, "<P> = %.6f +- %.6f, expected %.6f", mean, err,
        expect);
  CHECK(err < 0.1 * expect, "statistical error %.6f too large to test", err);
  tc_case_end("strong coupling: <P> against the character expansion");
  ot_gauge_free(u);
}

static void haar_at_beta_zero(void) {
  suNg_field *u = ot_gauge_new();
  rng_init(5);
  gauge_field_cold(u);
  double s1 = 0, s2 = 0, n = 0;
  for (int sweep = 0; sweep < 4; ++sweep) {
    heatbath_sweep(u, 0.0);
    sync_host_suNg_field(u);
    double a = 0, b = 0;
    _MASTER_FOR(&glattice, ix) {
      for (int mu = 0; mu < 4; ++mu) {
        const hr_complex tr = suNg_trace(_4FIELD_AT(u, ix, mu));
        a += creal(tr) / NG;
        b += hr_cabs2(tr);
      }
    }
    double d[2] = {a, b};
    global_sum(d, 2);
    s1 += d[0];
    s2 += d[1];
    n += 4.0 * (double)GLB_VOLUME;
  }
  /* Haar: Var(Re tr U / N) = <(Re tr U)^2> / N^2 = (NG == 2 ? 1 : 1/2) / N^2, E|tr U|^2 = 1 */
  const double sigma = sqrt((NG == 2 ? 1.0 : 0.5) / (NG * NG) / n);
  CHECK(fabs(s1 / n) < 5 * sigma, "E[Re tr U / N] = %.5f, sigma %.5f", s1 / n, sigma);
  CHECK(fabs(s2 / n - 1.0) < 5 * sqrt((NG == 2 ? 2.0 : 1.0) / n) + 0.01, "E|tr U|^2 = %.5f",
        s2 / n);
  tc_case_end("beta = 0: Haar measure (E[Re tr U / N] = 0, E|tr U|^2 = 1)");
  ot_gauge_free(u);
}

static double max_unitarity_defect(const suNg_field *u) {
  sync_host_suNg_field(u);
  double m = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      const suNg *l = _4FIELD_AT(u, ix, mu);
      const double d = cmat_unitarity_defect(NG, l->c) + hr_cabs2(suNg_det(l) - 1.0);
      if (d > m) m = d;
    }
  }
  global_max(&m, 1);
  return m;
}

static void overrelaxation(void) {
  suNg_field *u = ot_gauge_new(), *v = ot_gauge_new();
  rng_init(8);
  gauge_field_hot(u);
  heatbath_sweep(u, 5.5);
  copy_suNg_field(v, u);
  const double s0 = plaquette_retr_sum(u);
  overrelaxation_sweep(u);
  const double s1 = plaquette_retr_sum(u);
  CHECK(fabs(s1 - s0) < 1e-10 * fabs(s0), "action changed: %.16g -> %.16g", s0, s1);
  CHECK(ot_links_differ(u, v) > 0.9 * GLB_VOLUME, "over-relaxation left the links unchanged");
  CHECK(max_unitarity_defect(u) < 1e-26, "links left SU(N): defect %g", max_unitarity_defect(u));
  tc_case_end("over-relaxation keeps the action, links stay in SU(N)");
  ot_gauge_free(u);
  ot_gauge_free(v);
}

#if HR_GPU_ENABLED
/* Largest |difference| of the entries of the links of a and b on the master and halo sites
 * (so a stale halo counts), over all processes. */
static double max_link_difference(const suNg_field *a, const suNg_field *b) {
  sync_host_suNg_field(a);
  sync_host_suNg_field(b);
  double m = 0;
  for (int e = 0; e < glattice.gsize_gauge; ++e) {
    const int ix = e + glattice.master_shift;
    if (master_index(ix) != ix) continue; /* copies: no meaning on the device */
    for (int mu = 0; mu < 4; ++mu)
      for (int k = 0; k < NG * NG; ++k) {
        const double d = hr_cabs(_4FIELD_AT(a, ix, mu)->c[k] - _4FIELD_AT(b, ix, mu)->c[k]);
        if (!(d <= m)) m = d; /* NaN counts as a difference */
      }
  }
  global_max(&m, 1);
  return m;
}

/* The field of `steps` on the path `backend`, from rng_init(seed). steps: 0 start only
 * (hot or cold), else start then heatbath at beta_a, over-relaxation, heatbath at beta_b. */
static void run_path(suNg_field *u, hr_backend backend, uint64_t seed, int hot, int steps,
                     double beta_a, double beta_b) {
  const hr_backend old = hr_backend_set(backend);
  rng_init(seed);
  if (hot)
    gauge_field_hot(u);
  else
    gauge_field_cold(u);
  for (int i = 0; i < steps; ++i) {
    heatbath_sweep(u, beta_a);
    overrelaxation_sweep(u);
    pure_gauge_update(u, beta_b, 1, 1);
  }
  hr_backend_set(old);
}

/* The same run on the GPU and on the CPU path; the links must agree bitwise: the same per-site
 * code runs on both paths, and its elementary functions (hr_math.h) give the same bits on the
 * host and the device (with the C library's log, exp and atan2 a hot start drifted to an O(1)
 * difference within 12 sweeps on an H100: the chain amplifies a last-bit difference). */
static void gpu_equals_cpu(const char *what, uint64_t seed, int hot, int steps, double beta_a,
                           double beta_b) {
  suNg_field *g = ot_gauge_new(), *c = ot_gauge_new();
  run_path(g, HR_BACKEND_GPU, seed, hot, steps, beta_a, beta_b);
  CHECK(g->current == HR_COPY_GPU, "GPU path: current = %d, expected the device copy only",
        g->current);
  run_path(c, HR_BACKEND_CPU, seed, hot, steps, beta_a, beta_b);
  CHECK(c->current == HR_COPY_HOST, "CPU path: current = %d, expected the host copy only",
        c->current);
  const double d = max_link_difference(g, c);
  const double n = ot_links_differ(g, c);
  CHECK(n == 0, "%g sites differ bitwise between the GPU and the CPU path (max |diff| %g)", n,
        d);
  CHECK(max_unitarity_defect(g) < 1e-26, "GPU path: links left SU(N)");
  if (hr_rank() == 0) printf("%s: max |GPU - CPU| = %g\n", what, d);
  tc_case_end(what);
  ot_gauge_free(g);
  ot_gauge_free(c);
}

static void gpu_path(void) {
  gpu_equals_cpu("GPU path = CPU path: hot start", 2024, 1, 0, 0.0, 0.0);
  gpu_equals_cpu("GPU path = CPU path: cold start", 2024, 0, 0, 0.0, 0.0);
  /* beta = 1 (alpha < 2: rejection branch) and 5.7 (Kennedy-Pendleton) */
  gpu_equals_cpu("GPU path = CPU path: hot start + 3 x (hb, or, hb, or)", 777, 1, 3, 1.0, 5.7);
  gpu_equals_cpu("GPU path = CPU path: cold start + 2 x (hb, or, hb, or)", 99, 0, 2, 6.0, 6.0);
}
#endif

static void reference_run(const char *mode, const char *file) {
  suNg_field *u = ot_gauge_new(), *v = ot_gauge_new();
  rng_init(123456789);
  gauge_field_hot(u);
  pure_gauge_update(u, 5.7, 2, 2);
  if (strcmp(mode, "--write") == 0) {
    archive_write(file, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u);
  } else {
    archive_read(v, file, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC);
    const double n = ot_links_differ(u, v);
    CHECK(n == 0, "%g sites differ from the one-process run", n);
    tc_case_end("same seed, same field on this process grid as on one process");
  }
  ot_gauge_free(u);
  ot_gauge_free(v);
}

int main(int argc, char **argv) {
  ot_start(&argc, &argv);
  int np[4];
  ot_grid(argc, argv, np);
  const int glb[4] = {8, 4, 4, 4};
  ot_geometry(glb, np);
  if (argc > 6) {
    reference_run(argv[5], argv[6]);
    return ot_finish("test_heatbath");
  }
#if HR_GPU_ENABLED
  gpu_path();
#endif
  strong_coupling();
  haar_at_beta_zero();
  overrelaxation();
  return ot_finish("test_heatbath");
}
