/* fields.c -- allocation, freeing, copies and current-copy tracking of fields: the generic
 * implementations (one for every kind) and the per-kind functions of fields.h, generated
 * from HR_FIELD_KINDS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host_memory.h"
#include "hr_error.h"
#include "memory_internal.h"
#include "halo_exchange.h"

/* ------------------------------------------------------------------ kind descriptions */

/* Real numbers in one unit. */
#define HR_UNIT_REALS_(unit) _Generic((unit *)0, hr_complex * : 2, hr_complex_flt * : 2, default : 1)
#define HR_KIND_INFO_(kind, site, nlinks, layout, unit, alg_)                                  \
  const hr_field_kind_info hr_kind_##kind = {#kind,        sizeof(site),                       \
                                             nlinks,       layout,                             \
                                             sizeof(unit), HR_UNIT_REALS_(unit),               \
                                             (int)(sizeof(site) / sizeof(unit))};
HR_FIELD_KINDS(HR_KIND_INFO_)
#undef HR_KIND_INFO_

size_t field_bytes(const hr_field_kind_info *k, const geometry_descriptor *g) {
  return (size_t)geometry_field_size(g, k->layout) * (size_t)k->nlinks * k->elem_bytes;
}

/* ------------------------------------------------------------------ host memory */

static size_t round_up(size_t bytes, size_t align) { return (bytes + align - 1) / align * align; }

/* Zero `bytes` bytes at p, in parallel so that pages are first touched by the threads that
 * will use them. */
static void parallel_zero(void *p, size_t bytes) {
  const size_t chunk = (size_t)1 << 20;
  const long nchunks = (long)((bytes + chunk - 1) / chunk);
  HR_OMP_PRAGMA(omp parallel for schedule(static))
  for (long i = 0; i < nchunks; i++) {
    const size_t start = (size_t)i * chunk;
    memset((char *)p + start, 0, bytes - start < chunk ? bytes - start : chunk);
  }
}

/* ------------------------------------------------------------------ device exchange tables */

#if HR_GPU_ENABLED
/* The piece of g (in the kind's layout) that holds each master site: filled into
 * piece_of[ix - master_shift] for every index of the field. */
static void build_pack_table(struct hr_field_memory *m) {
  const geometry_descriptor *g = m->g;
  const hr_layout layout = m->kind->layout;
  const int nb = geometry_nbuffers(g, layout);
  m->nbuffers = nb;
  m->nsend = 0;
  m->pack = NULL;
  if (nb == 0) return;
  hr_assert(nb <= HR_FIELD_MAX_BUFFERS, "%d buffers exceed the limit %d", nb,
            HR_FIELD_MAX_BUFFERS);
  const int size = geometry_field_size(g, layout);
  int *piece_of = malloc((size_t)size * sizeof(int));
  if (piece_of == NULL) hr_error("out of memory building the exchange table");
  for (int i = 0; i < size; i++) piece_of[i] = -1;
  for (int p = 0; p < g->local_master_pieces; p++)
    for (int ix = g->master_start[p]; ix <= g->master_end[p]; ix++)
      piece_of[ix - g->master_shift] = p;
  for (int b = 0; b < nb; b++) {
    m->send_off[b] = m->nsend;
    m->nsend += g->sbuf_len[b];
  }
  hr_pack_entry *pack = malloc((size_t)(m->nsend > 0 ? m->nsend : 1) * sizeof(hr_pack_entry));
  if (pack == NULL) hr_error("out of memory building the exchange table");
  for (int b = 0; b < nb; b++)
    for (int k = 0; k < g->sbuf_len[b]; k++) {
      const int ix = g->sbuf_start[b] + k;
      const int master = master_index(ix);
      const int p = piece_of[master - g->master_shift];
      hr_assert(p >= 0, "send site %d (master %d) lies in no master piece of the geometry", ix,
                master);
      hr_pack_entry *e = &pack[m->send_off[b] + k];
      e->src_off = g->master_start[p] - g->master_shift;
      e->src_in = master - g->master_start[p];
      e->src_stride = g->master_end[p] - g->master_start[p] + 1;
      e->dst_off = m->send_off[b];
      e->dst_in = k;
      e->dst_stride = g->sbuf_len[b];
    }
  free(piece_of);
  m->pack = hr_gpu_alloc((size_t)m->nsend * sizeof(hr_pack_entry));
  hr_gpu_copy_to_device(m->pack, pack, (size_t)m->nsend * sizeof(hr_pack_entry));
  free(pack);
}
#endif

