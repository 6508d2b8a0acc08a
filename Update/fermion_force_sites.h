/* fermion_force_sites.h -- the per-site mathematics of the fermion force (fermion_force.c),
 * shared by the CPU loops (fermion_force.c) and the kernels of the GPU path
 * (fermion_force_gpu.c): spin matrices, outer products of the hopping term, clover insertions,
 * the log-det derivative, the plaquette-leaf derivative and the projection onto the
 * momenta. Every site function reads and writes its fields through a fermion_force_view, which
 * says whether the pointers are host copies or device copies (the layout of gpu.h), so the
 * same function runs in the CPU loop and in the kernel. All fields are on glattice except the
 * spinors of the even/odd assembly. Written in the common subset of C11 and CUDA C++. */
#ifndef FERMION_FORCE_SITES_H
#define FERMION_FORCE_SITES_H

#include "clover.h"
#include "dirac_site.h"
#include "gpu.h"
#include "hr_inline.h"
#include "representation.h"
#include "suN.h"

/* Number of planes a < b. */
#define FF_NPLANES 6

/* Spin matrices (4x4 row-major): 1 - gamma_mu, 1 + gamma_mu and sigma_q for the planes
 * q = (01)(02)(03)(12)(13)(23); plane_of[a][b] = q. Host memory for the CPU loops, a device
 * copy for the kernels. */
typedef struct {
  hr_complex one_minus_gamma[4][16], one_plus_gamma[4][16], sigma_plane[FF_NPLANES][16];
  int plane_of[4][4];
} fermion_force_spin;

/* Where the fields of one force operation are: host copies (off == NULL; element
 * e = ix - shift at ptr[e]) or device copies (site tables of glattice, gpu.h layout). */
typedef struct {
  const int *off, *len;           /* device site tables of glattice, NULL on the host */
  const int *iup, *idn;           /* neighbour tables of that side */
  int shift;                      /* glattice.master_shift */
  const fermion_force_spin *spin; /* spin matrices of that side */
} fermion_force_view;

/* out = element mu of site ix of a link field (4 elements per site) at base. */
HR_INLINE void ff_load_link(suNf *out, const fermion_force_view *v, const suNf *base, int ix,
                            int mu) {
  const int e = ix - v->shift;
  if (v->off == NULL) {
    *out = base[4 * e + mu];
  } else {
    const int o = v->off[e];
    read_gpu_suNf(v->len[e], out, base + 4 * o, e - o, mu);
  }
}

/* Element mu of site ix of a link field at base = *in. */
HR_INLINE void ff_store_link(suNf *base, const fermion_force_view *v, int ix, int mu,
                             const suNf *in) {
  const int e = ix - v->shift;
  if (v->off == NULL) {
    base[4 * e + mu] = *in;
  } else {
    const int o = v->off[e];
    write_gpu_suNf(v->len[e], in, base + 4 * o, e - o, mu);
  }
}

/* The clover accumulator: two link fields, plane q in slot q % 4 of field q / 4. */
typedef struct {
  suNf *f[2];
} ff_clover_acc;

/* The field that holds plane q: a selection, not an index into z (a kernel parameter, which
 * an index at run time would copy to the stack). */
HR_INLINE suNf *ff_plane_field(const ff_clover_acc *z, int q) { return q < 4 ? z->f[0] : z->f[1]; }

/* out = Z_q(ix). */
HR_INLINE void ff_load_plane(suNf *out, const fermion_force_view *v, const ff_clover_acc *z, int ix,
                             int q) {
  ff_load_link(out, v, ff_plane_field(z, q), ix, q % 4);
}

/* Z_q(ix) = *in. */
HR_INLINE void ff_store_plane(const ff_clover_acc *z, const fermion_force_view *v, int ix, int q,
                              const suNf *in) {
  ff_store_link(ff_plane_field(z, q), v, ix, q % 4, in);
}

