/* suN_ops_template.h -- per-site linear algebra written once for any compile-time dimension
 * and either precision. This file has no include guard: suN.h includes it once per
 * (type, precision), after defining the parameters below, and it undefines them at the end.
 *
 * Parameters (macros):
 *   SUN_TMPL_MAT     matrix type, e.g. suNg           (struct with member c[DIM*DIM])
 *   SUN_TMPL_VEC     vector type, e.g. suNg_vector    (struct with member c[DIM])
 *   SUN_TMPL_DIM     the dimension, e.g. NG
 *   SUN_TMPL_CPLX    complex type, hr_complex or hr_complex_flt
 *   SUN_TMPL_REAL    real type, double or float
 *   SUN_TMPL_CMPLX   function building a SUN_TMPL_CPLX: hr_cmplx or hr_cmplx_flt
 * optional:
 *   SUN_TMPL_SPINOR  spinor type with member c[4] of SUN_TMPL_VEC: spinor operations
 *   SUN_TMPL_ALGEBRA algebra vector type with member c[DIM*DIM-1] of SUN_TMPL_REAL
 *   SUN_TMPL_MAT_FLT, SUN_TMPL_VEC_FLT, SUN_TMPL_SPINOR_FLT, SUN_TMPL_ALGEBRA_FLT
 *                    the single-precision twins (given when instantiating double precision):
 *                    conversions <type>_to_flt and <twin>_to_dbl
 *
 * Naming: every function is named <type>_<operation> after the type of its main argument,
 * e.g. suNg_mul, suNf_flt_mul, suNf_vector_add, suNf_spinor_flt_sqnorm, suNg_mul_vec
 * (matrix times vector, named after the matrix). Outputs come first; unless stated, the output
 * may be the same object as an input. "dag" is the Hermitian conjugate (dagger).
 * Implemented in: LibHR/Algebra (header only: instantiated by suN.h). */

/* The parameters must be defined by the includer. */
#ifndef SUN_TMPL_MAT
#error "suN_ops_template.h: define SUN_TMPL_MAT (the matrix type, e.g. suNg) before including"
#endif
#ifndef SUN_TMPL_VEC
#error "suN_ops_template.h: define SUN_TMPL_VEC (the vector type, e.g. suNg_vector) before including"
#endif
#ifndef SUN_TMPL_DIM
#error "suN_ops_template.h: define SUN_TMPL_DIM (the dimension, e.g. NG) before including"
#endif
#ifndef SUN_TMPL_CPLX
#error "suN_ops_template.h: define SUN_TMPL_CPLX (the complex type, hr_complex or hr_complex_flt) before including"
#endif
#ifndef SUN_TMPL_REAL
#error "suN_ops_template.h: define SUN_TMPL_REAL (the real type, double or float) before including"
#endif
#ifndef SUN_TMPL_CMPLX
#error "suN_ops_template.h: define SUN_TMPL_CMPLX (the complex constructor, hr_cmplx or hr_cmplx_flt) before including"
#endif

#define SUN_M_(suffix) HR_CAT(SUN_TMPL_MAT, suffix)
#define SUN_V_(suffix) HR_CAT(SUN_TMPL_VEC, suffix)
#define SUN_D_ SUN_TMPL_DIM
#define SUN_C_ SUN_TMPL_CPLX
#define SUN_R_ SUN_TMPL_REAL
#define SUN_ZERO_ SUN_TMPL_CMPLX(0, 0)

/* ------------------------------------------------------------------------------ matrices */

