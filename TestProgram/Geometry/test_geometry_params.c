/* test_geometry_params.c -- unit tests (Check) of the lattice parameters: reading GLB_*,
 * NP_*, PB_* from an input file with their defaults, rejection of bad lattices and grids
 * with messages that name the key and the remedy (geometry_check_params), the fatal stop
 * of geometry_init (exit code HR_EXIT_SETUP), and the single-process geometry sizes. */
#include <check.h>
#include <setjmp.h>
#include <string.h>

#include "communications.h"
#include "halo_exchange.h"
#include "geometry.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"
#include "../check_suite.h"

static geometry_params make(int t, int x, int y, int z, int nt, int nx, int ny, int nz) {
  geometry_params p;
  geometry_params_default(&p);
  int glb[4] = {t, x, y, z}, np[4] = {nt, nx, ny, nz};
  for (int mu = 0; mu < 4; mu++) p.glb[mu] = glb[mu], p.np[mu] = np[mu];
  return p;
}

/* The message of geometry_check_params must contain every string of `parts`. */
static void expect_reject(const geometry_params *p, int nranks, const char *const *parts) {
  char buf[1024];
  const char *msg = geometry_check_params(p, nranks, buf, sizeof buf);
  ck_assert_msg(msg != NULL, "parameters accepted, expected a rejection mentioning '%s'", parts[0]);
  for (int i = 0; parts[i] != NULL; i++)
    ck_assert_msg(strstr(msg, parts[i]) != NULL, "message '%s' lacks '%s'", msg, parts[i]);
}

START_TEST(test_valid_params) {
  char buf[512];
  geometry_params p = make(8, 4, 4, 4, 1, 1, 1, 1);
  ck_assert_ptr_null(geometry_check_params(&p, 1, buf, sizeof buf));
  p = make(8, 12, 4, 8, 4, 1, 1, 1);
  ck_assert_int_eq(geometry_check_params(&p, 4, buf, sizeof buf) == NULL, HR_WITH_MPI);
  p = make(2, 2, 2, 2, 1, 1, 1, 1);
  ck_assert_ptr_null(geometry_check_params(&p, 1, buf, sizeof buf));
}
END_TEST

START_TEST(test_bad_extents) {
  geometry_params p = make(8, 5, 4, 4, 1, 1, 1, 1);
  expect_reject(&p, 1, (const char *const[]){"GLB_X = 5", "even", NULL});
  p = make(0, 4, 4, 4, 1, 1, 1, 1);
  expect_reject(&p, 1, (const char *const[]){"GLB_T = 0", NULL});
  p = make(8, 4, 4, 4, 1, 1, 0, 1);
  expect_reject(&p, 1, (const char *const[]){"NP_Y = 0", ">= 1", NULL});
  p = make(8, 4, 4, 4, 1, 1, 1, 1);
  p.pb[3] = 0;
  expect_reject(&p, 1, (const char *const[]){"PB_Z = 0", "between 1 and the local extent 4", NULL});
  p.pb[3] = 5;
  expect_reject(&p, 1, (const char *const[]){"PB_Z = 5", NULL});
}
END_TEST

START_TEST(test_bad_grids) {
#if HR_WITH_MPI
  geometry_params p = make(6, 4, 4, 4, 4, 1, 1, 1);
  expect_reject(&p, 4, (const char *const[]){"GLB_T = 6 is not divisible by NP_T = 4", "1, 3", NULL});
  p = make(12, 4, 4, 4, 4, 1, 1, 1);
  expect_reject(&p, 4, (const char *const[]){"GLB_T/NP_T = 12/4 = 3 is odd", "1, 2, 3, 6", NULL});
  p = make(8, 8, 4, 4, 2, 2, 1, 1);
  expect_reject(&p, 2, (const char *const[]){"2x2x1x1 needs 4 MPI processes", "this run has 2", "mpirun -np 4", NULL});
  p = make(8, 8, 4, 4, 1, 1, 1, 1);
  expect_reject(&p, 2, (const char *const[]){"needs 1 MPI process,", "this run has 2", NULL});
  p = make(8, 4, 4, 4, 1, 1, 1, 4);
  expect_reject(&p, 4, (const char *const[]){"GLB_Z/NP_Z = 4/4 = 1 is odd", "NP_Z from 1, 2", NULL});
#else
  geometry_params p = make(8, 4, 4, 4, 2, 1, 1, 1);
  expect_reject(&p, 1, (const char *const[]){"NP_T = 2", "no MPI", "--enable-mpi", NULL});
#endif
}
END_TEST

/* Fatal errors are caught through the test handler of hr_error.h. */
static jmp_buf jump;
static int caught_code;
static void handler(int code, const char *message) {
  (void)message;
  caught_code = code;
  longjmp(jump, 1);
}

