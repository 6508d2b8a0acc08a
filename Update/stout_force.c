/* stout_force.c -- the stout-smearing chain of stout_force.h: smeared links of every level
 * and the force carried from the smeared links back to the thin links, host loops over the
 * master links (OpenMP) with the gauge halo (edges included) for the neighbours. */
#include "stout_force.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "communications.h"
#include "halo_exchange.h"
#include "gauge_view.h"
#include "geometry.h"
#include "hmc.h"
#include "hr_error.h"
#include "input_file.h"
#include "linear_algebra.h"
#include "logger.h"
#include "smearing.h"
#include "suN.h"

void stout_params_default(stout_params *p) {
  p->steps = 0;
  p->rho = 0.1;
  p->spatial = 0;
}

void stout_params_read_input(stout_params *p, input_file *in) {
  stout_params_default(p);
  if (input_count_blocks(in, "smear") == 0) return;
  const input_key keys[] = {
      {"steps", INPUT_INT, &p->steps, NULL, ">=0 <=20", "number of stout steps (0: none)"},
      {"rho", INPUT_DOUBLE, &p->rho, NULL, ">=0 <=0.5", "weight of each staple"},
      {"spatial", INPUT_BOOL, &p->spatial, "false", NULL,
       "smear only the spatial links, with spatial staples"},
      INPUT_KEYS_END};
  input_read(in, "smear", keys);
}

void stout_params_print(const stout_params *p) {
  if (p->steps == 0)
    lprintf("HMC", 10, "fermion links: not smeared\n");
  else
    lprintf("HMC", 10, "fermion links: %d stout step(s), rho = %g, %s\n", p->steps, p->rho,
            p->spatial ? "spatial links and staples only" : "isotropic");
}

/* Whether link direction mu is smeared, and with staples in the plane (mu, nu). */
static int smeared(const stout_chain *c, int mu) { return !c->spatial || mu != 0; }
static int in_plane(const stout_chain *c, int mu, int nu) {
  return nu != mu && smeared(c, mu) && (!c->spatial || nu != 0);
}

stout_chain *stout_chain_new(int steps, double rho, int spatial) {
  hr_assert(steps >= 0 && rho >= 0, "stout_chain_new: steps %d, rho %g", steps, rho);
  stout_chain *c = calloc(1, sizeof *c);
  hr_assert(c != NULL, "stout_chain_new: out of memory");
  c->steps = steps;
  c->rho = rho;
  c->spatial = spatial;
  c->links = alloc_suNg_field(steps + 1, &glattice);
  return c;
}

void stout_chain_free(stout_chain *c) {
  if (c == NULL) return;
  free_suNg_field(c->links);
  free_suNg_av_field(c->work);
  free(c);
}

/* Staple sum C and exponent A of link (ix, mu) on the links v. */
static void link_exponent(suNg *C, suNg *A, const stout_chain *c, const gauge_view *v, int ix,
                          int mu) {
  suNg u;
  suNg_zero(C);
  for (int nu = 0; nu < 4; nu++)
    if (in_plane(c, mu, nu)) smear_add_staple(C, v, ix, mu, nu);
  gauge_view_link(&u, v, ix, mu);
  smear_stout_exponent(A, C, &u, c->rho);
}

/* out = one stout step of in (master links; halo exchanged). */
static void stout_step(suNg_field *out, const suNg_field *in, const stout_chain *c) {
  const gauge_view v = gauge_view_of_host(sync_host_suNg_field(in), NULL);
  suNg *o = host_write_suNg_field(out);
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      suNg u;
      gauge_view_link(&u, &v, ix, mu);
      if (!smeared(c, mu)) {
        o[4 * (ix - sh) + mu] = u;
        continue;
      }
      suNg C, A, e;
      link_exponent(&C, &A, c, &v, ix, mu);
      suNg_exp_matrix(&e, &A);
      suNg_mul(&o[4 * (ix - sh) + mu], &e, &u);
    }
  }
  sendrecv_suNg_field(out);
}

const suNg_field *stout_chain_links(stout_chain *c, const suNg_field *u) {
  if (c->src == u && c->version == u->version) return &c->links[c->steps];
  copy_suNg_field(&c->links[0], u);
  for (int l = 0; l < c->steps; l++) stout_step(&c->links[l + 1], &c->links[l], c);
  c->src = u;
  c->version = u->version;
  return &c->links[c->steps];
}

