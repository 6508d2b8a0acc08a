/* random_fields.c -- Gaussian spinor fields, Haar-random gauge fields and Gaussian momenta,
 * each site (link) drawn from its own counter-based stream keyed by the global site index
 * (random_fields.h), so that fields do not depend on the process grid or the backend: host
 * loops, or (spinors and momenta, GPU backend) the kernels of random_fields_gpu.c with the
 * same per-site draws (random_sites.h). */
#include <math.h>

#include "backend.h"
#include "communications.h"
#include "halo_exchange.h"
#include "gpu.h"
#include "random.h"
#include "random_fields.h"
#include "random_fields_gpu.h"
#include "random_sites.h"
#include "suN_random.h"

uint64_t global_site_index(int ix) {
  int g[4];
  global_coordinates(g, ix);
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

/* The draw of one call: the global seed and the next draw number. */
typedef struct {
  uint64_t seed, draw;
} draw_key;
static draw_key next_draw(void) {
  draw_key k;
  k.seed = rng_get_state().seed;
  k.draw = rng_next_draw();
  return k;
}

/* Whether the field is drawn on the device (GPU path of backend.h). */
static int on_gpu(void) { return HR_GPU_ENABLED && hr_backend_current() == HR_BACKEND_GPU; }

void gaussian_spinor_field(spinor_field *s) {
  const draw_key k = next_draw();
  if (on_gpu()) {
#if HR_GPU_ENABLED
    random_gpu_spinor(s->type, gpu_write_spinor_field(s), k.seed, k.draw);
#endif
    return;
  }
  HR_FOR_SITE_STREAMS_(s->type, ix, st, k.draw, k.seed, 1, mu, {
    (void)mu;
    random_gaussian_spinor_site(&st, _FIELD_AT(s, ix));
  })
  sync_copies(s->type, HR_LAYOUT_SPINOR, s->ptr, sizeof(suNf_spinor));
  s->current = HR_COPY_HOST;
  s->version = hr_field_new_version();
}

void gaussian_spinor_field_flt(spinor_field_flt *s) {
  const draw_key k = next_draw();
  if (on_gpu()) {
#if HR_GPU_ENABLED
    random_gpu_spinor_flt(s->type, gpu_write_spinor_field_flt(s), k.seed, k.draw);
#endif
    return;
  }
  HR_FOR_SITE_STREAMS_(s->type, ix, st, k.draw, k.seed, 1, mu, {
    (void)mu;
    random_gaussian_spinor_flt_site(&st, _FIELD_AT(s, ix));
  })
  sync_copies(s->type, HR_LAYOUT_SPINOR, s->ptr, sizeof(suNf_spinor_flt));
  s->current = HR_COPY_HOST;
  s->version = hr_field_new_version();
}

void random_suNg_field(suNg_field *u) {
  const draw_key k = next_draw();
  HR_FOR_SITE_STREAMS_(u->type, ix, st, k.draw, k.seed, 4, mu,
                       { suNg_random(_4FIELD_AT(u, ix, mu), &st); })
  sync_copies(u->type, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
  u->current = HR_COPY_HOST;
  u->version = hr_field_new_version();
}

void gaussian_momenta(suNg_av_field *momenta) {
  const draw_key k = next_draw();
  if (on_gpu()) {
#if HR_GPU_ENABLED
    random_gpu_momenta(momenta->type, gpu_write_suNg_av_field(momenta), k.seed, k.draw);
#endif
    return;
  }
  HR_FOR_SITE_STREAMS_(momenta->type, ix, st, k.draw, k.seed, 4, mu,
                       { suNg_algebra_vector_random(_4FIELD_AT(momenta, ix, mu), &st); })
  sync_copies(momenta->type, HR_LAYOUT_GAUGE, momenta->ptr, 4 * sizeof(suNg_algebra_vector));
  momenta->current = HR_COPY_HOST;
  momenta->version = hr_field_new_version();
}