/* ------------------------------------------------------------------ allocation record */

struct hr_field_memory *hr_field_memory_new(const hr_field_kind_info *k, int n,
                                            const geometry_descriptor *g, size_t struct_bytes) {
  hr_assert(g != NULL && g->master_start != NULL,
            "alloc_%s: no geometry (call geometry_init before allocating fields)", k->name);
  hr_assert(n >= 1, "alloc_%s: asked for %d fields; n must be >= 1", k->name, n);
  struct hr_field_memory *m = calloc(1, sizeof *m);
  if (m == NULL) hr_error("out of memory");
  m->kind = k;
  m->g = g;
  m->n = n;
  m->field_bytes = field_bytes(k, g);
  m->stride_bytes = round_up(m->field_bytes, HR_FIELD_ALIGN);
  const size_t total = m->stride_bytes * (size_t)n;
  m->host_base = hr_host_alloc(total, k->name);
  parallel_zero(m->host_base, total);
  m->structs = calloc((size_t)n, struct_bytes);
  m->ex = calloc((size_t)n, sizeof(struct hr_field_exchange));
  if (m->structs == NULL || m->ex == NULL) hr_error("out of memory");
#if HR_GPU_ENABLED
  m->gpu_base = hr_gpu_alloc(total);
  hr_gpu_zero(m->gpu_base, total);
  build_pack_table(m);
  const size_t units = (size_t)hr_kind_site_units(k);
  if (m->nsend > 0)
    for (int i = 0; i < n; i++)
      m->ex[i].send_dev = hr_gpu_alloc((size_t)m->nsend * units * k->unit_bytes);
#endif
  return m;
}

void hr_field_memory_free(struct hr_field_memory *m) {
  if (m == NULL) return;
  for (int i = 0; i < m->n; i++) {
    hr_field_check_idle(&m->ex[i], "free");
    hr_gpu_free(m->ex[i].send_dev);
    hr_gpu_host_free(m->ex[i].send_host);
    hr_gpu_host_free(m->ex[i].recv_host);
  }
  hr_gpu_free(m->pack);
  hr_gpu_free(m->gpu_base);
  hr_host_free(m->host_base);
  free(m->structs);
  free(m->ex);
  free(m);
}

void hr_field_check_idle(const struct hr_field_exchange *ex, const char *what) {
  if (ex->in_flight)
    hr_error("%s on a field whose halo exchange is in flight: call complete_sendrecv first",
             what);
}

/* ------------------------------------------------------------------ copies and tracking */

void hr_field_copy_to_gpu(struct hr_field_memory *m, struct hr_field_exchange *ex,
                          const void *host, void *gpu, int *current) {
  hr_field_check_idle(ex, "copy_to_gpu");
#if HR_GPU_BACKEND == HR_GPU_EMULATED
  hr_gpu_transfer_note(HR_XFER_TO_DEVICE, m->field_bytes, m->kind->name); /* a field moved */
  hr_field_host_to_device_layout(m, host, gpu);
  *current = HR_COPY_HOST | HR_COPY_GPU;
#elif HR_GPU_BACKEND == HR_GPU_CUDA
  void *staging = hr_field_staging(0, m->field_bytes);
  hr_field_host_to_device_layout(m, host, staging);
  hr_gpu_copy_to_device_at(gpu, staging, m->field_bytes, m->kind->name);
  *current = HR_COPY_HOST | HR_COPY_GPU;
#else
  (void)m, (void)host, (void)gpu, (void)current;
#endif
}

