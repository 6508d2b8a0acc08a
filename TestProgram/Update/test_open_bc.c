/* test_open_bc.c -- open time boundaries in the HMC (openQCD's open bc, Doc/hmc.md):
 *  - gauge force with open bc and cG = 1.3 (c1 = 0 and -1/12) against the Richardson-
 *    extrapolated central differences of gauge_action_bc along a random direction (1e-6), and
 *    zero force on the zero links U_0(T-1);
 *  - the open operator is openQCD's (boundary_conditions.h), csw = 0 and 1.3, cF = 1.2: the
 *    identity on the time slices 0 and T-1; on the others the operator with periodic time
 *    applied to psi zeroed on 0 and T-1, plus 0.2 psi on the slices 1 and T-2 (1e-12); with
 *    csw = 0 the log det of D_oo counts the inner slices only (lattice 6 x 4^3);
 *  - the spectral range of Q^2 (m0 = 1.5) is that of the inner block, above the eigenvalue 1
 *    of the outer identity block;
 *  - fermion force (hmc monomial) with open bc and cF = 1.2, csw = 0 and 1.3, against finite
 *    differences of its action (1e-6), for a Gaussian pseudofermion field with components on
 *    the outer slices (the force zeroes them in L and R);
 *  - HMC with open bc (gauge cG = 1.3 with rectangles + clover fermions with cF = 1.2): after a
 *    trajectory the links U_0(T-1) are exactly zero; the integration is reversible (1e-10);
 *  - --stored DIR (SU(3) only: the stored file is SU(3)): the action of the open-boundary
 *    configuration of openQCD with beta = 6, cG = 1 equals openQCD's ms3 Wact at flow time 0
 *    (stored_confs README: 2 sum w Re tr(1 - U_p), the same weights), and the header plaquette;
 *    exit 77 when DIR is absent or NG != 3.
 * Usage: test_open_bc [--stored DIR] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../test_cases.h"
#include "archive.h"
#include "clover.h"
#include "dirac.h"
#include "fermion_monomials.h"
#include "gauge_action.h"
#include "heatbath.h"
#include "hmc.h"
#include "linear_algebra.h"
#include "md.h"
#include "random.h"
#include "random_fields.h"
#include "rhmc_monomial.h"

/* Largest |p^a| on the links U_0 at global time T-1. */
static double boundary_momenta_max(const suNg_av_field *p) {
  const suNg_algebra_vector *a = sync_host_suNg_av_field(p);
  const int sh = glattice.master_shift;
  double m = 0;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    if (g[0] == GLB_T - 1)
      for (int k = 0; k < NG * NG - 1; k++) m = fmax(m, fabs(a[4 * (ix - sh)].c[k]));
  }
  global_max(&m, 1);
  return m;
}

/* Largest |U| element on the links U_0 at global time T-1. */
static double boundary_links_max(const suNg_field *u) {
  const suNg *l = sync_host_suNg_field(u);
  const int sh = glattice.master_shift;
  double m = 0;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    if (g[0] == GLB_T - 1)
      for (int k = 0; k < NG * NG; k++) m = fmax(m, hr_cabs(l[4 * (ix - sh)].c[k]));
  }
  global_max(&m, 1);
  return m;
}

/* The default fermion boundary conditions with open time boundaries and coefficient cF. */
static dirac_bc open_bc(double cf) {
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.kind[0] = HR_BC_OPEN;
  bc.cf = cf;
  return bc;
}

/* Gauge action at exp(t X) u. */
static double gauge_at(const suNg_field *u, suNg_field *ut, const suNg_av_field *x, double t,
                       double beta, double c1, const gauge_boundary *b) {
  copy_suNg_field(ut, u);
  md_update_links(ut, x, t);
  return gauge_action_bc(ut, beta, c1, b);
}

