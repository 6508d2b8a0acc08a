/* test_observables.c -- observables against independent truths, on the process grid given
 * by the arguments (NP_T NP_X NP_Y NP_Z):
 *  - the stored configurations: Wact, Yact, Q at flow time 0 against openQCD's ms3 logs
 *    (periodic log: its printed precision; open-b.c. log: 1e-12 relative), the plaquette
 *    against the openQCD headers and logs;
 *  - gauge invariance: plaquettes, E, Q and the Polyakov loop unchanged by a random gauge
 *    transformation;
 *  - the Polyakov loop of a field whose time lines are known (diagonal phases, gauge
 *    rotated), across processes in the time direction;
 *  - temporal and spatial plaquettes average to the plaquette;
 *  - GPU builds: the GPU path (kernels on the device copy) equals the CPU path (loops on the
 *    host copy) for every observable (plaquette, parts, open-b.c. plaquette, plaquette sum,
 *    Polyakov loop, Wact, E, Q with periodic and open b.c.) on the stored configurations and
 *    on random fields, with forced halos on one process: bit for bit in the emulated backend,
 *    to 1e-14 relative with CUDA; the GPU path reads the device copy (a zeroed device copy
 *    gives zeros there and changes nothing on the CPU path), refreshes a stale device halo
 *    itself, and the CPU path brings a device-only field to the host first. */
#include "../Observables/obs_test.h"
#include "gpu.h"
#include "linear_algebra.h"
#include "random_fields.h"
#include "halo_exchange.h"

#define PI 3.14159265358979323846

