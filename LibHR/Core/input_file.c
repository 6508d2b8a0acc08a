/* input_file.c -- the reader of LibHR input files: parsing of "key = value" lines, "//"
 * comments and "name { ... }" blocks; typed, fully validated reading of keys from tables;
 * bookkeeping of the keys read, so that unknown keys are reported with the nearest valid
 * spelling; ranges of numeric keys; errors in values checked by the programs (input_fail);
 * the record of every key read with the value used, printed to the log by input_finish.
 * Every message has the form "file:line: key: what is wrong". */
#include "input_file.h"
#include "hr_error.h"
#include "logger.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One "key = value" line. */
typedef struct {
  char *key;
  char *value;
  int line;
  int block; /* index into blocks, or -1 for the top level */
  int used;
} input_entry;

/* One "name { ... }" block. */
typedef struct {
  char *name;
  int line;
  int used;
} input_block;

/* A key name some program accepts (read by a table or declared), for suggestions. */
typedef struct {
  char *scope; /* block name, or NULL for the top level */
  char *key;
} input_known_key;

/* A key as the program used it, for the log (input_finish). */
typedef struct {
  char *scope; /* block name, or NULL for the top level */
  int index;   /* which block of that name (0-based) */
  char *key;
  char *value; /* the text of the file, or the default */
  int is_default;
  int logged;  /* already printed */
} input_used_key;

struct input_file {
  char *name;
  int nlines;
  input_entry *entries;
  int n_entries, cap_entries;
  input_block *blocks;
  int n_blocks, cap_blocks;
  input_known_key *known_keys;
  int n_known_keys, cap_known_keys;
  char **known_blocks;
  int n_known_blocks, cap_known_blocks;
  input_used_key *used_keys;
  int n_used_keys, cap_used_keys;
  int log_used_keys; /* set by input_finish: keys read from then on are printed at once */
  int error_is_internal; /* set when the last error comes from the program, not the file */
};

/* ------------------------------------------------------------------ small helpers */

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (q == NULL) hr_error("out of memory (%zu bytes) while reading an input file", n);
  return q;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = xrealloc(NULL, n);
  memcpy(d, s, n);
  return d;
}

/* Grow a dynamic array so that it holds at least n + 1 elements. */
#define GROW(array, n, cap)                                                   \
  do {                                                                        \
    if ((n) == (cap)) {                                                       \
      (cap) = (cap) ? 2 * (cap) : 16;                                         \
      (array) = xrealloc((array), (size_t)(cap) * sizeof *(array));           \
    }                                                                         \
  } while (0)

/* Equal strings, NULL counting as equal only to NULL. */
static int same_scope(const char *a, const char *b) {
  if (a == NULL || b == NULL) return a == b;
  return strcmp(a, b) == 0;
}

