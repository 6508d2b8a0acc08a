/* halo_exchange.c -- halo exchange of arrays laid out by a geometry descriptor (copy sync,
 * MPI_Irecv / MPI_Isend per buffer of the descriptor's halo plan, wait) for both layouts and
 * any geometry. Without MPI only copies are synced and force_halo buffers copied locally. */
#include "halo_exchange.h"
#include "communications.h"
#include "hr_core.h"
#include "hr_error.h"

#include <limits.h>
#include <string.h>

/* Exchanges that may be in flight at the same time. */
#define HR_MAX_REQUESTS 64

struct hr_comm_request {
  int in_use;
  int n;
  int done; /* 1 once sendrecv_progress found every message complete: no more MPI calls */
#if HR_WITH_MPI
  MPI_Request req[2 * HR_GEOMETRY_MAX_BUFFERS];
#endif
};

static hr_comm_request request_pool[HR_MAX_REQUESTS];

/* Address of index ix of a field of g. */
static char *site_address(const geometry_descriptor *g, void *field, int ix,
                          size_t site_bytes) {
  return (char *)field + (size_t)(ix - g->master_shift) * site_bytes;
}

void sync_copies(const geometry_descriptor *g, hr_layout layout, void *field,
                 size_t site_bytes) {
  int n = geometry_ncopies(g, layout);
  for (int i = 0; i < n; i++)
    memcpy(site_address(g, field, g->copy_to[i], site_bytes),
           site_address(g, field, g->copy_from[i], site_bytes),
           (size_t)g->copy_len[i] * site_bytes);
}

size_t sendrecv_bytes(const geometry_descriptor *g, hr_layout layout, size_t site_bytes) {
  size_t bytes = 0;
  for (int i = 0; i < geometry_nbuffers(g, layout); i++)
    bytes += (size_t)g->sbuf_len[i] * site_bytes;
  return bytes;
}

/* A free request of the pool, marked in use (stops when all are in flight). */
static hr_comm_request *request_take(void) {
  hr_comm_request *r = NULL;
  for (int i = 0; i < HR_MAX_REQUESTS && r == NULL; i++)
    if (!request_pool[i].in_use) r = &request_pool[i];
  if (r == NULL)
    hr_error("more than %d halo exchanges in flight: complete_sendrecv each started exchange",
             HR_MAX_REQUESTS);
  r->in_use = 1;
  r->n = 0;
  r->done = 0;
  return r;
}

hr_comm_request *start_sendrecv_field(const geometry_descriptor *g, hr_layout layout,
                                      void *field, size_t site_bytes) {
  sync_copies(g, layout, field, site_bytes);
  hr_comm_request *r = request_take();
  int nb = geometry_nbuffers(g, layout);
#if HR_WITH_MPI
  for (int i = 0; i < nb; i++) {
    size_t bytes = (size_t)g->rbuf_len[i] * site_bytes;
    hr_assert(bytes <= INT_MAX, "receive buffer of %zu bytes too large for one message", bytes);
    MPI_Irecv(site_address(g, field, g->rbuf_start[i], site_bytes), (int)bytes, MPI_BYTE,
              g->rbuf_from_proc[i], g->buf_tag[i], hr_cart_comm, &r->req[r->n++]);
  }
  for (int i = 0; i < nb; i++) {
    size_t bytes = (size_t)g->sbuf_len[i] * site_bytes;
    MPI_Isend(site_address(g, field, g->sbuf_start[i], site_bytes), (int)bytes, MPI_BYTE,
              g->sbuf_to_proc[i], g->buf_tag[i], hr_cart_comm, &r->req[r->n++]);
  }
#else
  /* One process: buffers exist only for force_halo directions, and the partner is this
   * process, so receive buffer i gets this process's send buffer i. */
  for (int i = 0; i < nb; i++)
    memcpy(site_address(g, field, g->rbuf_start[i], site_bytes),
           site_address(g, field, g->sbuf_start[i], site_bytes),
           (size_t)g->sbuf_len[i] * site_bytes);
#endif
  return r;
}

hr_comm_request *start_sendrecv_packed(const geometry_descriptor *g, hr_layout layout,
                                       const void *send, void *recv, size_t site_bytes,
                                       const unsigned char *skip) {
  hr_comm_request *r = request_take();
  const int nb = geometry_nbuffers(g, layout);
  size_t off = 0;
  for (int i = 0; i < nb; i++) {
    const size_t bytes = (size_t)g->rbuf_len[i] * site_bytes;
    const int skipped = skip != NULL ? skip[i] : 0;
#if HR_WITH_MPI
    hr_assert(bytes <= INT_MAX, "receive buffer of %zu bytes too large for one message", bytes);
    if (!(skipped & HR_SKIP_RECV))
      MPI_Irecv((char *)recv + off, (int)bytes, MPI_BYTE, g->rbuf_from_proc[i], g->buf_tag[i],
                hr_cart_comm, &r->req[r->n++]);
    if (!(skipped & HR_SKIP_SEND))
      MPI_Isend((const char *)send + off, (int)bytes, MPI_BYTE, g->sbuf_to_proc[i],
                g->buf_tag[i], hr_cart_comm, &r->req[r->n++]);
#else
    /* one process: the partner of every (force_halo) buffer is this process */
    if (!(skipped & HR_SKIP_SEND)) memcpy((char *)recv + off, (const char *)send + off, bytes);
#endif
    off += bytes;
  }
  return r;
}

void sendrecv_progress(hr_comm_request *r) {
#if HR_WITH_MPI
  if (r == NULL || r->n == 0 || r->done) return;
  MPI_Testall(r->n, r->req, &r->done, MPI_STATUSES_IGNORE);
#else
  (void)r;
#endif
}

void complete_sendrecv(hr_comm_request *r) {
  if (r == NULL) return;
  hr_assert(r->in_use, "complete_sendrecv on a request that is not in flight");
#if HR_WITH_MPI
  MPI_Waitall(r->n, r->req, MPI_STATUSES_IGNORE);
#endif
  r->in_use = 0;
  r->n = 0;
}

hr_comm_request *start_sendrecv_site_field(const geometry_descriptor *g, double *field, int k) {
  return start_sendrecv_field(g, HR_LAYOUT_SPINOR, field, (size_t)k * sizeof(double));
}

hr_comm_request *start_sendrecv_link_field(const geometry_descriptor *g, double *field, int k) {
  return start_sendrecv_field(g, HR_LAYOUT_GAUGE, field, 4 * (size_t)k * sizeof(double));
}

void sendrecv_field(const geometry_descriptor *g, hr_layout layout, void *field,
                    size_t site_bytes) {
  complete_sendrecv(start_sendrecv_field(g, layout, field, site_bytes));
}

void sendrecv_site_field(const geometry_descriptor *g, double *field, int k) {
  complete_sendrecv(start_sendrecv_site_field(g, field, k));
}

void sendrecv_link_field(const geometry_descriptor *g, double *field, int k) {
  complete_sendrecv(start_sendrecv_link_field(g, field, k));
}
