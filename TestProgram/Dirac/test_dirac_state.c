/* test_dirac_state.c -- the derived state of the Dirac operators follows the gauge field and
 * operators are independent values (issue "derived state that follows the gauge field").
 * Independent truth: an operator built fresh on a copy of the links (a different field, so
 * nothing cached can be reused) must give bit for bit the same result as the operator that
 * saw the links change, for every operator form, both precisions, with and without clover,
 * and on the GPU path in GPU builds:
 *   - after a heatbath sweep, after an HMC-style in-place update of the links through
 *     host_write_suNg_field, and after reading a configuration file into the links, with no
 *     other call in between;
 *   - two operators with different m0 and csw on the same links, used alternately, each give
 *     what they give alone;
 *   - unchanged links rebuild nothing (the state is cached), changed links rebuild once;
 *   - clover_logdet follows the links too.
 * With --stale the program changes the links through their pointer WITHOUT a new version and
 * applies an operator: builds with --enable-debug-checks must stop with a message (checked by
 * test_dirac_stale.sh); other builds exit 77 (skip).
 * Usage: test_dirac_state [NP_T NP_X NP_Y NP_Z] [--stale] */
#include "dirac_test.h"

#include "archive.h"
#include "heatbath.h"

static const int glb[4] = {8, 4, 4, 4};

/* An operator form in both precisions. */
typedef struct {
  const char *name;
  void (*d)(spinor_field *, const dirac_op *, const spinor_field *);
  void (*f)(spinor_field_flt *, const dirac_op *, const spinor_field_flt *);
  int eo; /* acts on glat_even */
} form_case;

static const form_case forms[] = {
    {"Dphi", Dphi, Dphi_flt, 0},
    {"g5Dphi_sq", g5Dphi_sq, g5Dphi_sq_flt, 0},
    {"Dphi_eopre", Dphi_eopre, Dphi_eopre_flt, 1},
    {"g5Dphi_eopre_sq", g5Dphi_eopre_sq, g5Dphi_eopre_sq_flt, 1},
};
#define NFORMS ((int)(sizeof forms / sizeof forms[0]))

/* Number of backends to test: the CPU loops, and the GPU path in GPU builds. */
#define NBACKENDS (HR_GPU_ENABLED ? 2 : 1)
static dirac_op with_backend(const dirac_op *D, int gpu) {
  dirac_op B = *D;
  B.backend = gpu ? HR_BACKEND_GPU : HR_BACKEND_CPU;
  return B;
}

/* Sum of squared differences of a and b over the master sites (exact zero when equal). */
static double diff2_flt(const spinor_field_flt *a, const spinor_field_flt *b) {
  double s = 0;
  sync_host_spinor_field_flt(a);
  sync_host_spinor_field_flt(b);
  _MASTER_FOR(a->type, ix) {
    const float *x = (const float *)_FIELD_AT(a, ix), *y = (const float *)_FIELD_AT(b, ix);
    for (size_t k = 0; k < sizeof(suNf_spinor_flt) / sizeof(float); k++)
      s += (double)(x[k] - y[k]) * (double)(x[k] - y[k]);
  }
  global_sum(&s, 1);
  return s;
}

/* Every form of D and of a fresh operator on a copy of D's links: bitwise equal results.
 * Also returns |D psi|^2 of the first form (to see that the links really changed). */
static double check_against_fresh(const dirac_op *D, const char *when) {
  suNg_field *copy = dt_gauge();
  copy_suNg_field(copy, D->u);
  double first = 0;
  for (int gpu = 0; gpu < NBACKENDS; gpu++) {
    const dirac_op Db = with_backend(D, gpu);
    dirac_op Fresh = Db;
    Fresh.u = copy;
    for (int k = 0; k < NFORMS; k++) {
      const geometry_descriptor *g = forms[k].eo ? &glat_even : &glattice;
      spinor_field *psi = dt_spinor(g), *a = dt_spinor(g), *b = dt_spinor(g);
      spinor_field_flt *pf = dt_spinor_flt(g), *af = dt_spinor_flt(g), *bf = dt_spinor_flt(g);
      dt_random_spinor_field(psi, 3 + (uint64_t)k);
      dt_to_flt(psi, pf);
      forms[k].d(a, &Db, psi);
      forms[k].d(b, &Fresh, psi);
      forms[k].f(af, &Db, pf);
      forms[k].f(bf, &Fresh, pf);
      const double dd = dt_diff2(a, b), df = diff2_flt(af, bf);
      CHECK(dd == 0., "%s, %s, csw %g, %s: double result differs from a fresh operator's by %g",
            when, forms[k].name, D->csw, gpu ? "GPU path" : "CPU loops", dd);
      CHECK(df == 0., "%s, %s, csw %g, %s: single result differs from a fresh operator's by %g",
            when, forms[k].name, D->csw, gpu ? "GPU path" : "CPU loops", df);
      if (k == 0 && gpu == 0) first = dt_sqnorm(a);
      DT_FREE(psi); DT_FREE(a); DT_FREE(b); DT_FREE(pf); DT_FREE(af); DT_FREE(bf);
    }
  }
  if (D->csw != 0.) {
    const double l1 = clover_logdet(D, HR_PARITY_ODD);
    dirac_op Fresh = *D;
    Fresh.u = copy;
    const double l2 = clover_logdet(&Fresh, HR_PARITY_ODD);
    CHECK(l1 == l2, "%s: clover log det %.17g, fresh operator %.17g", when, l1, l2);
  }
  DT_FREE(copy);
  return first;
}

