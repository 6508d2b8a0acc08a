/* dirac_state_sites.h -- the per-site mathematics of the derived state of the Dirac operators
 * (internal to LibHR/Dirac), shared by the host loops (dirac_state.c, clover.c) and the
 * kernels of dirac_state_gpu.c: a represented link with its boundary phase; the clover term
 * of a site (clover-leaf field strength read through a links view of either copy, the two
 * blocks of 4 + m0 + C, their L D L^+ factorisation: inverse and log det). */
#ifndef DIRAC_STATE_SITES_H
#define DIRAC_STATE_SITES_H

#include <math.h>
#include <stdint.h>

#include "clover.h"
#include "dirac_site.h"
#include "gpu.h"
#include "hr_inline.h"
#include "representation.h"
#include "suN.h"

/* out = phase R(U): the link U in the fermion representation times its boundary phase. */
HR_INLINE void dirac_site_represent(suNf *out, const suNg *u, hr_complex phase) {
  suNf r;
  suNg_to_suNf(&r, u);
  suNf_scale_cmplx(out, phase, &r);
}

/* Open time boundaries: 1 for the time slices 0 and glb_t - 1, where the operator is the
 * identity and the quark fields of openQCD vanish (boundary_conditions.h). */
HR_INLINE int dirac_open_outer_slice(int t, int glb_t) { return t == 0 || t == glb_t - 1; }

/* Open time boundaries: 1 for the links U_mu(x), x_0 = t, that the hopping term leaves out:
 * every link with an end on the slice 0 or glb_t - 1. */
HR_INLINE int dirac_open_cut_link(int t, int mu, int glb_t) {
  return dirac_open_outer_slice(t, glb_t) || (mu == 0 && t == glb_t - 2);
}

/* The boundary phases of the four directions as kernel arguments: phase of a link in
 * direction mu is last[mu] on the last global slice (x_mu = GLB_SIZE[mu] - 1), else bulk[mu]
 * (dirac_bc_link_phase); 0 for the links of dirac_open_cut_link when open_cut.
 * glb[mu] = GLB_SIZE[mu]. */
typedef struct {
  hr_complex bulk[4], last[4];
  int glb[4];
  int open_cut; /* 1: the hopping links of open time boundaries */
} dirac_phases;

/* Phase of link mu at the site of global lexicographic index g
 * (((t GLB_X + x) GLB_Y + y) GLB_Z + z). */
HR_INLINE hr_complex dirac_site_phase(const dirac_phases *p, uint64_t g, int mu) {
  int c[4];
  for (int nu = 3; nu >= 0; nu--) {
    c[nu] = (int)(g % (uint64_t)p->glb[nu]);
    g /= (uint64_t)p->glb[nu];
  }
  if (p->open_cut && dirac_open_cut_link(c[0], mu, p->glb[0])) return hr_cmplx(0, 0);
  return c[mu] == p->glb[mu] - 1 ? p->last[mu] : p->bulk[mu];
}

/* ------------------------------------------------------------------ clover term */

/* Where the represented links are: the host copy (off == NULL; link mu of element
 * e = ix - shift at base[4 e + mu]) or the device copy (site tables of glattice, gpu.h), with
 * the neighbour tables of the same side. */
typedef struct {
  const suNf *base;
  const int *off, *len;
  const int *iup, *idn;
  int shift;
  int open_t;      /* open time boundaries: identity blocks on the slices 0 and glb_t - 1 */
  const int *time; /* open_t: global time of each element (same side) */
  int glb_t;       /* GLB_T */
  double dcf;      /* open_t: cF - 1, added to 4 + m0 on the time slices 1 and glb_t - 2 */
} dirac_links_view;

/* out = U_mu(ix) of the view. */
HR_INLINE void dirac_view_link(suNf *out, const dirac_links_view *v, int ix, int mu) {
  const int e = ix - v->shift;
  if (v->off == NULL) {
    *out = v->base[4 * e + mu];
  } else {
    const int o = v->off[e];
    read_gpu_suNf(v->len[e], out, v->base + 4 * o, e - o, mu);
  }
}

/* Entry k (row-major) of U_mu(ix) of the view. */
HR_INLINE hr_complex dirac_view_link_entry(const dirac_links_view *v, int ix, int mu, int k) {
  const int e = ix - v->shift;
  if (v->off == NULL) return v->base[4 * e + mu].c[k];
  const int o = v->off[e];
  return read_gpu_suNf_unit(v->len[e], v->base + 4 * o, e - o, mu, k);
}

