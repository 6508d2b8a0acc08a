/* test_solvers.c -- the Krylov solvers on the Wilson(-clover) operator of a random gauge
 * field (and of the stored 8^4 configuration when it can be read), for several masses, on
 * the process grid given on the command line (NP_T NP_X NP_Y NP_Z). Independent truth: the
 * residual |b - A x| / |b| is recomputed with a direct call of the dirac.h operator (not
 * through the solver's operator wrapper); multi-shift solutions are compared with separate
 * CG solves; mixed precision with double precision; the even/odd solve with CGNE on the
 * full operator; iteration limit 5 and NaN right-hand sides must give a non-zero status. */
#include "archive.h"
#include "inv_test.h"

/* Direct application of the operator `kind` (dirac.h), independent of the wrappers. */
static void direct_apply(dirac_form kind, double m0, spinor_field *out,
                         const spinor_field *in) {
  const dirac_op Dop = it_op(m0), *D = &Dop;
  sync_host_spinor_field(in);
  host_write_spinor_field(out);
  switch (kind) {
  case DIRAC_FORM_D: Dphi(out, D, in); break;
  case DIRAC_FORM_Q: g5Dphi(out, D, in); break;
  case DIRAC_FORM_Q2: g5Dphi_sq(out, D, in); break;
  case DIRAC_FORM_EO: Dphi_eopre(out, D, in); break;
  case DIRAC_FORM_QEO: g5Dphi_eopre(out, D, in); break;
  case DIRAC_FORM_QEO2: g5Dphi_eopre_sq(out, D, in); break;
  }
}

/* |b - (A + shift) x| / |b| with A applied directly. */
static double direct_residual(dirac_form kind, double m0, double shift,
                              const spinor_field *b, const spinor_field *x, spinor_field *t) {
  direct_apply(kind, m0, t, x);
  mul_add_assign_spinor_field(t, shift, x);
  sub_spinor_field(t, b, t);
  return sqrt(sqnorm_spinor_field(t) / sqnorm_spinor_field(b));
}

/* Q_eo^2 + shift, applied directly (the separate solves of the multi-shift test). */
typedef struct {
  double m0, shift;
} shifted_op;
static void shifted_apply(spinor_field *out, const spinor_field *in, void *c) {
  const shifted_op *s = c;
  direct_apply(DIRAC_FORM_QEO2, s->m0, out, in);
  mul_add_assign_spinor_field(out, s->shift, in);
}

/* |x - y| / |y|. */
static double rel_diff(const spinor_field *x, const spinor_field *y, spinor_field *t) {
  sub_spinor_field(t, x, y);
  return sqrt(sqnorm_spinor_field(t) / sqnorm_spinor_field(y));
}

