/* dirac_site_template.h -- the per-site Wilson hopping kernel and its epilogue (diagonal term,
 * clover block read from a host element or an entry at a time from the device layout),
 * written once for both precisions. No include guard: dirac_site.h includes it once per
 * precision after defining DIRAC_TMPL_SFX (name suffix: empty or _flt), DIRAC_TMPL_SPINOR,
 * DIRAC_TMPL_VEC, DIRAC_TMPL_MAT, DIRAC_TMPL_CPLX, DIRAC_TMPL_REAL, DIRAC_TMPL_MKCPLX,
 * DIRAC_TMPL_CLOVER, DIRAC_TMPL_UINT (unsigned integer of the real's size) and, for the
 * vectorised CPU form, DIRAC_TMPL_HAS_FMA, DIRAC_TMPL_V4_FMA, DIRAC_TMPL_V4_FNMA,
 * DIRAC_TMPL_PAIRED (1: the direction-pair form with 8-real vectors), DIRAC_TMPL_V8_FMA and
 * DIRAC_TMPL_V8_BCAST2; they are undefined at the end. The vectorised CPU form and the CPU
 * site kernel dirac_cpu_site are in the sections so headed.
 *
 * The projection uses the block form of gamma.h: with gamma_mu = [[0, A], [A^+, 0]] and
 * s = -1 (forward, 1 - gamma_mu) or +1 (backward, 1 + gamma_mu),
 *   h_r = psi_r + s i^k_r psi_(2+p_r)          (r = 0, 1: the half spinor)
 *   (1 + s gamma_mu) psi = (h_0, h_1, lower) with lower_(p_r) = s i^(-k_r) h_r,
 * and the colour matrix commutes with the spin projection, so it is applied to h only.
 * Implemented in: LibHR/Dirac (header only; internal, not installed: instantiated twice by
 *  dirac_site.h). */

/* The parameters must be defined by the includer. */
#ifndef DIRAC_TMPL_SFX
#error "dirac_site_template.h: define DIRAC_TMPL_SFX (the name suffix, empty or _flt) before including"
#endif
#ifndef DIRAC_TMPL_SPINOR
#error "dirac_site_template.h: define DIRAC_TMPL_SPINOR (the spinor type) before including"
#endif
#ifndef DIRAC_TMPL_VEC
#error "dirac_site_template.h: define DIRAC_TMPL_VEC (the colour vector type) before including"
#endif
#ifndef DIRAC_TMPL_MAT
#error "dirac_site_template.h: define DIRAC_TMPL_MAT (the link matrix type) before including"
#endif
#ifndef DIRAC_TMPL_CPLX
#error "dirac_site_template.h: define DIRAC_TMPL_CPLX (the complex type) before including"
#endif
#ifndef DIRAC_TMPL_REAL
#error "dirac_site_template.h: define DIRAC_TMPL_REAL (the real type) before including"
#endif
#ifndef DIRAC_TMPL_MKCPLX
#error "dirac_site_template.h: define DIRAC_TMPL_MKCPLX (the complex constructor) before including"
#endif
#ifndef DIRAC_TMPL_CLOVER
#error "dirac_site_template.h: define DIRAC_TMPL_CLOVER (the clover block type) before including"
#endif

#define DIRAC_F_(name) HR_CAT(name, DIRAC_TMPL_SFX)
#define DIRAC_SR_(op) HR_CAT(DIRAC_TMPL_SPINOR, op)

/* Half spinor: the two independent colour vectors of (1 -/+ gamma_mu) psi. */
typedef struct {
  DIRAC_TMPL_VEC c[2];
} DIRAC_F_(dirac_half_spinor);

/* The links of one direction mu of a site for the direction-pair form of the CPU kernel
 * (DIRAC_TMPL_PAIRED): entry i NF + c holds (re A_ic, re B_ic, im A_ic, im B_ic) with
 * A = U_mu(x) and B = U_mu(x - mu)^+; the size of two links. */
typedef struct {
  DIRAC_TMPL_REAL e[NF * NF][4];
} DIRAC_F_(dirac_link_pair);
#ifndef __cplusplus
_Static_assert(sizeof(DIRAC_F_(dirac_link_pair)) == 2 * sizeof(DIRAC_TMPL_MAT),
               "a link pair takes the place of two links");
#endif

/* z times i^k for a compile-time k (folds to a swap and sign changes). */
DIRAC_ALWAYS_INLINE DIRAC_TMPL_CPLX DIRAC_F_(dirac_mul_ipow)(int k, DIRAC_TMPL_CPLX z) {
  switch (k & 3) {
  case 0: return z;
  case 1: return hr_ctimes_i(z);
  case 2: return -z;
  default: return -hr_ctimes_i(z);
  }
}

/* out = a + i^k b, componentwise on colour vectors. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_vec_add_ipow)(DIRAC_TMPL_VEC *out, const DIRAC_TMPL_VEC *a,
                                                      int k, const DIRAC_TMPL_VEC *b) {
  DIRAC_UNROLL
  for (int i = 0; i < NF; ++i)
    out->c[i] = a->c[i] + DIRAC_F_(dirac_mul_ipow)(k, b->c[i]);
}

/* Row r of the half spinor of (1 + s gamma_mu) psi, from the spin components r (upper) and
 * dirac_spin_partner(mu, r) (lower) of psi: h_r = upper + s i^k_r lower. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_spin_project_row)(DIRAC_TMPL_VEC *h, int mu, int s, int r,
                                                          const DIRAC_TMPL_VEC *upper,
                                                          const DIRAC_TMPL_VEC *lower) {
  const int ipow[4][2] = HR_GAMMA_IPOW_INIT;
  DIRAC_F_(dirac_vec_add_ipow)(h, upper, ipow[mu][r] + (s < 0 ? 2 : 0), lower);
}

/* h = half spinor of (1 + s gamma_mu) psi, s = +1 or -1. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_spin_project)(DIRAC_F_(dirac_half_spinor) * h, int mu,
                                                      int s, const DIRAC_TMPL_SPINOR *psi) {
  DIRAC_UNROLL
  for (int r = 0; r < 2; ++r)
    DIRAC_F_(dirac_spin_project_row)(&h->c[r], mu, s, r, &psi->c[r],
                                     &psi->c[dirac_spin_partner(mu, r)]);
}

/* Colour i of row r of the reconstruction: out (+)= (1 + s gamma_mu) applied to the half
 * spinor whose row r has the value v at colour i (after the colour mat-vec): the upper spin
 * component r and its partner; `first` != 0 writes instead of adding. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_spin_reconstruct_entry)(DIRAC_TMPL_SPINOR *out, int mu,
                                                                int s, int first, int r, int i,
                                                                DIRAC_TMPL_CPLX v) {
  const int ipow[4][2] = HR_GAMMA_IPOW_INIT;
  const int k = -ipow[mu][r] + (s < 0 ? 2 : 0);
  DIRAC_TMPL_VEC *lo = &out->c[dirac_spin_partner(mu, r)];
  if (first) {
    out->c[r].c[i] = v;
    lo->c[i] = DIRAC_F_(dirac_mul_ipow)(k, v);
  } else {
    out->c[r].c[i] += v;
    lo->c[i] += DIRAC_F_(dirac_mul_ipow)(k, v);
  }
}

/* Row i of W v, W = U (s = -1) or U^+ (s = +1): the operations of suNf_mul_vec /
 * suNf_dag_mul_vec for that row, so the result has their bits. */
DIRAC_ALWAYS_INLINE DIRAC_TMPL_CPLX DIRAC_F_(dirac_link_row_mul)(const DIRAC_TMPL_MAT *U, int s,
                                                                 int i, const DIRAC_TMPL_VEC *v) {
  DIRAC_TMPL_CPLX acc;
  if (s < 0) {
    acc = hr_cmul(U->c[i * NF], v->c[0]);
    DIRAC_UNROLL
    for (int k = 1; k < NF; ++k) acc += hr_cmul(U->c[i * NF + k], v->c[k]);
  } else {
    acc = hr_conj_cmul(U->c[i], v->c[0]);
    DIRAC_UNROLL
    for (int k = 1; k < NF; ++k) acc += hr_conj_cmul(U->c[k * NF + i], v->c[k]);
  }
  return acc;
}

#if NF == 3
/* 12-number links (Doc/gpu.md): entry (2, j) of a 3x3 link from its rows 0 and 1,
 * c conj(U_0k U_1l - U_0l U_1k) for (j, k, l) cyclic, with c = det U: 1 for a special unitary
 * matrix, ph^3 for one that carries a boundary phase ph (dirac_bc_link_phase); the zero links
 * of open boundaries have zero rows, and so a zero third row, for any c. */
