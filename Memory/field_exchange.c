/* field_exchange.c -- halo exchange of one field, on the host (the geometry's exchange of the
 * array-of-structures copy) or, in GPU builds, on the device: the send sites are gathered
 * from their master sites into a packed area in which buffer b has the device layout of a
 * piece of sbuf_len[b] sites, so that the received bytes are exactly the receive piece. MPI
 * reads device memory directly in the emulated backend and with CUDA-aware MPI; otherwise the
 * packed area goes through host staging buffers. */
#include <stdlib.h>
#include <string.h>

#include "hr_error.h"
#include "input_file.h"
#include "memory_internal.h"
#include "halo_exchange.h"

#if HR_WITH_MPI && HR_GPU_BACKEND == HR_GPU_CUDA && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

/* The halo path chosen by hr_gpu_set_halo_path (input key gpu:halo). */
static hr_gpu_halo_path halo_path_choice = HR_GPU_HALO_AUTO;

void hr_gpu_set_halo_path(hr_gpu_halo_path path) { halo_path_choice = path; }

/* The halo path set by the environment variable HR_GPU_HALO (auto, device or host; unset:
 * auto), which overrides the input key: -1 until read. */
static int halo_path_env(void) {
  static int env_path = -1;
  if (env_path < 0) {
    const char *env = getenv("HR_GPU_HALO");
    env_path = env == NULL || *env == '\0' ? HR_GPU_HALO_AUTO
                                           : input_choice_index(HR_GPU_HALO_CHOICES, env);
    if (env_path < 0)
      hr_error_code(HR_EXIT_SETUP,
                    "HR_GPU_HALO=%s: not a halo path; use one of " HR_GPU_HALO_CHOICES
                    " (or unset it to follow the input key gpu:halo)",
                    env);
  }
  return env_path;
}

int hr_gpu_halo_through_device(void) {
  const int env = halo_path_env();
  const int path = env != HR_GPU_HALO_AUTO ? env : (int)halo_path_choice;
  if (path == HR_GPU_HALO_HOST) return 0;
  if (path == HR_GPU_HALO_DEVICE) return 1;
#if HR_GPU_BACKEND == HR_GPU_EMULATED
  return 1;
#elif HR_WITH_MPI && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  static int answer = -1;
  if (answer < 0) answer = MPIX_Query_cuda_support() ? 1 : 0;
  return answer;
#else
  return 0;
#endif
}

#if HR_GPU_ENABLED
/* Start the device exchange of a field whose device copy is current. */
static void start_device_exchange(struct hr_field_memory *m, struct hr_field_exchange *ex,
                                  void *gpu) {
  const geometry_descriptor *g = m->g;
  const hr_field_kind_info *k = m->kind;
  const size_t site_bytes = (size_t)hr_kind_site_units(k) * k->unit_bytes;
  char *dev = (char *)gpu;
  ex->nreq = 0;
  if (m->nbuffers == 0) return;
  hr_field_gpu_pack(m->pack, m->nsend, hr_kind_site_units(k), k->unit_bytes, gpu, ex->send_dev);
  hr_gpu_synchronize(); /* MPI does not wait for kernels */
  char *send = (char *)ex->send_dev;
#if HR_WITH_MPI
  const int staged = !hr_gpu_halo_through_device();
  if (staged) {
    /* Stage through host memory: the whole packed area down, receives into host memory. */
    const size_t bytes = (size_t)m->nsend * site_bytes;
    if (ex->send_host == NULL) { /* page-locked: full-speed and asynchronous copies */
      ex->send_host = hr_gpu_host_alloc(bytes);
      ex->recv_host = hr_gpu_host_alloc(bytes);
    }
    hr_gpu_copy_halo_to_host(ex->send_host, send, bytes);
    send = (char *)ex->send_host;
  }
  char *recv_host = (char *)ex->recv_host;
  for (int b = 0; b < m->nbuffers; b++) {
    const size_t bytes = (size_t)g->rbuf_len[b] * site_bytes;
    char *to = staged ? recv_host + (size_t)m->send_off[b] * site_bytes
                      : dev + (size_t)(g->rbuf_start[b] - g->master_shift) * site_bytes;
    MPI_Irecv(to, (int)bytes, MPI_BYTE, g->rbuf_from_proc[b], g->buf_tag[b], hr_cart_comm,
              &ex->req[ex->nreq++]);
  }
  for (int b = 0; b < m->nbuffers; b++) {
    const size_t bytes = (size_t)g->sbuf_len[b] * site_bytes;
    MPI_Isend(send + (size_t)m->send_off[b] * site_bytes, (int)bytes, MPI_BYTE,
              g->sbuf_to_proc[b], g->buf_tag[b], hr_cart_comm, &ex->req[ex->nreq++]);
  }
#else
  /* One process: buffers exist only for force_halo directions; receive buffer b gets this
   * process's send buffer b. */
  for (int b = 0; b < m->nbuffers; b++)
    hr_gpu_copy_on_device(dev + (size_t)(g->rbuf_start[b] - g->master_shift) * site_bytes,
                          send + (size_t)m->send_off[b] * site_bytes,
                          (size_t)g->sbuf_len[b] * site_bytes);
#endif
}