/* The clover-leaf F_mu,nu of the represented links (clover_leaf_template.h): dirac_antiherm,
 * dirac_clover_F, dirac_antiherm_entry, dirac_antiherm_to_matrix. */
#define CLT_NAME(x) dirac_##x
#define CLT_MAT suNf
#define CLT_DIM NF
#define CLT_M_(op) suNf##op
#define CLT_VIEW dirac_links_view
#define CLT_LINK(out, v, ix, mu) dirac_view_link(out, v, ix, mu)
#define CLT_LINK_ENTRY(v, ix, mu, k) dirac_view_link_entry(v, ix, mu, k)
#define CLT_UP(v, ix, mu) ((v)->iup[4 * (ix) + (mu)])
#define CLT_DN(v, ix, mu) ((v)->idn[4 * (ix) + (mu)])
#include "clover_leaf_template.h"

/* F_mu,nu(x) = (Q - Q^+) / 8 as a matrix, Q the sum of the four clover leaves at ix
 * (clover.h; dirac_clover_F). */
HR_INLINE void dirac_site_field_strength(suNf *F, const dirac_links_view *v, int ix, int mu,
                                         int nu) {
  dirac_antiherm f;
  dirac_clover_F(&f, v, ix, mu, nu, 0);
  dirac_antiherm_to_matrix(F, &f);
}

/* sigma_mu,nu restricted to the chirality blocks: s[pair][ch][s][t], pairs mu < nu in the
 * order (01)(02)(03)(12)(13)(23) (in device memory for the kernels: a run-time index into a
 * kernel parameter would copy it to local memory). */
typedef struct {
  hr_complex s[6][2][2][2];
} dirac_sigma_blocks;

/* The diagonal term of the clover blocks of site ix: *diag = 4 + m0. Open time boundaries
 * (v->open_t): returns 1 on the slices 0 and glb_t - 1, where both blocks are the identity,
 * and adds cF - 1 (v->dcf) to the diagonal on the slices 1 and glb_t - 2, as openQCD's SW
 * term; else 0. */
HR_INLINE int dirac_site_clover_diag(double *diag, const dirac_links_view *v, double m0, int ix) {
  *diag = 4. + m0;
  if (v->open_t) {
    const int t = v->time[ix - v->shift];
    if (dirac_open_outer_slice(t, v->glb_t)) return 1;
    if (t == 1 || t == v->glb_t - 2) *diag += v->dcf;
  }
  return 0;
}

/* Where the packed clover blocks (or inverses) of a site go, a unit at a time: unit k of the
 * chirality block ch at dbl[(ch CLOVER_PACKED_UNITS + k) stride], its single-precision
 * rounding at flt[the same]. A host element has stride 1; element e of a device piece of len
 * elements has dbl, flt at unit e of the pieces and stride len (gpu.h layout), so a GPU
 * thread writes each unit where it is computed and holds no whole element. */
typedef struct {
  hr_complex *dbl;
  hr_complex_flt *flt;
  size_t stride;
} dirac_clover_sink;

/* Where unit k of block ch of s is (in dbl and flt). */
HR_INLINE size_t dirac_clover_at(const dirac_clover_sink *s, int ch, int k) {
  return (size_t)(ch * CLOVER_PACKED_UNITS + k) * s->stride;
}

/* Unit k of block ch of s = z (and its rounding to single precision). */
HR_INLINE void dirac_clover_put(const dirac_clover_sink *s, int ch, int k, hr_complex z) {
  const size_t at = dirac_clover_at(s, ch, k);
  const hr_complex_flt zf = hr_complex_to_flt(z);
  HR_UNIT_STORE(&s->dbl[at], &z);
  HR_UNIT_STORE(&s->flt[at], &zf);
}

/* The unit of block ch of s that holds the real diagonal entries (a, a) = re_up and
 * (NF + a, NF + a) = re_lo of a Hermitian block (field_kinds.h). */
HR_INLINE void dirac_clover_put_diag(const dirac_clover_sink *s, int ch, int a, double re_up,
                                     double re_lo) {
  int how;
  dirac_clover_put(s, ch, clover_packed_unit(a, a, &how), hr_cmplx(re_up, re_lo));
}

/* Unit k of block ch of s (double precision). */
HR_INLINE hr_complex dirac_clover_get(const dirac_clover_sink *s, int ch, int k) {
  hr_complex z;
  HR_UNIT_LOAD(&z, &s->dbl[dirac_clover_at(s, ch, k)]);
  return z;
}