DIRAC_ALWAYS_INLINE DIRAC_TMPL_CPLX DIRAC_F_(dirac_link_row2_entry)(const DIRAC_TMPL_MAT *U,
                                                                    DIRAC_TMPL_CPLX c, int j) {
  const int k = (j + 1) % 3, l = (j + 2) % 3;
  return hr_cmul(c, hr_conj(hr_cmul(U->c[k], U->c[3 + l]) - hr_cmul(U->c[l], U->c[3 + k])));
}
/* Row 2 of U from its rows 0 and 1 (dirac_link_row2_entry). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_link_reconstruct)(DIRAC_TMPL_MAT *U, DIRAC_TMPL_CPLX c) {
  DIRAC_UNROLL
  for (int j = 0; j < 3; ++j) U->c[6 + j] = DIRAC_F_(dirac_link_row2_entry)(U, c, j);
}
#endif

/* One direction of the hopping sum from the half spinor h of (1 + s gamma_mu) psi:
 * out (+)= (1 + s gamma_mu) W psi, with W = U for s = -1 (forward) and W = U^+ for s = +1
 * (backward). Colour row by colour row: each row of W h is reconstructed into out at once, so
 * that W h is never held whole (fewer live registers in the GPU kernels). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_hop_dir_half)(DIRAC_TMPL_SPINOR *out, int mu, int s,
                                                           int first,
                                                           const DIRAC_F_(dirac_half_spinor) * h,
                                                           const DIRAC_TMPL_MAT *U) {
  DIRAC_UNROLL
  for (int i = 0; i < NF; ++i) {
    DIRAC_UNROLL
    for (int r = 0; r < 2; ++r)
      DIRAC_F_(dirac_spin_reconstruct_entry)(out, mu, s, first, r, i,
                                             DIRAC_F_(dirac_link_row_mul)(U, s, i, &h->c[r]));
  }
}

#if NF == 3
/* Row i of W v (dirac_link_row_mul's operations, so its bits) for a 12-number link: rows 0
 * and 1 of U set, the entries of row 2 built where they are used (dirac_link_row2_entry with
 * c = det U). */
DIRAC_ALWAYS_INLINE DIRAC_TMPL_CPLX DIRAC_F_(dirac_link12_row_mul)(const DIRAC_TMPL_MAT *U,
                                                                   DIRAC_TMPL_CPLX c, int s,
                                                                   int i,
                                                                   const DIRAC_TMPL_VEC *v) {
  DIRAC_TMPL_CPLX acc;
  if (s < 0) {
    if (i < 2) return DIRAC_F_(dirac_link_row_mul)(U, s, i, v);
    acc = hr_cmul(DIRAC_F_(dirac_link_row2_entry)(U, c, 0), v->c[0]);
    DIRAC_UNROLL
    for (int k = 1; k < NF; ++k) acc += hr_cmul(DIRAC_F_(dirac_link_row2_entry)(U, c, k), v->c[k]);
  } else {
    acc = hr_conj_cmul(U->c[i], v->c[0]);
    acc += hr_conj_cmul(U->c[NF + i], v->c[1]);
    acc += hr_conj_cmul(DIRAC_F_(dirac_link_row2_entry)(U, c, i), v->c[2]);
  }
  return acc;
}

/* dirac_site_hop_dir_half for a 12-number link (dirac_link12_row_mul): the third row is
 * never held whole; the bits of dirac_site_hop_dir_half on the reconstructed link. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_hop_dir_half_12)(DIRAC_TMPL_SPINOR *out, int mu,
                                                              int s, int first,
                                                              const DIRAC_F_(dirac_half_spinor) * h,
                                                              const DIRAC_TMPL_MAT *U,
                                                              DIRAC_TMPL_CPLX c) {
  DIRAC_UNROLL
  for (int i = 0; i < NF; ++i) {
    DIRAC_UNROLL
    for (int r = 0; r < 2; ++r)
      DIRAC_F_(dirac_spin_reconstruct_entry)(out, mu, s, first, r, i,
                                             DIRAC_F_(dirac_link12_row_mul)(U, c, s, i, &h->c[r]));
  }
}
#endif

/* One direction of the hopping sum: out (+)= (1 + s gamma_mu) W psi (dirac_site_hop_dir_half
 * after the projection). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_hop_dir)(DIRAC_TMPL_SPINOR *out, int mu, int s,
                                                      int first, const DIRAC_TMPL_SPINOR *psi,
                                                      const DIRAC_TMPL_MAT *U) {
  DIRAC_F_(dirac_half_spinor) h;
  DIRAC_F_(dirac_spin_project)(&h, mu, s, psi);
  DIRAC_F_(dirac_site_hop_dir_half)(out, mu, s, first, &h, U);
}

/* The hopping sum of one site in the plain form (any compiler, CUDA included); see
 * dirac_site_hop for the arguments. */
HR_INLINE void DIRAC_F_(dirac_site_hop_generic)(DIRAC_TMPL_SPINOR *out,
                                                const DIRAC_TMPL_SPINOR *const up[4],
                                                const DIRAC_TMPL_SPINOR *const dn[4],
                                                const DIRAC_TMPL_MAT *const uup[4],
                                                const DIRAC_TMPL_MAT *const udn[4]) {
  DIRAC_F_(dirac_site_hop_dir)(out, 0, -1, 1, up[0], uup[0]);
  DIRAC_F_(dirac_site_hop_dir)(out, 0, +1, 0, dn[0], udn[0]);
  DIRAC_F_(dirac_site_hop_dir)(out, 1, -1, 0, up[1], uup[1]);
  DIRAC_F_(dirac_site_hop_dir)(out, 1, +1, 0, dn[1], udn[1]);
  DIRAC_F_(dirac_site_hop_dir)(out, 2, -1, 0, up[2], uup[2]);
  DIRAC_F_(dirac_site_hop_dir)(out, 2, +1, 0, dn[2], udn[2]);
  DIRAC_F_(dirac_site_hop_dir)(out, 3, -1, 0, up[3], uup[3]);
  DIRAC_F_(dirac_site_hop_dir)(out, 3, +1, 0, dn[3], udn[3]);
}

#if DIRAC_SIMD
/* ----------------------------------------------------------- vectorised form (CPU)
 * Pair form: a vector v4 of 4 reals holds two complex numbers, (re a, im a, re b, im b). The
 * two rows of the half spinor are processed together, v4 = (h0_c, h1_c) per colour c, and the
 * accumulators hold the spin components (0, 1) and (2, 3) of each colour, so each colour
 * mat-vec step is two multiply-adds on a v4 (AVX for double, SSE for float; the compiler
 * lowers it on other targets). DIRAC_V4_FMA_ is a fused multiply-add where the target has
 * one (dirac_site.h: explicit instructions, rounded once, the same wherever they are
 * inlined), else a multiply and an add; multiplications by +-1 are exact either way. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
/* the vector helpers are always inlined: no ABI crosses a call */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
typedef DIRAC_TMPL_REAL DIRAC_F_(dirac_v4) __attribute__((vector_size(4 * sizeof(DIRAC_TMPL_REAL))));
#define DIRAC_V4_ DIRAC_F_(dirac_v4)
#define DIRAC_V4_FMA_(a, b, c) ((DIRAC_V4_)DIRAC_TMPL_V4_FMA(a, b, c))
#define DIRAC_V4_FNMA_(a, b, c) ((DIRAC_V4_)DIRAC_TMPL_V4_FNMA(a, b, c)) /* c - a b */

/* (re a, im a, re b, im b). */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v4_pair)(DIRAC_TMPL_CPLX a, DIRAC_TMPL_CPLX b) {
  const DIRAC_V4_ v = {hr_creal(a), hr_cimag(a), hr_creal(b), hr_cimag(b)};
  return v;
}
/* The two complex numbers of v as the spin components sa, sb of colour i of a spinor. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v4_store)(DIRAC_TMPL_SPINOR *out, int sa, int sb, int i,
                                                  DIRAC_V4_ v) {
  /* each half as one store */
  __builtin_memcpy(&out->c[sa].c[i], &v, 2 * sizeof(DIRAC_TMPL_REAL));
  __builtin_memcpy(&out->c[sb].c[i], (const DIRAC_TMPL_REAL *)&v + 2, 2 * sizeof(DIRAC_TMPL_REAL));
}
/* (x, x, x, x). */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v4_splat)(DIRAC_TMPL_REAL x) {
  const DIRAC_V4_ v = {x, x, x, x};
  return v;
}
/* Signs that multiply the first complex number by i^k0 and the second by i^k1 after the
 * real and imaginary parts were swapped when k0 is odd (k0, k1 of equal parity). */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v4_ipow_signs)(int k0, int k1) {
  k0 &= 3;
  k1 &= 3;
  const DIRAC_V4_ sg = {(k0 == 1 || k0 == 2) ? -1 : 1, (k0 >= 2) ? -1 : 1,
                        (k1 == 1 || k1 == 2) ? -1 : 1, (k1 >= 2) ? -1 : 1};
  return sg;
}
/* v with the real and imaginary parts of both numbers swapped when k is odd. */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v4_ipow_swap)(int k, DIRAC_V4_ v) {
  return (k & 1) ? __builtin_shufflevector(v, v, 1, 0, 3, 2) : v;
}
/* i v (both numbers). */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v4_times_i)(DIRAC_V4_ v) {
  /* the sign of the real parts flipped by a bit operation (exact, off the multiply units) */
  typedef DIRAC_TMPL_UINT uv4 __attribute__((vector_size(sizeof(DIRAC_V4_))));
  const DIRAC_V4_ neg = {-0., 0., -0., 0.};
  return (DIRAC_V4_)((uv4)__builtin_shufflevector(v, v, 1, 0, 3, 2) ^ (uv4)neg);
}

