/* gauge_action_sites.h -- the per-site mathematics of the gauge actions (gauge_action.h,
 * internal to Update/), written once in the common subset of C11 and CUDA C++ and shared by
 * the CPU loops of gauge_action.c and the kernels of gauge_action_gpu.c. Links and the
 * intermediate staple fields are read through gauge_views (Include/gauge_view.h: host or
 * device copy), momenta through the same view's tables.
 *
 * Notation: x+mu is the neighbour of x one step up in direction mu; s = +1 / -1 the side of a
 * staple; nu_k(mu) (k = 0, 1, 2) the k-th direction other than mu. The plaquette staple
 *   V_{mu nu +}(x) = U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+             (x+mu -> x+mu+nu -> x+nu -> x)
 *   V_{mu nu -}(x) = U_nu(x+mu-nu)^+ U_mu(x-nu)^+ U_nu(x-nu)       (x+mu -> x+mu-nu -> x-nu -> x)
 * closes U_mu(x) into a plaquette: P = U_mu(x) V. The 24 staples of a site are stored in six
 * suNg_fields (field 2k + (s < 0), link mu: V_{mu nu_k(mu) s}(x)), whose gauge halo (depth
 * one, edges included) is exchanged before use. With them every 2x1 rectangle through
 * U_mu(x), written U_mu(x) Sigma with Sigma the 5-link path back from x+mu to x, reads links
 * and staples at most one step (diagonals included) away from x; for each nu != mu:
 *   a+ (U_mu(x) first of the long side, side +nu)  Sigma = V_{nu mu +}(x+mu)^+ U_mu(x+nu)^+ U_nu(x)^+
 *   a- (first, side -nu)                          Sigma = V_{nu mu +}(x+mu-nu) U_mu(x-nu)^+ U_nu(x-nu)
 *   b+ (second of the long side, side +nu)        Sigma = U_nu(x+mu) U_mu(x+nu)^+ V_{nu mu -}(x)
 *   b- (second, side -nu)                         Sigma = U_nu(x+mu-nu)^+ U_mu(x-nu)^+ V_{nu mu -}(x-nu)^+
 *   e+ (short side, rectangle along +nu)          Sigma = U_nu(x+mu) V_{mu nu +}(x+nu) U_nu(x)^+
 *   e- (short side, rectangle along -nu)          Sigma = U_nu(x+mu-nu)^+ V_{mu nu -}(x-nu) U_nu(x-nu)
 * (6 per nu, 18 per link: each of the 12 V rectangles has 6 links). The action needs no
 * staple field: the rectangle R_{mu nu}(x-mu) = U_mu(x) [b+ path] is formed from x alone. */
#ifndef GAUGE_ACTION_SITES_H
#define GAUGE_ACTION_SITES_H

#include "gauge_view.h"
#include "gpu.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "suN.h"

/* Number of intermediate staple fields (3 transverse directions x 2 sides). */
#define GA_STAPLE_FIELDS 6

/* What the per-site functions read and write: the links, the staple fields (views for reading
 * and the writable pointers of the same copies) and the momenta (host ptr or device gpu_ptr
 * of an suNg_av_field on glattice, addressed with the tables of view u). */
typedef struct {
  gauge_view u;
  gauge_view st[GA_STAPLE_FIELDS];
  suNg *st_mem[GA_STAPLE_FIELDS];
  suNg_algebra_vector *mom;
} ga_fields;

/* Open time boundaries (openQCD's open bc, Doc/hmc.md): with open != 0 the links U_0(x) at
 * global time glb_t - 1 are zero, the loops through them are left out of the action, and the
 * loops lying in the time slice 0 or glb_t - 1 (spatial plaquettes and rectangles) have weight
 * cg/2. Per-site functions read the global time from the view's time table. */
typedef struct {
  int open;
  double cg;
} ga_boundary;

/* Whether b describes open boundaries. b = NULL means periodic: the kernels of periodic fields
 * pass a NULL constant, so that the compiler drops the weights and the time table from them. */
HR_INLINE int ga_open(const ga_boundary *b) { return b != NULL && b->open; }