/* out = 0. */
HR_INLINE void SUN_M_(_zero)(SUN_TMPL_MAT *out) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = SUN_ZERO_;
}
/* out = 1. */
HR_INLINE void SUN_M_(_unit)(SUN_TMPL_MAT *out) {
  for (int i = 0; i < SUN_D_; ++i)
    for (int j = 0; j < SUN_D_; ++j)
      out->c[i * SUN_D_ + j] = SUN_TMPL_CMPLX(i == j ? 1 : 0, 0);
}
/* out = a. */
HR_INLINE void SUN_M_(_copy)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a) { *out = *a; }
/* out = a + b. */
HR_INLINE void SUN_M_(_add)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = a->c[i] + b->c[i];
}
/* out = a - b. */
HR_INLINE void SUN_M_(_sub)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = a->c[i] - b->c[i];
}
/* out = -a. */
HR_INLINE void SUN_M_(_minus)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = -a->c[i];
}
/* out = s a (real s). */
HR_INLINE void SUN_M_(_scale)(SUN_TMPL_MAT *out, SUN_R_ s, const SUN_TMPL_MAT *a) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = s * a->c[i];
}
/* out = z a (complex z). */
HR_INLINE void SUN_M_(_scale_cmplx)(SUN_TMPL_MAT *out, SUN_C_ z, const SUN_TMPL_MAT *a) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = hr_cmul(z, a->c[i]);
}
/* out = a + s b (real s). */
HR_INLINE void SUN_M_(_mul_add)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a, SUN_R_ s,
                                const SUN_TMPL_MAT *b) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = a->c[i] + s * b->c[i];
}
/* out = a^+. */
HR_INLINE void SUN_M_(_dagger)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a) {
  SUN_TMPL_MAT r;
  for (int i = 0; i < SUN_D_; ++i)
    for (int j = 0; j < SUN_D_; ++j)
      r.c[i * SUN_D_ + j] = hr_conj(a->c[j * SUN_D_ + i]);
  *out = r;
}
/* Entry (i, j) of a b (of SUN_M_(_mul)). */
HR_INLINE SUN_C_ SUN_M_(_mul_entry)(const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b, int i, int j) {
  SUN_C_ s = hr_cmul(a->c[i * SUN_D_], b->c[j]);
  for (int k = 1; k < SUN_D_; ++k)
    s += hr_cmul(a->c[i * SUN_D_ + k], b->c[k * SUN_D_ + j]);
  return s;
}
/* out = a b. */
HR_INLINE void SUN_M_(_mul)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b) {
  SUN_TMPL_MAT r;
  for (int i = 0; i < SUN_D_; ++i)
    for (int j = 0; j < SUN_D_; ++j) r.c[i * SUN_D_ + j] = SUN_M_(_mul_entry)(a, b, i, j);
  *out = r;
}
/* a = a b, a row at a time in place (row i of a b needs only row i of a): the entries of
 * SUN_M_(_mul) with one row of temporaries. */
HR_INLINE void SUN_M_(_mul_left_inplace)(SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b) {
  HR_DEVICE_UNROLL
  for (int i = 0; i < SUN_D_; ++i) {
    SUN_C_ row[SUN_D_];
    HR_DEVICE_UNROLL
    for (int j = 0; j < SUN_D_; ++j) row[j] = SUN_M_(_mul_entry)(a, b, i, j);
    HR_DEVICE_UNROLL
    for (int j = 0; j < SUN_D_; ++j) a->c[i * SUN_D_ + j] = row[j];
  }
}
/* Entry (i, j) of a b^+ (of SUN_M_(_mul_dag)). */
HR_INLINE SUN_C_ SUN_M_(_mul_dag_entry)(const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b, int i,
                                        int j) {
  SUN_C_ s = hr_cmul_conj(a->c[i * SUN_D_], b->c[j * SUN_D_]);
  for (int k = 1; k < SUN_D_; ++k)
    s += hr_cmul_conj(a->c[i * SUN_D_ + k], b->c[j * SUN_D_ + k]);
  return s;
}
/* out = a b^+. */
HR_INLINE void SUN_M_(_mul_dag)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b) {
  SUN_TMPL_MAT r;
  for (int i = 0; i < SUN_D_; ++i)
    for (int j = 0; j < SUN_D_; ++j) r.c[i * SUN_D_ + j] = SUN_M_(_mul_dag_entry)(a, b, i, j);
  *out = r;
}
/* Entry (i, j) of a^+ b (of SUN_M_(_dag_mul)). */
HR_INLINE SUN_C_ SUN_M_(_dag_mul_entry)(const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b, int i,
                                        int j) {
  SUN_C_ s = hr_conj_cmul(a->c[i], b->c[j]);
  for (int k = 1; k < SUN_D_; ++k)
    s += hr_conj_cmul(a->c[k * SUN_D_ + i], b->c[k * SUN_D_ + j]);
  return s;
}
/* out = a^+ b. */
HR_INLINE void SUN_M_(_dag_mul)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b) {
  SUN_TMPL_MAT r;
  for (int i = 0; i < SUN_D_; ++i)
    for (int j = 0; j < SUN_D_; ++j) r.c[i * SUN_D_ + j] = SUN_M_(_dag_mul_entry)(a, b, i, j);
  *out = r;
}
/* tr a. */
HR_INLINE SUN_C_ SUN_M_(_trace)(const SUN_TMPL_MAT *a) {
  SUN_C_ s = a->c[0];
  for (int i = 1; i < SUN_D_; ++i)
    s += a->c[i * SUN_D_ + i];
  return s;
}
/* Re tr a. */
HR_INLINE SUN_R_ SUN_M_(_re_trace)(const SUN_TMPL_MAT *a) {
  SUN_R_ s = hr_creal(a->c[0]);
  for (int i = 1; i < SUN_D_; ++i)
    s += hr_creal(a->c[i * SUN_D_ + i]);
  return s;
}
/* Re(a conj(b)) of two numbers: the term of each entry in Re tr(a b^+) and of each component
 * in Re <a, b>. */
