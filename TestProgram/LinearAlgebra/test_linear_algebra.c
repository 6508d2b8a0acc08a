/* test_linear_algebra.c -- the field algebra of linear_algebra.h for every kind of
 * field_kinds.h and every operation the kind offers, on the process grid given on the command
 * line (run by run_grids.sh on several grids and thread counts), for two lattices with and
 * without forced halos, on glattice, glat_even and glat_odd. The cases are generated from the
 * operation lists of linear_algebra.h and the kind list: every operation needs a long-double
 * reference here (lt_ref_<op> for streaming operations, lt_red_<op> and lt_upd_<op> for
 * reductions) or this file does not compile, so no operation goes untested.
 *   Every streaming operation on the CPU path matches its reference computed from the same
 *     inputs (to 8 units of roundoff of the field precision times the sum of the magnitudes
 *     of the terms); in GPU builds the GPU path gives the same bits and leaves its output
 *     current on the device.
 *   Every reduction matches its reference (1e-13 of the sum of magnitudes of the terms) and
 *     gives the same bits with 1, 2 and 3 OpenMP threads and on the GPU path (reduction.h);
 *     cg_update's two outputs match their references as well.
 *   double <-> single conversions of every kind with a twin round / widen exactly.
 *   Fields on different geometries (and cg_update on repeated fields) stop with a message.
 * Inputs are keyed by global coordinates; results are printed as VALUE lines that
 * run_grids.sh compares between process grids. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../Memory/field_test.h"

/* Thread counts the reductions are compared with. */
static int lt_nthreads_list(int *list) {
#ifdef _OPENMP
  list[0] = 1, list[1] = 2, list[2] = 3;
  return 3;
#else
  list[0] = 1;
  return 1;
#endif
}
/* n > 0: use n threads; n = 0: the number the run started with (OMP_NUM_THREADS). */
static void lt_set_threads(int n) {
#ifdef _OPENMP
  static int initial = 0;
  if (initial == 0) initial = omp_get_max_threads();
  omp_set_num_threads(n > 0 ? n : initial);
#else
  (void)n;
#endif
}

/* ------------------------------------------------------------------ references */

/* The coefficients of a call (as the caller gives them) and one site's input values of the
 * four slots (flat reals, n of them in units of w; long double, rounded to the field
 * precision as stored), with the coefficients rounded to the field precision. */
typedef struct {
  double c[3];
  hr_complex z[2];
} lt_coefs;
typedef struct {
  int n, w;
  const long double *x[4];
  long double c[3], zr[2], zi[2];
} lt_site;

/* Real and imaginary part of z s at the complex unit of component k of slot s; *mag gets
 * the magnitudes of the two terms. */
static long double lt_zs(const lt_site *s, int zi_, int slot, int k, long double *mag) {
  const int re = k % 2 == 0, base = k - k % 2;
  const long double xr = s->x[slot][base], xi = s->x[slot][base + 1];
  const long double zr = s->zr[zi_], zi = s->zi[zi_];
  *mag = re ? fabsl(zr * xr) + fabsl(zi * xi) : fabsl(zr * xi) + fabsl(zi * xr);
  return re ? zr * xr - zi * xi : zr * xi + zi * xr;
}
/* gamma5 sign of component k. */
static long double lt_g5(const lt_site *s, int k) { return k < s->n / 2 ? 1 : -1; }

/* Streaming operations: the new value of component k of slot 0; *mag the sum of the
 * magnitudes of the terms. */
