/* test_flow.c -- the gradient flow (wilson_flow.h), on the process grid of the arguments
 * (NP_T NP_X NP_Y NP_Z [--ref FILE] [--grid-only] [--logs]):
 *  - with --logs (SU(3)): the stored periodic configuration flowed with RK3, eps = 0.0008, to
 *    t = 0.2 reproduces openQCD's ms3 log to its printed digits; the stored open-boundary
 *    configuration flowed with Euler, eps = 0.0008, to t = 2 (ms3 step schedule) reproduces
 *    the full-precision log (Wact, Yact, Q and the slices Wsl, Ysl) to 1e-10;
 *  - gradient property (Wilson and Symanzik, periodic; Wilson open): dS/dt along the flow,
 *    from flows of +-h, equals -sum_a F^a F^a of the HMC force (gauge_action.h) at g0^2 = 1;
 *  - orders: the error at t = 0.1 against a fine RK3 run scales as eps^1 (Euler) and eps^3
 *    (RK3); the adaptive flow reaches the fine result within its tolerance in fewer steps
 *    than RK3 at the step that gives the same accuracy;
 *  - GPU builds: the flows on the GPU backend equal the CPU backend to 1e-12, and periodic
 *    RK3 steps there copy nothing between host and device;
 *  - t0 and w0 from t^2 <E> = c t^2 (exact values known);
 *  - smearing (APE, stout, HYP): smeared links in SU(N) to 1e-12, the smeared plaquette
 *    invariant under a random gauge transformation to 1e-13 and larger than before; one
 *    stout step of weight rho equals one Euler step of the Wilson flow with eps = rho;
 *  - grids: Wact, Yact, Q after short Wilson / Symanzik / open flows and the plaquettes of
 *    APE / stout / HYP smeared fields, written by the run on one process (FILE) and compared
 *    on this grid to 1e-12. */
#include <math.h>

#include "../Observables/obs_test.h"
#include "gauge_action.h"
#include "backend.h"
#include "gpu.h"
#include "md.h"
#include "smearing.h"
#include "wilson_flow.h"
#include "halo_exchange.h"

static int np[4];

/* Relative difference, with an absolute floor of 1 for values near zero. */
static double rel(double a, double b) { return fabs(a - b) / fmax(1.0, fabs(b)); }

/* ------------------------------------------------------------------ openQCD logs */

