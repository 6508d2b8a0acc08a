/* dirac_halo.c -- the tables of the spin-projected halo exchange of the CPU hopping loops
 * (dirac_halo of dirac_internal.h): for an input geometry with spinor buffers, the master
 * site and projection of every send-buffer site, the position of every receive-buffer site
 * in the received half spinors, and the send and receive areas. Made on first use for each
 * geometry, remade when the geometry changes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dirac_internal.h"
#include "dirac_site.h"
#include "geometry.h"
#include "hr_error.h"

static dirac_halo halos[3]; /* by parity of the input geometry */

/* Memory of n bytes aligned to 64 bytes (stops when there is none). */
static void *halo_alloc(size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, n > 0 ? n : 64) != 0)
    hr_error("dirac halo: cannot allocate %zu bytes for the half-spinor buffers", n);
  return p;
}

static void halo_free(dirac_halo *h) {
#if HR_GPU_ENABLED
  hr_gpu_free(h->dev_send_tab);
  hr_gpu_free(h->dev_halo_tab);
  hr_gpu_free(h->dev_send);
  hr_gpu_free(h->dev_recv);
  hr_gpu_host_free(h->host_send);
  hr_gpu_host_free(h->host_recv);
#endif
  free(h->send_site);
  free(h->send_dir);
  free(h->halo_pos);
  free(h->send);
  free(h->recv);
  memset(h, 0, sizeof *h);
}

/* Direction and projection sign of spinor buffer i of g: its sites are the neighbours one
 * step up in direction mu (disp +1: projected with 1 - gamma_mu, s = -1) or down (s = +1). */
static int buffer_dir(const geometry_descriptor *g, int i) {
  int dir = -1;
  for (int mu = 0; mu < 4; mu++) {
    const int d = g->buf_disp[4 * i + mu];
    if (d == 0) continue;
    hr_assert(dir < 0 && (d == 1 || d == -1),
              "dirac halo: spinor buffer %d is not one step in one direction", i);
    dir = mu + (d < 0 ? 4 : 0);
  }
  hr_assert(dir >= 0, "dirac halo: spinor buffer %d has no direction", i);
  return dir;
}

static void halo_make(dirac_halo *h, const geometry_descriptor *g) {
  const int nb = g->nbuffers_spinor;
  h->g = g;
  h->generation = geometry_generation();
  h->nsites = 0;
  h->halo_lo = INT32_MAX;
  h->halo_hi = 0;
  for (int i = 0; i < nb; i++) {
    h->nsites += g->sbuf_len[i];
    hr_assert(g->sbuf_len[i] == g->rbuf_len[i], "dirac halo: buffer %d: send and receive differ",
              i);
    if (g->rbuf_len[i] == 0) continue;
    if (g->rbuf_start[i] < h->halo_lo) h->halo_lo = g->rbuf_start[i];
    if (g->rbuf_start[i] + g->rbuf_len[i] > h->halo_hi)
      h->halo_hi = g->rbuf_start[i] + g->rbuf_len[i];
  }
  if (h->halo_hi <= h->halo_lo) h->halo_lo = h->halo_hi = 0;
  h->send_site = halo_alloc((size_t)h->nsites * sizeof(int));
  h->send_dir = halo_alloc((size_t)h->nsites);
  h->halo_pos = halo_alloc((size_t)(h->halo_hi - h->halo_lo) * sizeof(int));
  for (int k = 0; k < h->halo_hi - h->halo_lo; k++) h->halo_pos[k] = -1;
  int pos = 0;
  for (int i = 0; i < nb; i++) {
    const int dir = buffer_dir(g, i);
    for (int k = 0; k < g->sbuf_len[i]; k++) {
      h->send_site[pos + k] = master_index(g->sbuf_start[i] + k);
      h->send_dir[pos + k] = (unsigned char)dir;
      h->halo_pos[g->rbuf_start[i] + k - h->halo_lo] = pos + k;
    }
    pos += g->sbuf_len[i];
  }
  /* the double-precision half spinors; the single-precision ones use the same memory */
  const size_t bytes = (size_t)h->nsites * sizeof(dirac_half_spinor);
  h->send = halo_alloc(bytes);
  h->recv = halo_alloc(bytes);
}

