/* test_random_fields.c -- random fields on the process grid given on the command line (run
 * by run_grids.sh on several grids and thread counts):
 *   gaussian_spinor_field, random_suNg_field and gaussian_momenta equal, bit for bit, the
 *     values recomputed here site by site from the stream (seed, draw, global index) of
 *     random_fields.h (so they are the same on every grid, thread count and backend); a
 *     checksum of the bits keyed by global coordinates ("VALUE exact.*") must also agree
 *     between the runs of run_grids.sh;
 *   the single-precision spinor equals the rounded double one; the glat_even / glat_odd
 *     fields equal the even / odd sites of the glattice field of the same draw;
 *   after a trip through the device copy (GPU builds) the fields are unchanged;
 *   statistics: Gaussian spinor components have mean 0 and variance 1/2 per real component,
 *     momenta mean 0 and variance 1 (5 standard errors); links are in SU(N). */
#include <math.h>

#include "field_test.h"

/* Order-independent 64-bit checksum of the bits of v keyed by (global code, position). */
static uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= UINT64_C(0xc4ceb9fe1a85ec53);
  x ^= x >> 33;
  return x;
}
static uint64_t bits_of(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}
/* Global checksum (sum over processes of 32-bit pieces, exact in long long). */
static double global_checksum(uint64_t local_hi_lo[2]) {
  long long s[2] = {(long long)local_hi_lo[0], (long long)local_hi_lo[1]};
  global_sum_long(s, 2);
  return (double)(((uint64_t)s[0] << 16) ^ (uint64_t)s[1]);
}
static void add_to_checksum(uint64_t sum[2], long long code, int pos, double v) {
  const uint64_t h = mix64(bits_of(v) ^ mix64((uint64_t)code * 1024u + (uint64_t)pos));
  sum[0] += h >> 40; /* 24-bit pieces: the sums stay exact for any test lattice */
  sum[1] += (h >> 16) & 0xFFFFFF;
}

static void test_spinor(const char *name) {
  rng_init(20240611);
  const hr_rng_state st = rng_get_state();
  spinor_field *s = alloc_spinor_field_f(1, &glattice);
  gaussian_spinor_field(s);
  const int drawn_on = hr_backend_current() == HR_BACKEND_GPU ? HR_COPY_GPU : HR_COPY_HOST;
  CHECK(s->current == drawn_on, "gaussian_spinor_field: only the copy of the backend (%d) must "
        "be current, not %d", drawn_on, s->current);
  sync_host_spinor_field(s); /* the GPU path's numbers are checked against the streams too */
  CHECK(rng_get_state().draw == st.draw + 1, "one draw per field");
  if (HR_GPU_ENABLED) { /* a trip through the device must not change a bit */
    gpu_write_spinor_field(s);
    memset(s->ptr, 0, field_bytes(&hr_kind_spinor_field, &glattice));
    sync_host_spinor_field(s);
  }
  const double scale = sqrt(0.5);
  int ok = 1;
  uint64_t sum[2] = {0, 0};
  double stats[3] = {0, 0, 0}; /* sum, sum of squares, count */
  _MASTER_FOR(&glattice, ix) {
    hr_rng_stream r;
    rng_stream_init(&r, st.seed, st.draw, global_site_index(ix));
    const suNf_spinor *p = _FIELD_AT(s, ix);
    const double *x = (const double *)p;
    for (int q = 0; q < 8 * NF; q++) {
      ok &= x[q] == scale * rng_gaussian(&r);
      add_to_checksum(sum, ft_global_code(ix), q, x[q]);
      stats[0] += x[q];
      stats[1] += x[q] * x[q];
      stats[2] += 1;
    }
  }
  CHECK(ok, "gaussian spinor differs from the stream of its global site");
  CHECK((long long)global_site_index(glattice.master_start[0]) == ft_global_code(glattice.master_start[0]),
        "global_site_index");
  ft_value_line("exact.checksum.gaussian_spinor", global_checksum(sum));
  global_sum(stats, 3);
  const double mean = stats[0] / stats[2], var = stats[1] / stats[2] - mean * mean;
  CHECK(fabs(mean) < 5 * sqrt(0.5 / stats[2]), "mean %g of %g values", mean, stats[2]);
  CHECK(fabs(var - 0.5) < 5 * sqrt(2 * 0.25 / stats[2]), "variance %g, expected 0.5", var);
  ft_value_line("stats.gaussian_spinor.variance", var);

  /* Single precision: the same numbers rounded. */
  rng_set_state(st);
  spinor_field_flt *sf = alloc_spinor_field_f_flt(1, &glattice);
  gaussian_spinor_field_flt(sf);
  sync_host_spinor_field_flt(sf);
  ok = 1;
  _MASTER_FOR(&glattice, ix) {
    const double *x = (const double *)_FIELD_AT(s, ix);
    const float *y = (const float *)_FIELD_AT(sf, ix);
    for (int q = 0; q < 8 * NF; q++) ok &= y[q] == (float)x[q];
  }
  CHECK(ok, "single-precision Gaussian spinor is not the rounded double one");
  free_spinor_field_f_flt(sf);

  /* Even and odd geometries: the restriction of the full field. */
  for (int par = 1; par <= 2; par++) {
    const geometry_descriptor *g = ft_geometries[par];
    rng_set_state(st);
    spinor_field *e = alloc_spinor_field_f(1, g);
    gaussian_spinor_field(e);
    sync_host_spinor_field(e);
    ok = 1;
    _MASTER_FOR(g, ix) ok &= memcmp(_FIELD_AT(e, ix), _FIELD_AT(s, ix), sizeof(suNf_spinor)) == 0;
    CHECK(ok, "%s field differs from the %s sites of the glattice field",
          ft_geometry_names[par], par == 1 ? "even" : "odd");
    free_spinor_field_f(e);
  }
  free_spinor_field_f(s);
  tc_case_end(name);
}

