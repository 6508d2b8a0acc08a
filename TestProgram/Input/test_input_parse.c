/* test_input_parse.c -- syntax of input files: comments, blank lines, keys with spaces and
 * colons, blocks, and the exact message of every syntax error (file:line: key: reason). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../Core/catch_error.h"
#include "input_file.h"
#include "../check_suite.h"

static char err[2048];

/* Parse text that must be valid. */
static input_file *parse_ok(const char *text) {
  err[0] = '\0';
  input_file *in = input_parse_string("run.in", text, err, sizeof err);
  ck_assert_msg(in != NULL, "unexpected error: %s", err);
  return in;
}

/* Parse text that must be rejected with exactly `message`. */
static void expect_parse_error(const char *text, const char *message) {
  err[0] = '\0';
  input_file *in = input_parse_string("run.in", text, err, sizeof err);
  if (in != NULL) input_free(in);
  ck_assert_msg(in == NULL, "text accepted, expected error '%s'", message);
  ck_assert_str_eq(err, message);
}

/* Value of a string key read through a table (top level or first block). */
static const char *string_value(input_file *in, const char *block, const char *key) {
  static char value[INPUT_STRING_MAX];
  input_key keys[] = {{key, INPUT_STRING, value, NULL, NULL, "test"}, INPUT_KEYS_END};
  ck_assert_msg(input_read_keys(in, block, keys, err, sizeof err) == 0, "%s", err);
  return value;
}

START_TEST(test_comments_blank_lines_and_spaces) {
  input_file *in = parse_ok(
      "// a full-line comment\n"
      "\n"
      "   \t  \n"
      "GLB_T = 8   // trailing comment\n"
      "  gauge    start\t=   random start  \n"
      "log:default = 10\n"
      "path = /data/run1 // comment after a path\n"
      "empty =\n"
      "    // indented comment\n"
      "last = no newline at the end");
  ck_assert_str_eq(string_value(in, NULL, "GLB_T"), "8");
  /* runs of white space inside a key become one space; the value keeps its inner spaces */
  ck_assert_str_eq(string_value(in, NULL, "gauge start"), "random start");
  ck_assert_str_eq(string_value(in, NULL, "log:default"), "10");
  ck_assert_str_eq(string_value(in, NULL, "path"), "/data/run1");
  ck_assert_str_eq(string_value(in, NULL, "empty"), "");
  ck_assert_str_eq(string_value(in, NULL, "last"), "no newline at the end");
  ck_assert_int_eq(input_has_key(in, NULL, "GLB_T"), 1);
  ck_assert_int_eq(input_has_key(in, NULL, "a full-line comment"), 0);
  ck_assert_int_eq(input_has_key(in, NULL, "indented comment"), 0);
  ck_assert_int_eq(input_check_unused(in, err, sizeof err), 0);
  ck_assert_str_eq(input_filename(in), "run.in");
  input_free(in);
}
END_TEST

START_TEST(test_crlf_line_endings) {
  input_file *in = parse_ok("GLB_T = 8\r\nmonomial {\r\n  mass = 0.5\r\n}\r\n");
  ck_assert_str_eq(string_value(in, NULL, "GLB_T"), "8");
  ck_assert_str_eq(string_value(in, "monomial", "mass"), "0.5");
  input_free(in);
}
END_TEST

START_TEST(test_blocks_counted_and_read) {
  input_file *in = parse_ok(
      "GLB_T = 8\n"
      "monomial {\n"
      "  type = gauge\n"
      "  beta = 5.6\n"
      "}\n"
      "integrator {\n"
      "  steps = 10\n"
      "}\n"
      "monomial {\n"
      "  type = hmc\n"
      "  mass = -0.1\n"
      "}\n"
      "  monomial   {   // comment after the brace\n"
      "  type = rhmc\n"
      "}\n");
  ck_assert_int_eq(input_count_blocks(in, "monomial"), 3);
  ck_assert_int_eq(input_count_blocks(in, "integrator"), 1);
  ck_assert_int_eq(input_count_blocks(in, "nothing"), 0);
  const char *types[] = {"gauge", "hmc", "rhmc"};
  for (int i = 0; i < 3; i++) {
    char type[INPUT_STRING_MAX];
    double mass = 99;
    input_key keys[] = {{"type", INPUT_STRING, type, NULL, NULL, "monomial type"},
                        {"mass", INPUT_DOUBLE, &mass, "99", NULL, "mass"},
                        {"beta", INPUT_DOUBLE, NULL, "0", NULL, "coupling"},
                        INPUT_KEYS_END};
    ck_assert_msg(input_read_block_keys(in, "monomial", i, keys, err, sizeof err) == 0, "%s",
                  err);
    ck_assert_str_eq(type, types[i]);
    ck_assert(mass == (i == 1 ? -0.1 : 99.0));
  }
  /* keys of blocks are not top-level keys, and the other way round */
  ck_assert_int_eq(input_has_key(in, NULL, "type"), 0);
  ck_assert_int_eq(input_has_key(in, "monomial", "type"), 1);
  ck_assert_int_eq(input_has_key(in, "monomial", "GLB_T"), 0);
  ck_assert_int_eq(input_has_key(in, "integrator", "steps"), 1);
  ck_assert_int_eq(input_has_key(in, "nothing", "steps"), 0);
  ck_assert_str_eq(string_value(in, "integrator", "steps"), "10");
  ck_assert_str_eq(string_value(in, NULL, "GLB_T"), "8");
  ck_assert_int_eq(input_check_unused(in, err, sizeof err), 0);
  input_free(in);
}
END_TEST