void hr_field_copy_from_gpu(struct hr_field_memory *m, struct hr_field_exchange *ex,
                            void *host, const void *gpu, int *current) {
  hr_field_check_idle(ex, "copy_from_gpu");
#if HR_GPU_ENABLED
#if HR_GPU_BACKEND == HR_GPU_EMULATED
  hr_gpu_transfer_note(HR_XFER_TO_HOST, m->field_bytes, m->kind->name); /* a field moved */
  hr_field_device_to_host_layout(m, gpu, host);
#else
  void *staging = hr_field_staging(0, m->field_bytes);
  hr_gpu_copy_to_host_at(staging, gpu, m->field_bytes, m->kind->name);
  hr_field_device_to_host_layout(m, staging, host);
#endif
  /* Copy sites have no value on the device: refresh them from their masters. */
  sync_copies(m->g, m->kind->layout, host, (size_t)m->kind->nlinks * m->kind->elem_bytes);
  *current = HR_COPY_HOST | HR_COPY_GPU;
#else
  (void)m, (void)host, (void)gpu, (void)current;
#endif
}

void hr_field_sync_host(struct hr_field_memory *m, struct hr_field_exchange *ex, void *host,
                        const void *gpu, int *current) {
  hr_field_check_idle(ex, "sync_host");
  if (!(*current & HR_COPY_HOST)) hr_field_copy_from_gpu(m, ex, host, gpu, current);
}

void hr_field_sync_gpu(struct hr_field_memory *m, struct hr_field_exchange *ex,
                       const void *host, void *gpu, int *current) {
  hr_field_check_idle(ex, "sync_gpu");
#if HR_GPU_ENABLED
  if (!(*current & HR_COPY_GPU)) hr_field_copy_to_gpu(m, ex, host, gpu, current);
#else
  (void)m, (void)host, (void)gpu, (void)current;
#endif
}

void hr_field_copy(struct hr_field_memory *dm, struct hr_field_exchange *dex, void *dhost,
                   void *dgpu, int *dcur, struct hr_field_memory *sm,
                   struct hr_field_exchange *sex, void *shost, void *sgpu, int *scur) {
  hr_assert(dm->kind == sm->kind, "copy of a %s into a %s", sm->kind->name, dm->kind->name);
  hr_assert(dm->g == sm->g, "copy_%s between fields on different geometries", dm->kind->name);
  hr_field_check_idle(dex, "copy (destination)");
  if (dhost == shost) return;
#if HR_GPU_ENABLED
  hr_field_sync_gpu(sm, sex, shost, sgpu, scur);
  hr_gpu_copy_on_device(dgpu, sgpu, dm->field_bytes);
  *dcur = HR_COPY_GPU;
#else
  (void)dgpu, (void)sgpu, (void)scur;
  hr_field_check_idle(sex, "copy (source)");
  memcpy(dhost, shost, dm->field_bytes);
  *dcur = HR_COPY_HOST;
#endif
}

void hr_field_zero(struct hr_field_memory *m, struct hr_field_exchange *ex, void *host,
                   void *gpu, int *current) {
  hr_field_check_idle(ex, "zero");
#if HR_GPU_ENABLED
  (void)host;
  hr_gpu_zero(gpu, m->field_bytes);
  *current = HR_COPY_GPU;
#else
  (void)gpu;
  parallel_zero(host, m->field_bytes);
  *current = HR_COPY_HOST;
#endif
}

/* ------------------------------------------------------------------ versions */

static unsigned long version_counter = 0;

unsigned long hr_field_new_version(void) {
  unsigned long v;
  HR_OMP_PRAGMA(omp atomic capture)
  v = ++version_counter;
  return v;
}

/* ------------------------------------------------------------------ per-kind functions */

#if HR_GPU_ENABLED
#define HR_BOTH_COPIES_ (HR_COPY_HOST | HR_COPY_GPU)
#else
#define HR_BOTH_COPIES_ HR_COPY_HOST
#endif

