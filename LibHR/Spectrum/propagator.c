/* propagator.c -- point sources, the even/odd
 * preconditioned solve of D x = b with reconstruction and full-operator check, point-source
 * propagators and meson correlators (conventions in Doc/solvers_and_spectrum.md). */
#include "propagator.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clover.h"
#include "communications.h"
#include "dirac.h"
#include "gamma.h"
#include "hr_error.h"
#include "linear_algebra.h"
#include "logger.h"
#include "inverters.h"

/* ------------------------------------------------------------------ sources */

/* Local index of global site gx on this process, or -1. */
static int local_index_of_global(const int gx[4]) {
  int lx[4];
  for (int mu = 0; mu < 4; mu++) {
    const int g = ((gx[mu] % GLB_SIZE[mu]) + GLB_SIZE[mu]) % GLB_SIZE[mu];
    lx[mu] = g - ZERO_COORD[mu];
    if (lx[mu] < 0 || lx[mu] >= LOC_SIZE[mu]) return -1;
  }
  return ipt(lx[0], lx[1], lx[2], lx[3]);
}

void point_source(spinor_field *s, const int gx[4], int spin, int colour) {
  hr_assert(spin >= 0 && spin < 4 && colour >= 0 && colour < NF,
            "point_source: spin %d / colour %d out of range", spin, colour);
  zero_spinor_field(s);
  host_write_spinor_field(s);
  hr_assert(s->type == &glattice, "point_source: the field must live on glattice");
  const int ix = local_index_of_global(gx);
  if (ix >= 0) _FIELD_AT(s, ix)->c[spin].c[colour] = hr_cmplx(1, 0);
}

/* ------------------------------------------------------------------ even/odd solve */

/* dst (parity geometry) = the sites of src (glattice) of that parity, on the host. */
static void restrict_parity(spinor_field *dst, const spinor_field *src) {
  sync_host_spinor_field(src);
  host_write_spinor_field(dst);
  _OMP_MASTER_FOR(dst->type, ix) { *_FIELD_AT(dst, ix) = *_FIELD_AT(src, ix); }
}
/* The sites of src (parity geometry) into dst (glattice), on the host. */
static void insert_parity(spinor_field *dst, const spinor_field *src) {
  sync_host_spinor_field(src);
  sync_host_spinor_field(dst);
  host_write_spinor_field(dst);
  _OMP_MASTER_FOR(src->type, ix) { *_FIELD_AT(dst, ix) = *_FIELD_AT(src, ix); }
}

/* Work fields of the even/odd solve. */
typedef struct {
  spinor_field *e; /* 3 on glat_even */
  spinor_field *o; /* 2 on glat_odd */
  spinor_field *full; /* 1 on glattice */
} eo_work;

static void eo_work_alloc(eo_work *w) {
  w->e = alloc_spinor_field_f(3, &glat_even);
  w->o = alloc_spinor_field_f(2, &glat_odd);
  w->full = alloc_spinor_field_f(1, &glattice);
}
static void eo_work_free(eo_work *w) {
  free_spinor_field_f(w->e);
  free_spinor_field_f(w->o);
  free_spinor_field_f(w->full);
}