static void check_gauge_force(const suNg_field *u, suNg_field *ut, suNg_av_field *x,
                              suNg_av_field *p) {
  const gauge_boundary b = {1, 1.3};
  const double c1s[2] = {0.0, GAUGE_C1_SYMANZIK}, beta = 5.5, h = 2e-3;
  for (int k = 0; k < 2; k++) {
    gaussian_momenta(x);
    zero_suNg_av_field(p);
    gauge_force_update_bc(p, u, beta, c1s[k], -1.0, &b);
    const double f = prod_re_suNg_av_field(x, p);
    const double d1 = (gauge_at(u, ut, x, h, beta, c1s[k], &b) -
                       gauge_at(u, ut, x, -h, beta, c1s[k], &b)) / (2 * h);
    const double d2 = (gauge_at(u, ut, x, h / 2, beta, c1s[k], &b) -
                       gauge_at(u, ut, x, -h / 2, beta, c1s[k], &b)) / h;
    const double fd = (4 * d2 - d1) / 3, rel = fabs(f - fd) / fabs(fd);
    CHECK(rel < 1e-6, "gauge c1 = %g, cG = 1.3: force . X = %.15e, finite differences %.15e "
          "(rel. %.2e)", c1s[k], f, fd, rel);
    CHECK(boundary_momenta_max(p) == 0.0, "gauge force on the zero links: %g",
          boundary_momenta_max(p));
    /* the cG weights matter: cG = 1 gives another force */
    const gauge_boundary b1 = {1, 1.0};
    zero_suNg_av_field(p);
    gauge_force_update_bc(p, u, beta, c1s[k], -1.0, &b1);
    CHECK(fabs(prod_re_suNg_av_field(x, p) - f) > 1e-6 * fabs(f), "cG changes nothing");
    if (hr_rank() == 0)
      printf("  gauge force c1 = %g, open, cG = 1.3: F.X = %.12e, fd rel. diff %.2e\n", c1s[k], f,
             rel);
  }
  tc_case_end("gauge force with open bc and cG = 1.3 = finite differences of the action");
}

/* openQCD's open-boundary operator, from its definition (boundary_conditions.h): on the inner
 * slices D_open psi = D_per (P psi) + (cF - 1) psi on the slices 1 and T-2, with D_per the
 * operator of the same links with periodic time (U_0(T-1) = 0 cuts the boundary) and P psi
 * = psi with the slices 0 and T-1 set to zero (dirac_zero_outer_slices); on the slices 0 and
 * T-1, D_open psi = psi. For csw = 0 the log det of the odd diagonal blocks counts only the
 * inner slices, with 4 + m0 + cF - 1 on the slices 1 and T-2. */
static void check_open_operator(const suNg_field *u) {
  spinor_field *s = alloc_spinor_field(4, &glattice);
  gaussian_spinor_field(&s[0]);
  const dirac_bc open = open_bc(1.2);
  dirac_bc per;
  dirac_bc_default(&per);
  per.kind[0] = HR_BC_PERIODIC;
  const double csws[2] = {0.0, 1.3}, m0 = 0.1;
  for (int c = 0; c < 2; c++) {
    const dirac_op Do = dirac_op_make(u, m0, csws[c], &open),
                   Dp = dirac_op_make(u, m0, csws[c], &per);
    copy_spinor_field(&s[1], &s[0]);
    dirac_zero_outer_slices(&s[1], &Do);
    Dphi(&s[2], &Do, &s[0]);
    Dphi(&s[3], &Dp, &s[1]);
    const suNf_spinor *a = sync_host_spinor_field(&s[0]), *bo = sync_host_spinor_field(&s[2]),
                      *bp = sync_host_spinor_field(&s[3]), *pa = sync_host_spinor_field(&s[1]);
    const int sh = glattice.master_shift;
    double inner = 0, outer = 0, proj = 0;
    _MASTER_FOR(&glattice, ix) {
      int g[4];
      global_coordinates(g, ix);
      const int out_slice = g[0] == 0 || g[0] == GLB_T - 1;
      const double w = (g[0] == 1 || g[0] == GLB_T - 2) ? 0.2 : 0.0;
      const hr_complex *x = (const hr_complex *)&a[ix - sh], *y = (const hr_complex *)&bo[ix - sh],
                       *z = (const hr_complex *)&bp[ix - sh], *q = (const hr_complex *)&pa[ix - sh];
      for (int k = 0; k < 4 * NF; k++) {
        if (out_slice) {
          outer = fmax(outer, hr_cabs(y[k] - x[k]));
          proj = fmax(proj, hr_cabs(q[k]));
        } else {
          inner = fmax(inner, hr_cabs(y[k] - z[k] - w * x[k]));
          proj = fmax(proj, hr_cabs(q[k] - x[k]));
        }
      }
    }
    global_max(&inner, 1);
    global_max(&outer, 1);
    global_max(&proj, 1);
    CHECK(proj == 0.0, "dirac_zero_outer_slices: %.3e", proj);
    CHECK(inner < 1e-12, "csw = %g: D_open psi - D_per P psi - 0.2 psi on t = 1, T-2: %.3e",
          csws[c], inner);
    CHECK(outer < 1e-15, "csw = %g: D_open psi - psi on t = 0, T-1: %.3e", csws[c], outer);
    if (csws[c] == 0.0) {
      const double n3 = (double)GLB_X * GLB_Y * GLB_Z / 2, f = 4 * NF;
      const double want = n3 * f * (2 * log(4 + m0 + 0.2) + (GLB_T - 4) * log(4 + m0));
      const double got = clover_logdet(&Do, HR_PARITY_ODD);
      CHECK(fabs(got - want) < 1e-12 * fabs(want), "log det D_oo %.16e, inner slices %.16e", got,
            want);
    }
    if (hr_rank() == 0)
      printf("  open operator csw = %g: inner %.2e, outer %.2e\n", csws[c], inner, outer);
  }
  free_spinor_field(s);
  tc_case_end("open operator = openQCD's: identity on t = 0, T-1, cF on t = 1, T-2");
}