/* Every solver on one operator set-up (links already set), for mass m0. */
static void solvers_case(const char *label, double m0, double tol) {
  char name[160];
  const geometry_descriptor *ge = &glat_even;
  spinor_field *b = alloc_spinor_field_f(1, &glattice);
  spinor_field *x = alloc_spinor_field_f(2, &glattice);
  spinor_field *t = alloc_spinor_field_f(1, &glattice);
  spinor_field *be = alloc_spinor_field_f(1, ge);
  spinor_field *xe = alloc_spinor_field_f(2, ge);
  spinor_field *te = alloc_spinor_field_f(1, ge);
  gaussian_spinor_field(b);
  gaussian_spinor_field(be);
  hr_solver_params p;
  solver_params_default(&p);
  p.tol = tol;
  p.max_iter = 5000;
  hr_solver_result r, r2;
  const dirac_op Dm = it_op(m0);
  hr_linear_operator D = dirac_linear_operator(&Dm, DIRAC_FORM_D);
  hr_linear_operator Q = dirac_linear_operator(&Dm, DIRAC_FORM_Q);
  hr_linear_operator Q2 = dirac_linear_operator(&Dm, DIRAC_FORM_Q2);
  hr_linear_operator EO = dirac_linear_operator(&Dm, DIRAC_FORM_EO);
  hr_linear_operator QEO2 = dirac_linear_operator(&Dm, DIRAC_FORM_QEO2);
  double res;

  /* CG and mixed CG on Q^2 (full lattice) */
  hr_solver_status s = cg_solve(x, &Q2, b, &p, &r);
  res = direct_residual(DIRAC_FORM_Q2, m0, 0, b, x, t);
  CHECK(s == HR_SOLVER_CONVERGED && res <= tol && fabs(res - r.residual) <= 1e-3 * tol,
        "CG Q^2: status %d residual %.3e (reported %.3e)", s, res, r.residual);
  s = cg_mixed_solve(x + 1, &Q2, b, &p, &r2);
  res = direct_residual(DIRAC_FORM_Q2, m0, 0, b, x + 1, t);
  CHECK(s == HR_SOLVER_CONVERGED && res <= tol, "mixed CG Q^2: status %d residual %.3e", s, res);
  CHECK(r2.reliable_updates > 0 && r2.applies_flt > r2.applies,
        "mixed CG must iterate in single precision (%ld flt, %ld dbl applications)",
        r2.applies_flt, r2.applies);
  CHECK(rel_diff(x + 1, x, t) < 1e4 * tol, "mixed and double CG solutions differ by %.3e",
        rel_diff(x + 1, x, t));
  if (hr_rank() == 0)
    printf("  %s m0=%g: CG %d it, mixed CG %d it (%d reliable updates), residuals %.2e %.2e\n",
           label, m0, r.iterations, r2.iterations, r2.reliable_updates, r.residual, r2.residual);

  /* CGNE / CGNR on D, double and mixed */
  for (int mode = 0; mode < 4; mode++) {
    const int ne = mode < 2, mixed = mode & 1;
    s = ne ? cgne_solve(x, &D, b, mixed, &p, &r) : cgnr_solve(x, &D, b, mixed, &p, &r);
    res = direct_residual(DIRAC_FORM_D, m0, 0, b, x, t);
    CHECK(s == HR_SOLVER_CONVERGED && res <= tol, "%s%s on D: status %d residual %.3e",
          ne ? "CGNE" : "CGNR", mixed ? "-mixed" : "", s, res);
  }
  copy_spinor_field(x + 1, x); /* CGNR-mixed solution of D x = b */

  /* BiCGstab on D and on Dphi_eopre; MINRES on Q */
  s = bicgstab_solve(x, &D, b, &p, &r);
  res = direct_residual(DIRAC_FORM_D, m0, 0, b, x, t);
  CHECK(s == HR_SOLVER_CONVERGED && res <= tol, "BiCGstab on D: status %d residual %.3e", s, res);
  CHECK(rel_diff(x, x + 1, t) < 1e4 * tol, "BiCGstab and CGNR solutions differ by %.3e",
        rel_diff(x, x + 1, t));
  s = bicgstab_solve(xe, &EO, be, &p, &r);
  res = direct_residual(DIRAC_FORM_EO, m0, 0, be, xe, te);
  CHECK(s == HR_SOLVER_CONVERGED && res <= tol, "BiCGstab on Dphi_eopre: status %d residual %.3e",
        s, res);
  s = minres_solve(x, &Q, b, &p, &r);
  res = direct_residual(DIRAC_FORM_Q, m0, 0, b, x, t);
  CHECK(s == HR_SOLVER_CONVERGED && res <= tol, "MINRES on Q: status %d residual %.3e", s, res);
  if (hr_rank() == 0) printf("  %s m0=%g: MINRES %d it\n", label, m0, r.iterations);

  /* even/odd solve of D x = b, double and mixed, against the CGNR solution */
  for (int mixed = 0; mixed < 2; mixed++) {
    s = dirac_solve_eo(x, &Dm, b, mixed, &p, &r);
    res = direct_residual(DIRAC_FORM_D, m0, 0, b, x, t);
    CHECK(s == HR_SOLVER_CONVERGED && res <= tol && fabs(res - r.residual) <= 1e-3 * tol,
          "eo solve (mixed %d): status %d residual %.3e reported %.3e", mixed, s, res,
          r.residual);
    CHECK(rel_diff(x, x + 1, t) < 1e4 * tol, "eo solve (mixed %d) and CGNR differ by %.3e", mixed,
          rel_diff(x, x + 1, t));
  }

  /* multi-shift CG on Q_eo^2 against separate solves */
  enum { NS = 4 };
  const double shifts[NS] = {0.3, 0.0, 0.05, 1.5};
  spinor_field *xs = alloc_spinor_field_f(NS, ge);
  hr_solver_result rs[NS];
  for (int mixed = 0; mixed < 2; mixed++) {
    s = mixed ? cg_mshift_mixed_solve(xs, &QEO2, NS, shifts, be, &p, rs)
              : cg_mshift_solve(xs, &QEO2, NS, shifts, be, &p, rs);
    CHECK(s == HR_SOLVER_CONVERGED, "multi-shift (mixed %d) status %d", mixed, s);
    for (int i = 0; i < NS; i++) {
      res = direct_residual(DIRAC_FORM_QEO2, m0, shifts[i], be, xs + i, te);
      CHECK(res <= tol && rs[i].status == HR_SOLVER_CONVERGED,
            "multi-shift (mixed %d) shift %g: residual %.3e status %d", mixed, shifts[i], res,
            rs[i].status);
      /* separate CG solve of (Q_eo^2 + s) y = b */
      shifted_op sh = {m0, shifts[i]};
      hr_linear_operator S = {shifted_apply, NULL, NULL, NULL, &sh, 0};
      s = cg_solve(xe, &S, be, &p, &r);
      CHECK(s == HR_SOLVER_CONVERGED, "separate CG for shift %g: status %d", shifts[i], s);
      CHECK(rel_diff(xs + i, xe, te) < 1e3 * tol, "multi-shift (mixed %d) shift %g differs from "
            "the separate solve by %.3e", mixed, shifts[i], rel_diff(xs + i, xe, te));
    }
    if (hr_rank() == 0)
      printf("  %s m0=%g: multi-shift%s %d it\n", label, m0, mixed ? " mixed" : "",
             rs[0].iterations);
  }
  free_spinor_field_f(xs);

  free_spinor_field_f(b);
  free_spinor_field_f(x);
  free_spinor_field_f(t);
  free_spinor_field_f(be);
  free_spinor_field_f(xe);
  free_spinor_field_f(te);
  snprintf(name, sizeof name, "solvers %s m0=%g", label, m0);
  tc_case_end(name);
}

