/* test_free_pion.c -- meson correlators of the free Wilson operator (U = 1) against values
 * computed without any solver. With the boundary phases of boundary_conditions.h the plane
 * waves exp(i p.x) have p_mu = (2 pi n_mu + pi [antiperiodic]) / L_mu, and D acts on them as
 *   D(k) = m0 + sum_mu (1 - cos k_mu) + i sum_mu gamma_mu sin k_mu,
 *   k_mu = p_mu + pi theta_mu / L_mu,
 * so S(x; 0) = (1/V) sum_p exp(i p.x) D(k)^-1 (times the unit colour matrix), with
 *   D(k)^-1 = (A - i sum gamma_mu s_mu) / (A^2 + sum s_mu^2),  A = m0 + sum (1 - cos k), s = sin k.
 * Pion: by Parseval over the spatial plane waves,
 *   C_pi(t) = sum_x sum_{spin, colour} |S(x, t; 0)|^2
 *           = NF / V_s sum_{p_vec} || (1/T) sum_{p_0} exp(i p_0 t) D(k)^-1 ||_F^2,
 * which is independent of the gamma basis. The other channels are checked against the
 * contraction written out here on the position-space propagator obtained by the explicit
 * discrete Fourier sum, with gamma matrices written out independently of gamma.h:
 *   gamma_0 = [[0, -1], [-1, 0]], gamma_k = [[0, -i sigma_k], [i sigma_k, 0]], gamma5 =
 *   diag(1, 1, -1, -1). Lattice 8 x 4^3, antiperiodic in time, theta_x = 0.5, several m0.
 * Arguments: the process grid NP_T NP_X NP_Y NP_Z. */
#include <complex.h>

#include "inv_test.h"

typedef double complex cplx;

static const double PI = 3.14159265358979323846;

/* Gamma matrices of the test: index 0..3 gamma_mu, 4 gamma5, 5 unit. */
static void test_gamma(int mu, cplx g[4][4]) {
  memset(g, 0, 16 * sizeof(cplx));
  const cplx i = _Complex_I;
  if (mu == 4 || mu == 5) {
    for (int a = 0; a < 4; a++) g[a][a] = (mu == 5 || a < 2) ? 1 : -1;
    return;
  }
  cplx A[2][2]; /* upper-right block; lower-left = A^+ */
  if (mu == 0) {
    A[0][0] = -1, A[0][1] = 0, A[1][0] = 0, A[1][1] = -1;
  } else if (mu == 1) {
    A[0][0] = 0, A[0][1] = -i, A[1][0] = -i, A[1][1] = 0;
  } else if (mu == 2) {
    A[0][0] = 0, A[0][1] = -1, A[1][0] = 1, A[1][1] = 0;
  } else {
    A[0][0] = -i, A[0][1] = 0, A[1][0] = 0, A[1][1] = i;
  }
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) {
      g[a][2 + b] = A[a][b];
      g[2 + b][a] = conj(A[a][b]);
    }
}
static void mm(cplx a[4][4], cplx b[4][4], cplx c[4][4]) {
  cplx t[4][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      t[i][j] = 0;
      for (int k = 0; k < 4; k++) t[i][j] += a[i][k] * b[k][j];
    }
  memcpy(c, t, sizeof t);
}

/* D(k)^-1 for the momentum of global mode n (including theta), as a 4x4 spin matrix. */
static void free_prop_mom(double m0, const double k[4], cplx S[4][4]) {
  double A = m0, s2 = 0;
  for (int mu = 0; mu < 4; mu++) {
    A += 1 - cos(k[mu]);
    s2 += sin(k[mu]) * sin(k[mu]);
  }
  const double den = A * A + s2;
  cplx g[4][4];
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) S[a][b] = (a == b) ? A / den : 0;
  for (int mu = 0; mu < 4; mu++) {
    test_gamma(mu, g);
    for (int a = 0; a < 4; a++)
      for (int b = 0; b < 4; b++) S[a][b] += -_Complex_I * sin(k[mu]) * g[a][b] / den;
  }
}