/* The reference (dirac_clover_ref) of site ix of the packed clover field at base, on the
 * host or the device copy of the view. */
HR_INLINE dirac_clover_ref ff_clover_ref(const fermion_force_view *v, const suNf_clover *base,
                                         int ix) {
  const int e = ix - v->shift;
  if (v->off == NULL) return dirac_clover_host(base + e);
  const int o = v->off[e];
  return dirac_clover_device(base + o, e - o, v->len[e]);
}

/* out = spin component sp of the spinor of site ix of a site field on glattice at base. */
HR_INLINE void ff_load_spinor_comp(suNf_vector *out, const fermion_force_view *v,
                                   const suNf_spinor *base, int ix, int sp) {
  const int e = ix - v->shift;
  if (v->off == NULL) {
    *out = base[e].c[sp];
  } else {
    const int o = v->off[e];
    read_gpu_suNf_vector(v->len[e], out, base + o, e - o, sp);
  }
}

/* out += c sum_s [M Y(iy)]_s W(iw)_s^+ for a 4x4 spin matrix M (row-major, zero entries
 * skipped): the colour outer products summed over spin, then scaled by c and added. One spin
 * component at a time, each read where it is used (from cache when read again), so that only
 * the colour matrix of the sum and two colour vectors are live (GPU registers). */
HR_INLINE void ff_spin_outer_add(suNf *out, hr_complex c, const hr_complex *M,
                                 const fermion_force_view *v, const suNf_spinor *Y, int iy,
                                 const suNf_spinor *W, int iw) {
  hr_complex acc[NF * NF];
  for (int k = 0; k < NF * NF; k++) acc[k] = hr_cmplx(0, 0);
  for (int s = 0; s < 4; s++) {
    suNf_vector t, y;
    for (int i = 0; i < NF; i++) t.c[i] = hr_cmplx(0, 0);
    for (int u = 0; u < 4; u++)
      if (M[4 * s + u] != 0) {
        ff_load_spinor_comp(&y, v, Y, iy, u);
        for (int i = 0; i < NF; i++) t.c[i] += hr_cmul(M[4 * s + u], y.c[i]);
      }
    ff_load_spinor_comp(&y, v, W, iw, s);
    for (int i = 0; i < NF; i++)
      for (int j = 0; j < NF; j++) acc[i * NF + j] += hr_cmul_conj(t.c[i], y.c[j]);
  }
  for (int k = 0; k < NF * NF; k++) out->c[k] += c * acc[k];
}

/* Sigma(ix, mu) = 0 for all mu and Z_q(ix) = 0 for all q (z NULL: no clover term). */
HR_INLINE void ff_site_zero(suNf *sig, const ff_clover_acc *z, const fermion_force_view *v,
                            int ix) {
  suNf zero;
  suNf_zero(&zero);
  for (int mu = 0; mu < 4; mu++) ff_store_link(sig, v, ix, mu, &zero);
  if (z != NULL)
    for (int q = 0; q < FF_NPLANES; q++) ff_store_plane(z, v, ix, q, &zero);
}

/* The hopping and clover terms of Re[L^+ dD R] at site ix (L, R on glattice, halo current):
 *   Sigma(x,mu) += chop sum_s { [(1-g_mu) R(x+mu)]_s L(x)_s^+ + [(1+g_mu) L(x+mu)]_s R(x)_s^+ }
 *   Z_q(x) += cclover sum_s [sigma_q R(x)]_s L(x)_s^+   (z NULL: no clover term). */
