/* test_quark_smearing.c -- Gaussian (Wuppertal) quark smearing (propagator.h):
 *  - H and the whole smearing [(1 + kappa H)/(1 + 6 kappa)]^n are Hermitian:
 *    <phi, A psi> = conj <psi, A phi> for Gaussian random fields on random links (1e-13);
 *  - gauge covariance: with u -> g u g^+ (random g) and psi -> R(g) psi the smeared field is
 *    R(g) times the old one, with the links used as they are and APE / stout / HYP smeared
 *    (1e-13);
 *  - unit links, point source: the smeared field equals the closed form (multinomial sum over
 *    lattice walks, wrapped around the torus, with the boundary phases: twist and antiperiodic
 *    sign) computed here without any field operation (1e-14);
 *  - smearing with kappa = 0 or n = 0 leaves a field unchanged; time slices do not mix.
 * Lattice 4 x 4^3 with theta_x = 0.5 and antiperiodic z. Arguments: the process grid. */
#include <complex.h>

#include "inv_test.h"
#include "representation.h"
#include "suN_random.h"
#include "halo_exchange.h"

typedef double complex cplx;
static const double PI = 3.14159265358979323846;

/* Largest |a - b| over the master sites of two fields (all processes), and largest |a|. */
static double max_diff(const spinor_field *a, const spinor_field *b, double *amax) {
  sync_host_spinor_field(a);
  sync_host_spinor_field(b);
  double d = 0, m = 0;
  _MASTER_FOR(&glattice, ix) {
    const hr_complex *x = (const hr_complex *)_FIELD_AT(a, ix);
    const hr_complex *y = (const hr_complex *)_FIELD_AT(b, ix);
    for (int i = 0; i < 4 * NF; i++) {
      d = fmax(d, cabs(x[i] - y[i]));
      m = fmax(m, cabs(x[i]));
    }
  }
  global_max(&d, 1);
  global_max(&m, 1);
  if (amax != NULL) *amax = m;
  return d;
}

/* Haar-random gauge transformation g (site streams: the same on every process grid). */
static void random_gauge(suNg *g, int ix) {
  int c[4];
  global_coordinates(c, ix);
  hr_rng_stream st;
  rng_stream_init(&st, 4242, 3, (uint64_t)(((c[0] * GLB_X + c[1]) * GLB_Y + c[2]) * GLB_Z + c[3]));
  suNg_random(g, &st);
}

/* ug = g u g^+ (links), psig = R(g) psi, for the random g of random_gauge. */
static void gauge_transform(suNg_field *ug, const suNg_field *u, spinor_field *psig,
                            const spinor_field *psi) {
  suNg_field *g = alloc_gfield(&glattice); /* g(x) stored as link 0 of x */
  host_write_suNg_field(g);
  _MASTER_FOR(&glattice, ix) { random_gauge(_4FIELD_AT(g, ix, 0), ix); }
  sendrecv_suNg_field(g);
  sync_host_suNg_field(g);
  sync_host_suNg_field(u);
  sync_host_spinor_field(psi);
  host_write_suNg_field(ug);
  host_write_spinor_field(psig);
  _MASTER_FOR(&glattice, ix) {
    const suNg *gx = _4FIELD_AT(g, ix, 0);
    for (int mu = 0; mu < 4; mu++) {
      suNg t;
      suNg_mul(&t, gx, _4FIELD_AT(u, ix, mu));
      suNg_mul_dag(_4FIELD_AT(ug, ix, mu), &t, _4FIELD_AT(g, iup(ix, mu), 0));
    }
    suNf r;
    suNg_to_suNf(&r, gx);
    suNf_spinor_mul_colour(_FIELD_AT(psig, ix), &r, _FIELD_AT(psi, ix));
  }
  sendrecv_suNg_field(ug);
  free_gfield(g);
}

