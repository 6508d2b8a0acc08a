/* halo_exchange.h -- halo exchange of fields laid out by a geometry descriptor (non-blocking
 * start / complete pairs and blocking forms, spinor and gauge layouts, any geometry parity).
 * Without MPI the exchanges only sync copies (and, for directions with force_halo, copy the
 * buffers locally).
 * Implemented in: Memory/halo_exchange.c. */
#ifndef HALO_EXCHANGE_H
#define HALO_EXCHANGE_H

#include <stddef.h>

#include "geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A halo exchange in flight. */
typedef struct hr_comm_request hr_comm_request;

/* Copy every master site of `g` with `layout` into its copies (done by the start functions;
 * call it after writing a field when only copies, not the halo, are needed). `field` is the
 * field's memory (site master_shift at offset 0), `site_bytes` the size of one site. */
void sync_copies(const geometry_descriptor *g, hr_layout layout, void *field, size_t site_bytes);

/* Start the halo exchange of a field of `g` with `layout` and `site_bytes` per site: sync
 * the copies, post a receive and a send for every buffer. Returns the request to complete.
 * Call from one thread, outside parallel regions; all processes must start exchanges in the
 * same order. Do not write to the field's send buffers or read its halo until completed. */
hr_comm_request *start_sendrecv_field(const geometry_descriptor *g, hr_layout layout,
                                      void *field, size_t site_bytes);
/* Start the exchange of data packed by the caller, site_bytes per buffer site: buffer i of
 * `g` with `layout` (sbuf_len[i] = rbuf_len[i] sites) is sent from `send` and received into
 * `recv`, both at byte offset site_bytes (len[0] + ... + len[i-1]), with the partners and tags
 * of start_sendrecv_field (the data of send buffer i arrives in the partner's receive buffer
 * i). The Dirac operators send spin-projected half spinors this way. `send` must not change
 * and `recv` not be read until completed (complete_sendrecv). `skip`: NULL, or per buffer i
 * HR_SKIP_SEND (send buffer i is not sent) and HR_SKIP_RECV (receive buffer i is not
 * received): buffers the caller moves itself (the Dirac halo through node memory). */
hr_comm_request *start_sendrecv_packed(const geometry_descriptor *g, hr_layout layout,
                                       const void *send, void *recv, size_t site_bytes,
                                       const unsigned char *skip);
/* The flags of start_sendrecv_packed's skip. */
enum { HR_SKIP_SEND = 1, HR_SKIP_RECV = 2 };
/* Let an exchange in flight progress without waiting (MPI_Testall): the MPI library moves
 * large messages only inside its calls, so a computation that overlaps an exchange calls
 * this now and then, from the thread that started it (MPI_THREAD_FUNNELED). NULL, a
 * finished exchange and builds without MPI: nothing. */
void sendrecv_progress(hr_comm_request *req);
/* Wait for an exchange to finish and release the request (NULL is ignored). */
void complete_sendrecv(hr_comm_request *req);

/* Site field with k doubles per site (spinor layout). */
hr_comm_request *start_sendrecv_site_field(const geometry_descriptor *g, double *field, int k);
/* Link field with 4*k doubles per site (k per link, gauge layout). */
hr_comm_request *start_sendrecv_link_field(const geometry_descriptor *g, double *field, int k);
/* Blocking forms: start and complete. */
void sendrecv_site_field(const geometry_descriptor *g, double *field, int k);
void sendrecv_link_field(const geometry_descriptor *g, double *field, int k);
void sendrecv_field(const geometry_descriptor *g, hr_layout layout, void *field,
                    size_t site_bytes);

/* Bytes a process sends in one exchange of a field of `g` (receives the same). */
size_t sendrecv_bytes(const geometry_descriptor *g, hr_layout layout, size_t site_bytes);

#ifdef __cplusplus
}
#endif

#endif