HR_INLINE void ff_site_eo(suNf *sig, const ff_clover_acc *z, const fermion_force_view *v,
                          const suNf_spinor *L, const suNf_spinor *R, int ix, hr_complex chop,
                          hr_complex cclover) {
  /* Each spin component is read where it is used (ff_spin_outer_add). */
  suNf s;
  for (int mu = 0; mu < 4; mu++) {
    const int iy = v->iup[4 * ix + mu];
    ff_load_link(&s, v, sig, ix, mu);
    ff_spin_outer_add(&s, chop, v->spin->one_minus_gamma[mu], v, R, iy, L, ix);
    ff_spin_outer_add(&s, chop, v->spin->one_plus_gamma[mu], v, L, iy, R, ix);
    ff_store_link(sig, v, ix, mu, &s);
  }
  if (z != NULL)
    for (int q = 0; q < FF_NPLANES; q++) {
      ff_load_plane(&s, v, z, ix, q);
      ff_spin_outer_add(&s, cclover, v->spin->sigma_plane[q], v, R, ix, L, ix);
      ff_store_plane(z, v, ix, q, &s);
    }
}

/* The log-det derivative at site ix: (Z_q)_{ba} += cc sum_{s,t} (sigma_q)_{st} (D_xx^-1)_{(t b),
 * (s a)}, with the inverse clover blocks inv (glattice). */
HR_INLINE void ff_site_logdet(const ff_clover_acc *z, const fermion_force_view *v,
                              const suNf_clover *inv, int ix, hr_complex cc) {
  const dirac_clover_ref c = ff_clover_ref(v, inv, ix);
  for (int q = 0; q < FF_NPLANES; q++) {
    suNf zq;
    ff_load_plane(&zq, v, z, ix, q);
    for (int ch = 0; ch < 2; ch++)
      for (int s = 0; s < 2; s++)
        for (int t = 0; t < 2; t++) {
          const hr_complex sg = v->spin->sigma_plane[q][4 * (2 * ch + s) + 2 * ch + t];
          if (sg == 0) continue;
          const hr_complex k = cc * sg;
          for (int a = 0; a < NF; a++) {
            for (int b = 0; b < NF; b++)
              zq.c[b * NF + a] += k * dirac_clover_entry_sc(&c, ch, t, b, s, a);
          }
        }
    ff_store_plane(z, v, ix, q, &zq);
  }
}

/* W_q(ix) = (Z_q(ix) - Z_q(ix)^+) / 8 in place, every plane. */
HR_INLINE void ff_site_antihermitian(const ff_clover_acc *z, const fermion_force_view *v, int ix) {
  for (int q = 0; q < FF_NPLANES; q++) {
    suNf zq, zd;
    ff_load_plane(&zq, v, z, ix, q);
    suNf_dagger(&zd, &zq);
    suNf_sub(&zq, &zq, &zd);
    suNf_scale(&zq, 0.125, &zq);
    ff_store_plane(z, v, ix, q, &zq);
  }
}

/* How ff_site_clover_sigma takes the factors of a plaquette leaf: 1 in the kernels
 * (fermion_force_gpu.c defines it before its includes), which read them where they are used
 * and form the derivative a column at a time (ff_leaf_add below: GPU registers); 0 in the CPU
 * loops, which read the eight matrices whole and multiply them (ff_leaf_derivative). Both
 * forms do the same operations in the same order, and the emulated GPU build compares them
 * (test_fermion_force: GPU path = CPU path). */
#ifndef FF_LEAF_READ_WHERE_USED
#define FF_LEAF_READ_WHERE_USED 0
#endif

/* The derivative of the leaves of one plaquette with respect to its factor k: the factors of
 * the closed loop are fac[0..3] (links, daggered where the loop runs backwards), w[j] the
 * insertion at the corner where fac[j] starts. out = the sum over corners j of the product of
 * the loop after fac[k] (w[j] inserted), i.e. d/d fac[k] of sum_j tr[... w[j] fac[j] ...]
 * = tr[d fac[k] out]. */