const dirac_halo *dirac_halo_of(const geometry_descriptor *ig) {
  if (ig->nbuffers_spinor == 0) return NULL;
  dirac_halo *h = &halos[ig->parity];
  if (h->g != ig || h->generation != geometry_generation()) {
    halo_free(h);
    halo_make(h, ig);
  }
  return h;
}

#if HR_GPU_ENABLED
/* The device tables and areas of h (dirac_halo.dev_*). */
static void halo_make_gpu(dirac_halo *h) {
  const geometry_descriptor *g = h->g;
  const int nhalo = h->halo_hi - h->halo_lo;
  int *send_tab = halo_alloc((size_t)4 * h->nsites * sizeof(int));
  int *halo_tab = halo_alloc((size_t)3 * nhalo * sizeof(int));
  for (int k = 0; k < nhalo; k++) halo_tab[3 * k] = halo_tab[3 * k + 1] = halo_tab[3 * k + 2] = -1;
  int start = 0;
  for (int i = 0; i < g->nbuffers_spinor; i++) {
    for (int k = 0; k < g->sbuf_len[i]; k++) {
      int *e = send_tab + 4 * (start + k);
      e[0] = h->send_site[start + k];
      e[1] = h->send_dir[start + k];
      e[2] = start;
      e[3] = g->sbuf_len[i];
      int *r = halo_tab + 3 * (g->rbuf_start[i] + k - h->halo_lo);
      r[0] = start;
      r[1] = k;
      r[2] = g->rbuf_len[i];
    }
    start += g->sbuf_len[i];
  }
  h->dev_send_tab = hr_gpu_alloc((size_t)4 * h->nsites * sizeof(int));
  h->dev_halo_tab = hr_gpu_alloc((size_t)3 * nhalo * sizeof(int));
  hr_gpu_copy_to_device(h->dev_send_tab, send_tab, (size_t)4 * h->nsites * sizeof(int));
  hr_gpu_copy_to_device(h->dev_halo_tab, halo_tab, (size_t)3 * nhalo * sizeof(int));
  free(send_tab);
  free(halo_tab);
  const size_t bytes = (size_t)h->nsites * sizeof(dirac_half_spinor);
  h->dev_send = hr_gpu_alloc(bytes);
  h->dev_recv = hr_gpu_alloc(bytes);
  h->host_send = hr_gpu_host_alloc(bytes);
  h->host_recv = hr_gpu_host_alloc(bytes);
}

const dirac_halo *dirac_halo_gpu_of(const geometry_descriptor *ig) {
  const dirac_halo *c = dirac_halo_of(ig);
  if (c == NULL) return NULL;
  dirac_halo *h = &halos[ig->parity];
  if (h->dev_send == NULL) halo_make_gpu(h);
  return h;
}

void dirac_halo_gpu_begin(const dirac_halo *h, size_t half_bytes) {
  const size_t bytes = (size_t)h->nsites * half_bytes;
#if HR_WITH_MPI
  if (!hr_gpu_halo_through_device())
    hr_gpu_halo_copy_to_host_async(h->host_send, h->dev_send, bytes);
#else
  /* one process: every (force_halo) buffer is received from this process */
  hr_gpu_halo_copy_on_device_async(h->dev_recv, h->dev_send, bytes);
#endif
}

hr_comm_request *dirac_halo_gpu_start(const dirac_halo *h, size_t half_bytes) {
#if HR_WITH_MPI
  hr_gpu_halo_stream_wait(); /* MPI waits for nothing: the packing and the copy must be done */
  if (!hr_gpu_halo_through_device())
    return start_sendrecv_packed(h->g, HR_LAYOUT_SPINOR, h->host_send, h->host_recv, half_bytes);
  return start_sendrecv_packed(h->g, HR_LAYOUT_SPINOR, h->dev_send, h->dev_recv, half_bytes);
#else
  (void)h;
  (void)half_bytes;
  return NULL;
#endif
}

void dirac_halo_gpu_complete(const dirac_halo *h, hr_comm_request *req, size_t half_bytes) {
  if (req != NULL) {
    complete_sendrecv(req);
    if (!hr_gpu_halo_through_device())
      hr_gpu_halo_copy_to_device_async(h->dev_recv, h->host_recv, (size_t)h->nsites * half_bytes);
  }
  hr_gpu_compute_after_halo();
}
#endif

void dirac_halo_release(void) {
  for (int p = 0; p < 3; p++) halo_free(&halos[p]);
}