/* |<phi, A psi> - conj <psi, A phi>| / (|phi| |A psi|) for A = H (use_hop) or the smearing. */
static double hermiticity_defect(const quark_smearing *qs, int use_hop, const spinor_field *phi,
                                 const spinor_field *psi) {
  spinor_field *a = alloc_spinor_field_f(2, &glattice);
  if (use_hop) {
    quark_smearing_hop(a, qs, psi);
    quark_smearing_hop(a + 1, qs, phi);
  } else {
    copy_spinor_field(a, psi);
    copy_spinor_field(a + 1, phi);
    quark_smear(a, qs);
    quark_smear(a + 1, qs);
  }
  const hr_complex l = prod_spinor_field(phi, a), r = conj(prod_spinor_field(psi, a + 1));
  const double scale = sqrt(sqnorm_spinor_field(phi) * sqnorm_spinor_field(a));
  free_spinor_field_f(a);
  return cabs(l - r) / scale;
}

static void hermiticity_and_covariance(const dirac_bc *bc) {
  suNg_field *u = alloc_gfield(&glattice), *ug = alloc_gfield(&glattice);
  random_suNg_field(u);
  spinor_field *f = alloc_spinor_field_f(6, &glattice);
  spinor_field *phi = f, *psi = f + 1, *psig = f + 2, *a = f + 3, *b = f + 4, *c = f + 5;
  gaussian_spinor_field(phi);
  gaussian_spinor_field(psi);
  const smear_params links[4] = {{SMEAR_NONE, 0, 0, 0, {0, 0, 0}},
                                 {SMEAR_APE, 2, 0.5, 0, {0, 0, 0}},
                                 {SMEAR_STOUT, 3, 0, 0.1, {0, 0, 0}},
                                 {SMEAR_HYP, 1, 0, 0, {0.75, 0.6, 0.3}}};
  for (int k = 0; k < 4; k++) {
    const quark_smearing_params p = {0.3, 5, links[k]};
    const char *name = smear_kind_name(links[k].kind);
    quark_smearing qs, qsg;
    quark_smearing_init(&qs, u, bc, &p);
    const double dh = hermiticity_defect(&qs, 1, phi, psi);
    const double ds = hermiticity_defect(&qs, 0, phi, psi);
    CHECK(dh < 1e-13, "links %s: H not Hermitian: %.3e", name, dh);
    CHECK(ds < 1e-13, "links %s: smearing not Hermitian: %.3e", name, ds);
    /* covariance: smear(g u)(R(g) psi) = R(g) smear(u)(psi) */
    gauge_transform(ug, u, psig, psi);
    quark_smearing_init(&qsg, ug, bc, &p);
    copy_spinor_field(a, psi);
    quark_smear(a, &qs);
    gauge_transform(ug, u, b, a); /* b = R(g) smear(u) psi */
    copy_spinor_field(c, psig);
    quark_smear(c, &qsg);
    double m;
    const double dg = max_diff(b, c, &m);
    CHECK(dg < 1e-13 * m, "links %s: not gauge covariant: %.3e (max %.3e)", name, dg, m);
    /* H alone too */
    quark_smearing_hop(a, &qs, psi);
    gauge_transform(ug, u, b, a);
    quark_smearing_hop(c, &qsg, psig);
    const double dgh = max_diff(b, c, &m);
    CHECK(dgh < 1e-13 * m, "links %s: H not gauge covariant: %.3e (max %.3e)", name, dgh, m);
    if (hr_rank() == 0)
      printf("  links %-5s: hermiticity H %.1e, smearing %.1e; covariance %.1e, H %.1e\n", name,
             dh, ds, dg / m, dgh / m);
    quark_smearing_free(&qsg);
    quark_smearing_free(&qs);
  }
  /* kappa = 0 and n = 0: identity */
  const quark_smearing_params p0[2] = {{0.0, 4, links[0]}, {0.5, 0, links[0]}};
  for (int k = 0; k < 2; k++) {
    quark_smearing qs;
    quark_smearing_init(&qs, u, bc, &p0[k]);
    copy_spinor_field(a, psi);
    quark_smear(a, &qs);
    CHECK(max_diff(a, psi, NULL) == 0, "kappa %g, %d steps: field changed", p0[k].kappa,
          p0[k].steps);
    quark_smearing_free(&qs);
  }
  free_spinor_field_f(f);
  free_gfield(ug);
  free_gfield(u);
  tc_case_end("quark smearing: Hermitian, gauge covariant (plain, APE, stout, HYP links)");
}

static double binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  double r = 1;
  for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
  return r;
}

