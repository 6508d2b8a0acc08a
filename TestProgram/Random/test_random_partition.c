/* test_random_partition.c -- the random field of a draw does not depend on how the sites are
 * split: an 8^4 lattice filled site by site in lexicographic order must equal, bit for bit,
 * the same field filled by 1, 2 and 4 simulated ranks (several process grids, local sites
 * visited backwards or in random order), by OpenMP threads with different counts and
 * schedules, and by simulated threads with interleaved sites. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "random.h"
#include "../check_suite.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define L 8
#define VOLUME (L * L * L * L)

/* Every kind of number one site draws in this test; the odd count of Gaussians exercises
 * the cached second value of the Box-Muller pair. */
typedef struct {
  uint32_t words[3];
  double uniforms[2];
  double gaussians[5];
  float uniform_flt;
  float gaussian_flt[3];
} site_numbers;

static const uint64_t test_seed = UINT64_C(0xC0FFEE1234567);
static const uint64_t test_draw = 41;

/* Global lexicographic index of (t, x, y, z), z fastest. */
static uint64_t global_index(const int c[4]) {
  return (uint64_t)(((c[0] * L + c[1]) * L + c[2]) * L + c[3]);
}

/* Draw the numbers of site `site` into *n. */
static void draw_site(uint64_t seed, uint64_t draw, uint64_t site, site_numbers *n) {
  hr_rng_stream s;
  memset(n, 0, sizeof *n);
  rng_stream_init(&s, seed, draw, site);
  for (int i = 0; i < 3; ++i) n->words[i] = rng_u32(&s);
  for (int i = 0; i < 2; ++i) n->uniforms[i] = rng_uniform(&s);
  for (int i = 0; i < 5; ++i) n->gaussians[i] = rng_gaussian(&s);
  n->uniform_flt = rng_uniform_flt(&s);
  for (int i = 0; i < 3; ++i) n->gaussian_flt[i] = rng_gaussian_flt(&s);
}

/* The reference field: one loop over global sites in lexicographic order. */
static site_numbers *reference_field(uint64_t seed, uint64_t draw) {
  site_numbers *f = calloc(VOLUME, sizeof *f);
  ck_assert_ptr_nonnull(f);
  for (uint64_t i = 0; i < VOLUME; ++i) draw_site(seed, draw, i, &f[i]);
  return f;
}

/* SplitMix64, for random visiting orders. */
static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Fill `field` as the ranks of process grid `grid` would: each rank visits its local sites
 * (backwards when order = 0, in a random permutation when order = 1) and keys each stream
 * by the global index (or, with use_local_index, wrongly by the local index). */
static void fill_by_ranks(site_numbers *field, const int grid[4], int order, int use_local_index) {
  int local[4], local_volume = 1;
  for (int mu = 0; mu < 4; ++mu) {
    local[mu] = L / grid[mu];
    local_volume *= local[mu];
  }
  int *perm = malloc((size_t)local_volume * sizeof *perm);
  ck_assert_ptr_nonnull(perm);
  uint64_t x = 99;
  const int nranks = grid[0] * grid[1] * grid[2] * grid[3];
  for (int rank = nranks - 1; rank >= 0; --rank) {
    int rc[4], r = rank;
    for (int mu = 3; mu >= 0; --mu) {
      rc[mu] = r % grid[mu];
      r /= grid[mu];
    }
    for (int i = 0; i < local_volume; ++i) perm[i] = local_volume - 1 - i;
    if (order == 1)
      for (int i = local_volume - 1; i > 0; --i) {
        const int j = (int)(splitmix64(&x) % (uint64_t)(i + 1));
        const int tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
      }
    for (int k = 0; k < local_volume; ++k) {
      const int li = perm[k];
      int lc[4], gc[4], rest = li;
      for (int mu = 3; mu >= 0; --mu) {
        lc[mu] = rest % local[mu];
        rest /= local[mu];
        gc[mu] = rc[mu] * local[mu] + lc[mu];
      }
      const uint64_t g = global_index(gc);
      draw_site(test_seed, test_draw, use_local_index ? (uint64_t)li : g, &field[g]);
    }
  }
  free(perm);
}

