/* test_fermion_force.c -- tests of the fermion monomials hmc and hasenbusch
 * (fermion_monomials.h) in the theory of the build, on a warm random 4^4 configuration with a
 * twisted antiperiodic boundary (and with csw != 0 also an open boundary in time), csw = 0 and
 * csw != 0:
 *   - force: for fixed phi, the derivative of the action along a random algebra direction X
 *     (Gaussian plus a multiple of the force of the same norm, so that sum X^a F^a is never
 *     accidentally small; U -> exp(t X) U, md_update_links), from central differences at two
 *     steps combined by Richardson extrapolation, equals sum X^a F^a (force_update with
 *     p = 0, eps = -1) to 1e-6 relative;
 *   - heatbath: the returned action (eta^+ eta + determinant terms) equals the action
 *     recomputed from phi;
 *   - action: equal to an independent evaluation (cg_solve on Q^2, clover_logdet);
 *   - hasenbusch with dm = 0: action phi^+ phi and zero force;
 *   - the pair hasenbusch(m, dm) + hmc(m + dm): their determinant terms add up to those of
 *     hmc(m), and the force of the stack is the derivative of the summed action;
 *   - chrono: a force with the chronological guess equals the force without, to force_prec;
 *   - GPU builds: the GPU path of the force equals the CPU loops, piece by piece (add_eo,
 *     add_logdet, apply on random spinors: the same bits expected, checked to 1e-12) and for
 *     whole force updates of hmc and hasenbusch (csw = 0 and != 0; 1e-12 relative), and a
 *     force update on the GPU path leaves the momenta, the links and phi current on the device
 *     only (no field was copied to the host).
 * With --print the program prints the actions and force contractions (for the comparison of
 * process grids by test_fermion_force.sh). Usage: test_fermion_force [NP_T NP_X NP_Y NP_Z]
 * [--print]. */
#include <math.h>
#include <string.h>

#include "../test_cases.h"
#include "clover.h"
#include "dirac.h"
#include "fermion_monomials.h"
#include "gpu.h"
#include "heatbath.h"
#include "inverters.h"
#include "linear_algebra.h"
#include "md.h"
#include "random.h"
#include "random_fields.h"

static const double M0 = 0.1, DM = 0.3, CSW = 1.3;
static int print_values = 0;
/* 1: open boundary in time (links crossing it vanish) instead of antiperiodic */
static int open_time = 0;

/* Print "value NAME V" for test_fermion_force.sh (blanks of NAME printed as '_'). */
static void print_value(const char *name, double v) {
  if (!print_values || hr_rank() != 0) return;
  printf("value ");
  for (const char *c = name; *c; c++) putchar(*c == ' ' ? '_' : *c);
  printf(" %.17e\n", v);
}

/* sum over all links of sum_a (p^a - q^a)^2 */
static double sqdist(const suNg_av_field *p, const suNg_av_field *q) {
  const suNg_algebra_vector *a = sync_host_suNg_av_field(p), *b = sync_host_suNg_av_field(q);
  const int sh = glattice.master_shift;
  double s = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      for (int k = 0; k < NG * NG - 1; k++) {
        const double d = a[4 * (ix - sh) + mu].c[k] - b[4 * (ix - sh) + mu].c[k];
        s += d * d;
      }
  }
  global_sum(&s, 1);
  return s;
}

/* x += c p on every link */
static void add_scaled(suNg_av_field *x, double c, const suNg_av_field *p) {
  const suNg_algebra_vector *b = sync_host_suNg_av_field(p);
  suNg_algebra_vector *a = host_write_suNg_av_field(x);
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      for (int k = 0; k < NG * NG - 1; k++)
        a[4 * (ix - sh) + mu].c[k] += c * b[4 * (ix - sh) + mu].c[k];
  }
}

/* Solver iterations of m since its last heatbath. */
static long iterations_of(hmc_monomial *m) {
  hmc_solver_stats st;
  m->solver_stats(m, &st);
  return st.iterations;
}

/* A random direction X = R + (|R| / |F|) F (R Gaussian, F the force of ms in p): random, but
 * never almost orthogonal to the force, so that sum X^a F^a is not an accidentally small
 * difference and the relative check is meaningful. */
static void random_direction(hmc_monomial **ms, int n, const suNg_field *u,
                             suNg_av_field *x, suNg_av_field *p) {
  gaussian_momenta(x);
  zero_suNg_av_field(p);
  for (int i = 0; i < n; i++) ms[i]->force_update(ms[i], u, p, -1.0);
  add_scaled(x, sqrt(prod_re_suNg_av_field(x, x) / prod_re_suNg_av_field(p, p)), p);
}