/* Random SU(NG) matrix of the gauge transformation at global site g. */
static void gauge_transformation_at(const int g[4], suNg *out) {
  hr_rng_stream s;
  const uint64_t site = (((uint64_t)g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3];
  rng_stream_init(&s, 777, 3, site);
  suNg_random(out, &s);
}

/* u -> g(x) U_mu(x) g(x+mu)^+ on master sites, then the halo. */
static void gauge_transform(suNg_field *u) {
  host_write_suNg_field(u);
  _MASTER_FOR(&glattice, ix) {
    int gx[4];
    global_coordinates(gx, ix);
    suNg gl, gr, t;
    gauge_transformation_at(gx, &gl);
    for (int mu = 0; mu < 4; ++mu) {
      int gy[4] = {gx[0], gx[1], gx[2], gx[3]};
      gy[mu] = (gy[mu] + 1) % GLB_SIZE[mu];
      gauge_transformation_at(gy, &gr);
      suNg_mul(&t, &gl, _4FIELD_AT(u, ix, mu));
      suNg_mul_dag(_4FIELD_AT(u, ix, mu), &t, &gr);
    }
  }
  sendrecv_field(&glattice, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
}

static int close_rel(double a, double b, double rel) {
  return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

static void stored_configurations(const int np[4]) {
  const int glb[4] = {8, 8, 8, 8};
  ot_geometry(glb, np);
  char path[8192];
  const char *dir = ot_stored_dir();
  suNg_field *u = ot_gauge_new();
  if (NG != 3) {
    ot_gauge_free(u);
    return;
  }
  /* periodic: ms3 log at t = 0 (7 and 3 significant digits) */
  snprintf(path, sizeof path, "%s/openQCD_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1", dir);
  archive_read(u, path, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO);
  gauge_action_observables o = gauge_action_observables_compute(u, 0);
  CHECK(fabs(o.wact - 1.472098e+05) <= 0.5e-1, "Wact %.10e vs log 1.472098e+05", o.wact);
  CHECK(fabs(o.yact - 8.273978e+03) <= 0.5e-3, "Yact %.10e vs log 8.273978e+03", o.yact);
  CHECK(fabs(o.qtop - (-1.37e-01)) <= 0.5e-3, "Q %.10e vs log -1.37e-01", o.qtop);
  /* Wact = sum 2 (3 - Re tr P) is the openQCD header plaquette 3 - Wact / (2 * 6V) */
  CHECK(fabs(3.0 - o.wact / (12.0 * 4096) - 0.005009043432310447) < 1e-13,
        "Wact %.16g inconsistent with the openQCD header", o.wact);
  double pt, ps;
  avr_plaquette_parts(&pt, &ps, u);
  CHECK(close_rel(0.5 * (pt + ps), avr_plaquette(u), 1e-14), "(temporal %.16g + spatial %.16g)/2",
        pt, ps);
  tc_case_end("periodic configuration: Wact, Yact, Q against the ms3 log at t = 0");

  /* open boundaries: ms3 log at t = 0 in full precision */
  snprintf(path, sizeof path, "%s/openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1", dir);
  archive_read(u, path, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO);
  o = gauge_action_observables_compute(u, 1);
  CHECK(close_rel(o.wact, 2.2362137484535451e+04, 1e-12), "Wact %.17e vs log 2.2362137484535451e+04",
        o.wact);
  CHECK(close_rel(o.yact, 3.6674332869487243e+03, 1e-12), "Yact %.17e vs log 3.6674332869487243e+03",
        o.yact);
  CHECK(close_rel(o.qtop, 3.2066549926534210e-01, 1e-11), "Q %.17e vs log 3.2066549926534210e-01",
        o.qtop);
  /* HiRep's weighted plaquette from the log's Wact: 1 - Wact / (2 N 6 L^3 (T-1)) */
  const double plaq_from_log = 1.0 - 2.2362137484535451e+04 / (2.0 * 3 * 6 * 512 * 7);
  CHECK(close_rel(avr_plaquette_open_bc(u), plaq_from_log, 1e-12),
        "HiRep open-b.c. plaquette %.16g vs %.16g from the log", avr_plaquette_open_bc(u),
        plaq_from_log);
  CHECK(close_rel(avr_plaquette_open_bc(u), 0.8266823421647487, 1e-12),
        "HiRep open-b.c. plaquette %.16g vs the HiRep header", avr_plaquette_open_bc(u));
  tc_case_end("open-b.c. configuration: Wact, Yact, Q against the ms3 log at t = 0");
  ot_gauge_free(u);
}

static void gauge_invariance(const int np[4]) {
  const int glb[4] = {4, 4, 4, 4};
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new();
  rng_init(4242);
  gauge_field_hot(u);
  heatbath_sweep(u, 2.0); /* a field with structure */
  const double p0 = avr_plaquette(u);
  double pt0, ps0;
  avr_plaquette_parts(&pt0, &ps0, u);
  const gauge_action_observables o0 = gauge_action_observables_compute(u, 0);
  const hr_complex l0 = polyakov_loop(u);
  gauge_transform(u);
  double pt1, ps1;
  avr_plaquette_parts(&pt1, &ps1, u);
  const gauge_action_observables o1 = gauge_action_observables_compute(u, 0);
  const hr_complex l1 = polyakov_loop(u);
  CHECK(fabs(avr_plaquette(u) - p0) < 1e-13, "plaquette %.16g -> %.16g", p0, avr_plaquette(u));
  CHECK(fabs(pt1 - pt0) < 1e-13 && fabs(ps1 - ps0) < 1e-13, "plaquette parts changed");
  CHECK(close_rel(o1.yact, o0.yact, 1e-12), "E %.16g -> %.16g", o0.yact, o1.yact);
  CHECK(fabs(o1.qtop - o0.qtop) < 1e-12, "Q %.16g -> %.16g", o0.qtop, o1.qtop);
  CHECK(cabs(l1 - l0) < 1e-13, "Polyakov (%g,%g) -> (%g,%g)", creal(l0), cimag(l0), creal(l1),
        cimag(l1));
  CHECK(fabs(o0.qtop) > 1e-6 && fabs(o0.yact) > 1.0 && cabs(l0) > 1e-6,
        "the test field is too trivial to test anything");
  tc_case_end("gauge invariance of plaquette, E, Q and Polyakov loop");
  ot_gauge_free(u);
}

/* Phase angle of the time link at global site g: U_0 = diag(e^{i a}, e^{-i a}, 1, ...). */
static double time_angle(const int g[4]) {
  return 0.1 * (g[0] + 1) * (1 + g[1]) + 0.37 * g[2] - 0.21 * g[3] * g[0];
}

static void polyakov_known(const int np[4]) {
  const int glb[4] = {8, 4, 4, 4};
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new();
  gauge_field_cold(u);
  host_write_suNg_field(u);
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    suNg *l = _4FIELD_AT(u, ix, 0);
    const double a = time_angle(g);
    l->c[0] = hr_cexpi(a);
    l->c[NG + 1] = hr_cexpi(-a);
  }
  sendrecv_field(&glattice, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
  gauge_transform(u);
  hr_complex expect = 0;
  for (int x = 0; x < GLB_X; ++x)
    for (int y = 0; y < GLB_Y; ++y)
      for (int z = 0; z < GLB_Z; ++z) {
        double s = 0;
        for (int t = 0; t < GLB_T; ++t) {
          const int g[4] = {t, x, y, z};
          s += time_angle(g);
        }
        expect += hr_cexpi(s) + hr_cexpi(-s) + (NG - 2);
      }
  expect /= (double)NG * GLB_X * GLB_Y * GLB_Z;
  const hr_complex got = polyakov_loop(u);
  CHECK(cabs(got - expect) < 1e-13, "Polyakov (%.16g,%.16g) expected (%.16g,%.16g)", creal(got),
        cimag(got), creal(expect), cimag(expect));
  tc_case_end("Polyakov loop of known time lines (gauge rotated)");
  ot_gauge_free(u);
}

/* ------------------------------------------------------------------ GPU path vs CPU path */
#if HR_GPU_ENABLED
/* Every observable of u on the path hr_backend_current() says. */
typedef struct {
  double plaq, pt, ps, plaq_obc, retr;
  hr_complex poly;
  gauge_action_observables per, obc;
} all_obs;

static all_obs observe(const suNg_field *u) {
  all_obs o;
  o.plaq = avr_plaquette(u);
  avr_plaquette_parts(&o.pt, &o.ps, u);
  o.plaq_obc = avr_plaquette_open_bc(u);
  o.retr = plaquette_retr_sum(u);
  o.poly = polyakov_loop(u);
  o.per = gauge_action_observables_compute(u, 0);
  o.obc = gauge_action_observables_compute(u, 1);
  return o;
}

static all_obs observe_on(hr_backend b, const suNg_field *u) {
  const hr_backend old = hr_backend_set(b);
  CHECK(hr_backend_current() == b, "backend %d not taken", (int)b);
  const all_obs o = observe(u);
  hr_backend_set(old);
  return o;
}

/* GPU value g equals CPU value c: to 1e-14 relative, and bit for bit in the emulated backend
 * (same per-site functions, same compiler, no contraction, same exact summation). */
static int paths_agree(double g, double c) {
  const int bitwise = HR_GPU_BACKEND == HR_GPU_EMULATED;
  return close_rel(g, c, 1e-14) && (!bitwise || memcmp(&g, &c, sizeof g) == 0);
}

#define AGREE(field, what)                                                                     \
  CHECK(paths_agree(g.field, c.field), "%s: %s GPU %.17g CPU %.17g", what, #field, g.field,   \
        c.field)

static void check_paths_agree(const all_obs *gp, const all_obs *cp, const char *what) {
  const all_obs g = *gp, c = *cp;
  AGREE(plaq, what);
  AGREE(pt, what);
  AGREE(ps, what);
  AGREE(plaq_obc, what);
  AGREE(retr, what);
  CHECK(paths_agree(creal(g.poly), creal(c.poly)) && paths_agree(cimag(g.poly), cimag(c.poly)),
        "%s: Polyakov GPU (%.17g,%.17g) CPU (%.17g,%.17g)", what, creal(g.poly), cimag(g.poly),
        creal(c.poly), cimag(c.poly));
  AGREE(per.wact, what);
  AGREE(per.yact, what);
  AGREE(per.qtop, what);
  AGREE(obc.wact, what);
  AGREE(obc.yact, what);
  AGREE(obc.qtop, what);
}

/* Both paths on u, GPU first (u's device copy is brought up to date) and CPU first. */
static void compare_paths(suNg_field *u, const char *what) {
  const all_obs g = observe_on(HR_BACKEND_GPU, u);
  const all_obs c = observe_on(HR_BACKEND_CPU, u);
  check_paths_agree(&g, &c, what);
  const all_obs c2 = observe_on(HR_BACKEND_CPU, u);
  const all_obs g2 = observe_on(HR_BACKEND_GPU, u);
  check_paths_agree(&g2, &c2, what);
  check_paths_agree(&g2, &g, what);
}

static void paths_on_stored_configurations(const int np[4]) {
  if (NG != 3) return;
  const int glb[4] = {8, 8, 8, 8};
  ot_geometry(glb, np);
  char path[8192];
  const char *dir = ot_stored_dir();
  suNg_field *u = ot_gauge_new();
  snprintf(path, sizeof path, "%s/openQCD_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1", dir);
  archive_read(u, path, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO);
  compare_paths(u, "periodic configuration");
  snprintf(path, sizeof path, "%s/openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1", dir);
  archive_read(u, path, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO);
  compare_paths(u, "open-b.c. configuration");
  ot_gauge_free(u);
  tc_case_end("GPU path equals CPU path on the stored configurations");
}

/* Geometry of a glb lattice on the grid np, with a halo in every direction (forced where
 * the grid does not split it), so that neighbours live in receive pieces. */
static void geometry_with_halos(const int glb[4], const int np[4]) {
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; ++mu) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
    p.force_halo[mu] = np[mu] == 1;
  }
  geometry_init(&p);
}

/* Haar-random field of a new draw, halo exchanged on the host. */
static void random_field(suNg_field *u) {
  random_suNg_field(u);
  sendrecv_suNg_field(u);
}

static void paths_on_random_fields(const int np[4]) {
  const int glb[4][4] = {{4, 4, 4, 4}, {8, 4, 4, 8}};
  for (int k = 0; k < 2; ++k) {
    if (k == 0)
      ot_geometry(glb[k], np);
    else
      geometry_with_halos(glb[k], np);
    rng_init(1357 + k);
    suNg_field *u = ot_gauge_new(), *w = ot_gauge_new(), *u2 = ot_gauge_new();
    random_field(u);
    compare_paths(u, k == 0 ? "random field" : "random field, halos");
    const all_obs c = observe_on(HR_BACKEND_CPU, u);
    CHECK(fabs(c.per.qtop) > 1e-6 && fabs(c.per.yact) > 1.0 && cabs(c.poly) > 1e-6 &&
              fabs(c.obc.qtop) > 1e-6,
          "the random field is too trivial to test anything");

    /* The GPU path reads the device copy: zero it behind the tracking's back (both copies
     * stay marked current). */
    hr_gpu_zero(u->gpu_ptr, field_bytes(&hr_kind_suNg_field, u->type));
    const all_obs c0 = observe_on(HR_BACKEND_CPU, u);
    check_paths_agree(&c0, &c, "CPU path with a zeroed device copy");
    const all_obs g0 = observe_on(HR_BACKEND_GPU, u);
    CHECK(g0.plaq == 0.0 && g0.per.yact == 0.0 && g0.poly == 0.0 && g0.per.wact > 1.0,
          "GPU path with a zeroed device copy: plaquette %g, E %g, Polyakov %g, Wact %g",
          g0.plaq, g0.per.yact, cabs(g0.poly), g0.per.wact);
    copy_to_gpu_suNg_field(u); /* the host copy still holds u */

    /* A stale device halo: the device masters of u become those of w (as a device update
     * would leave them), the device halo still holds u's halo. The GPU path refreshes it. */
    random_field(w);
    const all_obs cw = observe_on(HR_BACKEND_CPU, w);
    sync_gpu_suNg_field(w);
    gpu_write_suNg_field(u);
    _PIECE_FOR(u->type, ixp) {
      hr_gpu_copy_on_device(_GPU_4FIELD_BLK(u, ixp), _GPU_4FIELD_BLK(w, ixp),
                            4 * (size_t)_PIECE_LENGTH(u->type, ixp) * sizeof(suNg));
    }
    const all_obs gw = observe_on(HR_BACKEND_GPU, u);
    check_paths_agree(&gw, &cw, "GPU path after device-only master updates");
    /* ... and the CPU path then reads the device copy (with its refreshed halo). */
    const all_obs cw2 = observe_on(HR_BACKEND_CPU, u);
    check_paths_agree(&cw2, &cw, "CPU path of a device-current field");

    /* The CPU path brings a device-only field to the host: copy_suNg_field copies on the
     * device, u2's host copy is still zero. */
    copy_suNg_field(u2, w);
    CHECK(u2->current == HR_COPY_GPU, "copy_suNg_field should leave only the device copy");
    const all_obs c2 = observe_on(HR_BACKEND_CPU, u2);
    check_paths_agree(&c2, &cw, "CPU path of a copy made on the device");
    ot_gauge_free(u2);
    ot_gauge_free(w);
    ot_gauge_free(u);
  }
  tc_case_end("GPU path equals CPU path on random fields; device copy, halo and sync");
}
#endif

int main(int argc, char **argv) {
  ot_start(&argc, &argv);
  int np[4];
  ot_grid(argc, argv, np);
  stored_configurations(np);
  gauge_invariance(np);
  polyakov_known(np);
#if HR_GPU_ENABLED
  paths_on_stored_configurations(np);
  paths_on_random_fields(np);
#endif
  return ot_finish("test_observables");
}