START_TEST(test_same_key_in_different_scopes) {
  /* the same key at the top level and in several blocks is not a repetition */
  input_file *in = parse_ok("mass = 1\nmonomial {\n mass = 2\n}\nmonomial {\n mass = 3\n}\n");
  input_free(in);
}
END_TEST

START_TEST(test_line_without_equal_sign) {
  expect_parse_error("// header\nGLB_T 8\n", "run.in:2: GLB_T 8: line without '=' (expected 'key = value')");
  expect_parse_error("a = 1\n\n\njust words here // comment\n",
                     "run.in:4: just words here: line without '=' (expected 'key = value')");
}
END_TEST

START_TEST(test_repeated_key) {
  expect_parse_error("// run\n\nGLB_T = 8\nGLB_X = 4\n\n\n\n\nGLB_T = 16\n",
                     "run.in:9: GLB_T: repeated key (first set on line 3)");
  /* repetition is detected after collapsing spaces in the key */
  expect_parse_error("gauge start = cold\ngauge  start = hot\n",
                     "run.in:2: gauge start: repeated key (first set on line 1)");
  expect_parse_error("monomial {\n mass = 1\n mass = 2\n}\n",
                     "run.in:3: mass: repeated key (first set on line 2)");
}
END_TEST

START_TEST(test_block_errors) {
  expect_parse_error("a = 1\n\n\nmonomial {\n mass = 1\n",
                     "run.in:4: monomial: block not closed (missing '}' before the end of the file)");
  expect_parse_error("monomial {\n mass = 1\n integrator {\n}\n}\n",
                     "run.in:3: integrator: block inside block 'monomial' opened on line 1 "
                     "(blocks cannot be nested; missing '}'?)");
  expect_parse_error("a = 1\n}\n",
                     "run.in:2: }: '}' without an open block (blocks start with a line 'name {')");
  expect_parse_error("{\n}\n",
                     "run.in:1: {: block without a name (a block starts with a line 'name {')");
  expect_parse_error("monomial { mass = 1 }\n",
                     "run.in:1: monomial { mass: '{' or '}' in a key name (a block starts with a line "
                     "'name {')");
  expect_parse_error("a = 1\nmonomial }\n",
                     "run.in:2: monomial }: unexpected '{' or '}' (a block starts with a line "
                     "'name {' and ends with a line '}')");
}
END_TEST

START_TEST(test_missing_key_name) {
  expect_parse_error("a = 1\n = 3\n", "run.in:2: =: missing key name before '='");
}
END_TEST

START_TEST(test_parse_file_and_missing_file) {
  char dir[] = "/tmp/hr_test_input_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[512];
  snprintf(path, sizeof path, "%s/good.in", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("GLB_T = 8\nmonomial {\n mass = 1\n}\n", f);
  fclose(f);
  input_file *in = input_parse(path, err, sizeof err);
  ck_assert_msg(in != NULL, "%s", err);
  ck_assert_str_eq(input_filename(in), path);
  ck_assert_int_eq(input_count_blocks(in, "monomial"), 1);
  input_free(in);
  in = input_open(path);
  ck_assert_str_eq(string_value(in, NULL, "GLB_T"), "8");
  input_free(in);

  /* a file with a NUL byte is not a text file */
  char binary[512];
  snprintf(binary, sizeof binary, "%s/binary.in", dir);
  f = fopen(binary, "wb");
  ck_assert_ptr_nonnull(f);
  fwrite("a = 1\nb = \0\n", 1, 12, f);
  fclose(f);
  ck_assert_ptr_null(input_parse(binary, err, sizeof err));
  char expected[1024];
  snprintf(expected, sizeof expected,
           "%s:2: (binary): NUL byte in the input file (is this a text file?)", binary);
  ck_assert_str_eq(err, expected);

  char missing[512];
  snprintf(missing, sizeof missing, "%s/missing.in", dir);
  ck_assert_ptr_null(input_parse(missing, err, sizeof err));
  snprintf(expected, sizeof expected, "%s: cannot open the input file (%s)", missing,
           strerror(ENOENT));
  ck_assert_str_eq(err, expected);
  EXPECT_FATAL(input_open(missing), HR_EXIT_INPUT, expected);

  unlink(path);
  unlink(binary);
  rmdir(dir);
}
END_TEST

START_TEST(test_empty_file) {
  input_file *in = parse_ok("");
  ck_assert_int_eq(input_check_unused(in, err, sizeof err), 0);
  input_free(in);
  in = parse_ok("\n\n// only comments\n");
  ck_assert_int_eq(input_check_unused(in, err, sizeof err), 0);
  input_free(in);
}
END_TEST

START_TEST(test_long_garbage_line_is_shortened) {
  char text[400];
  memset(text, 'x', 300);
  text[300] = '\0';
  err[0] = '\0';
  ck_assert_ptr_null(input_parse_string("run.in", text, err, sizeof err));
  ck_assert_msg(strlen(err) < 150, "message too long: %s", err);
  ck_assert_msg(strstr(err, "...: line without '='") != NULL, "%s", err);
}
END_TEST

int main(void) {
  Suite *s = suite_create("input_parse");
  TCase *tc = tcase_create("syntax");
  tcase_add_test(tc, test_comments_blank_lines_and_spaces);
  tcase_add_test(tc, test_crlf_line_endings);
  tcase_add_test(tc, test_blocks_counted_and_read);
  tcase_add_test(tc, test_same_key_in_different_scopes);
  tcase_add_test(tc, test_line_without_equal_sign);
  tcase_add_test(tc, test_repeated_key);
  tcase_add_test(tc, test_block_errors);
  tcase_add_test(tc, test_missing_key_name);
  tcase_add_test(tc, test_parse_file_and_missing_file);
  tcase_add_test(tc, test_empty_file);
  tcase_add_test(tc, test_long_garbage_line_is_shortened);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
