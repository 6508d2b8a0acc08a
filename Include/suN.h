/* suN.h -- per-site operations on the types of the compiled theory (suN_types.h): matrix,
 * vector, spinor and algebra-vector arithmetic in double and single precision, and the SU(NG)
 * group operations (generators, exponential, reunitarisation). All functions are HR_INLINE,
 * usable in host code, CUDA device code and the emulated GPU backend.
 *
 * How names are formed: <type>_<operation>, after the type of the main argument; outputs
 * come first. For the matrix types suNg, suNg_flt, suNf, suNf_flt (M below, with vector type V,
 * real type R and complex type C of the same precision):
 *   M_zero(out)  M_unit(out)  M_copy(out,a)  M_add(out,a,b)  M_sub(out,a,b)  M_minus(out,a)
 *   M_scale(out,R s,a)  M_scale_cmplx(out,C z,a)  M_mul_add(out,a,R s,b): out = a + s b
 *   M_dagger(out,a): a^+   M_mul(out,a,b): a b   M_mul_dag(out,a,b): a b^+
 *   M_dag_mul(out,a,b): a^+ b   M_mul_entry, M_mul_dag_entry, M_dag_mul_entry(a,b,i,j): entry
 *   (i,j) of those products   M_trace(a)  M_re_trace(a)  M_re_trace_mul_dag(a,b): Re tr(a b^+)
 *   M_re_conj_term(C a,C b): Re(a conj(b))   M_sqnorm(a): sum |a_ij|^2
 *   M_det(a)   M_mul_vec(out,U,v): U v   M_dag_mul_vec(out,U,v): U^+ v
 *   M_mul_vec_add(out,U,v): out += U v   M_dag_mul_vec_add(out,U,v): out += U^+ v
 * For the vector types suNg_vector, suNf_vector (and _flt) and the spinor types suNf_spinor,
 * suNf_spinor_flt (X below):
 *   X_zero X_copy X_add X_sub X_minus X_scale X_scale_cmplx X_mul_add X_mul_add_cmplx
 *   X_prod(a,b): <a,b> = sum conj(a) b   X_re_prod(a,b)   X_sqnorm(a)
 * vectors also X_add_i(out,a,b): a + i b, X_sub_i(out,a,b): a - i b; spinors also
 *   X_g5(out,a): gamma5 a   X_g5_mul_add(out,a,s,b): a + s gamma5 b   X_g5_prod(a,b): <a,g5 b>
 *   X_mul_colour(out,U,a): the suNf matrix U applied to each spin component.
 * Algebra vectors suNg_algebra_vector (and _flt): _zero _add _sub _scale _mul_add _sqnorm.
 * Precision: <double type>_to_flt(out, a) and <_flt type>_to_dbl(out, a), e.g.
 *   suNf_spinor_to_flt, suNf_spinor_flt_to_dbl, suNg_to_flt, suNg_flt_to_dbl.
 * Group operations of SU(NG) (double precision; the generic versions with a run-time n are
 * in suN_generic.h, representations in representation.h, random matrices in suN_random.h):
 *   suNg_generator(T, a)                     T = T^a
 *   suNg_algebra_vector_to_matrix(X, v)      X = i v_a T^a
 *   suNg_project_to_algebra(v, M)            v_a = 2 Im tr(T^a M)
 *   suNg_exp(U, v)                           U = exp(i v_a T^a)
 *   suNg_exp_matrix(U, X)                    U = exp(X)
 *   suNg_reunitarize(U)                      project U back to SU(NG)
 * Implemented in: LibHR/Algebra (header only). */
#ifndef SUN_H
#define SUN_H

#include "hr_complex.h"
#include "hr_inline.h"
#include "suN_generic.h"
#include "suN_types.h"

#define SUN_TMPL_MAT suNg
#define SUN_TMPL_VEC suNg_vector
#define SUN_TMPL_DIM NG
#define SUN_TMPL_CPLX hr_complex
#define SUN_TMPL_REAL double
#define SUN_TMPL_CMPLX hr_cmplx
#define SUN_TMPL_ALGEBRA suNg_algebra_vector
#define SUN_TMPL_MAT_FLT suNg_flt
#define SUN_TMPL_VEC_FLT suNg_vector_flt
#define SUN_TMPL_ALGEBRA_FLT suNg_algebra_vector_flt
#include "suN_ops_template.h"

#define SUN_TMPL_MAT suNg_flt
#define SUN_TMPL_VEC suNg_vector_flt
#define SUN_TMPL_DIM NG
#define SUN_TMPL_CPLX hr_complex_flt
#define SUN_TMPL_REAL float
#define SUN_TMPL_CMPLX hr_cmplx_flt
#define SUN_TMPL_ALGEBRA suNg_algebra_vector_flt
#include "suN_ops_template.h"

#define SUN_TMPL_MAT suNf
#define SUN_TMPL_VEC suNf_vector
#define SUN_TMPL_DIM NF
#define SUN_TMPL_CPLX hr_complex
#define SUN_TMPL_REAL double
#define SUN_TMPL_CMPLX hr_cmplx
#define SUN_TMPL_SPINOR suNf_spinor
#define SUN_TMPL_MAT_FLT suNf_flt
#define SUN_TMPL_VEC_FLT suNf_vector_flt
#define SUN_TMPL_SPINOR_FLT suNf_spinor_flt
#include "suN_ops_template.h"

#define SUN_TMPL_MAT suNf_flt
#define SUN_TMPL_VEC suNf_vector_flt
#define SUN_TMPL_DIM NF
#define SUN_TMPL_CPLX hr_complex_flt
#define SUN_TMPL_REAL float
#define SUN_TMPL_CMPLX hr_cmplx_flt
#define SUN_TMPL_SPINOR suNf_spinor_flt
#include "suN_ops_template.h"

/* ------------------------------------------------------------ group operations of SU(NG) */

/* T = T^a, generator number a of SU(NG) (order and normalisation in suN_generic.h). */
HR_INLINE void suNg_generator(suNg *T, int a) { suN_generator(T->c, NG, a); }
/* X = i sum_a v_a T^a (antihermitian, traceless). */
HR_INLINE void suNg_algebra_vector_to_matrix(suNg *X, const suNg_algebra_vector *v) {
  suN_algebra_to_matrix(X->c, NG, v->c);
}
/* v_a = 2 Im tr(T^a M): the traceless antihermitian part of M as an algebra vector. */
HR_INLINE void suNg_project_to_algebra(suNg_algebra_vector *v, const suNg *M) {
  suN_project_to_algebra(v->c, NG, M->c);
}
/* U = exp(i sum_a v_a T^a), in SU(NG). */
HR_INLINE void suNg_exp(suNg *U, const suNg_algebra_vector *v) { suN_exp_algebra(U->c, NG, v->c); }
/* U = exp(X) for any NG x NG matrix X (in SU(NG) for X antihermitian and traceless). */
HR_INLINE void suNg_exp_matrix(suNg *U, const suNg *X) { suN_exp(U->c, NG, X->c); }
/* Project U back to SU(NG) in place (see suN_reunitarize). Returns 0, or -1 if singular. */
HR_INLINE int suNg_reunitarize(suNg *U) { return suN_reunitarize(U->c, NG); }

#endif