static void log_cases(void) {
  if (NG != 3) return;
  const int glb[4] = {8, 8, 8, 8};
  ot_geometry(glb, np);
  const char *dir = ot_stored_dir();
  char path[8192];
  suNg_field *u = ot_gauge_new();
  wf_measurement m;
  memset(&m, 0, sizeof m);

  /* periodic, RK3, eps = 0.0008, 250 steps; log printed with 7 (Wact, Yact) and 3 (Q) digits */
  snprintf(path, sizeof path, "%s/openQCD_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1", dir);
  archive_read(u, path, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_PERIODIC);
  wf_params p = {WF_ACTION_WILSON, WF_RK3, 0, 0.0, 0};
  double eps = 0.0008;
  wf_measure(&m, u, 0, 0.0);
  CHECK(fabs(m.wact - 1.472098e+05) <= 0.5e-1 && fabs(m.yact - 8.273978e+03) <= 0.5e-3 &&
            fabs(m.qtop + 1.37e-01) <= 0.5e-3,
        "periodic t=0: %.7e %.7e %.3e", m.wact, m.yact, m.qtop);
  const long steps = wf_flow(u, &p, 0.0, 0.2, &eps);
  wf_measure(&m, u, 0, 0.2);
  CHECK(steps == 250, "periodic: %ld steps", steps);
  CHECK(fabs(m.wact - 9.293370e+04) <= 0.5e-2 * 10 && fabs(m.yact - 1.122513e+04) <= 0.5e-2 &&
            fabs(m.qtop - 4.21e-01) <= 0.5e-3,
        "periodic t=0.2: Wact %.9e Yact %.9e Q %.5e (log 9.293370e+04 1.122513e+04 4.21e-01)",
        m.wact, m.yact, m.qtop);
  tc_case_end("openQCD ms3 log, periodic configuration, RK3 eps = 0.0008 to t = 0.2");

  /* open boundaries, Euler, eps = 0.0008 to t = 2, full precision */
  snprintf(path, sizeof path, "%s/openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1", dir);
  archive_read(u, path, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_OPEN);
  wf_params po = {WF_ACTION_WILSON, WF_EULER, 1, 0.0, 1};
  static const double wsl0[8] = {2.1909123450308125e+03, 2.9722361042026669e+03,
                                 3.0259644616131136e+03, 3.0367303385187884e+03,
                                 3.0300970965090023e+03, 2.9649859783298034e+03,
                                 2.9359214984384339e+03, 2.2052896618928303e+03};
  static const double ysl0[8] = {0.0, 5.9997765048648591e+02, 6.1282361881016141e+02,
                                 6.3095249267986230e+02, 6.1822993203120677e+02,
                                 6.0704066139211864e+02, 5.9840893154888931e+02, 0.0};
  static const double wsl2[8] = {1.5115845002865747e+01, 4.2347857139168156e+01,
                                 7.7532312550630849e+01, 1.0631878601499447e+02,
                                 1.0415863939664995e+02, 8.1754120807563851e+01,
                                 6.2826523503403543e+01, 2.7497857419886287e+01};
  static const double ysl2[8] = {0.0, 3.5549611470106164e+01, 6.6136240515564793e+01,
                                 9.0574347734608267e+01, 8.9808639638784740e+01,
                                 7.0776754767848956e+01, 5.1541387097320978e+01, 0.0};
  wf_measure(&m, u, 1, 0.0);
  double worst = 0;
  for (int t = 0; t < 8; ++t) worst = fmax(worst, fmax(rel(m.wsl[t], wsl0[t]), rel(m.ysl[t], ysl0[t])));
  CHECK(rel(m.wact, 2.2362137484535451e+04) < 1e-13 && rel(m.yact, 3.6674332869487243e+03) < 1e-13 &&
            fabs(m.qtop - 3.2066549926534210e-01) < 1e-13 && worst < 1e-13,
        "open t=0: %.16e %.16e %.16e, slices %.2g", m.wact, m.yact, m.qtop, worst);
  tc_case_end("openQCD ms3 log, open boundaries, t = 0 (plaquette and clover densities)");
  if (getenv("HR_LONG_TESTS") == NULL) { /* 13750 Euler steps: about 3 minutes on 8^4 */
    if (hr_rank() == 0)
      printf("(the open-boundary flow to t = 2 runs with HR_LONG_TESTS=1, as in CI's su3-fund "
             "build)\n");
    wf_measurement_free(&m);
    ot_gauge_free(u);
    return;
  }
  eps = 0.0008;
  wf_flow(u, &po, 0.0, 2.0, &eps);
  wf_measure(&m, u, 1, 2.0);
  worst = 0;
  for (int t = 0; t < 8; ++t) worst = fmax(worst, fmax(rel(m.wsl[t], wsl2[t]), rel(m.ysl[t], ysl2[t])));
  CHECK(rel(m.wact, 5.1755194183516278e+02) < 1e-10 && rel(m.yact, 4.0438698122423392e+02) < 1e-10 &&
            fabs(m.qtop - 5.0493438821914971e-01) < 1e-10 && worst < 1e-10,
        "open t=2: Wact %.16e Yact %.16e Q %.16e (log 5.1755194183516278e+02 "
        "4.0438698122423392e+02 5.0493438821914971e-01), slices %.2g",
        m.wact, m.yact, m.qtop, worst);
  tc_case_end("openQCD ms3 log, open boundaries, Euler eps = 0.0008 to t = 2, to 1e-10 (long)");
  wf_measurement_free(&m);
  ot_gauge_free(u);
}

/* ------------------------------------------------------------------ test fields */

