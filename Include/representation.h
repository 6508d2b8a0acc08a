/* representation.h -- the fermion representations of SU(n): fundamental, adjoint, two-index
 * symmetric (2s) and two-index antisymmetric (2as). The map U -> U^R, the generators T^a_R and
 * the constants d_R, T_R, C_2(R), with n and the representation as run-time arguments, plus
 * shortcuts for the representation of the compiled theory (suNg_to_suNf, ...).
 * All per-link functions are HR_INLINE and allocate nothing (caller-provided storage).
 *
 * Matrices are row-major arrays of hr_complex (d x d, d = repr_dim). Generators T^a of the
 * fundamental and their order: suN_generic.h.
 *
 *   repr   d_R          T_R        C_2(R)             U^R
 *   fund   n            1/2        (n^2-1)/(2n)       U
 *   adj    n^2-1        n          n                  R_ab = 2 Re tr(T^a U T^b U^+)  (real)
 *   2s     n(n+1)/2     (n+2)/2    (n-1)(n+2)/n       U (x) U on symmetric tensors
 *   2as    n(n-1)/2     (n-2)/2    (n+1)(n-2)/n       U (x) U on antisymmetric tensors
 * with tr(T^a_R T^b_R) = T_R delta^{ab} and sum_a T^a_R T^a_R = C_2(R) 1.
 *
 * Generators: T^a_R is the derivative of the map, U^R(exp(i eps T^a)) = 1 + i eps T^a_R + ...
 *   fund: T^a;  adj: (T^a_adj)_bc = -i f^{abc};  2s/2as: T^a (x) 1 + 1 (x) T^a on the tensors.
 *
 * Two-index bases (e_i the unit vectors of C^n, i counted from 0):
 *   2s : e_(ij) = (e_i (x) e_j + e_j (x) e_i)/sqrt(2) for i < j,  e_(ii) = e_i (x) e_i
 *   2as: e_[ij] = (e_i (x) e_j - e_j (x) e_i)/sqrt(2) for i < j
 * ordered by j, then i ("nested": the tensors of SU(n-1) come first):
 *   2s : (0,0) (0,1) (1,1) (0,2) (1,2) (2,2) ...   index of (i,j) = j(j+1)/2 + i
 *   2as: [0,1] [0,2] [1,2] [0,3] ...               index of [i,j] = j(j-1)/2 + i
 * so that U^R_{(ij),(kl)} = c_ij c_kl (U_ik U_jl + s U_il U_jk), s = +1 (2s) or -1 (2as),
 * c_ij = 1/sqrt(2) if i = j, else 1. U^R is unitary for unitary U, det U^2s = (det U)^(n+1),
 * det U^2as = (det U)^(n-1), det U^adj = 1.
 * Implemented in: LibHR/Algebra/representation.c. */
#ifndef REPRESENTATION_H
#define REPRESENTATION_H

#include "hr_build_config.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "suN_generic.h"
#include "suN_types.h"

/* The four representations. */
typedef enum { HR_FUND = 0, HR_ADJ = 1, HR_2S = 2, HR_2AS = 3 } hr_repr;
#define HR_NUM_REPRS 4

/* The representation of the compiled theory. */
#if defined(HR_REPR_FUND)
#define HR_BUILD_REPR HR_FUND
#elif defined(HR_REPR_ADJ)
#define HR_BUILD_REPR HR_ADJ
#elif defined(HR_REPR_2S)
#define HR_BUILD_REPR HR_2S
#elif defined(HR_REPR_2AS)
#define HR_BUILD_REPR HR_2AS
#else
#error "hr_build_config.h defines none of HR_REPR_FUND, HR_REPR_ADJ, HR_REPR_2S, HR_REPR_2AS"
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* Short name: "fund", "adj", "2s", "2as". */
const char *repr_name(hr_repr r);
/* Long name, e.g. "two-index symmetric". */
const char *repr_long_name(hr_repr r);
/* The representation called `name` (short name as above). Returns 0, or -1 if unknown. */
int repr_from_name(hr_repr *r, const char *name);
#ifdef __cplusplus
}
#endif

