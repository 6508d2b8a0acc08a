/* test_gauge_action.c -- the gauge actions and forces of gauge_action.h against independent
 * truths, on the process grid of the arguments, for c1 = 0 (Wilson), -1/12 (Symanzik) and
 * -0.331 (Iwasaki):
 *  - force = derivative of the action: for a random algebra field X, d/dt S[exp(t X) U] at
 *    t = 0 by central differences at steps h and h/2 with Richardson extrapolation equals
 *    sum_{x,mu,a} X^a F^a to 1e-6 relative (warm = smooth random and hot configurations);
 *  - an abelian constant-flux field (U_1(x) = exp(i 2 pi t/T diag(1,-1,0..)), other links 1)
 *    has the action known in closed form: (beta/N) V [c0 (2 - 2 cos phi) + 2 c1 (2 - 2 cos 2 phi)];
 *  - c1 = 0: S = beta 6 V (1 - avr_plaquette) with LibHR's plaquette (1e-12);
 *  - gauge invariance of S and of sum |F|^2 under a random gauge transformation (1e-12);
 *  - GPU builds: the GPU path equals the CPU path for action and force (1e-13);
 *  - --write FILE / --compare FILE: actions and force sums of a fixed hot configuration
 *    (periodic and open boundaries),
 *    written on one process, must agree on the grid to 1e-12 relative (the actions are exact
 *    sums: bitwise), and the forces must be bitwise the same (a fingerprint of their bits);
 *  - --bench L: seconds per force evaluation on L^4 (c1 = 0 and -1/12), no checks.
 * Usage: test_gauge_action [NP_T NP_X NP_Y NP_Z] [--write FILE | --compare FILE | --bench L] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../test_cases.h"
#include "links_exp_update.h"
#include "backend.h"
#include "communications.h"
#include "halo_exchange.h"
#include "fields.h"
#include "gauge_action.h"
#include "geometry.h"
#include "gpu.h"
#include "heatbath.h"
#include "linear_algebra.h"
#include "observables.h"
#include "random.h"
#include "random_fields.h"
#include "suN.h"
#include "suN_random.h"

static const double c1_values[3] = {GAUGE_C1_WILSON, GAUGE_C1_SYMANZIK, GAUGE_C1_IWASAKI};
static const char *c1_names[3] = {"Wilson", "Symanzik", "Iwasaki"};
#define BETA 5.6

/* ------------------------------------------------------------------ helpers */

/* F = the force (p = 0, eps = -1). */
static void force_of(suNg_av_field *F, const suNg_field *u, double beta, double c1) {
  zero_suNg_av_field(F);
  gauge_force_update(F, u, beta, c1, -1.0);
}

#if HR_GPU_ENABLED
/* Largest |A^a - B^a| and largest |A^a| over all links and processes. */
static void av_max_diff(const suNg_av_field *A, const suNg_av_field *B, double *diff,
                        double *size) {
  const suNg_algebra_vector *a = sync_host_suNg_av_field(A), *b = sync_host_suNg_av_field(B);
  const int sh = glattice.master_shift;
  double d = 0.0, m = 0.0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu)
      for (int k = 0; k < NG * NG - 1; ++k) {
        d = fmax(d, fabs(a[4 * (ix - sh) + mu].c[k] - b[4 * (ix - sh) + mu].c[k]));
        m = fmax(m, fabs(a[4 * (ix - sh) + mu].c[k]));
      }
  }
  global_max(&d, 1);
  global_max(&m, 1);
  *diff = d;
  *size = m;
}
#endif

/* The two test configurations: warm (U = exp(0.3 X) with X Gaussian, a smooth random field)
 * or hot (Haar-random links). */
static void make_config(suNg_field *u, suNg_av_field *tmp, int hot, uint64_t seed) {
  rng_init(seed);
  if (hot) {
    gauge_field_hot(u);
  } else {
    gauge_field_cold(u);
    gaussian_momenta(tmp);
    links_exp_update(u, tmp, 0.3);
  }
}