/* Action of the monomials ms[0..n-1] at exp(t X) u (ut: work links). */
static double action_at(hmc_monomial **ms, int n, const suNg_field *u, suNg_field *ut,
                        const suNg_av_field *x, double t) {
  copy_suNg_field(ut, u);
  md_update_links(ut, x, t);
  double s = 0;
  for (int i = 0; i < n; i++) s += ms[i]->action(ms[i], ut);
  return s;
}

/* The derivative along X from finite differences: Richardson of the central differences at
 * steps h and h/2. */
static double fd_derivative(hmc_monomial **ms, int n, const suNg_field *u, suNg_field *ut,
                            const suNg_av_field *x) {
  const double h = 2e-3;
  const double d1 = (action_at(ms, n, u, ut, x, h) - action_at(ms, n, u, ut, x, -h)) / (2 * h);
  const double d2 =
      (action_at(ms, n, u, ut, x, h / 2) - action_at(ms, n, u, ut, x, -h / 2)) / h;
  return (4 * d2 - d1) / 3;
}

/* sum X^a F^a of the monomials ms[0..n-1] (F summed into p from zero). */
static double force_contraction(hmc_monomial **ms, int n, const suNg_field *u,
                                const suNg_av_field *x, suNg_av_field *p) {
  zero_suNg_av_field(p);
  for (int i = 0; i < n; i++) ms[i]->force_update(ms[i], u, p, -1.0);
  return prod_re_suNg_av_field(x, p);
}

/* A monomial of the kind named `kind` ("hmc", "hasenbusch") on the test's boundaries. */
static hmc_monomial *make(const char *kind, double m0, double dm, double csw) {
  hmc_monomial_params p;
  hmc_monomial_params_init(&p, kind);
  p.mass = m0;
  p.dm = dm;
  p.csw = csw;
  p.bc.theta[1] = 0.3; /* complex boundary phases in x */
  if (open_time) p.bc.kind[0] = HR_BC_OPEN;
  p.mt_prec = 1e-14;
  p.force_prec = 1e-14;
  return hmc_monomial_new(&p);
}

/* |Q1^-1 Q2 phi|^2 (hasenbusch) or phi^+ Q^-2 phi (hmc) with cg_solve, plus the clover
 * determinant terms from clover_logdet: the action computed independently. */
static double independent_action(const hmc_monomial *hm, const suNg_field *u) {
  const fermion_monomial *m = hm->ctx;
  const hmc_monomial_params *p = &m->par;
  dirac_op D1 = dirac_op_make(u, p->mass, p->csw, &p->bc);
  dirac_op D2 = dirac_op_make(u, p->mass + p->dm, p->csw, &p->bc);
  spinor_field *w = alloc_spinor_field(2, &glat_even);
  const spinor_field *psi = m->phi;
  if (m->hasenbusch) {
    g5Dphi_eopre(&w[1], &D2, m->phi);
    psi = &w[1];
  }
  hr_linear_operator A = dirac_linear_operator(&D1, DIRAC_FORM_QEO2);
  hr_solver_params sp;
  solver_params_default(&sp);
  sp.tol = 1e-14;
  sp.max_iter = 100000;
  hr_solver_result res;
  cg_solve(&w[0], &A, psi, &sp, &res);
  double s = prod_re_spinor_field(psi, &w[0]);
  if (p->csw != 0) {
    s -= 2 * clover_logdet(&D1, HR_PARITY_ODD);
    if (m->hasenbusch) s += 2 * clover_logdet(&D2, HR_PARITY_ODD);
  }
  free_spinor_field(w);
  return s;
}