/* A rough but not random field: hot start and a few heatbath sweeps; open: U_0(T-1) = 0. */
static void test_field(suNg_field *u, int open_bc_t) {
  rng_init(4321);
  gauge_field_hot(u);
  for (int k = 0; k < 3; ++k) heatbath_sweep(u, 5.5);
  if (open_bc_t) {
    suNg *um = host_write_suNg_field(u);
    _MASTER_FOR(&glattice, ix) {
      int g[4];
      global_coordinates(g, ix);
      if (g[0] == GLB_T - 1) memset(&um[4 * (ix - glattice.master_shift)], 0, sizeof(suNg));
    }
    sendrecv_suNg_field(u);
  }
}

/* ------------------------------------------------------------------ gradient property */

static void gradient_cases(void) {
  const int glb[4] = {8, 4, 4, 4};
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new(), *w = ot_gauge_new();
  suNg_av_field *f = alloc_avfield(&glattice);
  for (int k = 0; k < 2; ++k) {
    const wf_action action = k == 0 ? WF_ACTION_WILSON : WF_ACTION_SYMANZIK;
    const double c1 = k == 0 ? GAUGE_C1_WILSON : GAUGE_C1_SYMANZIK;
    test_field(u, 0);
    wf_params p = {action, WF_RK3, 0, 0.0, 0};
    const double h = 1e-4;
    zero_suNg_av_field(f);
    gauge_force_update(f, u, 2.0 * NG, c1, -1.0); /* f = F */
    const double f2 = 2.0 * md_kinetic_energy(f);
    copy_suNg_field(w, u);
    wf_rk3_step(w, &p, h);
    const double sp = gauge_action(w, 2.0 * NG, c1);
    copy_suNg_field(w, u);
    wf_rk3_step(w, &p, -h);
    const double sm = gauge_action(w, 2.0 * NG, c1);
    const double dsdt = (sp - sm) / (2.0 * h);
    CHECK(fabs(dsdt + f2) < 1e-6 * f2, "%s: dS/dt = %.12g, -F.F = %.12g", wf_action_name(action),
          dsdt, -f2);
  }
  tc_case_end("flow = gradient flow of the Wilson and Symanzik actions (dS/dt = -F.F)");
  ot_gauge_free(u);
  ot_gauge_free(w);
  free_avfield(f);
}

/* ------------------------------------------------------------------ orders, adaptive */

/* Largest |element difference| between the links of a and b (all processes). */
static double link_distance(const suNg_field *a, const suNg_field *b) {
  const suNg *am = sync_host_suNg_field(a), *bm = sync_host_suNg_field(b);
  double d = 0;
  _MASTER_FOR(&glattice, ix) {
    const int e = ix - glattice.master_shift;
    for (int mu = 0; mu < 4; ++mu)
      for (int k = 0; k < NG * NG; ++k) d = fmax(d, cabs(am[4 * e + mu].c[k] - bm[4 * e + mu].c[k]));
  }
  global_max(&d, 1);
  return d;
}