void stout_exp_derivative(suNg *X, suNg *expA, const suNg *A, const suNg *E) {
  /* scaling: |A / 2^s| <= 1/2 (Frobenius norm) */
  int s = 0;
  double scale = 1;
  for (double norm = sqrt(suNg_sqnorm(A)); norm * scale > 0.5 && s < 1100; s++) scale *= 0.5;
  suNg As, Es, P, Q, t1, t2;
  suNg_scale(&As, scale, A);
  suNg_scale(&Es, scale, E);
  /* Taylor: P_k = As^k / k!, Q_k = d(As^k)[Es] / k! = (Q_{k-1} As + P_{k-1} Es) / k */
  suNg_unit(&P);
  suNg_zero(&Q);
  suNg_unit(expA);
  suNg_zero(X);
  for (int k = 1; k <= 20; k++) {
    suNg_mul(&t1, &Q, &As);
    suNg_mul(&t2, &P, &Es);
    suNg_add(&t1, &t1, &t2);
    suNg_scale(&Q, 1.0 / k, &t1);
    suNg_mul(&t1, &P, &As);
    suNg_scale(&P, 1.0 / k, &t1);
    suNg_add(expA, expA, &P);
    suNg_add(X, X, &Q);
  }
  /* squaring: exp(2B) = exp(B)^2, its derivative L exp(B) + exp(B) L */
  for (int i = 0; i < s; i++) {
    suNg_mul(&t1, X, expA);
    suNg_mul(&t2, expA, X);
    suNg_add(X, &t1, &t2);
    suNg_mul(&t1, expA, expA);
    *expA = t1;
  }
}

/* out = the traceless antihermitian part of X. */
static void traceless_antihermitian(suNg *out, const suNg *X) {
  suNg d;
  suNg_dagger(&d, X);
  suNg_sub(out, X, &d);
  suNg_scale(out, 0.5, out);
  const hr_complex tr = suNg_trace(out) / (double)NG;
  for (int i = 0; i < NG; i++) out->c[i * NG + i] -= tr;
}

/* One step back: sigma (on the links u of level l) from sigma_s (on level l + 1); m is work
 * space (M = rho U^+ Gamma of every link). */