static void check_monomial(const char *kind, double csw, const suNg_field *u, suNg_field *ut,
                           suNg_av_field *x, suNg_av_field *p) {
  char name[128];
  snprintf(name, sizeof name, "%s csw=%g%s", kind, csw, open_time ? " open-t" : "");
  hmc_monomial *m = make(kind, M0, DM, csw);
  const double s_hb = m->heatbath(m, u);
  const double s = m->action(m, u);
  const double s_ind = independent_action(m, u);
  CHECK(fabs(s - s_hb) <= 1e-10 * fabs(s), "%s: heatbath action %.15e, recomputed %.15e", name,
        s_hb, s);
  CHECK(fabs(s - s_ind) <= 1e-10 * fabs(s), "%s: action %.15e, independent %.15e", name, s,
        s_ind);
  random_direction(&m, 1, u, x, p);
  const double f = force_contraction(&m, 1, u, x, p);
  const double fd = fd_derivative(&m, 1, u, ut, x);
  const double rel = fabs(f - fd) / fabs(fd);
  CHECK(rel <= 1e-6, "%s: force . X = %.15e, finite differences %.15e (rel. %.2e)", name, f, fd,
        rel);
  if (hr_rank() == 0)
    printf("  %s: S = %.10e, force . X = %.12e, finite differences %.12e, rel. %.2e\n", name, s,
           f, fd, rel);
  char vn[160];
  snprintf(vn, sizeof vn, "action[%s]", name);
  print_value(vn, s);
  snprintf(vn, sizeof vn, "force[%s]", name);
  print_value(vn, f);
  m->free(m);
  tc_case_end(name);
}

/* hasenbusch with dm = 0: S = phi^+ phi and F = 0. */
static void check_hasenbusch_zero(double csw, const suNg_field *u, suNg_av_field *x,
                                  suNg_av_field *p) {
  hmc_monomial *h = make("hasenbusch", M0, 0, csw);
  hmc_monomial *q = make("hmc", M0, 0, csw);
  h->heatbath(h, u);
  const fermion_monomial *hf = h->ctx;
  const double s = h->action(h, u), n2 = sqnorm_spinor_field(hf->phi);
  CHECK(fabs(s - n2) <= 1e-10 * n2, "dm = 0: action %.15e, phi^+ phi %.15e", s, n2);
  gaussian_momenta(x);
  zero_suNg_av_field(p);
  h->force_update(h, u, p, -1.0);
  const double fh = sqrt(prod_re_suNg_av_field(p, p));
  q->heatbath(q, u);
  zero_suNg_av_field(p);
  q->force_update(q, u, p, -1.0);
  const double fq = sqrt(prod_re_suNg_av_field(p, p));
  CHECK(fh <= 1e-9 * fq, "dm = 0: |F| = %.3e (hmc force %.3e)", fh, fq);
  h->free(h);
  q->free(q);
  char name[64];
  snprintf(name, sizeof name, "hasenbusch dm=0 csw=%g", csw);
  tc_case_end(name);
}

/* hasenbusch(m, dm) + hmc(m + dm): determinant terms and the force of the stack. */
static void check_pair(double csw, const suNg_field *u, suNg_field *ut, suNg_av_field *x,
                       suNg_av_field *p) {
  hmc_monomial *ms[2] = {make("hasenbusch", M0, DM, csw),
                             make("hmc", M0 + DM, 0, csw)};
  hmc_monomial *light = make("hmc", M0, 0, csw);
  /* phi = 0: the actions are the determinant terms alone */
  const double s_pair = ms[0]->action(ms[0], u) + ms[1]->action(ms[1], u);
  const double s_light = light->action(light, u);
  CHECK(fabs(s_pair - s_light) <= 1e-12 * (1 + fabs(s_light)),
        "determinant terms: pair %.15e, hmc(m) %.15e", s_pair, s_light);
  ms[0]->heatbath(ms[0], u);
  ms[1]->heatbath(ms[1], u);
  random_direction(ms, 2, u, x, p);
  const double f = force_contraction(ms, 2, u, x, p);
  const double fd = fd_derivative(ms, 2, u, ut, x);
  CHECK(fabs(f - fd) <= 1e-6 * fabs(fd), "pair: force . X = %.15e, finite differences %.15e",
        f, fd);
  ms[0]->free(ms[0]);
  ms[1]->free(ms[1]);
  light->free(light);
  char name[64];
  snprintf(name, sizeof name, "hasenbusch + hmc(m+dm) csw=%g", csw);
  tc_case_end(name);
}