static void test_gauge(const char *name) {
  rng_init(77);
  const hr_rng_state st = rng_get_state();
  suNg_field *u = alloc_gfield(&glattice);
  random_suNg_field(u);
  if (HR_GPU_ENABLED) {
    gpu_write_suNg_field(u);
    memset(u->ptr, 0, field_bytes(&hr_kind_suNg_field, &glattice));
    sync_host_suNg_field(u);
  }
  int ok = 1, in_group = 1;
  uint64_t sum[2] = {0, 0};
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      hr_rng_stream r;
      rng_stream_init(&r, st.seed, st.draw, 4 * global_site_index(ix) + (uint64_t)mu);
      suNg want;
      suNg_random(&want, &r);
      const suNg *U = _4FIELD_AT(u, ix, mu);
      ok &= memcmp(U, &want, sizeof want) == 0;
      suNg uu;
      suNg_mul_dag(&uu, U, U);
      double dev = 0;
      for (int i = 0; i < NG; i++)
        for (int j = 0; j < NG; j++) dev += hr_cabs(uu.c[i * NG + j] - (i == j ? 1.0 : 0.0));
      dev += hr_cabs(suNg_det(U) - 1.0);
      in_group &= dev < 1e-12;
      const double *x = (const double *)U;
      for (int q = 0; q < 2 * NG * NG; q++) add_to_checksum(sum, ft_global_code(ix), 64 * mu + q, x[q]);
    }
  }
  CHECK(ok, "random gauge link differs from the stream of its global link");
  CHECK(in_group, "random gauge links are not in SU(%d)", NG);
  ft_value_line("exact.checksum.random_suNg", global_checksum(sum));
  free_gfield(u);

  rng_init(78);
  const hr_rng_state st2 = rng_get_state();
  suNg_av_field *m = alloc_avfield(&glattice);
  gaussian_momenta(m);
  sync_host_suNg_av_field(m);
  ok = 1;
  double stats[3] = {0, 0, 0};
  uint64_t sum2[2] = {0, 0};
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      hr_rng_stream r;
      rng_stream_init(&r, st2.seed, st2.draw, 4 * global_site_index(ix) + (uint64_t)mu);
      const suNg_algebra_vector *v = _4FIELD_AT(m, ix, mu);
      for (int a = 0; a < NG * NG - 1; a++) {
        ok &= v->c[a] == rng_gaussian(&r);
        stats[0] += v->c[a];
        stats[1] += v->c[a] * v->c[a];
        stats[2] += 1;
        add_to_checksum(sum2, ft_global_code(ix), 256 * mu + a, v->c[a]);
      }
    }
  }
  CHECK(ok, "momentum differs from the stream of its global link");
  global_sum(stats, 3);
  const double mean = stats[0] / stats[2], var = stats[1] / stats[2] - mean * mean;
  CHECK(fabs(mean) < 5 * sqrt(1.0 / stats[2]), "momenta mean %g", mean);
  CHECK(fabs(var - 1) < 5 * sqrt(2.0 / stats[2]), "momenta variance %g, expected 1", var);
  ft_value_line("exact.checksum.gaussian_momenta", global_checksum(sum2));
  free_avfield(m);
  tc_case_end(name);
}

int main(int argc, char **argv) {
  int np[4];
  ft_start(&argc, &argv, np);
  char name[256], cname[512];
  for (int l = 0; l < FT_NLATTICES; l++) {
    if (!ft_setup(ft_lattices[l], np, 0, name, sizeof name)) continue;
    snprintf(cname, sizeof cname, "Gaussian spinor fields, %s", name);
    test_spinor(cname);
    snprintf(cname, sizeof cname, "random gauge field and momenta, %s", name);
    test_gauge(cname);
  }
  return ft_finish("test_random_fields");
}
