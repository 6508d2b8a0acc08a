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
 * spinors.
 * Implemented in: Memory (header only). */
#ifndef FIELD_KINDS_H
#define FIELD_KINDS_H

#include "hr_build_config.h"
#include "hr_complex.h"
#include "hr_inline.h"
#include "suN_types.h"

/* Clover term of one site: the Hermitian matrix 4 + m0 + C is block diagonal in the chiral
 * basis; c[0] acts on spin components 0,1 (gamma5 = +1), c[1] on spin components 2,3
 * (gamma5 = -1). A block A is (2 NF) x (2 NF), row/column index spin * NF + colour with spin
 * 0,1 inside the block, and is stored packed: its 4 NF^2 independent reals as
 * CLOVER_PACKED_UNITS complex units. Seen as NF x NF sub-blocks B_ab of size 2 x 2 (rows a,
 * NF + a; columns b, NF + b):
 *   units 4 k .. 4 k + 3 for the k-th pair a < b (lexicographic order): B_ab column by column,
 *     A[a][b], A[NF+a][b], A[a][NF+b], A[NF+a][NF+b];
 *   unit 2 NF (NF - 1) + 2 a: the real diagonal entries A[a][a] (real part) and
 *     A[NF+a][NF+a] (imaginary part); unit 2 NF (NF - 1) + 2 a + 1: A[a][NF+a];
 * every other entry is the conjugate of a stored one (clover_packed_unit). A column of B_ab
 * is a pair of rows (a, NF + a) at one column: the pair form of the CPU kernels
 * (dirac_site_template.h). 72 reals per site for SU(3) fundamental instead of 144. */
#define CLOVER_PACKED_UNITS (2 * NF * NF)
typedef struct {
  hr_complex c[2][CLOVER_PACKED_UNITS];
} suNf_clover;
typedef struct {
  hr_complex_flt c[2][CLOVER_PACKED_UNITS];
} suNf_clover_flt;

/* How entry (i, j) of a packed clover block follows from its unit (clover_packed_unit). */
enum { HR_CLOVER_UNIT = 0, HR_CLOVER_CONJ = 1, HR_CLOVER_RE = 2, HR_CLOVER_IM = 3 };

/* The unit of a packed clover block that holds the entry of row (spin r, colour a) and
 * column (spin c, colour b), i.e. (r NF + a, c NF + b), and in *how what the entry is: the
 * unit, its conjugate, or its real or imaginary part (a real entry). */
HR_INLINE int clover_packed_unit_sc(int r, int a, int c, int b, int *how) {
  if (a == b) {
    const int d = 2 * NF * (NF - 1) + 2 * a;
    if (r == c) {
      *how = r == 0 ? HR_CLOVER_RE : HR_CLOVER_IM;
      return d;
    }
    *how = r == 0 ? HR_CLOVER_UNIT : HR_CLOVER_CONJ;
    return d + 1;
  }
  const int lo = a < b ? a : b, hi = a < b ? b : a;
  const int k = lo * (2 * NF - lo - 1) / 2 + (hi - lo - 1);
  *how = a < b ? HR_CLOVER_UNIT : HR_CLOVER_CONJ;
  return a < b ? 4 * k + 2 * c + r : 4 * k + 2 * r + c;
}

/* The entry that unit k of a packed clover block holds (the inverse of clover_packed_unit_sc):
 * row (spin *r, colour *a), column (spin *c, colour *b). Returns 1 for the unit of a real
 * diagonal pair, whose entries are (a, a) (the one returned) and (NF + a, NF + a), else 0. */
HR_INLINE int clover_packed_entry(int k, int *r, int *a, int *c, int *b) {
  const int d0 = 2 * NF * (NF - 1);
  if (k >= d0) {
    *a = *b = (k - d0) / 2;
    *r = 0;
    *c = (k - d0) % 2;
    return *c == 0;
  }
  int q = k / 4, lo = 0;
  while (q >= NF - 1 - lo) {
    q -= NF - 1 - lo;
    lo++;
  }
  *a = lo;
  *b = lo + 1 + q;
  *c = (k % 4) / 2;
  *r = k % 2;
  return 0;
}

/* The unit of a packed clover block that holds entry (i, j) (0 <= i, j < 2 NF), and *how
 * (clover_packed_unit_sc). */
HR_INLINE int clover_packed_unit(int i, int j, int *how) {
  return clover_packed_unit_sc(i / NF, i % NF, j / NF, j % NF, how);
}

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