/* The chronological guess changes the force by no more than the solver tolerance allows. */
static void check_chrono(const suNg_field *u, suNg_field *ut, suNg_av_field *x,
                         suNg_av_field *p) {
  hmc_monomial_params par;
  hmc_monomial_params_init(&par, "hmc");
  par.mass = M0;
  par.csw = CSW;
  par.force_prec = 1e-14;
  par.chrono = 3;
  hmc_monomial *c = hmc_monomial_new(&par);
  par.chrono = 0;
  hmc_monomial *r = hmc_monomial_new(&par);
  rng_init(4321);
  c->heatbath(c, u);
  rng_init(4321);
  r->heatbath(r, u);
  gaussian_momenta(x);
  suNg_av_field *q = alloc_suNg_av_field(1, &glattice);
  long it_first = 0, it_last = 0;
  for (int k = 0; k < 5; k++) {
    copy_suNg_field(ut, u);
    md_update_links(ut, x, 0.01 * k); /* a short path, as in a trajectory */
    const long before = iterations_of(c);
    zero_suNg_av_field(p);
    c->force_update(c, ut, p, -1.0);
    if (k == 0) it_first = iterations_of(c) - before;
    it_last = iterations_of(c) - before;
    zero_suNg_av_field(q);
    r->force_update(r, ut, q, -1.0);
    const double diff = sqrt(sqdist(p, q) / prod_re_suNg_av_field(q, q));
    CHECK(diff <= 1e-8, "chrono: step %d: |F_chrono - F| / |F| = %.3e", k, diff);
  }
  CHECK(it_last < it_first, "chrono: %ld iterations at the last step, %ld at the first", it_last,
        it_first);
  if (hr_rank() == 0)
    printf("  chrono: force solve iterations %ld (no guess) -> %ld (guess from 3)\n", it_first,
           it_last);
  free_suNg_av_field(q);
  c->free(c);
  r->free(r);
  tc_case_end("chronological initial guess");
}

#if HR_GPU_ENABLED
/* max over links and components of |p^a - q^a| (d) and of |q^a| (m) */
static void av_max_diff(const suNg_av_field *p, const suNg_av_field *q, double *d, double *m) {
  const suNg_algebra_vector *a = sync_host_suNg_av_field(p), *b = sync_host_suNg_av_field(q);
  const int sh = glattice.master_shift;
  double dd = 0, mm = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      for (int k = 0; k < NG * NG - 1; k++) {
        const double x = a[4 * (ix - sh) + mu].c[k], y = b[4 * (ix - sh) + mu].c[k];
        dd = fmax(dd, fabs(x - y));
        mm = fmax(mm, fabs(y));
      }
  }
  global_max(&dd, 1);
  global_max(&mm, 1);
  *d = dd;
  *m = mm;
}

/* The pieces of the force on random spinors, on the backend b: p = x, then add_eo twice (two
 * operators), add_logdet twice, apply with eps = 0.7. */
static void force_pieces(hr_backend b, double csw, const suNg_field *u, const spinor_field *sp,
                         const suNg_av_field *x, suNg_av_field *p) {
  const hr_backend old = hr_backend_set(b);
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.theta[1] = 0.3;
  dirac_op D1 = dirac_op_make(u, M0, csw, &bc), D2 = dirac_op_make(u, M0 + DM, csw, &bc);
  fermion_force_acc *f = fermion_force_acc_new(csw);
  copy_suNg_av_field(p, x);
  fermion_force_acc_zero(f);
  fermion_force_add_eo(f, &D1, -2, &sp[0], &sp[1]);
  fermion_force_add_logdet(f, &D1, -2, HR_PARITY_ODD);
  fermion_force_add_eo(f, &D2, 1.5, &sp[2], &sp[1]);
  fermion_force_add_logdet(f, &D2, 2, HR_PARITY_ODD);
  fermion_force_apply(p, f, &D1, 0.7);
  fermion_force_acc_free(f);
  hr_backend_set(old);
}

/* Make the device copy of a field the only current one, keeping its value and its version
 * (so that the Dirac operator's derived state stays valid): a host copy made afterwards shows
 * in f->current. */
#define DEVICE_ONLY(kind, f)                                                                   \
  do {                                                                                         \
    sync_gpu_##kind(f);                                                                        \
    (f)->current = HR_COPY_GPU;                                                                \
  } while (0)

