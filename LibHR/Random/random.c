/* random.c -- the process-local global state of the random-number layer (seed and draw
 * counter), its text form "libhr-rng seed=<u64> draw=<u64>", and global streams. The
 * per-stream mathematics is in Include/random_inline.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "hr_error.h"
#include "random.h"

/* The global state; every rank holds the same copy and updates it in the same sequence. */
static hr_rng_state rng_global = {0, 0};

void rng_init(uint64_t seed) {
  rng_global.seed = seed;
  rng_global.draw = 0;
}

hr_rng_state rng_get_state(void) { return rng_global; }

void rng_set_state(hr_rng_state st) {
  if (st.draw > HR_RNG_MAX_DRAW + 1)
    hr_error("random state: draw counter %" PRIu64 " exceeds the limit %" PRIu64,
             st.draw, HR_RNG_MAX_DRAW + 1);
  rng_global = st;
}

uint64_t rng_next_draw(void) {
  if (rng_global.draw > HR_RNG_MAX_DRAW)
    hr_error("random numbers: all 2^48 draws of seed %" PRIu64
             " are used; start a new run with another seed",
             rng_global.seed);
  return rng_global.draw++;
}

void rng_global_stream(hr_rng_stream *s) {
  const uint64_t draw = rng_next_draw();
  rng_stream_init(s, rng_global.seed, draw, HR_RNG_NO_SITE);
}

int rng_write_state(FILE *f, hr_rng_state st) {
  if (fprintf(f, "libhr-rng seed=%" PRIu64 " draw=%" PRIu64 "\n", st.seed, st.draw) < 0)
    return -1;
  return 0;
}

/* Parse a decimal uint64 at *p (digits only, no sign, no leading zeros beyond "0", no
 * overflow); advance *p past it. Returns 0 or -1. */
static int parse_u64(const char **p, uint64_t *value) {
  const char *c = *p;
  uint64_t v = 0;
  if (*c < '0' || *c > '9') return -1;
  if (*c == '0' && c[1] >= '0' && c[1] <= '9') return -1;
  for (; *c >= '0' && *c <= '9'; ++c) {
    const uint64_t digit = (uint64_t)(*c - '0');
    if (v > (UINT64_MAX - digit) / 10) return -1;
    v = 10 * v + digit;
  }
  *p = c;
  *value = v;
  return 0;
}

/* Match the literal `word` at *p and advance past it. Returns 0 or -1. */
static int parse_word(const char **p, const char *word) {
  const size_t n = strlen(word);
  if (strncmp(*p, word, n) != 0) return -1;
  *p += n;
  return 0;
}

int rng_parse_state(hr_rng_state *st, const char *line) {
  const char *p = line;
  hr_rng_state parsed;
  if (parse_word(&p, "libhr-rng seed=") || parse_u64(&p, &parsed.seed)) return -1;
  if (parse_word(&p, " draw=") || parse_u64(&p, &parsed.draw)) return -1;
  if (*p == '\r') ++p;
  if (*p == '\n') ++p;
  if (*p != '\0') return -1;
  if (parsed.draw > HR_RNG_MAX_DRAW + 1) return -1;
  *st = parsed;
  return 0;
}

int rng_read_state(hr_rng_state *st, FILE *f) {
  char line[128];
  if (fgets(line, sizeof line, f) == NULL) return -1;
  const size_t len = strlen(line);
  if (len == sizeof line - 1 && line[len - 1] != '\n') return -1; /* line too long */
  return rng_parse_state(st, line);
}
