/* observables_sites.h -- the per-site mathematics of the gauge observables (internal to
 * LibHR/Observables), written once and shared by the CPU loops of observables.c and the
 * kernels of observables_gpu.c (host compiler in emulated builds, nvcc in CUDA builds):
 * the plaquette of a site and plane, the clover leaves and field strength F_{mu nu}(x), the
 * action and topological-charge densities E(x) and q(x), the per-site sums of the plaquette
 * observables and of Wact / E / q, and one step of a Polyakov line. Every function reads the
 * links through an obs_gauge_view (the shared gauge_view of Include/gauge_view.h), which
 * addresses either the host copy (array of structures) or the device copy (structure of
 * arrays per piece, gpu.h) of an suNg_field on glattice. */
#ifndef OBSERVABLES_SITES_H
#define OBSERVABLES_SITES_H

#include "gauge_view.h"
#include "gauge_view_paths.h"
#include "gpu.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "suN.h"

#define OBS_PI 3.14159265358979323846

/* The view of the links and site tables of glattice on one side (Include/gauge_view.h,
 * shared with the pure-gauge update); the observables use its time and glb_t entries. */
typedef gauge_view obs_gauge_view;

/* Which plaquettes a per-site plaquette sum takes, and how they are weighed. */
enum { OBS_PLAQ_ALL = 0, OBS_PLAQ_TEMPORAL = 1, OBS_PLAQ_SPATIAL = 2, OBS_PLAQ_OPEN_BC = 3 };

/* out = U_mu(ix); neighbours up and down (gauge_view.h). */
HR_INLINE void obs_link(suNg *out, const obs_gauge_view *v, int ix, int mu) {
  gauge_view_link(out, v, ix, mu);
}
HR_INLINE int obs_up(const obs_gauge_view *v, int ix, int mu) { return gauge_view_up(v, ix, mu); }
HR_INLINE int obs_dn(const obs_gauge_view *v, int ix, int mu) { return gauge_view_dn(v, ix, mu); }

/* Re tr of the plaquette U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+. */
HR_INLINE double obs_plaquette_re_trace(const obs_gauge_view *v, int ix, int mu, int nu) {
  /* a = U_mu(x) U_nu(x+mu) made a row at a time in place, then Re tr(a b^+)
   * (suNg_re_trace_mul_dag) with b = U_nu(x) U_mu(x+nu) made a row at a time from the rows of
   * U_nu(x) read where used: at most two matrices and a row are held (GPU registers); the
   * operations are those of the whole-matrix products */
  suNg a, l;
  obs_link(&a, v, ix, mu);
  obs_link(&l, v, obs_up(v, ix, mu), nu);
  suNg_mul_left_inplace(&a, &l);
  obs_link(&l, v, obs_up(v, ix, nu), mu);
  double s = 0.0;
  HR_DEVICE_UNROLL
  for (int i = 0; i < NG; ++i) {
    suNg r; /* row i of U_nu(x) in row 0 */
    HR_GPU_LOAD_BARRIER();
    HR_DEVICE_UNROLL
    for (int k = 0; k < NG; ++k) r.c[k] = gauge_view_link_entry(v, ix, nu, i * NG + k);
    HR_DEVICE_UNROLL
    for (int j = 0; j < NG; ++j)
      s += suNg_re_conj_term(a.c[i * NG + j], suNg_mul_entry(&r, &l, 0, j));
  }
  return s;
}

/* Weight of plaquette (mu, nu) at global time t with open time boundaries (HiRep and
 * openQCD agree on these): space-like at t = 0 or glb_t-1: 1/2, time-like at glb_t-1: 0. */
HR_INLINE double obs_open_bc_weight(int t, int mu, int glb_t) {
  if (mu == 0) return t == glb_t - 1 ? 0.0 : 1.0;
  return (t == 0 || t == glb_t - 1) ? 0.5 : 1.0;
}

/* Sum of the (weighted) Re tr P of the plaquettes of site ix that `which` selects. */
HR_INLINE double obs_site_plaquettes(const obs_gauge_view *v, int ix, int which) {
  const int t = which == OBS_PLAQ_OPEN_BC ? v->time[ix - v->shift] : 0;
  double s = 0.0;
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = mu + 1; nu < 4; ++nu) {
      if ((which == OBS_PLAQ_TEMPORAL && mu != 0) || (which == OBS_PLAQ_SPATIAL && mu == 0))
        continue;
      const double w = which == OBS_PLAQ_OPEN_BC ? obs_open_bc_weight(t, mu, v->glb_t) : 1.0;
      if (w != 0.0) s += w * obs_plaquette_re_trace(v, ix, mu, nu);
    }
  return s;
}