/* ------------------------------------------------------------------ cases */

/* Force against the Richardson-extrapolated central difference of the action. */
static void force_vs_derivative(void) {
  suNg_field *u = alloc_gfield(&glattice), *w = alloc_gfield(&glattice);
  suNg_av_field *X = alloc_avfield(&glattice), *F = alloc_avfield(&glattice);
  for (int hot = 0; hot < 2; ++hot)
    for (int c = 0; c < 3; ++c) {
      make_config(u, X, hot, 1000 + (uint64_t)hot);
      rng_init(77);
      gaussian_momenta(X);
      const double c1 = c1_values[c], h = 2e-3;
      double D[2];
      for (int k = 0; k < 2; ++k) {
        const double hk = h / (1 << k);
        copy_suNg_field(w, u);
        links_exp_update(w, X, hk);
        const double sp = gauge_action(w, BETA, c1);
        copy_suNg_field(w, u);
        links_exp_update(w, X, -hk);
        const double sm = gauge_action(w, BETA, c1);
        D[k] = (sp - sm) / (2 * hk);
      }
      const double fd = (4 * D[1] - D[0]) / 3;
      force_of(F, u, BETA, c1);
      const double an = prod_re_suNg_av_field(X, F);
      const double rel = fabs(fd - an) / fabs(an);
      if (hr_rank() == 0)
        printf("  %s, %s: dS/dt = %.12e (differences), %.12e (force), rel. diff %.1e\n",
               hot ? "hot" : "warm", c1_names[c], fd, an, rel);
      CHECK(rel < 1e-6, "%s %s: finite difference %.12e, force %.12e", hot ? "hot" : "warm",
            c1_names[c], fd, an);
      /* the sign convention separately: S decreases along -F */
      CHECK(an * fd > 0, "%s %s: sign", hot ? "hot" : "warm", c1_names[c]);
    }
  tc_case_end("force = derivative of the action (Richardson-extrapolated differences)");
  free_gfield(u);
  free_gfield(w);
  free_avfield(X);
  free_avfield(F);
}

/* The abelian constant-flux field with closed-form action. */
static void constant_flux(void) {
  suNg_field *u = alloc_gfield(&glattice);
  suNg *l = host_write_suNg_field(u);
  const double phi = 6.283185307179586476925286766559 / GLB_T; /* 2 pi / T */
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    int x[4];
    global_coordinates(x, ix);
    for (int mu = 0; mu < 4; ++mu) {
      suNg *U = &l[4 * (ix - sh) + mu];
      suNg_unit(U);
      if (mu == 1) {
        U->c[0] = hr_cmplx(cos(phi * x[0]), sin(phi * x[0]));
        U->c[NG + 1] = hr_cmplx(cos(phi * x[0]), -sin(phi * x[0]));
      }
    }
  }
  sendrecv_suNg_field(u);
  const double V = (double)GLB_VOLUME;
  for (int c = 0; c < 3; ++c) {
    const double c1 = c1_values[c], c0 = 1 - 8 * c1;
    const double expect =
        BETA / NG * V * (c0 * (2 - 2 * cos(phi)) + 2 * c1 * (2 - 2 * cos(2 * phi)));
    const double s = gauge_action(u, BETA, c1);
    CHECK(fabs(s - expect) < 1e-12 * fabs(expect), "%s: S = %.15e, expected %.15e", c1_names[c],
          s, expect);
  }
  tc_case_end("constant abelian flux: the action in closed form");
  free_gfield(u);
}

/* c1 = 0 against the plaquette of LibHR/Observables. */
static void wilson_vs_plaquette(void) {
  suNg_field *u = alloc_gfield(&glattice);
  suNg_av_field *X = alloc_avfield(&glattice);
  for (int hot = 0; hot < 2; ++hot) {
    make_config(u, X, hot, 2000 + (uint64_t)hot);
    const double s = gauge_action(u, BETA, 0.0);
    const double expect = BETA * 6 * (double)GLB_VOLUME * (1 - avr_plaquette(u));
    CHECK(fabs(s - expect) < 1e-12 * fabs(expect), "S = %.15e, beta 6 V (1 - <P>) = %.15e", s,
          expect);
  }
  tc_case_end("c1 = 0: S = beta 6 V (1 - avr_plaquette)");
  free_gfield(u);
  free_avfield(X);
}