/* Dimension d_R of representation r of SU(n). */
HR_INLINE int repr_dim(hr_repr r, int n) {
  switch (r) {
  case HR_FUND: return n;
  case HR_ADJ: return n * n - 1;
  case HR_2S: return n * (n + 1) / 2;
  case HR_2AS: return n * (n - 1) / 2;
  }
  return 0;
}
/* Dynkin index T_R: tr(T^a_R T^b_R) = T_R delta^{ab}. */
HR_INLINE double repr_index(hr_repr r, int n) {
  switch (r) {
  case HR_FUND: return 0.5;
  case HR_ADJ: return n;
  case HR_2S: return 0.5 * (n + 2);
  case HR_2AS: return 0.5 * (n - 2);
  }
  return 0.0;
}
/* Quadratic Casimir C_2(R): sum_a T^a_R T^a_R = C_2(R) 1. */
HR_INLINE double repr_casimir(hr_repr r, int n) {
  switch (r) {
  case HR_FUND: return (n * n - 1.0) / (2.0 * n);
  case HR_ADJ: return n;
  case HR_2S: return (n - 1.0) * (n + 2.0) / n;
  case HR_2AS: return (n + 1.0) * (n - 2.0) / n;
  }
  return 0.0;
}
/* 1 when the matrices U^R are real (adjoint), else 0. */
HR_INLINE int repr_is_real(hr_repr r) { return r == HR_ADJ; }

/* Index of the two-index basis tensor (i, j), i <= j (2s) or i < j (2as). */
HR_INLINE int repr_pair_index(hr_repr r, int i, int j) {
  return r == HR_2S ? j * (j + 1) / 2 + i : j * (j - 1) / 2 + i;
}
/* The pair (i, j) of two-index basis tensor number idx (inverse of repr_pair_index). */
HR_INLINE void repr_pair(int *i, int *j, hr_repr r, int idx) {
  int jj = (r == HR_2S) ? 0 : 1;
  while (repr_pair_index(r, 0, jj + 1) <= idx)
    ++jj;
  *j = jj;
  *i = idx - repr_pair_index(r, 0, jj);
}

/* --------------------------------------------------------------------------- internals */

/* Component (p, q) of W = U T^b U^+ for the fundamental generator b = (kind, j, k). */
HR_INLINE hr_complex repr_adj_conjugated_generator_(int n, const hr_complex *U, int kind, int j,
                                                    int k, int p, int q) {
  if (kind == SUN_GEN_DIAG) {
    hr_complex s = hr_cmplx(0.0, 0.0);
    for (int m = 0; m <= k; ++m)
      s += suN_diag_generator_entry(k, m) * hr_cmul_conj(U[p * n + m], U[q * n + m]);
    return s;
  }
  /* P = u_j u_k^+ (u_m = column m): W_sym = (P + P^+)/2, W_antisym = i (P^+ - P)/2 */
  hr_complex P_pq = hr_cmul_conj(U[p * n + j], U[q * n + k]);
  hr_complex Pdag_pq = hr_cmul_conj(U[p * n + k], U[q * n + j]);
  if (kind == SUN_GEN_SYM)
    return 0.5 * (P_pq + Pdag_pq);
  return 0.5 * hr_ctimes_i(Pdag_pq - P_pq);
}

/* R_ab = 2 Re tr(T^a U T^b U^+): for each b, W = U T^b U^+ is Hermitian and R_ab = 2 Re
 * tr(T^a W) = 2 Re W_jk (a = S_jk), -2 Im W_jk (a = A_jk), 2 c_l Re(sum_{m<l} W_mm - l W_ll). */
HR_INLINE void repr_map_adj_(hr_complex *R, int n, const hr_complex *U) {
  const int d = n * n - 1;
  double wdiag[HR_SUN_NMAX];
  for (int b = 0; b < d; ++b) {
    int kind, j, k;
    suN_generator_info(&kind, &j, &k, b);
    for (int q = 1; q < n; ++q) {
      for (int p = 0; p < q; ++p) {
        hr_complex w = repr_adj_conjugated_generator_(n, U, kind, j, k, p, q);
        int a = suN_generator_sym_index(p, q);
        R[a * d + b] = hr_cmplx(2.0 * hr_creal(w), 0.0);
        R[(a + 1) * d + b] = hr_cmplx(-2.0 * hr_cimag(w), 0.0);
      }
    }
    for (int m = 0; m < n; ++m)
      wdiag[m] = hr_creal(repr_adj_conjugated_generator_(n, U, kind, j, k, m, m));
    double partial = wdiag[0]; /* sum_{m<l} W_mm */
    for (int l = 1; l < n; ++l) {
      double c = 2.0 / sqrt(2.0 * l * (l + 1));
      R[suN_generator_diag_index(l) * d + b] = hr_cmplx(c * (partial - l * wdiag[l]), 0.0);
      partial += wdiag[l];
    }
  }
}