HR_INLINE SUN_R_ SUN_M_(_re_conj_term)(SUN_C_ a, SUN_C_ b) {
  return hr_creal(a) * hr_creal(b) + hr_cimag(a) * hr_cimag(b);
}
/* Re tr(a b^+) = sum_ij Re(a_ij conj(b_ij)). */
HR_INLINE SUN_R_ SUN_M_(_re_trace_mul_dag)(const SUN_TMPL_MAT *a, const SUN_TMPL_MAT *b) {
  SUN_R_ s = 0;
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    s += SUN_M_(_re_conj_term)(a->c[i], b->c[i]);
  return s;
}
/* sum_ij |a_ij|^2 = tr(a^+ a). */
HR_INLINE SUN_R_ SUN_M_(_sqnorm)(const SUN_TMPL_MAT *a) {
  SUN_R_ s = 0;
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    s += hr_cabs2(a->c[i]);
  return s;
}
/* det a (LU decomposition with partial pivoting). */
HR_INLINE SUN_C_ SUN_M_(_det)(const SUN_TMPL_MAT *a) {
  SUN_TMPL_MAT lu = *a;
  SUN_C_ det = SUN_TMPL_CMPLX(1, 0);
  for (int k = 0; k < SUN_D_; ++k) {
    int p = k;
    SUN_R_ best = hr_cabs2(lu.c[k * SUN_D_ + k]);
    for (int i = k + 1; i < SUN_D_; ++i) {
      SUN_R_ v = hr_cabs2(lu.c[i * SUN_D_ + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best == 0)
      return SUN_ZERO_;
    if (p != k) {
      for (int j = 0; j < SUN_D_; ++j) {
        SUN_C_ t = lu.c[k * SUN_D_ + j];
        lu.c[k * SUN_D_ + j] = lu.c[p * SUN_D_ + j];
        lu.c[p * SUN_D_ + j] = t;
      }
      det = -det;
    }
    SUN_C_ piv = lu.c[k * SUN_D_ + k];
    det = hr_cmul(det, piv);
    SUN_C_ inv = ((SUN_R_)1 / best) * hr_conj(piv);
    for (int i = k + 1; i < SUN_D_; ++i) {
      SUN_C_ f = hr_cmul(lu.c[i * SUN_D_ + k], inv);
      for (int j = k + 1; j < SUN_D_; ++j)
        lu.c[i * SUN_D_ + j] -= hr_cmul(f, lu.c[k * SUN_D_ + j]);
    }
  }
  return det;
}
/* out = U v. */
HR_INLINE void SUN_M_(_mul_vec)(SUN_TMPL_VEC *out, const SUN_TMPL_MAT *U, const SUN_TMPL_VEC *v) {
  SUN_TMPL_VEC r;
  for (int i = 0; i < SUN_D_; ++i) {
    SUN_C_ s = hr_cmul(U->c[i * SUN_D_], v->c[0]);
    for (int k = 1; k < SUN_D_; ++k)
      s += hr_cmul(U->c[i * SUN_D_ + k], v->c[k]);
    r.c[i] = s;
  }
  *out = r;
}
/* out = U^+ v. */
HR_INLINE void SUN_M_(_dag_mul_vec)(SUN_TMPL_VEC *out, const SUN_TMPL_MAT *U,
                                    const SUN_TMPL_VEC *v) {
  SUN_TMPL_VEC r;
  for (int i = 0; i < SUN_D_; ++i) {
    SUN_C_ s = hr_conj_cmul(U->c[i], v->c[0]);
    for (int k = 1; k < SUN_D_; ++k)
      s += hr_conj_cmul(U->c[k * SUN_D_ + i], v->c[k]);
    r.c[i] = s;
  }
  *out = r;
}
/* out = out + U v (out must not be v). */
HR_INLINE void SUN_M_(_mul_vec_add)(SUN_TMPL_VEC *out, const SUN_TMPL_MAT *U,
                                    const SUN_TMPL_VEC *v) {
  for (int i = 0; i < SUN_D_; ++i) {
    SUN_C_ s = out->c[i];
    for (int k = 0; k < SUN_D_; ++k)
      s += hr_cmul(U->c[i * SUN_D_ + k], v->c[k]);
    out->c[i] = s;
  }
}
/* out = out + U^+ v (out must not be v). */
HR_INLINE void SUN_M_(_dag_mul_vec_add)(SUN_TMPL_VEC *out, const SUN_TMPL_MAT *U,
                                        const SUN_TMPL_VEC *v) {
  for (int i = 0; i < SUN_D_; ++i) {
    SUN_C_ s = out->c[i];
    for (int k = 0; k < SUN_D_; ++k)
      s += hr_conj_cmul(U->c[k * SUN_D_ + i], v->c[k]);
    out->c[i] = s;
  }
}

/* ------------------------------------------------------------------------------- vectors */
/* out = 0. */
HR_INLINE void SUN_V_(_zero)(SUN_TMPL_VEC *out) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = SUN_TMPL_CMPLX(0, 0);
}
/* out = a. */
HR_INLINE void SUN_V_(_copy)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a) { *out = *a; }
/* out = a + b. */
HR_INLINE void SUN_V_(_add)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a, const SUN_TMPL_VEC *b) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = a->c[i] + b->c[i];
}
/* out = a - b. */
HR_INLINE void SUN_V_(_sub)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a, const SUN_TMPL_VEC *b) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = a->c[i] - b->c[i];
}
/* out = -a. */
HR_INLINE void SUN_V_(_minus)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = -a->c[i];
}
/* out = a + i b. */
HR_INLINE void SUN_V_(_add_i)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a, const SUN_TMPL_VEC *b) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = a->c[i] + hr_ctimes_i(b->c[i]);
}
/* out = a - i b. */
HR_INLINE void SUN_V_(_sub_i)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a, const SUN_TMPL_VEC *b) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = a->c[i] - hr_ctimes_i(b->c[i]);
}
/* out = s a (real s). */
HR_INLINE void SUN_V_(_scale)(SUN_TMPL_VEC *out, SUN_R_ s, const SUN_TMPL_VEC *a) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = s * a->c[i];
}
/* out = z a (complex z). */
HR_INLINE void SUN_V_(_scale_cmplx)(SUN_TMPL_VEC *out, SUN_C_ z, const SUN_TMPL_VEC *a) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = hr_cmul(z, a->c[i]);
}
/* out = a + s b (real s). */
HR_INLINE void SUN_V_(_mul_add)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a, SUN_R_ s,
                                const SUN_TMPL_VEC *b) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = a->c[i] + s * b->c[i];
}
/* out = a + z b (complex z). */
HR_INLINE void SUN_V_(_mul_add_cmplx)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC *a, SUN_C_ z,
                                      const SUN_TMPL_VEC *b) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = a->c[i] + hr_cmul(z, b->c[i]);
}
/* <a, b> = sum_i conj(a_i) b_i. */
HR_INLINE SUN_C_ SUN_V_(_prod)(const SUN_TMPL_VEC *a, const SUN_TMPL_VEC *b) {
  SUN_C_ s = SUN_TMPL_CMPLX(0, 0);
  for (int i = 0; i < SUN_D_; ++i)
    s += hr_conj_cmul(a->c[i], b->c[i]);
  return s;
}
/* Re <a, b>. */
HR_INLINE SUN_R_ SUN_V_(_re_prod)(const SUN_TMPL_VEC *a, const SUN_TMPL_VEC *b) {
  SUN_R_ s = 0;
  for (int i = 0; i < SUN_D_; ++i)
    s += SUN_M_(_re_conj_term)(a->c[i], b->c[i]);
  return s;
}
/* <a, a> = sum_i |a_i|^2. */
HR_INLINE SUN_R_ SUN_V_(_sqnorm)(const SUN_TMPL_VEC *a) {
  SUN_R_ s = 0;
  for (int i = 0; i < SUN_D_; ++i)
    s += hr_cabs2(a->c[i]);
  return s;
}

