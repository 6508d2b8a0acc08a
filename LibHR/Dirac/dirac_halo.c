/* dirac_halo.c -- the spin-projected halo exchange of the CPU hopping loops (dirac_halo of
 * dirac_internal.h): for an input geometry with spinor buffers, the master site and
 * projection of every send-buffer site, the position of every receive-buffer site in the
 * received half spinors, and the send and receive areas. Made on first use for each geometry,
 * remade when the geometry changes. In MPI builds the half spinors for ranks of the same node
 * are written straight into the receiving rank's area (an MPI-3 shared-memory window), with
 * counters in that memory in place of messages (Doc/dirac.md, "Halos through node memory");
 * the other buffers go through MPI. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dirac_internal.h"
#include "dirac_site.h"
#include "geometry.h"
#include "hr_core.h"
#include "host_memory.h"
#include "hr_error.h"
#include "halo_exchange.h"

#if HR_WITH_MPI
#include <sched.h>
#include <stdatomic.h>
#endif

static dirac_halo halos[3]; /* by parity of the input geometry */

/* dirac_set_node_halo: on, ranks per node group (0: the real nodes), and a count of the
 * settings made (a halo made under an older one is remade) */
static int node_on = 1, node_group = 0, node_setting = 0;

#if HR_WITH_MPI
/* Each rank's segment of the window starts with counters, one per 64-byte line (different
 * ranks write them): line 0 the number of exchanges whose received half spinors this rank
 * has read (dirac_halo_end), line 1 + i the number of exchanges whose receive buffer i the
 * partner on this node has written (dirac_halo_start). Two receive areas follow, used by
 * odd and even exchanges in turn: a partner writes exchange n while this rank may still
 * read exchange n - 1, and waits only for this rank to have read n - 2. */
#define NODE_LINE 64

/* The exchange through node memory of one halo. */
struct dirac_halo_node {
  MPI_Comm comm;       /* the ranks sharing memory with this one (split of hr_cart_comm) */
  MPI_Win win;         /* the window of their segments */
  char *own;           /* this rank's segment */
  char **seg;          /* per buffer i: the segment of the partner of send buffer i on this
                          node, or NULL (MPI) */
  unsigned char *skip; /* start_sendrecv_packed's flags per buffer */
  int node_sites;      /* send sites written into node memory */
  size_t head, area;   /* bytes of the counters and of one receive area */
  uint64_t epoch;      /* exchanges begun */
};

/* The first 64-byte boundary in a segment of the window (MPI aligns less). */
static char *node_aligned(char *seg) {
  return seg + (NODE_LINE - (uintptr_t)seg % NODE_LINE) % NODE_LINE;
}

/* Counter `line` of segment seg. */
static _Atomic uint64_t *node_counter(char *seg, int line) {
  return (_Atomic uint64_t *)(void *)(seg + (size_t)NODE_LINE * line);
}

/* Wait until *c reaches want, letting the MPI exchange req progress meanwhile and giving the
 * core away (the partner may share it); `what` names the wait in the error after 10 minutes. */
static void node_wait(_Atomic uint64_t *c, uint64_t want, hr_comm_request *req,
                      const char *what, int buffer) {
  double t0 = -1.;
  for (unsigned long spins = 1; atomic_load_explicit(c, memory_order_acquire) < want; spins++) {
    sendrecv_progress(req);
    if (spins < 32) continue;
    sched_yield();
    if (spins % 4096 == 0) {
      if (t0 < 0.)
        t0 = hr_wtime();
      else if (hr_wtime() - t0 > 600.)
        hr_error("dirac halo: rank %d waited 10 minutes for its partner on this node, which has "
                 "not %s (buffer %d): a rank stopped or left the collective sequence of operator "
                 "applications; comm:node_halo = off sends the halo with MPI",
                 hr_rank(), what, buffer);
    }
  }
}

