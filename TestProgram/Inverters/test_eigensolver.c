/* test_eigensolver.c -- the Lanczos eigensolver of inverters.h (eig_lowest) and its dense
 * Jacobi step (eig_dense_symmetric):
 *   - Jacobi on the n x n matrix tridiag(-1, 2, -1): eigenvalues 2 - 2 cos(j pi / (n + 1));
 *   - free field (U = 1): the lowest eigenvalues of D^+ D = Q^2 equal the analytic values
 *     (m0 + sum_mu (1 - cos k_mu))^2 + sum_mu sin^2 k_mu, k_mu = (2 pi n_mu + pi [antiperiodic]
 *     + pi theta_mu) / L_mu, each momentum 4 NF times (spin, colour), obtained by enumerating
 *     all momenta and sorting; nev ends at the end of a degenerate group; 4 x 4 x 2 x 2
 *     periodic (nev 60: groups of 12 and 48) and antiperiodic in time with theta_x = 0.5
 *     (nev 48: two groups of 24);
 *   - random gauge field on 4^4 with clover term: |Q^2 v - lambda v| / lambda and the
 *     orthonormality of the eigenvectors recomputed here with the operator;
 *   - a cycle limit too small for the tolerance gives a non-zero status.
 * Arguments: the process grid NP_T NP_X NP_Y NP_Z. */
#include "inv_test.h"

static const double PI = 3.14159265358979323846;

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* All eigenvalues of the free D^+ D (each momentum 4 NF times), ascending; n = volume * 4 NF. */
static double *free_spectrum(double m0, const dirac_bc *bc, int *n) {
  const int vol = GLB_SIZE[0] * GLB_SIZE[1] * GLB_SIZE[2] * GLB_SIZE[3];
  double *ev = malloc((size_t)vol * 4 * NF * sizeof(double));
  *n = 0;
  for (int site = 0; site < vol; site++) {
    int rest = site;
    double A = m0, s2 = 0;
    for (int mu = 0; mu < 4; mu++) {
      const int L = GLB_SIZE[mu], nmu = rest % L;
      rest /= L;
      const double k =
          (2 * PI * nmu + (bc->kind[mu] == HR_BC_ANTIPERIODIC ? PI : 0) + PI * bc->theta[mu]) / L;
      A += 1 - cos(k);
      s2 += sin(k) * sin(k);
    }
    for (int c = 0; c < 4 * NF; c++) ev[(*n)++] = A * A + s2;
  }
  qsort(ev, (size_t)*n, sizeof(double), cmp_double);
  return ev;
}

static void jacobi_case(void) {
  enum { N = 12 };
  double a[N * N] = {0}, w[N], z[N * N];
  for (int i = 0; i < N; i++) {
    a[i * N + i] = 2;
    if (i + 1 < N) a[i * N + i + 1] = a[(i + 1) * N + i] = -1;
  }
  eig_dense_symmetric(N, a, w, z);
  for (int j = 0; j < N; j++) {
    const double exact = 2 - 2 * cos((j + 1) * PI / (N + 1));
    CHECK(fabs(w[j] - exact) < 1e-13, "eigenvalue %d: %.16g vs %.16g", j, w[j], exact);
    for (int i = 0; i < N; i++) { /* (a z)_ij = w_j z_ij */
      double az = 0;
      for (int k = 0; k < N; k++) az += a[i * N + k] * z[k * N + j];
      CHECK(fabs(az - w[j] * z[i * N + j]) < 1e-13, "eigenvector %d row %d", j, i);
    }
  }
  tc_case_end("Jacobi: tridiag(-1, 2, -1) 12 x 12");
}

/* Residuals and orthonormality of eigenpairs recomputed with A. */
static void check_pairs(const hr_linear_operator *A, int nev, const double *eval,
                        spinor_field *evec, const double *resid, double tol) {
  spinor_field *w = alloc_spinor_field_f(1, evec->type);
  for (int i = 0; i < nev; i++) {
    A->apply(w, evec + i, A->ctx);
    mul_add_assign_spinor_field(w, -eval[i], evec + i);
    const double r = sqrt(sqnorm_spinor_field(w)) / eval[i];
    CHECK(r <= tol, "pair %d: |A v - lambda v| / lambda = %.3e > %.3e", i, r, tol);
    CHECK(fabs(r - resid[i]) <= 1e-3 * tol, "pair %d: reported residual %.3e, true %.3e", i,
          resid[i], r);
    if (i > 0) CHECK(eval[i] >= eval[i - 1], "eigenvalues not ascending at %d", i);
    for (int j = 0; j <= i; j++) {
      const hr_complex c = prod_spinor_field(evec + j, evec + i);
      CHECK(cabs(c - (i == j)) < 1e-12, "<v%d, v%d> = %.3e%+.3ei", j, i, creal(c), cimag(c));
    }
  }
  free_spinor_field_f(w);
}