HR_INLINE void ff_leaf_derivative(suNf *out, const suNf *fac, const suNf *w, int k) {
  suNf e, t, tmp;
  /* from the right: w[k] is the last element of the sequence after fac[k] */
  t = w[k];
  for (int step = 3; step >= 1; step--) {
    const int j = (k + step) % 4;
    if (step == 3) {
      e = fac[j];
    } else {
      suNf_mul(&tmp, &fac[j], &e);
      e = tmp;
    }
    suNf_mul(&tmp, &fac[j], &t);
    t = tmp;
    suNf_mul(&tmp, &w[j], &e);
    suNf_add(&t, &t, &tmp);
  }
  *out = t;
}

#if FF_LEAF_READ_WHERE_USED
/* A factor of a plaquette leaf read where its entries are used: entry k (row-major) of the
 * link at base[k stride] (host: stride 1; device: the piece length of the gpu.h layout), its
 * adjoint when dag. Found once per factor, so that no entry read goes back to the tables. */
typedef struct {
  const hr_complex *base;
  int stride, dag;
} ff_factor;

/* The factor of element mu of site ix of the link field at base (adjoint when dag). */
HR_INLINE ff_factor ff_factor_at(const fermion_force_view *v, const suNf *base, int ix, int mu,
                                 int dag) {
  const int e = ix - v->shift;
  ff_factor f;
  f.dag = dag;
  if (v->off == NULL) {
    f.base = &base[4 * e + mu].c[0];
    f.stride = 1;
  } else {
    const int o = v->off[e], len = v->len[e];
    f.base = (const hr_complex *)(base + 4 * o) + (size_t)mu * NF * NF * len + (e - o);
    f.stride = len;
  }
  return f;
}

/* Entry (r, c) of the factor f (of the link's adjoint when f.dag). */
HR_INLINE hr_complex ff_factor_entry(ff_factor f, int r, int c) {
  const int k = f.dag ? c * NF + r : r * NF + c;
  hr_complex z;
  HR_UNIT_LOAD(&z, &f.base[(size_t)k * f.stride]);
  return f.dag ? hr_conj(z) : z;
}

/* out = f col: one column of a product with f on the left (the entries of suNf_mul). */
HR_INLINE void ff_factor_lmul(hr_complex out[NF], ff_factor f, const hr_complex col[NF]) {
  HR_UNROLL
  for (int r = 0; r < NF; ++r) {
    hr_complex s = hr_cmul(ff_factor_entry(f, r, 0), col[0]);
    HR_UNROLL
    for (int k = 1; k < NF; ++k) s += hr_cmul(ff_factor_entry(f, r, k), col[k]);
    out[r] = s;
  }
}

/* One plaquette leaf (ff_site_clover_sigma) read where used: its corners zc, za = zc + a,
 * zab, zb = zc + b in the plane (a, b), the represented links uf and the insertion field zf
 * with its slot qs; fac j is the j-th link of the loop (U_a(zc), U_b(za), U_a(zb)^+,
 * U_b(zc)^+), w j the insertion at the corner where fac j starts, picked by selections (an
 * index at run time into an array of factors would put them on a GPU stack). */
typedef struct {
  const fermion_force_view *v;
  const suNf *uf, *zf;
  int zc, za, zab, zb, a, b, qs;
} ff_leaf;
HR_INLINE ff_factor ff_leaf_fac(const ff_leaf *l, int j) {
  const int ix = j == 0 ? l->zc : j == 1 ? l->za : j == 2 ? l->zb : l->zc;
  return ff_factor_at(l->v, l->uf, ix, (j & 1) ? l->b : l->a, j >= 2);
}
HR_INLINE ff_factor ff_leaf_w(const ff_leaf *l, int j) {
  const int ix = j == 0 ? l->zc : j == 1 ? l->za : j == 2 ? l->zab : l->zb;
  return ff_factor_at(l->v, l->zf, ix, l->qs, 0);
}