/* Write "file:line: key: message" into errbuf. */
static void set_error(char *errbuf, size_t errlen, const char *file, int line, const char *key,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void set_error(char *errbuf, size_t errlen, const char *file, int line, const char *key,
                      const char *fmt, ...) {
  if (errbuf == NULL || errlen == 0) return;
  int n = snprintf(errbuf, errlen, "%s:%d: %s: ", file, line, key);
  if (n < 0 || (size_t)n >= errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(errbuf + n, errlen - (size_t)n, fmt, ap);
  va_end(ap);
}

/* Remove leading and trailing white space in place; returns the new start. */
static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

/* Replace every run of white space inside s by one space (s already trimmed). */
static void collapse_spaces(char *s) {
  char *out = s;
  int in_space = 0;
  for (const char *p = s; *p; p++) {
    if (isspace((unsigned char)*p)) {
      in_space = 1;
      continue;
    }
    if (in_space && out != s) *out++ = ' ';
    in_space = 0;
    *out++ = *p;
  }
  *out = '\0';
}

/* Shorten text for an error message (keeps messages readable for garbage lines). */
static const char *shorten(const char *s, char *buf, size_t len) {
  if (strlen(s) < len) return s;
  snprintf(buf, len, "%.*s...", (int)len - 4, s);
  return buf;
}

/* ------------------------------------------------------------------ parsing */

static input_file *new_input_file(const char *name) {
  input_file *in = xrealloc(NULL, sizeof *in);
  memset(in, 0, sizeof *in);
  in->name = xstrdup(name);
  return in;
}

static int find_entry(const input_file *in, int block, const char *key) {
  for (int i = 0; i < in->n_entries; i++)
    if (in->entries[i].block == block && strcmp(in->entries[i].key, key) == 0) return i;
  return -1;
}

/* Index of the index-th block called `name`, or -1. */
static int find_block(const input_file *in, const char *name, int index) {
  for (int i = 0; i < in->n_blocks; i++)
    if (strcmp(in->blocks[i].name, name) == 0 && index-- == 0) return i;
  return -1;
}

/* Parse one line (comment already removed, trimmed, not empty). Returns 0 or -1. */
static int parse_line(input_file *in, char *text, int lineno, int *open_block, char *errbuf,
                      size_t errlen) {
  char shortbuf[64];
  size_t len = strlen(text);
  if (strcmp(text, "}") == 0) {
    if (*open_block < 0) {
      set_error(errbuf, errlen, in->name, lineno, "}",
                "'}' without an open block (blocks start with a line 'name {')");
      return -1;
    }
    *open_block = -1;
    return 0;
  }
  char *eq = strchr(text, '=');
  if (eq == NULL && text[len - 1] == '{') {
    text[len - 1] = '\0';
    char *name = trim(text);
    collapse_spaces(name);
    if (*name == '\0') {
      set_error(errbuf, errlen, in->name, lineno, "{",
                "block without a name (a block starts with a line 'name {')");
      return -1;
    }
    if (strpbrk(name, "{}") != NULL) {
      set_error(errbuf, errlen, in->name, lineno, shorten(name, shortbuf, sizeof shortbuf),
                "malformed block header (a block starts with a line 'name {' and ends with "
                "a line '}')");
      return -1;
    }
    if (*open_block >= 0) {
      const input_block *outer = &in->blocks[*open_block];
      set_error(errbuf, errlen, in->name, lineno, name,
                "block inside block '%s' opened on line %d (blocks cannot be nested; "
                "missing '}'?)",
                outer->name, outer->line);
      return -1;
    }
    GROW(in->blocks, in->n_blocks, in->cap_blocks);
    in->blocks[in->n_blocks] = (input_block){xstrdup(name), lineno, 0};
    *open_block = in->n_blocks++;
    return 0;
  }
  if (eq == NULL) {
    if (strpbrk(text, "{}") != NULL)
      set_error(errbuf, errlen, in->name, lineno, shorten(text, shortbuf, sizeof shortbuf),
                "unexpected '{' or '}' (a block starts with a line 'name {' and ends with a "
                "line '}')");
    else
      set_error(errbuf, errlen, in->name, lineno, shorten(text, shortbuf, sizeof shortbuf),
                "line without '=' (expected 'key = value')");
    return -1;
  }
  *eq = '\0';
  char *key = trim(text);
  char *value = trim(eq + 1);
  collapse_spaces(key);
  if (*key == '\0') {
    set_error(errbuf, errlen, in->name, lineno, "=", "missing key name before '='");
    return -1;
  }
  if (strpbrk(key, "{}") != NULL) {
    set_error(errbuf, errlen, in->name, lineno, shorten(key, shortbuf, sizeof shortbuf),
              "'{' or '}' in a key name (a block starts with a line 'name {')");
    return -1;
  }
  int previous = find_entry(in, *open_block, key);
  if (previous >= 0) {
    set_error(errbuf, errlen, in->name, lineno, key, "repeated key (first set on line %d)",
              in->entries[previous].line);
    return -1;
  }
  GROW(in->entries, in->n_entries, in->cap_entries);
  in->entries[in->n_entries++] =
      (input_entry){xstrdup(key), xstrdup(value), lineno, *open_block, 0};
  return 0;
}

input_file *input_parse_string(const char *name, const char *text, char *errbuf,
                               size_t errlen) {
  input_file *in = new_input_file(name);
  char *copy = xstrdup(text);
  int open_block = -1;
  int lineno = 0;
  char *line = copy;
  while (line != NULL && *line != '\0') {
    lineno++;
    char *next = strchr(line, '\n');
    if (next != NULL) *next++ = '\0';
    char *comment = strstr(line, "//");
    if (comment != NULL) *comment = '\0';
    char *t = trim(line);
    if (*t != '\0' && parse_line(in, t, lineno, &open_block, errbuf, errlen) != 0) {
      free(copy);
      input_free(in);
      return NULL;
    }
    line = next;
  }
  free(copy);
  in->nlines = lineno;
  if (open_block >= 0) {
    const input_block *b = &in->blocks[open_block];
    set_error(errbuf, errlen, in->name, b->line, b->name,
              "block not closed (missing '}' before the end of the file)");
    input_free(in);
    return NULL;
  }
  return in;
}

input_file *input_parse(const char *path, char *errbuf, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    if (errbuf && errlen)
      snprintf(errbuf, errlen, "%s: cannot open the input file (%s)", path, strerror(errno));
    return NULL;
  }
  char *text = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = 2 * cap + 4096 + 1;
      text = xrealloc(text, cap);
    }
    size_t got = fread(text + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int read_error = ferror(f);
  fclose(f);
  if (read_error) {
    if (errbuf && errlen) snprintf(errbuf, errlen, "%s: error while reading the input file", path);
    free(text);
    return NULL;
  }
  text[n] = '\0';
  const char *nul = memchr(text, '\0', n);
  if (nul != NULL) {
    int line = 1;
    for (const char *p = text; p < nul; p++) line += (*p == '\n');
    set_error(errbuf, errlen, path, line, "(binary)",
              "NUL byte in the input file (is this a text file?)");
    free(text);
    return NULL;
  }
  input_file *in = input_parse_string(path, text, errbuf, errlen);
  free(text);
  return in;
}

input_file *input_open(const char *path) {
  char err[1024];
  input_file *in = input_parse(path, err, sizeof err);
  if (in == NULL) hr_fatal(HR_EXIT_INPUT, "%s", err);
  return in;
}

void input_free(input_file *in) {
  if (in == NULL) return;
  for (int i = 0; i < in->n_entries; i++) {
    free(in->entries[i].key);
    free(in->entries[i].value);
  }
  for (int i = 0; i < in->n_blocks; i++) free(in->blocks[i].name);
  for (int i = 0; i < in->n_known_keys; i++) {
    free(in->known_keys[i].scope);
    free(in->known_keys[i].key);
  }
  for (int i = 0; i < in->n_known_blocks; i++) free(in->known_blocks[i]);
  for (int i = 0; i < in->n_used_keys; i++) {
    free(in->used_keys[i].scope);
    free(in->used_keys[i].key);
    free(in->used_keys[i].value);
  }
  free(in->used_keys);
  free(in->entries);
  free(in->blocks);
  free(in->known_keys);
  free(in->known_blocks);
  free(in->name);
  free(in);
}

const char *input_filename(const input_file *in) { return in->name; }

/* ------------------------------------------------------------------ known names */

static void declare_block(input_file *in, const char *block) {
  for (int i = 0; i < in->n_known_blocks; i++)
    if (strcmp(in->known_blocks[i], block) == 0) return;
  GROW(in->known_blocks, in->n_known_blocks, in->cap_known_blocks);
  in->known_blocks[in->n_known_blocks++] = xstrdup(block);
}

static int block_is_known(const input_file *in, const char *block) {
  for (int i = 0; i < in->n_known_blocks; i++)
    if (strcmp(in->known_blocks[i], block) == 0) return 1;
  return 0;
}

void input_declare_key(input_file *in, const char *block, const char *key) {
  if (block != NULL) declare_block(in, block);
  for (int i = 0; i < in->n_known_keys; i++)
    if (same_scope(in->known_keys[i].scope, block) && strcmp(in->known_keys[i].key, key) == 0)
      return;
  GROW(in->known_keys, in->n_known_keys, in->cap_known_keys);
  in->known_keys[in->n_known_keys++] =
      (input_known_key){block ? xstrdup(block) : NULL, xstrdup(key)};
}

/* Edit distance between a and b (case-insensitive; insertions, deletions, substitutions
 * and swaps of neighbouring characters cost 1). Names longer than 255 are "far". */
static int edit_distance(const char *a, const char *b) {
  enum { LONGEST = 255 };
  size_t na = strlen(a), nb = strlen(b);
  if (na > LONGEST || nb > LONGEST) return INT_MAX;
  int rows[3][LONGEST + 1]; /* rows i-2, i-1, i of the distance table, cyclically */
  for (size_t j = 0; j <= nb; j++) rows[0][j] = (int)j;
  for (size_t i = 1; i <= na; i++) {
    int *cur = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];
    cur[0] = (int)i;
    for (size_t j = 1; j <= nb; j++) {
      int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
      int best = up[j - 1] + (ca != cb);
      if (up[j] + 1 < best) best = up[j] + 1;
      if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
      if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == cb && up2[j - 2] + 1 < best)
        best = up2[j - 2] + 1;
      cur[j] = best;
    }
  }
  return rows[na % 3][nb];
}