static void mode_momenta(const dirac_bc *bc, int mu, int n, double *p, double *k) {
  const double L = GLB_SIZE[mu];
  *p = (2 * PI * n + (bc->kind[mu] == HR_BC_ANTIPERIODIC ? PI : 0)) / L;
  *k = *p + PI * bc->theta[mu] / L;
}

/* Analytic pion correlator cpi[0..T-1]; with Gaussian smearing q (NULL: none) of the
 * source and / or the sink each plane wave of spatial momentum k is multiplied by
 *   f(k) = [(1 + 2 kappa_s sum_k cos k_k) / (1 + 6 kappa_s)]^n
 * once per smeared end, i.e. |S|^2 by f^(2 ends). */
static void analytic_pion(double m0, const dirac_bc *bc, const quark_smearing_params *q,
                          int ends, double *cpi) {
  const int T_ = GLB_T, Lx = GLB_X, Ly = GLB_Y, Lz = GLB_Z;
  const double Vs = (double)GLB_VOLUME / T_;
  for (int t = 0; t < T_; t++) cpi[t] = 0;
  cplx(*F)[4][4] = malloc((size_t)T_ * sizeof *F);
  for (int nx = 0; nx < Lx; nx++)
    for (int ny = 0; ny < Ly; ny++)
      for (int nz = 0; nz < Lz; nz++) {
        for (int t = 0; t < T_; t++) memset(F[t], 0, sizeof F[t]);
        double weight = 1;
        if (q != NULL) {
          double p, k, h = 0;
          const int n[4] = {0, nx, ny, nz};
          for (int mu = 1; mu < 4; mu++) {
            mode_momenta(bc, mu, n[mu], &p, &k);
            h += 2 * cos(k);
          }
          weight = pow(pow((1 + q->kappa * h) / (1 + 6 * q->kappa), q->steps), 2 * ends);
        }
        for (int n0 = 0; n0 < T_; n0++) {
          double p[4], k[4];
          const int n[4] = {n0, nx, ny, nz};
          for (int mu = 0; mu < 4; mu++) mode_momenta(bc, mu, n[mu], p + mu, k + mu);
          cplx S[4][4];
          free_prop_mom(m0, k, S);
          for (int t = 0; t < T_; t++) {
            const cplx ph = cexp(_Complex_I * p[0] * t) / T_;
            for (int a = 0; a < 4; a++)
              for (int b = 0; b < 4; b++) F[t][a][b] += ph * S[a][b];
          }
        }
        for (int t = 0; t < T_; t++)
          for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++)
              cpi[t] += weight * NF * creal(F[t][a][b] * conj(F[t][a][b])) / Vs;
      }
  free(F);
}