static void free_case(const char *name, double m0, const dirac_bc *bc, const suNg_field *u,
                      int min_nev) {
  int n;
  double *exact = free_spectrum(m0, bc, &n);
  int nev = min_nev; /* extend to the end of a degenerate group */
  while (nev < n && exact[nev] - exact[nev - 1] < 1e-9) nev++;
  it_set_links(u, bc, 0.0);
  dirac_op D = it_op(m0);
  hr_linear_operator A = dirac_linear_operator(&D, DIRAC_FORM_Q2);
  hr_eig_params p;
  eig_params_default(&p);
  p.nev = nev;
  p.tol = 1e-9;
  double *eval = malloc(nev * sizeof(double)), *resid = malloc(nev * sizeof(double));
  spinor_field *evec = alloc_spinor_field_f(nev, &glattice);
  hr_eig_result res;
  const hr_solver_status s = eig_lowest(eval, evec, resid, &A, &p, &res);
  CHECK(s == HR_SOLVER_CONVERGED, "status %d (%s)", (int)s, solver_status_name(s));
  for (int i = 0; i < nev; i++)
    CHECK(fabs(eval[i] - exact[i]) <= 1e-10 * (1 + exact[i]), "eigenvalue %d: %.15e vs %.15e",
          i, eval[i], exact[i]);
  check_pairs(&A, nev, eval, evec, resid, p.tol);
  free_spinor_field_f(evec);
  free(resid);
  free(eval);
  free(exact);
  char label[256];
  snprintf(label, sizeof label, "%s (nev %d, %d cycles, %ld applications)", name, nev,
           res.restarts, res.applies);
  tc_case_end(label);
}

static void random_case(suNg_field *u) {
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.kind[0] = HR_BC_ANTIPERIODIC;
  random_suNg_field(u);
  it_set_links(u, &bc, 1.1);
  dirac_op D = it_op(0.2);
  hr_linear_operator A = dirac_linear_operator(&D, DIRAC_FORM_Q2);
  hr_eig_params p;
  eig_params_default(&p);
  p.nev = 8;
  p.tol = 1e-10;
  double eval[8], resid[8];
  spinor_field *evec = alloc_spinor_field_f(p.nev, &glattice);
  hr_eig_result res;
  hr_solver_status s = eig_lowest(eval, evec, resid, &A, &p, &res);
  CHECK(s == HR_SOLVER_CONVERGED, "status %d (%s)", (int)s, solver_status_name(s));
  check_pairs(&A, p.nev, eval, evec, resid, p.tol);
  tc_case_end("random links, csw 1.1: residuals and orthonormality recomputed");
  /* one short cycle cannot reach 1e-14: a non-zero status and the residuals say so */
  p.max_restarts = 1;
  p.krylov_size = 12;
  p.tol = 1e-14;
  s = eig_lowest(eval, evec, resid, &A, &p, &res);
  CHECK(s == HR_SOLVER_MAX_ITER, "status %d (%s)", (int)s, solver_status_name(s));
  CHECK(res.max_residual > p.tol, "largest residual %.3e", res.max_residual);
  tc_case_end("cycle limit: non-zero status");
  free_spinor_field_f(evec);
}

int main(int argc, char **argv) {
  it_start(&argc, &argv);
  int np[4];
  it_grid_args(argc, argv, np);
  jacobi_case();
  const int glb_free[4] = {4, 4, 2, 2};
  it_geometry(glb_free, np);
  suNg_field *u = alloc_gfield(&glattice);
  it_unit_gauge(u);
  dirac_bc bc;
  dirac_bc_default(&bc);
  for (int mu = 0; mu < 4; mu++) bc.kind[mu] = HR_BC_PERIODIC;
  free_case("free field 4 x 4 x 2 x 2 periodic, m0 0.1", 0.1, &bc, u, 13);
  bc.kind[0] = HR_BC_ANTIPERIODIC;
  bc.theta[1] = 0.5;
  free_case("free field 4 x 4 x 2 x 2 antiperiodic in time, theta_x 0.5, m0 0.1", 0.1, &bc, u,
            30);
  free_gfield(u);
  geometry_finalize();
  const int glb[4] = {4, 4, 4, 4};
  it_geometry(glb, np);
  u = alloc_gfield(&glattice);
  random_case(u);
  free_gfield(u);
  return it_finish("test_eigensolver");
}