/* |D psi|^2 of the first form (warms the derived state of D). */
static double apply_first(const dirac_op *D) {
  spinor_field *psi = dt_spinor(&glattice), *a = dt_spinor(&glattice);
  dt_random_spinor_field(psi, 3);
  forms[0].d(a, D, psi);
  const double n = dt_sqnorm(a);
  DT_FREE(psi);
  DT_FREE(a);
  return n;
}

/* Links U <- exp(eps X) U for a fixed random algebra element per link, written in place
 * through the documented call (host_write_suNg_field): what the HMC link update does. */
static void hmc_style_update(suNg_field *u, double eps) {
  suNg *p = host_write_suNg_field(u);
  (void)p;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    hr_rng_stream st;
    rng_stream_init(&st, 99, 1, (uint64_t)dt_global_index(g));
    for (int mu = 0; mu < 4; mu++) {
      suNg_algebra_vector v;
      suNg e, t;
      suNg_algebra_vector_random(&v, &st);
      suNg_algebra_vector_scale(&v, eps, &v);
      suNg_exp(&e, &v);
      suNg_mul(&t, &e, _4FIELD_AT(u, ix, mu));
      *_4FIELD_AT(u, ix, mu) = t;
    }
  }
}

/* The operators see every change of the links with no call in between. */
static void check_follows_links(suNg_field *u, const dirac_bc *bc) {
  const double csws[2] = {0., 1.3};
  char path[64];
  snprintf(path, sizeof path, "dirac_state_%d.conf", hr_nranks());
  for (int c = 0; c < 2; c++) {
    const dirac_op D = dirac_op_make(u, 0.2, csws[c], bc);
    char name[160];
    gauge_field_hot(u);
    const double n0 = check_against_fresh(&D, "after a hot start");
    /* a saved copy of these links, for the file case */
    char err[512];
    CHECK(archive_write_checked(path, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_AUTO, u, err, sizeof err)
              == 0, "write %s: %s", path, err);
    heatbath_sweep(u, 5.8);
    const double n1 = check_against_fresh(&D, "after a heatbath sweep");
    CHECK(n1 != n0, "the heatbath did not change the operator's result (%g)", n1);
    hmc_style_update(u, 0.1);
    const double n2 = check_against_fresh(&D, "after an in-place update via host_write");
    CHECK(n2 != n1, "the in-place update did not change the operator's result (%g)", n2);
    CHECK(archive_read_checked(u, path, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err)
              == 0, "read %s: %s", path, err);
    const double n3 = check_against_fresh(&D, "after reading a configuration file");
    CHECK(n3 == n0, "after reading back the saved links: |D psi|^2 = %.17g, before %.17g", n3,
          n0);
    snprintf(name, sizeof name, "csw %g: operators follow heatbath, in-place update, file read",
             csws[c]);
    tc_case_end(name);
  }
  if (hr_rank() == 0) remove(path);
}

/* Unchanged links are not rebuilt; changed links are rebuilt once (links + clover). */
static void check_caching(suNg_field *u, const dirac_bc *bc) {
  const dirac_op D = dirac_op_make(u, 0.1, 1.0, bc);
  spinor_field *psi = dt_spinor(&glat_even), *a = dt_spinor(&glat_even);
  dt_random_spinor_field(psi, 5);
  Dphi_eopre(a, &D, psi);
  const long b0 = dirac_state_builds();
  for (int k = 0; k < 3; k++) Dphi_eopre(a, &D, psi);
  CHECK(dirac_state_builds() == b0, "unchanged links: %ld rebuilds", dirac_state_builds() - b0);
  hmc_style_update(u, 0.05);
  Dphi_eopre(a, &D, psi);
  Dphi_eopre(a, &D, psi);
  CHECK(dirac_state_builds() == b0 + 2, "changed links: %ld rebuilds, expected 2 (links, clover)",
        dirac_state_builds() - b0);
  DT_FREE(psi);
  DT_FREE(a);
  tc_case_end("derived state cached while the links are unchanged, rebuilt once after a change");
}