/* Sum over unwrapped displacements a = x (mod L), |a| <= m, (m + a) even, of the number of
 * walks of m steps +-1 ending at a, times the boundary phase of the path: each link carries
 * exp(i pi theta / L), the link crossing the boundary also -1 (antiperiodic); moving by a the
 * smeared point source picks up the phase of -a links going up. */
static cplx walks_1d(int m, int x, int L, double theta, int antiperiodic) {
  cplx s = 0;
  for (int a = -m; a <= m; a++) {
    if (((a % L) + L) % L != x || ((m + a) & 1)) continue;
    const int wraps = (int)floor((double)a / L);
    const double sign = (antiperiodic && (wraps & 1)) ? -1 : 1;
    s += binomial(m, (m + a) / 2) * sign * cexp(-_Complex_I * PI * theta * a / L);
  }
  return s;
}

/* [(1 + kappa H)/(1 + 6 kappa)]^n delta_0 at spatial site x for unit links:
 * (1 + kappa sum_k (z_k + 1/z_k))^n = sum_m C(n, m) kappa^m sum_{m1+m2+m3=m} m!/(m1! m2! m3!)
 *   prod_k (z_k + 1/z_k)^{m_k}. */
static cplx stencil_closed_form(const dirac_bc *bc, double kappa, int n, const int x[4]) {
  cplx s = 0;
  for (int m = 0; m <= n; m++)
    for (int m1 = 0; m1 <= m; m1++)
      for (int m2 = 0; m1 + m2 <= m; m2++) {
        const int mk[4] = {0, m1, m2, m - m1 - m2};
        cplx w = binomial(n, m) * pow(kappa, m) * binomial(m, m1) * binomial(m - m1, m2);
        for (int k = 1; k < 4; k++)
          w *= walks_1d(mk[k], x[k], GLB_SIZE[k], bc->theta[k],
                        bc->kind[k] == HR_BC_ANTIPERIODIC);
        s += w;
      }
  return s / pow(1 + 6 * kappa, n);
}

static void unit_link_stencil(const dirac_bc *bc) {
  suNg_field *u = alloc_gfield(&glattice);
  it_unit_gauge(u);
  spinor_field *s = alloc_spinor_field_f(1, &glattice);
  const int n_steps[3] = {1, 3, 7};
  const int gx[4] = {0, 0, 0, 0};
  for (int i = 0; i < 3; i++) {
    const quark_smearing_params p = {0.35, n_steps[i], {SMEAR_NONE, 0, 0, 0, {0, 0, 0}}};
    quark_smearing qs;
    quark_smearing_init(&qs, u, bc, &p);
    const int spin = 2, colour = NF - 1;
    point_source(s, gx, spin, colour);
    quark_smear(s, &qs);
    sync_host_spinor_field(s);
    double d = 0, m = 0;
    _MASTER_FOR(&glattice, ix) {
      int g[4];
      global_coordinates(g, ix);
      const cplx ref = g[0] == 0 ? stencil_closed_form(bc, p.kappa, p.steps, g) : 0;
      m = fmax(m, cabs(ref));
      for (int a = 0; a < 4; a++)
        for (int c = 0; c < NF; c++) {
          const cplx want = (a == spin && c == colour) ? ref : 0;
          d = fmax(d, cabs(_FIELD_AT(s, ix)->c[a].c[c] - want));
        }
    }
    global_max(&d, 1);
    global_max(&m, 1);
    CHECK(d < 1e-14 * m, "n = %d: smeared point source differs from the closed form by %.3e "
          "(max %.3e)", p.steps, d, m);
    if (hr_rank() == 0)
      printf("  kappa_s %.2f, n = %d: |library - closed form| = %.1e (max %.3e)\n", p.kappa,
             p.steps, d, m);
    quark_smearing_free(&qs);
  }
  free_spinor_field_f(s);
  free_gfield(u);
  tc_case_end("quark smearing of a point source on unit links = closed-form walk sum");
}

int main(int argc, char **argv) {
  it_start(&argc, &argv);
  int np[4];
  it_grid_args(argc, argv, np);
  const int glb[4] = {4, 4, 4, 4};
  it_geometry(glb, np);
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.theta[1] = 0.5;
  bc.kind[3] = HR_BC_ANTIPERIODIC;
  hermiticity_and_covariance(&bc);
  unit_link_stencil(&bc);
  return it_finish("test_quark_smearing");
}
