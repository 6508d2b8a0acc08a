/* test_monomial_kinds.c -- tests of the table of monomial kinds (hmc.h, Update/hmc_monomials.c)
 * on a 4^4 lattice, one process:
 *   - the table: the names in order (the choices of `type`), lookup by name and index;
 *   - reading: the monomial blocks of an input text (every kind) give the parameter records
 *     with the values of the file, the defaults of the keys left out, the rhmc range parsed;
 *   - defaults: hmc_monomial_params_init gives each kind the values of its keys' defaults;
 *   - building: hmc_build_monomials makes monomials with the kind's name, level and callbacks
 *     (heatbath and solver work only for the fermion kinds), the run's csw and boundary
 *     conditions in each fermion record, and actions equal to those of monomials built
 *     directly from the records (gauge: gauge_action_bc); builds without MPFR skip this case
 *     (the rhmc monomial computes its approximations; cache file removed at the end). */
#include <math.h>
#include <string.h>

#include "../test_cases.h"
#include "fermion_monomials.h"
#include "gauge_action.h"
#include "heatbath.h"
#include "hmc.h"
#include "input_file.h"
#include "random.h"
#include "rational_approx.h"
#include "rhmc_monomial.h"

static const char *const INPUT_TEXT =
    "tlen = 0.5\n"
    "monomial {\n  type = gauge\n  beta = 5.5\n  c1 = -0.05\n  level = 1\n}\n"
    "monomial {\n  type = hmc\n  mass = 0.4\n  level = 0\n}\n"
    "monomial {\n  type = hasenbusch\n  mass = 0.1\n  dm = 0.3\n  level = 0\n"
    "  mt_prec = 1e-13\n  chrono = 2\n}\n"
    "monomial {\n  type = rhmc\n  nf = 1\n  mass = 0.2\n  level = 0\n  range = 0.01  50\n"
    "  cache = test_monomial_kinds.cache\n}\n"
    "integrator {\n  level = 0\n  type = omf2\n  steps = 2\n}\n"
    "integrator {\n  level = 1\n  type = lf\n  steps = 2\n}\n";

static void check_table(void) {
  CHECK(strcmp(hmc_monomial_kind_names(), "gauge|hmc|hasenbusch|rhmc") == 0, "names '%s'",
        hmc_monomial_kind_names());
  const char *names[4] = {"gauge", "hmc", "hasenbusch", "rhmc"};
  for (int i = 0; i < 4; i++) {
    const hmc_monomial_kind *k = hmc_monomial_kind_find(names[i]);
    CHECK(k != NULL && k == hmc_monomial_kind_at(i) && strcmp(k->name, names[i]) == 0,
          "kind %d '%s'", i, names[i]);
    CHECK(k != NULL && k->fermion == (i > 0), "kind '%s': fermion flag", names[i]);
  }
  CHECK(hmc_monomial_kind_at(4) == NULL && hmc_monomial_kind_find("staggered") == NULL,
        "a kind past the table");
  tc_case_end("table of kinds: names, lookup, fermion flags");
}

/* The records of INPUT_TEXT, read into h. */
static void read_input(hmc_params *h) {
  char err[1024];
  input_file *in = input_parse_string("kinds.in", INPUT_TEXT, err, sizeof err);
  if (in == NULL) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
  hmc_read_input(in, h);
  CHECK(input_check_unused(in, err, sizeof err) == 0, "unused input: %s", err);
  input_free(in);
}

static void check_read(const hmc_params *h) {
  CHECK(h->nspecs == 4 && h->nlevels == 2 && h->tlen == 0.5, "%d records, %d levels", h->nspecs,
        h->nlevels);
  const hmc_monomial_params *g = &h->spec[0], *q = &h->spec[1], *b = &h->spec[2],
                            *r = &h->spec[3];
  CHECK(g->kind == hmc_monomial_kind_find("gauge") && g->beta == 5.5 && g->c1 == -0.05 &&
            g->level == 1,
        "gauge: beta %g, c1 %g, level %d", g->beta, g->c1, g->level);
  CHECK(q->kind == hmc_monomial_kind_find("hmc") && q->mass == 0.4 && q->level == 0 &&
            q->dm == 0 && q->mt_prec == 1e-14 && q->force_prec == 1e-10 && q->chrono == 0,
        "hmc: mass %g, dm %g, mt_prec %g, force_prec %g, chrono %d", q->mass, q->dm, q->mt_prec,
        q->force_prec, q->chrono);
  CHECK(b->kind == hmc_monomial_kind_find("hasenbusch") && b->mass == 0.1 && b->dm == 0.3 &&
            b->mt_prec == 1e-13 && b->force_prec == 1e-10 && b->chrono == 2,
        "hasenbusch: mass %g, dm %g, mt_prec %g, chrono %d", b->mass, b->dm, b->mt_prec,
        b->chrono);
  CHECK(r->kind == hmc_monomial_kind_find("rhmc") && r->nf == 1 && r->mass == 0.2 &&
            r->lmin == 0.01 && r->lmax == 50 && r->degree == 0 && r->precision == 1e-10 &&
            r->meas_freq == 1 && r->strict == 0 && r->mt_prec == 1e-14 &&
            r->force_prec == 1e-10 && strcmp(r->cache, "test_monomial_kinds.cache") == 0,
        "rhmc: nf %d, range [%g, %g], degree %d, precision %g, meas_freq %d, strict %d, "
        "cache '%s'",
        r->nf, r->lmin, r->lmax, r->degree, r->precision, r->meas_freq, r->strict, r->cache);
  /* the defaults of hmc_monomial_params_init are those of the keys */
  const hmc_monomial_params *read[3] = {q, b, r};
  for (int i = 0; i < 3; i++) {
    hmc_monomial_params d;
    hmc_monomial_params_init(&d, read[i]->kind->name);
    CHECK(d.kind == read[i]->kind && d.force_prec == read[i]->force_prec &&
              d.precision == read[i]->precision && d.meas_freq == read[i]->meas_freq &&
              d.strict == read[i]->strict && d.degree == read[i]->degree,
          "%s: defaults of hmc_monomial_params_init differ from the input's",
          read[i]->kind->name);
  }
  hmc_monomial_params d;
  hmc_monomial_params_init(&d, "hmc");
  CHECK(d.mt_prec == q->mt_prec && d.chrono == q->chrono && d.dm == q->dm,
        "hmc: default mt_prec %g, chrono %d, dm %g", d.mt_prec, d.chrono, d.dm);
  tc_case_end("monomial blocks read into the parameter records, defaults");
}