static void order_cases(void) {
  const int glb[4] = {4, 4, 4, 4};
  ot_geometry(glb, np);
  suNg_field *u0 = ot_gauge_new(), *ref = ot_gauge_new(), *u = ot_gauge_new();
  test_field(u0, 0);
  const double tend = 0.1;
  copy_suNg_field(ref, u0);
  wf_params rk3 = {WF_ACTION_WILSON, WF_RK3, 0, 0.0, 0};
  double e = 0.001;
  wf_flow(ref, &rk3, 0.0, tend, &e);
  double err[2][2];
  for (int k = 0; k < 2; ++k) {
    wf_params p = {WF_ACTION_WILSON, k == 0 ? WF_EULER : WF_RK3, 0, 0.0, 0};
    for (int j = 0; j < 2; ++j) {
      copy_suNg_field(u, u0);
      double eps = (k == 0 ? 0.01 : 0.025) / (1 << j);
      wf_flow(u, &p, 0.0, tend, &eps);
      err[k][j] = link_distance(u, ref);
    }
  }
  const double euler_ratio = err[0][0] / err[0][1], rk3_ratio = err[1][0] / err[1][1];
  CHECK(euler_ratio > 1.8 && euler_ratio < 2.2, "Euler: error ratio %.4g for eps halved (%.3g %.3g)",
        euler_ratio, err[0][0], err[0][1]);
  CHECK(rk3_ratio > 7.0 && rk3_ratio < 9.0, "RK3: error ratio %.4g for eps halved (%.3g %.3g)",
        rk3_ratio, err[1][0], err[1][1]);
  tc_case_end("integrator orders: Euler eps^1, RK3 eps^3");

  /* adaptive with tolerance 1e-6 against the fine reference */
  wf_params ad = {WF_ACTION_WILSON, WF_ADAPTIVE, 0, 1e-6, 0};
  copy_suNg_field(u, u0);
  double eps = 0.001;
  const long nad = wf_flow(u, &ad, 0.0, tend, &eps);
  const double dad = link_distance(u, ref);
  /* RK3 steps needed for the same accuracy: halve until as accurate */
  long nrk = 0;
  double drk = 1.0;
  for (double h = 0.1; drk > dad && h > 1e-4; h /= 2) {
    copy_suNg_field(u, u0);
    double hh = h;
    nrk = wf_flow(u, &rk3, 0.0, tend, &hh);
    drk = link_distance(u, ref);
  }
  CHECK(dad < 1e-5, "adaptive: distance %.3g to the fine result", dad);
  CHECK(nad < nrk || nad <= 2, "adaptive: %ld steps, RK3 needs %ld for distance %.3g <= %.3g", nad,
        nrk, drk, dad);
  /* at a fixed step that is too large the adaptive flow takes more, smaller steps */
  copy_suNg_field(u, u0);
  ad.tolerance = 1e-9;
  eps = 0.05;
  const long nfine = wf_flow(u, &ad, 0.0, tend, &eps);
  CHECK(nfine > nad && link_distance(u, ref) < 1e-7, "adaptive tol 1e-9: %ld steps, distance %.3g",
        nfine, link_distance(u, ref));
  tc_case_end("adaptive: reaches the fixed-step result within its tolerance in fewer steps");
  ot_gauge_free(u0);
  ot_gauge_free(ref);
  ot_gauge_free(u);
}

/* ------------------------------------------------------------------ t0, w0 */

/* On t^2 <E> = c t^2 sampled every 0.01: t0 = sqrt(0.3/c); t d/dt(c t^2) = 2 c t^2, so
 * w0^2 = sqrt(0.15/c). */
static void scale_cases(void) {
  const double c = 0.7;
  double t[200], y[200];
  for (int i = 0; i < 200; ++i) t[i] = 0.01 * i, y[i] = c * t[i] * t[i];
  const double t0 = wf_crossing(t, y, 200, 0.3), w0 = wf_w0(t, y, 200, 0.3);
  CHECK(fabs(t0 - sqrt(0.3 / c)) < 1e-4, "t0 %.8f, exact %.8f", t0, sqrt(0.3 / c));
  CHECK(fabs(w0 - sqrt(sqrt(0.15 / c))) < 1e-4, "w0 %.8f, exact %.8f", w0, sqrt(sqrt(0.15 / c)));
  CHECK(wf_crossing(t, y, 10, 0.3) < 0 && wf_w0(t, y, 10, 0.3) < 0, "not reached: -1");
  tc_case_end("t0 and w0 by interpolation (t^2 <E> = c t^2)");
}

/* ------------------------------------------------------------------ smearing */

/* Largest |U^+ U - 1| element and |det U - 1| over the master links of u (all processes). */
static double sun_defect(const suNg_field *u) {
  const suNg *um = sync_host_suNg_field(u);
  double d = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      const suNg *l = &um[4 * (ix - glattice.master_shift) + mu];
      for (int i = 0; i < NG; ++i)
        for (int j = 0; j < NG; ++j) {
          hr_complex s = i == j ? -1.0 : 0.0;
          for (int k = 0; k < NG; ++k) s += conj(l->c[k * NG + i]) * l->c[k * NG + j];
          d = fmax(d, cabs(s));
        }
      d = fmax(d, cabs(suN_det(NG, l->c) - 1.0));
    }
  }
  global_max(&d, 1);
  return d;
}