/* Column i of the derivative of the leaves of one plaquette with respect to its factor k: out
 * = the sum over corners j of the product of the loop after fac k (w j inserted), i.e.
 * d/d fac k of sum_j tr[... w j fac j ...] = tr[d fac k out], formed from the right,
 *   t = w k;  for j = k+3, k+2, k+1 (mod 4): e = fac j (then fac j e),  t = fac j t + w j e,
 * a column at a time (column i of a product with a matrix on the left needs only column i of
 * the right factor: three columns live instead of matrices; the bits of the matrix products). */
HR_INLINE void ff_leaf_derivative_col(hr_complex t[NF], const ff_leaf *l, int k, int i) {
  hr_complex e[NF], tmp[NF];
  const ff_factor wk = ff_leaf_w(l, k);
  HR_UNROLL
  for (int r = 0; r < NF; ++r) t[r] = ff_factor_entry(wk, r, i);
  HR_UNROLL
  for (int step = 3; step >= 1; step--) {
    const int j = (k + step) % 4;
    const ff_factor fj = ff_leaf_fac(l, j);
    if (step == 3) {
      HR_UNROLL
      for (int r = 0; r < NF; ++r) e[r] = ff_factor_entry(fj, r, i);
    } else {
      ff_factor_lmul(tmp, fj, e);
      HR_UNROLL
      for (int r = 0; r < NF; ++r) e[r] = tmp[r];
    }
    ff_factor_lmul(tmp, fj, t);
    HR_UNROLL
    for (int r = 0; r < NF; ++r) t[r] = tmp[r];
    ff_factor_lmul(tmp, ff_leaf_w(l, j), e);
    HR_UNROLL
    for (int r = 0; r < NF; ++r) t[r] = t[r] + tmp[r];
  }
}

/* s += the derivative of the leaf of the plaquette with lower-left corner zc in plane (a, b)
 * with respect to its factor k (insertions in slot qs of zf), or its adjoint where the link
 * enters as U^+ (k >= 2: Re tr[dU^+ X] = Re tr[dU X^+]); entry n of s at sb[n ss]: in
 * memory (a matrix fewer in registers). */
HR_INLINE void ff_leaf_add(hr_complex *sb, size_t ss, const fermion_force_view *v,
                           const suNf *uf, const suNf *zf, int zc, int a, int b, int qs, int k) {
  const int za = v->iup[4 * zc + a];
  const ff_leaf l = {v, uf, zf, zc, za, v->iup[4 * za + b], v->iup[4 * zc + b], a, b, qs};
  HR_UNROLL
  for (int i = 0; i < NF; ++i) {
    hr_complex d[NF];
    ff_leaf_derivative_col(d, &l, k, i);
    HR_UNROLL
    for (int r = 0; r < NF; ++r) {
      hr_complex *const sp = &sb[(size_t)(k >= 2 ? i * NF + r : r * NF + i) * ss];
      hr_complex sv;
      HR_UNIT_LOAD(&sv, sp);
      sv = sv + (k >= 2 ? hr_conj(d[r]) : d[r]);
      HR_UNIT_STORE(sp, &sv);
    }
  }
}
#else
/* s += the derivative of the leaf (as above), the eight matrices read whole. */
HR_INLINE void ff_leaf_add(hr_complex *sb, size_t ss, const fermion_force_view *v,
                           const suNf *uf, const suNf *zf, int zc, int a, int b, int qs, int k) {
  const int za = v->iup[4 * zc + a], zb = v->iup[4 * zc + b], zab = v->iup[4 * za + b];
  suNf fac[4], w[4], d, tmp;
  ff_load_link(&fac[0], v, uf, zc, a);
  ff_load_link(&fac[1], v, uf, za, b);
  ff_load_link(&tmp, v, uf, zb, a);
  suNf_dagger(&fac[2], &tmp);
  ff_load_link(&tmp, v, uf, zc, b);
  suNf_dagger(&fac[3], &tmp);
  ff_load_link(&w[0], v, zf, zc, qs);
  ff_load_link(&w[1], v, zf, za, qs);
  ff_load_link(&w[2], v, zf, zab, qs);
  ff_load_link(&w[3], v, zf, zb, qs);
  ff_leaf_derivative(&d, fac, w, k);
  if (k >= 2) {
    suNf_dagger(&tmp, &d);
    d = tmp;
  }
  (void)ss; /* 1: a local matrix */
  for (int n = 0; n < NF * NF; ++n) sb[n] = sb[n] + d.c[n];
}
#endif

