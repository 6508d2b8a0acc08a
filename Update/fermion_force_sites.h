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

/* Sigma(ix,mu) += the clover insertions W of all plaquettes containing the link (ix,mu), for
 * every mu (uf the represented links, uf and the W fields with their halo current). */
HR_INLINE void ff_site_clover_sigma(suNf *sig, const fermion_force_view *v, const suNf *uf,
                                    const ff_clover_acc *z, int ix) {
  for (int mu = 0; mu < 4; mu++) {
    suNf s;
    ff_load_link(&s, v, sig, ix, mu);
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
        const int za = v->iup[4 * zc + a], zb = v->iup[4 * zc + b], zab = v->iup[4 * za + b];
        suNf fac[4], w[4], d, tmp;
        ff_load_link(&fac[0], v, uf, zc, a);
        ff_load_link(&fac[1], v, uf, za, b);
        ff_load_link(&tmp, v, uf, zb, a);
        suNf_dagger(&fac[2], &tmp);
        ff_load_link(&tmp, v, uf, zc, b);
        suNf_dagger(&fac[3], &tmp);
        ff_load_plane(&w[0], v, z, zc, q);
        ff_load_plane(&w[1], v, z, za, q);
        ff_load_plane(&w[2], v, z, zab, q);
        ff_load_plane(&w[3], v, z, zb, q);
        ff_leaf_derivative(&d, fac, w, k);
        if (k >= 2) { /* the link enters as U^+: Re tr[dU^+ X] = Re tr[dU X^+] */
          suNf_dagger(&tmp, &d);
          d = tmp;
        }
        suNf_add(&s, &s, &d);
      }
    }
    ff_store_link(sig, v, ix, mu, &s);
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