/* Two operators on the same links, used alternately, give what they give alone. */
static void check_two_operators(suNg_field *u, const dirac_bc *bc) {
  const dirac_op D1 = dirac_op_make(u, 0.15, 1.0, bc), D2 = dirac_op_make(u, -0.1, 1.7, bc);
  const dirac_op *ops[2] = {&D1, &D2};
  for (int gpu = 0; gpu < NBACKENDS; gpu++)
    for (int k = 0; k < NFORMS; k++) {
      const geometry_descriptor *g = forms[k].eo ? &glat_even : &glattice;
      spinor_field *psi = dt_spinor(g), *alone = alloc_spinor_field(2, g), *t = dt_spinor(g);
      spinor_field_flt *pf = dt_spinor_flt(g), *alone_f = alloc_spinor_field_flt(2, g),
                       *tf = dt_spinor_flt(g);
      dt_random_spinor_field(psi, 11 + (uint64_t)k);
      dt_to_flt(psi, pf);
      for (int i = 0; i < 2; i++) {
        const dirac_op B = with_backend(ops[i], gpu);
        dirac_state_release(); /* alone: nothing cached from the other operator */
        forms[k].d(alone + i, &B, psi);
        forms[k].f(alone_f + i, &B, pf);
      }
      CHECK(dt_diff2(alone, alone + 1) > 0, "%s: the two operators should differ", forms[k].name);
      for (int rep = 0; rep < 4; rep++) {
        const int i = rep % 2;
        const dirac_op B = with_backend(ops[i], gpu);
        forms[k].d(t, &B, psi);
        forms[k].f(tf, &B, pf);
        CHECK(dt_diff2(t, alone + i) == 0. && diff2_flt(tf, alone_f + i) == 0.,
              "%s %s, operator %d used alternately differs from alone", forms[k].name,
              gpu ? "GPU path" : "CPU loops", i + 1);
      }
      free_spinor_field(alone);
      free_spinor_field_flt(alone_f);
      DT_FREE(psi); DT_FREE(t); DT_FREE(pf); DT_FREE(tf);
    }
  const double l1 = clover_logdet(&D1, HR_PARITY_ODD), l2 = clover_logdet(&D2, HR_PARITY_ODD);
  CHECK(clover_logdet(&D1, HR_PARITY_ODD) == l1 && l1 != l2,
        "clover log det of alternating operators: %.17g %.17g", l1, l2);
  tc_case_end("two operators (m0, csw differ) on the same links, used alternately");
}

/* Links changed through their pointer without a new version: debug builds must stop. */
static int stale_links(suNg_field *u, const dirac_bc *bc) {
  if (!HR_DEBUG_CHECKS) {
    if (hr_rank() == 0) printf("test_dirac_state --stale: needs --enable-debug-checks: skipped\n");
    return 77;
  }
  const dirac_op D = dirac_op_make(u, 0.1, 0., bc);
  apply_first(&D);
  _MASTER_FOR(&glattice, ix) suNg_unit(_4FIELD_AT(u, ix, 0)); /* no host_write: a bug */
  apply_first(&D);
  if (hr_rank() == 0) printf("test_dirac_state --stale: the stale links were not detected\n");
  return 1;
}

int main(int argc, char **argv) {
  dt_start(&argc, &argv);
  int np[4] = {1, 1, 1, 1}, stale = 0, a = 1;
  if (argc >= 5 && argv[1][0] != '-') {
    for (int mu = 0; mu < 4; mu++) np[mu] = atoi(argv[mu + 1]);
    a = 5;
  }
  for (; a < argc; a++)
    if (strcmp(argv[a], "--stale") == 0) stale = 1;
  dt_geometry(glb, np, 0);
  rng_init(2024);
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.theta[2] = 0.25;
  suNg_field *u = dt_gauge();
  gauge_field_hot(u);
  if (stale) {
    const int rc = stale_links(u, &bc);
    DT_FREE(u);
    dt_finish("test_dirac_state --stale");
    return rc;
  }
  check_follows_links(u, &bc);
  check_caching(u, &bc);
  check_two_operators(u, &bc);
  DT_FREE(u);
  return dt_finish("test_dirac_state");
}
