/* memory_internal.h -- shared by the files of Memory/ only: the allocation record of a set
 * of fields, the halo-exchange state of one field, and the generic (kind-independent)
 * implementations that the per-kind functions of fields.h call. */
#ifndef MEMORY_INTERNAL_H
#define MEMORY_INTERNAL_H

#include <stddef.h>

#include "communications.h"
#include "halo_exchange.h"
#include "fields.h"
#include "field_pack.h"
#include "gpu.h"

#if HR_WITH_MPI
#include <mpi.h>
#endif

/* At most this many buffers per geometry and layout (8 faces + 24 edges, two parities). */
#define HR_FIELD_MAX_BUFFERS 64

/* Halo-exchange state of one field. */
struct hr_field_exchange {
  int in_flight;            /* 0 idle, 1 host exchange, 2 device exchange */
  hr_comm_request *host_req; /* host exchange in flight */
  void *send_dev;           /* packed send area on the device (GPU builds) */
  void *send_host, *recv_host; /* host staging when MPI cannot read device memory */
#if HR_WITH_MPI
  MPI_Request req[2 * HR_FIELD_MAX_BUFFERS];
#endif
  int nreq;
};

/* One allocation of n fields of one kind on one geometry. */
struct hr_field_memory {
  const hr_field_kind_info *kind;
  const geometry_descriptor *g;
  int n;
  size_t field_bytes;  /* bytes of one field */
  size_t stride_bytes; /* bytes between consecutive fields (field_bytes rounded up) */
  void *host_base, *gpu_base;
  void *structs;       /* the array of n field structs handed to the user */
  struct hr_field_exchange *ex; /* n exchange states */
  /* Device exchange tables (GPU builds with buffers): nsend packed sites. */
  int nbuffers, nsend;
  hr_pack_entry *pack;          /* device memory */
  int send_off[HR_FIELD_MAX_BUFFERS]; /* first packed site of buffer b */
};

/* Units of one site of the kind (elements per site x units per element). */
static inline int hr_kind_site_units(const hr_field_kind_info *k) { return k->nlinks * k->units; }
/* Number of pieces (master and receive buffers) of g for the kind's layout. */
static inline int hr_kind_npieces(const hr_field_kind_info *k, const geometry_descriptor *g) {
  return k->layout == HR_LAYOUT_GAUGE ? g->total_gauge_master_pieces
                                      : g->total_spinor_master_pieces;
}

/* Generic implementations used by the per-kind functions (fields.c). `host`/`gpu` are the
 * field's ptr / gpu_ptr, `current` its current-copy bits. */
struct hr_field_memory *hr_field_memory_new(const hr_field_kind_info *k, int n,
                                            const geometry_descriptor *g, size_t struct_bytes);
void hr_field_memory_free(struct hr_field_memory *m);
void hr_field_sync_host(struct hr_field_memory *m, struct hr_field_exchange *ex, void *host,
                        const void *gpu, int *current);
void hr_field_sync_gpu(struct hr_field_memory *m, struct hr_field_exchange *ex,
                       const void *host, void *gpu, int *current);
void hr_field_copy_to_gpu(struct hr_field_memory *m, struct hr_field_exchange *ex,
                          const void *host, void *gpu, int *current);
void hr_field_copy_from_gpu(struct hr_field_memory *m, struct hr_field_exchange *ex,
                            void *host, const void *gpu, int *current);
void hr_field_copy(struct hr_field_memory *dm, struct hr_field_exchange *dex, void *dhost,
                   void *dgpu, int *dcur, struct hr_field_memory *sm,
                   struct hr_field_exchange *sex, void *shost, void *sgpu, int *scur);
void hr_field_zero(struct hr_field_memory *m, struct hr_field_exchange *ex, void *host,
                   void *gpu, int *current);
void hr_field_start_sendrecv(struct hr_field_memory *m, struct hr_field_exchange *ex,
                             void *host, void *gpu, int *current);
void hr_field_complete_sendrecv(struct hr_field_memory *m, struct hr_field_exchange *ex);

/* Layout conversion of one field (field_layout.c): host array of structures <-> device
 * structure of arrays per piece, for every piece of the layout. `dev` is host-addressable
 * memory in the device layout (the device copy itself in the emulated backend, a staging
 * buffer in CUDA). */
void hr_field_host_to_device_layout(const struct hr_field_memory *m, const void *host, void *dev);
void hr_field_device_to_host_layout(const struct hr_field_memory *m, const void *dev, void *host);
/* Host memory of at least `bytes` for staging (grow-only, one buffer per `which` 0..1). */
void *hr_field_staging(int which, size_t bytes);

/* Device kernels of the exchange (field_gpu_kernels.c, compiled by nvcc in CUDA builds):
 * gather the nsend send sites of the field at `gpu` into the packed area `send`. */
void hr_field_gpu_pack(const hr_pack_entry *pack, int nsend, int units_per_site,
                       size_t unit_bytes, const void *gpu, void *send);

#endif
