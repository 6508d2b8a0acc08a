/* test_input_keys.c -- typed reading of keys through tables: full validation of integers,
 * numbers, booleans, choices and strings, defaults, required keys, unknown keys and blocks
 * with suggestions (also for a misspelt required key), ranges of numeric keys, errors in
 * values reported at the line of their key (input_fail), prefix iteration, exactly one of
 * alternative keys (input_read_one_of_keys), the fatal-error wrappers, and the log of the
 * keys used (input_finish). */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../Core/catch_error.h"
#include "input_file.h"
#include "logger.h"
#include "../check_suite.h"

static char err[2048];

static input_file *parse_ok(const char *text) {
  err[0] = '\0';
  input_file *in = input_parse_string("run.in", text, err, sizeof err);
  ck_assert_msg(in != NULL, "unexpected error: %s", err);
  return in;
}

/* Read one key of `type` whose value is written `value`; returns 0 or -1 (message in err). */
static int read_one(input_type type, const char *choices, const char *value, void *target) {
  char text[1024];
  snprintf(text, sizeof text, "// line 1\nkey = %s\n", value);
  input_file *in = parse_ok(text);
  input_key keys[] = {{"key", type, target, NULL, choices, "a test key"}, INPUT_KEYS_END};
  err[0] = '\0';
  int rc = input_read_keys(in, NULL, keys, err, sizeof err);
  input_free(in);
  return rc;
}

/* The value must be rejected with "run.in:2: key: <reason>". */
static void expect_bad_value(input_type type, const char *choices, const char *value,
                             const char *reason) {
  char target[INPUT_STRING_MAX];
  memset(target, 0x5a, sizeof target);
  ck_assert_msg(read_one(type, choices, value, target) != 0, "value '%s' accepted", value);
  char expected[2048];
  snprintf(expected, sizeof expected, "run.in:2: key: %s", reason);
  ck_assert_str_eq(err, expected);
}

static int read_int(const char *value) {
  int v = -12345;
  ck_assert_msg(read_one(INPUT_INT, NULL, value, &v) == 0, "%s", err);
  return v;
}