/* Weight of the spatial loops (plane mu, nu) in the time slice t: cg/2 on the open boundary
 * slices, else 1 (time-like loops: 1; those through a zero link vanish with it). */
HR_INLINE double ga_slice_weight(const ga_boundary *b, int glb_t, int t, int mu, int nu) {
  if (!ga_open(b) || mu == 0 || nu == 0 || (t != 0 && t != glb_t - 1)) return 1.0;
  return 0.5 * b->cg;
}

/* The k-th direction other than mu, and its inverse. */
HR_INLINE int ga_transverse_dir(int mu, int k) { return k + (k >= mu); }
HR_INLINE int ga_transverse_index(int mu, int nu) { return nu - (nu > mu); }

/* out = V_{mu nu s}(x), computed from the links (s = +1 or -1). */
HR_INLINE void ga_plaquette_staple(suNg *out, const gauge_view *v, int ix, int mu, int nu,
                                   int s) {
  HR_UNROLL
  for (int i = 0; i < NG; ++i) gauge_view_staple_row(&out->c[i * NG], v, ix, mu, nu, s, i);
}

/* Store the 24 staples of the master site ix into the staple fields. */
HR_INLINE void ga_site_store_staples(const ga_fields *f, int ix) {
  for (int mu = 0; mu < 4; ++mu)
    for (int k = 0; k < 3; ++k) {
      const int nu = ga_transverse_dir(mu, k);
      for (int side = 0; side < 2; ++side) {
        suNg V;
        HR_GPU_LOAD_BARRIER(); /* a staple's loads stay after the previous store */
        ga_plaquette_staple(&V, &f->u, ix, mu, nu, side ? -1 : 1);
        gauge_view_store(f->st_mem[2 * k + side], &f->st[2 * k + side], ix, mu, &V);
      }
    }
}

/* Sum of the 6 plaquette staples of U_mu(x), from the links (Wilson force), those of the
 * transverse direction nu weighted with ga_slice_weight(b, glb_t, t, mu, nu) (t the time of
 * x; computed where used: a run-time-indexed array of weights would live on a GPU stack). */
HR_INLINE void ga_plaquette_staple_sum(suNg *out, const gauge_view *v, int ix, int mu,
                                       const ga_boundary *b, int t) {
  suNg_zero(out);
  for (int k = 0; k < 3; ++k)
    for (int side = 0; side < 2; ++side)
      gauge_view_staple_add(out, ga_slice_weight(b, v->glb_t, t, mu, ga_transverse_dir(mu, k)),
                            v, ix, mu, ga_transverse_dir(mu, k), side ? -1 : 1);
}

/* c0 times the plaquette staples plus c1 times the 18 rectangle staples of U_mu(x), from the
 * staple fields (their halo current) and the links (formulas in the header comment); the
 * staples of the transverse direction nu weighted as in ga_plaquette_staple_sum. */
