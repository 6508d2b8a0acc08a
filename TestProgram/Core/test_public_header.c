/* test_public_header.c -- the public headers leave the caller's names alone: this program
 * has its own globals T, X, Y, Z (declared before libhr.h, defined after it) and passes the
 * usual local names (ix, s, z, t, x, y, u, out) to the loop macros; it sets up a geometry,
 * fills a field, sums it with the loop macros and uses the output-first site algebra,
 * checking each result against a direct computation and its own globals unchanged.
 */
int T, X, Y, Z; /* the program's own, declared before any library header */

#include <math.h>
#include <stdio.h>

#include "libhr.h"
#include "../test_cases.h"

int T = 101, X = 102, Y = 103, Z = 104; /* defined after the library's headers */

/* The program's globals are untouched and the library's extents are separate. */
static void test_own_globals(void) {
  CHECK(T == 101 && X == 102 && Y == 103 && Z == 104, "own globals %d %d %d %d", T, X, Y, Z);
  CHECK(LOC_T == LOC_SIZE[0] && LOC_X == LOC_SIZE[1] && LOC_Y == LOC_SIZE[2] &&
            LOC_Z == LOC_SIZE[3],
        "LOC_T..LOC_Z %d %d %d %d", LOC_T, LOC_X, LOC_Y, LOC_Z);
  CHECK(LOC_T * LOC_X * LOC_Y * LOC_Z == VOLUME, "volume %d", VOLUME);
  tc_case_end("own globals T X Y Z beside LOC_T..LOC_Z");
}

/* A field filled with the time coordinate, summed by the loop macros with locals named s
 * and z; ipt with locals t, x, y, z. */
static void test_loops(void) {
  scalar_field *f = alloc_sfield(1, &glattice);
  double *mem = host_write_scalar_field(f);
  (void)mem;
  _MASTER_FOR(&glattice, ix) {
    int c[4];
    local_coordinates(c, ix);
    *_FIELD_AT(f, ix) = (double)c[0];
  }
  sync_host_scalar_field(f);
  double s = 0.;
  _OMP_MASTER_FOR_SUM(&glattice, ix, s) { s += *_FIELD_AT(f, ix); }
  const double expect = (double)LOC_X * LOC_Y * LOC_Z * LOC_T * (LOC_T - 1) / 2.;
  CHECK(s == expect, "sum of t: %g, expected %g", s, expect);
  hr_complex z = 0.;
  _OMP_MASTER_FOR_SUM_COMPLEX(&glattice, ix, z) { z += hr_cmplx(1., *_FIELD_AT(f, ix)); }
  CHECK(hr_creal(z) == VOLUME && hr_cimag(z) == expect, "complex sum %g %g", hr_creal(z),
        hr_cimag(z));
  long bad = 0;
  for (int t = 0; t < LOC_T; t++)
    for (int x = 0; x < LOC_X; x++)
      for (int y = 0; y < LOC_Y; y++)
        for (int zz = 0; zz < LOC_Z; zz++) {
          int c[4];
          local_coordinates(c, ipt(t, x, y, zz));
          bad += c[0] != t || c[1] != x || c[2] != y || c[3] != zz;
        }
  CHECK(bad == 0, "%ld sites where ipt and local_coordinates disagree", bad);
  free_sfield(f);
  tc_case_end("loop macros and ipt with the caller's local names");
}

/* Output-first site algebra: out = U U^+ is the unit matrix, out = 2 * 1 has trace 2 NG. */
static void test_site_algebra(void) {
  hr_rng_stream stream;
  rng_stream_init(&stream, 7, 0, 0);
  suNg u, out, one;
  suNg_random(&u, &stream);
  suNg_unit(&one);
  suNg_mul_dag(&out, &u, &u);
  double dist = 0.;
  for (int i = 0; i < NG * NG; i++) dist += hr_cabs2(out.c[i] - one.c[i]);
  CHECK(sqrt(dist) < 1e-12, "|U U^+ - 1| = %g", sqrt(dist));
  suNg_scale(&out, 2., &one);
  CHECK(fabs(suNg_re_trace(&out) - 2. * NG) < 1e-14, "tr(2 * 1) = %g", suNg_re_trace(&out));
  suNf uf;
  suNg_to_suNf(&uf, &one);
  CHECK(fabs(suNf_re_trace(&uf) - NF) < 1e-14, "tr R(1) = %g", suNf_re_trace(&uf));
  tc_case_end("output-first site algebra");
}

int main(int argc, char *argv[]) {
  tc_start(&argc, &argv);
  geometry_params p;
  geometry_params_default(&p);
  const int glb[4] = {4, 6, 2, 8};
  for (int mu = 0; mu < 4; mu++) p.glb[mu] = glb[mu];
  if (!tc_geometry_init(&p, "test_public_header")) return 77;
  test_own_globals();
  test_loops();
  test_site_algebra();
  return tc_finish("test_public_header");
}