/* u <- g(x) U_mu(x) g(x+mu)^+ with Haar-random g from the site's own random stream. */
static void random_gauge_transform(suNg_field *u) {
  suNg_field *g = ot_gauge_new();
  suNg *gm = host_write_suNg_field(g);
  _MASTER_FOR(&glattice, ix) {
    int c[4];
    global_coordinates(c, ix);
    hr_rng_stream st;
    rng_stream_init(&st, 99, 7, (uint64_t)(((c[0] * GLB_X + c[1]) * GLB_Y + c[2]) * GLB_Z + c[3]));
    suNg_random(&gm[4 * (ix - glattice.master_shift)], &st);
  }
  sendrecv_suNg_field(g);
  const suNg *gv = sync_host_suNg_field(g);
  (void)sync_host_suNg_field(u);
  suNg *um = host_write_suNg_field(u);
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      suNg t, r;
      suNg_mul(&t, &gv[4 * (ix - sh)], &um[4 * (ix - sh) + mu]);
      suNg_mul_dag(&r, &t, &gv[4 * (iup(ix, mu) - sh)]);
      um[4 * (ix - sh) + mu] = r;
    }
  }
  sendrecv_suNg_field(u);
  ot_gauge_free(g);
}

static void smearing_cases(void) {
  const int glb[4] = {8, 4, 4, 4};
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new(), *ug = ot_gauge_new(), *s = ot_gauge_new(), *sg = ot_gauge_new();
  test_field(u, 0);
  copy_suNg_field(ug, u);
  random_gauge_transform(ug);
  CHECK(fabs(avr_plaquette(u) - avr_plaquette(ug)) < 1e-13, "gauge transformation changed the "
        "plaquette: %.17g %.17g", avr_plaquette(u), avr_plaquette(ug));
  const smear_params ps[3] = {{SMEAR_APE, 3, 0.5, 0.0, {0, 0, 0}},
                              {SMEAR_STOUT, 3, 0.0, 0.1, {0, 0, 0}},
                              {SMEAR_HYP, 2, 0.0, 0.0, {0.75, 0.6, 0.3}}};
  for (int k = 0; k < 3; ++k) {
    smear_gauge_field(s, u, &ps[k]);
    smear_gauge_field(sg, ug, &ps[k]);
    const double p0 = avr_plaquette(u), p1 = avr_plaquette(s), p1g = avr_plaquette(sg);
    CHECK(sun_defect(s) < 1e-12, "%s: links not in SU(%d): %.3g", smear_kind_name(ps[k].kind), NG,
          sun_defect(s));
    CHECK(fabs(p1 - p1g) < 1e-13, "%s: smeared plaquette not gauge invariant: %.17g %.17g",
          smear_kind_name(ps[k].kind), p1, p1g);
    CHECK(p1 > p0 + 0.05, "%s: plaquette %.6f -> %.6f", smear_kind_name(ps[k].kind), p0, p1);
  }
  /* one stout step with rho equals one Euler step of the Wilson flow with eps = rho */
  const smear_params st = {SMEAR_STOUT, 1, 0.0, 0.01, {0, 0, 0}};
  smear_gauge_field(s, u, &st);
  copy_suNg_field(sg, u);
  const wf_params eu = {WF_ACTION_WILSON, WF_EULER, 0, 0.0, 0};
  wf_euler_step(sg, &eu, 0.01);
  CHECK(link_distance(s, sg) < 1e-13, "stout(rho) vs Euler flow step: %.3g", link_distance(s, sg));
  tc_case_end("APE / stout / HYP: SU(N), gauge invariant plaquette, stout = Euler flow step");
  ot_gauge_free(u);
  ot_gauge_free(ug);
  ot_gauge_free(s);
  ot_gauge_free(sg);
}

/* ------------------------------------------------------------------ backends */

/* GPU builds: the RK3 Wilson and Symanzik flows and the Euler open flow on the GPU backend
 * (force and link update as kernels) equal the CPU backend to 1e-12, and wf_measure gives the
 * same time-slice sums of a field on both. */