#define LT_X(i) (s->x[i][k])
static long double lt_ref_mul(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(s->c[0] * LT_X(1));
  return s->c[0] * LT_X(1);
}
static long double lt_ref_mulc(const lt_site *s, int k, long double *mag) {
  return lt_zs(s, 0, 1, k, mag);
}
static long double lt_ref_mul_add_assign(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(0)) + fabsl(s->c[0] * LT_X(1));
  return LT_X(0) + s->c[0] * LT_X(1);
}
static long double lt_ref_mulc_add_assign(const lt_site *s, int k, long double *mag) {
  const long double v = lt_zs(s, 0, 1, k, mag);
  *mag += fabsl(LT_X(0));
  return LT_X(0) + v;
}
static long double lt_ref_add(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(1)) + fabsl(LT_X(2));
  return LT_X(1) + LT_X(2);
}
static long double lt_ref_sub(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(1)) + fabsl(LT_X(2));
  return LT_X(1) - LT_X(2);
}
static long double lt_ref_add_assign(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(0)) + fabsl(LT_X(1));
  return LT_X(0) + LT_X(1);
}
static long double lt_ref_sub_assign(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(0)) + fabsl(LT_X(1));
  return LT_X(0) - LT_X(1);
}
static long double lt_ref_lc(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(s->c[0] * LT_X(1)) + fabsl(s->c[1] * LT_X(2));
  return s->c[0] * LT_X(1) + s->c[1] * LT_X(2);
}
static long double lt_ref_lc_add_assign(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(0)) + fabsl(s->c[0] * LT_X(1)) + fabsl(s->c[1] * LT_X(2));
  return LT_X(0) + s->c[0] * LT_X(1) + s->c[1] * LT_X(2);
}
static long double lt_ref_lc3(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(s->c[0] * LT_X(1)) + fabsl(s->c[1] * LT_X(2)) + fabsl(s->c[2] * LT_X(3));
  return s->c[0] * LT_X(1) + s->c[1] * LT_X(2) + s->c[2] * LT_X(3);
}
static long double lt_ref_lcc(const lt_site *s, int k, long double *mag) {
  long double m1, m2;
  const long double v = lt_zs(s, 0, 1, k, &m1) + lt_zs(s, 1, 2, k, &m2);
  *mag = m1 + m2;
  return v;
}
static long double lt_ref_minus(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(1));
  return -LT_X(1);
}
static long double lt_ref_cg_direction(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(1)) + fabsl(s->c[0] * LT_X(0));
  return LT_X(1) + s->c[0] * LT_X(0);
}
static long double lt_ref_g5(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(1));
  return lt_g5(s, k) * LT_X(1);
}
static long double lt_ref_g5_assign(const lt_site *s, int k, long double *mag) {
  *mag = fabsl(LT_X(0));
  return lt_g5(s, k) * LT_X(0);
}

/* Reductions: the contribution of one site (out[0], out[1]) and the magnitudes of its
 * terms; lt_upd_<op>: the new value of component k of a written slot (cg_update only). */
static void lt_red_sqnorm(const lt_site *s, long double out[2], long double mag[2]) {
  out[0] = out[1] = mag[1] = 0;
  for (int k = 0; k < s->n; k++) out[0] += LT_X(0) * LT_X(0);
  mag[0] = out[0];
}
/* sum conj(x0) x1 with gamma5 (g5 != 0) or without, over complex units; real kinds: the
 * plain dot product. */
static void lt_dot(const lt_site *s, int g5, long double out[2], long double mag[2]) {
  out[0] = out[1] = mag[0] = mag[1] = 0;
  if (s->w == 1) {
    for (int k = 0; k < s->n; k++) {
      out[0] += LT_X(0) * LT_X(1);
      mag[0] += fabsl(LT_X(0) * LT_X(1));
    }
    return;
  }
  for (int k = 0; k < s->n; k += 2) {
    const long double sg = g5 ? lt_g5(s, k) : 1;
    const long double ar = s->x[0][k], ai = s->x[0][k + 1], br = s->x[1][k], bi = s->x[1][k + 1];
    out[0] += sg * (ar * br + ai * bi);
    out[1] += sg * (ar * bi - ai * br);
    mag[0] += fabsl(ar * br) + fabsl(ai * bi);
    mag[1] += fabsl(ar * bi) + fabsl(ai * br);
  }
}
static void lt_red_prod_re(const lt_site *s, long double out[2], long double mag[2]) {
  lt_dot(s, 0, out, mag);
  out[1] = mag[1] = 0;
}
static void lt_red_prod(const lt_site *s, long double out[2], long double mag[2]) {
  lt_dot(s, 0, out, mag);
}
static void lt_red_prod_im(const lt_site *s, long double out[2], long double mag[2]) {
  lt_dot(s, 0, out, mag);
  out[0] = out[1], mag[0] = mag[1];
  out[1] = mag[1] = 0;
}
static void lt_red_g5_prod(const lt_site *s, long double out[2], long double mag[2]) {
  lt_dot(s, 1, out, mag);
}
static void lt_red_g5_prod_re(const lt_site *s, long double out[2], long double mag[2]) {
  lt_dot(s, 1, out, mag);
  out[1] = mag[1] = 0;
}
/* cg_update(x, r, a, p, q): x += a p, r -= a q, |r|^2 of the new r (rounded to the field
 * precision as stored: the sum is over the stored values). */