/* Whether `candidate` is close enough to `word` to be suggested, and how close. */
static int suggestion_distance(const char *word, const char *candidate) {
  int dist = edit_distance(word, candidate);
  int limit = 1 + (int)strlen(word) / 4;
  if (dist > limit || dist >= (int)strlen(candidate)) return INT_MAX;
  return dist;
}

/* The nearest name among the n `names`, or NULL. */
static const char *nearest_name(const char *word, const char *const *names, int n) {
  const char *best = NULL;
  int best_dist = INT_MAX;
  for (int i = 0; i < n; i++) {
    int dist = suggestion_distance(word, names[i]);
    if (dist < best_dist) {
      best_dist = dist;
      best = names[i];
    }
  }
  return best;
}

/* The nearest known key of scope `scope` (only_scope) or of any scope. */
static const char *nearest_key(const input_file *in, const char *scope, const char *key,
                               int only_scope) {
  const char *best = NULL;
  int best_dist = INT_MAX;
  for (int i = 0; i < in->n_known_keys; i++) {
    if (only_scope && !same_scope(in->known_keys[i].scope, scope)) continue;
    int dist = suggestion_distance(key, in->known_keys[i].key);
    if (dist < best_dist) {
      best_dist = dist;
      best = in->known_keys[i].key;
    }
  }
  return best;
}

/* Message for a key nobody reads: entry e in scope `scope` (NULL: top level). */
static void unknown_key_message(const input_file *in, const input_entry *e, const char *scope,
                                char *errbuf, size_t errlen) {
  /* The exact key is valid elsewhere? */
  for (int i = 0; i < in->n_known_keys; i++) {
    const input_known_key *k = &in->known_keys[i];
    if (strcmp(k->key, e->key) != 0 || same_scope(k->scope, scope)) continue;
    if (k->scope == NULL)
      set_error(errbuf, errlen, in->name, e->line, e->key,
                "unknown key in block '%s' (it is a top-level key: move it outside the block)",
                scope);
    else if (scope == NULL)
      set_error(errbuf, errlen, in->name, e->line, e->key,
                "unknown key at the top level (it belongs in a block '%s { ... }')", k->scope);
    else
      set_error(errbuf, errlen, in->name, e->line, e->key,
                "unknown key in block '%s' (it belongs in a block '%s { ... }')", scope,
                k->scope);
    return;
  }
  const char *suggestion = nearest_key(in, scope, e->key, 1);
  if (suggestion == NULL) suggestion = nearest_key(in, scope, e->key, 0);
  char where[128] = "";
  if (scope != NULL) snprintf(where, sizeof where, " in block '%s'", scope);
  if (suggestion != NULL)
    set_error(errbuf, errlen, in->name, e->line, e->key, "unknown key%s (did you mean '%s'?)",
              where, suggestion);
  else
    set_error(errbuf, errlen, in->name, e->line, e->key,
              "unknown key%s (this program does not use it; check the spelling or remove "
              "the line)",
              where);
}

