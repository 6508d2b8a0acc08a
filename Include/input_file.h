/* input_file.h -- the one reader of LibHR input files: "key = value" lines, // comments,
 * named blocks "name { ... }". Programs describe the keys they accept in tables; a missing
 * required key, an unknown key (nearest valid spelling suggested), a malformed value or a
 * repeated key stops the program with "file:line: key: what is wrong" before any work. Values
 * out of a key's range, and impossible combinations that a program checks itself
 * (input_fail), are reported the same way, at the line of the key.
 * Implemented in: LibHR/Core/input_file.c. */
#ifndef INPUT_FILE_H
#define INPUT_FILE_H

#include <stddef.h>

/* Longest string value (including the terminating NUL) of an INPUT_STRING key. */
#define INPUT_STRING_MAX 256

typedef enum {
  INPUT_INT,     /* target: int*           value: decimal integer                     */
  INPUT_LONG,    /* target: long long*     value: decimal integer (e.g. seeds)        */
  INPUT_DOUBLE,  /* target: double*        value: floating-point number               */
  INPUT_STRING,  /* target: char[INPUT_STRING_MAX]  value: rest of the line, trimmed  */
  INPUT_BOOL,    /* target: int*           value: true/false/yes/no/1/0/on/off        */
  INPUT_CHOICE   /* target: int*           value: one of `choices` ("a|b|c"); stores index */
} input_type;

/* One accepted key. A table of keys ends with an entry whose name is NULL. */
typedef struct {
  const char *name;           /* key as written in the file, e.g. "GLB_T", "gauge start" */
  input_type type;
  void *target;               /* where the value is stored */
  const char *default_value;  /* text used when the key is absent; NULL means required */
  const char *choices;        /* INPUT_CHOICE: "periodic|antiperiodic|open". INPUT_INT, INPUT_LONG,
                                 INPUT_DOUBLE: NULL (any value) or a range, conditions
                                 separated by spaces: ">0", ">=1 <=100", ">0 <1" */
  const char *help;           /* one line for the documentation and for error messages */
} input_key;

/* End marker of an input_key table. */
#define INPUT_KEYS_END {NULL, INPUT_INT, NULL, NULL, NULL, NULL}

typedef struct input_file input_file;

/* Parse `path` (syntax only: key = value lines, blocks, comments, repeated keys). On error
 * returns NULL and writes "file:line: key: what is wrong" into errbuf. */
input_file *input_parse(const char *path, char *errbuf, size_t errlen);
/* Parse text held in memory; `name` stands for the file name in messages. */
input_file *input_parse_string(const char *name, const char *text, char *errbuf, size_t errlen);
/* As input_parse, but stops the program with the message (exit code HR_EXIT_INPUT). */
input_file *input_open(const char *path);

/* Fill the targets of `keys` from the top level (block == NULL) or from the first block
 * called `block` (absent block: defaults). Returns 0, or -1 with the message in errbuf
 * (missing/malformed/out-of-range value). A missing key is reported on the block's first
 * line, or on the last line of the file for the top level; but when a key of the same scope
 * that nobody reads is a near spelling of it, that key is reported as unknown, at its line
 * ("in:10: bata: unknown key (did you mean 'beta'?)"). Syntax: Doc/input_files.md. */
int input_read_keys(input_file *in, const char *block, const input_key *keys,
                    char *errbuf, size_t errlen);
/* As input_read_keys for the index-th block called `block` (0-based). */
int input_read_block_keys(input_file *in, const char *block, int index, const input_key *keys,
                          char *errbuf, size_t errlen);
/* input_read_keys that stops the program on error (HR_EXIT_INPUT; HR_EXIT_INTERNAL for an
 * invalid default value in `keys`). */
void input_read(input_file *in, const char *block, const input_key *keys);

/* Read exactly one of the alternative keys `keys` (a table, e.g. "mass" and "kappa"; their
 * defaults are not used) from the top level (block == NULL) or the first block `block`: the
 * one the file sets is read as by input_read_keys and its index goes to *which. Returns 0, or
 * -1 with the message in errbuf: several set (at the line of the second one), a malformed or
 * out-of-range value, none set (at the last line of the file, or the line opening the block;
 * but a key of that scope that nobody reads and that is a near spelling of one of them is
 * reported as unknown, at its line, as for a missing required key). */
int input_read_one_of_keys(input_file *in, const char *block, const input_key *keys,
                           int *which, char *errbuf, size_t errlen);
/* input_read_one_of_keys that ends the program on error; returns the index of the key read. */
int input_read_one_of(input_file *in, const char *block, const input_key *keys);

/* Number of blocks called `block` (also declares `block` as a valid block name). */
int input_count_blocks(input_file *in, const char *block);
/* Whether the top level (block == NULL) or the first block `block` has `key`. */
int input_has_key(const input_file *in, const char *block, const char *key);
/* Visit every top-level key that starts with `prefix` (e.g. "log:"), marking it as used. */
void input_foreach_prefix(input_file *in, const char *prefix,
                          void (*fn)(const char *key, const char *value, int line, void *ctx),
                          void *ctx);

/* Declare `key` as valid in the top level (block == NULL) or in blocks `block` without
 * reading it: it is then offered as a suggestion for misspelt keys. */
void input_declare_key(input_file *in, const char *block, const char *key);

/* Check that every key and block of the file was read by some table. Returns 0, or -1 with
 * the first problem by line ("file:line: key: unknown key (did you mean 'X'?)", unknown or
 * extra block) in errbuf. */
int input_check_unused(const input_file *in, char *errbuf, size_t errlen);
/* input_check_unused that stops the program on error; then prints to the log (topic INPUT,
 * level 0) every key read so far with the value used: "key = value", "block N: key = value"
 * for the N-th block of that name, " (default)" where the file does not set the key; keys read
 * later are printed as they are read. Call it once, before any work starts. */
void input_finish(input_file *in);

/* Line of `key` in the top level (block == NULL) or in the first block `block`; 0 when the
 * file does not set it (its default applies). */
int input_key_line(const input_file *in, const char *block, const char *key);
/* Write "file:line: key: message" for a value that was read but is impossible (checks a
 * program makes itself, e.g. across keys). The line is that of `key`; for a key the file does
 * not set, that of its block (or the last line of the file) and the message says that the
 * default value is at fault. */
void input_value_error(const input_file *in, const char *block, const char *key,
                       char *errbuf, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* input_value_error that stops the program (exit code HR_EXIT_INPUT). Call it before any
 * work starts. */
_Noreturn void input_fail(const input_file *in, const char *block, const char *key,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* input_fail for a key of the index-th block `block` (0-based), e.g. the second monomial. */
_Noreturn void input_fail_block(const input_file *in, const char *block, int index,
                                const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Name of the file the input came from. */
const char *input_filename(const input_file *in);
/* Index of `value` among the '|'-separated `choices` ("a|b|c"), or -1: how INPUT_CHOICE keys
 * are read (for the same choices given elsewhere, e.g. in an environment variable). */
int input_choice_index(const char *choices, const char *value);
/* Free the parsed file. */
void input_free(input_file *in);

#endif