/* Smeared-smeared and smeared-local pion of the free operator against analytic_pion. */
static void free_smeared_case(double m0, const dirac_bc *bc, const suNg_field *u, double tol) {
  const int T_ = GLB_T;
  const quark_smearing_params q = {0.4, 6, {SMEAR_STOUT, 2, 0, 0.1, {0, 0, 0}}};
  quark_smearing qs;
  quark_smearing_init(&qs, u, bc, &q); /* stout smearing leaves unit links unchanged */
  spinor_field *prop = alloc_spinor_field_f(4 * NF, &glattice);
  hr_solver_params p;
  solver_params_default(&p);
  p.tol = tol;
  const int origin[4] = {0, 0, 0, 0};
  const dirac_op D = it_op(m0);
  const hr_solver_status s = propagator_smeared_point(prop, &D, origin, &qs, 1, &p, NULL);
  CHECK(s == HR_SOLVER_CONVERGED, "propagator status %d", s);
  int nch;
  const hr_meson_channel *ch = meson_channels(&nch);
  double *corr = calloc((size_t)nch * T_, sizeof(double));
  double *cpi = calloc((size_t)T_, sizeof(double)), *cloc = calloc((size_t)T_, sizeof(double));
  analytic_pion(m0, bc, NULL, 0, cloc);
  for (int ends = 1; ends <= 2; ends++) {
    if (ends == 2) propagator_smear_sink(prop, &qs);
    meson_correlators(corr, prop, 0, nch, ch);
    analytic_pion(m0, bc, &q, ends, cpi);
    for (int t = 0; t < T_; t++) {
      const double d = fabs(corr[t] - cpi[t]) / fabs(cpi[t]);
      CHECK(d < 1e-8, "m0=%g %s pion t=%d: library %.15e analytic %.15e (rel %.2e)", m0,
            ends == 1 ? "smeared-local" : "smeared-smeared", t, corr[t], cpi[t], d);
    }
    if (hr_rank() == 0) {
      printf("  m0=%g %s: C_pi(t)/C_pi,local(t) =", m0, ends == 1 ? "sl" : "ss");
      for (int t = 0; t < T_; t++) printf(" %.4f", cpi[t] / cloc[t]);
      printf("\n");
    }
  }
  free(cloc);
  free(cpi);
  free(corr);
  free_spinor_field_f(prop);
  quark_smearing_free(&qs);
  char name[96];
  snprintf(name, sizeof name, "free-field smeared pion (sl, ss) m0=%g", m0);
  tc_case_end(name);
}

