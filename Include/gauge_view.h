/* gauge_view.h -- a read-only view of the links of an suNg_field on glattice for per-site code
 * shared by CPU loops and GPU kernels (host compiler, nvcc, emulated backend): the view
 * addresses either the host copy (array of structures, link mu of ix at host[4 e + mu]) or the
 * device copy (structure of arrays per piece, gpu.h), together with the neighbour tables of
 * the same side. Per-site functions take a `const gauge_view *` and read links with
 * gauge_view_link and neighbours with gauge_view_up / gauge_view_dn, so one source serves
 * both copies; gauge_view_of_host / gauge_view_of_device (host code) make the view of one
 * copy. gauge_view_store writes a link into the copy the view reads (given as a
 * writable pointer). Products of links can be formed a row at a time (gauge_link_ref,
 * gauge_row_mul, ..., gauge_view_staple_row) with the bits of the matrix products, so that a
 * GPU thread holds rows instead of matrices (Doc/gpu.md). Used by the gauge observables
 * (LibHR/Observables/observables_sites.h, where it is called obs_gauge_view), the gauge
 * actions (Update/gauge_action_sites.h) and the pure-gauge update (Update/heatbath_sites.h).
 * Doc/fields_and_backends.md describes the two layouts.
 * Implemented in: Memory (header only). */
#ifndef GAUGE_VIEW_H
#define GAUGE_VIEW_H

#include "gpu.h"
#include "hr_inline.h"
#include "suN.h"

/* Where the links and the site tables of glattice are, on one side. All tables are indexed by
 * the element e = ix - shift of a stored index ix of glattice (master, copy or halo). */
typedef struct {
  const suNg *host;     /* CPU side: the host copy (link mu of ix at host[4 e + mu]); else NULL */
  const suNg *dev;      /* GPU side: the device copy (gpu_ptr), used when host is NULL */
  const int *off;       /* GPU side: element at which the piece holding e starts (copies:
                           that of their master); hr_gpu_sites_of(&glattice).off */
  const int *len;       /* GPU side: length of that piece (hr_gpu_sites_of(&glattice).len) */
  const int *time;      /* optional: global time coordinate of e (NULL when not needed) */
  const int *iup, *idn; /* neighbour tables (hr_iup / hr_idn, or hr_gpu_iup() / hr_gpu_idn()) */
  int shift;            /* glattice.master_shift */
  int glb_t;            /* optional: GLB_T */
} gauge_view;

/* out = U_mu(ix). */
HR_INLINE void gauge_view_link(suNg *out, const gauge_view *v, int ix, int mu) {
  const int e = ix - v->shift;
  if (v->host != NULL) {
    *out = v->host[4 * e + mu];
  } else {
    const int o = v->off[e];
    read_gpu_suNg(v->len[e], out, v->dev + 4 * o, e - o, mu);
  }
}

/* Entry k (row-major) of U_mu(ix). */
HR_INLINE hr_complex gauge_view_link_entry(const gauge_view *v, int ix, int mu, int k) {
  const int e = ix - v->shift;
  if (v->host != NULL) return v->host[4 * e + mu].c[k];
  const int o = v->off[e];
  return read_gpu_suNg_unit(v->len[e], v->dev + 4 * o, e - o, mu, k);
}

/* Index of the site one step up / down in direction mu. */
HR_INLINE int gauge_view_up(const gauge_view *v, int ix, int mu) { return v->iup[4 * ix + mu]; }
HR_INLINE int gauge_view_dn(const gauge_view *v, int ix, int mu) { return v->idn[4 * ix + mu]; }

/* Rows of products of links, a factor at a time: a GPU thread then holds one row (NG complex
 * numbers) where the whole product would hold matrices, and reads each factor's entries where
 * they are used (again for every row: from cache). Every entry is formed with the operations,
 * in the order, of the entries of suN.h's products (suNg_mul_entry, suNg_mul_dag_entry,
 * suNg_dag_mul_entry), so a product built a row at a time has the bits of the matrix
 * products. A row of X^+ is kept as its conjugates: hr_cmul(conj a, b) has the bits of
 * hr_conj_cmul(a, b) (negation is exact). The factors are given as gauge_link_refs: entry k
 * of the link at base[k stride], found once per link (host: stride 1; device: the piece
 * length of the gpu.h layout), so that no entry read goes back to the view's tables. */