/* ------------------------------------------------------------------------------ spinors */
#ifdef SUN_TMPL_SPINOR
#define SUN_S_(suffix) HR_CAT(SUN_TMPL_SPINOR, suffix)
/* Spinor operations are written as loops over the 4 spin components calling the vector
 * operations, so that every formula exists once. */
/* out = 0. */
HR_INLINE void SUN_S_(_zero)(SUN_TMPL_SPINOR *out) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_zero)(&out->c[s]);
}
/* out = a. */
HR_INLINE void SUN_S_(_copy)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a) { *out = *a; }
/* out = a + b. */
HR_INLINE void SUN_S_(_add)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a,
                            const SUN_TMPL_SPINOR *b) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_add)(&out->c[s], &a->c[s], &b->c[s]);
}
/* out = a - b. */
HR_INLINE void SUN_S_(_sub)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a,
                            const SUN_TMPL_SPINOR *b) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_sub)(&out->c[s], &a->c[s], &b->c[s]);
}
/* out = -a. */
HR_INLINE void SUN_S_(_minus)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_minus)(&out->c[s], &a->c[s]);
}
/* out = s a (real s). */
HR_INLINE void SUN_S_(_scale)(SUN_TMPL_SPINOR *out, SUN_R_ f, const SUN_TMPL_SPINOR *a) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_scale)(&out->c[s], f, &a->c[s]);
}
/* out = z a (complex z). */
HR_INLINE void SUN_S_(_scale_cmplx)(SUN_TMPL_SPINOR *out, SUN_C_ z, const SUN_TMPL_SPINOR *a) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_scale_cmplx)(&out->c[s], z, &a->c[s]);
}
/* out = a + s b (real s). */
HR_INLINE void SUN_S_(_mul_add)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a, SUN_R_ f,
                                const SUN_TMPL_SPINOR *b) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_mul_add)(&out->c[s], &a->c[s], f, &b->c[s]);
}
/* out = a + z b (complex z). */
HR_INLINE void SUN_S_(_mul_add_cmplx)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a, SUN_C_ z,
                                      const SUN_TMPL_SPINOR *b) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_mul_add_cmplx)(&out->c[s], &a->c[s], z, &b->c[s]);
}
/* <a, b> = sum over spin and colour of conj(a) b. */
HR_INLINE SUN_C_ SUN_S_(_prod)(const SUN_TMPL_SPINOR *a, const SUN_TMPL_SPINOR *b) {
  SUN_C_ r = SUN_V_(_prod)(&a->c[0], &b->c[0]);
  for (int s = 1; s < 4; ++s)
    r += SUN_V_(_prod)(&a->c[s], &b->c[s]);
  return r;
}
/* Re <a, b>. */
HR_INLINE SUN_R_ SUN_S_(_re_prod)(const SUN_TMPL_SPINOR *a, const SUN_TMPL_SPINOR *b) {
  SUN_R_ r = SUN_V_(_re_prod)(&a->c[0], &b->c[0]);
  for (int s = 1; s < 4; ++s)
    r += SUN_V_(_re_prod)(&a->c[s], &b->c[s]);
  return r;
}
/* <a, a>. */
HR_INLINE SUN_R_ SUN_S_(_sqnorm)(const SUN_TMPL_SPINOR *a) {
  SUN_R_ r = SUN_V_(_sqnorm)(&a->c[0]);
  for (int s = 1; s < 4; ++s)
    r += SUN_V_(_sqnorm)(&a->c[s]);
  return r;
}
/* out = gamma5 a, gamma5 = diag(1, 1, -1, -1) (chiral basis). */
HR_INLINE void SUN_S_(_g5)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a) {
  out->c[0] = a->c[0];
  out->c[1] = a->c[1];
  SUN_V_(_minus)(&out->c[2], &a->c[2]);
  SUN_V_(_minus)(&out->c[3], &a->c[3]);
}
/* out = a + s gamma5 b (real s). */
HR_INLINE void SUN_S_(_g5_mul_add)(SUN_TMPL_SPINOR *out, const SUN_TMPL_SPINOR *a, SUN_R_ f,
                                   const SUN_TMPL_SPINOR *b) {
  SUN_V_(_mul_add)(&out->c[0], &a->c[0], f, &b->c[0]);
  SUN_V_(_mul_add)(&out->c[1], &a->c[1], f, &b->c[1]);
  SUN_V_(_mul_add)(&out->c[2], &a->c[2], -f, &b->c[2]);
  SUN_V_(_mul_add)(&out->c[3], &a->c[3], -f, &b->c[3]);
}
/* <a, gamma5 b>, real for any a = b; in general complex. */
HR_INLINE SUN_C_ SUN_S_(_g5_prod)(const SUN_TMPL_SPINOR *a, const SUN_TMPL_SPINOR *b) {
  return SUN_V_(_prod)(&a->c[0], &b->c[0]) + SUN_V_(_prod)(&a->c[1], &b->c[1]) -
         SUN_V_(_prod)(&a->c[2], &b->c[2]) - SUN_V_(_prod)(&a->c[3], &b->c[3]);
}
/* out = U a: the colour matrix applied to each spin component. */
HR_INLINE void SUN_S_(_mul_colour)(SUN_TMPL_SPINOR *out, const SUN_TMPL_MAT *U,
                                   const SUN_TMPL_SPINOR *a) {
  for (int s = 0; s < 4; ++s)
    SUN_M_(_mul_vec)(&out->c[s], U, &a->c[s]);
}
#endif

