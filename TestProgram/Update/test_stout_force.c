/* test_stout_force.c -- the stout-smearing chain of stout_force.h against independent truths,
 * on the process grid of the arguments (NP_T NP_X NP_Y NP_Z), in any theory:
 *  - the derivative of exp: stout_exp_derivative equals the central difference of exp(A + tE)
 *    (Richardson-extrapolated) to 1e-9 for random antihermitian A and complex E;
 *  - the smeared links of an isotropic chain equal smear_gauge_field (stout) bit for bit, and
 *    stay in SU(N): |V V^+ - 1| and |det V - 1| below 1e-13 after 3 steps of rho = 0.15;
 *  - force = derivative: for S = sum Re tr[W(x,mu) V(x,mu)] (W fixed random matrices, V the
 *    smeared links) and a random algebra field X, d/dt S[exp(t X) U] at t = 0 by
 *    Richardson-extrapolated central differences equals sum X^a F^a with F from
 *    stout_chain_force, to 1e-7 relative, for rho = 0.05 and 0.15, 1 and 3 steps, isotropic
 *    and spatial smearing; with spatial smearing the time links are not smeared;
 *  - the chain is rebuilt only when the gauge field's version changes;
 *  - the hmc and rhmc (nf = 1) monomials on 3 stout steps of rho = 0.15 (hmc_monomial_stout,
 *    clover csw = 1.2): the force equals the Richardson-extrapolated derivative of the action
 *    along a random direction to 1e-6 relative (solves to 1e-14). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test_cases.h"
#include "links_exp_update.h"
#include "communications.h"
#include "fields.h"
#include "geometry.h"
#include "heatbath.h"
#include "linear_algebra.h"
#include "hmc.h"
#include "random.h"
#include "rhmc_monomial.h"
#include "random_fields.h"
#include "smearing.h"
#include "stout_force.h"
#include "suN.h"
#include "suN_random.h"

/* A random complex matrix with entries in (-1, 1) + i (-1, 1) keyed by global link. */
static void random_matrix(suNg *w, uint64_t seed, long long site, int mu) {
  hr_rng_stream s;
  rng_stream_init(&s, seed, (uint64_t)mu, (uint64_t)site);
  for (int i = 0; i < NG * NG; i++) {
    const double re = 2 * rng_uniform(&s) - 1, im = 2 * rng_uniform(&s) - 1;
    w->c[i] = hr_cmplx(re, im);
  }
}

/* *v = the smallest of *v over all processes (0 or 1 flags). */
static void global_min_int_(int *v, int n) {
  for (int i = 0; i < n; i++) {
    double d = v[i];
    global_min(&d, 1);
    v[i] = (int)d;
  }
}

/* S = sum Re tr[W V] over all links and processes. */
static double functional(const suNg_field *W, const suNg_field *V) {
  const suNg *w = sync_host_suNg_field(W), *v = sync_host_suNg_field(V);
  const int sh = glattice.master_shift;
  double s = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      suNg t;
      suNg_mul(&t, &w[4 * (ix - sh) + mu], &v[4 * (ix - sh) + mu]);
      s += suNg_re_trace(&t);
    }
  }
  global_sum(&s, 1);
  return s;
}

/* The derivative of exp against differences. */
static void exp_derivative(void) {
  hr_rng_stream s;
  rng_stream_init(&s, 99, 0, 0);
  for (int trial = 0; trial < 20; trial++) {
    suNg_algebra_vector v;
    for (int a = 0; a < NG * NG - 1; a++)
      v.c[a] = (trial % 2 ? 2.5 : 0.4) * (2 * rng_uniform(&s) - 1);
    suNg A, E, X, expA, ep, em;
    suNg_algebra_vector_to_matrix(&A, &v);
    for (int i = 0; i < NG * NG; i++)
      E.c[i] = hr_cmplx(2 * rng_uniform(&s) - 1, 2 * rng_uniform(&s) - 1);
    stout_exp_derivative(&X, &expA, &A, &E);
    double D[2][2 * NG * NG];
    for (int k = 0; k < 2; k++) {
      const double h = 1e-3 / (1 << k);
      suNg Ap, Am;
      suNg_mul_add(&Ap, &A, h, &E);
      suNg_mul_add(&Am, &A, -h, &E);
      suNg_exp_matrix(&ep, &Ap);
      suNg_exp_matrix(&em, &Am);
      for (int i = 0; i < NG * NG; i++) {
        D[k][2 * i] = hr_creal(ep.c[i] - em.c[i]) / (2 * h);
        D[k][2 * i + 1] = hr_cimag(ep.c[i] - em.c[i]) / (2 * h);
      }
    }
    double err = 0, size = 0;
    for (int i = 0; i < NG * NG; i++) {
      const double re = (4 * D[1][2 * i] - D[0][2 * i]) / 3,
                   im = (4 * D[1][2 * i + 1] - D[0][2 * i + 1]) / 3;
      err = fmax(err, hr_cabs(X.c[i] - hr_cmplx(re, im)));
      size = fmax(size, hr_cabs(X.c[i]));
    }
    suNg e;
    suNg_exp_matrix(&e, &A);
    double eerr = 0;
    for (int i = 0; i < NG * NG; i++) eerr = fmax(eerr, hr_cabs(e.c[i] - expA.c[i]));
    CHECK(err < 1e-9 * size, "trial %d: derivative of exp off the differences by %g (size %g)",
          trial, err, size);
    CHECK(eerr < 1e-13, "trial %d: exp(A) by-product off suNg_exp_matrix by %g", trial, eerr);
  }
  tc_case_end("derivative of exp = Richardson-extrapolated differences (20 random A, E)");
}