static long double lt_upd_cg_update(const lt_site *s, int slot, int k, long double *mag) {
  if (slot == 0) {
    *mag = fabsl(LT_X(0)) + fabsl(s->c[0] * LT_X(2));
    return LT_X(0) + s->c[0] * LT_X(2);
  }
  *mag = fabsl(LT_X(1)) + fabsl(s->c[0] * LT_X(3));
  return LT_X(1) - s->c[0] * LT_X(3);
}
static void lt_red_cg_update(const lt_site *s, long double out[2], long double mag[2]) {
  (void)s; /* computed by the test from the stored new r (see lt_test_reduction) */
  out[0] = out[1] = mag[0] = mag[1] = 0;
}
/* Read-only reductions write nothing. */
#define LT_NO_UPD_(op)                                                                         \
  static long double lt_upd_##op(const lt_site *s, int slot, int k, long double *mag) {         \
    (void)s, (void)slot, (void)k;                                                              \
    *mag = 0;                                                                                  \
    return 0;                                                                                  \
  }
LT_NO_UPD_(sqnorm)
LT_NO_UPD_(prod_re)
LT_NO_UPD_(prod)
LT_NO_UPD_(prod_im)
LT_NO_UPD_(g5_prod)
LT_NO_UPD_(g5_prod_re)
#undef LT_X

/* ------------------------------------------------------------------ kinds and operations */

/* What the generic test needs of a kind. */
typedef struct {
  const char *name;
  size_t struct_bytes; /* sizeof the field struct (fields allocated together) */
  int real_bytes;      /* sizeof the real type: 8 or 4 */
  int nr, w;           /* reals per site, per unit */
  void *(*alloc)(int n, const geometry_descriptor *g);
  void (*free)(void *f);
  void *(*host)(const void *f);       /* sync_host_<kind> */
  void *(*host_write)(void *f);       /* host_write_<kind> */
  int (*current)(const void *f);      /* f->current */
  const geometry_descriptor *(*geom)(const void *f);
} lt_kind;

/* One operation of one kind: its name, slot mask, whether it is a reduction (nres > 0), the
 * call of its public function on fields f[0..3] with coefficients c (reductions: result in
 * res), and its references. */
typedef struct {
  const char *name;
  int mask, nres;
  void (*run)(void *f[4], const lt_coefs *c, double res[2]);
  long double (*ref)(const lt_site *s, int k, long double *mag);
  void (*red)(const lt_site *s, long double out[2], long double mag[2]);
  long double (*upd)(const lt_site *s, int slot, int k, long double *mag);
} lt_op;

/* The call of each shape (linear_algebra.h) for kind K. */
#define LT_F(K, i) ((K *)f[i])
#define LT_CALL_r(op, K) op##_##K(LT_F(K, 0))
#define LT_CALL_rs(op, K) op##_##K(LT_F(K, 0), LT_F(K, 1))
#define LT_CALL_rss(op, K) op##_##K(LT_F(K, 0), LT_F(K, 1), LT_F(K, 2))
#define LT_CALL_rcs(op, K) op##_##K(LT_F(K, 0), c->c[0], LT_F(K, 1))
#define LT_CALL_rzs(op, K) op##_##K(LT_F(K, 0), c->z[0], LT_F(K, 1))
#define LT_CALL_rcscs(op, K) op##_##K(LT_F(K, 0), c->c[0], LT_F(K, 1), c->c[1], LT_F(K, 2))
#define LT_CALL_rcscscs(op, K)                                                                 \
  op##_##K(LT_F(K, 0), c->c[0], LT_F(K, 1), c->c[1], LT_F(K, 2), c->c[2], LT_F(K, 3))