/* h[c] = the half spinor of (1 + s gamma_mu) psi at colour c in pair form, (h_0, h_1), and
 * hs[c] = i h[c]: h_r = psi_r + s i^k_r psi_(2+p_r). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v4_project)(DIRAC_V4_ *h, DIRAC_V4_ *hs, int mu, int s,
                                                    const DIRAC_TMPL_SPINOR *psi) {
  const int perm[4][2] = HR_GAMMA_PERM_INIT;
  const int ipow[4][2] = HR_GAMMA_IPOW_INIT;
  const int p0 = perm[mu][0], p1 = perm[mu][1];
  const int sh = s < 0 ? 2 : 0;
  const int kp0 = ipow[mu][0] + sh, kp1 = ipow[mu][1] + sh;
  const DIRAC_V4_ sp = DIRAC_F_(dirac_v4_ipow_signs)(kp0, kp1);
  DIRAC_CPU_UNROLL
  for (int c = 0; c < NF; ++c) {
    const DIRAC_V4_ lo = DIRAC_F_(dirac_v4_pair)(psi->c[2 + p0].c[c], psi->c[2 + p1].c[c]);
    h[c] = DIRAC_V4_FMA_(sp, DIRAC_F_(dirac_v4_ipow_swap)(kp0, lo),
                         DIRAC_F_(dirac_v4_pair)(psi->c[0].c[c], psi->c[1].c[c]));
    hs[c] = DIRAC_F_(dirac_v4_times_i)(h[c]);
  }
}

/* h, hs as dirac_v4_project from a half spinor projected already (dirac_spin_project: the
 * same bits, the products with +-1 and +-i being exact), e.g. received from another process. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v4_half_load)(DIRAC_V4_ *h, DIRAC_V4_ *hs,
                                                      const DIRAC_F_(dirac_half_spinor) * hp) {
  DIRAC_CPU_UNROLL
  for (int c = 0; c < NF; ++c) {
    h[c] = DIRAC_F_(dirac_v4_pair)(hp->c[0].c[c], hp->c[1].c[c]);
    hs[c] = DIRAC_F_(dirac_v4_times_i)(h[c]);
  }
}

/* out = the half spinor of (1 + s gamma_mu) psi, the bits of dirac_spin_project (sums and
 * differences only), in pair form: the halo the CPU loops send to another process. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_cpu_spin_project)(DIRAC_F_(dirac_half_spinor) * out,
                                                          int mu, int s,
                                                          const DIRAC_TMPL_SPINOR *psi) {
  DIRAC_V4_ h[NF], hs[NF]; /* hs is not needed: the compiler drops it */
  DIRAC_F_(dirac_v4_project)(h, hs, mu, s, psi);
  DIRAC_CPU_UNROLL
  for (int c = 0; c < NF; ++c) {
    __builtin_memcpy(&out->c[0].c[c], &h[c], 2 * sizeof(DIRAC_TMPL_REAL));
    __builtin_memcpy(&out->c[1].c[c], (const DIRAC_TMPL_REAL *)&h[c] + 2,
                     2 * sizeof(DIRAC_TMPL_REAL));
  }
}

/* The signs of the reconstruction of direction mu and sign s in pair form, lower_(p_r) =
 * s i^(-k_r) (W h)_r, by output position (the halves exchanged when p0 = 1); the real and
 * imaginary parts of W h are exchanged first when k_0 - (s < 0 ? 2 : 0) is odd. */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v4_recon_signs)(int mu, int s) {
  const int perm[4][2] = HR_GAMMA_PERM_INIT;
  const int ipow[4][2] = HR_GAMMA_IPOW_INIT;
  const int sh = s < 0 ? 2 : 0;
  const DIRAC_V4_ sr = DIRAC_F_(dirac_v4_ipow_signs)(-ipow[mu][0] + sh, -ipow[mu][1] + sh);
  return perm[mu][0] == 1 ? __builtin_shufflevector(sr, sr, 2, 3, 0, 1) : sr;
}

/* The accumulation of one row i of a direction (pair or direction-pair form, any vector type):
 * acc_up[i] (+)= w, acc_lo[i] (+)= sr lw with lw the reconstructed w, fma the form's FMA. */
#define DIRAC_ACC_DIR_(first, acc_up, acc_lo, i, w, sr, lw, fma)                                 \
  do {                                                                                         \
    if (first) {                                                                               \
      (acc_up)[i] = (w);                                                                       \
      (acc_lo)[i] = (sr) * (lw);                                                               \
    } else {                                                                                   \
      (acc_up)[i] += (w);                                                                      \
      (acc_lo)[i] = fma(sr, lw, (acc_lo)[i]);                                                  \
    }                                                                                          \
  } while (0)

/* acc_up / acc_lo (+)= one direction of the hopping sum, in pair form: acc_up[i] holds spin
 * components (0, 1) of colour i, acc_lo[i] components (2, 3); the neighbour is psi, or the
 * half spinor hp of its projection when hp is not NULL. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v4_hop_dir)(DIRAC_V4_ *acc_up, DIRAC_V4_ *acc_lo, int mu,
                                                    int s, int first, const DIRAC_TMPL_SPINOR *psi,
                                                    const DIRAC_F_(dirac_half_spinor) * hp,
                                                    const DIRAC_TMPL_MAT *U) {
  const int perm[4][2] = HR_GAMMA_PERM_INIT;
  const int ipow[4][2] = HR_GAMMA_IPOW_INIT;
  const int p0 = perm[mu][0];
  const int sh = s < 0 ? 2 : 0;
  DIRAC_V4_ h[NF], hs[NF];
  if (hp != NULL)
    DIRAC_F_(dirac_v4_half_load)(h, hs, hp);
  else
    DIRAC_F_(dirac_v4_project)(h, hs, mu, s, psi);
  /* reconstruction: lower_(p_r) = s i^(-k_r) (W h)_r, the halves exchanged when p0 = 1 */
  const int kr0 = -ipow[mu][0] + sh;
  const DIRAC_V4_ sr = DIRAC_F_(dirac_v4_recon_signs)(mu, s);
  DIRAC_CPU_UNROLL
  for (int i = 0; i < NF; ++i) {
    DIRAC_V4_ w;
    /* row i of W h, W = U (s < 0) or U^+: u h = re(u) h + im(u) (i h), conj(u) h = re(u) h -
     * im(u) (i h); with FMA the re(u) and the im(u) terms in two chains of multiply-adds,
     * added at the end (half the dependency chain; Doc/dirac.md, "Two chains") */
#if DIRAC_TMPL_HAS_FMA
    DIRAC_V4_ wi;
    DIRAC_CPU_UNROLL
    for (int c = 0; c < NF; ++c) {
      const DIRAC_TMPL_CPLX u = s < 0 ? U->c[i * NF + c] : U->c[c * NF + i];
      const DIRAC_V4_ ur = DIRAC_F_(dirac_v4_splat)(hr_creal(u));
      const DIRAC_V4_ ui = DIRAC_F_(dirac_v4_splat)(hr_cimag(u));
      w = c == 0 ? ur * h[0] : DIRAC_V4_FMA_(ur, h[c], w);
      wi = c == 0 ? ui * hs[0] : DIRAC_V4_FMA_(ui, hs[c], wi);
    }
    w = s < 0 ? w + wi : w - wi;
#else /* the operations of dirac_link_row_mul: the generic kernel's bits */
    DIRAC_CPU_UNROLL
    for (int c = 0; c < NF; ++c) {
      const DIRAC_TMPL_CPLX u = s < 0 ? U->c[i * NF + c] : U->c[c * NF + i];
      const DIRAC_V4_ t = s < 0 ? hr_creal(u) * h[c] + hr_cimag(u) * hs[c]
                                : hr_creal(u) * h[c] - hr_cimag(u) * hs[c];
      w = c == 0 ? t : w + t;
    }
#endif
    DIRAC_V4_ lw = DIRAC_F_(dirac_v4_ipow_swap)(kr0, w);
    if (p0 == 1) lw = __builtin_shufflevector(lw, lw, 2, 3, 0, 1);
    DIRAC_ACC_DIR_(first, acc_up, acc_lo, i, w, sr, lw, DIRAC_V4_FMA_);
  }
}