typedef struct {
  const hr_complex *base;
  int stride;
} gauge_link_ref;

/* The reference of U_mu(ix). */
HR_INLINE gauge_link_ref gauge_view_link_ref(const gauge_view *v, int ix, int mu) {
  const int e = ix - v->shift;
  gauge_link_ref r;
  if (v->host != NULL) {
    r.base = &v->host[4 * e + mu].c[0];
    r.stride = 1;
  } else {
    const int o = v->off[e], len = v->len[e];
    r.base = (const hr_complex *)(v->dev + 4 * o) + (size_t)mu * NG * NG * len + (e - o);
    r.stride = len;
  }
  return r;
}

/* Entry 0 of U_mu(ix) in mem, the writable pointer of the copy the view reads (as in
 * gauge_view_store), and the stride between its entries (those of gauge_view_link_ref). */
HR_INLINE hr_complex *gauge_view_link_in(suNg *mem, const gauge_view *v, int ix, int mu,
                                         int *stride) {
  const gauge_link_ref r = gauge_view_link_ref(v, ix, mu);
  const hr_complex *const copy = (const hr_complex *)(v->host != NULL ? v->host : v->dev);
  *stride = r.stride;
  return (hr_complex *)mem + (r.base - copy);
}

/* The reference of a matrix m held by the caller (a GPU thread: in registers). */
HR_INLINE gauge_link_ref gauge_link_ref_of(const suNg *m) {
  gauge_link_ref r;
  r.base = &m->c[0];
  r.stride = 1;
  return r;
}

/* Entry k (row-major) of the link of r. */
HR_INLINE hr_complex gauge_link_entry(gauge_link_ref r, int k) {
  hr_complex z;
  HR_UNIT_LOAD(&z, &r.base[(size_t)k * r.stride]);
  return z;
}

/* r = row i of the link u. */
HR_INLINE void gauge_row(hr_complex r[NG], gauge_link_ref u, int i) {
  HR_UNROLL
  for (int j = 0; j < NG; ++j) r[j] = gauge_link_entry(u, i * NG + j);
}

/* r = row i of u^+ (the conjugates of column i of u). */
HR_INLINE void gauge_row_dag(hr_complex r[NG], gauge_link_ref u, int i) {
  HR_UNROLL
  for (int j = 0; j < NG; ++j) r[j] = hr_conj(gauge_link_entry(u, j * NG + i));
}

/* r = r u. */
HR_INLINE void gauge_row_mul(hr_complex r[NG], gauge_link_ref u) {
  hr_complex t[NG];
  HR_UNROLL
  for (int j = 0; j < NG; ++j) {
    hr_complex s = hr_cmul(r[0], gauge_link_entry(u, j));
    HR_UNROLL
    for (int k = 1; k < NG; ++k) s += hr_cmul(r[k], gauge_link_entry(u, k * NG + j));
    t[j] = s;
  }
  HR_UNROLL
  for (int j = 0; j < NG; ++j) r[j] = t[j];
}

/* r = r u^+. */
HR_INLINE void gauge_row_mul_dag(hr_complex r[NG], gauge_link_ref u) {
  hr_complex t[NG];
  HR_UNROLL
  for (int j = 0; j < NG; ++j) {
    hr_complex s = hr_cmul_conj(r[0], gauge_link_entry(u, j * NG));
    HR_UNROLL
    for (int k = 1; k < NG; ++k) s += hr_cmul_conj(r[k], gauge_link_entry(u, j * NG + k));
    t[j] = s;
  }
  HR_UNROLL
  for (int j = 0; j < NG; ++j) r[j] = t[j];
}

/* r = row i of (u w)^+, i.e. the conjugates of column i of the product u w (entries as
 * suNg_mul_entry). */
HR_INLINE void gauge_row_of_dag_mul2(hr_complex r[NG], gauge_link_ref u, gauge_link_ref w,
                                     int i) {
  HR_UNROLL
  for (int j = 0; j < NG; ++j) {
    hr_complex s = hr_cmul(gauge_link_entry(u, j * NG), gauge_link_entry(w, i));
    HR_UNROLL
    for (int k = 1; k < NG; ++k)
      s += hr_cmul(gauge_link_entry(u, j * NG + k), gauge_link_entry(w, k * NG + i));
    r[j] = hr_conj(s);
  }
}

