/* random.h -- counter-based random numbers (Philox-4x32-10). A draw of a random field is
 * keyed by (seed, draw number, global site index), so the numbers do not depend on the
 * process grid, the number of threads or the backend. The global state is two integers
 * that are saved beside each configuration. Details: Doc/random_numbers.md.
 * Implemented in: LibHR/Random/random.c. */
#ifndef RANDOM_H
#define RANDOM_H

#include <stdint.h>
#include <stdio.h>
#include "hr_inline.h"

/* Global generator state: the seed and how many draws have been taken so far. */
typedef struct {
  uint64_t seed;
  uint64_t draw;
} hr_rng_state;

/* One stream of random numbers, e.g. all numbers of one site in one draw. Cheap to create
 * (a few integers); create it on the stack, in host or device code. */
typedef struct {
  uint32_t key[2];    /* the seed */
  uint32_t ctr[4];    /* counter of the next block: block index, site, draw (see below) */
  uint32_t out[4];    /* the current block of 4 random words */
  int pos;            /* next unused word of out[]; 4 = refill */
  int has_spare;      /* 1 when spare holds the second Gaussian of a Box-Muller pair */
  double spare;
} hr_rng_stream;

/* Limits of the counter packing: draws and sites below 2^48; the site value 2^48-1 is
 * reserved for HR_RNG_NO_SITE; a stream gives at most 2^32 blocks of 4 words. */
#define HR_RNG_MAX_DRAW UINT64_C(0xFFFFFFFFFFFF)
#define HR_RNG_MAX_SITE UINT64_C(0xFFFFFFFFFFFE)

/* Site index used for streams that belong to no site (global draws such as accept/reject). */
#define HR_RNG_NO_SITE UINT64_C(0xFFFFFFFFFFFFFFFF)

/* Start the global generator with `seed`; the draw counter starts at 0. */
void rng_init(uint64_t seed);
/* Current global state. */
hr_rng_state rng_get_state(void);
/* Restore a saved global state. */
void rng_set_state(hr_rng_state st);
/* Take the next draw number (every rank must call this in the same sequence). */
uint64_t rng_next_draw(void);
/* Write the state as one text line "libhr-rng seed=<u64> draw=<u64>". Returns 0 or -1. */
int rng_write_state(FILE *f, hr_rng_state st);
/* Read a state written by rng_write_state. Returns 0, or -1 if the text is malformed. */
int rng_read_state(hr_rng_state *st, FILE *f);
/* Parse one state line (with or without its final newline); *st is changed only on success.
 * Returns 0, or -1 if the text is malformed or draw > HR_RNG_MAX_DRAW. */
int rng_parse_state(hr_rng_state *st, const char *line);
/* A stream for a global (site-less) draw: takes the next draw number and starts the stream
 * (global seed, that draw, HR_RNG_NO_SITE). Every rank gets the same numbers. */
void rng_global_stream(hr_rng_stream *s);

/* Create the stream for (seed, draw, site); see random_inline.h for the draws from it. */
HR_INLINE void rng_stream_init(hr_rng_stream *s, uint64_t seed, uint64_t draw, uint64_t site);

#include "random_inline.h"

#endif