/* The hopping sum of one site in pair form (dirac_site_hop's arguments); hup / hdn, when not
 * NULL, give for each direction the received half spinor of a neighbour in another process's
 * halo (NULL entries: read up / dn). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v4_hop)(DIRAC_V4_ *acc_up, DIRAC_V4_ *acc_lo,
                                                const DIRAC_TMPL_SPINOR *const up[4],
                                                const DIRAC_TMPL_SPINOR *const dn[4],
                                                const DIRAC_F_(dirac_half_spinor) *const *hup,
                                                const DIRAC_F_(dirac_half_spinor) *const *hdn,
                                                const DIRAC_TMPL_MAT *const uup[4],
                                                const DIRAC_TMPL_MAT *const udn[4]) {
#define DIRAC_V4_DIR_(mu, s, first, nb, hnb, lk)                                                \
  DIRAC_F_(dirac_v4_hop_dir)(acc_up, acc_lo, mu, s, first, nb[mu], hnb != NULL ? hnb[mu] : NULL, \
                             lk[mu])
  DIRAC_V4_DIR_(0, -1, 1, up, hup, uup);
  DIRAC_V4_DIR_(0, +1, 0, dn, hdn, udn);
  DIRAC_V4_DIR_(1, -1, 0, up, hup, uup);
  DIRAC_V4_DIR_(1, +1, 0, dn, hdn, udn);
  DIRAC_V4_DIR_(2, -1, 0, up, hup, uup);
  DIRAC_V4_DIR_(2, +1, 0, dn, hdn, udn);
  DIRAC_V4_DIR_(3, -1, 0, up, hup, uup);
  DIRAC_V4_DIR_(3, +1, 0, dn, hdn, udn);
#undef DIRAC_V4_DIR_
}

/* out = sum_mu [(1 - gamma_mu) uup[mu] up[mu] + (1 + gamma_mu) udn[mu]^+ dn[mu]]: up[mu] =
 * psi(x+mu), dn[mu] = psi(x-mu), uup[mu] = U_mu(x), udn[mu] = U_mu(x-mu). `out` must not
 * alias an input. Vectorised form; equal to dirac_site_hop_generic to rounding (bitwise
 * without FMA). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_hop)(DIRAC_TMPL_SPINOR *out,
                                                  const DIRAC_TMPL_SPINOR *const up[4],
                                                  const DIRAC_TMPL_SPINOR *const dn[4],
                                                  const DIRAC_TMPL_MAT *const uup[4],
                                                  const DIRAC_TMPL_MAT *const udn[4]) {
  DIRAC_V4_ acc_up[NF], acc_lo[NF];
  DIRAC_F_(dirac_v4_hop)(acc_up, acc_lo, up, dn, NULL, NULL, uup, udn);
  DIRAC_CPU_UNROLL
  for (int i = 0; i < NF; ++i) {
    DIRAC_F_(dirac_v4_store)(out, 0, 1, i, acc_up[i]);
    DIRAC_F_(dirac_v4_store)(out, 2, 3, i, acc_lo[i]);
  }
}
#if DIRAC_TMPL_PAIRED
/* ----------------------------------------------------------- direction-pair form (CPU)
 * The forward and backward terms of one direction mu computed together in vectors v8 of 8
 * reals (256-bit AVX vectors in single precision, the precision that uses this form, see
 * dirac_site.h; the pair form's 128-bit vectors did the same number of operations as
 * double precision's 256-bit ones): lane 4 r + 2 part + d holds the real (part 0) or
 * imaginary (part 1) part of row r of the half spinor of direction d (0: forward, psi(x+mu)
 * with U_mu(x); 1: backward, psi(x-mu) with U_mu(x-mu)^+). The links come as link pairs
 * (dirac_link_pair: each entry's real parts, then imaginary parts, of both directions next to
 * each other), so a colour mat-vec step is one broadcast load and one fused multiply-add per
 * part for both directions at once. Per direction, each product is the pair form's (the same
 * bits); the forward and backward sums are added at the end (dirac_v8_fold). */
typedef DIRAC_TMPL_REAL DIRAC_F_(dirac_v8)
    __attribute__((vector_size(8 * sizeof(DIRAC_TMPL_REAL))));
#define DIRAC_V8_ DIRAC_F_(dirac_v8)
#define DIRAC_V8_FMA_(a, b, c) ((DIRAC_V8_)DIRAC_TMPL_V8_FMA(a, b, c))

/* Lane 2 k + d = lane k of f (d = 0) or b (d = 1). */
DIRAC_ALWAYS_INLINE DIRAC_V8_ DIRAC_F_(dirac_v8_interleave)(DIRAC_V4_ f, DIRAC_V4_ b) {
  return __builtin_shufflevector(f, b, 0, 4, 1, 5, 2, 6, 3, 7);
}
/* The pair form of the sum of both directions: lanes 2 k and 2 k + 1 added. */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v8_fold)(DIRAC_V8_ v) {
  return __builtin_shufflevector(v, v, 0, 2, 4, 6) + __builtin_shufflevector(v, v, 1, 3, 5, 7);
}
/* The two reals at p repeated over the vector (one broadcast load). */
DIRAC_ALWAYS_INLINE DIRAC_V8_ DIRAC_F_(dirac_v8_bcast2)(const DIRAC_TMPL_REAL *p) {
  return (DIRAC_V8_)DIRAC_TMPL_V8_BCAST2(p);
}
/* The 8 reals from p (unaligned). */
DIRAC_ALWAYS_INLINE DIRAC_V8_ DIRAC_F_(dirac_v8_load)(const DIRAC_TMPL_REAL *p) {
  DIRAC_V8_ v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
/* v with the real and imaginary parts exchanged in every complex number. */
DIRAC_ALWAYS_INLINE DIRAC_V8_ DIRAC_F_(dirac_v8_swap_parts)(DIRAC_V8_ v) {
  return __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
}
/* i v on every complex number. */
DIRAC_ALWAYS_INLINE DIRAC_V8_ DIRAC_F_(dirac_v8_times_i)(DIRAC_V8_ v) {
  typedef DIRAC_TMPL_UINT uv8 __attribute__((vector_size(sizeof(DIRAC_V8_))));
  const DIRAC_V8_ neg = {-0., -0., 0., 0., -0., -0., 0., 0.};
  return (DIRAC_V8_)((uv8)DIRAC_F_(dirac_v8_swap_parts)(v) ^ (uv8)neg);
}

/* acc_up / acc_lo (+)= both terms of direction mu in direction-pair form (acc_up[i]: spin
 * components (0, 1) of colour i, acc_lo[i]: (2, 3)); the neighbours are pf = psi(x+mu) and
 * pb = psi(x-mu), or the received half spinors hf / hb when not NULL; L: the link pair of mu. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v8_hop_dir)(DIRAC_V8_ *acc_up, DIRAC_V8_ *acc_lo, int mu,
                                                    int first, const DIRAC_TMPL_SPINOR *pf,
                                                    const DIRAC_F_(dirac_half_spinor) * hf,
                                                    const DIRAC_TMPL_SPINOR *pb,
                                                    const DIRAC_F_(dirac_half_spinor) * hb,
                                                    const DIRAC_F_(dirac_link_pair) * L) {
  const int perm[4][2] = HR_GAMMA_PERM_INIT;
  const int ipow[4][2] = HR_GAMMA_IPOW_INIT;
  const int p0 = perm[mu][0];
  DIRAC_V8_ h[NF], hs[NF];
#if NF == 3 /* the 8-real windows below fit within a spinor */
  if (hf == NULL && hb == NULL) {
    /* both neighbours local: the projection of dirac_v4_project for both directions at once
     * (the same operations, so the same bits), each pair of spin components gathered from
     * two 8-real windows of the spinors by one two-source permutation, the exchange of real
     * and imaginary parts folded into it */
    const int kp0 = ipow[mu][0], kp1 = ipow[mu][1];
    const DIRAC_V8_ sp = DIRAC_F_(dirac_v8_interleave)(
        DIRAC_F_(dirac_v4_ipow_signs)(kp0 + 2, kp1 + 2), DIRAC_F_(dirac_v4_ipow_signs)(kp0, kp1));
    const DIRAC_TMPL_REAL *rf = (const DIRAC_TMPL_REAL *)pf, *rb = (const DIRAC_TMPL_REAL *)pb;
    const int lo = 2 * NF * 2; /* first real of spin component 2 */
    DIRAC_CPU_UNROLL
    for (int c = 0; c < NF; ++c) {
      /* window at spin 0 (or 2), colour c: lanes 0, 1 hold that component, 2 NF, 2 NF + 1 the
       * next spin's */
      const DIRAC_V8_ uf = DIRAC_F_(dirac_v8_load)(rf + 2 * c);
      const DIRAC_V8_ ub = DIRAC_F_(dirac_v8_load)(rb + 2 * c);
      const DIRAC_V8_ lf = DIRAC_F_(dirac_v8_load)(rf + lo + 2 * c);
      const DIRAC_V8_ lb = DIRAC_F_(dirac_v8_load)(rb + lo + 2 * c);
      /* (f[i0], b[i0], f[i1], b[i1], f[i2], b[i2], f[i3], b[i3]): one two-source permutation
       * with AVX-512 (vpermt2ps), else one permutation of each window and a blend (AVX2 has
       * no two-source permutation); the same values either way */
#ifdef __AVX512VL__
#define DIRAC_V8_GATHER_(f, b, i0, i1, i2, i3)                                                  \
  __builtin_shufflevector(f, b, i0, i0 + 8, i1, i1 + 8, i2, i2 + 8, i3, i3 + 8)
#else
#define DIRAC_V8_GATHER_(f, b, i0, i1, i2, i3)                                                  \
  __builtin_shufflevector(__builtin_shufflevector(f, f, i0, i0, i1, i1, i2, i2, i3, i3),        \
                          __builtin_shufflevector(b, b, i0, i0, i1, i1, i2, i2, i3, i3), 0, 9, \
                          2, 11, 4, 13, 6, 15)
#endif
      const DIRAC_V8_ up = DIRAC_V8_GATHER_(uf, ub, 0, 1, 2 * NF, 2 * NF + 1);
      DIRAC_V8_ low;
      /* lower spin partners 2 + p0, 2 + p1, real and imaginary parts exchanged when kp0 odd */
      if (p0 == 0)
        low = (kp0 & 1) ? DIRAC_V8_GATHER_(lf, lb, 1, 0, 2 * NF + 1, 2 * NF)
                        : DIRAC_V8_GATHER_(lf, lb, 0, 1, 2 * NF, 2 * NF + 1);
      else
        low = (kp0 & 1) ? DIRAC_V8_GATHER_(lf, lb, 2 * NF + 1, 2 * NF, 1, 0)
                        : DIRAC_V8_GATHER_(lf, lb, 2 * NF, 2 * NF + 1, 0, 1);
#undef DIRAC_V8_GATHER_
      h[c] = DIRAC_V8_FMA_(sp, low, up);
      hs[c] = DIRAC_F_(dirac_v8_times_i)(h[c]);
    }
  } else
#endif
  {
    DIRAC_V4_ h4f[NF], h4b[NF], unused[NF]; /* the compiler drops `unused` */
    if (hf != NULL)
      DIRAC_F_(dirac_v4_half_load)(h4f, unused, hf);
    else
      DIRAC_F_(dirac_v4_project)(h4f, unused, mu, -1, pf);
    if (hb != NULL)
      DIRAC_F_(dirac_v4_half_load)(h4b, unused, hb);
    else
      DIRAC_F_(dirac_v4_project)(h4b, unused, mu, +1, pb);
    DIRAC_CPU_UNROLL
    for (int c = 0; c < NF; ++c) {
      h[c] = DIRAC_F_(dirac_v8_interleave)(h4f[c], h4b[c]);
      hs[c] = DIRAC_F_(dirac_v8_times_i)(h[c]);
    }
  }
  /* the reconstruction of dirac_v4_hop_dir for each direction (the exchange of parts has
   * the same parity for both) */
  const int kr0 = -ipow[mu][0];
  const DIRAC_V8_ sr = DIRAC_F_(dirac_v8_interleave)(DIRAC_F_(dirac_v4_recon_signs)(mu, -1),
                                                     DIRAC_F_(dirac_v4_recon_signs)(mu, +1));
  DIRAC_CPU_UNROLL
  for (int i = 0; i < NF; ++i) {
    /* row i of A h (forward lanes) and B h (backward lanes) with the link pair's A = U_mu(x),
     * B = U_mu(x - mu)^+: re(u) h + im(u) (i h), in the two chains of dirac_v4_hop_dir */
    DIRAC_V8_ w, wi;
    DIRAC_CPU_UNROLL
    for (int c = 0; c < NF; ++c) {
      const DIRAC_TMPL_REAL *e = L->e[i * NF + c];
      const DIRAC_V8_ ur = DIRAC_F_(dirac_v8_bcast2)(e), ui = DIRAC_F_(dirac_v8_bcast2)(e + 2);
      w = c == 0 ? ur * h[0] : DIRAC_V8_FMA_(ur, h[c], w);
      wi = c == 0 ? ui * hs[0] : DIRAC_V8_FMA_(ui, hs[c], wi);
    }
    w += wi;
    DIRAC_V8_ lw = (kr0 & 1) ? DIRAC_F_(dirac_v8_swap_parts)(w) : w;
    if (p0 == 1) lw = __builtin_shufflevector(lw, lw, 4, 5, 6, 7, 0, 1, 2, 3);
    DIRAC_ACC_DIR_(first, acc_up, acc_lo, i, w, sr, lw, DIRAC_V8_FMA_);
  }
}