#define LT_CALL_rzszs(op, K) op##_##K(LT_F(K, 0), c->z[0], LT_F(K, 1), c->z[1], LT_F(K, 2))
#define LT_CALL_q1(op, K) res[0] = op##_##K(LT_F(K, 0))
#define LT_CALL_q2(op, K) res[0] = op##_##K(LT_F(K, 0), LT_F(K, 1))
#define LT_CALL_q2c(op, K)                                                                     \
  do {                                                                                         \
    const hr_complex z_ = op##_##K(LT_F(K, 0), LT_F(K, 1));                                    \
    res[0] = hr_creal(z_), res[1] = hr_cimag(z_);                                              \
  } while (0)
#define LT_CALL_cgu(op, K) res[0] = op##_##K(LT_F(K, 0), LT_F(K, 1), c->c[0], LT_F(K, 2), LT_F(K, 3))

/* The runner of each operation of each kind. */
#define LT_RUN1_(op, shape, K)                                                                 \
  static void lt_run_##op##_##K(void *f[4], const lt_coefs *c, double res[2]) {                \
    (void)c, (void)res;                                                                        \
    LT_CALL_##shape(op, K);                                                                    \
  }
#define LT_RUN_S_(op, shape, needs, mask, K, alg)                                              \
  HR_LA_PICK(needs, alg, LT_RUN1_, HR_LA_NONE)(op, shape, K)
#define LT_RUN_R_(op, shape, needs, mask, nres, K, alg)                                        \
  HR_LA_PICK(needs, alg, LT_RUN1_, HR_LA_NONE)(op, shape, K)

/* The operation table of each kind: lt_ops_<kind>[]. */
#define LT_OP_S1_(op, mask, K) {#op, mask, 0, lt_run_##op##_##K, lt_ref_##op, NULL, NULL},
#define LT_OP_R1_(op, mask, nres, K)                                                           \
  {#op, mask, nres, lt_run_##op##_##K, NULL, lt_red_##op, lt_upd_##op},
#define LT_OP_S_(op, shape, needs, mask, K, alg)                                               \
  HR_LA_PICK(needs, alg, LT_OP_S1_, HR_LA_NONE)(op, mask, K)
#define LT_OP_R_(op, shape, needs, mask, nres, K, alg)                                         \
  HR_LA_PICK(needs, alg, LT_OP_R1_, HR_LA_NONE)(op, mask, nres, K)

/* Kind accessors and tables. */
#define LT_KIND_(K, site, nlinks, layout, unit, alg)                                           \
  HR_LA_STREAMING_OPS(LT_RUN_S_, K, alg)                                                       \
  HR_LA_REDUCTION_OPS(LT_RUN_R_, K, alg)                                                       \
  static const lt_op lt_ops_##K[] = {HR_LA_STREAMING_OPS(LT_OP_S_, K, alg)                     \
                                         HR_LA_REDUCTION_OPS(LT_OP_R_, K, alg)};               \
  static void *lt_alloc_##K(int n, const geometry_descriptor *g) { return alloc_##K(n, g); }   \
  static void lt_free_##K(void *f) { free_##K((K *)f); }                                       \
  static void *lt_host_##K(const void *f) { return sync_host_##K((const K *)f); }              \
  static void *lt_host_write_##K(void *f) { return host_write_##K((K *)f); }                   \
  static int lt_current_##K(const void *f) { return ((const K *)f)->current; }                 \
  static const geometry_descriptor *lt_geom_##K(const void *f) { return ((const K *)f)->type; }
HR_FIELD_KINDS(LT_KIND_)