/* The GPU path against the CPU loops. */
static void check_gpu_vs_cpu(const suNg_field *u0, suNg_field *u, suNg_av_field *x,
                             suNg_av_field *p) {
  suNg_av_field *q = alloc_suNg_av_field(1, &glattice);
  spinor_field *sp = alloc_spinor_field(3, &glat_even);
  const double csws[2] = {0, CSW};
  copy_suNg_field(u, u0);
  gaussian_momenta(x);
  for (int c = 0; c < 2; c++) {
    for (int k = 0; k < 3; k++) gaussian_spinor_field(&sp[k]);
    force_pieces(HR_BACKEND_GPU, csws[c], u, sp, x, p);
    force_pieces(HR_BACKEND_CPU, csws[c], u, sp, x, q);
    double d, m;
    av_max_diff(p, q, &d, &m);
    CHECK(d <= 1e-12 * m, "pieces csw=%g: GPU and CPU differ by %.3e (size %.3e)", csws[c], d,
          m);
    if (hr_rank() == 0)
      printf("  pieces csw=%g: max |p_gpu - p_cpu| = %.1e (size %.1e)%s\n", csws[c], d, m,
             d == 0 ? ", bitwise equal" : "");
    for (int kind = 0; kind < 2; kind++) {
      const char *name = kind ? "hasenbusch" : "hmc";
      hmc_monomial *mo = make(name, M0, DM, csws[c]);
      spinor_field *phi = ((fermion_monomial *)mo->ctx)->phi;
      hr_backend_set(HR_BACKEND_GPU);
      mo->heatbath(mo, u); /* also builds the operators' derived state */
      copy_suNg_av_field(p, x);
      DEVICE_ONLY(suNg_field, u);
      DEVICE_ONLY(spinor_field, phi);
      DEVICE_ONLY(suNg_av_field, p);
      const long it_before = iterations_of(mo);
      mo->force_update(mo, u, p, 0.7);
      const long it_gpu = iterations_of(mo) - it_before;
      CHECK(p->current == HR_COPY_GPU && u->current == HR_COPY_GPU &&
                phi->current == HR_COPY_GPU,
            "%s csw=%g: after the GPU force update current = %d (p), %d (u), %d (phi), "
            "expected the device copy only (%d)",
            name, csws[c], p->current, u->current, phi->current, HR_COPY_GPU);
      hr_backend_set(HR_BACKEND_CPU);
      copy_suNg_av_field(q, x);
      mo->force_update(mo, u, q, 0.7);
      hr_backend_set(HR_BACKEND_GPU);
      av_max_diff(p, q, &d, &m);
      CHECK(d <= 1e-12 * m, "%s csw=%g: GPU and CPU force updates differ by %.3e (size %.3e)",
            name, csws[c], d, m);
      if (hr_rank() == 0)
        printf("  %s csw=%g: max |p_gpu - p_cpu| = %.1e (size %.1e), CG iterations %ld / %ld\n",
               name, csws[c], d, m, it_gpu, iterations_of(mo) - it_before - it_gpu);
      mo->free(mo);
    }
  }
  free_spinor_field(sp);
  free_suNg_av_field(q);
  tc_case_end("GPU path = CPU path (pieces and force updates)");
}
#endif

int main(int argc, char **argv) {
  int np[4] = {1, 1, 1, 1}, a = 1;
  tc_start(&argc, &argv);
  if (argc >= 5 && argv[1][0] != '-') {
    for (int mu = 0; mu < 4; mu++) np[mu] = atoi(argv[1 + mu]);
    a = 5;
  }
  for (; a < argc; a++)
    if (strcmp(argv[a], "--print") == 0) print_values = 1;
  geometry_params gp;
  geometry_params_default(&gp);
  for (int mu = 0; mu < 4; mu++) {
    gp.glb[mu] = 4;
    gp.np[mu] = np[mu];
  }
  if (!tc_geometry_init(&gp, "test_fermion_force")) return 77;
  rng_init(2024);
  suNg_field *u = alloc_suNg_field(2, &glattice), *ut = u + 1;
  suNg_av_field *x = alloc_suNg_av_field(2, &glattice), *p = x + 1;
  gauge_field_hot(u);
  for (int k = 0; k < 4; k++) heatbath_sweep(u, 2.0 * NG);
  const double csws[2] = {0, CSW};
  for (int c = 0; c < 2; c++) {
    check_monomial("hmc", csws[c], u, ut, x, p);
    check_monomial("hasenbusch", csws[c], u, ut, x, p);
    if (!print_values) {
      check_hasenbusch_zero(csws[c], u, x, p);
      check_pair(csws[c], u, ut, x, p);
    }
  }
  open_time = 1;
  check_monomial("hmc", CSW, u, ut, x, p);
  check_monomial("hasenbusch", CSW, u, ut, x, p);
  open_time = 0;
  if (!print_values) check_chrono(u, ut, x, p);
#if HR_GPU_ENABLED
  if (!print_values) check_gpu_vs_cpu(u, ut, x, p);
#endif
  free_suNg_av_field(x);
  free_suNg_field(u);
  return tc_finish("test_fermion_force");
}