/* The hopping sum of one site in pair form (dirac_v4_hop's result) from the direction-pair
 * form: L = the 4 link pairs of the site (dirac_cpu_pack_site). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v8_hop)(DIRAC_V4_ *acc_up, DIRAC_V4_ *acc_lo,
                                                const DIRAC_TMPL_SPINOR *const up[4],
                                                const DIRAC_TMPL_SPINOR *const dn[4],
                                                const DIRAC_F_(dirac_half_spinor) *const *hup,
                                                const DIRAC_F_(dirac_half_spinor) *const *hdn,
                                                const DIRAC_F_(dirac_link_pair) * L) {
  DIRAC_V8_ au[NF], al[NF];
  DIRAC_CPU_UNROLL
  for (int mu = 0; mu < 4; ++mu)
    DIRAC_F_(dirac_v8_hop_dir)(au, al, mu, mu == 0, up[mu], hup != NULL ? hup[mu] : NULL,
                               dn[mu], hdn != NULL ? hdn[mu] : NULL, L + mu);
  DIRAC_CPU_UNROLL
  for (int i = 0; i < NF; ++i) {
    acc_up[i] = DIRAC_F_(dirac_v8_fold)(au[i]);
    acc_lo[i] = DIRAC_F_(dirac_v8_fold)(al[i]);
  }
}
#undef DIRAC_V8_
#undef DIRAC_V8_FMA_
#endif /* DIRAC_TMPL_PAIRED */
#undef DIRAC_ACC_DIR_
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#else
/* out = the half spinor of (1 + s gamma_mu) psi: the halo the CPU loops send. */
HR_INLINE void DIRAC_F_(dirac_cpu_spin_project)(DIRAC_F_(dirac_half_spinor) * out, int mu, int s,
                                               const DIRAC_TMPL_SPINOR *psi) {
  DIRAC_F_(dirac_spin_project)(out, mu, s, psi);
}
/* out = sum_mu [(1 - gamma_mu) uup[mu] up[mu] + (1 + gamma_mu) udn[mu]^+ dn[mu]]: up[mu] =
 * psi(x+mu), dn[mu] = psi(x-mu), uup[mu] = U_mu(x), udn[mu] = U_mu(x-mu). `out` must not
 * alias an input. */
HR_INLINE void DIRAC_F_(dirac_site_hop)(DIRAC_TMPL_SPINOR *out,
                                        const DIRAC_TMPL_SPINOR *const up[4],
                                        const DIRAC_TMPL_SPINOR *const dn[4],
                                        const DIRAC_TMPL_MAT *const uup[4],
                                        const DIRAC_TMPL_MAT *const udn[4]) {
  DIRAC_F_(dirac_site_hop_generic)(out, up, dn, uup, udn);
}
#endif

/* ----------------------------------------------------------- diagonal part and epilogue
 * Shared by the CPU loops and the GPU kernels (LibHR/Dirac). */

/* A site's clover block (or its inverse) as strided units: unit k of the packed chirality
 * block ch (field_kinds.h) is base[(ch CLOVER_PACKED_UNITS + k) stride]. A host element has
 * stride 1 (dirac_clover_host); element e of a device piece of len elements has base at unit
 * e of the piece and stride len (gpu.h layout), so a GPU thread reads the block an entry at a
 * time where it is used (the block does not fit in its registers). */
typedef struct {
  const DIRAC_TMPL_CPLX *base;
  size_t stride;
} DIRAC_F_(dirac_clover_ref);

/* The reference of a host clover element. */
DIRAC_ALWAYS_INLINE DIRAC_F_(dirac_clover_ref)
    DIRAC_F_(dirac_clover_host)(const DIRAC_TMPL_CLOVER *m) {
  const DIRAC_F_(dirac_clover_ref) c = {&m->c[0][0], 1};
  return c;
}

/* The reference of element e of a device piece of len clover elements that starts at piece
 * (gpu.h layout: unit k of element e at ((DIRAC_TMPL_CPLX *)piece)[k len + e]). */
DIRAC_ALWAYS_INLINE DIRAC_F_(dirac_clover_ref)
    DIRAC_F_(dirac_clover_device)(const DIRAC_TMPL_CLOVER *piece, int e, int len) {
  const DIRAC_F_(dirac_clover_ref) c = {(const DIRAC_TMPL_CPLX *)piece + e, (size_t)len};
  return c;
}

/* Entry (spin r, colour a; spin t, colour b) of the chirality block ch of c, i.e. (r NF + a,
 * t NF + b), from its packed unit. */