/* U_mu(x) -> g(x) U_mu(x) g(x+mu)^+ with Haar-random g keyed by the global site. */
static void gauge_transform(suNg_field *u, uint64_t seed) {
  suNg *l = host_write_suNg_field(u);
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    hr_rng_stream s;
    suNg g, gn, t;
    rng_stream_init(&s, seed, 0, global_site_index(ix));
    suNg_random(&g, &s);
    for (int mu = 0; mu < 4; ++mu) {
      rng_stream_init(&s, seed, 0, global_site_index(iup(ix, mu)));
      suNg_random(&gn, &s);
      suNg *U = &l[4 * (ix - sh) + mu];
      suNg_mul(&t, &g, U);
      suNg_mul_dag(U, &t, &gn);
    }
  }
  sendrecv_suNg_field(u);
}

static void gauge_invariance(void) {
  suNg_field *u = alloc_gfield(&glattice);
  suNg_av_field *X = alloc_avfield(&glattice), *F = alloc_avfield(&glattice);
  make_config(u, X, 1, 3000);
  double s0[3], f0[3];
  for (int c = 0; c < 3; ++c) {
    s0[c] = gauge_action(u, BETA, c1_values[c]);
    force_of(F, u, BETA, c1_values[c]);
    f0[c] = prod_re_suNg_av_field(F, F);
  }
  gauge_transform(u, 4242);
  for (int c = 0; c < 3; ++c) {
    const double s = gauge_action(u, BETA, c1_values[c]);
    force_of(F, u, BETA, c1_values[c]);
    const double f = prod_re_suNg_av_field(F, F);
    CHECK(fabs(s - s0[c]) < 1e-12 * fabs(s0[c]), "%s: S %.15e -> %.15e", c1_names[c], s0[c], s);
    CHECK(fabs(f - f0[c]) < 1e-12 * fabs(f0[c]), "%s: |F|^2 %.15e -> %.15e", c1_names[c], f0[c],
          f);
  }
  tc_case_end("gauge invariance of S and |F|^2");
  free_gfield(u);
  free_avfield(X);
  free_avfield(F);
}

#if HR_GPU_ENABLED
/* The GPU path against the CPU loops. */
static void gpu_vs_cpu(void) {
  suNg_field *u = alloc_gfield(&glattice);
  suNg_av_field *X = alloc_avfield(&glattice), *Fg = alloc_avfield(&glattice);
  suNg_av_field *Fc = alloc_avfield(&glattice);
  for (int hot = 0; hot < 2; ++hot) {
    make_config(u, X, hot, 5000 + (uint64_t)hot);
    for (int c = 0; c < 3; ++c) {
      const double c1 = c1_values[c];
      hr_backend_set(HR_BACKEND_GPU);
      const double sg = gauge_action(u, BETA, c1);
      copy_suNg_av_field(Fg, X); /* an update of nonzero momenta, with eps = 0.7 */
      gauge_force_update(Fg, u, BETA, c1, 0.7);
      CHECK(!(Fg->current & HR_COPY_HOST), "GPU path left the host copy of p current");
      hr_backend_set(HR_BACKEND_CPU);
      const double sc = gauge_action(u, BETA, c1);
      copy_suNg_av_field(Fc, X);
      gauge_force_update(Fc, u, BETA, c1, 0.7);
      double d, m;
      av_max_diff(Fg, Fc, &d, &m);
      CHECK(fabs(sg - sc) <= 1e-13 * fabs(sc), "%s: S gpu %.17e cpu %.17e", c1_names[c], sg, sc);
      CHECK(d <= 1e-13 * m, "%s: force differs by %.3e (size %.3e)", c1_names[c], d, m);
      if (hr_rank() == 0)
        printf("  %s, %s: |S_gpu - S_cpu| = %.1e, max |p_gpu - p_cpu| = %.1e\n",
               hot ? "hot" : "warm", c1_names[c], fabs(sg - sc), d);
    }
  }
  hr_backend_set(HR_BACKEND_GPU);
  tc_case_end("GPU path = CPU path (action and force update)");
  free_gfield(u);
  free_avfield(X);
  free_avfield(Fg);
  free_avfield(Fc);
}
#endif

