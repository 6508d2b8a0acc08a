/* smearing.c -- APE, stout and HYP smearing of smearing.h on the host copies. Every level
 * reads links (and decorated links) at most one step away, diagonals included, so the
 * ordinary depth-one gauge halo serves: each level fills the master sites of its fields and
 * exchanges their halo before the next level reads them.
 * Staple of U_mu(x) in direction nu, built from the links L (transverse) and M (along mu):
 *   C = L_nu(x) M_mu(x+nu) L_nu(x+mu)^+ + L_nu(x-nu)^+ M_mu(x-nu) L_nu(x-nu+mu).
 * HYP (Hasenfratz-Knechtli), with sigma the fourth direction:
 *   level 3: Vbar_{mu;nu rho} from U and the staples in the one direction eta not in
 *            {mu, nu, rho}, weight alpha3/2; stored by (mu, eta);
 *   level 2: Vtil_{mu;nu} from the staples rho != mu, nu of L = Vbar_{rho;nu mu},
 *            M = Vbar_{mu;rho nu} (both: eta = sigma), weight alpha2/4;
 *   level 1: V_mu from the staples nu != mu of L = Vtil_{nu;mu}, M = Vtil_{mu;nu},
 *            weight alpha1/6; every level projected to SU(N). */
#include "smearing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "communications.h"
#include "halo_exchange.h"
#include "gauge_view.h"
#include "geometry.h"
#include "hr_error.h"
#include "suN.h"

int smear_kind_from_name(const char *name) {
  static const char *names[4] = {"none", "ape", "stout", "hyp"};
  for (int k = 0; k < 4; ++k)
    if (strcasecmp(name, names[k]) == 0) return k;
  return -1;
}

const char *smear_kind_name(smear_kind k) {
  static const char *names[4] = {"none", "ape", "stout", "hyp"};
  return (int)k >= 0 && (int)k < 4 ? names[k] : "unknown";
}

/* ------------------------------------------------------------------ projection */

/* inv = a^-1 by Gauss-Jordan elimination with partial pivoting; 0, or -1 if singular. */
static int matrix_inverse(suNg *inv, const suNg *a) {
  hr_complex m[NG][2 * NG];
  for (int i = 0; i < NG; ++i)
    for (int j = 0; j < NG; ++j) {
      m[i][j] = a->c[i * NG + j];
      m[i][NG + j] = i == j ? 1.0 : 0.0;
    }
  for (int k = 0; k < NG; ++k) {
    int p = k;
    for (int i = k + 1; i < NG; ++i)
      if (cabs(m[i][k]) > cabs(m[p][k])) p = i;
    if (cabs(m[p][k]) == 0.0) return -1;
    for (int j = 0; j < 2 * NG; ++j) {
      const hr_complex t = m[k][j];
      m[k][j] = m[p][j];
      m[p][j] = t;
    }
    const hr_complex piv = 1.0 / m[k][k];
    for (int j = 0; j < 2 * NG; ++j) m[k][j] *= piv;
    for (int i = 0; i < NG; ++i) {
      if (i == k) continue;
      const hr_complex f = m[i][k];
      for (int j = 0; j < 2 * NG; ++j) m[i][j] -= f * m[k][j];
    }
  }
  for (int i = 0; i < NG; ++i)
    for (int j = 0; j < NG; ++j) inv->c[i * NG + j] = m[i][NG + j];
  return 0;
}

/* Newton's iteration W <- (W + W^-+)/2 for the unitary polar factor (quadratic convergence),
 * then the determinant phase divided out. */