START_TEST(test_int_values) {
  ck_assert_int_eq(read_int("8"), 8);
  ck_assert_int_eq(read_int("-3"), -3);
  ck_assert_int_eq(read_int("+5"), 5);
  ck_assert_int_eq(read_int("007"), 7);
  ck_assert_int_eq(read_int("2147483647"), INT_MAX);
  ck_assert_int_eq(read_int("-2147483648"), INT_MIN);
  ck_assert_int_eq(read_int("12   // comment"), 12);
  expect_bad_value(INPUT_INT, NULL, "eight", "malformed value 'eight' (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "8x", "malformed value '8x' (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "8 9", "malformed value '8 9' (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "8.0", "malformed value '8.0' (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "1e3", "malformed value '1e3' (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "0x10", "malformed value '0x10' (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "-", "malformed value '-' (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "", "missing value (expected an integer)");
  expect_bad_value(INPUT_INT, NULL, "2147483648",
                   "value '2147483648' out of range (expected an integer from -2147483648 to "
                   "2147483647)");
  expect_bad_value(INPUT_INT, NULL, "-2147483649",
                   "value '-2147483649' out of range (expected an integer from -2147483648 to "
                   "2147483647)");
  expect_bad_value(INPUT_INT, NULL, "99999999999999999999999",
                   "value '99999999999999999999999' out of range (expected an integer from "
                   "-2147483648 to 2147483647)");
}
END_TEST

START_TEST(test_long_values) {
  long long v = 0;
  ck_assert_int_eq(read_one(INPUT_LONG, NULL, "9223372036854775807", &v), 0);
  ck_assert(v == LLONG_MAX);
  ck_assert_int_eq(read_one(INPUT_LONG, NULL, "-9223372036854775808", &v), 0);
  ck_assert(v == LLONG_MIN);
  ck_assert_int_eq(read_one(INPUT_LONG, NULL, "123456789012", &v), 0);
  ck_assert(v == 123456789012LL);
  expect_bad_value(INPUT_LONG, NULL, "9223372036854775808",
                   "value '9223372036854775808' out of range (expected an integer from "
                   "-9223372036854775808 to 9223372036854775807)");
  expect_bad_value(INPUT_LONG, NULL, "12seed", "malformed value '12seed' (expected an integer)");
}
END_TEST

START_TEST(test_double_values) {
  const struct {
    const char *text;
    double value;
  } good[] = {{"5.6", 5.6}, {"-1e-3", -1e-3}, {".5", 0.5}, {"1E+2", 100.0},
              {"3", 3.0},   {"-0.0", -0.0},   {"1e-320", 1e-320}};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    double v = -999;
    ck_assert_msg(read_one(INPUT_DOUBLE, NULL, good[i].text, &v) == 0, "%s", err);
    ck_assert_msg(v == good[i].value, "'%s' read as %.17g", good[i].text, v);
  }
  expect_bad_value(INPUT_DOUBLE, NULL, "abc", "malformed value 'abc' (expected a number)");
  expect_bad_value(INPUT_DOUBLE, NULL, "5.6.7", "malformed value '5.6.7' (expected a number)");
  expect_bad_value(INPUT_DOUBLE, NULL, "5,6", "malformed value '5,6' (expected a number)");
  expect_bad_value(INPUT_DOUBLE, NULL, "1.0 x", "malformed value '1.0 x' (expected a number)");
  expect_bad_value(INPUT_DOUBLE, NULL, "", "missing value (expected a number)");
  expect_bad_value(INPUT_DOUBLE, NULL, "1e400",
                   "value '1e400' is not a finite number (expected a number)");
  expect_bad_value(INPUT_DOUBLE, NULL, "inf",
                   "value 'inf' is not a finite number (expected a number)");
  expect_bad_value(INPUT_DOUBLE, NULL, "nan",
                   "value 'nan' is not a finite number (expected a number)");
}
END_TEST

START_TEST(test_bool_values) {
  const char *truths[] = {"true", "yes", "on", "1", "TRUE", "Yes", "ON"};
  const char *falsities[] = {"false", "no", "off", "0", "False", "NO", "Off"};
  for (int i = 0; i < 7; i++) {
    int v = -1;
    ck_assert_int_eq(read_one(INPUT_BOOL, NULL, truths[i], &v), 0);
    ck_assert_int_eq(v, 1);
    v = -1;
    ck_assert_int_eq(read_one(INPUT_BOOL, NULL, falsities[i], &v), 0);
    ck_assert_int_eq(v, 0);
  }
  expect_bad_value(INPUT_BOOL, NULL, "maybe",
                   "malformed value 'maybe' (expected true/false, yes/no, on/off or 1/0)");
  expect_bad_value(INPUT_BOOL, NULL, "2",
                   "malformed value '2' (expected true/false, yes/no, on/off or 1/0)");
  expect_bad_value(INPUT_BOOL, NULL, "", "missing value (expected true/false, yes/no, on/off or 1/0)");
}
END_TEST

START_TEST(test_choice_values) {
  const char *choices = "periodic|antiperiodic|open";
  int v = -1;
  ck_assert_int_eq(read_one(INPUT_CHOICE, choices, "periodic", &v), 0);
  ck_assert_int_eq(v, 0);
  ck_assert_int_eq(read_one(INPUT_CHOICE, choices, "antiperiodic", &v), 0);
  ck_assert_int_eq(v, 1);
  ck_assert_int_eq(read_one(INPUT_CHOICE, choices, "open", &v), 0);
  ck_assert_int_eq(v, 2);
  expect_bad_value(INPUT_CHOICE, choices, "opne",
                   "invalid value 'opne' (expected one of: periodic, antiperiodic, open; did "
                   "you mean 'open'?)");
  expect_bad_value(INPUT_CHOICE, choices, "twisted",
                   "invalid value 'twisted' (expected one of: periodic, antiperiodic, open)");
  expect_bad_value(INPUT_CHOICE, choices, "peri",
                   "invalid value 'peri' (expected one of: periodic, antiperiodic, open)");
  expect_bad_value(INPUT_CHOICE, choices, "",
                   "missing value (expected one of: periodic, antiperiodic, open)");
}
END_TEST

START_TEST(test_string_values) {
  char v[INPUT_STRING_MAX];
  ck_assert_int_eq(read_one(INPUT_STRING, NULL, "  out/conf  name ", v), 0);
  ck_assert_str_eq(v, "out/conf  name");
  char longest[INPUT_STRING_MAX + 10];
  memset(longest, 'a', sizeof longest);
  longest[INPUT_STRING_MAX - 1] = '\0';
  ck_assert_int_eq(read_one(INPUT_STRING, NULL, longest, v), 0);
  ck_assert_str_eq(v, longest);
  longest[INPUT_STRING_MAX - 1] = 'a';
  longest[INPUT_STRING_MAX] = '\0';
  char *target = malloc(INPUT_STRING_MAX);
  ck_assert_int_ne(read_one(INPUT_STRING, NULL, longest, target), 0);
  free(target);
  char expected[128];
  snprintf(expected, sizeof expected, "run.in:2: key: value too long (%d characters; at most %d)",
           INPUT_STRING_MAX, INPUT_STRING_MAX - 1);
  ck_assert_str_eq(err, expected);
}
END_TEST

/* A small program's key table, read from a good file. */
START_TEST(test_good_file_with_defaults) {
  input_file *in = parse_ok(
      "// lattice\n"
      "GLB_T = 16\n"
      "GLB_X = 8\n"
      "beta = 5.6\n"
      "gauge start = random\n"
      "bc_t = antiperiodic\n"
      "seed = 123456789012\n");
  int T = 0, X = 0, Y = 0, measure = -1, bc = -1, mode = -1;
  double beta = 0, dt = 0;
  long long seed = 0;
  char start[INPUT_STRING_MAX], outdir[INPUT_STRING_MAX];
  input_key keys[] = {
      {"GLB_T", INPUT_INT, &T, NULL, NULL, "global lattice extent in t"},
      {"GLB_X", INPUT_INT, &X, NULL, NULL, "global lattice extent in x"},
      {"GLB_Y", INPUT_INT, &Y, "4", NULL, "global lattice extent in y"},
      {"beta", INPUT_DOUBLE, &beta, NULL, NULL, "gauge coupling"},
      {"dt", INPUT_DOUBLE, &dt, "2.5e-2", NULL, "time step"},
      {"gauge start", INPUT_STRING, start, "cold", NULL, "start configuration"},
      {"output dir", INPUT_STRING, outdir, "out", NULL, "output folder"},
      {"measure", INPUT_BOOL, &measure, "yes", NULL, "measure plaquette"},
      {"bc_t", INPUT_CHOICE, &bc, "periodic", "periodic|antiperiodic|open", "time bc"},
      {"mode", INPUT_CHOICE, &mode, "open", "periodic|antiperiodic|open", "space bc"},
      {"seed", INPUT_LONG, &seed, "1", NULL, "random seed"},
      INPUT_KEYS_END};
  ck_assert_msg(input_read_keys(in, NULL, keys, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(T, 16);
  ck_assert_int_eq(X, 8);
  ck_assert_int_eq(Y, 4);
  ck_assert(beta == 5.6);
  ck_assert(dt == 0.025);
  ck_assert_str_eq(start, "random");
  ck_assert_str_eq(outdir, "out");
  ck_assert_int_eq(measure, 1);
  ck_assert_int_eq(bc, 1);
  ck_assert_int_eq(mode, 2);
  ck_assert(seed == 123456789012LL);
  ck_assert_int_eq(input_check_unused(in, err, sizeof err), 0);
  input_finish(in); /* must not stop */
  input_free(in);
}
END_TEST

START_TEST(test_required_key_missing) {
  input_file *in = parse_ok("GLB_T = 8\n\nmonomial {\n  type = hmc\n}\n// end\n");
  int x;
  input_key top[] = {{"GLB_T", INPUT_INT, &x, NULL, NULL, "time extent"},
                     {"GLB_X", INPUT_INT, &x, NULL, NULL, "global lattice extent in x"},
                     INPUT_KEYS_END};
  ck_assert_int_ne(input_read_keys(in, NULL, top, err, sizeof err), 0);
  /* a missing top-level key is reported on the last line of the file */
  ck_assert_str_eq(err, "run.in:6: GLB_X: required key missing; add a line 'GLB_X = <integer>' "
                        "(global lattice extent in x)");
  double mass;
  input_key block[] = {{"type", INPUT_STRING, NULL, NULL, NULL, NULL},
                       {"mass", INPUT_DOUBLE, &mass, NULL, NULL, "bare quark mass"},
                       INPUT_KEYS_END};
  /* a missing key of a block is reported on the line that opens the block */
  ck_assert_int_ne(input_read_keys(in, "monomial", block, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:3: mass: required key missing in block 'monomial'; add a line "
                        "'mass = <number>' (bare quark mass)");
  input_key no_help[] = {{"steps", INPUT_INT, &x, NULL, NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_ne(input_read_keys(in, "integrator", no_help, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:6: steps: required key missing: the file has no block "
                        "'integrator' (add a block 'integrator { ... }' with a line 'steps = "
                        "<integer>')");
  /* a block that is absent only gives defaults when nothing is required */
  int steps = 0;
  input_key optional[] = {{"steps", INPUT_INT, &steps, "7", NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, "integrator", optional, err, sizeof err), 0);
  ck_assert_int_eq(steps, 7);
  EXPECT_FATAL(input_read(in, NULL, top), HR_EXIT_INPUT,
               "run.in:6: GLB_X: required key missing; add a line 'GLB_X = <integer>' "
               "(global lattice extent in x)");
  input_free(in);
}
END_TEST

START_TEST(test_malformed_value_in_block_and_fatal) {
  input_file *in = parse_ok("GLB_T = 8\nmonomial {\n  mass = 0.1\n}\nmonomial {\n  mass = heavy\n}\n");
  double mass;
  input_key keys[] = {{"mass", INPUT_DOUBLE, &mass, NULL, NULL, "mass"}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_block_keys(in, "monomial", 0, keys, err, sizeof err), 0);
  ck_assert(mass == 0.1);
  ck_assert_int_ne(input_read_block_keys(in, "monomial", 1, keys, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:6: mass: malformed value 'heavy' (expected a number)");
  int T;
  input_key bad[] = {{"GLB_T", INPUT_BOOL, &T, NULL, NULL, "t"}, INPUT_KEYS_END};
  EXPECT_FATAL(input_read(in, NULL, bad), HR_EXIT_INPUT,
               "run.in:1: GLB_T: malformed value '8' (expected true/false, yes/no, on/off or 1/0)");
  input_free(in);
}
END_TEST

START_TEST(test_bad_default_is_a_program_bug) {
  input_file *in = parse_ok("a = 1\n");
  int v;
  input_key keys[] = {{"a", INPUT_INT, &v, NULL, NULL, NULL},
                      {"b", INPUT_INT, &v, "four", NULL, NULL},
                      INPUT_KEYS_END};
  ck_assert_int_ne(input_read_keys(in, NULL, keys, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:0: b: invalid default value in the program's key table: "
                        "malformed value 'four' (expected an integer) (a bug in the program)");
  CATCH_FATAL(input_read(in, NULL, keys), HR_EXIT_INTERNAL);
  input_key choice[] = {{"bc", INPUT_CHOICE, &v, "closed", "periodic|open", NULL},
                        INPUT_KEYS_END};
  ck_assert_int_ne(input_read_keys(in, NULL, choice, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:0: bc: invalid default value in the program's key table: "
                        "invalid value 'closed' (expected one of: periodic, open) (a bug in the "
                        "program)");
  input_free(in);
}
END_TEST

START_TEST(test_unknown_key_with_suggestion) {
  input_file *in = parse_ok("GLB_T = 8\nGLB_X = 8\n// comment\n\nGLB_TT = 4\nglb_y = 3\n");
  int v;
  input_key keys[] = {{"GLB_T", INPUT_INT, &v, NULL, NULL, NULL},
                      {"GLB_X", INPUT_INT, &v, NULL, NULL, NULL},
                      {"GLB_Y", INPUT_INT, &v, "4", NULL, NULL},
                      {"GLB_Z", INPUT_INT, &v, "4", NULL, NULL},
                      INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, keys, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:5: GLB_TT: unknown key (did you mean 'GLB_T'?)");
  EXPECT_FATAL(input_finish(in), HR_EXIT_INPUT,
               "run.in:5: GLB_TT: unknown key (did you mean 'GLB_T'?)");
  input_free(in);

  /* a difference of case only; a swap of two letters; a key far from every known key */
  in = parse_ok("glb_t = 8\ngauge strat = hot\nfoo_bar_baz = 1\n");
  input_key keys2[] = {{"GLB_T", INPUT_INT, &v, "8", NULL, NULL},
                       {"gauge start", INPUT_STRING, NULL, "cold", NULL, NULL},
                       INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, keys2, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:1: glb_t: unknown key (did you mean 'GLB_T'?)");
  input_free(in);
  in = parse_ok("gauge strat = hot\nfoo_bar_baz = 1\n");
  ck_assert_int_eq(input_read_keys(in, NULL, keys2, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:1: gauge strat: unknown key (did you mean 'gauge start'?)");
  input_free(in);
  in = parse_ok("foo_bar_baz = 1\n");
  ck_assert_int_eq(input_read_keys(in, NULL, keys2, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:1: foo_bar_baz: unknown key (this program does not use it; "
                        "check the spelling or remove the line)");
  input_free(in);
}
END_TEST

START_TEST(test_suggestions_over_all_tables) {
  /* two components read the same file; the suggestion may come from either table */
  input_file *in = parse_ok("GLB_T = 8\nNP_T = 2\nbeta = 6\nNP_XX = 1\n");
  int v;
  double b;
  input_key geometry[] = {{"GLB_T", INPUT_INT, &v, NULL, NULL, NULL},
                          {"NP_T", INPUT_INT, &v, "1", NULL, NULL},
                          {"NP_X", INPUT_INT, &v, "1", NULL, NULL},
                          INPUT_KEYS_END};
  input_key action[] = {{"beta", INPUT_DOUBLE, &b, NULL, NULL, NULL},
                        {"GLB_T", INPUT_INT, &v, NULL, NULL, NULL}, /* read twice: fine */
                        INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, action, err, sizeof err), 0);
  ck_assert_int_eq(input_read_keys(in, NULL, geometry, err, sizeof err), 0);
  ck_assert_int_eq(v, 1); /* NP_X default, read last */
  ck_assert(b == 6.0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:4: NP_XX: unknown key (did you mean 'NP_X'?)");
  input_free(in);
}
END_TEST

START_TEST(test_unknown_blocks_and_block_keys) {
  input_file *in = parse_ok("GLB_T = 8\nmonomail {\n  mass = 1\n}\n");
  int v;
  input_key top[] = {{"GLB_T", INPUT_INT, &v, NULL, NULL, NULL}, INPUT_KEYS_END};
  input_key mono[] = {{"mass", INPUT_DOUBLE, NULL, "0", NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_int_eq(input_count_blocks(in, "monomial"), 0);
  for (int i = 0; i < input_count_blocks(in, "monomial"); i++)
    input_read_block_keys(in, "monomial", i, mono, err, sizeof err);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: monomail: unknown block (did you mean 'monomial'?)");
  input_free(in);

  in = parse_ok("GLB_T = 8\nfoo {\n  mass = 1\n}\n");
  ck_assert_int_eq(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: foo: unknown block (this program does not use it; check the "
                        "spelling or remove the block)");
  input_free(in);

  /* unknown key inside a block: suggestion from the block's keys */
  in = parse_ok("GLB_T = 8\nmonomial {\n  mass = 1\n  mas = 2\n}\n");
  ck_assert_int_eq(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_int_eq(input_read_keys(in, "monomial", mono, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:4: mas: unknown key in block 'monomial' (did you mean 'mass'?)");
  input_free(in);

  /* a key in the wrong place */
  in = parse_ok("GLB_T = 8\nmass = 3\nmonomial {\n  mass = 1\n}\n");
  ck_assert_int_eq(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_int_eq(input_read_keys(in, "monomial", mono, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: mass: unknown key at the top level (it belongs in a block "
                        "'monomial { ... }')");
  input_free(in);
  in = parse_ok("monomial {\n  mass = 1\n  GLB_T = 8\n}\n");
  input_key top_default[] = {{"GLB_T", INPUT_INT, &v, "4", NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, top_default, err, sizeof err), 0);
  ck_assert_int_eq(input_read_keys(in, "monomial", mono, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:3: GLB_T: unknown key in block 'monomial' (it is a top-level "
                        "key: move it outside the block)");
  input_free(in);

  /* a second block when the program reads only the first */
  in = parse_ok("integrator {\n  steps = 1\n}\nintegrator {\n  steps = 2\n}\n");
  input_key integ[] = {{"steps", INPUT_INT, &v, NULL, NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, "integrator", integ, err, sizeof err), 0);
  ck_assert_int_eq(v, 1);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:4: integrator: extra block (this program reads 1 block "
                        "'integrator'; the first is on line 1)");
  input_free(in);
}
END_TEST

START_TEST(test_first_problem_by_line) {
  /* an unknown key in a block (line 3) comes before an unknown top-level key (line 6) */
  input_file *in = parse_ok("a = 1\nblk {\n  zz = 1\n  b = 2\n}\nyy = 3\n");
  input_key top[] = {{"a", INPUT_INT, NULL, NULL, NULL, NULL}, INPUT_KEYS_END};
  input_key blk[] = {{"b", INPUT_INT, NULL, NULL, NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_int_eq(input_read_keys(in, "blk", blk, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:3: zz: unknown key in block 'blk' (this program does not use it; "
                        "check the spelling or remove the line)");
  input_free(in);
  /* an unknown block (line 4) comes after an unknown top-level key (line 2) */
  in = parse_ok("a = 1\nxx = 2\n\nother {\n}\n");
  ck_assert_int_eq(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: xx: unknown key (this program does not use it; check the "
                        "spelling or remove the line)");
  input_free(in);
}
END_TEST

/* Collects the keys visited by input_foreach_prefix. */
typedef struct {
  char seen[8][64];
  int lines[8];
  int n;
} visit_log;

static void record_visit(const char *key, const char *value, int line, void *ctx) {
  visit_log *log = ctx;
  ck_assert_int_lt(log->n, 8);
  snprintf(log->seen[log->n], sizeof log->seen[0], "%s=%s", key, value);
  log->lines[log->n++] = line;
}

START_TEST(test_prefix_iteration) {
  input_file *in = parse_ok(
      "GLB_T = 8\nlog:default = 10\nlogfile = x\nlog:GEOMETRY = 30\nblk {\n  log:x = 1\n}\n"
      "log:MAIN=0\n");
  visit_log log = {.n = 0};
  input_foreach_prefix(in, "log:", record_visit, &log);
  ck_assert_int_eq(log.n, 3);
  ck_assert_str_eq(log.seen[0], "log:default=10");
  ck_assert_str_eq(log.seen[1], "log:GEOMETRY=30");
  ck_assert_str_eq(log.seen[2], "log:MAIN=0");
  ck_assert_int_eq(log.lines[0], 2);
  ck_assert_int_eq(log.lines[1], 4);
  ck_assert_int_eq(log.lines[2], 8);
  /* the visited keys count as used; the others do not */
  input_key keys[] = {{"GLB_T", INPUT_INT, NULL, NULL, NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, keys, err, sizeof err), 0);
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:3: logfile: unknown key (this program does not use it; check the "
                        "spelling or remove the line)");
  input_free(in);
}
END_TEST

START_TEST(test_declared_key_is_suggested) {
  input_file *in = parse_ok("log:defualt = 3\n");
  input_declare_key(in, NULL, "log:default");
  ck_assert_int_ne(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:1: log:defualt: unknown key (did you mean 'log:default'?)");
  input_free(in);
}
END_TEST

START_TEST(test_same_input_on_repeated_parse) {
  /* parsing is deterministic: the same text gives the same values each time */
  for (int rep = 0; rep < 3; rep++) {
    input_file *in = parse_ok("x = 3\ny = 2.5\n");
    int x;
    double y;
    input_key keys[] = {{"x", INPUT_INT, &x, NULL, NULL, NULL},
                        {"y", INPUT_DOUBLE, &y, NULL, NULL, NULL},
                        INPUT_KEYS_END};
    input_read(in, NULL, keys);
    input_finish(in);
    ck_assert_int_eq(x, 3);
    ck_assert(y == 2.5);
    input_free(in);
  }
}
END_TEST

START_TEST(test_ranges) {
  int n = 0;
  double x = 0;
  long long seed = 0;
  ck_assert_int_eq(read_one(INPUT_DOUBLE, ">0 <1", "1e-10", &x), 0);
  ck_assert(x == 1e-10);
  ck_assert_int_eq(read_one(INPUT_INT, ">=1", "1", &n), 0);
  ck_assert_int_eq(n, 1);
  ck_assert_int_eq(read_one(INPUT_LONG, ">=0", "0", &seed), 0);
  expect_bad_value(INPUT_DOUBLE, ">0 <1", "-1e-10",
                   "value -1e-10 out of range: must be > 0 and < 1 (a test key)");
  expect_bad_value(INPUT_DOUBLE, ">0 <1", "0", "value 0 out of range: must be > 0 and < 1 (a test key)");
  expect_bad_value(INPUT_DOUBLE, ">0 <1", "1", "value 1 out of range: must be > 0 and < 1 (a test key)");
  expect_bad_value(INPUT_INT, ">=1", "-5", "value -5 out of range: must be >= 1 (a test key)");
  expect_bad_value(INPUT_INT, ">=1 <=100", "101",
                   "value 101 out of range: must be >= 1 and <= 100 (a test key)");
  expect_bad_value(INPUT_LONG, ">=0", "-1", "value -1 out of range: must be >= 0 (a test key)");
  /* a value outside the range is not stored */
  n = 77;
  ck_assert_int_ne(read_one(INPUT_INT, ">=1", "0", &n), 0);
  ck_assert_int_eq(n, 77);
  /* a malformed range or a default outside the range is a bug in the program */
  input_file *in = parse_ok("a = 1\n");
  input_key bad_range[] = {{"a", INPUT_INT, &n, NULL, ">=one", NULL}, INPUT_KEYS_END};
  CATCH_FATAL(input_read(in, NULL, bad_range), HR_EXIT_INTERNAL);
  input_key bad_default[] = {{"b", INPUT_INT, &n, "0", ">=1", NULL}, INPUT_KEYS_END};
  CATCH_FATAL(input_read(in, NULL, bad_default), HR_EXIT_INTERNAL);
  input_free(in);
}
END_TEST

START_TEST(test_value_errors_name_the_line) {
  input_file *in = parse_ok("nsteps = 10\n\nmeas every = 3\nsolver {\n  tol = 0.5\n}\n// end\n");
  ck_assert_int_eq(input_key_line(in, NULL, "meas every"), 3);
  ck_assert_int_eq(input_key_line(in, "solver", "tol"), 5);
  ck_assert_int_eq(input_key_line(in, NULL, "tol"), 0);
  ck_assert_int_eq(input_key_line(in, "nosuchblock", "tol"), 0);
  input_value_error(in, NULL, "meas every", err, sizeof err, "%d does not divide nsteps = %d", 3, 10);
  ck_assert_str_eq(err, "run.in:3: meas every: 3 does not divide nsteps = 10");
  input_value_error(in, "solver", "tol", err, sizeof err, "too large");
  ck_assert_str_eq(err, "run.in:5: tol: too large");
  /* a key the file does not set: its block's line, or the last line of the file */
  input_value_error(in, "solver", "maxiter", err, sizeof err, "too small");
  ck_assert_str_eq(err, "run.in:4: maxiter: too small (the file does not set maxiter: its "
                        "default value is at fault; add a line 'maxiter = ...')");
  input_value_error(in, NULL, "NP_T", err, sizeof err, "wrong grid");
  ck_assert_str_eq(err, "run.in:7: NP_T: wrong grid (the file does not set NP_T: its default "
                        "value is at fault; add a line 'NP_T = ...')");
  EXPECT_FATAL(input_fail(in, NULL, "nsteps", "must be even (got %d)", 10), HR_EXIT_INPUT,
               "run.in:1: nsteps: must be even (got 10)");
  input_free(in);
}
END_TEST

START_TEST(test_misspelt_required_key) {
  input_file *in = parse_ok("GLB_T = 8\nseed = 4\nbata = 5.5\nmonomial {\n  mas = 0.1\n}\n// end\n");
  int t = 0;
  long long seed = 0;
  double beta = 0, mass = 0;
  input_key top[] = {{"GLB_T", INPUT_INT, &t, NULL, NULL, NULL},
                     {"seed", INPUT_LONG, &seed, NULL, NULL, NULL},
                     {"beta", INPUT_DOUBLE, &beta, NULL, NULL, "gauge coupling"},
                     INPUT_KEYS_END};
  ck_assert_int_ne(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:3: bata: unknown key (did you mean 'beta'?)");
  input_key block[] = {{"mass", INPUT_DOUBLE, &mass, NULL, NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_ne(input_read_keys(in, "monomial", block, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:5: mas: unknown key in block 'monomial' (did you mean 'mass'?)");
  input_free(in);
  /* a key of the same scope that is valid (read by another table) is not taken for a
   * misspelling; nor is a key far from the missing one */
  in = parse_ok("betas = 1\ngamma_x = 5.5\n");
  input_key other[] = {{"betas", INPUT_INT, &t, NULL, NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, other, err, sizeof err), 0);
  input_key need_beta[] = {{"beta", INPUT_DOUBLE, &beta, NULL, NULL, NULL},
                           {"alpha", INPUT_DOUBLE, &mass, NULL, NULL, NULL},
                           INPUT_KEYS_END};
  ck_assert_int_ne(input_read_keys(in, NULL, need_beta, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: beta: required key missing; add a line 'beta = <number>'");
  input_free(in);
}
END_TEST

START_TEST(test_exactly_one_of) {
  double mass = 0, kappa = 0;
  const input_key keys[] = {{"mass", INPUT_DOUBLE, &mass, NULL, NULL, "bare mass"},
                            {"kappa", INPUT_DOUBLE, &kappa, NULL, ">0", "hopping parameter"},
                            INPUT_KEYS_END};
  int which = -1;
  /* one of them: read, its index returned, the key counted as used */
  input_file *in = parse_ok("GLB_T = 8\nkappa = 0.125\n");
  ck_assert_int_eq(input_read_one_of_keys(in, NULL, keys, &which, err, sizeof err), 0);
  ck_assert_int_eq(which, 1);
  ck_assert(kappa == 0.125);
  int t;
  const input_key top[] = {{"GLB_T", INPUT_INT, &t, NULL, NULL, NULL}, INPUT_KEYS_END};
  ck_assert_int_eq(input_read_keys(in, NULL, top, err, sizeof err), 0);
  ck_assert_int_eq(input_check_unused(in, err, sizeof err), 0);
  ck_assert_int_eq(input_read_one_of(in, NULL, keys), 1);
  input_free(in);
  /* its value is checked as by input_read_keys */
  in = parse_ok("// a\nkappa = -1\n");
  ck_assert_int_ne(input_read_one_of_keys(in, NULL, keys, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: kappa: value -1 out of range: must be > 0 (hopping parameter)");
  input_free(in);
  /* both: at the line of the second */
  in = parse_ok("kappa = 0.1\nGLB_T = 8\nmass = 0.2\n// end\n");
  ck_assert_int_ne(input_read_one_of_keys(in, NULL, keys, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:3: mass: give only one of mass (bare mass) and kappa (hopping "
                        "parameter) (kappa is set on line 1): remove one of the two lines");
  EXPECT_FATAL(input_read_one_of(in, NULL, keys), HR_EXIT_INPUT,
               "run.in:3: mass: give only one of mass (bare mass) and kappa (hopping "
               "parameter) (kappa is set on line 1): remove one of the two lines");
  input_free(in);
  /* neither: at the last line, naming both */
  in = parse_ok("GLB_T = 8\n\n// end\n");
  ck_assert_int_ne(input_read_one_of_keys(in, NULL, keys, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:3: mass: required key missing: give exactly one of mass (bare "
                        "mass) and kappa (hopping parameter); add a line 'mass = <number>' or "
                        "'kappa = <number>'");
  input_free(in);
  /* neither, but a near spelling of one that nobody reads: that key, at its line */
  in = parse_ok("GLB_T = 8\nmas = -0.3\n// end\n");
  ck_assert_int_ne(input_read_one_of_keys(in, NULL, keys, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: mas: unknown key (did you mean 'mass'?)");
  input_free(in);
  /* in a block: the line that opens it; a block the file lacks: the last line */
  in = parse_ok("GLB_T = 8\nmonomial {\n  type = hmc\n  kapa = 0.1\n}\nquark {\n}\n");
  ck_assert_int_ne(input_read_one_of_keys(in, "quark", keys, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:6: mass: required key missing in block 'quark': give exactly "
                        "one of mass (bare mass) and kappa (hopping parameter); add a line "
                        "'mass = <number>' or 'kappa = <number>'");
  ck_assert_int_ne(input_read_one_of_keys(in, "monomial", keys, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:4: kapa: unknown key in block 'monomial' (did you mean "
                        "'kappa'?)");
  ck_assert_int_ne(input_read_one_of_keys(in, "fermion", keys, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:7: mass: required key missing: the file has no block 'fermion' "
                        "(add a block 'fermion { ... }' with a line 'mass = <number>' or "
                        "'kappa = <number>'): give exactly one of mass (bare mass) and kappa "
                        "(hopping parameter)");
  input_free(in);
  /* three alternatives */
  const input_key three[] = {{"a", INPUT_INT, &t, NULL, NULL, NULL},
                             {"b", INPUT_INT, &t, NULL, NULL, NULL},
                             {"c", INPUT_INT, &t, NULL, NULL, NULL},
                             INPUT_KEYS_END};
  in = parse_ok("x = 1\n");
  ck_assert_int_ne(input_read_one_of_keys(in, "blk", three, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:1: a: required key missing: the file has no block 'blk' (add a "
                        "block 'blk { ... }' with a line 'a = <integer>', 'b = <integer>' or "
                        "'c = <integer>'): give exactly one of a, b and c");
  input_free(in);
  in = parse_ok("c = 3\nb = 2\na = 1\n");
  ck_assert_int_ne(input_read_one_of_keys(in, NULL, three, &which, err, sizeof err), 0);
  ck_assert_str_eq(err, "run.in:2: b: give only one of a, b and c (c is set on line 1): remove "
                        "one of the two lines");
  input_free(in);
}
END_TEST

/* The text of file `path`; caller frees. */
static char *read_whole_file(const char *path) {
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  char *text = calloc(65536, 1);
  ck_assert_ptr_nonnull(text);
  size_t n = fread(text, 1, 65535, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

START_TEST(test_used_keys_in_the_log) {
  char dir[] = "/tmp/hr_test_input_echo_XXXXXX", log_path[600];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(log_path, sizeof log_path, "%s/echo.log", dir);
  logger_set_output(log_path, 0);
  input_file *in = parse_ok("log:default = 10\nntraj = 40\nname = \n"
                            "monomial {\n  mass = 0.1\n}\nmonomial {\n  mass = -0.2\n}\n");
  logger_read_input(in);
  int ntraj = 0;
  double csw = 0, mass = 0;
  char name[INPUT_STRING_MAX];
  input_key top[] = {{"ntraj", INPUT_INT, &ntraj, NULL, NULL, NULL},
                     {"csw", INPUT_DOUBLE, &csw, "0", NULL, NULL},
                     {"name", INPUT_STRING, name, "x", NULL, NULL},
                     INPUT_KEYS_END};
  input_read(in, NULL, top);
  input_read(in, NULL, top); /* read twice: printed once */
  input_key block[] = {{"mass", INPUT_DOUBLE, &mass, NULL, NULL, NULL},
                       {"hasenbusch", INPUT_BOOL, NULL, "no", NULL, NULL},
                       INPUT_KEYS_END};
  for (int i = 0; i < input_count_blocks(in, "monomial"); i++)
    ck_assert_int_eq(input_read_block_keys(in, "monomial", i, block, err, sizeof err), 0);
  input_key smear[] = {{"rho", INPUT_DOUBLE, NULL, "0.1", NULL, NULL}, INPUT_KEYS_END};
  input_read(in, "smear", smear); /* a block the file lacks: its defaults */
  lprintf("MAIN", 0, "before input_finish\n");
  input_finish(in);
  /* a key read after input_finish is printed at once */
  input_key late[] = {{"seed", INPUT_LONG, NULL, "7", NULL, NULL}, INPUT_KEYS_END};
  input_read(in, NULL, late);
  input_free(in);
  logger_close();
  char *text = read_whole_file(log_path);
  ck_assert_str_eq(text, "[MAIN][0]before input_finish\n"
                         "[INPUT][0]log:default = 10\n"
                         "[INPUT][0]ntraj = 40\n"
                         "[INPUT][0]csw = 0 (default)\n"
                         "[INPUT][0]name = \"\"\n"
                         "[INPUT][0]monomial 1: mass = 0.1\n"
                         "[INPUT][0]monomial 1: hasenbusch = no (default)\n"
                         "[INPUT][0]monomial 2: mass = -0.2\n"
                         "[INPUT][0]monomial 2: hasenbusch = no (default)\n"
                         "[INPUT][0]smear 1: rho = 0.1 (default)\n"
                         "[INPUT][0]seed = 7 (default)\n");
  free(text);
  unlink(log_path);
  rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("input_keys");
  TCase *values = tcase_create("values");
  tcase_add_test(values, test_int_values);
  tcase_add_test(values, test_long_values);
  tcase_add_test(values, test_double_values);
  tcase_add_test(values, test_bool_values);
  tcase_add_test(values, test_choice_values);
  tcase_add_test(values, test_string_values);
  suite_add_tcase(s, values);
  TCase *tables = tcase_create("tables");
  tcase_add_test(tables, test_good_file_with_defaults);
  tcase_add_test(tables, test_required_key_missing);
  tcase_add_test(tables, test_malformed_value_in_block_and_fatal);
  tcase_add_test(tables, test_bad_default_is_a_program_bug);
  tcase_add_test(tables, test_same_input_on_repeated_parse);
  tcase_add_test(tables, test_ranges);
  tcase_add_test(tables, test_value_errors_name_the_line);
  tcase_add_test(tables, test_used_keys_in_the_log);
  suite_add_tcase(s, tables);
  TCase *unused = tcase_create("unused");
  tcase_add_test(unused, test_unknown_key_with_suggestion);
  tcase_add_test(unused, test_suggestions_over_all_tables);
  tcase_add_test(unused, test_unknown_blocks_and_block_keys);
  tcase_add_test(unused, test_first_problem_by_line);
  tcase_add_test(unused, test_prefix_iteration);
  tcase_add_test(unused, test_declared_key_is_suggested);
  tcase_add_test(unused, test_misspelt_required_key);
  tcase_add_test(unused, test_exactly_one_of);
  suite_add_tcase(s, unused);
  return test_run_suite(s);
}