HR_INLINE void ga_improved_staple_sum(suNg *out, const ga_fields *f, int ix, int mu, double c0,
                                      double c1, const ga_boundary *b, int t) {
  /* Each rectangle term is formed a row at a time (gauge_view.h), its links and staples read
   * where they are used (again for every row: from cache), so that besides the accumulator
   * only two rows are live (GPU registers); every entry of the accumulator sums its terms in
   * the order of the matrix products, term after term, with their bits. */
  const gauge_view *v = &f->u;
  const int xpm = gauge_view_up(v, ix, mu);
  suNg rect;
  suNg_zero(&rect);
  for (int k = 0; k < 3; ++k) {
    const int nu = ga_transverse_dir(mu, k);
    const double wk = ga_slice_weight(b, v->glb_t, t, mu, nu);
    const int xpn = gauge_view_up(v, ix, nu), xmn = gauge_view_dn(v, ix, nu);
    const int xpm_mn = gauge_view_dn(v, xpm, nu);
    /* the staple fields: V_{nu mu +-}(y) (link nu) and V_{mu nu +-}(y) (link mu) */
    const gauge_view *st_num_p = &f->st[2 * ga_transverse_index(nu, mu)];
    const gauge_view *st_num_m = &f->st[2 * ga_transverse_index(nu, mu) + 1];
    const gauge_view *st_mun_p = &f->st[2 * k], *st_mun_m = &f->st[2 * k + 1];
    HR_UNROLL
    for (int i = 0; i < NG; ++i) {
      HR_GPU_LOAD_BARRIER(); /* a row's loads stay in its iteration */
      hr_complex a[NG], t[NG];
      /* a+ and e+: [(U_mu(x+nu) V_{nu mu +}(x+mu))^+ + U_nu(x+mu) V_{mu nu +}(x+nu)] U_nu(x)^+ */
      gauge_row_of_dag_mul2(a, gauge_view_link_ref(v, xpn, mu),
                            gauge_view_link_ref(st_num_p, xpm, nu), i);
      gauge_row(t, gauge_view_link_ref(v, xpm, nu), i);
      gauge_row_mul(t, gauge_view_link_ref(st_mun_p, xpn, mu));
      HR_UNROLL
      for (int j = 0; j < NG; ++j) a[j] = a[j] + t[j];
      gauge_row_mul_dag(a, gauge_view_link_ref(v, ix, nu));
      gauge_row_add_weighted(&rect, i, wk, a);
    }
    HR_UNROLL
    for (int i = 0; i < NG; ++i) {
      HR_GPU_LOAD_BARRIER(); /* a row's loads stay in its iteration */
      hr_complex a[NG], t[NG];
      /* a- and e-: [V_{nu mu +}(x+mu-nu) U_mu(x-nu)^+ + U_nu(x+mu-nu)^+ V_{mu nu -}(x-nu)]
       * U_nu(x-nu) */
      gauge_row(a, gauge_view_link_ref(st_num_p, xpm_mn, nu), i);
      gauge_row_mul_dag(a, gauge_view_link_ref(v, xmn, mu));
      gauge_row_dag(t, gauge_view_link_ref(v, xpm_mn, nu), i);
      gauge_row_mul(t, gauge_view_link_ref(st_mun_m, xmn, mu));
      HR_UNROLL
      for (int j = 0; j < NG; ++j) a[j] = a[j] + t[j];
      gauge_row_mul(a, gauge_view_link_ref(v, xmn, nu));
      gauge_row_add_weighted(&rect, i, wk, a);
    }
    HR_UNROLL
    for (int i = 0; i < NG; ++i) {
      HR_GPU_LOAD_BARRIER();
      hr_complex a[NG]; /* b+: U_nu(x+mu) U_mu(x+nu)^+ V_{nu mu -}(x) */
      gauge_row(a, gauge_view_link_ref(v, xpm, nu), i);
      gauge_row_mul_dag(a, gauge_view_link_ref(v, xpn, mu));
      gauge_row_mul(a, gauge_view_link_ref(st_num_m, ix, nu));
      gauge_row_add_weighted(&rect, i, wk, a);
    }
    HR_UNROLL
    for (int j = 0; j < NG; ++j) {
      HR_GPU_LOAD_BARRIER();
      /* b-: (V_{nu mu -}(x-nu) U_mu(x-nu) U_nu(x+mu-nu))^+, its row j is column j of the term */
      hr_complex a[NG];
      gauge_row(a, gauge_view_link_ref(st_num_m, xmn, nu), j);
      gauge_row_mul(a, gauge_view_link_ref(v, xmn, mu));
      gauge_row_mul(a, gauge_view_link_ref(v, xpm_mn, nu));
      HR_UNROLL
      for (int i = 0; i < NG; ++i) {
        if (wk == 1.0)
          rect.c[i * NG + j] = rect.c[i * NG + j] + hr_conj(a[i]);
        else
          rect.c[i * NG + j] = rect.c[i * NG + j] + wk * hr_conj(a[i]);
      }
    }
  }
  /* the plaquette staples, an entry at a time (unrolled: out and rect stay in registers),
   * then out = c0 plaq + c1 rect */
  HR_UNROLL
  for (int e = 0; e < NG * NG; ++e) {
    HR_GPU_LOAD_BARRIER(); /* an entry's loads stay in its iteration */
    hr_complex p = hr_cmplx(0.0, 0.0);
    HR_UNROLL
    for (int k = 0; k < 3; ++k) {
      const double wk = ga_slice_weight(b, v->glb_t, t, mu, ga_transverse_dir(mu, k));
      const hr_complex vp = gauge_view_link_entry(&f->st[2 * k], ix, mu, e);
      p = wk == 1.0 ? p + vp : p + wk * vp;
      const hr_complex vm = gauge_view_link_entry(&f->st[2 * k + 1], ix, mu, e);
      p = wk == 1.0 ? p + vm : p + wk * vm;
    }
    out->c[e] = c0 * p;
    out->c[e] = out->c[e] + c1 * rect.c[e];
  }
}