DIRAC_ALWAYS_INLINE DIRAC_TMPL_CPLX DIRAC_F_(dirac_clover_entry_sc)(
    const DIRAC_F_(dirac_clover_ref) * c, int ch, int r, int a, int t, int b) {
  int how;
  const int k = clover_packed_unit_sc(r, a, t, b, &how);
  DIRAC_TMPL_CPLX z; /* one access (HR_UNIT_LOAD: 128 bits in double on the device) */
  HR_UNIT_LOAD(&z, &c->base[(size_t)(ch * CLOVER_PACKED_UNITS + k) * c->stride]);
  /* selections rather than branches (how is a run-time value in some kernels) */
  const DIRAC_TMPL_REAL re = how == HR_CLOVER_IM ? hr_cimag(z) : hr_creal(z);
  const DIRAC_TMPL_REAL im = how >= HR_CLOVER_RE ? (DIRAC_TMPL_REAL)0
                             : (how == HR_CLOVER_CONJ ? -hr_cimag(z) : hr_cimag(z));
  return DIRAC_TMPL_MKCPLX(re, im);
}

/* Entry (i, j) of the chirality block ch of c (0 <= i, j < 2 NF). */
DIRAC_ALWAYS_INLINE DIRAC_TMPL_CPLX DIRAC_F_(dirac_clover_entry)(
    const DIRAC_F_(dirac_clover_ref) * c, int ch, int i, int j) {
  return DIRAC_F_(dirac_clover_entry_sc)(c, ch, i / NF, i % NF, j / NF, j % NF);
}

/* Component (spin 2 ch + s, colour a) of M x, M the clover block of c: row s NF + a of its
 * block ch times the spin components 2 ch, 2 ch + 1 of x. */
DIRAC_ALWAYS_INLINE DIRAC_TMPL_CPLX DIRAC_F_(dirac_clover_row_mul)(
    const DIRAC_F_(dirac_clover_ref) * c, int ch, int s, int a, const DIRAC_TMPL_SPINOR *x) {
  DIRAC_TMPL_CPLX acc =
      hr_cmul(DIRAC_F_(dirac_clover_entry_sc)(c, ch, s, a, 0, 0), x->c[2 * ch].c[0]);
  DIRAC_UNROLL
  for (int b = 1; b < NF; ++b)
    acc += hr_cmul(DIRAC_F_(dirac_clover_entry_sc)(c, ch, s, a, 0, b), x->c[2 * ch].c[b]);
  DIRAC_ROW_FENCE(); /* and half a row at a time */
  DIRAC_UNROLL
  for (int b = 0; b < NF; ++b)
    acc += hr_cmul(DIRAC_F_(dirac_clover_entry_sc)(c, ch, s, a, 1, b), x->c[2 * ch + 1].c[b]);
  return acc;
}

/* x = M x in place for the clover block of c, one chirality at a time (2 NF temporaries). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_clover_mul_inplace)(const DIRAC_F_(dirac_clover_ref) * c,
                                                            DIRAC_TMPL_SPINOR *x) {
  DIRAC_UNROLL
  for (int ch = 0; ch < 2; ++ch) {
    DIRAC_TMPL_CPLX t[2][NF];
    DIRAC_UNROLL
    for (int s = 0; s < 2; ++s) {
      DIRAC_UNROLL
      for (int a = 0; a < NF; ++a) t[s][a] = DIRAC_F_(dirac_clover_row_mul)(c, ch, s, a, x);
    }
    DIRAC_UNROLL
    for (int s = 0; s < 2; ++s) {
      DIRAC_UNROLL
      for (int a = 0; a < NF; ++a) x->c[2 * ch + s].c[a] = t[s][a];
    }
  }
}

/* out = M x for the two clover blocks M of one site (field_kinds.h: block c[ch] acts on spin
 * components 2 ch, 2 ch + 1); out must not be x. */
HR_INLINE void DIRAC_F_(dirac_site_clover_mul)(DIRAC_TMPL_SPINOR *out, const DIRAC_TMPL_CLOVER *m,
                                               const DIRAC_TMPL_SPINOR *x) {
  const DIRAC_F_(dirac_clover_ref) c = DIRAC_F_(dirac_clover_host)(m);
  for (int ch = 0; ch < 2; ++ch)
    for (int s = 0; s < 2; ++s)
      for (int a = 0; a < NF; ++a)
        out->c[2 * ch + s].c[a] = DIRAC_F_(dirac_clover_row_mul)(&c, ch, s, a, x);
}

/* out = gamma5 r if g5, else r. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_store)(DIRAC_TMPL_SPINOR *out, int g5,
                                                    const DIRAC_TMPL_SPINOR *r) {
  if (g5)
    DIRAC_SR_(_g5)(out, r);
  else
    *out = *r;
}

/* Diagonal part of one site in place: x = M x, with M the clover block (or its inverse) of
 * cl, or the number f when cl is NULL. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_diag_inplace)(DIRAC_TMPL_SPINOR *x, DIRAC_TMPL_REAL f,
                                                           const DIRAC_F_(dirac_clover_ref) * cl) {
  if (cl != NULL)
    DIRAC_F_(dirac_clover_mul_inplace)(cl, x);
  else
    DIRAC_SR_(_scale)(x, f, x);
}

/* Diagonal part of one site: out = M in, times gamma5 if g5, with M the clover block (or its
 * inverse) `cl`, or the number f when cl is NULL. out must not be in. */
HR_INLINE void DIRAC_F_(dirac_site_diag)(DIRAC_TMPL_SPINOR *out, int g5, DIRAC_TMPL_REAL f,
                                         const DIRAC_TMPL_CLOVER *cl, const DIRAC_TMPL_SPINOR *in) {
  if (cl != NULL)
    DIRAC_F_(dirac_site_clover_mul)(out, cl, in);
  else
    DIRAC_SR_(_scale)(out, f, in);
  if (g5) DIRAC_SR_(_g5)(out, out);
}

/* r = M x + s r on the spin components 2 ch, 2 ch + 1 (chirality ch), which read only those
 * components of x (M = clover block of cl, or the number diag when cl is NULL). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_plus_diag)(DIRAC_TMPL_SPINOR *r, int ch,
                                                        DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
                                                        const DIRAC_TMPL_SPINOR *x,
                                                        const DIRAC_F_(dirac_clover_ref) * cl) {
  DIRAC_UNROLL
  for (int sp = 0; sp < 2; ++sp) {
    DIRAC_UNROLL
    for (int a = 0; a < NF; ++a) {
      DIRAC_ROW_FENCE(); /* one row's block entries live at a time (dirac_site.h) */
      const DIRAC_TMPL_CPLX m = cl != NULL ? DIRAC_F_(dirac_clover_row_mul)(cl, ch, sp, a, x)
                                           : diag * x->c[2 * ch + sp].c[a];
      r->c[2 * ch + sp].c[a] = m + s * r->c[2 * ch + sp].c[a];
    }
  }
}

/* The end of a hopping application at one site, given the hopping sum r (dirac_site_hop):
 *   DIRAC_HOP_PLAIN:     t = s r
 *   DIRAC_HOP_PLUS_DIAG: t = M x + s r      (M = clover block of cl, or the number diag)
 *   DIRAC_HOP_THEN_INV:  t = M^-1 (s r)     (cl = inverse block, or M^-1 = 1 / diag)
 * and out = gamma5 t if g5, else t, with t formed in r (no second spinor: GPU registers).
 * x and cl may be NULL where the mode does not use them. The GPU kernels call it with the
 * device reference of the block; the CPU loops call dirac_site_finish. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_site_finish_ref)(DIRAC_TMPL_SPINOR *out, int mode, int g5,
                                                         DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
                                                         const DIRAC_TMPL_SPINOR *x,
                                                         const DIRAC_F_(dirac_clover_ref) * cl,
                                                         DIRAC_TMPL_SPINOR *r) {
  if (mode == DIRAC_HOP_PLUS_DIAG) {
    DIRAC_UNROLL
    for (int ch = 0; ch < 2; ++ch) DIRAC_F_(dirac_site_plus_diag)(r, ch, s, diag, x, cl);
  } else {
    DIRAC_SR_(_scale)(r, s, r);
    if (mode == DIRAC_HOP_THEN_INV)
      DIRAC_F_(dirac_site_diag_inplace)(r, (DIRAC_TMPL_REAL)1 / diag, cl);
  }
  DIRAC_F_(dirac_site_store)(out, g5, r);
}

/* The end of a hopping application on the CPU: the operations of dirac_site_finish_ref, staged
 * through a second spinor t (whole-spinor loops, which the CPU vectorises better; the GPU
 * kernels form t in r to save registers), with the host clover element cl (NULL: the number
 * diag). r is overwritten. */
HR_INLINE void DIRAC_F_(dirac_site_finish)(DIRAC_TMPL_SPINOR *out, int mode, int g5,
                                           DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
                                           const DIRAC_TMPL_SPINOR *x, const DIRAC_TMPL_CLOVER *cl,
                                           DIRAC_TMPL_SPINOR *r) {
  DIRAC_TMPL_SPINOR t;
  if (mode == DIRAC_HOP_PLUS_DIAG) {
    DIRAC_F_(dirac_site_diag)(&t, 0, diag, cl, x);
    DIRAC_SR_(_mul_add)(&t, &t, s, r);
  } else if (mode == DIRAC_HOP_THEN_INV) {
    DIRAC_SR_(_scale)(r, s, r);
    DIRAC_F_(dirac_site_diag)(&t, 0, (DIRAC_TMPL_REAL)1 / diag, cl, r);
  } else {
    DIRAC_SR_(_scale)(&t, s, r);
  }
  DIRAC_F_(dirac_site_store)(out, g5, &t);
}