static void backend_cases(void) {
#if HR_GPU_ENABLED
  const int glb[4] = {8, 4, 4, 4};
  ot_geometry(glb, np);
  suNg_field *a = ot_gauge_new(), *b = ot_gauge_new();
  double worst = 0;
  for (int k = 0; k < 3; ++k) {
    const int open = k == 2;
    wf_params p = {k == 1 ? WF_ACTION_SYMANZIK : WF_ACTION_WILSON, open ? WF_EULER : WF_RK3,
                   open, 0.0, 0};
    test_field(a, open);
    copy_suNg_field(b, a);
    double eps = 0.01;
    hr_backend_set(HR_BACKEND_CPU);
    wf_flow(a, &p, 0.0, 0.05, &eps);
    const gauge_action_observables oa = gauge_action_observables_compute(a, open);
    eps = 0.01;
    hr_backend_set(HR_BACKEND_GPU);
    wf_flow(b, &p, 0.0, 0.05, &eps);
    const gauge_action_observables ob = gauge_action_observables_compute(b, open);
    hr_backend_set(HR_BACKEND_DEFAULT);
    worst = fmax(worst, link_distance(a, b));
    worst = fmax(worst, fmax(rel(oa.wact, ob.wact), fmax(rel(oa.yact, ob.yact), rel(oa.qtop, ob.qtop))));
    /* the time-slice sums of one field measured on both backends: the same per-site functions
     * (no contraction on either side) and exact sums, so the same bits */
    wf_measurement mc, mg;
    memset(&mc, 0, sizeof mc);
    memset(&mg, 0, sizeof mg);
    hr_backend_set(HR_BACKEND_CPU);
    wf_measure(&mc, a, open, 0.05);
    hr_backend_set(HR_BACKEND_GPU);
    wf_measure(&mg, a, open, 0.05);
    hr_backend_set(HR_BACKEND_DEFAULT);
    CHECK(memcmp(mc.wsl, mg.wsl, 3 * (size_t)GLB_T * sizeof(double)) == 0 && mc.wact == mg.wact,
          "flow %d: time-slice sums of the GPU backend differ from the CPU backend's (slice 1: "
          "Wact %a / %a, E %a / %a, q %a / %a)", k, mg.wsl[1], mc.wsl[1], mg.ysl[1], mc.ysl[1],
          mg.qsl[1], mc.qsl[1]);
    wf_measurement_free(&mc);
    wf_measurement_free(&mg);
  }
  CHECK(worst < 1e-12, "GPU and CPU backends differ by %.3g", worst);
  tc_case_end("flows on the GPU backend equal the CPU backend (1e-12); the time-slice sums of "
              "a field measured on both are bitwise equal");
  /* periodic RK3 steps of the GPU path (Wilson and Symanzik) move no field between host and
   * device: force, accumulator and link update all run on the device copies */
  hr_backend_set(HR_BACKEND_GPU);
  unsigned long long moved = 0;
  for (int k = 0; k < 2; ++k) {
    const wf_params q = {k ? WF_ACTION_SYMANZIK : WF_ACTION_WILSON, WF_RK3, 0, 0.0, 0};
    wf_rk3_step(b, &q, 0.01); /* first use: scratch fields, tables */
    hr_gpu_transfers_reset();
    wf_rk3_step(b, &q, 0.01);
    wf_rk3_step(b, &q, 0.01);
    moved += hr_gpu_transfer_bytes(HR_XFER_TO_DEVICE) + hr_gpu_transfer_bytes(HR_XFER_TO_HOST);
  }
  hr_backend_set(HR_BACKEND_DEFAULT);
  CHECK(moved == 0, "RK3 steps on the GPU backend copied %llu bytes between host and device",
        moved);
  tc_case_end("RK3 steps on the GPU backend move no field between host and device");
  ot_gauge_free(a);
  ot_gauge_free(b);
#endif
}

/* ------------------------------------------------------------------ grids */

