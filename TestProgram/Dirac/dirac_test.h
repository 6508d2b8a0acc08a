/* dirac_test.h -- helpers of the Dirac operator tests: MPI start-up, a CHECK macro that
 * counts failures (first few reported per process), per-case verdicts summed over processes,
 * the geometry of a test lattice on a process grid, field allocation, and random fields
 * keyed by the global site (so they do not depend on the process grid). */
#ifndef DIRAC_TEST_H
#define DIRAC_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "clover.h"
#include "dirac.h"
#include "fields.h"
#include "gpu.h"
#include "linear_algebra.h"
#include "geometry.h"
#include "hr_core.h"
#include "logger.h"
#include "random.h"
#include "representation.h"
#include "suN.h"
#include "suN_random.h"

#include "../test_cases.h"

static inline void dt_start(int *argc, char ***argv) { tc_start(argc, argv); }

static inline int dt_finish(const char *program) {
  dirac_finalize();
  return tc_finish(program);
}

/* Geometry of lattice glb on grid np (force: bit mu forces a halo in mu). */
static inline void dt_geometry(const int glb[4], const int np[4], int force) {
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; mu++) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
    p.pb[mu] = 2;
    p.force_halo[mu] = (force >> mu) & 1;
  }
  geometry_init(&p);
}

/* ------------------------------------------------------------------ fields */

/* Fields of the fields component (zeroed, both copies current). The helpers below follow the
 * current-copy rule of fields.h: they read host copies after sync_host_* and write them after
 * host_write_*, so the operators under test may run on either backend. */
static inline spinor_field *dt_spinor(const geometry_descriptor *g) { return alloc_spinor_field(1, g); }
static inline spinor_field_flt *dt_spinor_flt(const geometry_descriptor *g) {
  return alloc_spinor_field_flt(1, g);
}
static inline suNg_field *dt_gauge(void) { return alloc_suNg_field(1, &glattice); }
#define DT_FREE(f)                                                                             \
  _Generic((f), spinor_field *: free_spinor_field, spinor_field_flt *: free_spinor_field_flt,  \
           suNg_field *: free_suNg_field, suNf_field *: free_suNf_field)(f)

/* Lexicographic global index of global coordinates. */
static inline long long dt_global_index(const int g[4]) {
  return (((long long)g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3];
}

/* Gaussian spinor keyed by (seed, draw, global site). */
static inline void dt_random_spinor_at(uint64_t seed, uint64_t draw, const int g[4], suNf_spinor *s) {
  hr_rng_stream st;
  rng_stream_init(&st, seed, draw, (uint64_t)dt_global_index(g));
  for (int a = 0; a < 4; a++)
    for (int i = 0; i < NF; i++) {
      const double re = rng_gaussian(&st);
      const double im = rng_gaussian(&st);
      s->c[a].c[i] = hr_cmplx(re, im);
    }
}
static inline void dt_random_spinor_field(spinor_field *f, uint64_t draw) {
  host_write_spinor_field(f);
  _MASTER_FOR(f->type, ix) {
    int g[4];
    global_coordinates(g, ix);
    dt_random_spinor_at(1234, draw, g, _FIELD_AT(f, ix));
  }
}
/* Haar-random SU(NG) element keyed by global site (and a draw number). */
static inline void dt_random_suNg_at(uint64_t draw, const int g[4], suNg *u) {
  hr_rng_stream st;
  rng_stream_init(&st, 777, draw, (uint64_t)dt_global_index(g));
  suNg_random(u, &st);
}
static inline void dt_random_gauge(suNg_field *u, uint64_t draw) {
  host_write_suNg_field(u);
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; mu++) dt_random_suNg_at(draw + (uint64_t)mu, g, _4FIELD_AT(u, ix, mu));
  }
}

/* Field copies and reductions over master sites of the field's geometry (all processes). */
static inline void dt_to_flt(const spinor_field *a, spinor_field_flt *b) {
  sync_host_spinor_field(a);
  host_write_spinor_field_flt(b);
  _MASTER_FOR(a->type, ix) suNf_spinor_to_flt(_FIELD_AT(b, ix), _FIELD_AT(a, ix));
}
static inline void dt_to_dbl(const spinor_field_flt *a, spinor_field *b) {
  sync_host_spinor_field_flt(a);
  host_write_spinor_field(b);
  _MASTER_FOR(a->type, ix) suNf_spinor_flt_to_dbl(_FIELD_AT(b, ix), _FIELD_AT(a, ix));
}
static inline hr_complex dt_prod(const spinor_field *a, const spinor_field *b) {
  double s[2] = {0, 0};
  sync_host_spinor_field(a);
  sync_host_spinor_field(b);
  _MASTER_FOR(a->type, ix) {
    hr_complex z = suNf_spinor_prod(_FIELD_AT(a, ix), _FIELD_AT(b, ix));
    s[0] += hr_creal(z);
    s[1] += hr_cimag(z);
  }
  global_sum(s, 2);
  return hr_cmplx(s[0], s[1]);
}
static inline double dt_sqnorm(const spinor_field *a) { return hr_creal(dt_prod(a, a)); }
/* |a - b|^2 over the master sites of a's geometry (b may be on glattice: same indices). */
static inline double dt_diff2(const spinor_field *a, const spinor_field *b) {
  double s = 0;
  sync_host_spinor_field(a);
  sync_host_spinor_field(b);
  _MASTER_FOR(a->type, ix) {
    suNf_spinor d;
    suNf_spinor_sub(&d, _FIELD_AT(a, ix), _FIELD_AT(b, ix));
    s += suNf_spinor_sqnorm(&d);
  }
  global_sum(&s, 1);
  return s;
}
/* Copy the master sites that both fields hold (a parity geometry's sites when one of the two
 * lives on glattice). */
static inline void dt_copy_sites(spinor_field *to, const spinor_field *from) {
  sync_host_spinor_field(from);
  host_write_spinor_field(to);
  const geometry_descriptor *g = from->type == &glattice ? to->type : from->type;
  _MASTER_FOR(g, ix) *_FIELD_AT(to, ix) = *_FIELD_AT(from, ix);
}

#endif