static void complete_device_exchange(struct hr_field_memory *m, struct hr_field_exchange *ex,
                                     void *gpu) {
#if HR_WITH_MPI
  if (m->nbuffers > 0 && !hr_gpu_halo_through_device()) {
    /* Host staging: each receive buffer goes up as soon as it has arrived (the receives are
     * requests 0 .. nbuffers-1), asynchronously: later kernels are ordered after the copy,
     * and the next exchange synchronises before it writes the staging buffers again. */
    const geometry_descriptor *g = m->g;
    const size_t site_bytes = (size_t)hr_kind_site_units(m->kind) * m->kind->unit_bytes;
    for (int k = 0; k < m->nbuffers; k++) {
      int b = MPI_UNDEFINED;
      MPI_Waitany(m->nbuffers, ex->req, &b, MPI_STATUS_IGNORE);
      if (b == MPI_UNDEFINED) break;
      hr_gpu_copy_halo_to_device_async(
          (char *)gpu + (size_t)(g->rbuf_start[b] - g->master_shift) * site_bytes,
          (char *)ex->recv_host + (size_t)m->send_off[b] * site_bytes,
          (size_t)g->rbuf_len[b] * site_bytes);
    }
  }
  MPI_Waitall(ex->nreq, ex->req, MPI_STATUSES_IGNORE);
  ex->nreq = 0;
#else
  (void)m, (void)ex, (void)gpu;
  hr_gpu_synchronize();
#endif
}
#endif

void hr_field_start_sendrecv(struct hr_field_memory *m, struct hr_field_exchange *ex,
                             void *host, void *gpu, int *current) {
  hr_field_check_idle(ex, "start_sendrecv");
#if HR_GPU_ENABLED
  if (*current & HR_COPY_GPU) {
    start_device_exchange(m, ex, gpu);
    ex->in_flight = 2;
    ex->host_req = NULL;
    /* The host halo is stale from now on (without buffers nothing changes). */
    if (m->nbuffers > 0) *current = HR_COPY_GPU;
    return;
  }
#else
  (void)gpu, (void)current;
#endif
  const hr_field_kind_info *k = m->kind;
  ex->host_req = start_sendrecv_field(m->g, k->layout, host, (size_t)k->nlinks * k->elem_bytes);
  ex->in_flight = 1;
}

void hr_field_complete_sendrecv(struct hr_field_memory *m, struct hr_field_exchange *ex) {
  if (ex->in_flight == 1) {
    complete_sendrecv(ex->host_req);
    ex->host_req = NULL;
  }
#if HR_GPU_ENABLED
  else if (ex->in_flight == 2) {
    /* The field struct is not at hand: find its device copy from the allocation record. */
    const int i = (int)(ex - m->ex);
    complete_device_exchange(m, ex, (char *)m->gpu_base + (size_t)i * m->stride_bytes);
  }
#else
  (void)m;
#endif
  ex->in_flight = 0;
}