#define HR_FIELD_DEFS_(kind, site, nlinks, layout, unit, alg_)                                 \
  kind *alloc_##kind(int n, const geometry_descriptor *g) {                                    \
    struct hr_field_memory *m = hr_field_memory_new(&hr_kind_##kind, n, g, sizeof(kind));      \
    kind *f = (kind *)m->structs;                                                              \
    for (int i = 0; i < n; i++) {                                                              \
      f[i].ptr = (site *)((char *)m->host_base + (size_t)i * m->stride_bytes);                 \
      f[i].gpu_ptr =                                                                           \
          m->gpu_base ? (site *)((char *)m->gpu_base + (size_t)i * m->stride_bytes) : NULL;    \
      f[i].type = g;                                                                           \
      f[i].n = n;                                                                              \
      f[i].current = HR_BOTH_COPIES_;                                                          \
      f[i].version = hr_field_new_version();                                                   \
      f[i].mem = m;                                                                            \
      f[i].exchange = &m->ex[i];                                                               \
    }                                                                                          \
    return f;                                                                                  \
  }                                                                                            \
  void free_##kind(kind *f) {                                                                  \
    if (f == NULL) return;                                                                     \
    hr_assert((void *)f == f->mem->structs,                                                    \
              "free_" #kind ": pass the pointer that alloc_" #kind " returned");               \
    hr_field_memory_free(f->mem);                                                              \
  }                                                                                            \
  void copy_##kind(kind *dst, const kind *src) {                                               \
    kind *s = (kind *)src; /* only its current-copy bits may change */                         \
    hr_field_copy(dst->mem, dst->exchange, dst->ptr, dst->gpu_ptr, &dst->current, s->mem,      \
                  s->exchange, s->ptr, s->gpu_ptr, &s->current);                               \
    dst->version = hr_field_new_version();                                                     \
  }                                                                                            \
  void zero_##kind(kind *f) {                                                                  \
    hr_field_zero(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);                       \
    f->version = hr_field_new_version();                                                       \
  }                                                                                            \
  void copy_to_gpu_##kind(kind *f) {                                                           \
    hr_field_copy_to_gpu(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);                \
  }                                                                                            \
  void copy_from_gpu_##kind(kind *f) {                                                         \
    hr_field_copy_from_gpu(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);              \
  }                                                                                            \
  site *sync_host_##kind(const kind *cf) {                                                     \
    kind *f = (kind *)cf; /* only its current-copy bits may change */                          \
    hr_field_sync_host(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);                  \
    return f->ptr;                                                                             \
  }                                                                                            \
  site *sync_gpu_##kind(const kind *cf) {                                                      \
    kind *f = (kind *)cf;                                                                      \
    hr_field_sync_gpu(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);                   \
    return f->gpu_ptr;                                                                         \
  }                                                                                            \
  site *host_write_##kind(kind *f) {                                                           \
    hr_field_sync_host(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);                  \
    f->current = HR_COPY_HOST;                                                                 \
    f->version = hr_field_new_version();                                                       \
    return f->ptr;                                                                             \
  }                                                                                            \
  site *gpu_write_##kind(kind *f) {                                                            \
    hr_field_sync_gpu(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);                   \
    f->current = HR_GPU_ENABLED ? HR_COPY_GPU : HR_COPY_HOST;                                  \
    f->version = hr_field_new_version();                                                       \
    return f->gpu_ptr;                                                                         \
  }                                                                                            \
  void start_sendrecv_##kind(kind *f) {                                                        \
    hr_field_start_sendrecv(f->mem, f->exchange, f->ptr, f->gpu_ptr, &f->current);             \
  }                                                                                            \
  void complete_sendrecv_##kind(kind *f) { hr_field_complete_sendrecv(f->mem, f->exchange); }  \
  void sendrecv_##kind(kind *f) {                                                              \
    start_sendrecv_##kind(f);                                                                  \
    complete_sendrecv_##kind(f);                                                               \
  }
HR_FIELD_KINDS(HR_FIELD_DEFS_)
#undef HR_FIELD_DEFS_
