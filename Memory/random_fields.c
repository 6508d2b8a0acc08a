/* random_fields.c -- Gaussian spinor fields, Haar-random gauge fields and Gaussian momenta,
 * each site (link) drawn from its own counter-based stream keyed by the global site index
 * (random_fields.h), so that fields do not depend on the process grid or the backend. */
#include <math.h>

#include "communications.h"
#include "random.h"
#include "random_fields.h"
#include "suN_random.h"

uint64_t global_site_index(int ix) {
  int g[4];
  global_coordinates(ix, g);
  return (((uint64_t)g[0] * (uint64_t)GLB_X + (uint64_t)g[1]) * (uint64_t)GLB_Y +
          (uint64_t)g[2]) * (uint64_t)GLB_Z + (uint64_t)g[3];
}

/* Fill every master site of g: fill(stream of global site, site ix) is in the caller. The
 * macro keeps the loop (OpenMP over sites) in one place. */
#define HR_FOR_SITE_STREAMS_(g, ix, stream, draw, seed, nlinks, mu, body)                      \
  _OMP_MASTER_FOR(g, ix) {                                                                     \
    const uint64_t hr_gidx_ = global_site_index(ix);                                           \
    for (int mu = 0; mu < (nlinks); mu++) {                                                    \
      hr_rng_stream stream;                                                                    \
      rng_stream_init(&stream, seed, draw,                                                     \
                      (nlinks) == 1 ? hr_gidx_ : 4 * hr_gidx_ + (uint64_t)mu);                 \
      body                                                                                     \
    }                                                                                          \
  }

void gaussian_spinor_field(spinor_field *s) {
  const uint64_t seed = rng_get_state().seed, draw = rng_next_draw();
  const double scale = sqrt(0.5);
  HR_FOR_SITE_STREAMS_(s->type, ix, st, draw, seed, 1, mu, {
    (void)mu;
    suNf_spinor *p = _FIELD_AT(s, ix);
    for (int a = 0; a < 4; a++)
      for (int c = 0; c < NF; c++) {
        const double re = scale * rng_gaussian(&st);
        const double im = scale * rng_gaussian(&st);
        p->c[a].c[c] = hr_cmplx(re, im);
      }
  })
  sync_copies(s->type, HR_LAYOUT_SPINOR, s->ptr, sizeof(suNf_spinor));
  s->current = HR_COPY_HOST;
  s->version = hr_field_new_version();
}

void gaussian_spinor_field_flt(spinor_field_flt *s) {
  const uint64_t seed = rng_get_state().seed, draw = rng_next_draw();
  const double scale = sqrt(0.5);
  HR_FOR_SITE_STREAMS_(s->type, ix, st, draw, seed, 1, mu, {
    (void)mu;
    suNf_spinor_flt *p = _FIELD_AT(s, ix);
    for (int a = 0; a < 4; a++)
      for (int c = 0; c < NF; c++) {
        const double re = scale * rng_gaussian(&st);
        const double im = scale * rng_gaussian(&st);
        p->c[a].c[c] = hr_cmplx_flt((float)re, (float)im);
      }
  })
  sync_copies(s->type, HR_LAYOUT_SPINOR, s->ptr, sizeof(suNf_spinor_flt));
  s->current = HR_COPY_HOST;
  s->version = hr_field_new_version();
}

void random_suNg_field(suNg_field *u) {
  const uint64_t seed = rng_get_state().seed, draw = rng_next_draw();
  HR_FOR_SITE_STREAMS_(u->type, ix, st, draw, seed, 4, mu,
                       { suNg_random(&st, _4FIELD_AT(u, ix, mu)); })
  sync_copies(u->type, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
  u->current = HR_COPY_HOST;
  u->version = hr_field_new_version();
}

void gaussian_momenta(suNg_av_field *momenta) {
  const uint64_t seed = rng_get_state().seed, draw = rng_next_draw();
  HR_FOR_SITE_STREAMS_(momenta->type, ix, st, draw, seed, 4, mu,
                       { suNg_algebra_vector_random(&st, _4FIELD_AT(momenta, ix, mu)); })
  sync_copies(momenta->type, HR_LAYOUT_GAUGE, momenta->ptr, 4 * sizeof(suNg_algebra_vector));
  momenta->current = HR_COPY_HOST;
  momenta->version = hr_field_new_version();
}