/* Unit k of block ch of s = z, double precision only (dirac_clover_put writes both). */
HR_INLINE void dirac_clover_set(const dirac_clover_sink *s, int ch, int k, hr_complex z) {
  HR_UNIT_STORE(&s->dbl[dirac_clover_at(s, ch, k)], &z);
}

/* The double-precision units of both blocks of s = diag times the identity. */
HR_INLINE void dirac_clover_init(const dirac_clover_sink *s, double diag) {
  HR_DEVICE_UNROLL
  for (int ch = 0; ch < 2; ch++)
    HR_DEVICE_UNROLL
    for (int k = 0; k < CLOVER_PACKED_UNITS; k++) {
      int r, a, c, b; /* the units of the real diagonal pairs (a, a), (NF + a, NF + a) */
      const int pair = clover_packed_entry(k, &r, &a, &c, &b);
      dirac_clover_set(s, ch, k, pair ? hr_cmplx(diag, diag) : hr_cmplx(0., 0.));
    }
}

/* Block ch of s (double-precision units) += (i csw / 2) sigma_mu,nu F_mu,nu restricted to the
 * chirality ch, sigma of plane p of sig (each entry read where it is used) and F by its
 * independent parts: entry (r NF + a, t NF + b) gains i csw/2 sigma[r][t] F_ab, the unit of a
 * real diagonal pair the real parts of its two entries. */
HR_INLINE void dirac_clover_add_plane(const dirac_clover_sink *s, int ch,
                                      const dirac_sigma_blocks *sig, int p, double csw,
                                      const dirac_antiherm *F) {
  const hr_complex ihalf_csw = hr_cmplx(0, 0.5 * csw);
  HR_DEVICE_UNROLL
  for (int k = 0; k < CLOVER_PACKED_UNITS; k++) {
    int r, a, t, b;
    const int pair = clover_packed_entry(k, &r, &a, &t, &b);
    hr_complex z = dirac_clover_get(s, ch, k);
    if (!pair) {
      z += ihalf_csw * hr_cmul(sig->s[p][ch][r][t], dirac_antiherm_entry(F, a, b));
    } else { /* (a, a) and (NF + a, NF + a) */
      const hr_complex f = dirac_antiherm_entry(F, a, a);
      const hr_complex up = ihalf_csw * hr_cmul(sig->s[p][ch][0][0], f);
      const hr_complex lo = ihalf_csw * hr_cmul(sig->s[p][ch][1][1], f);
      z = hr_cmplx(hr_creal(z) + hr_creal(up), hr_cimag(z) + hr_creal(lo));
    }
    dirac_clover_set(s, ch, k, z);
  }
}

/* L D L^+ factorisation of the Hermitian block a in place: L (unit diagonal) in the strictly
 * lower triangle of a, D in d; returns log det a, or NaN when a pivot is not positive (block
 * not positive definite). The upper triangle and the diagonal of a are left as they were. */
HR_INLINE double dirac_site_factorise_block(hr_complex *a, double *d) {
  enum { D_ = CLOVER_BLOCK_DIM };
  double logdet = 0.;
  HR_DEVICE_UNROLL
  for (int j = 0; j < D_; j++) {
    double dj = hr_creal(a[j * D_ + j]);
    HR_DEVICE_UNROLL
    for (int k = 0; k < j; k++) dj -= hr_cabs2(a[j * D_ + k]) * d[k];
    if (!(dj > 0.)) return (double)NAN;
    d[j] = dj;
    logdet += hr_log(dj);
    HR_DEVICE_UNROLL
    for (int i = j + 1; i < D_; i++) {
      hr_complex z = a[i * D_ + j];
      HR_DEVICE_UNROLL
      for (int k = 0; k < j; k++) z -= hr_cmul_conj(a[i * D_ + k], a[j * D_ + k]) * d[k];
      a[i * D_ + j] = z / dj;
    }
  }
  return logdet;
}

/* Block ch of s = the packed inverse of the block factorised by dirac_site_factorise_block
 * (L in the lower triangle of a, D in d), solved a column at a time; the entries the packed
 * form does not keep are the conjugates of the kept ones to rounding. */