/* The spectral range of Q^2 (rhmc_monomial.h) with open boundaries is that of the inner
 * block: for a heavy quark (m0 = 1.5) its smallest eigenvalue lies well above the eigenvalue 1
 * of the identity on the outer slices, which a start vector with outer components would find. */
static void check_open_spectrum(const suNg_field *u) {
  const dirac_bc bc = open_bc(1.0);
  const dirac_op D = dirac_op_make(u, 1.5, 0.0, &bc);
  double lmin, lmax;
  dirac_q2_spectrum(&lmin, &lmax, &D, 30, 60);
  CHECK(lmin > 2.0 && lmin < lmax, "open bc, m0 = 1.5: spectrum [%g, %g] (the outer identity "
        "block has eigenvalue 1)", lmin, lmax);
  if (hr_rank() == 0) printf("  open bc, m0 = 1.5: spectrum of Q^2 [%.4f, %.4f]\n", lmin, lmax);
  tc_case_end("open bc: the spectral range of Q^2 is that of the inner block");
}

static double fermion_at(hmc_monomial *m, const suNg_field *u, suNg_field *ut,
                         const suNg_av_field *x, double t) {
  copy_suNg_field(ut, u);
  md_update_links(ut, x, t);
  return m->action(m, ut);
}

static void check_fermion_force(const suNg_field *u, suNg_field *ut, suNg_av_field *x,
                                suNg_av_field *p) {
  const double csws[2] = {0.0, 1.3}, h = 2e-3;
  for (int c = 0; c < 2; c++) {
    hmc_monomial_params par;
    hmc_monomial_params_init(&par, "hmc");
    par.mass = 0.1;
    par.csw = csws[c];
    par.bc = open_bc(1.2);
    par.bc.theta[1] = 0.3;
    par.mt_prec = 1e-14;
    par.force_prec = 1e-14;
    hmc_monomial *m = hmc_monomial_new(&par);
    m->heatbath(m, u);
    /* a pseudofermion field with outer-slice components (the heatbath zeroes them): the
     * force must be the derivative of the action for any field */
    gaussian_spinor_field(((fermion_monomial *)m->ctx)->phi);
    gaussian_momenta(x);
    zero_suNg_av_field(p);
    m->force_update(m, u, p, -1.0);
    CHECK(boundary_momenta_max(p) == 0.0, "fermion force on the zero links: %g",
          boundary_momenta_max(p));
    const double f = prod_re_suNg_av_field(x, p);
    const double d1 = (fermion_at(m, u, ut, x, h) - fermion_at(m, u, ut, x, -h)) / (2 * h);
    const double d2 = (fermion_at(m, u, ut, x, h / 2) - fermion_at(m, u, ut, x, -h / 2)) / h;
    const double fd = (4 * d2 - d1) / 3, rel = fabs(f - fd) / fabs(fd);
    CHECK(rel < 1e-6, "fermions csw = %g, cF = 1.2: force . X = %.15e, finite differences %.15e "
          "(rel. %.2e)", csws[c], f, fd, rel);
    if (hr_rank() == 0)
      printf("  fermion force csw = %g, open, cF = 1.2: F.X = %.12e, fd rel. diff %.2e\n",
             csws[c], f, rel);
    m->free(m);
  }
  tc_case_end("fermion force with open bc and cF = 1.2 = finite differences of the action");
}