static hr_solver_status solve_eo_with(const dirac_op *D, const spinor_field *b, spinor_field *x,
                                      int mixed, const hr_solver_params *p,
                                      hr_solver_result *res, eo_work *w) {
  hr_assert(b->type == &glattice && x->type == &glattice && b != x,
            "dirac_solve_eo: b and x must be different fields on glattice");
  spinor_field *be = w->e, *xe = w->e + 1, *te = w->e + 2;
  spinor_field *bo = w->o, *to = w->o + 1;
  const double bnorm = sqrt(sqnorm_spinor_field(b));
  /* b_e' = b_e - D_eo D_oo^-1 b_o (D_eo = Dphi_ from odd to even) */
  restrict_parity(be, b);
  restrict_parity(bo, b);
  Dphi_diag_inv(to, D, bo);
  Dphi_hop(te, D, to);
  sub_spinor_field(be, be, te);
  const double bpnorm = sqrt(sqnorm_spinor_field(be));
  /* CG on Q_eo^2 y = gamma5 b_e', x_e = Q_eo y; the CG residual has the norm of
   * b_e' - Dphi_eopre x_e, which is the full residual b - D x (its odd part vanishes). */
  hr_solver_params pe = *p;
  pe.initial_guess = 0;
  pe.tol = bpnorm > 0 ? 0.5 * p->tol * bnorm / bpnorm : p->tol;
  if (pe.name == NULL) pe.name = mixed ? "eo-CG-mixed" : "eo-CG";
  hr_linear_operator Q2 = dirac_linear_operator(D, DIRAC_FORM_QEO2);
  g5_spinor_field(te, be);
  hr_solver_status s = mixed ? cg_mixed_solve(xe, &Q2, te, &pe, res)
                             : cg_solve(xe, &Q2, te, &pe, res);
  hr_linear_operator Q = dirac_linear_operator(D, DIRAC_FORM_QEO);
  Q.apply(te, xe, Q.ctx);
  res->applies++;
  res->flops += Q.flops;
  /* x_o = D_oo^-1 (b_o - D_oe x_e) */
  Dphi_hop(to, D, te);
  sub_spinor_field(to, bo, to);
  Dphi_diag_inv(bo, D, to);
  insert_parity(x, te);
  insert_parity(x, bo);
  /* check with the full operator */
  hr_linear_operator M = dirac_linear_operator(D, DIRAC_FORM_D);
  const double rel = solver_true_residual(&M, b, x, w->full);
  res->applies++;
  res->flops += M.flops;
  res->residual = rel;
  if (s == HR_SOLVER_CONVERGED && !(rel <= p->tol)) {
    lprintf("INVERTER", 0, "dirac_solve_eo: full-operator residual %.3e misses the tolerance "
            "%.1e although the even-site solve converged\n", rel, p->tol);
    s = HR_SOLVER_MAX_ITER;
  }
  res->status = s;
  lprintf("INVERTER", 10, "dirac_solve_eo: %s, %d iterations, |b - D x|/|b| = %.3e\n",
          solver_status_name(s), res->iterations, rel);
  return s;
}

hr_solver_status dirac_solve_eo(spinor_field *x, const dirac_op *D, const spinor_field *b,
                                int mixed, const hr_solver_params *p, hr_solver_result *res) {
  eo_work w;
  eo_work_alloc(&w);
  const hr_solver_status s = solve_eo_with(D, b, x, mixed, p, res, &w);
  eo_work_free(&w);
  return s;
}

hr_solver_status propagator_point(spinor_field *prop, const dirac_op *D, const int gx[4],
                                  int mixed, const hr_solver_params *p, hr_solver_result *res) {
  return propagator_smeared_point(prop, D, gx, NULL, mixed, p, res);
}

hr_solver_status propagator_smeared_point(spinor_field *prop, const dirac_op *D,
                                          const int gx[4], const quark_smearing *qs, int mixed,
                                          const hr_solver_params *p, hr_solver_result *res) {
  eo_work w;
  eo_work_alloc(&w);
  spinor_field *src = alloc_spinor_field_f(1, &glattice);
  hr_solver_status worst = HR_SOLVER_CONVERGED;
  for (int spin = 0; spin < 4; spin++)
    for (int c = 0; c < NF; c++) {
      hr_solver_result r;
      point_source(src, gx, spin, c);
      if (qs != NULL) quark_smear(src, qs);
      const hr_solver_status s = solve_eo_with(D, src, prop + spin * NF + c, mixed, p, &r, &w);
      if (res != NULL) res[spin * NF + c] = r;
      if (s > worst) worst = s;
    }
  free_spinor_field_f(src);
  eo_work_free(&w);
  return worst;
}

/* ------------------------------------------------------------------ mesons */