/* E(x) = -sum_{mu<nu} tr F^2 and q(x) = -(2/(8 pi^2)) Re[tr F01 F23 + tr F02 F31 + tr F03 F12]
 * (openQCD: F^a = -2 tr(F T^a) with antihermitian T^a, so sum_a F^a G^a = -2 tr(F G)). The
 * planes are taken in the pairs of q, one traceless F (gauge_view_clover_F) held while the
 * other is made. */
HR_INLINE void obs_clover_density(double *e, double *q, const obs_gauge_view *v, int ix) {
  double es = 0.0, s = 0.0;
  /* pairs (01, 23), (02, 13), (03, 12), F31 = -F13: plane (0, k + 1) and the other two
   * directions (no arrays indexed at run time: they would go to local memory) */
  HR_DEVICE_UNROLL
  for (int k = 0; k < 3; ++k) {
    gauge_view_antiherm f, g;
    gauge_view_clover_F(&f, v, ix, 0, k + 1, 1);
    es -= gauge_view_antiherm_re_trace_mul(&f, &f);
    gauge_view_clover_F(&g, v, ix, k == 0 ? 2 : 1, k == 2 ? 2 : 3, 1);
    es -= gauge_view_antiherm_re_trace_mul(&g, &g);
    s += (k == 1 ? -1.0 : 1.0) * gauge_view_antiherm_re_trace_mul(&f, &g);
  }
  *e = es;
  *q = -2.0 * s / (8.0 * OBS_PI * OBS_PI);
}

/* The contributions of site ix to Wact (2 Re tr(1 - P) summed over its 6 plaquettes, with
 * openQCD's boundary weights when open_bc_t), E and q (0 at the boundary times when
 * open_bc_t). */
HR_INLINE void obs_site_action(double *w, double *e, double *q, const obs_gauge_view *v,
                               int ix, int open_bc_t) {
  const int t = v->time[ix - v->shift];
  double ws = 0.0;
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = mu + 1; nu < 4; ++nu) {
      const double weight = open_bc_t ? obs_open_bc_weight(t, mu, v->glb_t) : 1.0;
      if (weight != 0.0) ws += weight * 2.0 * (NG - obs_plaquette_re_trace(v, ix, mu, nu));
    }
  *w = ws;
  if (!open_bc_t || (t > 0 && t < v->glb_t - 1)) {
    obs_clover_density(e, q, v, ix);
  } else {
    *e = 0.0;
    *q = 0.0;
  }
}

/* The numbers of site ix for the time-slice sums of the Wilson flow (openQCD's Wact, Yact and
 * Q per slice): r[0] = 2 Re tr(1 - P) of its spatial plaquettes plus half of that of its
 * temporal ones (its slice's share), r[1] = the other half of the temporal ones (the next
 * slice's share), r[2] = E(x), r[3] = q(x); with open_bc_t openQCD's weights, and E = q = 0
 * at the boundary times. */
HR_INLINE void obs_site_flow_parts(double *r, const obs_gauge_view *v, int ix, int open_bc_t) {
  const int t = v->time[ix - v->shift];
  double spatial = 0.0, temporal = 0.0;
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = mu + 1; nu < 4; ++nu) {
      const double weight = open_bc_t ? obs_open_bc_weight(t, mu, v->glb_t) : 1.0;
      if (weight == 0.0) continue;
      const double a = weight * 2.0 * (NG - obs_plaquette_re_trace(v, ix, mu, nu));
      if (mu == 0)
        temporal += a;
      else
        spatial += a;
    }
  r[0] = spatial + 0.5 * temporal;
  r[1] = 0.5 * temporal;
  r[2] = r[3] = 0.0;
  if (!open_bc_t || (t > 0 && t < v->glb_t - 1)) obs_clover_density(&r[2], &r[3], v, ix);
}

/* The Polyakov line through spatial site s (0 <= s < vs = X Y Z) over the local times: with
 * start_new, line = U_0(t=0) U_0(1) ... U_0(nt-1), else line = line U_0(0) ... U_0(nt-1)
 * (the product of the processes below, received). ipt[t vs + s] is the index of local site
 * (t, s) (hr_ipt). Formed left to right, one factor at a time. */
HR_INLINE void obs_polyakov_line(suNg *line, const obs_gauge_view *v, const int *ipt, int vs, int s,
                                 int nt, int start_new) {
  suNg l, r;
  int t = 0;
  if (start_new) {
    obs_link(line, v, ipt[s], 0);
    t = 1;
  }
  for (; t < nt; ++t) {
    obs_link(&l, v, ipt[t * vs + s], 0);
    suNg_mul(&r, line, &l);
    *line = r;
  }
}

/* Real and imaginary part of tr m. */
HR_INLINE void obs_trace_parts(double *re, double *im, const suNg *m) {
  const hr_complex z = suNg_trace(m);
  *re = hr_creal(z);
  *im = hr_cimag(z);
}

#endif