/* The shared receive area and the node partners of h (collective over hr_cart_comm). */
static void node_make(dirac_halo *h) {
  const geometry_descriptor *g = h->g;
  const int nb = g->nbuffers_spinor;
  struct dirac_halo_node *n = calloc(1, sizeof *n);
  if (n == NULL) hr_error("dirac halo: out of memory for the node tables");
  n->seg = calloc((size_t)nb, sizeof *n->seg);
  n->skip = calloc((size_t)nb, 1);
  if (n->seg == NULL || n->skip == NULL) hr_error("dirac halo: out of memory for the node tables");
  MPI_Comm node_all;
  MPI_Comm_split_type(hr_cart_comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_all);
  if (node_group > 0) { /* groups of node_group ranks of each node, as if nodes of their own */
    int r = 0;
    MPI_Comm_rank(node_all, &r);
    MPI_Comm_split(node_all, r / node_group, r, &n->comm);
    MPI_Comm_free(&node_all);
  } else {
    n->comm = node_all;
  }
  const size_t head = (size_t)NODE_LINE * (size_t)(1 + nb);
  const size_t area = ((size_t)h->nsites * sizeof(dirac_half_spinor) + NODE_LINE - 1) /
                      NODE_LINE * NODE_LINE;
  const size_t bytes = head + 2 * area;
  n->head = head;
  n->area = area;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true"); /* each segment near its rank */
  char *seg0 = NULL;
  MPI_Win_allocate_shared((MPI_Aint)(bytes + NODE_LINE), 1, info, n->comm, &seg0, &n->win);
  MPI_Info_free(&info);
  hr_assert(seg0 != NULL, "dirac halo: no memory in the node window");
  char *const base = node_aligned(seg0);
  for (int line = 0; line <= nb; line++) atomic_init(node_counter(base, line), 0);
  n->own = base;
  h->recv = base + head; /* dirac_halo_begin alternates it with the second area */
  /* the partners of every buffer in the node communicator (MPI_UNDEFINED: elsewhere) */
  MPI_Group cart_group, node_group_;
  MPI_Comm_group(hr_cart_comm, &cart_group);
  MPI_Comm_group(n->comm, &node_group_);
  int *to = malloc((size_t)nb * sizeof(int)), *from = malloc((size_t)nb * sizeof(int));
  if (to == NULL || from == NULL) hr_error("dirac halo: out of memory for the node tables");
  MPI_Group_translate_ranks(cart_group, nb, g->sbuf_to_proc, node_group_, to);
  MPI_Group_translate_ranks(cart_group, nb, g->rbuf_from_proc, node_group_, from);
  MPI_Group_free(&cart_group);
  MPI_Group_free(&node_group_);
  for (int i = 0; i < nb; i++) {
    if (to[i] != MPI_UNDEFINED) {
      MPI_Aint size = 0;
      int disp = 0;
      char *seg = NULL;
      MPI_Win_shared_query(n->win, to[i], &size, &disp, &seg);
      seg = node_aligned(seg);
      n->seg[i] = seg; /* send_to[i]: one of its receive areas (dirac_halo_begin) */
      n->skip[i] |= HR_SKIP_SEND;
      n->node_sites += g->sbuf_len[i];
    }
    if (from[i] != MPI_UNDEFINED) n->skip[i] |= HR_SKIP_RECV;
  }
  free(to);
  free(from);
  h->node = n;
  MPI_Barrier(n->comm); /* every counter is set before a partner reads it */
}

static void node_free(dirac_halo *h) {
  struct dirac_halo_node *n = h->node;
  if (n == NULL) return;
  if (hr_mpi_running()) {
    MPI_Win_free(&n->win);
    MPI_Comm_free(&n->comm);
  }
  free(n->seg);
  free(n->skip);
  free(n);
  h->node = NULL;
  h->recv = NULL; /* it was the window's */
}
#endif

/* Memory of n bytes, 64-byte aligned (stops when there is none); freed with hr_host_free. */
static void *halo_alloc(size_t n) { return hr_host_alloc(n, "the Dirac halo's tables and buffers"); }

static void halo_free(dirac_halo *h) {
#if HR_GPU_ENABLED
  hr_gpu_free(h->dev_send_tab);
  hr_gpu_free(h->dev_halo_tab);
  hr_gpu_free(h->dev_send);
  hr_gpu_free(h->dev_recv);
  hr_gpu_host_free(h->host_send);
  hr_gpu_host_free(h->host_recv);
#endif
#if HR_WITH_MPI
  node_free(h);
#endif
  hr_host_free(h->send_site);
  hr_host_free(h->send_dir);
  hr_host_free(h->send_buf);
  hr_host_free(h->send_to);
  hr_host_free(h->halo_pos);
  hr_host_free(h->send);
  hr_host_free(h->recv);
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
  hr_at_finalize(dirac_comm_release); /* before MPI_Finalize (node windows) */
  const int nb = g->nbuffers_spinor;
  h->g = g;
  h->generation = geometry_generation();
  h->setting = node_setting;
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
  h->send_buf = halo_alloc((size_t)h->nsites);
  h->halo_pos = halo_alloc((size_t)(h->halo_hi - h->halo_lo) * sizeof(int));
  for (int k = 0; k < h->halo_hi - h->halo_lo; k++) h->halo_pos[k] = -1;
  int pos = 0;
  for (int i = 0; i < nb; i++) {
    const int dir = buffer_dir(g, i);
    for (int k = 0; k < g->sbuf_len[i]; k++) {
      h->send_site[pos + k] = master_index(g->sbuf_start[i] + k);
      h->send_dir[pos + k] = (unsigned char)dir;
      h->send_buf[pos + k] = (unsigned char)i;
      h->halo_pos[g->rbuf_start[i] + k - h->halo_lo] = pos + k;
    }
    pos += g->sbuf_len[i];
  }
  /* the double-precision half spinors; the single-precision ones use the same memory */
  const size_t bytes = (size_t)h->nsites * sizeof(dirac_half_spinor);
  h->send = halo_alloc(bytes);
  h->send_to = halo_alloc((size_t)nb * sizeof(void *));
  for (int i = 0; i < nb; i++) h->send_to[i] = h->send;
#if HR_WITH_MPI
  if (node_on && hr_mpi_running() && hr_cart_comm != MPI_COMM_NULL) node_make(h);
#endif
  if (h->recv == NULL) h->recv = halo_alloc(bytes); /* not in a node window */
}

