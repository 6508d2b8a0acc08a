/* suN_generic.h -- SU(n) algebra with the dimension n as a run-time argument, in double
 * precision: matrices of any dimension (cmat_*), the generators of su(n) and the algebra
 * vector <-> matrix maps (suN_*), the exponential of an algebra element, reunitarisation.
 * The compiled theory calls the same functions with n = NG (suN.h); the tests call them with
 * n = 2, 3, 4 in any build. All functions are HR_INLINE (usable in CUDA device code) and
 * allocate nothing.
 *
 * Storage: an n x n matrix is an array of n*n hr_complex, row-major: A[i*n + j] = A_ij. The
 * suNg / suNf structs of suN_types.h have this layout (pass U->c).
 *
 * Generators (fundamental representation), tr(T^a T^b) = delta^{ab}/2, a = 0 .. n^2-2, in
 * "nested Gell-Mann" order: for k = 1 .. n-1, first for j = 0 .. k-1 the pair
 *     S_{jk} = (E_jk + E_kj)/2            (index k^2-1 + 2j)
 *     A_{jk} = (-i E_jk + i E_kj)/2       (index k^2-1 + 2j + 1)
 * then the diagonal
 *     D_k = diag(1, .., 1, -k, 0, .., 0) / sqrt(2k(k+1))   (k ones; index k^2-1 + 2k)
 * where E_jk is the matrix unit with 1 at row j, column k (rows/columns counted from 0).
 * For n = 2 this is sigma_{1,2,3}/2, for n = 3 the Gell-Mann matrices lambda_{1..8}/2 in their
 * usual order; the generators of SU(n-1) are the first (n-1)^2-1 of SU(n).
 *
 * Algebra vectors: n^2-1 real numbers v_a standing for the antihermitian traceless matrix
 *     X = i sum_a v_a T^a,        and back  v_a = 2 Im tr(T^a X).
 * exp of the algebra vector v is exp(X) = exp(i v_a T^a), an element of SU(n).
 * Implemented in: LibHR/Algebra (header only; LibHR/Algebra/representation.c). */
#ifndef SUN_GENERIC_H
#define SUN_GENERIC_H

#include "hr_build_config.h"
#include "hr_complex.h"
#include "hr_inline.h"
#ifndef __cplusplus
#include <math.h>
#else
#include <cmath>
#endif

/* Largest n accepted by the suN_* functions that need scratch space (they keep n x n
 * matrices on the stack): NG, and at least 4 so that every build can test n = 2, 3, 4. */
#ifndef HR_SUN_NMAX
#define HR_SUN_NMAX (NG > 4 ? NG : 4)
#endif

#ifdef __cplusplus
extern "C" {
#endif
/* Stop with an error saying that `func` got a dimension n outside 2 .. HR_SUN_NMAX (host). */
void suN_dimension_error(int n, const char *func) __attribute__((noreturn));
#ifdef __cplusplus
}
#endif

/* Check 2 <= n <= HR_SUN_NMAX in host code (stops with a message); nothing in device code. */
#ifdef __CUDA_ARCH__
#define SUN_CHECK_DIM_(n) ((void)0)
#else
#define SUN_CHECK_DIM_(n)                                                                          \
  do {                                                                                             \
    if ((n) < 2 || (n) > HR_SUN_NMAX)                                                              \
      suN_dimension_error((n), __func__);                                                          \
  } while (0)
#endif

/* ============================================================ matrices of any dimension d */
/* Unless stated, the output of a cmat_* function must not overlap its inputs. */