/* Sigma(ix,mu) += the clover insertions W of all plaquettes containing the link (ix,mu), for
 * every mu (uf the represented links, uf and the W fields with their halo current). */
HR_INLINE void ff_site_clover_sigma(suNf *sig, const fermion_force_view *v, const suNf *uf,
                                    const ff_clover_acc *z, int ix) {
  for (int mu = 0; mu < 4; mu++) {
    /* Sigma(ix,mu), entry n at sb[n ss]: summed in place in memory in the kernels, in a local
     * matrix in the CPU loops */
#if FF_LEAF_READ_WHERE_USED
    const ff_factor so = ff_factor_at(v, sig, ix, mu, 0);
    hr_complex *const sb = (hr_complex *)so.base;
    const size_t ss = (size_t)so.stride;
#else
    suNf s;
    ff_load_link(&s, v, sig, ix, mu);
    hr_complex *const sb = &s.c[0];
    const size_t ss = 1;
#endif
    for (int nu = 0; nu < 4; nu++) {
      if (nu == mu) continue;
      const int a = mu < nu ? mu : nu, b = mu < nu ? nu : mu, q = v->spin->plane_of[a][b];
      /* the two plaquettes (lower-left corner zc) of plane (a,b) containing the link, and the
       * factor k the link is in each: mu == a: k = 0 at x, k = 2 (daggered) at x - b;
       * mu == b: k = 1 at x - a, k = 3 (daggered) at x */
      for (int p = 0; p < 2; p++) {
        const int zc = p == 0 ? (mu == a ? ix : v->idn[4 * ix + a])
                              : (mu == a ? v->idn[4 * ix + b] : ix);
        const int k = p == 0 ? (mu == a ? 0 : 1) : (mu == a ? 2 : 3);
        ff_leaf_add(sb, ss, v, uf, ff_plane_field(z, q), zc, a, b, q % 4, k);
      }
    }
#if !FF_LEAF_READ_WHERE_USED
    ff_store_link(sig, v, ix, mu, &s);
#endif
  }
}

/* p^a(ix,mu) += eps Im tr[T^a-traces of U(ix,mu) Sigma(ix,mu)] for every mu, i.e.
 * p^a -= eps F^a with F^a = Re tr[i T^a_R U Sigma] (p a field of algebra vectors on glattice). */
HR_INLINE void ff_site_apply(suNg_algebra_vector *p, const fermion_force_view *v, const suNf *uf,
                             const suNf *sig, int ix, double eps) {
  const int e = ix - v->shift;
  for (int mu = 0; mu < 4; mu++) {
    suNf u, s, w;
    suNg_algebra_vector pv;
    hr_complex t[NG * NG - 1];
    ff_load_link(&u, v, uf, ix, mu);
    ff_load_link(&s, v, sig, ix, mu);
    suNf_mul(&w, &u, &s);
    suNf_generator_traces(t, &w);
    if (v->off == NULL) {
      pv = p[4 * e + mu];
    } else {
      read_gpu_suNg_algebra_vector(v->len[e], &pv, p + 4 * v->off[e], e - v->off[e], mu);
    }
    /* F^a = Re(i t_a) = -Im t_a */
    for (int a = 0; a < NG * NG - 1; a++) pv.c[a] += eps * hr_cimag(t[a]);
    if (v->off == NULL) {
      p[4 * e + mu] = pv;
    } else {
      write_gpu_suNg_algebra_vector(v->len[e], &pv, p + 4 * v->off[e], e - v->off[e], mu);
    }
  }
}

#endif