dirac_halo *dirac_halo_of(const geometry_descriptor *ig) {
  if (ig->nbuffers_spinor == 0) return NULL;
  dirac_halo *h = &halos[ig->parity];
  if (h->g != ig || h->generation != geometry_generation() || h->setting != node_setting) {
    halo_free(h);
    halo_make(h, ig);
  }
  return h;
}

void dirac_halo_begin(dirac_halo *h) {
#if HR_WITH_MPI
  struct dirac_halo_node *n = h->node;
  if (n == NULL) return;
  n->epoch++;
  const size_t at = n->head + (n->epoch % 2) * n->area; /* this exchange's receive areas */
  h->recv = n->own + at;
  for (int i = 0; i < h->g->nbuffers_spinor; i++)
    if (n->seg[i] != NULL) {
      h->send_to[i] = n->seg[i] + at; /* buffer i at the same offset as in send */
      if (n->epoch > 2)
        node_wait(node_counter(n->seg[i], 0), n->epoch - 2, NULL,
                  "read the halo written into this receive area before", i);
    }
#else
  (void)h;
#endif
}

hr_comm_request *dirac_halo_start(const dirac_halo *h, size_t half_bytes) {
  const unsigned char *skip = NULL;
#if HR_WITH_MPI
  struct dirac_halo_node *n = h->node;
  if (n != NULL) {
    for (int i = 0; i < h->g->nbuffers_spinor; i++)
      if (n->seg[i] != NULL)
        atomic_store_explicit(node_counter(n->seg[i], 1 + i), n->epoch, memory_order_release);
    skip = n->skip;
  }
#endif
  return start_sendrecv_packed(h->g, HR_LAYOUT_SPINOR, h->send, h->recv, half_bytes, skip);
}

void dirac_halo_complete(const dirac_halo *h, hr_comm_request *req) {
#if HR_WITH_MPI
  struct dirac_halo_node *n = h->node;
  if (n != NULL)
    for (int i = 0; i < h->g->nbuffers_spinor; i++)
      if (n->skip[i] & HR_SKIP_RECV)
        node_wait(node_counter(n->own, 1 + i), n->epoch, req, "written this halo into it", i);
#else
  (void)h;
#endif
  complete_sendrecv(req);
}

void dirac_halo_end(const dirac_halo *h) {
#if HR_WITH_MPI
  struct dirac_halo_node *n = h->node;
  if (n != NULL) atomic_store_explicit(node_counter(n->own, 0), n->epoch, memory_order_release);
#else
  (void)h;
#endif
}

int dirac_halo_node_sites(const dirac_halo *h) {
#if HR_WITH_MPI
  if (h->node != NULL) return h->node->node_sites;
#endif
  (void)h;
  return 0;
}

void dirac_set_node_halo(int on, int group) {
  if ((on != 0) == node_on && (group > 0 ? group : 0) == node_group) return;
  node_on = on != 0;
  node_group = group > 0 ? group : 0;
  node_setting++;
}

int dirac_node_halo(void) { return node_on; }

void dirac_comm_release(void) { dirac_halo_release(); }

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
  hr_host_free(send_tab);
  hr_host_free(halo_tab);
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
    return start_sendrecv_packed(h->g, HR_LAYOUT_SPINOR, h->host_send, h->host_recv, half_bytes,
                                 NULL);
  return start_sendrecv_packed(h->g, HR_LAYOUT_SPINOR, h->dev_send, h->dev_recv, half_bytes,
                               NULL);
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
