/* hmc_monomials.c -- the table of the kinds of monomial (hmc.h: gauge here, hmc and hasenbusch
 * in fermion_monomials.c, rhmc in rhmc_monomial.c), the one adapter from a kind to the
 * hmc_monomial interface, and the gauge kind (gauge_action.h). */
#include <stdlib.h>
#include <string.h>

#include "hmc.h"
#include "hr_error.h"

/* The kinds, each defined in its own file. */
extern const hmc_monomial_kind hmc_monomial_kind_gauge;
extern const hmc_monomial_kind hmc_monomial_kind_hmc;
extern const hmc_monomial_kind hmc_monomial_kind_hasenbusch;
extern const hmc_monomial_kind hmc_monomial_kind_rhmc;

/* Every kind, in the order of the choices of the key type. */
static const hmc_monomial_kind *const monomial_kinds[] = {
    &hmc_monomial_kind_gauge,
    &hmc_monomial_kind_hmc,
    &hmc_monomial_kind_hasenbusch,
    &hmc_monomial_kind_rhmc,
};
enum { N_MONOMIAL_KINDS = sizeof monomial_kinds / sizeof monomial_kinds[0] };

const hmc_monomial_kind *hmc_monomial_kind_find(const char *name) {
  for (int i = 0; i < N_MONOMIAL_KINDS; i++)
    if (strcmp(monomial_kinds[i]->name, name) == 0) return monomial_kinds[i];
  return NULL;
}

const hmc_monomial_kind *hmc_monomial_kind_at(int i) {
  return i >= 0 && i < N_MONOMIAL_KINDS ? monomial_kinds[i] : NULL;
}

const char *hmc_monomial_kind_names(void) {
  static char names[256];
  if (names[0] == '\0')
    for (int i = 0; i < N_MONOMIAL_KINDS; i++) {
      if (i > 0) strcat(names, "|");
      strcat(names, monomial_kinds[i]->name);
    }
  return names;
}

void hmc_monomial_params_init(hmc_monomial_params *p, const char *name) {
  memset(p, 0, sizeof *p);
  p->kind = hmc_monomial_kind_find(name);
  if (p->kind == NULL)
    hr_error_at(HR_EXIT_INTERNAL, __FILE__, __LINE__, __func__,
                "no monomial kind '%s' (kinds: %s)", name, hmc_monomial_kind_names());
  p->gauge_bc.cg = 1.0;
  dirac_bc_default(&p->bc);
  p->mt_prec = HMC_DEFAULT_MT_PREC;
  p->force_prec = HMC_DEFAULT_FORCE_PREC;
  p->precision = 1e-10;
  p->meas_freq = 1;
}

/* ------------------------------------------------------------------ the adapter */

static double kind_heatbath(hmc_monomial *m, const suNg_field *u) {
  return m->kind->heatbath(m->ctx, u);
}

static double kind_action(hmc_monomial *m, const suNg_field *u) {
  return m->kind->action(m->ctx, u);
}

static void kind_force(hmc_monomial *m, const suNg_field *u, suNg_av_field *p, double eps) {
  m->kind->force_update(m->ctx, u, p, eps);
}

static void kind_stats(hmc_monomial *m, hmc_solver_stats *st) {
  m->kind->solver_stats(m->ctx, st);
}

static void kind_free(hmc_monomial *m) {
  m->kind->free(m->ctx);
  free(m);
}

hmc_monomial *hmc_monomial_new(const hmc_monomial_params *p) {
  const hmc_monomial_kind *k = p->kind;
  hmc_monomial *m = calloc(1, sizeof *m);
  if (m == NULL) hr_error("out of memory for a monomial");
  m->name = k->name;
  m->level = p->level;
  m->kind = k;
  m->ctx = k->init(p);
  m->heatbath = k->heatbath != NULL ? kind_heatbath : NULL;
  m->action = kind_action;
  m->force_update = kind_force;
  m->solver_stats = k->solver_stats != NULL ? kind_stats : NULL;
  m->free = kind_free;
  return m;
}

/* ------------------------------------------------------------------ gauge */

static void gauge_read(input_file *in, int index, hmc_monomial_params *p) {
  const input_key keys[] = {
      {"beta", INPUT_DOUBLE, &p->beta, NULL, ">=0", "gauge coupling beta"},
      {"c1", INPUT_DOUBLE, &p->c1, "0", NULL,
       "rectangle coefficient: 0 Wilson, -0.083333 tree-level Symanzik, -0.331 Iwasaki"},
      HMC_KEY_LEVEL(&p->level),
      INPUT_KEYS_END};
  hmc_read_block_keys(in, "monomial", index, keys);
}

/* The gauge kind's data: its parameters. */
static void *gauge_init(const hmc_monomial_params *p) {
  hmc_monomial_params *g = malloc(sizeof *g);
  if (g == NULL) hr_error("out of memory for a monomial");
  *g = *p;
  return g;
}

static double gauge_action_of(void *data, const suNg_field *u) {
  const hmc_monomial_params *g = data;
  return gauge_action_bc(u, g->beta, g->c1, &g->gauge_bc);
}

static void gauge_force(void *data, const suNg_field *u, suNg_av_field *p, double eps) {
  const hmc_monomial_params *g = data;
  gauge_force_update_bc(p, u, g->beta, g->c1, eps, &g->gauge_bc);
}

const hmc_monomial_kind hmc_monomial_kind_gauge = {
    .name = "gauge",
    .fermion = 0,
    .read = gauge_read,
    .init = gauge_init,
    .free = free,
    .heatbath = NULL,
    .action = gauge_action_of,
    .force_update = gauge_force,
    .solver_stats = NULL,
};

hmc_monomial *hmc_monomial_gauge(double beta, double c1, int level) {
  return hmc_monomial_gauge_bc(beta, c1, NULL, level);
}

hmc_monomial *hmc_monomial_gauge_bc(double beta, double c1, const gauge_boundary *b, int level) {
  hmc_monomial_params p;
  hmc_monomial_params_init(&p, "gauge");
  p.beta = beta;
  p.c1 = c1;
  p.level = level;
  p.gauge_bc.open = b != NULL && b->open;
  p.gauge_bc.cg = b != NULL ? b->cg : 1.0;
  return hmc_monomial_new(&p);
}