/* Iteration limit 5 and a NaN right-hand side: every solver returns a non-zero status and
 * reports a residual above the tolerance. */
static void failure_case(double m0) {
  spinor_field *b = alloc_spinor_field_f(1, &glattice);
  spinor_field *x = alloc_spinor_field_f(4, &glattice);
  gaussian_spinor_field(b);
  hr_solver_params p;
  solver_params_default(&p);
  p.tol = 1e-12;
  p.max_iter = 5;
  hr_solver_result r, rs[4];
  const dirac_op Dm = it_op(m0);
  hr_linear_operator D = dirac_linear_operator(&Dm, DIRAC_FORM_D);
  hr_linear_operator Q = dirac_linear_operator(&Dm, DIRAC_FORM_Q);
  hr_linear_operator Q2 = dirac_linear_operator(&Dm, DIRAC_FORM_Q2);
  const double shifts[2] = {0, 0.1};
  hr_solver_status st[9];
  double resid[9];
  st[0] = cg_solve(x, &Q2, b, &p, &r), resid[0] = r.residual;
  st[1] = cg_mixed_solve(x, &Q2, b, &p, &r), resid[1] = r.residual;
  st[2] = cgne_solve(x, &D, b, 0, &p, &r), resid[2] = r.residual;
  st[3] = cgnr_solve(x, &D, b, 1, &p, &r), resid[3] = r.residual;
  st[4] = bicgstab_solve(x, &D, b, &p, &r), resid[4] = r.residual;
  st[5] = minres_solve(x, &Q, b, &p, &r), resid[5] = r.residual;
  st[6] = cg_mshift_solve(x, &Q2, 2, shifts, b, &p, rs), resid[6] = rs[0].residual;
  st[7] = cg_mshift_mixed_solve(x, &Q2, 2, shifts, b, &p, rs), resid[7] = rs[0].residual;
  st[8] = dirac_solve_eo(x, &Dm, b, 1, &p, &r), resid[8] = r.residual;
  for (int i = 0; i < 9; i++) {
    CHECK(st[i] == HR_SOLVER_MAX_ITER && resid[i] > p.tol && isfinite(resid[i]),
          "solver %d with max_iter 5: status %d residual %.3e", i, st[i], resid[i]);
  }
  /* a NaN in b: breakdown, never "converged" */
  host_write_spinor_field(b);
  if (hr_rank() == 0) _FIELD_AT(b, glattice.master_start[0])->c[0].c[0] = hr_cmplx(NAN, 0);
  p.max_iter = 100;
  st[0] = cg_solve(x, &Q2, b, &p, &r);
  st[1] = bicgstab_solve(x, &D, b, &p, &r);
  st[2] = minres_solve(x, &Q, b, &p, &r);
  st[3] = cg_mixed_solve(x, &Q2, b, &p, &r);
  for (int i = 0; i < 4; i++)
    CHECK(st[i] == HR_SOLVER_BREAKDOWN, "solver %d with NaN in b: status %d", i, st[i]);
  /* invalid tolerance */
  p.tol = 0;
  CHECK(cg_solve(x, &Q2, b, &p, &r) == HR_SOLVER_BAD_INPUT, "tol = 0 must be rejected");
  free_spinor_field_f(b);
  free_spinor_field_f(x);
  tc_case_end("non-convergence and breakdown are reported");
}