/* ----------------------------------------------------------- the CPU site kernel
 * One output site of a CPU hopping application: the hopping sum of dirac_site_hop and the
 * epilogue of dirac_site_finish (mode, g5, s, diag, x, host clover element cl or NULL), stored
 * to out. The CPU loops of LibHR/Dirac use it (compiled there with the SIMD flags of
 * configure); test_gamma compares it with the generic form. */
#if DIRAC_SIMD
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
/* Column col of the rows a and NF + a of the packed block ch of the host clover element cl
 * as a pair, (m0, m1) = entries (a, col) and (NF + a, col) of dirac_clover_entry: read as
 * whole vectors, conjugates and real diagonal entries by exact shuffles and sign changes. */
DIRAC_ALWAYS_INLINE DIRAC_V4_ DIRAC_F_(dirac_v4_clover_pair)(const DIRAC_TMPL_CLOVER *cl, int ch,
                                                            int a, int col) {
  const DIRAC_TMPL_CPLX *blk = cl->c[ch];
  const int b = col % NF, c = col / NF;
  const DIRAC_V4_ conj_hi = {0., 0., 0., -0.}, conj_both = {0., -0., 0., -0.};
  typedef DIRAC_TMPL_UINT uv4 __attribute__((vector_size(sizeof(DIRAC_V4_))));
  DIRAC_V4_ m;
  if (a == b) { /* (d0, d1, re z, im z): column 0 is (d0, conj z), column 1 (z, d1) */
    __builtin_memcpy(&m, blk + 2 * NF * (NF - 1) + 2 * a, sizeof m);
    const DIRAC_V4_ zero = DIRAC_F_(dirac_v4_splat)(0);
    if (c == 0)
      return (DIRAC_V4_)((uv4)__builtin_shufflevector(m, zero, 0, 4, 2, 3) ^ (uv4)conj_hi);
    return __builtin_shufflevector(m, zero, 2, 3, 1, 4);
  }
  int how;
  const int k = clover_packed_unit_sc(0, a, c, b, &how);
  if (a < b) { /* units k, k + 1: one column of a stored sub-block */
    __builtin_memcpy(&m, blk + k, sizeof m);
    return m;
  }
  /* the conjugates of the units k and k + 2 (a row of the sub-block b, a) */
  m = DIRAC_F_(dirac_v4_pair)(blk[k], blk[k + 2]);
  return (DIRAC_V4_)((uv4)m ^ (uv4)conj_both);
}

/* out[a] = M x in pair form for the packed clover block ch of the host element cl
 * (field_kinds.h): x0[b], x1[b] are the spin components 0 and 1 of the chirality at colour
 * b, out[a] holds the two rows (spin 0 and 1 of the block, colour a).
 * With FMA: M x = sum_col m_col re(x_col) + i sum_col m_col im(x_col), m_col the column pairs
 * of dirac_v4_clover_pair times real numbers broadcast from memory (two multiply-adds per
 * column pair and no splitting of the block into real and imaginary parts).
 * Without: the columns summed with the operations of dirac_clover_row_mul (the generic bits). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v4_clover_mul)(DIRAC_V4_ *out,
                                                       const DIRAC_TMPL_CLOVER *cl, int ch,
                                                       const DIRAC_TMPL_CPLX *x0,
                                                       const DIRAC_TMPL_CPLX *x1) {
#if DIRAC_TMPL_HAS_FMA
  DIRAC_CPU_UNROLL
  for (int a = 0; a < NF; ++a) {
    DIRAC_V4_ acc_re = DIRAC_F_(dirac_v4_splat)(0), acc_im = acc_re;
    DIRAC_CPU_UNROLL
    for (int col = 0; col < 2 * NF; ++col) {
      const DIRAC_TMPL_REAL *xs = (const DIRAC_TMPL_REAL *)(col < NF ? x0 + col : x1 + col - NF);
      const DIRAC_V4_ m = DIRAC_F_(dirac_v4_clover_pair)(cl, ch, a, col);
      acc_re = DIRAC_V4_FMA_(m, DIRAC_F_(dirac_v4_splat)(xs[0]), acc_re);
      acc_im = DIRAC_V4_FMA_(m, DIRAC_F_(dirac_v4_splat)(xs[1]), acc_im);
    }
    out[a] = acc_re + DIRAC_F_(dirac_v4_times_i)(acc_im);
  }
#else
  DIRAC_V4_ xb[2][NF], xi[2][NF]; /* each column's x broadcast to both halves, and i x */
  DIRAC_CPU_UNROLL
  for (int b = 0; b < NF; ++b) {
    xb[0][b] = DIRAC_F_(dirac_v4_pair)(x0[b], x0[b]);
    xb[1][b] = DIRAC_F_(dirac_v4_pair)(x1[b], x1[b]);
    xi[0][b] = DIRAC_F_(dirac_v4_times_i)(xb[0][b]);
    xi[1][b] = DIRAC_F_(dirac_v4_times_i)(xb[1][b]);
  }
  DIRAC_CPU_UNROLL
  for (int a = 0; a < NF; ++a) {
    DIRAC_V4_ acc = DIRAC_F_(dirac_v4_splat)(0);
    DIRAC_CPU_UNROLL
    for (int col = 0; col < 2 * NF; ++col) {
      const int t = col / NF, b = col % NF;
      const DIRAC_V4_ m = DIRAC_F_(dirac_v4_clover_pair)(cl, ch, a, col);
      const DIRAC_V4_ mr = __builtin_shufflevector(m, m, 0, 0, 2, 2);
      const DIRAC_V4_ mi = __builtin_shufflevector(m, m, 1, 1, 3, 3);
      /* the operations of hr_cmul */
      const DIRAC_V4_ p = mr * xb[t][b] + mi * xi[t][b];
      acc = col == 0 ? p : acc + p;
    }
    out[a] = acc;
  }
#endif
}

/* out = the epilogue of dirac_site_finish in pair form from the hopping sum acc of a site
 * (acc[0]: spin components (0, 1) of each colour, acc[1]: (2, 3)), no spinor in memory
 * between them. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_v4_site_end)(DIRAC_TMPL_SPINOR *out, int mode, int g5,
                                                     DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
                                                     const DIRAC_TMPL_SPINOR *x,
                                                     const DIRAC_TMPL_CLOVER *cl,
                                                     DIRAC_V4_ acc[2][NF]) {
  const DIRAC_V4_ sv = DIRAC_F_(dirac_v4_splat)(s);
  DIRAC_CPU_UNROLL
  for (int ch = 0; ch < 2; ++ch) {
    DIRAC_V4_ t[NF];
    if (mode == DIRAC_HOP_PLUS_DIAG) { /* t = M x + s r */
      if (cl != NULL) {
        DIRAC_F_(dirac_v4_clover_mul)(t, cl, ch, x->c[2 * ch].c, x->c[2 * ch + 1].c);
      } else {
        DIRAC_CPU_UNROLL
        for (int a = 0; a < NF; ++a)
          t[a] = DIRAC_F_(dirac_v4_splat)(diag) *
                 DIRAC_F_(dirac_v4_pair)(x->c[2 * ch].c[a], x->c[2 * ch + 1].c[a]);
      }
      DIRAC_CPU_UNROLL
      for (int a = 0; a < NF; ++a) t[a] = DIRAC_V4_FMA_(sv, acc[ch][a], t[a]);
    } else { /* t = s r, then M^-1 t */
      DIRAC_CPU_UNROLL
      for (int a = 0; a < NF; ++a) t[a] = sv * acc[ch][a];
      if (mode == DIRAC_HOP_THEN_INV) {
        if (cl != NULL) { /* t through memory: the block product reads its numbers */
          DIRAC_TMPL_SPINOR r;
          DIRAC_CPU_UNROLL
          for (int a = 0; a < NF; ++a) DIRAC_F_(dirac_v4_store)(&r, 0, 1, a, t[a]);
          DIRAC_F_(dirac_v4_clover_mul)(t, cl, ch, r.c[0].c, r.c[1].c);
        } else {
          const DIRAC_V4_ f = DIRAC_F_(dirac_v4_splat)((DIRAC_TMPL_REAL)1 / diag);
          DIRAC_CPU_UNROLL
          for (int a = 0; a < NF; ++a) t[a] = f * t[a];
        }
      }
    }
    DIRAC_CPU_UNROLL
    for (int a = 0; a < NF; ++a)
      DIRAC_F_(dirac_v4_store)(out, 2 * ch, 2 * ch + 1, a, (g5 && ch == 1) ? -t[a] : t[a]);
  }
}