/* U^R for 2s (sign = +1) and 2as (sign = -1). */
HR_INLINE void repr_map_two_index_(hr_complex *R, hr_repr r, int n, const hr_complex *U) {
  const int d = repr_dim(r, n);
  const double sign = (r == HR_2S) ? 1.0 : -1.0;
  const int off = (r == HR_2S) ? 0 : 1; /* j starts at i + off */
  const double isq2 = 0.70710678118654752440;
  int row = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i + off <= j; ++i, ++row) {
      int col = 0;
      for (int l = 0; l < n; ++l)
        for (int k = 0; k + off <= l; ++k, ++col) {
          hr_complex v =
              hr_cmul(U[i * n + k], U[j * n + l]) + sign * hr_cmul(U[i * n + l], U[j * n + k]);
          double c = (i == j ? isq2 : 1.0) * (k == l ? isq2 : 1.0);
          R[row * d + col] = c * v;
        }
    }
}

/* ----------------------------------------------------------------------- public, generic */

/* R = U^R (d_R x d_R) for an n x n matrix U (unitary for the stated properties). */
HR_INLINE void repr_map(hr_complex *R, hr_repr r, int n, const hr_complex *U) {
  switch (r) {
  case HR_FUND: cmat_copy(R, n, U); break;
  case HR_ADJ:
    SUN_CHECK_DIM_(n);
    repr_map_adj_(R, n, U);
    break;
  case HR_2S:
  case HR_2AS: repr_map_two_index_(R, r, n, U); break;
  }
}

/* T = T^a_R (d_R x d_R), the generator a of representation r. */
HR_INLINE void repr_generator(hr_complex *T, hr_repr r, int n, int a) {
  SUN_CHECK_DIM_(n);
  hr_complex Ta[HR_SUN_NMAX * HR_SUN_NMAX];
  suN_generator(Ta, n, a);
  const int d = repr_dim(r, n);
  if (r == HR_FUND) {
    cmat_copy(T, n, Ta);
  } else if (r == HR_ADJ) {
    /* column c: the components of [T^a, T^c] = sum_b (T^a_adj)_bc T^b, via 2 tr(T^b .) */
    hr_complex Tc[HR_SUN_NMAX * HR_SUN_NMAX], C1[HR_SUN_NMAX * HR_SUN_NMAX];
    hr_complex C2[HR_SUN_NMAX * HR_SUN_NMAX], t[HR_SUN_NMAX * HR_SUN_NMAX];
    for (int c = 0; c < d; ++c) {
      suN_generator(Tc, n, c);
      cmat_mul(C1, n, Ta, Tc);
      cmat_mul(C2, n, Tc, Ta);
      for (int i = 0; i < n * n; ++i)
        C1[i] -= C2[i];
      suN_generator_traces(t, n, C1);
      for (int b = 0; b < d; ++b)
        T[b * d + c] = 2.0 * t[b];
    }
  } else {
    /* (T_R)_{(ij),(kl)} = c_ij c_kl (T_ik d_jl + d_ik T_jl + s (T_il d_jk + d_il T_jk)) */
    const double sign = (r == HR_2S) ? 1.0 : -1.0;
    const int off = (r == HR_2S) ? 0 : 1;
    const double isq2 = 0.70710678118654752440;
    int row = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i + off <= j; ++i, ++row) {
        int col = 0;
        for (int l = 0; l < n; ++l)
          for (int k = 0; k + off <= l; ++k, ++col) {
            hr_complex v = hr_cmplx(0.0, 0.0);
            if (j == l)
              v += Ta[i * n + k];
            if (i == k)
              v += Ta[j * n + l];
            if (j == k)
              v += sign * Ta[i * n + l];
            if (i == l)
              v += sign * Ta[j * n + k];
            double cf = (i == j ? isq2 : 1.0) * (k == l ? isq2 : 1.0);
            T[row * d + col] = cf * v;
          }
      }
  }
}

/* t_a = tr(T^a_R W) for all generators a = 0 .. n^2-2 and any d_R x d_R matrix W (the
 * projection used by forces: with W = U^R M, d/deps tr((exp(i eps T^a) U)^R M) at eps = 0 is
 * i t_a).
 * Computed without the generators: tr(T^a_R W) = tr(T^a w) with an n x n matrix w. */