/* --------------------------------------------------------------------- algebra vectors */
#ifdef SUN_TMPL_ALGEBRA
#define SUN_A_(suffix) HR_CAT(SUN_TMPL_ALGEBRA, suffix)
#define SUN_NA_ (SUN_D_ * SUN_D_ - 1)
/* v = 0. */
HR_INLINE void SUN_A_(_zero)(SUN_TMPL_ALGEBRA *out) {
  for (int a = 0; a < SUN_NA_; ++a)
    out->c[a] = 0;
}
/* out = a + b. */
HR_INLINE void SUN_A_(_add)(SUN_TMPL_ALGEBRA *out, const SUN_TMPL_ALGEBRA *a,
                            const SUN_TMPL_ALGEBRA *b) {
  for (int i = 0; i < SUN_NA_; ++i)
    out->c[i] = a->c[i] + b->c[i];
}
/* out = a - b. */
HR_INLINE void SUN_A_(_sub)(SUN_TMPL_ALGEBRA *out, const SUN_TMPL_ALGEBRA *a,
                            const SUN_TMPL_ALGEBRA *b) {
  for (int i = 0; i < SUN_NA_; ++i)
    out->c[i] = a->c[i] - b->c[i];
}
/* out = s a. */
HR_INLINE void SUN_A_(_scale)(SUN_TMPL_ALGEBRA *out, SUN_R_ s, const SUN_TMPL_ALGEBRA *a) {
  for (int i = 0; i < SUN_NA_; ++i)
    out->c[i] = s * a->c[i];
}
/* out = a + s b. */
HR_INLINE void SUN_A_(_mul_add)(SUN_TMPL_ALGEBRA *out, const SUN_TMPL_ALGEBRA *a, SUN_R_ s,
                                const SUN_TMPL_ALGEBRA *b) {
  for (int i = 0; i < SUN_NA_; ++i)
    out->c[i] = a->c[i] + s * b->c[i];
}
/* sum_a v_a^2 (= 2 tr(X^+ X) for X = i v_a T^a). */
HR_INLINE SUN_R_ SUN_A_(_sqnorm)(const SUN_TMPL_ALGEBRA *a) {
  SUN_R_ s = 0;
  for (int i = 0; i < SUN_NA_; ++i)
    s += a->c[i] * a->c[i];
  return s;
}
#undef SUN_NA_
#endif