/* Smeared links: equal to smear_gauge_field, and in SU(N). */
static void smeared_links(void) {
  suNg_field *u = alloc_suNg_field(2, &glattice);
  rng_init(4321);
  gauge_field_hot(&u[0]);
  stout_chain *c = stout_chain_new(3, 0.15, 0);
  const suNg_field *v = stout_chain_links(c, &u[0]);
  smear_params p = {SMEAR_STOUT, 3, 0, 0.15, {0, 0, 0}};
  smear_gauge_field(&u[1], &u[0], &p);
  const suNg *a = sync_host_suNg_field(v), *b = sync_host_suNg_field(&u[1]);
  const int sh = glattice.master_shift;
  int same = 1;
  double unit = 0, det = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      const suNg *x = &a[4 * (ix - sh) + mu];
      same &= memcmp(x, &b[4 * (ix - sh) + mu], sizeof *x) == 0;
      suNg t;
      suNg_mul_dag(&t, x, x);
      for (int i = 0; i < NG; i++) t.c[i * NG + i] -= 1;
      unit = fmax(unit, sqrt(suNg_sqnorm(&t)));
      det = fmax(det, hr_cabs(suNg_det(x) - 1));
    }
  }
  global_max(&unit, 1);
  global_max(&det, 1);
  int all_same = same;
  global_min_int_(&all_same, 1);
  CHECK(all_same, "the chain's links differ from smear_gauge_field (stout)");
  CHECK(unit < 1e-13 && det < 1e-13, "smeared links leave SU(N): |VV^+ - 1| %g, |det V - 1| %g",
        unit, det);
  /* rebuilt only on a new version */
  const unsigned long built = c->version;
  const suNg_field *v2 = stout_chain_links(c, &u[0]);
  CHECK(v2 == v && c->version == built, "the chain was rebuilt for an unchanged field");
  host_write_suNg_field(&u[0]);
  stout_chain_links(c, &u[0]);
  CHECK(c->version == u[0].version && c->version != built, "the chain did not follow the field");
  stout_chain_free(c);
  free_suNg_field(u);
  tc_case_end("smeared links = smear_gauge_field (bitwise), in SU(N), follow the version");
}

/* Force through the chain against the derivative of S = sum Re tr[W V]. */
static void force_vs_derivative(int steps, double rho, int spatial) {
  suNg_field *u = alloc_suNg_field(2, &glattice), *W = alloc_suNg_field(1, &glattice);
  suNg_av_field *X = alloc_suNg_av_field(2, &glattice);
  rng_init(777 + (uint64_t)steps);
  gauge_field_hot(&u[0]);
  gaussian_momenta(&X[0]);
  links_exp_update(&u[0], &X[0], 0.0);
  suNg *w = host_write_suNg_field(W);
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      random_matrix(&w[4 * (ix - sh) + mu], 55, global_site_index(ix), mu);
  }
  stout_chain *c = stout_chain_new(steps, rho, spatial);
  /* F' on the smeared links V: F'^a = Re tr[i T^a V W] (dS = Re tr[W dV]) */
  const suNg *v = sync_host_suNg_field(stout_chain_links(c, &u[0]));
  suNg_algebra_vector *fs = host_write_suNg_av_field(&X[1]);
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      suNg t;
      suNg_algebra_vector p;
      suNg_mul(&t, &v[4 * (ix - sh) + mu], &w[4 * (ix - sh) + mu]);
      suNg_project_to_algebra(&p, &t); /* 2 Im tr[T^a V W] */
      suNg_algebra_vector_scale(&fs[4 * (ix - sh) + mu], -0.5, &p);
    }
  }
  stout_chain_force(&X[1], &X[1], c);
  rng_init(31);
  gaussian_momenta(&X[0]);
  double D[2];
  for (int k = 0; k < 2; k++) {
    const double h = 1e-3 / (1 << k);
    copy_suNg_field(&u[1], &u[0]);
    links_exp_update(&u[1], &X[0], h);
    const double sp = functional(W, stout_chain_links(c, &u[1]));
    copy_suNg_field(&u[1], &u[0]);
    links_exp_update(&u[1], &X[0], -h);
    const double sm = functional(W, stout_chain_links(c, &u[1]));
    D[k] = (sp - sm) / (2 * h);
  }
  const double fd = (4 * D[1] - D[0]) / 3, an = prod_re_suNg_av_field(&X[0], &X[1]);
  const double rel = fabs(fd - an) / fabs(an);
  if (hr_rank() == 0)
    printf("  %d step(s), rho %.2f, %s: dS/dt = %.12e (differences), %.12e (force), rel. %.1e\n",
           steps, rho, spatial ? "spatial" : "isotropic", fd, an, rel);
  CHECK(rel < 1e-7, "%d steps rho %g %s: differences %.12e, force %.12e", steps, rho,
        spatial ? "spatial" : "isotropic", fd, an);
  if (spatial) { /* time links are not smeared: V_0 = U_0 */
    const suNg *a = sync_host_suNg_field(stout_chain_links(c, &u[0])),
               *b = sync_host_suNg_field(&u[0]);
    int same = 1;
    _MASTER_FOR(&glattice, ix) {
      same &= memcmp(&a[4 * (ix - sh)], &b[4 * (ix - sh)], sizeof(suNg)) == 0;
    }
    global_min_int_(&same, 1);
    CHECK(same, "spatial smearing changed a time link");
  }
  char name[160];
  snprintf(name, sizeof name, "force through %d stout step(s), rho %.2f, %s = derivative", steps,
           rho, spatial ? "spatial" : "isotropic");
  tc_case_end(name);
  stout_chain_free(c);
  free_suNg_av_field(X);
  free_suNg_field(W);
  free_suNg_field(u);
}