/* ------------------------------------------------------------------ typed values */

/* Text such as "an integer" for messages. */
static void describe_type(const input_key *k, char *buf, size_t len) {
  switch (k->type) {
    case INPUT_INT:
    case INPUT_LONG: snprintf(buf, len, "an integer"); break;
    case INPUT_DOUBLE: snprintf(buf, len, "a number"); break;
    case INPUT_STRING: snprintf(buf, len, "a text of at most %d characters", INPUT_STRING_MAX - 1); break;
    case INPUT_BOOL: snprintf(buf, len, "true/false, yes/no, on/off or 1/0"); break;
    case INPUT_CHOICE: {
      int n = snprintf(buf, len, "one of: ");
      for (const char *c = k->choices ? k->choices : ""; *c && n >= 0 && (size_t)n < len; c++)
        n += snprintf(buf + n, len - (size_t)n, *c == '|' ? ", " : "%c", *c);
      break;
    }
    default: snprintf(buf, len, "a value"); break;
  }
}

/* Parse a decimal integer in [lo, hi]; returns 0, -1 malformed, -2 out of range. */
static int parse_integer(const char *s, long long lo, long long hi, long long *out) {
  if (*s == '\0' || isspace((unsigned char)*s)) return -1;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end != '\0') return -1;
  if (errno == ERANGE || v < lo || v > hi) return -2;
  *out = v;
  return 0;
}

int input_choice_index(const char *choices, const char *value) {
  int index = 0;
  size_t n = strlen(value);
  for (const char *c = choices; c != NULL; index++) {
    const char *bar = strchr(c, '|');
    size_t len = bar ? (size_t)(bar - c) : strlen(c);
    if (len == n && strncmp(c, value, n) == 0) return index;
    c = bar ? bar + 1 : NULL;
  }
  return -1;
}

/* Nearest choice to `value` (copied into buf), or NULL. */
static const char *nearest_choice(const char *choices, const char *value, char *buf,
                                  size_t len) {
  const char *best = NULL;
  int best_dist = INT_MAX;
  char one[INPUT_STRING_MAX];
  for (const char *c = choices; c != NULL;) {
    const char *bar = strchr(c, '|');
    size_t n = bar ? (size_t)(bar - c) : strlen(c);
    if (n < sizeof one) {
      memcpy(one, c, n);
      one[n] = '\0';
      int dist = suggestion_distance(value, one);
      if (dist < best_dist) {
        best_dist = dist;
        snprintf(buf, len, "%s", one);
        best = buf;
      }
    }
    c = bar ? bar + 1 : NULL;
  }
  return best;
}

/* Whether v satisfies the range `spec` of a numeric key (conditions ">x", ">=x", "<x", "<=x"
 * separated by spaces). Returns 1 (inside), 0 (outside), or -1 when spec is malformed (a bug
 * in the program's key table); the conditions in words ("> 0 and < 1") go to `words`. */
static int in_range(const char *spec, double v, char *words, size_t wordslen) {
  int inside = 1;
  size_t n = 0;
  words[0] = '\0';
  for (const char *c = spec; *c != '\0';) {
    if (*c == ' ') {
      c++;
      continue;
    }
    if (*c != '<' && *c != '>') return -1;
    int greater = *c == '>', or_equal = c[1] == '=';
    c += 1 + or_equal;
    char *end;
    double bound = strtod(c, &end);
    if (end == c || (*end != ' ' && *end != '\0')) return -1;
    int ok = greater ? (or_equal ? v >= bound : v > bound) : (or_equal ? v <= bound : v < bound);
    inside = inside && ok;
    if (n < wordslen)
      n += (size_t)snprintf(words + n, wordslen - n, "%s%s%s %.*s", n ? " and " : "",
                            greater ? ">" : "<", or_equal ? "=" : "", (int)(end - c), c);
    c = end;
  }
  return inside;
}

/* Range check of a numeric key k whose value v was written `shown`: 0 inside (or no range),
 * -1 outside with the reason in why, -2 for a malformed range in the key table. */
static int check_range(const input_key *k, double v, const char *shown, char *why,
                       size_t whylen) {
  if (k->choices == NULL) return 0;
  char words[256];
  int inside = in_range(k->choices, v, words, sizeof words);
  if (inside < 0) {
    snprintf(why, whylen, "malformed range '%s' in the program's key table (a bug in the program)",
             k->choices);
    return -2;
  }
  if (inside) return 0;
  if (k->help != NULL && *k->help != '\0')
    snprintf(why, whylen, "value %s out of range: must be %s (%s)", shown, words, k->help);
  else
    snprintf(why, whylen, "value %s out of range: must be %s", shown, words);
  return -1;
}

