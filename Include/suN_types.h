/* suN_types.h -- the per-site data types of the compiled theory SU(NG) with fermions in a
 * representation of dimension NF (both fixed by configure, see hr_build_config.h).
 *
 *   suNg                 NG x NG complex matrix (gauge link), row-major: c[i*NG + j] = U_ij
 *   suNg_vector          NG complex components
 *   suNg_algebra_vector  NG*NG-1 real components v_a of the algebra element X = i v_a T^a
 *                        (momenta, forces; generator order in suN_generic.h)
 *   suNf                 NF x NF complex matrix (link in the fermion representation), row-major
 *   suNf_vector          NF complex components (one spin component of a fermion)
 *   suNf_spinor          4 spin components c[0..3], each an suNf_vector (chiral basis,
 *                        gamma5 = diag(1,1,-1,-1), see Doc/conventions.md)
 * Every type has a single-precision twin named with the suffix _flt (suNg_flt, suNf_spinor_flt,
 * ...) holding hr_complex_flt / float instead of hr_complex / double, with the same layout.
 * suNf stays complex for the (real) adjoint representation too.
 * Implemented in: LibHR/Algebra (header only). */
#ifndef SUN_TYPES_H
#define SUN_TYPES_H

#include "hr_build_config.h"
#include "hr_complex.h"

/* NG x NG gauge matrix, row-major. */
typedef struct {
  hr_complex c[NG * NG];
} suNg;
typedef struct {
  hr_complex_flt c[NG * NG];
} suNg_flt;

/* Vector of the fundamental representation. */
typedef struct {
  hr_complex c[NG];
} suNg_vector;
typedef struct {
  hr_complex_flt c[NG];
} suNg_vector_flt;

/* Real components of an element of the Lie algebra su(NG). */
typedef struct {
  double c[NG * NG - 1];
} suNg_algebra_vector;
typedef struct {
  float c[NG * NG - 1];
} suNg_algebra_vector_flt;

/* NF x NF matrix of the fermion representation, row-major. */
typedef struct {
  hr_complex c[NF * NF];
} suNf;
typedef struct {
  hr_complex_flt c[NF * NF];
} suNf_flt;

/* Colour vector of the fermion representation. */
typedef struct {
  hr_complex c[NF];
} suNf_vector;
typedef struct {
  hr_complex_flt c[NF];
} suNf_vector_flt;

/* Dirac spinor: 4 spin components, each a colour vector of the fermion representation. */
typedef struct {
  suNf_vector c[4];
} suNf_spinor;
typedef struct {
  suNf_vector_flt c[4];
} suNf_spinor_flt;

#endif