static void grid_cases(const char *ref_file) {
  const int glb[4] = {8, 4, 4, 4};
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new();
  double v[4][3];
  double slices[3][8]; /* Wact, E and q per global slice of the last flow (open b.c.) */
  for (int k = 0; k < 3; ++k) {
    const int open = k == 2;
    test_field(u, open);
    wf_params p = {k == 1 ? WF_ACTION_SYMANZIK : WF_ACTION_WILSON, k == 2 ? WF_EULER : WF_RK3,
                   open, 0.0, 0};
    double eps = 0.01;
    wf_flow(u, &p, 0.0, 0.05, &eps);
    wf_measurement m;
    memset(&m, 0, sizeof m);
    wf_measure(&m, u, open, 0.05);
    v[k][0] = m.wact;
    v[k][1] = m.yact;
    v[k][2] = m.qtop;
    for (int t = 0; t < 8; ++t) {
      slices[0][t] = m.wsl[t];
      slices[1][t] = m.ysl[t];
      slices[2][t] = m.qsl[t];
    }
    wf_measurement_free(&m);
  }
  /* smearing: plaquettes of the APE-, stout- and HYP-smeared test field */
  {
    suNg_field *sm = ot_gauge_new();
    test_field(u, 0);
    const smear_params ps[3] = {{SMEAR_APE, 2, 0.5, 0.0, {0, 0, 0}},
                                {SMEAR_STOUT, 2, 0.0, 0.1, {0, 0, 0}},
                                {SMEAR_HYP, 1, 0.0, 0.0, {0.75, 0.6, 0.3}}};
    for (int k = 0; k < 3; ++k) {
      smear_gauge_field(sm, u, &ps[k]);
      v[3][k] = avr_plaquette(sm);
    }
    ot_gauge_free(sm);
  }
  if (ref_file == NULL) {
    if (hr_rank() == 0) {
      FILE *f = fopen("flow_ref.txt", "w");
      for (int k = 0; k < 4; ++k) fprintf(f, "%.17g %.17g %.17g\n", v[k][0], v[k][1], v[k][2]);
      for (int j = 0; j < 3; ++j)
        for (int t = 0; t < 8; ++t) fprintf(f, "%.17g\n", slices[j][t]);
      fclose(f);
    }
  } else {
    FILE *f = fopen(ref_file, "r");
    double worst = 0;
    int ok = f != NULL;
    for (int k = 0; k < 4 && ok; ++k)
      for (int j = 0; j < 3 && ok; ++j) {
        double r;
        ok = fscanf(f, "%lg", &r) == 1;
        if (ok) worst = fmax(worst, rel(v[k][j], r));
      }
    /* the slice sums are exact sums of the same per-site numbers: the same bits */
    int differ = 0;
    for (int j = 0; j < 3 && ok; ++j)
      for (int t = 0; t < 8 && ok; ++t) {
        double r;
        ok = fscanf(f, "%lg", &r) == 1;
        if (ok && memcmp(&r, &slices[j][t], sizeof r) != 0) differ++;
      }
    if (f != NULL) fclose(f);
    CHECK(ok && worst < 1e-12, "grid differs from one process by %.3g (read %s: %d)", worst,
          ref_file, ok);
    CHECK(ok && differ == 0, "%d per-slice Wact / E / q values differ in their bits from one "
          "process", differ);
  }
  tc_case_end("Wilson / Symanzik / open flows and smearing: same results on every grid (1e-12), "
              "per-slice sums bit for bit");
  ot_gauge_free(u);
}

int main(int argc, char **argv) {
  ot_start(&argc, &argv);
  ot_grid(argc, argv, np);
  const char *ref = NULL;
  int logs = 0, grid_only = 0;
  for (int i = 5; i < argc; ++i) {
    if (strcmp(argv[i], "--ref") == 0 && i + 1 < argc) ref = argv[++i];
    if (strcmp(argv[i], "--logs") == 0) logs = 1;
    if (strcmp(argv[i], "--grid-only") == 0) grid_only = 1;
  }
  grid_cases(ref);
  if (!grid_only) {
    gradient_cases();
    order_cases();
    smearing_cases();
    scale_cases();
    backend_cases();
  }
  if (logs) log_cases();
  return ot_finish("test_flow");
}
