/* hmc_monomials.c -- the monomials of LibHR as hmc_monomial values (hmc.h): the gauge action
 * (gauge_action.h) and the fermion monomials hmc and hasenbusch (fermion_monomials.h), each an
 * adapter from the monomial interface to its module. */
#include <stdlib.h>

#include "fermion_monomials.h"
#include "gauge_action.h"
#include "hmc.h"
#include "hr_error.h"

/* A new monomial with zeroed callbacks and `ctx_bytes` of zeroed context. */
static hmc_monomial *monomial_new(const char *name, int level, size_t ctx_bytes) {
  hmc_monomial *m = calloc(1, sizeof *m);
  void *ctx = calloc(1, ctx_bytes);
  if (m == NULL || ctx == NULL) hr_error("out of memory for a monomial");
  m->name = name;
  m->level = level;
  m->ctx = ctx;
  return m;
}

/* Free a monomial made by monomial_new whose context needs no more than free(). */
static void monomial_free_plain(hmc_monomial *m) {
  free(m->ctx);
  free(m);
}

/* ------------------------------------------------------------------ gauge */

typedef struct {
  double beta, c1;
  gauge_boundary b;
} gauge_ctx;

static double gauge_mon_action(hmc_monomial *m, const suNg_field *u) {
  const gauge_ctx *g = m->ctx;
  return gauge_action_bc(u, g->beta, g->c1, &g->b);
}

static void gauge_mon_force(hmc_monomial *m, const suNg_field *u, suNg_av_field *p, double eps) {
  const gauge_ctx *g = m->ctx;
  gauge_force_update_bc(p, u, g->beta, g->c1, eps, &g->b);
}

hmc_monomial *hmc_monomial_gauge(double beta, double c1, int level) {
  return hmc_monomial_gauge_bc(beta, c1, NULL, level);
}

hmc_monomial *hmc_monomial_gauge_bc(double beta, double c1, const gauge_boundary *b, int level) {
  hmc_monomial *m = monomial_new("gauge", level, sizeof(gauge_ctx));
  gauge_ctx *g = m->ctx;
  g->beta = beta;
  g->c1 = c1;
  g->b.open = b != NULL && b->open;
  g->b.cg = b != NULL ? b->cg : 1.0;
  m->action = gauge_mon_action;
  m->force_update = gauge_mon_force;
  m->free = monomial_free_plain;
  return m;
}

/* ------------------------------------------------------------------ fermions */

/* ctx of a fermion monomial: the fermion_monomial of fermion_monomials.h. */
static double fermion_mon_heatbath(hmc_monomial *m, const suNg_field *u) {
  return fermion_monomial_heatbath(m->ctx, u);
}

static double fermion_mon_action(hmc_monomial *m, const suNg_field *u) {
  return fermion_monomial_action(m->ctx, u);
}

static void fermion_mon_force(hmc_monomial *m, const suNg_field *u, suNg_av_field *p,
                              double eps) {
  fermion_monomial_force_update(m->ctx, u, p, eps);
}

static void fermion_mon_stats(hmc_monomial *m, hmc_solver_stats *st) {
  const fermion_monomial *f = m->ctx;
  st->iterations = f->iterations;
  st->seconds = f->solver_seconds;
  st->flops = f->solver_flops;
}

static void fermion_mon_free(hmc_monomial *m) {
  fermion_monomial_free(m->ctx);
  free(m);
}

/* A fermion monomial of kind k. */
static hmc_monomial *fermion_monomial_of(fermion_monomial_kind k, const hmc_fermion_setup *fs,
                                         const hmc_fermion_params *fp, int level) {
  fermion_monomial_params par;
  fermion_monomial_params_default(&par);
  par.kind = k;
  par.m0 = fp->mass;
  par.dm = fp->dm;
  par.csw = fs->csw;
  par.bc = fs->bc;
  par.mt_prec = fp->mt_prec;
  par.force_prec = fp->force_prec;
  par.chrono = fp->chrono;
  hmc_monomial *m = calloc(1, sizeof *m);
  if (m == NULL) hr_error("out of memory for a monomial");
  m->name = k == FERMION_MONOMIAL_HMC ? "hmc" : "hasenbusch";
  m->level = level;
  m->ctx = fermion_monomial_new(&par);
  m->heatbath = fermion_mon_heatbath;
  m->action = fermion_mon_action;
  m->force_update = fermion_mon_force;
  m->solver_stats = fermion_mon_stats;
  m->free = fermion_mon_free;
  return m;
}

hmc_monomial *hmc_monomial_hmc(const hmc_fermion_setup *fs, const hmc_fermion_params *fp,
                               int level) {
  return fermion_monomial_of(FERMION_MONOMIAL_HMC, fs, fp, level);
}

hmc_monomial *hmc_monomial_hasenbusch(const hmc_fermion_setup *fs,
                                      const hmc_fermion_params *fp, int level) {
  return fermion_monomial_of(FERMION_MONOMIAL_HASENBUSCH, fs, fp, level);
}