/* Read and write p(ix, mu) in the momenta f->mom, addressed like the links of view u. */
HR_INLINE void ga_momentum_read(suNg_algebra_vector *out, const ga_fields *f, int ix, int mu) {
  const gauge_view *v = &f->u;
  const int e = ix - v->shift;
  if (v->host != NULL)
    *out = f->mom[4 * e + mu];
  else
    read_gpu_suNg_algebra_vector(v->len[e], out, f->mom + 4 * v->off[e], e - v->off[e], mu);
}
HR_INLINE void ga_momentum_write(const ga_fields *f, int ix, int mu,
                                 const suNg_algebra_vector *in) {
  const gauge_view *v = &f->u;
  const int e = ix - v->shift;
  if (v->host != NULL)
    f->mom[4 * e + mu] = *in;
  else
    write_gpu_suNg_algebra_vector(v->len[e], in, f->mom + 4 * v->off[e], e - v->off[e], mu);
}

/* p(ix, mu) -= s f in the momenta f->mom. */
HR_INLINE void ga_momentum_sub(const ga_fields *f, int ix, int mu, double s,
                               const suNg_algebra_vector *force) {
  suNg_algebra_vector p;
  ga_momentum_read(&p, f, ix, mu);
  for (int a = 0; a < NG * NG - 1; ++a)
    p.c[a] -= s * force->c[a];
  ga_momentum_write(f, ix, mu, &p);
}

/* Whether U_mu(ix) is one of the zero links of open time boundaries, U_0 at global time
 * glb_t - 1 (v->time set; the links are not read). */
HR_INLINE int ga_open_boundary_link(const gauge_view *v, int ix, int mu) {
  return mu == 0 && v->time[ix - v->shift] == v->glb_t - 1;
}

/* Force update of the four links of the master site ix: with Sigma the staple sum of
 * U_mu(x) (c0 plaquettes + c1 rectangles; rect = 0: plaquettes only, from the links; else from
 * the staple fields), F^a = (beta/NG) Im tr(T^a U Sigma) = (beta/(2 NG)) v_a(U Sigma), and
 * p -= eps F; coef = eps beta / (2 NG). Open boundaries (ga_open(b); f->u.time set): the spatial
 * staples of spatial links in the slices 0 and glb_t - 1 weighted cg/2; the loops through the
 * zero links vanish with them, and a zero link gets no force. */
HR_INLINE void ga_site_force_update(const ga_fields *f, int ix, int rect, double c0, double c1,
                                    double coef, const ga_boundary *b) {
  const int t = ga_open(b) ? f->u.time[ix - f->u.shift] : 0;
  for (int mu = 0; mu < 4; ++mu) {
    suNg S, U, W;
    suNg_algebra_vector F;
    if (rect) {
      ga_improved_staple_sum(&S, f, ix, mu, c0, c1, b, t);
    } else {
      ga_plaquette_staple_sum(&S, &f->u, ix, mu, b, t);
      suNg_scale(&S, c0, &S);
    }
    HR_GPU_LOAD_BARRIER(); /* U is read once Sigma is formed */
    gauge_view_link(&U, &f->u, ix, mu);
    suNg_mul(&W, &U, &S);
    suNg_project_to_algebra(&F, &W);
    ga_momentum_sub(f, ix, mu, coef, &F);
  }
}

