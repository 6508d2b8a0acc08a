/* gauge_view.h -- a read-only view of the links of an suNg_field on glattice for per-site code
 * shared by CPU loops and GPU kernels (host compiler, nvcc, emulated backend): the view
 * addresses either the host copy (array of structures, link mu of ix at host[4 e + mu]) or the
 * device copy (structure of arrays per piece, gpu.h), together with the neighbour tables of
 * the same side. Per-site functions take a `const gauge_view *` and read links with
 * gauge_view_link and neighbours with gauge_view_up / gauge_view_dn, so one source serves
 * both copies; gauge_view_of_host / gauge_view_of_device (host code) make the view of one
 * copy. gauge_view_store writes a link into the copy the view reads (given as a
 * writable pointer). Used by the gauge observables (LibHR/Observables/observables_sites.h,
 * where it is called obs_gauge_view) and the pure-gauge update (Update/heatbath_sites.h).
 * Doc/fields_and_backends.md describes the two layouts. */
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

/* Index of the site one step up / down in direction mu. */
HR_INLINE int gauge_view_up(const gauge_view *v, int ix, int mu) { return v->iup[4 * ix + mu]; }
HR_INLINE int gauge_view_dn(const gauge_view *v, int ix, int mu) { return v->idn[4 * ix + mu]; }

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