/* Row i of V_{mu nu s}(x) (s = +1 or -1), computed from the links a factor at a time
 * (one row live, the bits of the matrix products), the staple that closes U_mu(x) into a
 * plaquette:
 *   s > 0: U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+,   s < 0: (U_mu(x-nu) U_nu(x+mu-nu))^+ U_nu(x-nu). */
HR_INLINE void gauge_view_staple_row(hr_complex r[NG], const gauge_view *v, int ix, int mu,
                                     int nu, int s, int i) {
  const int xpm = gauge_view_up(v, ix, mu);
  if (s > 0) {
    gauge_row(r, gauge_view_link_ref(v, xpm, nu), i);
    gauge_row_mul_dag(r, gauge_view_link_ref(v, gauge_view_up(v, ix, nu), mu));
    gauge_row_mul_dag(r, gauge_view_link_ref(v, ix, nu));
  } else {
    const int xmn = gauge_view_dn(v, ix, nu);
    gauge_row_of_dag_mul2(r, gauge_view_link_ref(v, xmn, mu),
                          gauge_view_link_ref(v, gauge_view_dn(v, xpm, nu), nu), i);
    gauge_row_mul(r, gauge_view_link_ref(v, xmn, nu));
  }
}

/* Row i of out += w r (a plain sum when w = 1, so unweighted sums keep the bits they always
 * had). */
HR_INLINE void gauge_row_add_weighted(suNg *out, int i, double w, const hr_complex r[NG]) {
  HR_UNROLL
  for (int j = 0; j < NG; ++j) {
    if (w == 1.0)
      out->c[i * NG + j] = out->c[i * NG + j] + r[j];
    else
      out->c[i * NG + j] = out->c[i * NG + j] + w * r[j];
  }
}

/* out += w V_{mu nu s}(x) a row at a time (gauge_view_staple_row, then
 * gauge_row_add_weighted): V itself is never held (GPU registers). The staple sums of the
 * gauge force and of the heatbath. */
HR_INLINE void gauge_view_staple_add(suNg *out, double w, const gauge_view *v, int ix, int mu,
                                     int nu, int s) {
  HR_UNROLL
  for (int i = 0; i < NG; ++i) {
    HR_GPU_LOAD_BARRIER(); /* a row's loads stay in its iteration */
    hr_complex r[NG];
    gauge_view_staple_row(r, v, ix, mu, nu, s, i);
    gauge_row_add_weighted(out, i, w, r);
  }
}

/* U_mu(ix) = *in, written into mem: the writable pointer of the copy the view reads (the
 * field's ptr when v->host is set, else its gpu_ptr). */
HR_INLINE void gauge_view_store(suNg *mem, const gauge_view *v, int ix, int mu,
                                const suNg *in) {
  const int e = ix - v->shift;
  if (v->host != NULL) {
    mem[4 * e + mu] = *in;
  } else {
    const int o = v->off[e];
    write_gpu_suNg(v->len[e], in, mem + 4 * o, e - o, mu);
  }
}

#ifndef __CUDACC__
/* View of the links host (the host copy of an suNg_field on glattice, made current by the
 * caller) with the host neighbour tables; time: optional global time of each element. */
static inline gauge_view gauge_view_of_host(const suNg *host, const int *time) {
  gauge_view v;
  v.host = host;
  v.dev = NULL;
  v.off = v.len = NULL;
  v.time = time;
  v.iup = hr_iup;
  v.idn = hr_idn;
  v.shift = glattice.master_shift;
  v.glb_t = GLB_T;
  return v;
}
/* View of the device copy dev (made current by the caller) with the device site and
 * neighbour tables of gpu.h (GPU builds); time: optional device table of global times. */
static inline gauge_view gauge_view_of_device(const suNg *dev, const int *time) {
  gauge_view v;
  const hr_gpu_sites sites = hr_gpu_sites_of(&glattice);
  v.host = NULL;
  v.dev = dev;
  v.off = sites.off;
  v.len = sites.len;
  v.time = time;
  v.iup = hr_gpu_iup();
  v.idn = hr_gpu_idn();
  v.shift = glattice.master_shift;
  v.glb_t = GLB_T;
  return v;
}
#endif

#endif