START_TEST(test_process_grids) {
  site_numbers *ref = reference_field(test_seed, test_draw);
  site_numbers *f = calloc(VOLUME, sizeof *f);
  ck_assert_ptr_nonnull(f);
  const int grids[][4] = {{1, 1, 1, 1}, {2, 1, 1, 1}, {1, 1, 1, 2}, {1, 2, 1, 1},
                          {2, 2, 1, 1}, {1, 1, 2, 2}, {4, 1, 1, 1}, {1, 1, 1, 4}};
  for (size_t g = 0; g < sizeof grids / sizeof grids[0]; ++g)
    for (int order = 0; order < 2; ++order) {
      memset(f, 0xA5, VOLUME * sizeof *f);
      fill_by_ranks(f, grids[g], order, 0);
      ck_assert_msg(memcmp(f, ref, VOLUME * sizeof *f) == 0,
                    "grid %d%d%d%d order %d differs from the serial field", grids[g][0],
                    grids[g][1], grids[g][2], grids[g][3], order);
    }
  /* The comparison detects a wrong key: local instead of global site index. */
  const int two[4] = {2, 1, 1, 1};
  memset(f, 0, VOLUME * sizeof *f);
  fill_by_ranks(f, two, 0, 1);
  ck_assert(memcmp(f, ref, VOLUME * sizeof *f) != 0);
  free(f);
  free(ref);
}
END_TEST

START_TEST(test_threads) {
  site_numbers *ref = reference_field(test_seed, test_draw);
  site_numbers *f = calloc(VOLUME, sizeof *f);
  ck_assert_ptr_nonnull(f);
  for (int nthreads = 1; nthreads <= 4; ++nthreads) {
    /* Simulated threads: thread t takes sites t, t + T, ...; threads run last to first. */
    memset(f, 0xA5, VOLUME * sizeof *f);
    for (int t = nthreads - 1; t >= 0; --t)
      for (int i = t; i < VOLUME; i += nthreads)
        draw_site(test_seed, test_draw, (uint64_t)i, &f[i]);
    ck_assert_msg(memcmp(f, ref, VOLUME * sizeof *f) == 0, "%d simulated threads", nthreads);
#ifdef _OPENMP
    /* Real OpenMP threads, static and dynamic schedules, sites visited backwards. */
    memset(f, 0xA5, VOLUME * sizeof *f);
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 7)
    for (int k = 0; k < VOLUME; ++k) {
      const int i = VOLUME - 1 - k;
      draw_site(test_seed, test_draw, (uint64_t)i, &f[i]);
    }
    ck_assert_msg(memcmp(f, ref, VOLUME * sizeof *f) == 0, "%d OpenMP threads (dynamic)",
                  nthreads);
    memset(f, 0xA5, VOLUME * sizeof *f);
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int i = 0; i < VOLUME; ++i) draw_site(test_seed, test_draw, (uint64_t)i, &f[i]);
    ck_assert_msg(memcmp(f, ref, VOLUME * sizeof *f) == 0, "%d OpenMP threads (static)",
                  nthreads);
#endif
  }
  free(f);
  free(ref);
}
END_TEST

START_TEST(test_draws_and_seeds_differ) {
  /* The comparison above is not trivially true: another draw or seed gives another field,
   * and (nearly) every site changes. */
  site_numbers *ref = reference_field(test_seed, test_draw);
  site_numbers *other_draw = reference_field(test_seed, test_draw + 1);
  site_numbers *other_seed = reference_field(test_seed + 1, test_draw);
  int same_draw = 0, same_seed = 0;
  for (int i = 0; i < VOLUME; ++i) {
    same_draw += (ref[i].words[0] == other_draw[i].words[0]);
    same_seed += (ref[i].words[0] == other_seed[i].words[0]);
  }
  ck_assert_int_le(same_draw, 1);
  ck_assert_int_le(same_seed, 1);
  free(ref);
  free(other_draw);
  free(other_seed);
}
END_TEST

START_TEST(test_global_draw_sequence) {
  /* Two "ranks" that run the same sequence of rng_next_draw from the same seed fill the
   * same fields; the sequence continues from the global state. */
  uint64_t draws_rank[2][3];
  for (int rank = 0; rank < 2; ++rank) {
    rng_init(test_seed);
    for (int k = 0; k < 3; ++k) draws_rank[rank][k] = rng_next_draw();
  }
  for (int k = 0; k < 3; ++k) {
    ck_assert_uint_eq(draws_rank[0][k], (uint64_t)k);
    ck_assert_uint_eq(draws_rank[1][k], draws_rank[0][k]);
  }
}
END_TEST

int main(void) {
  Suite *suite = suite_create("random_partition");
  TCase *tc = tcase_create("partition");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_process_grids);
  tcase_add_test(tc, test_threads);
  tcase_add_test(tc, test_draws_and_seeds_differ);
  tcase_add_test(tc, test_global_draw_sequence);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