START_TEST(test_init_fatal) {
  geometry_params p = make(8, 5, 4, 4, 1, 1, 1, 1);
  caught_code = -1;
  hr_error_set_test_handler(handler);
  if (setjmp(jump) == 0) {
    geometry_init(&p);
    hr_error_set_test_handler(NULL);
    ck_abort_msg("geometry_init accepted GLB_X = 5");
  }
  hr_error_set_test_handler(NULL);
  ck_assert_int_eq(caught_code, HR_EXIT_SETUP);
  ck_assert_msg(strstr(hr_last_error(), "GLB_X = 5") != NULL, "message: %s", hr_last_error());
}
END_TEST

START_TEST(test_read_input) {
  char err[512];
  input_file *in = input_parse_string("geo.in", "GLB_T = 8\nGLB_X = 4\nGLB_Y = 6\nGLB_Z = 2\nPB_X = 1\n",
                                      err, sizeof err);
  ck_assert_msg(in != NULL, "%s", err);
  geometry_params p;
  ck_assert_int_eq(geometry_read_input_keys(&p, in, err, sizeof err), 0);
  const int glb[4] = {8, 4, 6, 2}, pb[4] = {2, 1, 2, 2};
  for (int mu = 0; mu < 4; mu++) {
    ck_assert_int_eq(p.glb[mu], glb[mu]);
    ck_assert_int_eq(p.np[mu], 1);
    ck_assert_int_eq(p.pb[mu], pb[mu]);
    ck_assert_int_eq(p.force_halo[mu], 0);
  }
  ck_assert_int_eq(input_check_unused(in, err, sizeof err), 0);
  input_free(in);

  in = input_parse_string("geo.in", "GLB_T = 8\nGLB_X = 4\nGLB_Z = 4\n", err, sizeof err);
  ck_assert_ptr_nonnull(in);
  ck_assert_int_eq(geometry_read_input_keys(&p, in, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "GLB_Y") != NULL, "message: %s", err);
  input_free(in);
}
END_TEST

/* Single-process geometry without halo: pieces, sizes, periodic neighbours. */
START_TEST(test_single_process_sizes) {
  geometry_params p = make(4, 6, 2, 8, 1, 1, 1, 1);
  geometry_init(&p);
  ck_assert_int_eq(VOLUME, 4 * 6 * 2 * 8);
  ck_assert_int_eq(LOC_T * LOC_X * LOC_Y * LOC_Z, VOLUME);
  ck_assert_int_eq(glattice.local_master_pieces, 2);
  ck_assert_int_eq(glattice.inner_master_pieces, 2);
  ck_assert_int_eq(glattice.nbuffers_gauge, 0);
  ck_assert_int_eq(glattice.ncopies_gauge, 0);
  ck_assert_int_eq(glattice.gsize_spinor, VOLUME);
  ck_assert_int_eq(glattice.gsize_gauge, VOLUME);
  ck_assert_int_eq(glat_odd.master_shift, VOLUME / 2);
  ck_assert_int_eq(glat_even.local_master_pieces, 1);
  ck_assert_int_eq(glat_odd.gsize_spinor, VOLUME / 2);
  ck_assert_int_eq(glattice.master_start[1], VOLUME / 2);
  ck_assert_int_eq(glattice.master_end[0], VOLUME / 2 - 1);
  /* Periodic wrap: 6 steps up in x come back. */
  int ix = ipt(1, 2, 0, 3), jx = ix;
  for (int s = 0; s < 6; s++) jx = iup(jx, 1);
  ck_assert_int_eq(jx, ix);
  ck_assert_int_eq(idn(ipt(0, 0, 0, 0), 0), ipt(3, 0, 0, 0));
  ck_assert_int_eq(iup(ipt(0, 0, 1, 7), 3), ipt(0, 0, 1, 0));
  ck_assert_int_eq(iup(ipt(0, 0, 1, 7), 2), ipt(0, 0, 0, 7));
  /* The blocking form and the request pool with nothing to send. */
  double f[4 * 6 * 2 * 8];
  for (int i = 0; i < VOLUME; i++) f[i] = i;
  sendrecv_site_field(&glattice, f, 1);
  for (int i = 0; i < VOLUME; i++) ck_assert(f[i] == i);
  ck_assert_uint_eq(sendrecv_bytes(&glattice, HR_LAYOUT_GAUGE, 8), 0);
  geometry_finalize();
  ck_assert_int_eq(geometry_initialized(), 0);
}
END_TEST

int main(int argc, char **argv) {
#if HR_WITH_MPI
  MPI_Init(&argc, &argv);
#else
  (void)argc, (void)argv;
#endif
  logger_set_level("default", 0);
  Suite *s = suite_create("geometry parameters");
  TCase *tc = tcase_create("params");
  tcase_add_test(tc, test_valid_params);
  tcase_add_test(tc, test_bad_extents);
  tcase_add_test(tc, test_bad_grids);
  tcase_add_test(tc, test_init_fatal);
  tcase_add_test(tc, test_read_input);
  tcase_add_test(tc, test_single_process_sizes);
  suite_add_tcase(s, tc);
  const int rc = test_run_suite(s);
#if HR_WITH_MPI
  MPI_Finalize();
#endif
  return rc;
}