/* Check `value` against the type and range of k and store it in k->target (when not NULL).
 * Returns 0, or -1 with the reason (e.g. "malformed value 'x' (expected an integer)") in why,
 * or -2 when the key table itself is wrong (a bug in the program). */
static int convert_value(const input_key *k, const char *value, char *why, size_t whylen) {
  char expected[512];
  char shortbuf[80];
  const char *shown = shorten(value, shortbuf, sizeof shortbuf);
  describe_type(k, expected, sizeof expected);
  if (*value == '\0' && k->type != INPUT_STRING) {
    snprintf(why, whylen, "missing value (expected %s)", expected);
    return -1;
  }
  switch (k->type) {
    case INPUT_INT:
    case INPUT_LONG: {
      long long lo = k->type == INPUT_INT ? INT_MIN : LLONG_MIN;
      long long hi = k->type == INPUT_INT ? INT_MAX : LLONG_MAX;
      long long v = 0;
      int rc = parse_integer(value, lo, hi, &v);
      if (rc == -1) {
        snprintf(why, whylen, "malformed value '%s' (expected an integer)", shown);
        return -1;
      }
      if (rc == -2) {
        snprintf(why, whylen, "value '%s' out of range (expected an integer from %lld to %lld)",
                 shown, lo, hi);
        return -1;
      }
      int range = check_range(k, (double)v, shown, why, whylen);
      if (range != 0) return range;
      if (k->target != NULL) {
        if (k->type == INPUT_INT)
          *(int *)k->target = (int)v;
        else
          *(long long *)k->target = v;
      }
      return 0;
    }
    case INPUT_DOUBLE: {
      char *end;
      errno = 0;
      double v = strtod(value, &end);
      if (end == value || *end != '\0' || isspace((unsigned char)*value)) {
        snprintf(why, whylen, "malformed value '%s' (expected a number)", shown);
        return -1;
      }
      if (!isfinite(v) || (errno == ERANGE && fabs(v) == HUGE_VAL)) {
        snprintf(why, whylen, "value '%s' is not a finite number (expected a number)", shown);
        return -1;
      }
      int range = check_range(k, v, shown, why, whylen);
      if (range != 0) return range;
      if (k->target != NULL) *(double *)k->target = v;
      return 0;
    }
    case INPUT_STRING: {
      size_t n = strlen(value);
      if (n >= INPUT_STRING_MAX) {
        snprintf(why, whylen, "value too long (%zu characters; at most %d)", n,
                 INPUT_STRING_MAX - 1);
        return -1;
      }
      if (k->target != NULL) memcpy(k->target, value, n + 1);
      return 0;
    }
    case INPUT_BOOL: {
      static const char *const truths[] = {"true", "yes", "on", "1"};
      static const char *const falsities[] = {"false", "no", "off", "0"};
      for (int i = 0; i < 4; i++) {
        if (strcasecmp(value, truths[i]) == 0 || strcasecmp(value, falsities[i]) == 0) {
          if (k->target != NULL) *(int *)k->target = strcasecmp(value, truths[i]) == 0;
          return 0;
        }
      }
      snprintf(why, whylen, "malformed value '%s' (expected %s)", shown, expected);
      return -1;
    }
    case INPUT_CHOICE: {
      if (k->choices == NULL) {
        snprintf(why, whylen, "key of type INPUT_CHOICE without choices (a bug in the program)");
        return -1;
      }
      int index = input_choice_index(k->choices, value);
      if (index < 0) {
        char near[INPUT_STRING_MAX];
        const char *suggestion = nearest_choice(k->choices, value, near, sizeof near);
        if (suggestion != NULL)
          snprintf(why, whylen, "invalid value '%s' (expected %s; did you mean '%s'?)", shown,
                   expected, suggestion);
        else
          snprintf(why, whylen, "invalid value '%s' (expected %s)", shown, expected);
        return -1;
      }
      if (k->target != NULL) *(int *)k->target = index;
      return 0;
    }
  }
  snprintf(why, whylen, "unknown key type %d (a bug in the program)", (int)k->type);
  return -1;
}

/* Placeholder such as "<integer>" for "add 'KEY = <integer>'". */
static const char *placeholder(const input_key *k) {
  switch (k->type) {
    case INPUT_INT:
    case INPUT_LONG: return "<integer>";
    case INPUT_DOUBLE: return "<number>";
    case INPUT_STRING: return "<text>";
    case INPUT_BOOL: return "true|false";
    case INPUT_CHOICE: return k->choices ? k->choices : "<choice>";
  }
  return "<value>";
}

/* ------------------------------------------------------------------ record of used keys */

/* Print the used keys not printed yet: "key = value", "block N: key = value" (N counted from
 * 1), " (default)" where the file does not set the key. */
static void log_used_keys(input_file *in) {
  for (int i = 0; i < in->n_used_keys; i++) {
    input_used_key *u = &in->used_keys[i];
    if (u->logged) continue;
    const char *value = *u->value != '\0' ? u->value : "\"\"";
    const char *mark = u->is_default ? " (default)" : "";
    if (u->scope == NULL)
      lprintf("INPUT", 0, "%s = %s%s\n", u->key, value, mark);
    else
      lprintf("INPUT", 0, "%s %d: %s = %s%s\n", u->scope, u->index + 1, u->key, value, mark);
    u->logged = 1;
  }
}