static const hr_meson_channel channels[] = {
    {"pi", 1, {4, 0, 0}},
    {"rho", 3, {1, 2, 3}},
    {"a0", 1, {5, 0, 0}},
    {"axial", 1, {6, 0, 0}},
    {"a1", 3, {7, 8, 9}},
};

const hr_meson_channel *meson_channels(int *n) {
  *n = (int)(sizeof channels / sizeof channels[0]);
  return channels;
}

/* 4x4 matrix product c = a b. */
static void mat4_mul(const hr_complex *a, const hr_complex *b, hr_complex *c) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      hr_complex s = 0;
      for (int k = 0; k < 4; k++) s += hr_cmul(a[4 * i + k], b[4 * k + j]);
      c[4 * i + j] = s;
    }
}
/* Matrix of a channel code (see hr_meson_channel). */
static void gamma_of_code(hr_complex *g, int code) {
  if (code <= 4) {
    hr_gamma_matrix(g, code);
  } else if (code == 5) {
    for (int i = 0; i < 16; i++) g[i] = (i % 5 == 0) ? hr_cmplx(1, 0) : hr_cmplx(0, 0);
  } else {
    hr_complex gm[16], g5[16];
    hr_gamma_matrix(gm, code - 6);
    hr_gamma_matrix(g5, 4);
    mat4_mul(gm, g5, g);
  }
}

void meson_correlators(double *corr, const spinor_field *prop, int t0, int nch,
                       const hr_meson_channel *ch) {
  enum { MAXG = 16 };
  int ng = 0;
  hr_complex G1[MAXG][16], G2[MAXG][16];
  int gch[MAXG];
  double gw[MAXG];
  hr_complex g0[16], g5[16];
  hr_gamma_matrix(g0, 0);
  hr_gamma_matrix(g5, 4);
  for (int k = 0; k < nch; k++)
    for (int j = 0; j < ch[k].ngamma; j++) {
      hr_assert(ng < MAXG, "meson_correlators: too many matrices");
      hr_complex G[16], Gd[16], t1[16];
      gamma_of_code(G, ch[k].gamma[j]);
      for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) Gd[4 * a + b] = hr_conj(G[4 * b + a]);
      mat4_mul(g5, G, G1[ng]); /* gamma5 Gamma */
      mat4_mul(g0, Gd, t1);
      mat4_mul(t1, g0, Gd); /* Gammabar = gamma0 Gamma^+ gamma0 */
      mat4_mul(Gd, g5, G2[ng]); /* Gammabar gamma5 */
      gch[ng] = k;
      gw[ng] = 1.0 / ch[k].ngamma;
      ng++;
    }
  const int nt = GLB_T;
  double *loc = calloc((size_t)nch * nt, sizeof(double));
  hr_assert(loc != NULL, "out of memory");
  for (int i = 0; i < 4 * NF; i++) sync_host_spinor_field(prop + i);
  /* serial over sites (a small part of the cost of the propagator) */
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    const int t = ((g[0] - t0) % nt + nt) % nt;
    for (int b = 0; b < NF; b++)
      for (int c = 0; c < NF; c++) {
        hr_complex M[16], Md[16], A[16], B[16];
        /* M_{beta gamma} = S_{(beta b), (gamma c)} */
        for (int be = 0; be < 4; be++)
          for (int ga = 0; ga < 4; ga++) {
            M[4 * be + ga] = _FIELD_AT(prop + ga * NF + c, ix)->c[be].c[b];
            Md[4 * ga + be] = hr_conj(M[4 * be + ga]);
          }
        for (int k = 0; k < ng; k++) {
          /* -tr[G1 M G2 M^+] */
          mat4_mul(G1[k], M, A);
          mat4_mul(A, G2[k], B);
          double tr = 0;
          for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) tr += hr_creal(hr_cmul(B[4 * i + j], Md[4 * j + i]));
          loc[gch[k] * nt + t] -= gw[k] * tr;
        }
      }
  }
  global_sum(loc, nch * nt);
  memcpy(corr, loc, (size_t)nch * nt * sizeof(double));
  free(loc);
}