#if DIRAC_TMPL_PAIRED
/* out = the CPU kernel of one site (see the section head) with the 4 link pairs of the site
 * (dirac_cpu_pack_site) at pk: the hopping sum in direction-pair form, then the epilogue.
 * hup / hdn: NULL, or the received half spinors of neighbours in the halo. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_cpu_site_pk)(
    DIRAC_TMPL_SPINOR *out, int mode, int g5, DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
    const DIRAC_TMPL_SPINOR *x, const DIRAC_TMPL_CLOVER *cl, const DIRAC_TMPL_SPINOR *const up[4],
    const DIRAC_TMPL_SPINOR *const dn[4], const DIRAC_F_(dirac_half_spinor) *const *hup,
    const DIRAC_F_(dirac_half_spinor) *const *hdn, const void *pk) {
  DIRAC_V4_ acc[2][NF]; /* chirality 0: spin components (0, 1); 1: (2, 3) */
  DIRAC_F_(dirac_v8_hop)(acc[0], acc[1], up, dn, hup, hdn,
                         (const DIRAC_F_(dirac_link_pair) *)pk);
  DIRAC_F_(dirac_v4_site_end)(out, mode, g5, s, diag, x, cl, acc);
}
#endif
#undef DIRAC_V4_
#undef DIRAC_V4_FMA_
#undef DIRAC_V4_FNMA_
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#if !(DIRAC_SIMD && DIRAC_TMPL_PAIRED)
/* out = the CPU kernel of one site (see the section head): the hopping sum in pair form where
 * DIRAC_SIMD, else direction by direction in the plain form, then the epilogue. hup / hdn:
 * NULL, or the received half spinors of neighbours in the halo. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_cpu_site_halo)(
    DIRAC_TMPL_SPINOR *out, int mode, int g5, DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
    const DIRAC_TMPL_SPINOR *x, const DIRAC_TMPL_CLOVER *cl, const DIRAC_TMPL_SPINOR *const up[4],
    const DIRAC_TMPL_SPINOR *const dn[4], const DIRAC_F_(dirac_half_spinor) *const *hup,
    const DIRAC_F_(dirac_half_spinor) *const *hdn, const DIRAC_TMPL_MAT *const uup[4],
    const DIRAC_TMPL_MAT *const udn[4]) {
#if DIRAC_SIMD
  DIRAC_F_(dirac_v4) acc[2][NF]; /* chirality 0: spin components (0, 1); 1: (2, 3) */
  DIRAC_F_(dirac_v4_hop)(acc[0], acc[1], up, dn, hup, hdn, uup, udn);
  DIRAC_F_(dirac_v4_site_end)(out, mode, g5, s, diag, x, cl, acc);
#else
  DIRAC_TMPL_SPINOR r;
  for (int mu = 0; mu < 4; mu++)
    for (int b = 0; b < 2; b++) { /* forward, then backward: dirac_site_hop_generic's order */
      const DIRAC_F_(dirac_half_spinor) *hp = b == 0 ? (hup != NULL ? hup[mu] : NULL)
                                                    : (hdn != NULL ? hdn[mu] : NULL);
      const int sg = b == 0 ? -1 : +1, first = mu == 0 && b == 0;
      const DIRAC_TMPL_MAT *U = b == 0 ? uup[mu] : udn[mu];
      if (hp != NULL)
        DIRAC_F_(dirac_site_hop_dir_half)(&r, mu, sg, first, hp, U);
      else
        DIRAC_F_(dirac_site_hop_dir)(&r, mu, sg, first, b == 0 ? up[mu] : dn[mu], U);
    }
  DIRAC_F_(dirac_site_finish)(out, mode, g5, s, diag, x, cl, &r);
#endif
}
#endif

/* pk = the 8 links of a site in the layout of the CPU kernel dirac_cpu_site_pk, from
 * uup[mu] = U_mu(x) and udn[mu] = U_mu(x - mu): where DIRAC_TMPL_PAIRED, the 4 link pairs of
 * dirac_link_pair, else the 8 links in that order. pk holds the size of 8 links. */
HR_INLINE void DIRAC_F_(dirac_cpu_pack_site)(void *pk, const DIRAC_TMPL_MAT *const uup[4],
                                             const DIRAC_TMPL_MAT *const udn[4]) {
#if DIRAC_SIMD && DIRAC_TMPL_PAIRED
  DIRAC_F_(dirac_link_pair) *L = (DIRAC_F_(dirac_link_pair) *)pk;
  for (int mu = 0; mu < 4; mu++)
    for (int i = 0; i < NF; i++)
      for (int c = 0; c < NF; c++) {
        const DIRAC_TMPL_CPLX a = uup[mu]->c[i * NF + c], b = udn[mu]->c[c * NF + i];
        DIRAC_TMPL_REAL *e = L[mu].e[i * NF + c];
        e[0] = hr_creal(a);
        e[1] = hr_creal(b);
        e[2] = hr_cimag(a);
        e[3] = -hr_cimag(b); /* B = U_mu(x - mu)^+ */
      }
#else
  DIRAC_TMPL_MAT *u = (DIRAC_TMPL_MAT *)pk;
  for (int mu = 0; mu < 4; mu++) {
    u[mu] = *uup[mu];
    u[4 + mu] = *udn[mu];
  }
#endif
}

#if DIRAC_SIMD && DIRAC_TMPL_PAIRED
/* out = the CPU kernel of one site (see the section head) with the links uup[mu] = U_mu(x),
 * udn[mu] = U_mu(x - mu): dirac_cpu_site_pk on the links packed by dirac_cpu_pack_site. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_cpu_site_halo)(
    DIRAC_TMPL_SPINOR *out, int mode, int g5, DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
    const DIRAC_TMPL_SPINOR *x, const DIRAC_TMPL_CLOVER *cl, const DIRAC_TMPL_SPINOR *const up[4],
    const DIRAC_TMPL_SPINOR *const dn[4], const DIRAC_F_(dirac_half_spinor) *const *hup,
    const DIRAC_F_(dirac_half_spinor) *const *hdn, const DIRAC_TMPL_MAT *const uup[4],
    const DIRAC_TMPL_MAT *const udn[4]) {
  union { /* storage for either layout */
    DIRAC_TMPL_MAT u[8];
    DIRAC_F_(dirac_link_pair) p[4];
  } pk;
  DIRAC_F_(dirac_cpu_pack_site)(&pk, uup, udn);
  DIRAC_F_(dirac_cpu_site_pk)(out, mode, g5, s, diag, x, cl, up, dn, hup, hdn, &pk);
}
#else
/* out = the CPU kernel of one site with the 8 links of the site packed by dirac_cpu_pack_site
 * at pk (U_mu(x), then U_mu(x - mu)): dirac_cpu_site_halo. */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_cpu_site_pk)(
    DIRAC_TMPL_SPINOR *out, int mode, int g5, DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
    const DIRAC_TMPL_SPINOR *x, const DIRAC_TMPL_CLOVER *cl, const DIRAC_TMPL_SPINOR *const up[4],
    const DIRAC_TMPL_SPINOR *const dn[4], const DIRAC_F_(dirac_half_spinor) *const *hup,
    const DIRAC_F_(dirac_half_spinor) *const *hdn, const void *pk) {
  const DIRAC_TMPL_MAT *u = (const DIRAC_TMPL_MAT *)pk;
  const DIRAC_TMPL_MAT *const uup[4] = {u, u + 1, u + 2, u + 3};
  const DIRAC_TMPL_MAT *const udn[4] = {u + 4, u + 5, u + 6, u + 7};
  DIRAC_F_(dirac_cpu_site_halo)(out, mode, g5, s, diag, x, cl, up, dn, hup, hdn, uup, udn);
}
#endif

/* The CPU kernel of one site with every neighbour read from up / dn (dirac_cpu_site_halo). */
DIRAC_ALWAYS_INLINE void DIRAC_F_(dirac_cpu_site)(
    DIRAC_TMPL_SPINOR *out, int mode, int g5, DIRAC_TMPL_REAL s, DIRAC_TMPL_REAL diag,
    const DIRAC_TMPL_SPINOR *x, const DIRAC_TMPL_CLOVER *cl, const DIRAC_TMPL_SPINOR *const up[4],
    const DIRAC_TMPL_SPINOR *const dn[4], const DIRAC_TMPL_MAT *const uup[4],
    const DIRAC_TMPL_MAT *const udn[4]) {
  DIRAC_F_(dirac_cpu_site_halo)(out, mode, g5, s, diag, x, cl, up, dn, NULL, NULL, uup, udn);
}

#undef DIRAC_F_
#undef DIRAC_SR_
#undef DIRAC_TMPL_SFX
#undef DIRAC_TMPL_SPINOR
#undef DIRAC_TMPL_VEC
#undef DIRAC_TMPL_MAT
#undef DIRAC_TMPL_CPLX
#undef DIRAC_TMPL_REAL
#undef DIRAC_TMPL_MKCPLX
#undef DIRAC_TMPL_CLOVER
#undef DIRAC_TMPL_UINT
#undef DIRAC_TMPL_HAS_FMA
#undef DIRAC_TMPL_V4_FMA
#undef DIRAC_TMPL_V4_FNMA
#undef DIRAC_TMPL_PAIRED
#undef DIRAC_TMPL_V8_FMA
#undef DIRAC_TMPL_V8_BCAST2