/* Remember `value`, read for `key` of the index-th block `scope` (NULL: top level); a key
 * read again keeps its place, with the last value. After input_finish: printed at once. */
static void record_used_key(input_file *in, const char *scope, int index, const char *key,
                            const char *value, int is_default) {
  input_used_key *u = NULL;
  for (int i = 0; i < in->n_used_keys && u == NULL; i++) {
    input_used_key *v = &in->used_keys[i];
    if (same_scope(v->scope, scope) && v->index == index && strcmp(v->key, key) == 0) u = v;
  }
  if (u != NULL && strcmp(u->value, value) == 0 && u->is_default == is_default) return;
  if (u == NULL) {
    GROW(in->used_keys, in->n_used_keys, in->cap_used_keys);
    u = &in->used_keys[in->n_used_keys++];
    *u = (input_used_key){scope ? xstrdup(scope) : NULL, index, xstrdup(key), NULL, 0, 0};
  }
  free(u->value);
  u->value = xstrdup(value);
  u->is_default = is_default;
  u->logged = 0;
  if (in->log_used_keys) log_used_keys(in);
}

/* ------------------------------------------------------------------ reading tables */

/* An entry of block bi (-1: top level) that no table has read, whose key is not valid
 * anywhere and is a near spelling of `key`: the likely misspelling of a missing key. */
static const input_entry *near_unread_entry(const input_file *in, int bi, const char *key) {
  const input_entry *best = NULL;
  int best_dist = INT_MAX;
  for (int i = 0; i < in->n_entries; i++) {
    const input_entry *e = &in->entries[i];
    if (e->block != bi || e->used) continue;
    int known = 0;
    for (int j = 0; j < in->n_known_keys && !known; j++)
      known = strcmp(in->known_keys[j].key, e->key) == 0;
    if (known) continue;
    int dist = suggestion_distance(e->key, key);
    if (dist < best_dist) {
      best_dist = dist;
      best = e;
    }
  }
  return best;
}

/* Read `keys` from block index `bi` (-1: top level) of the scope `scope` (NULL: top level),
 * the index-th block of that name. When the scope is a block the file lacks, bi is -2 and only
 * defaults apply. */
static int read_scope(input_file *in, int bi, const char *scope, int index,
                      const input_key *keys, char *errbuf, size_t errlen) {
  in->error_is_internal = 0;
  if (scope != NULL) declare_block(in, scope);
  for (const input_key *k = keys; k->name != NULL; k++) input_declare_key(in, scope, k->name);
  if (bi >= 0) in->blocks[bi].used = 1;
  char why[1024];
  for (const input_key *k = keys; k->name != NULL; k++) {
    int ei = bi >= -1 ? find_entry(in, bi, k->name) : -1;
    if (ei >= 0) {
      input_entry *e = &in->entries[ei];
      e->used = 1;
      int rc = convert_value(k, e->value, why, sizeof why);
      if (rc != 0) {
        set_error(errbuf, errlen, in->name, e->line, k->name, "%s", why);
        in->error_is_internal = rc == -2;
        return -1;
      }
      record_used_key(in, scope, index, k->name, e->value, 0);
      continue;
    }
    if (k->default_value == NULL) {
      const input_entry *misspelt = bi >= -1 ? near_unread_entry(in, bi, k->name) : NULL;
      if (misspelt != NULL) {
        unknown_key_message(in, misspelt, scope, errbuf, errlen);
        return -1;
      }
      char help[512] = "";
      if (k->help != NULL && *k->help != '\0') snprintf(help, sizeof help, " (%s)", k->help);
      if (scope == NULL)
        set_error(errbuf, errlen, in->name, in->nlines, k->name,
                  "required key missing; add a line '%s = %s'%s", k->name, placeholder(k), help);
      else if (bi >= 0)
        set_error(errbuf, errlen, in->name, in->blocks[bi].line, k->name,
                  "required key missing in block '%s'; add a line '%s = %s'%s", scope, k->name,
                  placeholder(k), help);
      else
        set_error(errbuf, errlen, in->name, in->nlines, k->name,
                  "required key missing: the file has no block '%s' (add a block '%s { ... }' "
                  "with a line '%s = %s')%s",
                  scope, scope, k->name, placeholder(k), help);
      return -1;
    }
    if (convert_value(k, k->default_value, why, sizeof why) != 0) { /* default out of range too */
      set_error(errbuf, errlen, in->name, 0, k->name,
                "invalid default value in the program's key table: %s (a bug in the program)",
                why);
      in->error_is_internal = 1;
      return -1;
    }
    record_used_key(in, scope, index, k->name, k->default_value, 1);
  }
  return 0;
}

int input_read_keys(input_file *in, const char *block, const input_key *keys, char *errbuf,
                    size_t errlen) {
  return input_read_block_keys(in, block, 0, keys, errbuf, errlen);
}

int input_read_block_keys(input_file *in, const char *block, int index, const input_key *keys,
                          char *errbuf, size_t errlen) {
  if (block == NULL) return read_scope(in, -1, NULL, 0, keys, errbuf, errlen);
  int bi = find_block(in, block, index);
  return read_scope(in, bi >= 0 ? bi : -2, block, index, keys, errbuf, errlen);
}

