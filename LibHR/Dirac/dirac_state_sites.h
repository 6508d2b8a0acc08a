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

/* F_mu,nu(x) = (Q - Q^+) / 8, Q the sum of the four clover leaves at ix (clover.h). */
HR_INLINE void dirac_site_field_strength(suNf *F, const dirac_links_view *v, int ix, int mu,
                                         int nu) {
  const int *up = v->iup, *dn = v->idn;
  const int xpm = up[4 * ix + mu], xpn = up[4 * ix + nu], xmm = dn[4 * ix + mu],
            xmn = dn[4 * ix + nu];
  const int xmm_pn = up[4 * xmm + nu], xmm_mn = dn[4 * xmm + nu], xmn_pm = up[4 * xmn + mu];
  suNf q, a, b, leaf, l1, l2;
  /* U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+ */
  dirac_view_link(&l1, v, ix, mu);
  dirac_view_link(&l2, v, xpm, nu);
  suNf_mul(&a, &l1, &l2);
  dirac_view_link(&l1, v, xpn, mu);
  suNf_mul_dag(&b, &a, &l1);
  dirac_view_link(&l1, v, ix, nu);
  suNf_mul_dag(&q, &b, &l1);
  /* U_nu(x) U_mu(x-mu+nu)^+ U_nu(x-mu)^+ U_mu(x-mu) */
  dirac_view_link(&l2, v, xmm_pn, mu);
  suNf_mul_dag(&a, &l1, &l2);
  dirac_view_link(&l1, v, xmm, nu);
  suNf_mul_dag(&b, &a, &l1);
  dirac_view_link(&l1, v, xmm, mu);
  suNf_mul(&leaf, &b, &l1);
  suNf_add(&q, &q, &leaf);
  /* U_mu(x-mu)^+ U_nu(x-mu-nu)^+ U_mu(x-mu-nu) U_nu(x-nu) */
  dirac_view_link(&l2, v, xmm_mn, nu);
  suNf_mul(&a, &l2, &l1);
  suNf_dagger(&b, &a);
  dirac_view_link(&l1, v, xmm_mn, mu);
  suNf_mul(&a, &b, &l1);
  dirac_view_link(&l1, v, xmn, nu);
  suNf_mul(&leaf, &a, &l1);
  suNf_add(&q, &q, &leaf);
  /* U_nu(x-nu)^+ U_mu(x-nu) U_nu(x-nu+mu) U_mu(x)^+ */
  dirac_view_link(&l2, v, xmn, mu);
  suNf_dag_mul(&a, &l1, &l2);
  dirac_view_link(&l1, v, xmn_pm, nu);
  suNf_mul(&b, &a, &l1);
  dirac_view_link(&l1, v, ix, mu);
  suNf_mul_dag(&leaf, &b, &l1);
  suNf_add(&q, &q, &leaf);
  /* F = (Q - Q^+) / 8 */
  suNf_dagger(&a, &q);
  suNf_sub(&b, &q, &a);
  suNf_scale(F, 0.125, &b);
}

/* sigma_mu,nu restricted to the chirality blocks: s[pair][ch][s][t], pairs mu < nu in the
 * order (01)(02)(03)(12)(13)(23) (by value into kernels). */
typedef struct {
  hr_complex s[6][2][2][2];
} dirac_sigma_blocks;

/* What the clover blocks of site ix are made of: the six F_mu,nu (pairs in the order of
 * dirac_sigma_blocks) and *diag = 4 + m0. Open time boundaries (v->open_t): returns 1 on the
 * slices 0 and glb_t - 1, where both blocks are the identity (F zero), and adds cF - 1
 * (v->dcf) to the diagonal on the slices 1 and glb_t - 2, as openQCD's SW term; else 0. */
HR_INLINE int dirac_site_clover_fields(suNf F[6], double *diag, const dirac_links_view *v,
                                       double m0, int ix) {
  *diag = 4. + m0;
  if (v->open_t) {
    const int t = v->time[ix - v->shift];
    if (dirac_open_outer_slice(t, v->glb_t)) {
      for (int p = 0; p < 6; p++) suNf_zero(&F[p]);
      return 1;
    }
    if (t == 1 || t == v->glb_t - 2) *diag += v->dcf;
  }
  int p = 0;
  for (int mu = 0; mu < 4; mu++)
    for (int nu = mu + 1; nu < 4; nu++, p++) dirac_site_field_strength(&F[p], v, ix, mu, nu);
  return 0;
}

/* Block ch of diag + C, full and row-major (out[i D + j], D = 2 NF), from the F of
 * dirac_site_clover_fields; the identity when unit. */
