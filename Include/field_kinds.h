/* field_kinds.h -- the ONE list of field kinds of LibHR (an X-macro) and the site types that
 * have no home in suN_types.h (the clover term). Every per-kind declaration, definition and
 * test loops over HR_FIELD_KINDS, so adding a field kind is one new line here.
 *
 * HR_FIELD_KINDS(X) calls X(kind, site, nlinks, layout, unit, alg) for each kind:
 *   kind    name of the field struct type and suffix of its functions (alloc_<kind>, ...)
 *   site    the per-element value type: one per site (nlinks = 1) or one per link
 *   nlinks  elements per site: 1 for site fields, 4 for link fields (direction mu = 0..3)
 *   layout  HR_LAYOUT_SPINOR (one halo layer) or HR_LAYOUT_GAUGE (halo with the edges)
 *   unit    the component unit of the device layout: hr_complex / hr_complex_flt for
 *           complex types, double / float for real ones (algebra vectors, scalars); a site
 *           value is sizeof(site) / sizeof(unit) units (see gpu.h for the layout).
 *   alg     what the field algebra of linear_algebra.h offers the kind: hr_alg_real (a real
 *           vector space: real coefficients, real scalar products), hr_alg_cplx (a complex
 *           one: complex coefficients and scalar products as well), hr_alg_spin (complex,
 *           and spinors: the gamma5 operations as well).
 *
 * HR_GPU_SITE_TYPES(X) calls X(type, unit) for every value type that read_gpu_<type> /
 * write_gpu_<type> exist for (gpu.h): the element types above and the suNf_vector parts of
 * spinors. */
#ifndef FIELD_KINDS_H
#define FIELD_KINDS_H

#include "hr_build_config.h"
#include "hr_complex.h"
#include "suN_types.h"

/* Clover term of one site: the Hermitian matrix 1 + csw (i/4) sigma_{mu nu} F_{mu nu} acting
 * on spin x colour is block diagonal in the chiral basis; c[0] acts on spin components 0,1
 * (gamma5 = +1), c[1] on spin components 2,3 (gamma5 = -1). Each block is a full complex
 * (2 NF) x (2 NF) matrix, row-major, row/column index = spin * NF + colour with spin 0,1
 * inside the block. The Hermitian symmetry is not exploited in storage. */
typedef struct {
  hr_complex c[2][4 * NF * NF];
} suNf_clover;
typedef struct {
  hr_complex_flt c[2][4 * NF * NF];
} suNf_clover_flt;

/* kind, site type, elements per site, halo layout, device component unit, field algebra */
#define HR_FIELD_KINDS(X)                                                                      \
  X(spinor_field, suNf_spinor, 1, HR_LAYOUT_SPINOR, hr_complex, hr_alg_spin)                   \
  X(spinor_field_flt, suNf_spinor_flt, 1, HR_LAYOUT_SPINOR, hr_complex_flt, hr_alg_spin)       \
  X(suNg_field, suNg, 4, HR_LAYOUT_GAUGE, hr_complex, hr_alg_cplx)                             \
  X(suNg_field_flt, suNg_flt, 4, HR_LAYOUT_GAUGE, hr_complex_flt, hr_alg_cplx)                 \
  X(suNf_field, suNf, 4, HR_LAYOUT_GAUGE, hr_complex, hr_alg_cplx)                             \
  X(suNf_field_flt, suNf_flt, 4, HR_LAYOUT_GAUGE, hr_complex_flt, hr_alg_cplx)                 \
  X(suNg_av_field, suNg_algebra_vector, 4, HR_LAYOUT_GAUGE, double, hr_alg_real)               \
  X(clover_field, suNf_clover, 1, HR_LAYOUT_SPINOR, hr_complex, hr_alg_cplx)                   \
  X(clover_field_flt, suNf_clover_flt, 1, HR_LAYOUT_SPINOR, hr_complex_flt, hr_alg_cplx)       \
  X(scalar_field, double, 1, HR_LAYOUT_SPINOR, double, hr_alg_real)

/* Double-precision kinds with a single-precision twin: X(kind, kind_flt). The field algebra
 * converts between them (to_flt_<kind>, to_dbl_<kind_flt>). */
#define HR_FIELD_KIND_PAIRS(X)                                                                 \
  X(spinor_field, spinor_field_flt)                                                            \
  X(suNg_field, suNg_field_flt)                                                                \
  X(suNf_field, suNf_field_flt)                                                                \
  X(clover_field, clover_field_flt)

/* value type, device component unit */
#define HR_GPU_SITE_TYPES(X)                                                                   \
  X(suNf_vector, hr_complex)                                                                   \
  X(suNf_vector_flt, hr_complex_flt)                                                           \
  X(suNf_spinor, hr_complex)                                                                   \
  X(suNf_spinor_flt, hr_complex_flt)                                                           \
  X(suNg, hr_complex)                                                                          \
  X(suNg_flt, hr_complex_flt)                                                                  \
  X(suNf, hr_complex)                                                                          \
  X(suNf_flt, hr_complex_flt)                                                                  \
  X(suNg_algebra_vector, double)                                                               \
  X(suNg_algebra_vector_flt, float)                                                            \
  X(suNf_clover, hr_complex)                                                                   \
  X(suNf_clover_flt, hr_complex_flt)                                                           \
  X(double, double)                                                                            \
  X(float, float)

#endif
