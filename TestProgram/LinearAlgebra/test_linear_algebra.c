/* test_linear_algebra.c -- the linear algebra of linear_algebra.h on the process grid given
 * on the command line (run by run_grids.sh on several grids and thread counts), for two
 * lattices with and without forced halos, on glattice, glat_even and glat_odd, in double and
 * single precision:
 *   every streaming operation on the CPU path matches a long-double reference computed here
 *     from the same inputs (to 8 units of roundoff of the field precision times the sum of
 *     the magnitudes of the terms), and in GPU builds the GPU path matches the CPU path (to
 *     1e-15 relative in double, 1e-6 in single) and leaves its output current on the device;
 *   every reduction matches a long-double reference (1e-13 of the sum of magnitudes of the
 *     terms) on both paths, gives bitwise the same result with 1, 2 and 3 OpenMP threads,
 *     and the two paths agree;
 *   the fused CG update gives x + a p, r - a q and |r|^2 of the new r;
 *   double <-> single conversions round / widen exactly;
 *   fields on different geometries (and cg_update on repeated fields) stop with a message.
 * Results are printed as VALUE lines that run_grids.sh compares between process grids
 * (reductions are exact sums, reduction.h, and bitwise equal as well: test_reduction). */
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
static void lt_set_threads(int n) {
#ifdef _OPENMP
  omp_set_num_threads(n);
#else
  (void)n;
#endif
}

#define LT_FIELD spinor_field
#define LT_REAL double
#define LT_TAG _f
#define LT_EPS DBL_EPSILON
#define LT_GPU_TOL 1e-15
#include "la_test_template.h"

#define LT_FIELD spinor_field_flt
#define LT_REAL float
#define LT_TAG _f_flt
#define LT_EPS FLT_EPSILON
#define LT_GPU_TOL 1e-6
#include "la_test_template.h"

static void test_conversions(const geometry_descriptor *g, const char *gname, const char *lname) {
  spinor_field *d = alloc_spinor_field_f(2, g);
  spinor_field_flt *s = alloc_spinor_field_f_flt(1, g);
  gaussian_spinor_field(&d[0]);
  const int nb = HR_GPU_ENABLED ? 2 : 1;
  for (int ib = 0; ib < nb; ib++) {
    hr_backend_set(ib ? HR_BACKEND_GPU : HR_BACKEND_CPU);
    to_flt_spinor_field(s, &d[0]);
    to_dbl_spinor_field_flt(&d[1], s);
    const suNf_spinor *x = sync_host_spinor_field(&d[0]), *y = sync_host_spinor_field(&d[1]);
    const suNf_spinor_flt *f = sync_host_spinor_field_flt(s);
    int ok = 1;
    _MASTER_FOR(g, ix) {
      const size_t o = (size_t)(ix - g->master_shift) * 8 * NF;
      for (int q = 0; q < 8 * NF; q++) {
        const float r = (float)((const double *)x)[o + q];
        ok &= ((const float *)f)[o + q] == r && ((const double *)y)[o + q] == (double)r;
      }
    }
    CHECK(ok, "%s: double -> single -> double is not rounding then widening",
          ib ? "GPU" : "CPU");
  }
  hr_backend_set(HR_BACKEND_DEFAULT);
  free_spinor_field_f_flt(s);
  free_spinor_field_f(d);
  char cname[512];
  snprintf(cname, sizeof cname, "precision conversion, %s, %s", gname, lname);
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
  rng_init(4242);
  char name[256];
  for (int l = 0; l < FT_NLATTICES; l++)
    for (int force = 0; force <= 15; force += 15) {
      if (!ft_setup(ft_lattices[l], np, force, name, sizeof name)) continue;
      for (int gi = 0; gi < 3; gi++) {
        lt_test_f(ft_geometries[gi], ft_geometry_names[gi], name);
        lt_test_f_flt(ft_geometries[gi], ft_geometry_names[gi], name);
        test_conversions(ft_geometries[gi], ft_geometry_names[gi], name);
      }
      if (l == 0 && force == 0) test_misuse();
    }
  return ft_finish("test_linear_algebra");
}