static void free_case(double m0, const dirac_bc *bc, double tol) {
  const double csw = it_links.csw;
  const int T_ = GLB_T, Lx = GLB_X, Ly = GLB_Y, Lz = GLB_Z;
  const double V = (double)GLB_VOLUME;
  /* ---- analytic pion correlator */
  double *cpi = calloc((size_t)T_, sizeof(double));
  analytic_pion(m0, bc, NULL, 0, cpi);
  /* ---- position-space propagator by the explicit Fourier sum, other channels */
  int nch;
  const hr_meson_channel *ch = meson_channels(&nch);
  double *cref = calloc((size_t)nch * T_, sizeof(double));
  {
    /* precompute D(k)^-1 for all modes */
    cplx(*Sk)[4][4] = malloc((size_t)V * sizeof *Sk);
    double(*pk)[4] = malloc((size_t)V * sizeof *pk);
    for (int m = 0; m < (int)V; m++) {
      int n[4] = {m / (Lx * Ly * Lz), (m / (Ly * Lz)) % Lx, (m / Lz) % Ly, m % Lz};
      double k[4];
      for (int mu = 0; mu < 4; mu++) mode_momenta(bc, mu, n[mu], pk[m] + mu, k + mu);
      free_prop_mom(m0, k, Sk[m]);
    }
    cplx g5[4][4], g0[4][4];
    test_gamma(4, g5);
    test_gamma(0, g0);
    /* each rank sums a share of the sites (by global index) */
    for (int xi = hr_rank(); xi < (int)V; xi += hr_nranks()) {
      const int x[4] = {xi / (Lx * Ly * Lz), (xi / (Ly * Lz)) % Lx, (xi / Lz) % Ly, xi % Lz};
      cplx S[4][4] = {{0}};
      for (int m = 0; m < (int)V; m++) {
        const double ph = pk[m][0] * x[0] + pk[m][1] * x[1] + pk[m][2] * x[2] + pk[m][3] * x[3];
        const cplx e = cexp(_Complex_I * ph) / V;
        for (int a = 0; a < 4; a++)
          for (int b = 0; b < 4; b++) S[a][b] += e * Sk[m][a][b];
      }
      cplx Sd[4][4];
      for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) Sd[a][b] = conj(S[b][a]);
      for (int c = 0; c < nch; c++)
        for (int j = 0; j < ch[c].ngamma; j++) {
          const int code = ch[c].gamma[j];
          cplx G[4][4], Gd[4][4], G1[4][4], G2[4][4], A[4][4];
          if (code <= 5) {
            test_gamma(code, G);
          } else {
            cplx gm[4][4];
            test_gamma(code - 6, gm);
            mm(gm, g5, G);
          }
          for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) Gd[a][b] = conj(G[b][a]);
          mm(g5, G, G1);
          mm(g0, Gd, G2);
          mm(G2, g0, G2);
          mm(G2, g5, G2);
          mm(G1, S, A);
          mm(A, G2, A);
          mm(A, Sd, A);
          const double tr = creal(A[0][0] + A[1][1] + A[2][2] + A[3][3]);
          cref[c * T_ + x[0]] -= NF * tr / ch[c].ngamma;
        }
    }
    global_sum(cref, nch * T_);
    free(Sk);
    free(pk);
  }
  /* ---- the library: propagator from the solver, then the contraction */
  spinor_field *prop = alloc_spinor_field_f(4 * NF, &glattice);
  hr_solver_params p;
  solver_params_default(&p);
  p.tol = tol;
  const int origin[4] = {0, 0, 0, 0};
  const dirac_op D = it_op(m0);
  hr_solver_status s = propagator_point(prop, &D, origin, 1, &p, NULL);
  CHECK(s == HR_SOLVER_CONVERGED, "propagator status %d", s);
  double *corr = calloc((size_t)nch * T_, sizeof(double));
  meson_correlators(corr, prop, 0, nch, ch);
  double cmax = 0;
  for (int t = 0; t < T_; t++) cmax = fmax(cmax, fabs(cpi[t]));
  for (int t = 0; t < T_; t++) {
    const double d = fabs(corr[t] - cpi[t]) / fabs(cpi[t]);
    CHECK(d < 1e-8, "m0=%g pion t=%d: library %.15e analytic %.15e (rel %.2e)", m0, t, corr[t],
          cpi[t], d);
    CHECK(fabs(cref[t] - cpi[t]) < 1e-12 * cmax, "m0=%g t=%d: Fourier-sum pion %.15e vs "
          "momentum-space %.15e", m0, t, cref[t], cpi[t]);
    for (int c = 1; c < nch; c++)
      CHECK(fabs(corr[c * T_ + t] - cref[c * T_ + t]) < 1e-8 * cmax,
            "m0=%g channel %s t=%d: library %.15e reference %.15e", m0, ch[c].name, t,
            corr[c * T_ + t], cref[c * T_ + t]);
  }
  if (hr_rank() == 0) {
    printf("  m0=%g: C_pi(0..%d) =", m0, T_ - 1);
    for (int t = 0; t < T_; t++) printf(" %.6e", cpi[t]);
    printf("\n");
  }
  free(corr);
  free(cref);
  free(cpi);
  free_spinor_field_f(prop);
  char name[96];
  snprintf(name, sizeof name, "free-field correlators m0=%g csw=%g", m0, csw);
  tc_case_end(name);
}

int main(int argc, char **argv) {
  it_start(&argc, &argv);
  int np[4];
  it_grid_args(argc, argv, np);
  const int glb[4] = {8, 4, 4, 4};
  it_geometry(glb, np);
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.theta[1] = 0.5;
  bc.kind[3] = HR_BC_ANTIPERIODIC;
  suNg_field *u = alloc_gfield(&glattice);
  it_unit_gauge(u);
  it_set_links(u, &bc, 0.0);
  free_case(0.5, &bc, 1e-13);
  free_case(0.05, &bc, 1e-13);
  free_smeared_case(0.3, &bc, u, 1e-13);
  /* the clover term vanishes for U = 1 */
  it_set_links(u, &bc, 1.5);
  free_case(0.05, &bc, 1e-13);
  free_gfield(u);
  return it_finish("test_free_pion");
}