HR_INLINE void dirac_site_clover_block(hr_complex *out, const suNf F[6],
                                       const dirac_sigma_blocks *sig, double csw, double diag,
                                       int ch, int unit) {
  enum { D_ = CLOVER_BLOCK_DIM };
  if (unit) {
    for (int k = 0; k < D_ * D_; k++) out[k] = hr_cmplx(k % (D_ + 1) == 0 ? 1. : 0., 0.);
    return;
  }
  const hr_complex ihalf_csw = hr_cmplx(0, 0.5 * csw);
  for (int s = 0; s < 2; s++)
    for (int a = 0; a < NF; a++)
      for (int t = 0; t < 2; t++)
        for (int b = 0; b < NF; b++) {
          hr_complex z = hr_cmplx(s == t && a == b ? diag : 0., 0.);
          for (int q = 0; q < 6; q++)
            z += ihalf_csw * hr_cmul(sig->s[q][ch][s][t], F[q].c[a * NF + b]);
          out[(s * NF + a) * D_ + t * NF + b] = z;
        }
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

/* Unit k of block ch of s = z (and its rounding to single precision). */
HR_INLINE void dirac_clover_put(const dirac_clover_sink *s, int ch, int k, hr_complex z) {
  const size_t at = (size_t)(ch * CLOVER_PACKED_UNITS + k) * s->stride;
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

/* Block ch of s = the packed form (field_kinds.h) of the Hermitian block full (row-major):
 * the entries that the packed form keeps, the real parts only on the diagonal. The other
 * entries are their conjugates exactly for the blocks of dirac_site_clover_block. */
HR_INLINE void dirac_clover_pack(const dirac_clover_sink *s, int ch, const hr_complex *full) {
  enum { D_ = CLOVER_BLOCK_DIM };
  for (int i = 0; i < D_; i++)
    for (int j = 0; j < D_; j++) {
      int how;
      const int k = clover_packed_unit(i, j, &how);
      if (how == HR_CLOVER_UNIT)
        dirac_clover_put(s, ch, k, full[i * D_ + j]);
      else if (how == HR_CLOVER_RE)
        dirac_clover_put_diag(s, ch, i, hr_creal(full[i * D_ + i]),
                              hr_creal(full[(i + NF) * (D_ + 1)]));
    }
}

/* L D L^+ factorisation of the Hermitian block a in place: L (unit diagonal) in the strictly
 * lower triangle of a, D in d; returns log det a, or NaN when a pivot is not positive (block
 * not positive definite). The upper triangle and the diagonal of a are left as they were. */
HR_INLINE double dirac_site_factorise_block(hr_complex *a, double *d) {
  enum { D_ = CLOVER_BLOCK_DIM };
  double logdet = 0.;
  for (int j = 0; j < D_; j++) {
    double dj = hr_creal(a[j * D_ + j]);
    for (int k = 0; k < j; k++) dj -= hr_cabs2(a[j * D_ + k]) * d[k];
    if (!(dj > 0.)) return (double)NAN;
    d[j] = dj;
    logdet += log(dj);
    for (int i = j + 1; i < D_; i++) {
      hr_complex z = a[i * D_ + j];
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
  double re_diag[NF]; /* real diagonal entries (a, a) until (NF + a, NF + a) joins them */
  for (int c = 0; c < D_; c++) {
    hr_complex y[D_];
    for (int i = 0; i < D_; i++) { /* L y = e_c */
      hr_complex z = hr_cmplx(i == c ? 1 : 0, 0);
      for (int k = 0; k < i; k++) z -= hr_cmul(a[i * D_ + k], y[k]);
      y[i] = z;
    }
    for (int i = 0; i < D_; i++) y[i] = y[i] / d[i];
    for (int i = D_ - 1; i >= 0; i--) { /* L^+ x = y */
      hr_complex z = y[i];
      for (int k = i + 1; k < D_; k++) z -= hr_conj_cmul(a[k * D_ + i], y[k]);
      y[i] = z;
    }
    for (int i = 0; i < D_; i++) { /* column c of the inverse is y */
      int how;
      const int k = clover_packed_unit(i, c, &how);
      if (how == HR_CLOVER_UNIT) dirac_clover_put(s, ch, k, y[i]);
    }
    if (c < NF)
      re_diag[c] = hr_creal(y[c]);
    else
      dirac_clover_put_diag(s, ch, c - NF, re_diag[c - NF], hr_creal(y[c]));
  }
}

/* The clover state of site ix: packed blocks into blk, packed inverses into inv (both
 * precisions, dirac_clover_sink), and log det of both blocks as the return value (NaN when
 * one is not positive definite: its inverse is then zero). One chirality at a time. */
HR_INLINE double dirac_site_clover(const dirac_clover_sink *blk, const dirac_clover_sink *inv,
                                   const dirac_links_view *v, const dirac_sigma_blocks *sig,
                                   double csw, double m0, int ix) {
  enum { D_ = CLOVER_BLOCK_DIM };
  suNf F[6];
  double diag;
  const int unit = dirac_site_clover_fields(F, &diag, v, m0, ix);
  double ld = 0.;
  for (int ch = 0; ch < 2; ch++) {
    hr_complex a[D_ * D_];
    double d[D_];
    dirac_site_clover_block(a, F, sig, csw, diag, ch, unit);
    dirac_clover_pack(blk, ch, a);
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