HR_INLINE void dirac_site_inverse_pack(const dirac_clover_sink *s, int ch, const hr_complex *a,
                                       const double *d) {
  enum { D_ = CLOVER_BLOCK_DIM };
  for (int c = 0; c < D_; c++) {
    hr_complex y[D_];
    HR_DEVICE_UNROLL
    for (int i = 0; i < D_; i++) { /* L y = e_c */
      hr_complex z = hr_cmplx(i == c ? 1 : 0, 0);
      HR_DEVICE_UNROLL
      for (int k = 0; k < i; k++) z -= hr_cmul(a[i * D_ + k], y[k]);
      y[i] = z;
    }
    HR_DEVICE_UNROLL
    for (int i = 0; i < D_; i++) y[i] = y[i] / d[i];
    HR_DEVICE_UNROLL
    for (int i = D_ - 1; i >= 0; i--) { /* L^+ x = y */
      hr_complex z = y[i];
      HR_DEVICE_UNROLL
      for (int k = i + 1; k < D_; k++) z -= hr_conj_cmul(a[k * D_ + i], y[k]);
      y[i] = z;
    }
    HR_DEVICE_UNROLL
    for (int i = 0; i < D_; i++) { /* column c of the inverse is y */
      int how;
      const int k = clover_packed_unit(i, c, &how);
      if (how == HR_CLOVER_UNIT) dirac_clover_put(s, ch, k, y[i]);
    }
    /* the real diagonal entries: (c, c) of a column c < NF waits in the real part of its
     * pair's unit (double precision) until column NF + c completes the pair; y[c] is picked
     * by comparisons (c is not known at compile time in device code, and a run-time index
     * would put y in local memory) */
    double ycc = 0.;
    HR_DEVICE_UNROLL
    for (int i = 0; i < D_; i++) ycc = i == c ? hr_creal(y[i]) : ycc;
    int how;
    const int q = c < NF ? c : c - NF, k = clover_packed_unit(q, q, &how);
    if (c < NF)
      dirac_clover_set(s, ch, k, hr_cmplx(ycc, 0.));
    else
      dirac_clover_put_diag(s, ch, q, hr_creal(dirac_clover_get(s, ch, k)), ycc);
  }
}

/* The clover state of site ix: packed blocks into blk, packed inverses into inv (both
 * precisions, dirac_clover_sink), and log det of both blocks as the return value (NaN when
 * one is not positive definite: its inverse is then zero). The blocks are summed in blk's
 * units a plane at a time (one F_mu,nu made at a time, dirac_clover_F), then each is
 * factorised from its units (lower triangle) and its inverse solved a column at a time: no
 * whole block or set of F is held (GPU registers). */
HR_INLINE double dirac_site_clover(const dirac_clover_sink *blk, const dirac_clover_sink *inv,
                                   const dirac_links_view *v, const dirac_sigma_blocks *sig,
                                   double csw, double m0, int ix) {
  enum { D_ = CLOVER_BLOCK_DIM };
  double diag;
  const int unit = dirac_site_clover_diag(&diag, v, m0, ix);
  dirac_clover_init(blk, unit ? 1. : diag);
  if (!unit) {
    for (int p = 0; p < 6; p++) {
      const int mu = p < 3 ? 0 : (p < 5 ? 1 : 2), nu = p < 3 ? p + 1 : (p < 5 ? p - 1 : 3);
      dirac_antiherm F;
      dirac_clover_F(&F, v, ix, mu, nu, 0);
      HR_GPU_LOAD_BARRIER();
      HR_DEVICE_UNROLL
      for (int ch = 0; ch < 2; ch++) dirac_clover_add_plane(blk, ch, sig, p, csw, &F);
    }
  }
  for (int ch = 0; ch < 2; ch++) /* the single-precision units */
    for (int k = 0; k < CLOVER_PACKED_UNITS; k++)
      dirac_clover_put(blk, ch, k, dirac_clover_get(blk, ch, k));
  double ld = 0.;
  const dirac_clover_ref r = {blk->dbl, blk->stride};
  for (int ch = 0; ch < 2; ch++) {
    hr_complex a[D_ * D_]; /* the lower triangle and the diagonal */
    double d[D_];
    HR_GPU_LOAD_BARRIER();
    for (int i = 0; i < D_; i++)
      for (int j = 0; j <= i; j++) a[i * D_ + j] = dirac_clover_entry(&r, ch, i, j);
    const double l = dirac_site_factorise_block(a, d);
    ld += l;
    if (isnan(l)) { /* not positive definite: the program stops; no indeterminate values */
      for (int k = 0; k < CLOVER_PACKED_UNITS; k++) dirac_clover_put(inv, ch, k, hr_cmplx(0, 0));
    } else {
      dirac_site_inverse_pack(inv, ch, a, d);
    }
  }
  return ld;
}

#endif