void input_read(input_file *in, const char *block, const input_key *keys) {
  char err[2048];
  if (input_read_keys(in, block, keys, err, sizeof err) != 0)
    hr_fatal(in->error_is_internal ? HR_EXIT_INTERNAL : HR_EXIT_INPUT, "%s", err);
}

/* "a (help a) and b (help b)", or "'a = <number>' or 'b = <number>'" (lines), for the
 * alternatives of input_read_one_of_keys. */
static void list_alternatives(const input_key *keys, int lines, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (const input_key *k = keys; k->name != NULL && n < len; k++) {
    const char *sep = k == keys ? "" : (k + 1)->name != NULL ? ", " : lines ? " or " : " and ";
    if (lines)
      n += (size_t)snprintf(buf + n, len - n, "%s'%s = %s'", sep, k->name, placeholder(k));
    else if (k->help != NULL && *k->help != '\0')
      n += (size_t)snprintf(buf + n, len - n, "%s%s (%s)", sep, k->name, k->help);
    else
      n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, k->name);
  }
}

int input_read_one_of_keys(input_file *in, const char *block, const input_key *keys,
                           int *which, char *errbuf, size_t errlen) {
  in->error_is_internal = 0;
  int bi = -1; /* -1: top level; -2: a block the file lacks */
  if (block != NULL) {
    declare_block(in, block);
    bi = find_block(in, block, 0);
    if (bi < 0) bi = -2;
  }
  for (const input_key *k = keys; k->name != NULL; k++) input_declare_key(in, block, k->name);
  /* the two keys set earliest in the file */
  const input_key *first = NULL, *second = NULL;
  int first_line = 0, second_line = 0;
  for (const input_key *k = keys; k->name != NULL && bi >= -1; k++) {
    const int ei = find_entry(in, bi, k->name);
    if (ei < 0) continue;
    const int line = in->entries[ei].line;
    if (first == NULL || line < first_line) {
      second = first;
      second_line = first_line;
      first = k;
      first_line = line;
    } else if (second == NULL || line < second_line) {
      second = k;
      second_line = line;
    }
  }
  char names[1024], lines[1024];
  list_alternatives(keys, 0, names, sizeof names);
  list_alternatives(keys, 1, lines, sizeof lines);
  if (second != NULL) {
    set_error(errbuf, errlen, in->name, second_line, second->name,
              "give only one of %s (%s is set on line %d): remove one of the two lines", names,
              first->name, first_line);
    return -1;
  }
  if (first != NULL) {
    const input_key one[2] = {*first, INPUT_KEYS_END};
    if (read_scope(in, bi, block, 0, one, errbuf, errlen) != 0) return -1;
    if (which != NULL) *which = (int)(first - keys);
    return 0;
  }
  /* none set: a near spelling of one of them that nobody reads is the likely culprit */
  const input_entry *misspelt = NULL;
  for (const input_key *k = keys; k->name != NULL && bi >= -1; k++) {
    const input_entry *e = near_unread_entry(in, bi, k->name);
    if (e != NULL && (misspelt == NULL || e->line < misspelt->line)) misspelt = e;
  }
  if (misspelt != NULL) {
    unknown_key_message(in, misspelt, block, errbuf, errlen);
    return -1;
  }
  if (block == NULL)
    set_error(errbuf, errlen, in->name, in->nlines, keys[0].name,
              "required key missing: give exactly one of %s; add a line %s", names, lines);
  else if (bi >= 0)
    set_error(errbuf, errlen, in->name, in->blocks[bi].line, keys[0].name,
              "required key missing in block '%s': give exactly one of %s; add a line %s",
              block, names, lines);
  else
    set_error(errbuf, errlen, in->name, in->nlines, keys[0].name,
              "required key missing: the file has no block '%s' (add a block '%s { ... }' "
              "with a line %s): give exactly one of %s",
              block, block, lines, names);
  return -1;
}

int input_read_one_of(input_file *in, const char *block, const input_key *keys) {
  char err[2048];
  int which = -1;
  if (input_read_one_of_keys(in, block, keys, &which, err, sizeof err) != 0)
    hr_fatal(in->error_is_internal ? HR_EXIT_INTERNAL : HR_EXIT_INPUT, "%s", err);
  return which;
}

int input_count_blocks(input_file *in, const char *block) {
  declare_block(in, block);
  int n = 0;
  for (int i = 0; i < in->n_blocks; i++) n += strcmp(in->blocks[i].name, block) == 0;
  return n;
}

int input_has_key(const input_file *in, const char *block, const char *key) {
  int bi = -1;
  if (block != NULL) {
    bi = find_block(in, block, 0);
    if (bi < 0) return 0;
  }
  return find_entry(in, bi, key) >= 0;
}

void input_foreach_prefix(input_file *in, const char *prefix,
                          void (*fn)(const char *key, const char *value, int line, void *ctx),
                          void *ctx) {
  size_t n = strlen(prefix);
  for (int i = 0; i < in->n_entries; i++) {
    input_entry *e = &in->entries[i];
    if (e->block == -1 && strncmp(e->key, prefix, n) == 0) {
      e->used = 1;
      fn(e->key, e->value, e->line, ctx);
      record_used_key(in, NULL, 0, e->key, e->value, 0);
    }
  }
}