/* A smeared fermion monomial: force against the derivative of its action. */
static void smeared_monomial(int rhmc) {
  suNg_field *u = alloc_suNg_field(2, &glattice);
  suNg_av_field *X = alloc_suNg_av_field(2, &glattice);
  rng_init(2024);
  gauge_field_cold(&u[0]);
  gaussian_momenta(&X[0]);
  links_exp_update(&u[0], &X[0], 0.3);
  stout_params smear = {.steps = 3, .rho = 0.15, .spatial = 0};
  hmc_monomial_params fp;
  hmc_monomial_params_init(&fp, rhmc ? "rhmc" : "hmc");
  fp.mass = 0.3;
  fp.csw = 1.2;
  fp.force_prec = 1e-14;
  if (rhmc) {
    fp.nf = 1;
    fp.lmin = 1e-2;
    fp.lmax = 40;
    fp.degree = 16;
    fp.precision = 0;
    fp.meas_freq = 0;
  }
  hmc_monomial *m = hmc_monomial_stout(hmc_monomial_new(&fp), &smear);
  m->heatbath(m, &u[0]);
  zero_suNg_av_field(&X[1]);
  m->force_update(m, &u[0], &X[1], -1.0); /* X[1] = F */
  rng_init(91);
  gaussian_momenta(&X[0]);
  double D[2];
  for (int k = 0; k < 2; k++) {
    const double h = 2e-3 / (1 << k);
    copy_suNg_field(&u[1], &u[0]);
    links_exp_update(&u[1], &X[0], h);
    const double sp = m->action(m, &u[1]);
    copy_suNg_field(&u[1], &u[0]);
    links_exp_update(&u[1], &X[0], -h);
    const double sm = m->action(m, &u[1]);
    D[k] = (sp - sm) / (2 * h);
  }
  const double fd = (4 * D[1] - D[0]) / 3, an = prod_re_suNg_av_field(&X[0], &X[1]);
  const double rel = fabs(fd - an) / fabs(an);
  if (hr_rank() == 0)
    printf("  %s: dS/dt = %.12e (differences), %.12e (force), rel. %.1e\n", m->name, fd,
           an, rel);
  CHECK(rel < 1e-6, "%s: differences %.12e, force %.12e", m->name, fd, an);
  char name[160];
  snprintf(name, sizeof name, "%s on 3 stout steps rho 0.15: force = derivative of the action",
           rhmc ? "rhmc nf=1" : "hmc");
  tc_case_end(name);
  m->free(m);
  free_suNg_av_field(X);
  free_suNg_field(u);
}

int main(int argc, char **argv) {
  int np[4] = {1, 1, 1, 1};
  tc_start(&argc, &argv);
  if (argc >= 5)
    for (int mu = 0; mu < 4; ++mu) np[mu] = atoi(argv[1 + mu]);
  geometry_params p;
  geometry_params_default(&p);
  const int glb[4] = {4, 4, 4, 4};
  for (int mu = 0; mu < 4; ++mu) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
  }
  if (!tc_geometry_init(&p, "test_stout_force")) return tc_finish("test_stout_force");
  exp_derivative();
  smeared_links();
  force_vs_derivative(1, 0.05, 0);
  force_vs_derivative(3, 0.15, 0);
  force_vs_derivative(3, 0.15, 1);
  smeared_monomial(0);
#if HR_WITH_MPFR
  smeared_monomial(1);
#endif
  return tc_finish("test_stout_force");
}