/* Weight of the loops of the action summed at the site of time t (ga_site_action): the
 * plaquette P_{mu nu}(x) (rect = 0) or the rectangle R_{mu nu}(x - mu) (rect = 1). Open
 * boundaries: 0 for the loops through a zero link U_0(glb_t - 1) (plaquettes and rectangles
 * with one step in time starting at t = glb_t - 1; rectangles with two steps in time, t - 1
 * and t, for t = 0 or glb_t - 1), cg/2 for the spatial loops in the slices 0 and glb_t - 1. */
HR_INLINE double ga_loop_weight(const ga_boundary *b, int glb_t, int t, int mu, int nu,
                                int rect) {
  if (!ga_open(b)) return 1.0;
  if (rect && mu == 0) return (t == 0 || t == glb_t - 1) ? 0.0 : 1.0;
  if (mu == 0 || nu == 0) return t == glb_t - 1 ? 0.0 : 1.0;
  return ga_slice_weight(b, glb_t, t, mu, nu);
}

/* The action terms of the master site ix: *plaq = sum over the 6 plaquettes P_{mu nu}(x)
 * (mu < nu) of w Re tr(1 - P), and with rect, *rects = the same over the 12 rectangles through
 * U_mu(x) as the second link of their long side, R_{mu nu}(x - mu) (else 0); w the weights of
 * ga_loop_weight (1 without open boundaries; then v->time must be set). */
HR_INLINE void ga_site_action(double *plaq, double *rects, const gauge_view *v, int ix,
                              int rect, const ga_boundary *b) {
  double p = 0.0, r = 0.0;
  const int tx = ga_open(b) ? v->time[ix - v->shift] : 0;
  for (int mu = 0; mu < 4; ++mu) {
    const int xpm = gauge_view_up(v, ix, mu);
    for (int nu = 0; nu < 4; ++nu) {
      if (nu == mu || (!rect && nu < mu)) continue;
      /* A = U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ a row at a time (gauge_view.h), its traces with
       * U_nu(x)^+ (the plaquette) and V_{nu mu -}(x) (the rectangle) summed row by row in the
       * order of suNg_re_trace_mul_dag and Re tr(A V): only V and a row are live (GPU
       * registers) */
      suNg V;
      if (rect)
        ga_plaquette_staple(&V, v, ix, nu, mu, -1);
      else
        suNg_zero(&V); /* unused: only so that no compiler sees it uninitialised */
      double tp = 0.0, tr = 0.0;
      const int xpn = gauge_view_up(v, ix, nu);
      HR_UNROLL
      for (int i = 0; i < NG; ++i) {
        HR_GPU_LOAD_BARRIER(); /* a row's loads stay in its iteration */
        hr_complex a[NG];
        gauge_row(a, gauge_view_link_ref(v, ix, mu), i);
        gauge_row_mul(a, gauge_view_link_ref(v, xpm, nu));
        gauge_row_mul_dag(a, gauge_view_link_ref(v, xpn, mu));
        HR_UNROLL
        for (int j = 0; j < NG; ++j) {
          if (nu > mu) tp += suNg_re_conj_term(a[j], gauge_view_link_entry(v, ix, nu, i * NG + j));
          if (rect) {
            const hr_complex y = V.c[j * NG + i];
            tr += hr_creal(a[j]) * hr_creal(y) - hr_cimag(a[j]) * hr_cimag(y);
          }
        }
      }
      if (nu > mu) {
        const double w = ga_loop_weight(b, v->glb_t, tx, mu, nu, 0);
        if (w == 1.0)
          p += NG - tp; /* P_{mu nu}(x) = A U_nu(x)^+ */
        else if (w != 0.0)
          p += w * (NG - tp);
      }
      if (rect) {
        const double w = ga_loop_weight(b, v->glb_t, tx, mu, nu, 1);
        if (w == 1.0)
          r += NG - tr;
        else if (w != 0.0)
          r += w * (NG - tr);
      }
    }
  }
  *plaq = p;
  *rects = r;
}

#endif
