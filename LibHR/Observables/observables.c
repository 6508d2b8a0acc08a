/* observables.c -- plaquettes, Polyakov loop and the clover-leaf E and Q of a gauge field
 * (CPU path, OpenMP over sites, global sums over processes). Definitions: observables.h
 * and Doc/archives_and_observables.md. */
#include "observables.h"

#include <math.h>
#include <stdlib.h>

#include "communications.h"
#include "geometry.h"
#include "hr_error.h"
#include "suN.h"

#define HR_PI 3.14159265358979323846

/* ------------------------------------------------------------------ reproducible sums */

/* Sums over sites are exact and so independent of the order of summation (threads, process
 * grid): each value (|v| < 2^10) is split into 4 integer-valued limbs of 22 bits (v = (l0 +
 * l1 2^-22 + l2 2^-44 + l3 2^-66) 2^-12, the last limb rounded, i.e. 2^-78 absolute
 * resolution); sums of integer-valued doubles below 2^53 are exact, which holds for fewer
 * than 2^31 sites. The limb sums are combined in a fixed order at the end. Values beyond
 * 2^10 (only in damaged fields) fall back to a plain sum. */
#define EXACT_LIMBS 4
#define EXACT_TOP 1024.0

static inline void exact_split(double v, double limb[EXACT_LIMBS]) {
  double x = v * 0x1p12; /* |x| < 2^22 */
  for (int k = 0; k < EXACT_LIMBS - 1; ++k) {
    const double a = trunc(x);
    limb[k] = a;
    x = (x - a) * 0x1p22; /* both steps exact */
  }
  limb[EXACT_LIMBS - 1] = nearbyint(x);
}

/* The sum of v[0 .. n-1] over this process, plus the same of every other process. */
static double exact_global_sum(const double *v, long n) {
  double l0 = 0.0, l1 = 0.0, l2 = 0.0, l3 = 0.0;
  int out_of_range = 0;
  HR_OMP_PRAGMA(omp parallel for schedule(static) reduction(+ : l0, l1, l2, l3)
                    reduction(| : out_of_range))
  for (long i = 0; i < n; ++i) {
    if (!(fabs(v[i]) < EXACT_TOP)) {
      out_of_range = 1;
      continue;
    }
    double l[EXACT_LIMBS];
    exact_split(v[i], l);
    l0 += l[0];
    l1 += l[1];
    l2 += l[2];
    l3 += l[3];
  }
  /* a value out of range (a damaged field): plain sum, which keeps Inf / NaN visible */
  global_max_int(&out_of_range, 1);
  if (out_of_range) {
    double plain = 0.0;
    HR_OMP_PRAGMA(omp parallel for schedule(static) reduction(+ : plain))
    for (long i = 0; i < n; ++i)
      plain += v[i];
    global_sum(&plain, 1);
    return plain;
  }
  double s[EXACT_LIMBS] = {l0, l1, l2, l3};
  global_sum(s, EXACT_LIMBS);
  return (((s[3] * 0x1p-22 + s[2]) * 0x1p-22 + s[1]) * 0x1p-22 + s[0]) * 0x1p-12;
}

/* Zeroed array of one double per stored site of u's geometry, indexed by ix - master_shift. */
static double *site_values_new(const suNg_field *u, long *n) {
  *n = geometry_field_size(u->type, HR_LAYOUT_GAUGE);
  double *v = calloc((size_t)*n, sizeof *v);
  if (v == NULL) hr_error("out of memory (%ld doubles)", *n);
  return v;
}
#define SITE_VALUE(v, u, ix) ((v)[(ix) - (u)->type->master_shift])

/* ------------------------------------------------------------------ per-site mathematics */

/* Link U_mu(ix) of u. */
#define LINK(u, ix, mu) ((const suNg *)_4FIELD_AT(u, ix, mu))

/* Re tr(a b^+) = sum_ij Re(a_ij conj(b_ij)). */
static inline double suNg_re_trace_mul_dag(const suNg *a, const suNg *b) {
  double s = 0.0;
  for (int i = 0; i < NG * NG; ++i)
    s += creal(a->c[i]) * creal(b->c[i]) + cimag(a->c[i]) * cimag(b->c[i]);
  return s;
}

/* Re tr of the plaquette U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+. */
static inline double plaquette_re_trace(const suNg_field *u, int ix, int mu, int nu) {
  suNg a, b;
  suNg_mul(LINK(u, ix, mu), LINK(u, iup(ix, mu), nu), &a);
  suNg_mul(LINK(u, ix, nu), LINK(u, iup(ix, nu), mu), &b);
  return suNg_re_trace_mul_dag(&a, &b);
}

/* Global time coordinate of the master site ix. */
static inline int global_time(int ix) {
  int x[4];
  local_coordinates(ix, x);
  return x[0] + ZERO_COORD[0];
}

/* Q_{mu nu}(x): the sum of the four plaquette leaves in the (mu, nu) plane that start and end
 * at x, counter-clockwise. */