void smear_project_sun(suNg *W, const suNg *X) {
  suNg w = *X, inv, next;
  for (int it = 0; it < 100; ++it) {
    if (matrix_inverse(&inv, &w) != 0) hr_error("smearing: singular staple sum");
    double change = 0.0;
    for (int i = 0; i < NG; ++i)
      for (int j = 0; j < NG; ++j) {
        next.c[i * NG + j] = 0.5 * (w.c[i * NG + j] + conj(inv.c[j * NG + i]));
        change = fmax(change, cabs(next.c[i * NG + j] - w.c[i * NG + j]));
      }
    w = next;
    if (change < 1e-15) break;
  }
  const hr_complex det = suN_det(NG, w.c);
  const hr_complex phase = cexp(-I * carg(det) / NG);
  for (int i = 0; i < NG * NG; ++i) W->c[i] = w.c[i] * phase;
}

/* ------------------------------------------------------------------ staples */

/* Direction index of nu among the three directions other than mu, and back. */
static int tidx(int mu, int nu) { return nu - (nu > mu); }
static int tdir(int mu, int k) { return k + (k >= mu); }

/* *acc += the staple of U_mu(x) in direction nu with transverse links from view l (link nu)
 * and links along mu from view m (link mu). */
static void add_staple(suNg *acc, const gauge_view *l, int lnu, const gauge_view *m, int mmu, int ix,
                       int mu, int nu) {
  suNg a, b, c, t, s;
  const int xpn = gauge_view_up(l, ix, nu), xpm = gauge_view_up(l, ix, mu);
  const int xmn = gauge_view_dn(l, ix, nu), xmn_pm = gauge_view_up(l, xmn, mu);
  gauge_view_link(&a, l, ix, lnu);
  gauge_view_link(&b, m, xpn, mmu);
  gauge_view_link(&c, l, xpm, lnu);
  suNg_mul(&t, &a, &b);
  suNg_mul_dag(&s, &t, &c);
  suNg_add(acc, acc, &s);
  gauge_view_link(&a, l, xmn, lnu);
  gauge_view_link(&b, m, xmn, mmu);
  gauge_view_link(&c, l, xmn_pm, lnu);
  suNg_dag_mul(&t, &a, &b);
  suNg_mul(&s, &t, &c);
  suNg_add(acc, acc, &s);
}

void smear_add_staple(suNg *c, const gauge_view *v, int ix, int mu, int nu) {
  add_staple(c, v, nu, v, mu, ix, mu, nu);
}

void smear_stout_exponent(suNg *A, const suNg *c, const suNg *u, double rho) {
  suNg omega;
  suNg_mul_dag(&omega, c, u);
  for (int i = 0; i < NG; ++i)
    for (int j = 0; j < NG; ++j)
      A->c[i * NG + j] = 0.5 * rho * (omega.c[i * NG + j] - conj(omega.c[j * NG + i]));
  const hr_complex tr = suNg_trace(A) / (double)NG;
  for (int i = 0; i < NG; ++i) A->c[i * NG + i] -= tr;
}

/* out = Proj[(1 - w) U + (w / n) staples]. */
static void blocked_link(suNg *out, const suNg *u, const suNg *staples, double w, int n) {
  suNg x;
  suNg_scale(&x, 1.0 - w, u);
  suNg_mul_add(&x, &x, w / n, staples);
  smear_project_sun(out, &x);
}

/* ------------------------------------------------------------------ one step of each kind */

static gauge_view host_view(const suNg_field *f) {
  return gauge_view_of_host(sync_host_suNg_field(f), NULL);
}

static void ape_or_stout_step(suNg_field *out, const suNg_field *u, const smear_params *p) {
  const gauge_view v = host_view(u);
  suNg *om = host_write_suNg_field(out);
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      suNg c, l;
      suNg_zero(&c);
      for (int k = 0; k < 3; ++k) add_staple(&c, &v, tdir(mu, k), &v, mu, ix, mu, tdir(mu, k));
      gauge_view_link(&l, &v, ix, mu);
      suNg *o = &om[4 * (ix - sh) + mu];
      if (p->kind == SMEAR_APE) {
        blocked_link(o, &l, &c, p->alpha, 6);
      } else {
        /* V = exp(P_ta(rho C U^+)) U */
        suNg x, e;
        smear_stout_exponent(&x, &c, &l, p->rho);
        suNg_exp_matrix(&e, &x);
        suNg_mul(o, &e, &l);
      }
    }
  }
  sendrecv_suNg_field(out);
}

