/* test_random_state.c -- the global generator state: draw numbering, save to the text line
 * "libhr-rng seed=<u64> draw=<u64>", restore and continue with identical numbers, rejection
 * of malformed state text, the draw limit, and global (site-less) streams. */
#include <check.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hr_error.h"
#include "random.h"
#include "../check_suite.h"

/* Write `text` to a temporary file and rewind it. */
static FILE *file_with(const char *text) {
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  rewind(f);
  return f;
}

START_TEST(test_draw_numbering) {
  rng_init(42);
  hr_rng_state st = rng_get_state();
  ck_assert_uint_eq(st.seed, 42);
  ck_assert_uint_eq(st.draw, 0);
  for (uint64_t k = 0; k < 5; ++k) ck_assert_uint_eq(rng_next_draw(), k);
  st = rng_get_state();
  ck_assert_uint_eq(st.draw, 5);
  rng_init(43);
  ck_assert_uint_eq(rng_get_state().draw, 0);
}
END_TEST

START_TEST(test_text_form) {
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  const hr_rng_state st = {UINT64_C(18446744073709551615), UINT64_C(281474976710656)};
  ck_assert_int_eq(rng_write_state(f, st), 0);
  rewind(f);
  char line[128] = "";
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_str_eq(line, "libhr-rng seed=18446744073709551615 draw=281474976710656\n");
  rewind(f);
  hr_rng_state back = {0, 0};
  ck_assert_int_eq(rng_read_state(&back, f), 0);
  ck_assert_uint_eq(back.seed, st.seed);
  ck_assert_uint_eq(back.draw, st.draw);
  fclose(f);
  /* Without the final newline and with a CR LF ending. */
  ck_assert_int_eq(rng_parse_state(&back, "libhr-rng seed=0 draw=7"), 0);
  ck_assert_uint_eq(back.seed, 0);
  ck_assert_uint_eq(back.draw, 7);
  ck_assert_int_eq(rng_parse_state(&back, "libhr-rng seed=3 draw=0\r\n"), 0);
  ck_assert_uint_eq(back.seed, 3);
  ck_assert_uint_eq(back.draw, 0);
}
END_TEST

/* The first words of the streams of the next `ndraws` draws at sites 0..3 and of a global
 * stream, written to out[]. */
static void continue_run(uint32_t *out, int ndraws) {
  int k = 0;
  for (int d = 0; d < ndraws; ++d) {
    const hr_rng_state st = rng_get_state();
    const uint64_t draw = rng_next_draw();
    for (uint64_t site = 0; site < 4; ++site) {
      hr_rng_stream s;
      rng_stream_init(&s, st.seed, draw, site);
      out[k++] = rng_u32(&s);
      out[k++] = rng_u32(&s);
    }
    hr_rng_stream g;
    rng_global_stream(&g);
    out[k++] = rng_u32(&g);
  }
}

START_TEST(test_save_restore_continue) {
  enum { NDRAWS = 6, NWORDS = NDRAWS * 9 };
  rng_init(UINT64_C(987654321987654321));
  uint32_t before[NWORDS], first[NWORDS], second[NWORDS];
  continue_run(before, 3);
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(rng_write_state(f, rng_get_state()), 0);
  continue_run(first, NDRAWS);
  /* Another run in between changes the global state. */
  rng_init(1);
  continue_run(second, 2);
  rewind(f);
  hr_rng_state st;
  ck_assert_int_eq(rng_read_state(&st, f), 0);
  fclose(f);
  rng_set_state(st);
  continue_run(second, NDRAWS);
  ck_assert(memcmp(first, second, sizeof first) == 0);
  /* The continuation is new numbers, not a repeat of those before the save. */
  ck_assert(memcmp(before, first, 3 * 9 * sizeof before[0]) != 0);
}
END_TEST

START_TEST(test_global_stream) {
  rng_init(555);
  (void)rng_next_draw();
  hr_rng_stream g, ref;
  rng_global_stream(&g);
  rng_stream_init(&ref, 555, 1, HR_RNG_NO_SITE);
  for (int i = 0; i < 10; ++i) ck_assert_uint_eq(rng_u32(&g), rng_u32(&ref));
  ck_assert_uint_eq(rng_get_state().draw, 2);
}
END_TEST