static void clover_leaves(const suNg_field *u, int ix, int mu, int nu, suNg *q) {
  const int xpm = iup(ix, mu), xmm = idn(ix, mu), xpn = iup(ix, nu), xmn = idn(ix, nu);
  const int xmm_pn = idn(xpn, mu), xmm_mn = idn(xmn, mu), xpm_mn = idn(xpm, nu);
  suNg a, b, leaf;
  /* U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+ */
  suNg_mul(LINK(u, ix, mu), LINK(u, xpm, nu), &a);
  suNg_mul(LINK(u, ix, nu), LINK(u, xpn, mu), &b);
  suNg_mul_dag(&a, &b, q);
  /* U_nu(x) U_mu(x+nu-mu)^+ U_nu(x-mu)^+ U_mu(x-mu) */
  suNg_mul_dag(LINK(u, ix, nu), LINK(u, xmm_pn, mu), &a);
  suNg_mul_dag(&a, LINK(u, xmm, nu), &b);
  suNg_mul(&b, LINK(u, xmm, mu), &leaf);
  suNg_add(q, &leaf, q);
  /* U_mu(x-mu)^+ U_nu(x-mu-nu)^+ U_mu(x-mu-nu) U_nu(x-nu) */
  suNg_mul(LINK(u, xmm_mn, nu), LINK(u, xmm, mu), &a);  /* U_nu(x-mu-nu) U_mu(x-mu) */
  suNg_mul(LINK(u, xmm_mn, mu), LINK(u, xmn, nu), &b);  /* U_mu(x-mu-nu) U_nu(x-nu) */
  suNg_dag_mul(&a, &b, &leaf);
  suNg_add(q, &leaf, q);
  /* U_nu(x-nu)^+ U_mu(x-nu) U_nu(x+mu-nu) U_mu(x)^+ */
  suNg_dag_mul(LINK(u, xmn, nu), LINK(u, xmn, mu), &a);
  suNg_mul(&a, LINK(u, xpm_mn, nu), &b);
  suNg_mul_dag(&b, LINK(u, ix, mu), &leaf);
  suNg_add(q, &leaf, q);
}

/* F_{mu nu}(x): the traceless part of (Q - Q^+)/8 (antihermitian). */
static void clover_field_strength(const suNg_field *u, int ix, int mu, int nu, suNg *f) {
  suNg q, qd;
  clover_leaves(u, ix, mu, nu, &q);
  suNg_dagger(&q, &qd);
  suNg_sub(&q, &qd, f);
  suNg_scale(0.125, f, f);
  const hr_complex tr = suNg_trace(f) / (double)NG;
  for (int i = 0; i < NG; ++i)
    f->c[i * NG + i] -= tr;
}

/* Re tr(a b). */
static inline double suNg_re_trace_mul(const suNg *a, const suNg *b) {
  double s = 0.0;
  for (int i = 0; i < NG; ++i)
    for (int k = 0; k < NG; ++k)
      s += creal(hr_cmul(a->c[i * NG + k], b->c[k * NG + i]));
  return s;
}

/* E(x) = -sum_{mu<nu} tr F^2 and q(x) = -(2/(8 pi^2)) Re[tr F01 F23 + tr F02 F31 + tr F03 F12]
 * (openQCD: F^a = -2 tr(F T^a) with antihermitian T^a, so sum_a F^a G^a = -2 tr(F G)). */
static void clover_density(const suNg_field *u, int ix, double *e, double *q) {
  suNg f[4][4];
  static const int planes[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  double es = 0.0;
  for (int p = 0; p < 6; ++p) {
    const int mu = planes[p][0], nu = planes[p][1];
    clover_field_strength(u, ix, mu, nu, &f[mu][nu]);
    es -= suNg_re_trace_mul(&f[mu][nu], &f[mu][nu]);
  }
  /* F31 = -F13 */
  const double s = suNg_re_trace_mul(&f[0][1], &f[2][3]) - suNg_re_trace_mul(&f[0][2], &f[1][3]) +
                   suNg_re_trace_mul(&f[0][3], &f[1][2]);
  *e = es;
  *q = -2.0 * s / (8.0 * HR_PI * HR_PI);
}

/* ------------------------------------------------------------------ plaquettes */

/* Weight of plaquette (mu, nu) at global time t with open time boundaries (HiRep and
 * openQCD agree on these): space-like at t = 0 or GLB_T-1: 1/2, time-like at GLB_T-1: 0. */
static inline double open_bc_weight(int t, int mu) {
  if (mu == 0) return t == GLB_T - 1 ? 0.0 : 1.0;
  return (t == 0 || t == GLB_T - 1) ? 0.5 : 1.0;
}

/* Which plaquettes a sum takes, and how they are weighed. */
enum { PLAQ_ALL, PLAQ_TEMPORAL, PLAQ_SPATIAL, PLAQ_OPEN_BC };

/* Exact global sum of (weighted) Re tr P over the selected plaquettes. */
static double plaquette_sum(const suNg_field *u, int which) {
  sync_host_suNg_field(u);
  long n;
  double *v = site_values_new(u, &n);
  _OMP_MASTER_FOR(u->type, ix) {
    const int t = which == PLAQ_OPEN_BC ? global_time(ix) : 0;
    double s = 0.0;
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        if ((which == PLAQ_TEMPORAL && mu != 0) || (which == PLAQ_SPATIAL && mu == 0)) continue;
        const double w = which == PLAQ_OPEN_BC ? open_bc_weight(t, mu) : 1.0;
        if (w != 0.0) s += w * plaquette_re_trace(u, ix, mu, nu);
      }
    SITE_VALUE(v, u, ix) = s;
  }
  const double sum = exact_global_sum(v, n);
  free(v);
  return sum;
}