static void check_build(hmc_params *h, const suNg_field *u) {
  hmc_fermion_setup fs;
  fs.csw = 1.1;
  dirac_bc_default(&fs.bc);
  fs.bc.theta[1] = 0.3;
  stout_params_default(&fs.smear);
  hmc_monomial_params spec[4];
  memcpy(spec, h->spec, sizeof spec);
  hmc_build_monomials(h, &fs);
  CHECK(h->nmonomials == 4 && h->nspecs == 0, "%d monomials", h->nmonomials);
  for (int i = 0; i < h->nmonomials; i++) {
    hmc_monomial *m = h->monomial[i];
    const int fermion = i > 0;
    CHECK(m->kind == spec[i].kind && strcmp(m->name, spec[i].kind->name) == 0 &&
              m->level == spec[i].level,
          "monomial %d: kind, name '%s', level %d", i, m->name, m->level);
    CHECK((m->heatbath != NULL) == fermion && (m->solver_stats != NULL) == fermion,
          "monomial %d (%s): heatbath and solver work only for fermions", i, m->name);
  }
  /* the fermion records carry the run's setup */
  const fermion_monomial *q = h->monomial[1]->ctx;
  const rhmc_monomial *r = h->monomial[3]->ctx;
  CHECK(q->par.csw == 1.1 && q->par.bc.theta[1] == 0.3 && !q->hasenbusch, "hmc: csw %g",
        q->par.csw);
  CHECK(((const fermion_monomial *)h->monomial[2]->ctx)->hasenbusch, "hasenbusch flag");
  CHECK(r->par.csw == 1.1 && r->par.bc.theta[1] == 0.3 && r->par.nf == 1, "rhmc: csw %g",
        r->par.csw);
  /* the gauge action of the monomial */
  const gauge_boundary gb = {0, 1.0};
  const double sg = h->monomial[0]->action(h->monomial[0], u);
  const double sd = gauge_action_bc(u, 5.5, -0.05, &gb);
  CHECK(sg == sd, "gauge monomial action %.15e, gauge_action_bc %.15e", sg, sd);
  /* the hmc monomial equals one built from its record with the same pseudofermions */
  spec[1].csw = fs.csw;
  spec[1].bc = fs.bc;
  hmc_monomial *direct = hmc_monomial_new(&spec[1]);
  rng_init(99);
  const double s0 = h->monomial[1]->heatbath(h->monomial[1], u);
  rng_init(99);
  const double s1 = direct->heatbath(direct, u);
  CHECK(s0 == s1 && s0 != 0, "hmc heatbath action %.15e, built directly %.15e", s0, s1);
  hmc_solver_stats st;
  h->monomial[3]->heatbath(h->monomial[3], u);
  h->monomial[3]->solver_stats(h->monomial[3], &st);
  CHECK(st.iterations > 0, "rhmc: %ld solver iterations after its heatbath", st.iterations);
  direct->free(direct);
  hmc_free(h);
  tc_case_end("monomials built from the records: names, levels, callbacks, setup, actions");
}

int main(int argc, char **argv) {
  tc_start(&argc, &argv);
  geometry_params gp;
  geometry_params_default(&gp); /* one process */
  for (int mu = 0; mu < 4; mu++) gp.glb[mu] = 4;
  if (!tc_geometry_init(&gp, "test_monomial_kinds")) return 77;
  rng_init(2025);
  suNg_field *u = alloc_suNg_field(1, &glattice);
  gauge_field_hot(u);
  for (int k = 0; k < 3; k++) heatbath_sweep(u, 5.5);
  check_table();
  hmc_params h;
  read_input(&h);
  check_read(&h);
  if (rational_approx_have_remez()) {
    check_build(&h, u);
    remove("test_monomial_kinds.cache");
  } else if (hr_rank() == 0) {
    printf("SKIP: building the monomials (no MPFR: the rhmc monomial's approximations)\n");
  }
  free_suNg_field(u);
  return tc_finish("test_monomial_kinds");
}