/* Sizes (real_bytes, nr, w) are filled in by lt_kinds_init from hr_kind_<kind>. */
#define LT_KIND_ENTRY_(K, site, nlinks, layout, unit, alg)                                     \
  {{#K, sizeof(K), 0, 0, 0, lt_alloc_##K, lt_free_##K, lt_host_##K, lt_host_write_##K,         \
    lt_current_##K, lt_geom_##K},                                                              \
   lt_ops_##K, (int)(sizeof lt_ops_##K / sizeof lt_ops_##K[0]), &hr_kind_##K},
typedef struct {
  lt_kind k;
  const lt_op *ops;
  int nops;
  const hr_field_kind_info *info;
} lt_kind_entry;
static lt_kind_entry lt_kinds[] = {HR_FIELD_KINDS(LT_KIND_ENTRY_)};
#define LT_NKINDS ((int)(sizeof lt_kinds / sizeof lt_kinds[0]))

/* Fill in the sizes from the kinds' hr_field_kind_info. */
static void lt_kinds_init(void) {
  for (int i = 0; i < LT_NKINDS; i++) {
    const hr_field_kind_info *in = lt_kinds[i].info;
    lt_kinds[i].k.w = in->unit_reals;
    lt_kinds[i].k.real_bytes = (int)(in->unit_bytes / (size_t)in->unit_reals);
    lt_kinds[i].k.nr = in->nlinks * in->units * in->unit_reals;
  }
}

/* ------------------------------------------------------------------ the generic test */

/* Field i of an array of fields of kind k. */
static void *lt_field(const lt_kind *k, void *f, int i) { return (char *)f + (size_t)i * k->struct_bytes; }
/* Real j of a host copy. */
static long double lt_get(const lt_kind *k, const void *p, size_t j) {
  return k->real_bytes == 8 ? (long double)((const double *)p)[j] : (long double)((const float *)p)[j];
}
/* Bits of real j of a host copy (for bitwise comparisons and hashes). */
static uint64_t lt_bits(const lt_kind *k, const void *p, size_t j) {
  uint64_t b = 0;
  memcpy(&b, (const char *)p + j * (size_t)k->real_bytes, (size_t)k->real_bytes);
  return b;
}
/* A value in (-1, 1) keyed by the global site and the component (grid independent). */
static double lt_value(long long site, int comp, int field) {
  uint64_t h = (uint64_t)site * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)(comp + 1) * UINT64_C(0xC2B2AE3D27D4EB4F) ^
               (uint64_t)(field + 7) * UINT64_C(0x165667B19E3779F9);
  h ^= h >> 29;
  h *= UINT64_C(0xBF58476D1CE4E5B9);
  h ^= h >> 32;
  return ((double)(h >> 11) / 9007199254740992.0) * 2 - 1;
}
/* Fill the master sites of field f with lt_value(.., field) (host copy becomes current). */
static void lt_fill(const lt_kind *k, void *f, int field) {
  const geometry_descriptor *g = k->geom(f);
  char *p = k->host_write(f);
  _MASTER_FOR(g, ix) {
    const size_t o = (size_t)(ix - g->master_shift) * (size_t)k->nr;
    const long long code = ft_global_code(ix);
    for (int q = 0; q < k->nr; q++) {
      const double v = lt_value(code, q, field);
      if (k->real_bytes == 8)
        ((double *)p)[o + (size_t)q] = v;
      else
        ((float *)p)[o + (size_t)q] = (float)v;
    }
  }
}

/* Copy of the host values of f (nreal reals), malloc'ed. */
static void *lt_save(const lt_kind *k, void *f, size_t nreal) {
  void *s = malloc(nreal * (size_t)k->real_bytes);
  memcpy(s, k->host(f), nreal * (size_t)k->real_bytes);
  return s;
}

/* The site view of the saved inputs x[4] at site offset o (long double copies in buf). */
static void lt_site_at(lt_site *s, const lt_kind *k, void *const x[4], int mask, size_t o,
                       long double *buf, const lt_coefs *c) {
  s->n = k->nr, s->w = k->w;
  for (int i = 0; i < 4; i++) {
    long double *b = buf + (size_t)i * (size_t)k->nr;
    if ((mask >> i) & 1) /* the slots the operation reads */
      for (int q = 0; q < k->nr; q++) b[q] = lt_get(k, x[i], o * (size_t)k->nr + (size_t)q);
    s->x[i] = b;
  }
  const int flt = k->real_bytes == 4;
  for (int i = 0; i < 3; i++) s->c[i] = flt ? (long double)(float)c->c[i] : c->c[i];
  for (int i = 0; i < 2; i++) {
    s->zr[i] = flt ? (long double)(float)hr_creal(c->z[i]) : hr_creal(c->z[i]);
    s->zi[i] = flt ? (long double)(float)hr_cimag(c->z[i]) : hr_cimag(c->z[i]);
  }
}

/* Every operation of kind e on geometry g. */
static void lt_test_kind(const lt_kind_entry *e, const geometry_descriptor *g, const char *gname,
                         const char *lname) {
  const lt_kind *k = &e->k;
  const size_t nreal = field_bytes(e->info, g) / (size_t)k->real_bytes;
  const long double eps = k->real_bytes == 8 ? DBL_EPSILON : FLT_EPSILON;
  const long double tol = 8 * eps;
  void *fs = k->alloc(4, g);
  void *f[4];
  void *x[4]; /* saved inputs */
  for (int i = 0; i < 4; i++) {
    f[i] = lt_field(k, fs, i);
    lt_fill(k, f[i], i);
    x[i] = lt_save(k, f[i], nreal);
  }
  const lt_coefs coef = {{0.7312, -1.2345678901234567, 0.4142135623730950},
                         {hr_cmplx(0.3, -0.9), hr_cmplx(-1.1, 0.25)}};
  const int nb = HR_GPU_ENABLED ? 2 : 1;
  const hr_backend backends[2] = {HR_BACKEND_CPU, HR_BACKEND_GPU};
  long double *buf = malloc(4 * (size_t)k->nr * sizeof(long double));
  void *out[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [backend][written slot 0 / 1] */
  int threads[3];
  const int nthr = lt_nthreads_list(threads);
  char cname[512], vname[256];

  for (int io = 0; io < e->nops; io++) {
    const lt_op *op = &e->ops[io];
    double res[2][2] = {{0, 0}, {0, 0}};
    for (int ib = 0; ib < nb; ib++) {
      hr_backend_set(backends[ib]);
      const int reps = op->nres ? nthr : 1;
      for (int t = 0; t < reps; t++) {
        lt_set_threads(op->nres ? threads[t] : 0);
        for (int i = 0; i < 4; i++) /* restore the inputs (outputs start from them) */
          memcpy(k->host_write(f[i]), x[i], nreal * (size_t)k->real_bytes);
        double r[2] = {0, 0};
        op->run(f, &coef, r);
        if (t == 0) {
          res[ib][0] = r[0], res[ib][1] = r[1];
        } else {
          CHECK(memcmp(r, res[ib], sizeof r) == 0,
                "%s_%s (%s): %d threads give %.17g, 1 thread %.17g (not bitwise equal)",
                op->name, k->name, ib ? "GPU" : "CPU", threads[t], r[0], res[ib][0]);
        }
      }
      lt_set_threads(0);
      if (backends[ib] == HR_BACKEND_GPU)
        CHECK(k->current(f[0]) == HR_COPY_GPU || !((op->mask >> 4) & 1),
              "%s_%s on the GPU: output not current (only) on the device", op->name, k->name);
      for (int sl = 0; sl < 2; sl++) {
        free(out[ib][sl]);
        out[ib][sl] = (op->mask >> (4 + sl)) & 1 ? lt_save(k, f[sl], nreal) : NULL;
      }
    }
    /* Written slots against the references, GPU against CPU bit for bit. */
    long double worst = 0;
    int bitwise = 1;
    uint64_t hash = 0;
    long double red[2] = {0, 0}, mag[2] = {0, 0};
    _MASTER_FOR(g, ix) {
      const size_t o = (size_t)(ix - g->master_shift);
      lt_site s;
      lt_site_at(&s, k, x, op->mask, o, buf, &coef);
      uint64_t h = 0;
      for (int sl = 0; sl < 2; sl++) {
        if (out[0][sl] == NULL) continue;
        for (int q = 0; q < k->nr; q++) {
          long double m;
          const long double ref = op->nres ? op->upd(&s, sl, q, &m) : op->ref(&s, q, &m);
          const size_t j = o * (size_t)k->nr + (size_t)q;
          const long double err = fabsl(lt_get(k, out[0][sl], j) - ref);
          if (err > tol * m && err - tol * m > worst) worst = err - tol * m;
          if (nb == 2) bitwise &= lt_bits(k, out[0][sl], j) == lt_bits(k, out[1][sl], j);
          h = (h ^ lt_bits(k, out[0][sl], j)) * UINT64_C(1099511628211);
        }
      }
      hash += (h ^ (uint64_t)ft_global_code(ix)) >> 24;
      if (op->nres) {
        long double r[2], m[2];
        if (out[0][1] != NULL) { /* cg_update: |r|^2 of the stored new r */
          r[0] = 0;
          for (int q = 0; q < k->nr; q++) {
            const long double v = lt_get(k, out[0][1], o * (size_t)k->nr + (size_t)q);
            r[0] += v * v;
          }
          r[1] = m[1] = 0, m[0] = r[0];
        } else {
          op->red(&s, r, m);
        }
        for (int i = 0; i < 2; i++) red[i] += r[i], mag[i] += m[i];
      }
    }
    CHECK(worst == 0, "%s_%s: differs from the long-double reference by %Lg beyond %Lg x |terms|",
          op->name, k->name, worst, tol);
    CHECK(bitwise, "%s_%s: GPU and CPU results are not bitwise equal", op->name, k->name);
    long long ls = (long long)hash;
    global_sum_long(&ls, 1);
    snprintf(vname, sizeof vname, "exact.%s.%s_%s", gname, op->name, k->name);
    ft_value_line(vname, (double)ls);
    if (op->nres) {
      double v[4] = {(double)red[0], (double)red[1], (double)mag[0], (double)mag[1]};
      global_sum(v, 4);
      for (int i = 0; i < op->nres; i++)
        CHECK(fabs(res[0][i] - v[i]) <= 1e-13 * v[2 + i] + 1e-300,
              "%s_%s part %d: %.17g, reference %.17g (|terms| %g)", op->name, k->name, i,
              res[0][i], v[i], v[2 + i]);
      if (nb == 2)
        CHECK(memcmp(res[0], res[1], sizeof res[0]) == 0,
              "%s_%s: GPU %.17g, CPU %.17g (not bitwise equal)", op->name, k->name, res[1][0],
              res[0][0]);
      snprintf(vname, sizeof vname, "exact.%s.sum.%s_%s", gname, op->name, k->name);
      ft_value_line(vname, res[0][0]);
    }
  }
  hr_backend_set(HR_BACKEND_DEFAULT);
  snprintf(cname, sizeof cname, "%d operations of %s, %s, %s", e->nops, k->name, gname, lname);
  tc_case_end(cname);
  for (int ib = 0; ib < 2; ib++)
    for (int sl = 0; sl < 2; sl++) free(out[ib][sl]);
  for (int i = 0; i < 4; i++) free(x[i]);
  free(buf);
  k->free(fs);
}

/* ------------------------------------------------------------------ precision conversion */

#define LT_CONVERT_(K, K_FLT)                                                                  \
  static void lt_convert_##K(const geometry_descriptor *g) {                                   \
    K *d = alloc_##K(2, g);                                                                    \
    K_FLT *s = alloc_##K_FLT(1, g);                                                            \
    const lt_kind *kd = NULL;                                                                  \
    for (int i = 0; i < LT_NKINDS; i++)                                                        \
      if (strcmp(lt_kinds[i].k.name, #K) == 0) kd = &lt_kinds[i].k;                            \
    lt_fill(kd, &d[0], 0);                                                                     \
    const int nb = HR_GPU_ENABLED ? 2 : 1;                                                     \
    for (int ib = 0; ib < nb; ib++) {                                                          \
      hr_backend_set(ib ? HR_BACKEND_GPU : HR_BACKEND_CPU);                                    \
      to_flt_##K(s, &d[0]);                                                                    \
      to_dbl_##K_FLT(&d[1], s);                                                                \
      const double *x = (const double *)sync_host_##K(&d[0]);                                  \
      const double *y = (const double *)sync_host_##K(&d[1]);                                  \
      const float *fl = (const float *)sync_host_##K_FLT(s);                                   \
      int ok = 1;                                                                              \
      _MASTER_FOR(g, ix) {                                                                     \
        const size_t o = (size_t)(ix - g->master_shift) * (size_t)kd->nr;                      \
        for (int q = 0; q < kd->nr; q++) {                                                     \
          const float r = (float)x[o + (size_t)q];                                             \
          ok &= fl[o + (size_t)q] == r && y[o + (size_t)q] == (double)r;                       \
        }                                                                                      \
      }                                                                                        \
      CHECK(ok, "%s: to_flt_%s then to_dbl_%s is not rounding then widening",                 \
            ib ? "GPU" : "CPU", #K, #K_FLT);                                                   \
    }                                                                                          \
    hr_backend_set(HR_BACKEND_DEFAULT);                                                        \
    free_##K_FLT(s);                                                                           \
    free_##K(d);                                                                               \
  }
HR_FIELD_KIND_PAIRS(LT_CONVERT_)
#define LT_CONVERT_CALL_(K, K_FLT) lt_convert_##K(g);
static void test_conversions(const geometry_descriptor *g, const char *gname, const char *lname) {
  HR_FIELD_KIND_PAIRS(LT_CONVERT_CALL_)
  char cname[512];
  snprintf(cname, sizeof cname, "precision conversions of every kind pair, %s, %s", gname, lname);
  tc_case_end(cname);
}

/* ------------------------------------------------------------------ misuse stops the run */
static jmp_buf error_jump;
static void on_error(int code, const char *message) {
  (void)code, (void)message;
  longjmp(error_jump, 1);
}

static void test_misuse(void) {
  spinor_field *full = alloc_spinor_field_f(2, &glattice);
  spinor_field *even = alloc_spinor_field_f(1, &glat_even);
  hr_error_set_test_handler(on_error);
  int stopped = 0;
  if (setjmp(error_jump) == 0)
    add_spinor_field(&full[0], &full[1], even);
  else
    stopped = strstr(hr_last_error(), "different geometries") != NULL;
  CHECK(stopped, "mixing glattice and glat_even fields did not stop: '%s'", hr_last_error());
  stopped = 0;
  if (setjmp(error_jump) == 0)
    cg_update_spinor_field(&full[0], &full[1], 1.0, &full[1], &full[0]);
  else
    stopped = strstr(hr_last_error(), "different fields") != NULL;
  CHECK(stopped, "cg_update on repeated fields did not stop: '%s'", hr_last_error());
  hr_error_set_test_handler(NULL);
  free_spinor_field_f(even);
  free_spinor_field_f(full);
  tc_case_end("misuse stops with a message");
}

int main(int argc, char **argv) {
  int np[4];
  ft_start(&argc, &argv, np);
  lt_kinds_init();
  char name[256];
  for (int l = 0; l < FT_NLATTICES; l++)
    for (int force = 0; force <= 15; force += 15) {
      if (!ft_setup(ft_lattices[l], np, force, name, sizeof name)) continue;
      for (int gi = 0; gi < 3; gi++) {
        for (int ik = 0; ik < LT_NKINDS; ik++) /* the larger lattice: spinors only (time) */
          if (l == 0 || strncmp(lt_kinds[ik].k.name, "spinor_field", 12) == 0)
            lt_test_kind(&lt_kinds[ik], ft_geometries[gi], ft_geometry_names[gi], name);
        test_conversions(ft_geometries[gi], ft_geometry_names[gi], name);
      }
      if (l == 0 && force == 0) test_misuse();
    }
  return ft_finish("test_linear_algebra");
}