START_TEST(test_malformed_rejected) {
  static const char *const bad[] = {
      "",
      "\n",
      "libhr-rng\n",
      "libhr-rng seed=1\n",
      "libhr-rng seed=1 draw=\n",
      "libhr-rng seed= draw=2\n",
      "libhr-rng draw=2 seed=1\n",
      "libhr-rngseed=1 draw=2\n",
      "libhr-rng  seed=1 draw=2\n",
      " libhr-rng seed=1 draw=2\n",
      "libhr-rng seed=1  draw=2\n",
      "libhr-rng seed=1 draw=2 \n",
      "libhr-rng seed=1 draw=2x\n",
      "libhr-rng seed=1 draw=2 extra\n",
      "libhr-rng seed=-1 draw=2\n",
      "libhr-rng seed=+1 draw=2\n",
      "libhr-rng seed=0x10 draw=2\n",
      "libhr-rng seed=01 draw=2\n",
      "libhr-rng seed=1.5 draw=2\n",
      "libhr-rng seed=18446744073709551616 draw=2\n", /* 2^64 */
      "libhr-rng seed=99999999999999999999999 draw=2\n",
      "libhr-rng seed=1 draw=281474976710657\n", /* beyond the 2^48 draws */
      "LIBHR-RNG seed=1 draw=2\n",
      "hirep-rng seed=1 draw=2\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    hr_rng_state st = {11, 22};
    FILE *f = file_with(bad[i]);
    ck_assert_msg(rng_read_state(&st, f) == -1, "accepted malformed line %zu: \"%s\"", i,
                  bad[i]);
    fclose(f);
    ck_assert_uint_eq(st.seed, 11); /* unchanged on failure */
    ck_assert_uint_eq(st.draw, 22);
    ck_assert_msg(rng_parse_state(&st, bad[i]) == -1, "parsed malformed line %zu", i);
    ck_assert_uint_eq(st.seed, 11);
  }
  /* rng_parse_state takes one line only. */
  hr_rng_state two = {11, 22};
  ck_assert_int_eq(rng_parse_state(&two, "libhr-rng seed=1 draw=2\nlibhr-rng seed=3 draw=4\n"),
                   -1);
  /* A line longer than any state line. */
  char long_line[300];
  memset(long_line, '1', sizeof long_line);
  memcpy(long_line, "libhr-rng seed=", 15);
  long_line[sizeof long_line - 1] = '\0';
  hr_rng_state st = {11, 22};
  FILE *f = file_with(long_line);
  ck_assert_int_eq(rng_read_state(&st, f), -1);
  fclose(f);
  /* The good line is accepted (the rejections above are not trivially true). */
  f = file_with("libhr-rng seed=1 draw=2\n");
  ck_assert_int_eq(rng_read_state(&st, f), 0);
  ck_assert_uint_eq(st.seed, 1);
  ck_assert_uint_eq(st.draw, 2);
  fclose(f);
}
END_TEST

static jmp_buf error_jump;
static int error_code_seen;
static void catch_error(int code, const char *message) {
  (void)message;
  error_code_seen = code;
  longjmp(error_jump, 1);
}

START_TEST(test_draw_limit) {
  const hr_rng_state last = {9, HR_RNG_MAX_DRAW};
  rng_set_state(last);
  ck_assert_uint_eq(rng_next_draw(), HR_RNG_MAX_DRAW);
  ck_assert_uint_eq(rng_get_state().draw, HR_RNG_MAX_DRAW + 1);
  hr_error_set_test_handler(catch_error);
  error_code_seen = -1;
  if (setjmp(error_jump) == 0) {
    (void)rng_next_draw();
    hr_error_set_test_handler(NULL);
    ck_abort_msg("rng_next_draw went past the last draw");
  }
  hr_error_set_test_handler(NULL);
  ck_assert_int_eq(error_code_seen, HR_EXIT_INTERNAL);
  ck_assert_ptr_nonnull(strstr(hr_last_error(), "draws"));
  /* A state beyond the exhausted one is refused too. */
  hr_error_set_test_handler(catch_error);
  error_code_seen = -1;
  if (setjmp(error_jump) == 0) {
    const hr_rng_state beyond = {9, HR_RNG_MAX_DRAW + 2};
    rng_set_state(beyond);
    hr_error_set_test_handler(NULL);
    ck_abort_msg("rng_set_state accepted a draw counter beyond 2^48");
  }
  hr_error_set_test_handler(NULL);
  ck_assert_int_eq(error_code_seen, HR_EXIT_INTERNAL);
  ck_assert_uint_eq(rng_get_state().draw, HR_RNG_MAX_DRAW + 1);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("random_state");
  TCase *tc = tcase_create("state");
  tcase_add_test(tc, test_draw_numbering);
  tcase_add_test(tc, test_text_form);
  tcase_add_test(tc, test_save_restore_continue);
  tcase_add_test(tc, test_global_stream);
  tcase_add_test(tc, test_malformed_rejected);
  tcase_add_test(tc, test_draw_limit);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