static void check_hmc(suNg_field *u) {
  hmc_params h;
  memset(&h, 0, sizeof h);
  h.tlen = 0.5;
  h.nlevels = 2;
  h.level[0].type = HMC_OMF2;
  h.level[0].steps = 2;
  h.level[1].type = HMC_LEAPFROG;
  h.level[1].steps = 2;
  h.open_t = 1;
  h.cg = 1.3;
  const gauge_boundary gb = {1, 1.3};
  h.monomial[h.nmonomials++] = hmc_monomial_gauge_bc(5.5, GAUGE_C1_SYMANZIK, &gb, 1);
  hmc_monomial_params fp;
  hmc_monomial_params_init(&fp, "hmc");
  fp.mass = 0.2;
  fp.csw = 1.3;
  fp.bc = open_bc(1.2);
  fp.force_prec = 1e-14;
  h.monomial[h.nmonomials++] = hmc_monomial_new(&fp);
  hmc_check_params(&h);
  double du, dp, dh;
  hmc_reversibility(&du, &dp, &dh, &h, u);
  CHECK(du < 1e-10 && dp < 1e-10 && fabs(dh) < 1e-9,
        "open bc: max|dU| = %.3e, max|dP| = %.3e, dH sum = %.3e", du, dp, dh);
  /* a trajectory that is certainly kept (accepted or not, the links must stay zero) */
  suNg_av_field *p = alloc_suNg_av_field(1, &glattice);
  gaussian_momenta(p);
  gauge_zero_open_momenta(p);
  hmc_integrate(u, p, &h, h.tlen);
  CHECK(boundary_links_max(u) == 0.0, "links U_0(T-1) after the integration: %g",
        boundary_links_max(u));
  CHECK(boundary_momenta_max(p) == 0.0, "momenta of U_0(T-1) after the integration: %g",
        boundary_momenta_max(p));
  hmc_result res;
  hmc_trajectory(u, &h, &res);
  CHECK(boundary_links_max(u) == 0.0, "links U_0(T-1) after a trajectory: %g",
        boundary_links_max(u));
  if (hr_rank() == 0)
    printf("  open-bc HMC: reversibility |dU| %.2e |dP| %.2e dH %.2e; trajectory dH %.3e\n", du,
           dp, dh, res.dH);
  free_suNg_av_field(p);
  hmc_free(&h);
  tc_case_end("open-bc HMC: zero links stay zero, reversible");
}

/* --stored DIR: the open configuration against openQCD's numbers (SU(3) only). */
static int stored(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1", dir);
  struct stat st;
  if (NG != 3 || stat(path, &st) != 0) {
    if (hr_rank() == 0) printf("SKIP: %s (needs SU(3) and the file)\n", path);
    return 77;
  }
  geometry_params gp;
  geometry_params_default(&gp);
  for (int mu = 0; mu < 4; mu++) gp.glb[mu] = 8;
  if (!tc_geometry_init(&gp, "test_open_bc")) return 77;
  suNg_field *u = alloc_suNg_field(1, &glattice);
  archive_read(u, path, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO);
  CHECK(boundary_links_max(u) == 0.0, "the file's U_0(T-1) are not zero");
  const gauge_boundary b = {1, 1.0};
  /* beta = 2 N: S = 2 sum_p w Re tr(1 - U_p) = openQCD's Wact (ms3 log, t = 0) */
  const double S = gauge_action_bc(u, 6.0, 0.0, &b), wact = 2.2362137484535451e+04;
  CHECK(fabs(S - wact) <= 1e-12 * wact, "S(beta = 6, cG = 1) = %.16e, openQCD Wact %.16e", S,
        wact);
  /* cG enters only through the 6 L^3 spatial boundary plaquettes: S(cG) is linear in cG */
  const gauge_boundary b2 = {1, 2.0};
  const double S2 = gauge_action_bc(u, 6.0, 0.0, &b2);
  /* Wsl[0] and Wsl[7] hold the boundary spatial plaquettes with weight 1/2 plus half of the
   * time-like ones next to them: not separable here, so check linearity with cG = 3 */
  const gauge_boundary b3 = {1, 3.0};
  const double S3 = gauge_action_bc(u, 6.0, 0.0, &b3);
  CHECK(fabs((S3 - S2) - (S2 - S)) <= 1e-10 * S, "S(cG) not linear: %.16e %.16e %.16e", S, S2,
        S3);
  if (hr_rank() == 0)
    printf("  stored open configuration: S(beta=6, cG=1) = %.16e, openQCD Wact %.16e\n", S, wact);
  free_suNg_field(u);
  tc_case_end("stored open configuration: action = openQCD's Wact");
  return tc_finish("test_open_bc");
}

int main(int argc, char **argv) {
  tc_start(&argc, &argv);
  if (argc >= 3 && strcmp(argv[1], "--stored") == 0) return stored(argv[2]);
  geometry_params gp;
  geometry_params_default(&gp);
  for (int mu = 0; mu < 4; mu++) gp.glb[mu] = 4;
  gp.glb[0] = 6; /* slices 2 and 3 are inner slices without cF */
  if (!tc_geometry_init(&gp, "test_open_bc")) return 77;
  rng_init(4321);
  suNg_field *u = alloc_suNg_field(2, &glattice), *ut = u + 1;
  suNg_av_field *x = alloc_suNg_av_field(2, &glattice), *p = x + 1;
  gauge_field_hot(u);
  for (int k = 0; k < 4; k++) heatbath_sweep(u, 2.0 * NG);
  gauge_zero_open_links(u);
  check_gauge_force(u, ut, x, p);
  check_open_operator(u);
  check_open_spectrum(u);
  check_fermion_force(u, ut, x, p);
  check_hmc(u);
  free_suNg_av_field(x);
  free_suNg_field(u);
  return tc_finish("test_open_bc");
}