/* ------------------------------------------------------------------ unused keys */

/* Line and message of the first problem of block bi, or 0 if the block is fine. */
static int block_problem(const input_file *in, int bi, char *errbuf, size_t errlen) {
  const input_block *b = &in->blocks[bi];
  if (b->used) return 0;
  if (!block_is_known(in, b->name)) {
    const char *suggestion =
        nearest_name(b->name, (const char *const *)in->known_blocks, in->n_known_blocks);
    if (suggestion != NULL)
      set_error(errbuf, errlen, in->name, b->line, b->name,
                "unknown block (did you mean '%s'?)", suggestion);
    else
      set_error(errbuf, errlen, in->name, b->line, b->name,
                "unknown block (this program does not use it; check the spelling or remove "
                "the block)");
    return b->line;
  }
  int first = find_block(in, b->name, 0);
  int n_read = 0;
  for (int i = 0; i < in->n_blocks; i++)
    n_read += strcmp(in->blocks[i].name, b->name) == 0 && in->blocks[i].used;
  if (first != bi && n_read > 0)
    set_error(errbuf, errlen, in->name, b->line, b->name,
              "extra block (this program reads %d block%s '%s'; the first is on line %d)",
              n_read, n_read == 1 ? "" : "s", b->name, in->blocks[first].line);
  else
    set_error(errbuf, errlen, in->name, b->line, b->name,
              "block not read by this program (remove it)");
  return b->line;
}

int input_check_unused(const input_file *in, char *errbuf, size_t errlen) {
  /* Entries and blocks are stored in file order: the first problem found in each list is
   * the earliest of its kind; report the earlier of the two. */
  char block_msg[2048] = "";
  int block_line = 0;
  for (int bi = 0; bi < in->n_blocks && block_line == 0; bi++)
    block_line = block_problem(in, bi, block_msg, sizeof block_msg);
  char key_msg[2048] = "";
  int key_line = 0;
  for (int i = 0; i < in->n_entries && key_line == 0; i++) {
    const input_entry *e = &in->entries[i];
    if (e->used) continue;
    if (e->block >= 0 && !in->blocks[e->block].used) continue; /* the block is reported */
    unknown_key_message(in, e, e->block >= 0 ? in->blocks[e->block].name : NULL, key_msg,
                        sizeof key_msg);
    key_line = e->line;
  }
  if (block_line == 0 && key_line == 0) return 0;
  const char *msg = (block_line != 0 && (key_line == 0 || block_line < key_line)) ? block_msg
                                                                                   : key_msg;
  if (errbuf && errlen) snprintf(errbuf, errlen, "%s", msg);
  return -1;
}

void input_finish(input_file *in) {
  char err[2048];
  if (input_check_unused(in, err, sizeof err) != 0) hr_fatal(HR_EXIT_INPUT, "%s", err);
  log_used_keys(in);
  in->log_used_keys = 1;
}

/* ------------------------------------------------------------------ errors in values */

/* Line of `key` in the index-th block `block` (the top level for block == NULL), 0 if unset. */
static int key_line_in_block(const input_file *in, const char *block, int index, const char *key) {
  int bi = -1;
  if (block != NULL) {
    bi = find_block(in, block, index);
    if (bi < 0) return 0;
  }
  int ei = find_entry(in, bi, key);
  return ei >= 0 ? in->entries[ei].line : 0;
}

int input_key_line(const input_file *in, const char *block, const char *key) {
  return key_line_in_block(in, block, 0, key);
}

/* input_value_error with a va_list, for the index-th block `block`. */
static void value_error(const input_file *in, const char *block, int index, const char *key,
                        char *errbuf, size_t errlen, const char *fmt, va_list ap) {
  char why[1536];
  vsnprintf(why, sizeof why, fmt, ap);
  int line = key_line_in_block(in, block, index, key);
  if (line > 0) {
    set_error(errbuf, errlen, in->name, line, key, "%s", why);
    return;
  }
  int bi = block != NULL ? find_block(in, block, index) : -1;
  line = bi >= 0 ? in->blocks[bi].line : in->nlines;
  set_error(errbuf, errlen, in->name, line, key, "%s (the file does not set %s: its default "
            "value is at fault; add a line '%s = ...')", why, key, key);
}

void input_value_error(const input_file *in, const char *block, const char *key, char *errbuf,
                       size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  value_error(in, block, 0, key, errbuf, errlen, fmt, ap);
  va_end(ap);
}

_Noreturn void input_fail(const input_file *in, const char *block, const char *key,
                          const char *fmt, ...) {
  char err[2048];
  va_list ap;
  va_start(ap, fmt);
  value_error(in, block, 0, key, err, sizeof err, fmt, ap);
  va_end(ap);
  hr_fatal(HR_EXIT_INPUT, "%s", err);
}

_Noreturn void input_fail_block(const input_file *in, const char *block, int index,
                                const char *key, const char *fmt, ...) {
  char err[2048];
  va_list ap;
  va_start(ap, fmt);
  value_error(in, block, index, key, err, sizeof err, fmt, ap);
  va_end(ap);
  hr_fatal(HR_EXIT_INPUT, "%s", err);
}