/* A = 0 (d x d). */
HR_INLINE void cmat_zero(hr_complex *A, int d) {
  for (int i = 0; i < d * d; ++i)
    A[i] = hr_cmplx(0.0, 0.0);
}
/* A = 1 (d x d). */
HR_INLINE void cmat_unit(hr_complex *A, int d) {
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      A[i * d + j] = hr_cmplx(i == j ? 1.0 : 0.0, 0.0);
}
/* out = A (may overlap exactly). */
HR_INLINE void cmat_copy(hr_complex *out, int d, const hr_complex *A) {
  for (int i = 0; i < d * d; ++i)
    out[i] = A[i];
}
/* out = A B. */
HR_INLINE void cmat_mul(hr_complex *out, int d, const hr_complex *A, const hr_complex *B) {
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      hr_complex s = hr_cmplx(0.0, 0.0);
      for (int k = 0; k < d; ++k)
        s += hr_cmul(A[i * d + k], B[k * d + j]);
      out[i * d + j] = s;
    }
}
/* out = A B^+. */
HR_INLINE void cmat_mul_dag(hr_complex *out, int d, const hr_complex *A, const hr_complex *B) {
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      hr_complex s = hr_cmplx(0.0, 0.0);
      for (int k = 0; k < d; ++k)
        s += hr_cmul_conj(A[i * d + k], B[j * d + k]);
      out[i * d + j] = s;
    }
}
/* out = A^+ B. */
HR_INLINE void cmat_dag_mul(hr_complex *out, int d, const hr_complex *A, const hr_complex *B) {
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      hr_complex s = hr_cmplx(0.0, 0.0);
      for (int k = 0; k < d; ++k)
        s += hr_conj_cmul(A[k * d + i], B[k * d + j]);
      out[i * d + j] = s;
    }
}
/* out = A^+. */
HR_INLINE void cmat_dagger(hr_complex *out, int d, const hr_complex *A) {
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      out[i * d + j] = hr_conj(A[j * d + i]);
}
/* tr A. */
HR_INLINE hr_complex cmat_trace(int d, const hr_complex *A) {
  hr_complex s = hr_cmplx(0.0, 0.0);
  for (int i = 0; i < d; ++i)
    s += A[i * d + i];
  return s;
}
/* sum_ij |A_ij|^2 (squared Frobenius norm). */
HR_INLINE double cmat_sqnorm(int d, const hr_complex *A) {
  double s = 0.0;
  for (int i = 0; i < d * d; ++i)
    s += hr_cabs2(A[i]);
  return s;
}
/* sum_ij |A_ij - B_ij|^2. */
HR_INLINE double cmat_sqdist(int d, const hr_complex *A, const hr_complex *B) {
  double s = 0.0;
  for (int i = 0; i < d * d; ++i)
    s += hr_cabs2(A[i] - B[i]);
  return s;
}
/* sum_ij |(A^+ A - 1)_ij|^2: zero exactly when A is unitary. */
HR_INLINE double cmat_unitarity_defect(int d, const hr_complex *A) {
  double s = 0.0;
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      hr_complex p = hr_cmplx(i == j ? -1.0 : 0.0, 0.0);
      for (int k = 0; k < d; ++k)
        p += hr_conj_cmul(A[k * d + i], A[k * d + j]);
      s += hr_cabs2(p);
    }
  return s;
}
/* det A by LU decomposition with partial pivoting; A is overwritten by the factors. */
HR_INLINE hr_complex cmat_det_inplace(int d, hr_complex *A) {
  hr_complex det = hr_cmplx(1.0, 0.0);
  for (int k = 0; k < d; ++k) {
    int p = k;
    double best = hr_cabs2(A[k * d + k]);
    for (int i = k + 1; i < d; ++i) {
      double v = hr_cabs2(A[i * d + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best == 0.0)
      return hr_cmplx(0.0, 0.0);
    /* rows k and p swapped by selections on every row i > k, not through the run-time index
     * p (which would put A in local memory in device code) */
    for (int i = k + 1; i < d; ++i) {
      const int swap = i == p;
      for (int j = 0; j < d; ++j) {
        const hr_complex ak = A[k * d + j], ai = A[i * d + j];
        A[k * d + j] = swap ? ai : ak;
        A[i * d + j] = swap ? ak : ai;
      }
    }
    if (p != k)
      det = -det;
    hr_complex piv = A[k * d + k];
    det = hr_cmul(det, piv);
    hr_complex inv = (1.0 / best) * hr_conj(piv);
    for (int i = k + 1; i < d; ++i) {
      hr_complex f = hr_cmul(A[i * d + k], inv);
      for (int j = k + 1; j < d; ++j)
        A[i * d + j] -= hr_cmul(f, A[k * d + j]);
    }
  }
  return det;
}

/* ================================================================ SU(n), n <= HR_SUN_NMAX */

/* det A of an n x n matrix (A unchanged). */
HR_INLINE hr_complex suN_det(int n, const hr_complex *A) {
  SUN_CHECK_DIM_(n);
  hr_complex lu[HR_SUN_NMAX * HR_SUN_NMAX];
  cmat_copy(lu, n, A);
  return cmat_det_inplace(n, lu);
}

/* Number of generators of SU(n): n^2 - 1. */
HR_INLINE int suN_ngen(int n) { return n * n - 1; }

/* Kinds of generator in the nested Gell-Mann order. */
enum { SUN_GEN_SYM = 0, SUN_GEN_ANTISYM = 1, SUN_GEN_DIAG = 2 };

/* Which generator T^a is: *kind = SUN_GEN_SYM / SUN_GEN_ANTISYM with row j < column k, or
 * SUN_GEN_DIAG with *k = the k of D_k (and *j = k). */
HR_INLINE void suN_generator_info(int *kind, int *j, int *k, int a) {
  int kk = 1;
  while ((kk + 1) * (kk + 1) - 1 <= a)
    ++kk;
  int r = a - (kk * kk - 1);
  *k = kk;
  if (r == 2 * kk) {
    *kind = SUN_GEN_DIAG;
    *j = kk;
  } else {
    *kind = r % 2;
    *j = r / 2;
  }
}

/* Index a of S_{jk} (j < k); A_{jk} is the next one. */
HR_INLINE int suN_generator_sym_index(int j, int k) { return k * k - 1 + 2 * j; }
/* Index a of the diagonal generator D_k (1 <= k <= n-1). */
HR_INLINE int suN_generator_diag_index(int k) { return k * k - 1 + 2 * k; }
/* Entry m of the diagonal generator D_k: 1/sqrt(2k(k+1)) times 1 (m < k), -k (m = k), 0. */
HR_INLINE double suN_diag_generator_entry(int k, int m) {
  if (m > k)
    return 0.0;
  double c = 1.0 / sqrt(2.0 * k * (k + 1));
  return m < k ? c : -k * c;
}

/* T = T^a, the n x n generator number a. */
HR_INLINE void suN_generator(hr_complex *T, int n, int a) {
  int kind, j, k;
  suN_generator_info(&kind, &j, &k, a);
  cmat_zero(T, n);
  if (kind == SUN_GEN_SYM) {
    T[j * n + k] = hr_cmplx(0.5, 0.0);
    T[k * n + j] = hr_cmplx(0.5, 0.0);
  } else if (kind == SUN_GEN_ANTISYM) {
    T[j * n + k] = hr_cmplx(0.0, -0.5);
    T[k * n + j] = hr_cmplx(0.0, 0.5);
  } else {
    for (int m = 0; m <= k; ++m)
      T[m * n + m] = hr_cmplx(suN_diag_generator_entry(k, m), 0.0);
  }
}

/* t_a = tr(T^a M) for every generator a = 0 .. n^2-2 (M any n x n matrix). */
HR_INLINE void suN_generator_traces(hr_complex *t, int n, const hr_complex *M) {
  for (int k = 1; k < n; ++k) {
    hr_complex diag_sum = hr_cmplx(0.0, 0.0); /* sum_{m<k} M_mm */
    for (int j = 0; j < k; ++j) {
      hr_complex mjk = M[j * n + k], mkj = M[k * n + j];
      int a = suN_generator_sym_index(j, k);
      t[a] = 0.5 * (mjk + mkj);
      t[a + 1] = 0.5 * hr_ctimes_i(mjk - mkj);
      diag_sum += M[j * n + j];
    }
    double c = 1.0 / sqrt(2.0 * k * (k + 1));
    t[suN_generator_diag_index(k)] = c * (diag_sum - (double)k * M[k * n + k]);
  }
}

/* X = i sum_a v_a T^a (antihermitian, traceless) from the algebra vector v. */
HR_INLINE void suN_algebra_to_matrix(hr_complex *X, int n, const double *v) {
  for (int m = 0; m < n; ++m)
    X[m * n + m] = hr_cmplx(0.0, 0.0);
  for (int k = 1; k < n; ++k) {
    for (int j = 0; j < k; ++j) {
      int a = suN_generator_sym_index(j, k);
      double vs = v[a], va = v[a + 1];
      X[j * n + k] = hr_cmplx(0.5 * va, 0.5 * vs);  /* i (vs - i va)/2 */
      X[k * n + j] = hr_cmplx(-0.5 * va, 0.5 * vs); /* i (vs + i va)/2 */
    }
    double vd = v[suN_generator_diag_index(k)];
    for (int m = 0; m <= k; ++m)
      X[m * n + m] += hr_cmplx(0.0, vd * suN_diag_generator_entry(k, m));
  }
}

/* v_a = 2 Im tr(T^a M): the algebra vector of the traceless antihermitian part of M,
 * (M - M^+)/2 - tr(M - M^+)/(2n), which equals M for M in su(n). */
HR_INLINE void suN_project_to_algebra(double *v, int n, const hr_complex *M) {
  for (int k = 1; k < n; ++k) {
    double diag_sum = 0.0;
    for (int j = 0; j < k; ++j) {
      hr_complex mjk = M[j * n + k], mkj = M[k * n + j];
      int a = suN_generator_sym_index(j, k);
      v[a] = hr_cimag(mjk) + hr_cimag(mkj);
      v[a + 1] = hr_creal(mjk) - hr_creal(mkj);
      diag_sum += hr_cimag(M[j * n + j]);
    }
    double c = 2.0 / sqrt(2.0 * k * (k + 1));
    v[suN_generator_diag_index(k)] = c * (diag_sum - k * hr_cimag(M[k * n + k]));
  }
}

/* Structure constant f^{abc} of su(n), [T^a, T^b] = i f^{abc} T^c, from
 * f^{abc} = -2i tr([T^a, T^b] T^c). */
HR_INLINE double suN_structure_constant(int n, int a, int b, int c) {
  SUN_CHECK_DIM_(n);
  hr_complex Ta[HR_SUN_NMAX * HR_SUN_NMAX], Tb[HR_SUN_NMAX * HR_SUN_NMAX];
  hr_complex Tc[HR_SUN_NMAX * HR_SUN_NMAX];
  suN_generator(Ta, n, a);
  suN_generator(Tb, n, b);
  suN_generator(Tc, n, c);
  /* tr([Ta,Tb] Tc) = tr(Ta Tb Tc) - tr(Tb Ta Tc) */
  hr_complex s = hr_cmplx(0.0, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        s += hr_cmul(hr_cmul(Ta[i * n + j], Tb[j * n + k]), Tc[k * n + i]) -
             hr_cmul(hr_cmul(Tb[i * n + j], Ta[j * n + k]), Tc[k * n + i]);
  return 2.0 * hr_cimag(s); /* -2i s, whose real part is 2 Im s */
}

/* U = exp(X) for an n x n matrix X (in SU(n) when X is antihermitian and traceless), to
 * machine precision: scaling and squaring (Y = X / 2^s with |Y| <= 1/2), Taylor polynomial of
 * the degree m that the norm requires (last term below 1e-17, so m <= 17), evaluated in
 * Z = Y^2 (Paterson-Stockmeyer with two powers): sum_k Y^k / k! = sum_j B_j Z^j with
 * B_j = 1/(2j)! + Y/(2j+1)!, by U <- B_j + U Z for j = J-1, ..., 0 from U = B_J (m/2 + 1
 * matrix products), then s squarings. Row i of U Z needs only row i of U, so U is updated a
 * row at a time in place, and every array index is a loop counter over n: in a kernel (n = NG,
 * loops unrolled) Y, Z, U and one row stay in registers, no stack frame. The coefficients
 * 1/k! are 1 / k! of exact whole numbers (k <= 18). With ah != 0, X must be exactly
 * antihermitian (X_ji = -conj(X_ij) bit for bit, as suN_algebra_to_matrix makes it): Y and the
 * hermitian Z are then held by their diagonals and upper triangles, the entries below read as
 * the conjugates that the full products give bit for bit (fewer registers in a kernel; the
 * same result). */
HR_INLINE void suN_exp_core(hr_complex *U, int n, const hr_complex *X, int ah) {
  SUN_CHECK_DIM_(n);
  hr_complex Y[HR_SUN_NMAX * HR_SUN_NMAX], Z[HR_SUN_NMAX * HR_SUN_NMAX];
  /* entry (i, j) of Y and of Z, from the upper triangle when ah */
#define SUN_EXP_Y_(i, j) (ah && (j) < (i) ? -hr_conj(Y[(j) * n + (i)]) : Y[(i) * n + (j)])
#define SUN_EXP_Z_(i, j) (ah && (j) < (i) ? hr_conj(Z[(j) * n + (i)]) : Z[(i) * n + (j)])
  const double norm = sqrt(cmat_sqnorm(n, X)); /* Frobenius norm >= spectral norm */
  int squarings = 0;
  double scale = 1.0;
  while (norm * scale > 0.5 && squarings < 1100) {
    scale *= 0.5;
    ++squarings;
  }
  HR_DEVICE_UNROLL
  for (int i = 0; i < n; ++i)
    HR_DEVICE_UNROLL
    for (int j = ah ? i : 0; j < n; ++j) Y[i * n + j] = scale * X[i * n + j];
  /* degree m: first k with ynorm^k / k! < 1e-17 (the tail is then below 2e-17 * ynorm) */
  const double ynorm = norm * scale;
  int degree = 1;
  double term = ynorm;
  while (term >= 1e-17 && degree < 25) {
    ++degree;
    term *= ynorm / degree;
  }
  /* Z = Y Y (the operations of cmat_mul) */
  HR_DEVICE_UNROLL
  for (int i = 0; i < n; ++i)
    HR_DEVICE_UNROLL
    for (int j = ah ? i : 0; j < n; ++j) {
      hr_complex z = hr_cmplx(0.0, 0.0);
      HR_DEVICE_UNROLL
      for (int k = 0; k < n; ++k) z += hr_cmul(SUN_EXP_Y_(i, k), SUN_EXP_Y_(k, j));
      Z[i * n + j] = z;
    }
  /* fact = (2j + 1)! for the current block j, from the top block down (exact: k <= 19) */
  const int top = degree / 2;
  double fact = 1.0;
  for (int k = 2; k <= 2 * top + 1; ++k)
    fact *= k;
  for (int j = top; j >= 0; --j) {
    const double c1 = 2 * j + 1 <= degree ? 1.0 / fact : 0.0; /* 1/(2j+1)! */
    fact /= 2 * j + 1;
    const double c0 = 1.0 / fact; /* 1/(2j)! */
    if (j > 0) fact /= 2 * j;
    HR_DEVICE_UNROLL
    for (int i = 0; i < n; ++i) {
      hr_complex row[HR_SUN_NMAX]; /* row i of U Z (none for the top block) */
      HR_DEVICE_UNROLL
      for (int c = 0; c < n; ++c) {
        if (j == top) {
          row[c] = hr_cmplx(0.0, 0.0);
        } else {
          hr_complex acc = hr_cmul(U[i * n], SUN_EXP_Z_(0, c));
          HR_DEVICE_UNROLL
          for (int l = 1; l < n; ++l)
            acc += hr_cmul(U[i * n + l], SUN_EXP_Z_(l, c));
          row[c] = acc;
        }
      }
      HR_DEVICE_UNROLL
      for (int c = 0; c < n; ++c)
        U[i * n + c] = row[c] + c1 * SUN_EXP_Y_(i, c);
      U[i * n + i] += c0;
    }
  }
#undef SUN_EXP_Y_
#undef SUN_EXP_Z_
  for (int s = 0; s < squarings; ++s) {
    cmat_mul(Z, n, U, U);
    cmat_copy(U, n, Z);
  }
}

/* U = exp(X) for an n x n matrix X (suN_exp_core). */
HR_INLINE void suN_exp(hr_complex *U, int n, const hr_complex *X) { suN_exp_core(U, n, X, 0); }

/* U = exp(i sum_a v_a T^a), an element of SU(n). X is exactly antihermitian: device code
 * holds Y and Z by their triangles (suN_exp_core, registers), the host the full matrices
 * (its loops run faster without the selections); the same bits (test_suN_group). */
HR_INLINE void suN_exp_algebra(hr_complex *U, int n, const double *v) {
  SUN_CHECK_DIM_(n);
  hr_complex X[HR_SUN_NMAX * HR_SUN_NMAX];
  suN_algebra_to_matrix(X, n, v);
#ifdef __CUDA_ARCH__
  suN_exp_core(U, n, X, 1);
#else
  suN_exp_core(U, n, X, 0);
#endif
}

/* Project U back to SU(n) in place: Gram-Schmidt orthonormalisation of the rows (first row
 * normalised, each later row made orthogonal to the earlier ones, then normalised), then
 * U -> U exp(-i arg(det U)/n). SU(n) matrices are left unchanged up to rounding. Returns 0, or
 * -1 when the rows are linearly dependent to 1e-12 relative accuracy (U is then left partly
 * orthonormalised). */
HR_INLINE int suN_reunitarize(hr_complex *U, int n) {
  SUN_CHECK_DIM_(n);
  for (int i = 0; i < n; ++i) {
    hr_complex *row = U + i * n;
    double norm2_start = 0.0;
    for (int k = 0; k < n; ++k)
      norm2_start += hr_cabs2(row[k]);
    /* two passes ("twice is enough"): orthonormal to rounding even for ill-conditioned U */
    for (int pass = 0; pass < 2; ++pass)
      for (int j = 0; j < i; ++j) {
        const hr_complex *prev = U + j * n;
        hr_complex p = hr_cmplx(0.0, 0.0);
        for (int k = 0; k < n; ++k)
          p += hr_conj_cmul(prev[k], row[k]);
        for (int k = 0; k < n; ++k)
          row[k] -= hr_cmul(p, prev[k]);
      }
    double norm2 = 0.0;
    for (int k = 0; k < n; ++k)
      norm2 += hr_cabs2(row[k]);
    if (!(norm2 > 1e-24 * norm2_start))
      return -1;
    double f = 1.0 / sqrt(norm2);
    for (int k = 0; k < n; ++k)
      row[k] = f * row[k];
  }
  hr_complex det = suN_det(n, U);
  /* exp(-i arg(det) / n) (hr_atan2 and hr_cexpi_2pi: the same bits in device code, and no
   * stack frame there, unlike atan2, cos and sin) */
  hr_complex phase = hr_cexpi_2pi(-hr_atan2(hr_cimag(det), hr_creal(det)) /
                                  (6.283185307179586476925286766559 * n));
  for (int i = 0; i < n * n; ++i)
    U[i] = hr_cmul(U[i], phase);
  return 0;
}

#endif