static void force_step(suNg_field *sigma, const suNg_field *sigma_s, suNg_field *m,
                       const suNg_field *u, const stout_chain *c) {
  const gauge_view v = gauge_view_of_host(sync_host_suNg_field(u), NULL);
  const suNg *ss = sync_host_suNg_field(sigma_s);
  suNg *so = host_write_suNg_field(sigma);
  suNg *mo = host_write_suNg_field(m);
  const int sh = glattice.master_shift;
  /* the link's own terms: Sigma' exp(A) - rho C^+ Gamma, and M = rho U^+ Gamma */
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      const size_t k = 4 * (size_t)(ix - sh) + (size_t)mu;
      if (!smeared(c, mu)) {
        so[k] = ss[k];
        suNg_zero(&mo[k]);
        continue;
      }
      suNg C, A, U, E, us, lam, gam, t;
      link_exponent(&C, &A, c, &v, ix, mu);
      gauge_view_link(&U, &v, ix, mu);
      suNg_mul(&us, &U, &ss[k]);
      stout_exp_derivative(&lam, &E, &A, &us);
      traceless_antihermitian(&gam, &lam);
      suNg_mul(&so[k], &ss[k], &E);
      suNg_dag_mul(&t, &C, &gam);
      suNg_mul_add(&so[k], &so[k], -c->rho, &t);
      suNg_dag_mul(&t, &U, &gam);
      suNg_scale(&mo[k], c->rho, &t);
    }
  }
  sendrecv_suNg_field(m);
  const gauge_view mv = gauge_view_of_host(sync_host_suNg_field(m), NULL);
  /* the staple terms: every smeared link (x, mu) whose staple in the plane (mu, lambda) holds
   * the target link (y, lambda) gives Re tr[M_mu(x) dC] a term */
  _OMP_MASTER_FOR(&glattice, y) {
    for (int lam = 0; lam < 4; lam++) {
      suNg acc, a, b, mm, t1, t2;
      suNg_zero(&acc);
      const int ypl = gauge_view_up(&v, y, lam);
      for (int mu = 0; mu < 4; mu++) {
        if (mu == lam) continue;
        const int ypm = gauge_view_up(&v, y, mu), ymm = gauge_view_dn(&v, y, mu);
        const int ymm_pl = gauge_view_up(&v, ymm, lam), ypl_mm = gauge_view_dn(&v, ypl, mu);
        if (in_plane(c, mu, lam)) {
          /* (i) upper staple of (y, mu), first link: U_mu(y+l) U_l(y+mu)^+ M_mu(y) */
          gauge_view_link(&a, &v, ypl, mu);
          gauge_view_link(&b, &v, ypm, lam);
          gauge_view_link(&mm, &mv, y, mu);
          suNg_mul_dag(&t1, &a, &b);
          suNg_mul(&t2, &t1, &mm);
          suNg_add(&acc, &acc, &t2);
          /* (iii) upper staple of (y-mu, mu), last link: U_mu(y-mu+l)^+ U_l(y-mu)^+ M_mu(y-mu)^+ */
          gauge_view_link(&a, &v, ymm, lam);
          gauge_view_link(&b, &v, ymm_pl, mu);
          gauge_view_link(&mm, &mv, ymm, mu);
          suNg_mul(&t1, &a, &b);     /* U_l(y-mu) U_mu(y-mu+l) */
          suNg_mul(&t2, &mm, &t1);   /* M U_l U_mu */
          suNg_dagger(&t1, &t2);
          suNg_add(&acc, &acc, &t1);
          /* (iv) lower staple of (y+l, mu), first link: M_mu(y+l)^+ U_l(y+mu)^+ U_mu(y)^+ */
          gauge_view_link(&a, &v, y, mu);
          gauge_view_link(&b, &v, ypm, lam);
          gauge_view_link(&mm, &mv, ypl, mu);
          suNg_mul(&t1, &a, &b);     /* U_mu(y) U_l(y+mu) */
          suNg_mul(&t2, &t1, &mm);   /* U_mu U_l M */
          suNg_dagger(&t1, &t2);
          suNg_add(&acc, &acc, &t1);
          /* (vi) lower staple of (y+l-mu, mu), last link: M_mu(y+l-mu) U_l(y-mu)^+ U_mu(y-mu) */
          gauge_view_link(&a, &v, ymm, lam);
          gauge_view_link(&b, &v, ymm, mu);
          gauge_view_link(&mm, &mv, ypl_mm, mu);
          suNg_dag_mul(&t1, &a, &b);
          suNg_mul(&t2, &mm, &t1);
          suNg_add(&acc, &acc, &t2);
        }
        if (in_plane(c, lam, mu)) {
          const int nu = mu; /* the staple direction of the smeared link (., lam) */
          const int ymn = ymm, ypn = ypm, ymn_pl = ymm_pl;
          /* (ii) upper staple of (y-nu, l), middle link: U_nu(y-nu+l)^+ M_l(y-nu) U_nu(y-nu) */
          gauge_view_link(&a, &v, ymn_pl, nu);
          gauge_view_link(&b, &v, ymn, nu);
          gauge_view_link(&mm, &mv, ymn, lam);
          suNg_dag_mul(&t1, &a, &mm);
          suNg_mul(&t2, &t1, &b);
          suNg_add(&acc, &acc, &t2);
          /* (v) lower staple of (y+nu, l), middle link: U_nu(y+l) M_l(y+nu) U_nu(y)^+ */
          gauge_view_link(&a, &v, ypl, nu);
          gauge_view_link(&b, &v, y, nu);
          gauge_view_link(&mm, &mv, ypn, lam);
          suNg_mul(&t1, &a, &mm);
          suNg_mul_dag(&t2, &t1, &b);
          suNg_add(&acc, &acc, &t2);
        }
      }
      suNg *s = &so[4 * (size_t)(y - sh) + (size_t)lam];
      suNg_add(s, s, &acc);
    }
  }
}