/* ------------------------------------------------------------------ grids and benchmark */

/* An order-independent fingerprint of the bits of F: per component a 64-bit mix of its bit
 * pattern and its global index, the high and low 32-bit halves summed separately (exact
 * integer sums in doubles), so two fields give the same pair iff (barring collisions) they
 * are bitwise equal, on any process grid. */
static uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
static void av_fingerprint(const suNg_av_field *A, double fp[2]) {
  const suNg_algebra_vector *a = sync_host_suNg_av_field(A);
  const int sh = glattice.master_shift;
  fp[0] = fp[1] = 0.0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu)
      for (int k = 0; k < NG * NG - 1; ++k) {
        uint64_t bits;
        memcpy(&bits, &a[4 * (ix - sh) + mu].c[k], sizeof bits);
        const uint64_t id = (global_site_index(ix) * 4 + (uint64_t)mu) * NG * NG + (uint64_t)k;
        const uint64_t h = mix64(bits ^ mix64(id));
        fp[0] += (double)(h >> 32);
        fp[1] += (double)(h & 0xffffffffULL);
      }
  }
  global_sum(fp, 2);
}

#define NREF 30
/* Per boundary (periodic, then open with cg = 1.3) and c1: action, sum F.X, sum |F|^2 (agree
 * to rounding), then the fingerprint of F (the same bits), for the fixed hot configuration
 * (its U_0 links at time GLB_T - 1 set to zero for the open boundaries). */
static int ref_is_fingerprint(int k) { return k % 15 >= 9; }
static void reference_values(double v[NREF]) {
  suNg_field *u = alloc_gfield(&glattice);
  suNg_av_field *X = alloc_avfield(&glattice), *F = alloc_avfield(&glattice);
  make_config(u, X, 1, 6000);
  rng_init(6001);
  gaussian_momenta(X);
  for (int open = 0; open < 2; ++open) {
    const gauge_boundary b = {open, 1.3};
    double *w = v + 15 * open;
    if (open) gauge_zero_open_links(u);
    for (int c = 0; c < 3; ++c) {
      w[3 * c] = gauge_action_bc(u, BETA, c1_values[c], &b);
      zero_suNg_av_field(F);
      gauge_force_update_bc(F, u, BETA, c1_values[c], -1.0, &b);
      w[3 * c + 1] = prod_re_suNg_av_field(F, X);
      w[3 * c + 2] = prod_re_suNg_av_field(F, F);
      av_fingerprint(F, &w[9 + 2 * c]);
    }
  }
  free_gfield(u);
  free_avfield(X);
  free_avfield(F);
}

static void write_reference(const char *file) {
  double v[NREF];
  reference_values(v);
  if (hr_rank() == 0) {
    FILE *f = fopen(file, "w");
    if (f == NULL) {
      fprintf(stderr, "cannot write %s\n", file);
      exit(1);
    }
    for (int k = 0; k < NREF; ++k) fprintf(f, "%a\n", v[k]);
    fclose(f);
  }
}