/* ------------------------------------------------------------- double <-> single precision */
#ifdef SUN_TMPL_MAT_FLT
/* Round a double-precision matrix to single precision. */
HR_INLINE void SUN_M_(_to_flt)(SUN_TMPL_MAT_FLT *out, const SUN_TMPL_MAT *a) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = hr_complex_to_flt(a->c[i]);
}
/* Widen a single-precision matrix to double precision. */
HR_INLINE void HR_CAT(SUN_TMPL_MAT_FLT, _to_dbl)(SUN_TMPL_MAT *out, const SUN_TMPL_MAT_FLT *a) {
  for (int i = 0; i < SUN_D_ * SUN_D_; ++i)
    out->c[i] = hr_complex_to_dbl(a->c[i]);
}
#endif
#ifdef SUN_TMPL_VEC_FLT
/* Round a double-precision vector to single precision. */
HR_INLINE void SUN_V_(_to_flt)(SUN_TMPL_VEC_FLT *out, const SUN_TMPL_VEC *a) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = hr_complex_to_flt(a->c[i]);
}
/* Widen a single-precision vector to double precision. */
HR_INLINE void HR_CAT(SUN_TMPL_VEC_FLT, _to_dbl)(SUN_TMPL_VEC *out, const SUN_TMPL_VEC_FLT *a) {
  for (int i = 0; i < SUN_D_; ++i)
    out->c[i] = hr_complex_to_dbl(a->c[i]);
}
#endif
#if defined(SUN_TMPL_SPINOR) && defined(SUN_TMPL_SPINOR_FLT)
/* Round a double-precision spinor to single precision. */
HR_INLINE void SUN_S_(_to_flt)(SUN_TMPL_SPINOR_FLT *out, const SUN_TMPL_SPINOR *a) {
  for (int s = 0; s < 4; ++s)
    SUN_V_(_to_flt)(&out->c[s], &a->c[s]);
}
/* Widen a single-precision spinor to double precision. */
HR_INLINE void HR_CAT(SUN_TMPL_SPINOR_FLT, _to_dbl)(SUN_TMPL_SPINOR *out,
                                                    const SUN_TMPL_SPINOR_FLT *a) {
  for (int s = 0; s < 4; ++s)
    HR_CAT(SUN_TMPL_VEC_FLT, _to_dbl)(&out->c[s], &a->c[s]);
}
#endif
#if defined(SUN_TMPL_ALGEBRA) && defined(SUN_TMPL_ALGEBRA_FLT)
/* Round a double-precision algebra vector to single precision. */
HR_INLINE void SUN_A_(_to_flt)(SUN_TMPL_ALGEBRA_FLT *out, const SUN_TMPL_ALGEBRA *a) {
  for (int i = 0; i < SUN_D_ * SUN_D_ - 1; ++i)
    out->c[i] = (float)a->c[i];
}
/* Widen a single-precision algebra vector to double precision. */
HR_INLINE void HR_CAT(SUN_TMPL_ALGEBRA_FLT, _to_dbl)(SUN_TMPL_ALGEBRA *out,
                                                     const SUN_TMPL_ALGEBRA_FLT *a) {
  for (int i = 0; i < SUN_D_ * SUN_D_ - 1; ++i)
    out->c[i] = (double)a->c[i];
}
#endif

/* ------------------------------------------------------------------------------ cleanup */
#undef SUN_M_
#undef SUN_V_
#undef SUN_S_
#undef SUN_A_
#undef SUN_D_
#undef SUN_C_
#undef SUN_R_
#undef SUN_ZERO_
#undef SUN_TMPL_MAT
#undef SUN_TMPL_VEC
#undef SUN_TMPL_DIM
#undef SUN_TMPL_CPLX
#undef SUN_TMPL_REAL
#undef SUN_TMPL_CMPLX
#undef SUN_TMPL_SPINOR
#undef SUN_TMPL_ALGEBRA
#undef SUN_TMPL_MAT_FLT
#undef SUN_TMPL_VEC_FLT
#undef SUN_TMPL_SPINOR_FLT
#undef SUN_TMPL_ALGEBRA_FLT