HR_INLINE void repr_generator_traces(hr_complex *t, hr_repr r, int n, const hr_complex *W) {
  SUN_CHECK_DIM_(n);
  const int d = repr_dim(r, n);
  hr_complex w[HR_SUN_NMAX * HR_SUN_NMAX];
  if (r == HR_FUND) {
    suN_generator_traces(t, n, W);
    return;
  }
  cmat_zero(w, n);
  if (r == HR_ADJ) {
    /* tr(T^a_adj W) = sum_bc 2 tr(T^b [T^a, T^c]) W_cb = tr(T^a w), w = 2 sum_c [T^c, Y_c],
     * Y_c = sum_b W_cb T^b */
    hr_complex Y[HR_SUN_NMAX * HR_SUN_NMAX], Tc[HR_SUN_NMAX * HR_SUN_NMAX];
    hr_complex C1[HR_SUN_NMAX * HR_SUN_NMAX], C2[HR_SUN_NMAX * HR_SUN_NMAX];
    for (int c = 0; c < d; ++c) {
      /* Y = sum_b W_cb T^b = -i (i sum_b W_cb T^b): build from real and imaginary parts */
      double vre[HR_SUN_NMAX * HR_SUN_NMAX], vim[HR_SUN_NMAX * HR_SUN_NMAX];
      for (int b = 0; b < d; ++b) {
        vre[b] = hr_creal(W[c * d + b]);
        vim[b] = hr_cimag(W[c * d + b]);
      }
      suN_algebra_to_matrix(C1, n, vre); /* i sum Re W_cb T^b */
      suN_algebra_to_matrix(C2, n, vim); /* i sum Im W_cb T^b */
      for (int i = 0; i < n * n; ++i)
        Y[i] = C2[i] - hr_ctimes_i(C1[i]);
      suN_generator(Tc, n, c);
      cmat_mul(C1, n, Tc, Y);
      cmat_mul(C2, n, Y, Tc);
      for (int i = 0; i < n * n; ++i)
        w[i] += 2.0 * (C1[i] - C2[i]);
    }
  } else {
    /* w = 2 w1, (w1)_rp = sum_q P_(rq),x W_xy conj(P_(pq),y), x = pair(r,q), y = pair(p,q),
     * P_(uv),x = c (2s: 1/sqrt2 off the diagonal, 1 on it; 2as: +-1/sqrt2, 0 on it) */
    const double isq2 = 0.70710678118654752440;
    for (int rr = 0; rr < n; ++rr)
      for (int p = 0; p < n; ++p) {
        hr_complex s = hr_cmplx(0.0, 0.0);
        for (int q = 0; q < n; ++q) {
          double f1, f2;
          int x, y;
          if (r == HR_2S) {
            f1 = (rr == q) ? 1.0 : isq2;
            f2 = (p == q) ? 1.0 : isq2;
            x = rr <= q ? repr_pair_index(r, rr, q) : repr_pair_index(r, q, rr);
            y = p <= q ? repr_pair_index(r, p, q) : repr_pair_index(r, q, p);
          } else {
            if (rr == q || p == q)
              continue;
            f1 = rr < q ? isq2 : -isq2;
            f2 = p < q ? isq2 : -isq2;
            x = rr < q ? repr_pair_index(r, rr, q) : repr_pair_index(r, q, rr);
            y = p < q ? repr_pair_index(r, p, q) : repr_pair_index(r, q, p);
          }
          s += (f1 * f2) * W[x * d + y];
        }
        w[rr * n + p] = 2.0 * s;
      }
  }
  suN_generator_traces(t, n, w);
}

/* ---------------------------------------------------------- the compiled representation */

/* R = U^R for the compiled theory (NG, representation of the build). */
HR_INLINE void suNg_to_suNf(suNf *R, const suNg *U) { repr_map(R->c, HR_BUILD_REPR, NG, U->c); }
/* T = T^a_R, generator a in the representation of the build. */
HR_INLINE void suNf_generator(suNf *T, int a) { repr_generator(T->c, HR_BUILD_REPR, NG, a); }
/* t_a = tr(T^a_R W) for a = 0 .. NG^2-2, in the representation of the build. */
HR_INLINE void suNf_generator_traces(hr_complex *t, const suNf *W) {
  repr_generator_traces(t, HR_BUILD_REPR, NG, W->c);
}

#endif