static void compare_reference(const char *file) {
  double v[NREF], r[NREF];
  reference_values(v);
  FILE *f = fopen(file, "r");
  CHECK(f != NULL, "cannot read %s", file);
  if (f == NULL) {
    tc_case_end("the same actions and forces as on one process");
    return;
  }
  int bitwise = 0;
  for (int k = 0; k < NREF; ++k) {
    CHECK(fscanf(f, "%la", &r[k]) == 1, "%s: value %d missing", file, k);
    if (ref_is_fingerprint(k)) {
      CHECK(v[k] == r[k], "fingerprint %d of the force: %.17e, one process %.17e", k, v[k], r[k]);
    } else {
      CHECK(fabs(v[k] - r[k]) <= 1e-12 * fabs(r[k]), "value %d: %.17e, one process %.17e", k,
            v[k], r[k]);
      bitwise += v[k] == r[k];
    }
  }
  fclose(f);
  if (hr_rank() == 0)
    printf("  %d of 18 sums bitwise equal to the one-process run (force fingerprints: checked)\n",
           bitwise);
  tc_case_end("the same actions (1e-12) and forces (bitwise) as on one process");
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void bench(void) {
  suNg_field *u = alloc_gfield(&glattice);
  suNg_av_field *F = alloc_avfield(&glattice);
  make_config(u, F, 1, 7000);
  for (int c = 0; c < 2; ++c) {
    const double c1 = c1_values[c];
    gauge_force_update(F, u, BETA, c1, 0.01); /* warm-up, allocates the scratch */
    int n = 0;
    const double t0 = now();
    const clock_t cpu0 = clock();
    double t1;
    do {
      gauge_force_update(F, u, BETA, c1, 0.01);
      ++n;
#if HR_GPU_ENABLED
      sync_host_suNg_av_field(F);
#endif
      t1 = now();
    } while (t1 - t0 < 3.0);
    const double ta0 = now();
    gauge_action(u, BETA, c1);
    const double ta = now() - ta0;
    const double cpu = (double)(clock() - cpu0) / CLOCKS_PER_SEC;
    if (hr_rank() == 0)
      printf("bench %dx%dx%dx%d %s: %.4f s per force evaluation (wall; %.4f s CPU time of all "
             "threads; %d runs), %.4f s per action\n",
             GLB_T, GLB_X, GLB_Y, GLB_Z, c1_names[c], (t1 - t0) / n, cpu / n, n, ta);
  }
  free_gfield(u);
  free_avfield(F);
}

int main(int argc, char **argv) {
  int np[4] = {1, 1, 1, 1}, a = 1, L = 0;
  const char *write = NULL, *compare = NULL;
  tc_start(&argc, &argv);
  if (argc >= 5 && argv[1][0] != '-') {
    for (int mu = 0; mu < 4; ++mu) np[mu] = atoi(argv[1 + mu]);
    a = 5;
  }
  for (; a < argc; ++a) {
    if (strcmp(argv[a], "--write") == 0 && a + 1 < argc)
      write = argv[++a];
    else if (strcmp(argv[a], "--compare") == 0 && a + 1 < argc)
      compare = argv[++a];
    else if (strcmp(argv[a], "--bench") == 0 && a + 1 < argc)
      L = atoi(argv[++a]);
    else {
      fprintf(stderr,
              "usage: %s [NP_T NP_X NP_Y NP_Z] [--write FILE | --compare FILE | --bench L]\n",
              argv[0]);
      return 2;
    }
  }
  geometry_params p;
  geometry_params_default(&p);
  const int glb[4] = {8, 4, 4, 4};
  for (int mu = 0; mu < 4; ++mu) {
    p.glb[mu] = L > 0 ? L : glb[mu];
    p.np[mu] = np[mu];
  }
  if (!tc_geometry_init(&p, "test_gauge_action")) return tc_finish("test_gauge_action");
  if (L > 0) {
    bench();
  } else if (write != NULL) {
    write_reference(write);
  } else if (compare != NULL) {
    compare_reference(compare);
  } else {
    force_vs_derivative();
    constant_flux();
    wilson_vs_plaquette();
    gauge_invariance();
#if HR_GPU_ENABLED
    gpu_vs_cpu();
#endif
  }
  return tc_finish("test_gauge_action");
}