/* The stored periodic 8^4 configuration (HiRep format), kappa = 0.13, csw = 1.234 and a
 * lighter mass without clover: eo solves, double and mixed. Skipped (with a note) when the
 * archive cannot be read. */
static void stored_case(const int np[4]) {
  const char *confs = getenv("HR_STORED_CONFS"), *srcdir = getenv("HR_SRCDIR");
  char path[1024];
  if (confs != NULL && confs[0] != '\0')
    snprintf(path, sizeof path, "%s/HiRep_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1", confs);
  else
    snprintf(path, sizeof path,
             "%s/TestProgram/data/HiRep_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1",
             srcdir != NULL ? srcdir : "../..");
  const int glb[4] = {8, 8, 8, 8};
  it_geometry(glb, np);
  suNg_field *u = alloc_gfield(&glattice);
  char err[512];
  if (archive_read_checked(u, path, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) != 0) {
    if (hr_rank() == 0) printf("SKIP: stored configuration not readable: %s\n", err);
    free_gfield(u);
    return;
  }
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.kind[0] = HR_BC_PERIODIC;
  /* kappa = 0.13 with csw = 1.234 (the run's values), and a lighter Wilson mass */
  const double masses[2] = {1.0 / (2 * 0.13) - 4, -0.6}, csws[2] = {1.234, 0.0};
  spinor_field *b = alloc_spinor_field_f(1, &glattice);
  spinor_field *x = alloc_spinor_field_f(2, &glattice);
  spinor_field *t = alloc_spinor_field_f(1, &glattice);
  for (int k = 0; k < 2; k++) {
    const double m0 = masses[k];
    it_set_links(u, &bc, csws[k]);
    const dirac_op Dm = it_op(m0);
    gaussian_spinor_field(b);
    hr_solver_params p;
    solver_params_default(&p);
    p.tol = 1e-10;
    hr_solver_result r[2];
    for (int mixed = 0; mixed < 2; mixed++) {
      hr_solver_status s = dirac_solve_eo(x + mixed, &Dm, b, mixed, &p, r + mixed);
      const double res = direct_residual(DIRAC_FORM_D, m0, 0, b, x + mixed, t);
      CHECK(s == HR_SOLVER_CONVERGED && res <= p.tol, "stored conf m0=%g, mixed %d: status %d "
            "residual %.3e", m0, mixed, s, res);
    }
    CHECK(rel_diff(x + 1, x, t) < 1e-6, "stored conf m0=%g: mixed and double solutions differ "
          "by %.3e", m0, rel_diff(x + 1, x, t));
    /* BiCGstab on the even/odd operator as a second method */
    spinor_field *be = alloc_spinor_field_f(3, &glat_even);
    gaussian_spinor_field(be);
    hr_linear_operator EO = dirac_linear_operator(&Dm, DIRAC_FORM_EO);
    hr_solver_result rb;
    hr_solver_status s = bicgstab_solve(be + 1, &EO, be, &p, &rb);
    const double res = direct_residual(DIRAC_FORM_EO, m0, 0, be, be + 1, be + 2);
    CHECK(s == HR_SOLVER_CONVERGED && res <= p.tol, "stored conf m0=%g BiCGstab: status %d "
          "residual %.3e", m0, s, res);
    free_spinor_field_f(be);
    if (hr_rank() == 0)
      printf("  stored conf m0=%g csw=%g: eo CG %d it, mixed %d it (%d updates), BiCGstab %d "
             "it\n", m0, csws[k], r[0].iterations, r[1].iterations, r[1].reliable_updates,
             rb.iterations);
  }
  free_spinor_field_f(b);
  free_spinor_field_f(x);
  free_spinor_field_f(t);
  free_gfield(u);
  tc_case_end("stored configuration, eo solves");
}

int main(int argc, char **argv) {
  it_start(&argc, &argv);
  int np[4];
  it_grid_args(argc, argv, np);
  const int glb[4] = {8, 4, 4, 4};
  it_geometry(glb, np);
  dirac_bc bc;
  dirac_bc_default(&bc);
  suNg_field *u = alloc_gfield(&glattice);
  random_u(u);
  it_set_links(u, &bc, 0.0);
  solvers_case("random Wilson", 0.2, 1e-10);
  solvers_case("random Wilson", -0.4, 1e-10);
  it_set_links(u, &bc, 1.2);
  solvers_case("random clover", 0.1, 1e-11);
  failure_case(0.1);
  free_gfield(u);
  stored_case(np);
  return it_finish("test_solvers");
}