void avr_plaquette_parts(const suNg_field *u, double *temporal, double *spatial) {
  const double norm = 3.0 * NG * (double)GLB_VOLUME;
  *temporal = plaquette_sum(u, PLAQ_TEMPORAL) / norm;
  *spatial = plaquette_sum(u, PLAQ_SPATIAL) / norm;
}

double avr_plaquette(const suNg_field *u) {
  return plaquette_retr_sum(u) / (6.0 * NG * (double)GLB_VOLUME);
}

double plaquette_retr_sum(const suNg_field *u) { return plaquette_sum(u, PLAQ_ALL); }

double avr_plaquette_open_bc(const suNg_field *u) {
  return plaquette_sum(u, PLAQ_OPEN_BC) /
         (6.0 * NG * (double)GLB_X * GLB_Y * GLB_Z * (GLB_T - 1));
}

/* ------------------------------------------------------------------ Polyakov loop */

hr_complex polyakov_loop(const suNg_field *u) {
  sync_host_suNg_field(u);
  const int vs = X * Y * Z;
  suNg *line = malloc((size_t)vs * sizeof *line);
  if (line == NULL) hr_error("out of memory (%d matrices)", vs);
  /* The product U_0(0) U_0(1) ... U_0(GLB_T-1) is formed left to right in every case, so its
   * rounding does not depend on the process grid: with NP_T > 1 the process at time
   * coordinate c receives the products of the processes below, multiplies its own links
   * onto them one by one and passes them up. */
  int first_local = 0;
#if HR_WITH_MPI
  const int count = vs * NG * NG * 2;
  if (NP_T > 1 && COORD[0] > 0) {
    MPI_Recv(line, count, MPI_DOUBLE, PROC_DN[0], 701, hr_cart_comm, MPI_STATUS_IGNORE);
  } else
#endif
  {
    first_local = 1;
  }
  HR_OMP_PRAGMA(omp parallel for schedule(static))
  for (int s = 0; s < vs; ++s) {
    const int z = s % Z, y = (s / Z) % Y, x = s / (Y * Z);
    if (first_local) suNg_copy(LINK(u, ipt(0, x, y, z), 0), &line[s]);
    for (int t = first_local; t < T; ++t)
      suNg_mul(&line[s], LINK(u, ipt(t, x, y, z), 0), &line[s]);
  }
#if HR_WITH_MPI
  if (NP_T > 1 && COORD[0] < NP_T - 1)
    MPI_Send(line, count, MPI_DOUBLE, PROC_UP[0], 701, hr_cart_comm);
#endif
  /* the last process in time holds the full products; the others add zeros */
  double *re = calloc((size_t)vs, sizeof *re), *im = calloc((size_t)vs, sizeof *im);
  if (re == NULL || im == NULL) hr_error("out of memory (%d doubles)", vs);
  if (COORD[0] == NP_T - 1) {
    HR_OMP_PRAGMA(omp parallel for schedule(static))
    for (int s = 0; s < vs; ++s) {
      const hr_complex z = suNg_trace(&line[s]);
      re[s] = creal(z);
      im[s] = cimag(z);
    }
  }
  free(line);
  const double tr[2] = {exact_global_sum(re, vs), exact_global_sum(im, vs)};
  free(re);
  free(im);
  const double norm = (double)NG * GLB_X * GLB_Y * GLB_Z;
  return hr_cmplx(tr[0] / norm, tr[1] / norm);
}

/* ------------------------------------------------------------------ E, Q, Wact */

gauge_action_observables gauge_action_observables_compute(const suNg_field *u, int open_bc_t) {
  sync_host_suNg_field(u);
  long n;
  double *w = site_values_new(u, &n), *e = site_values_new(u, &n), *q = site_values_new(u, &n);
  _OMP_MASTER_FOR(u->type, ix) {
    const int t = global_time(ix);
    double ws = 0.0;
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        const double weight = open_bc_t ? open_bc_weight(t, mu) : 1.0;
        if (weight != 0.0) ws += weight * 2.0 * (NG - plaquette_re_trace(u, ix, mu, nu));
      }
    SITE_VALUE(w, u, ix) = ws;
    if (!open_bc_t || (t > 0 && t < GLB_T - 1))
      clover_density(u, ix, &SITE_VALUE(e, u, ix), &SITE_VALUE(q, u, ix));
  }
  gauge_action_observables r;
  r.wact = exact_global_sum(w, n);
  r.yact = exact_global_sum(e, n);
  r.qtop = exact_global_sum(q, n);
  free(w);
  free(e);
  free(q);
  return r;
}