static void hyp_step(suNg_field *out, const suNg_field *u, const smear_params *p,
                     suNg_field *l3, suNg_field *l2) {
  const gauge_view v = host_view(u);
  const int sh = glattice.master_shift;
  /* level 3: l3[k] link mu = Vbar with staples in eta = tdir(mu, k) */
  suNg *m3[3];
  for (int k = 0; k < 3; ++k) m3[k] = host_write_suNg_field(&l3[k]);
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu)
      for (int k = 0; k < 3; ++k) {
        suNg c, l;
        suNg_zero(&c);
        add_staple(&c, &v, tdir(mu, k), &v, mu, ix, mu, tdir(mu, k));
        gauge_view_link(&l, &v, ix, mu);
        blocked_link(&m3[k][4 * (ix - sh) + mu], &l, &c, p->hyp[2], 2);
      }
  }
  for (int k = 0; k < 3; ++k) sendrecv_suNg_field(&l3[k]);
  gauge_view v3[3];
  for (int k = 0; k < 3; ++k) v3[k] = host_view(&l3[k]);
  /* level 2: l2[tidx(mu, nu)] link mu = Vtil_{mu;nu} */
  suNg *m2[3];
  for (int k = 0; k < 3; ++k) m2[k] = host_write_suNg_field(&l2[k]);
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu)
      for (int kn = 0; kn < 3; ++kn) {
        const int nu = tdir(mu, kn);
        suNg c, l;
        suNg_zero(&c);
        for (int rho = 0; rho < 4; ++rho) {
          if (rho == mu || rho == nu) continue;
          const int sigma = 6 - mu - nu - rho;
          add_staple(&c, &v3[tidx(rho, sigma)], rho, &v3[tidx(mu, sigma)], mu, ix, mu, rho);
        }
        gauge_view_link(&l, &v, ix, mu);
        blocked_link(&m2[kn][4 * (ix - sh) + mu], &l, &c, p->hyp[1], 4);
      }
  }
  for (int k = 0; k < 3; ++k) sendrecv_suNg_field(&l2[k]);
  gauge_view v2[3];
  for (int k = 0; k < 3; ++k) v2[k] = host_view(&l2[k]);
  /* level 1 */
  suNg *om = host_write_suNg_field(out);
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      suNg c, l;
      suNg_zero(&c);
      for (int nu = 0; nu < 4; ++nu)
        if (nu != mu) add_staple(&c, &v2[tidx(nu, mu)], nu, &v2[tidx(mu, nu)], mu, ix, mu, nu);
      gauge_view_link(&l, &v, ix, mu);
      blocked_link(&om[4 * (ix - sh) + mu], &l, &c, p->hyp[0], 6);
    }
  }
  sendrecv_suNg_field(out);
}

void smear_gauge_field(suNg_field *out, const suNg_field *u, const smear_params *p) {
  hr_assert(out != u, "smear_gauge_field: out and u must differ");
  copy_suNg_field(out, u);
  if (p->kind == SMEAR_NONE || p->steps <= 0) return;
  suNg_field *tmp = alloc_suNg_field(1, &glattice);
  suNg_field *l3 = p->kind == SMEAR_HYP ? alloc_suNg_field(3, &glattice) : NULL;
  suNg_field *l2 = p->kind == SMEAR_HYP ? alloc_suNg_field(3, &glattice) : NULL;
  for (int s = 0; s < p->steps; ++s) {
    copy_suNg_field(tmp, out);
    if (p->kind == SMEAR_HYP)
      hyp_step(out, tmp, p, l3, l2);
    else
      ape_or_stout_step(out, tmp, p);
  }
  free_suNg_field(tmp);
  if (l3 != NULL) free_suNg_field(l3);
  if (l2 != NULL) free_suNg_field(l2);
}