void stout_chain_force(suNg_av_field *f, const suNg_av_field *f_smeared, stout_chain *c) {
  hr_assert(c->src != NULL, "stout_chain_force: build the smeared links first (stout_chain_links)");
  suNg_field *w = alloc_suNg_field(3, &glattice); /* Sigma (two levels) and M */
  const int sh = glattice.master_shift;
  /* Sigma' = V^+ (-2 i F^b T^b) on the smeared links V: Re tr[i T^a V Sigma'] = F^a */
  {
    const suNg_algebra_vector *fs = sync_host_suNg_av_field(f_smeared);
    const suNg *vl = sync_host_suNg_field(&c->links[c->steps]);
    suNg *so = host_write_suNg_field(&w[c->steps % 2]);
    _OMP_MASTER_FOR(&glattice, ix) {
      for (int mu = 0; mu < 4; mu++) {
        const size_t k = 4 * (size_t)(ix - sh) + (size_t)mu;
        suNg x, t;
        suNg_algebra_vector_to_matrix(&x, &fs[k]);
        suNg_dag_mul(&t, &vl[k], &x);
        suNg_scale(&so[k], -2.0, &t);
      }
    }
  }
  for (int l = c->steps - 1; l >= 0; l--)
    force_step(&w[l % 2], &w[(l + 1) % 2], &w[2], &c->links[l], c);
  /* F^a = Re tr[i T^a U Sigma] = -Im tr[T^a U Sigma] = -(1/2) (2 Im tr[T^a U Sigma]) */
  {
    const suNg *so = sync_host_suNg_field(&w[0]);
    const suNg *ul = sync_host_suNg_field(&c->links[0]);
    suNg_algebra_vector *fo = host_write_suNg_av_field(f);
    _OMP_MASTER_FOR(&glattice, ix) {
      for (int mu = 0; mu < 4; mu++) {
        const size_t k = 4 * (size_t)(ix - sh) + (size_t)mu;
        suNg t;
        suNg_algebra_vector v;
        suNg_mul(&t, &ul[k], &so[k]);
        suNg_project_to_algebra(&v, &t);
        suNg_algebra_vector_scale(&fo[k], -0.5, &v);
      }
    }
  }
  free_suNg_field(w);
}

/* ------------------------------------------------------------------ the smeared monomial */

/* What a smeared monomial keeps: the monomial on the smeared links and the chain. */
typedef struct {
  hmc_monomial *inner;
  stout_chain *chain;
  char name[64];
} stout_monomial;

static double stout_mon_heatbath(hmc_monomial *m, const suNg_field *u) {
  stout_monomial *s = m->ctx;
  return s->inner->heatbath(s->inner, stout_chain_links(s->chain, u));
}

static double stout_mon_action(hmc_monomial *m, const suNg_field *u) {
  stout_monomial *s = m->ctx;
  return s->inner->action(s->inner, stout_chain_links(s->chain, u));
}

/* p -= eps F: the inner force F' on the smeared links (p = 0, eps = -1 gives F'), carried to
 * the thin links through the chain. */
static void stout_mon_force(hmc_monomial *m, const suNg_field *u, suNg_av_field *p, double eps) {
  stout_monomial *s = m->ctx;
  stout_chain *c = s->chain;
  if (c->work == NULL) c->work = alloc_suNg_av_field(1, &glattice);
  zero_suNg_av_field(c->work);
  s->inner->force_update(s->inner, stout_chain_links(c, u), c->work, -1.0);
  stout_chain_force(c->work, c->work, c);
  mul_add_assign_suNg_av_field(p, -eps, c->work);
}

static void stout_mon_stats(hmc_monomial *m, hmc_solver_stats *st) {
  stout_monomial *s = m->ctx;
  if (s->inner->solver_stats != NULL) s->inner->solver_stats(s->inner, st);
}

static void stout_mon_free(hmc_monomial *m) {
  stout_monomial *s = m->ctx;
  if (s->inner->free != NULL) s->inner->free(s->inner);
  stout_chain_free(s->chain);
  free(s);
  free(m);
}

hmc_monomial *hmc_monomial_stout(hmc_monomial *inner, const stout_params *p) {
  if (p->steps == 0) return inner;
  stout_monomial *s = calloc(1, sizeof *s);
  hmc_monomial *m = calloc(1, sizeof *m);
  if (s == NULL || m == NULL) hr_error("out of memory for a smeared monomial");
  s->inner = inner;
  s->chain = stout_chain_new(p->steps, p->rho, p->spatial);
  snprintf(s->name, sizeof s->name, "%s (stout)", inner->name);
  m->name = s->name;
  m->level = inner->level;
  m->ctx = s;
  m->heatbath = stout_mon_heatbath;
  m->action = stout_mon_action;
  m->force_update = stout_mon_force;
  m->solver_stats = inner->solver_stats != NULL ? stout_mon_stats : NULL;
  m->free = stout_mon_free;
  return m;
}
