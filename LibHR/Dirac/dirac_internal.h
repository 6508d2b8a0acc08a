/* dirac_internal.h -- what the files of LibHR/Dirac share (not installed): the derived state
 * of a Dirac operator (dirac_state.c) -- represented links with boundary phases in the forms
 * the CPU loops and GPU kernels read, the clover blocks, inverses and log-determinants --
 * looked up by the version of the gauge field it was built from, and the clover builder. */
#ifndef DIRAC_INTERNAL_H
#define DIRAC_INTERNAL_H

#include "backend.h"
#include "communications.h"
#include "halo_exchange.h"
#include "clover.h"
#include "dirac.h"
#include "fields.h"
#include "field_kinds.h"
#include "gpu.h"

/* Links derived from one version of a gauge field with one set of boundary conditions. */
typedef struct {
  const suNg_field *u;     /* the gauge field (NULL: entry unused) */
  unsigned long version;   /* u->version it was built from */
  int generation;          /* geometry_generation() it was built for */
  dirac_bc bc;             /* boundary conditions of the phases */
  unsigned long checksum;  /* HR_DEBUG_CHECKS: hash of u's master links when built */
  unsigned long last_use;  /* for the choice of the entry to rebuild */
  suNf_field *uf;          /* represented links with phases, gauge halo exchanged: the links
                              of the clover term and of the force */
  suNf_field *uf_hop;      /* the links of the hopping term: uf, or with open time boundaries
                              uf_open */
  suNf_field *uf_open;     /* open time boundaries: uf without the links that touch the time
                              slices 0 and GLB_T - 1 (dirac_open_cut_link; else NULL) */
  suNf *pack;              /* CPU hopping loop: the place of 8 links of uf_hop per master site
                              of glattice at 8 (ix - master_shift), U_mu(x) and U_mu(x - mu)
                              in the layout of the CPU kernels (dirac_cpu_pack_links) */
  suNf_flt *pack_flt;      /* the same rounded to single precision */
  suNf_field_flt *uf_flt;  /* GPU builds: uf_hop rounded to single precision (device copy) */
  int pack_ready;          /* pack and pack_flt hold the links of this version */
} dirac_links_state;

/* Clover term of one links state with one (csw, m0): blocks 4 + m0 + C and inverses. */
typedef struct {
  const dirac_links_state *links; /* built from (NULL: entry unused) */
  unsigned long links_version;    /* links->version then (an entry is reused in place) */
  const suNg_field *u;            /* links->u then */
  int generation;                 /* geometry_generation() of its fields */
  double csw, m0;
  unsigned long last_use;
  clover_field *blk;         /* [0] the blocks, [1] their inverses (glattice) */
  clover_field_flt *blk_flt; /* the same in single precision */
  double *logdet_site;       /* log det of both blocks per master site of glattice */
  int on_gpu;                /* set by the caller: build on the device copies */
  int logdet_on_host;        /* GPU builds: logdet_site holds the values of dev_logdet */
  double *dev_logdet;        /* GPU builds: device array of the log dets (else NULL) */
} dirac_clover_state;

/* The links state of D: built, or rebuilt from the current version of D->u. */
const dirac_links_state *dirac_links_state_of(const dirac_op *D);
/* pk, pk_flt = the 8 links uup[mu] = U_mu(x), udn[mu] = U_mu(x - mu) of one site in the
 * layout that the CPU kernels of dirac.c read (dirac_cpu_pack_site of dirac_site.h, as
 * compiled with the vector flags of configure's --with-simd), in double and in single. */
void dirac_cpu_pack_links(void *pk, void *pk_flt, const suNf *const uup[4],
                          const suNf *const udn[4]);
/* The packed host links of ls (pack, or pack_flt if flt), built from uf on first use. */
const void *dirac_links_pack(const dirac_links_state *ls, int flt);
/* The clover state of D (NULL when D->csw == 0). */
const dirac_clover_state *dirac_clover_state_of(const dirac_op *D);
/* Build the blocks, inverses and log dets of cs from cs->links and (csw, m0) (clover.c). */
void clover_state_build(dirac_clover_state *cs);
/* Free the fields of cs (clover.c). */
void clover_state_free(dirac_clover_state *cs);

/* The global time of every master element of glattice, on the device if on_gpu (clover.c;
 * remade when the geometry changes). */
const int *dirac_time_table(int on_gpu);

/* The spin-projected halo exchange of the CPU hopping loops for input fields on one geometry
 * (dirac_halo.c): every site of the spinor send buffers is sent as the half spinor of
 * (1 - gamma_mu) psi (buffers of the neighbours one step up) or (1 + gamma_mu) psi (one step
 * down), half the bytes of a spinor, and the hopping sum of a boundary site reads the
 * received half spinor in place of projecting a halo spinor (same bits: the projection is
 * exact but for one rounded addition, the same on either side). */
typedef struct {
  const geometry_descriptor *g; /* the input geometry (NULL: not made) */
  int generation;               /* geometry_generation() it was made for */
  int setting;                  /* the dirac_set_node_halo setting it was made under */
  int nsites;                   /* sites in all spinor send buffers (= receive buffers) */
  int *send_site;               /* master index of every send-buffer site, buffer by buffer */
  unsigned char *send_dir;      /* its projection: mu (s = -1) or mu + 4 (s = +1) */
  unsigned char *send_buf;      /* its buffer */
  int halo_lo, halo_hi;         /* the receive buffers lie in the indices halo_lo..halo_hi-1 */
  int *halo_pos;                /* half spinor of index halo_lo + k in recv (-1: none) */
  void *send, *recv;            /* nsites half spinors each (double or single precision); with
                                   node, recv is this exchange's receive area in the node's
                                   shared window (two, in turn: dirac_halo_begin) */
  void **send_to;               /* per buffer: the area whose send positions its half spinors
                                   are projected into: send, or the receive area of the
                                   partner on this node (the same positions there) */
  struct dirac_halo_node *node; /* MPI builds: the exchange through node memory (dirac_halo.c;
                                   NULL: every buffer through MPI) */
  /* The GPU path's exchange (GPU builds; made on its first use, dirac_halo_gpu_of): the same
   * half spinors in device memory, buffer i a block of sbuf_len[i] sites in the device layout
   * of a piece, starting at the sum of the lengths before it (the bytes of start_sendrecv_
   * packed's areas). */
  int *dev_send_tab;            /* per send site: master index, projection, block start and
                                   length (dirac_gpu_halo_pack) */
  int *dev_halo_tab;            /* per index halo_lo .. halo_hi-1: block start (-1: none),
                                   entry and length (dirac_gpu_args.halo_tab) */
  void *dev_send, *dev_recv;    /* the device send and receive areas */
  void *host_send, *host_recv;  /* page-locked staging of the host-staged path */
} dirac_halo;

/* The halo tables of input geometry ig (made on first use and when the geometry changed);
 * NULL when ig has no spinor buffers (one process without force_halo). */
dirac_halo *dirac_halo_of(const geometry_descriptor *ig);
/* Free the halo tables (dirac_finalize). */
void dirac_halo_release(void);
/* The CPU loops' exchange of h in four steps (with node memory; MPI or copies alone else):
 *   dirac_halo_begin     before projecting: picks this exchange's receive areas (recv and
 *                        the partners' in send_to) and waits until the partners on this node
 *                        have read what this rank wrote into those areas two exchanges ago
 *   dirac_halo_start     after projecting into send_to: tells those partners their half
 *                        spinors are there, starts MPI (half_bytes per site) for the rest
 *   dirac_halo_complete  waits for MPI and for the partners writing into this rank
 *   dirac_halo_end       after the boundary pieces: tells the partners this rank has read
 *                        its receive area. */
void dirac_halo_begin(dirac_halo *h);
hr_comm_request *dirac_halo_start(const dirac_halo *h, size_t half_bytes);
void dirac_halo_complete(const dirac_halo *h, hr_comm_request *req);
void dirac_halo_end(const dirac_halo *h);
/* Send sites of h whose half spinors go through node memory. */
int dirac_halo_node_sites(const dirac_halo *h);
#if HR_GPU_ENABLED
/* dirac_halo_of(ig) with the device tables and areas of the GPU path made. */
const dirac_halo *dirac_halo_gpu_of(const geometry_descriptor *ig);
/* The exchange of the device send area of h (half spinors of half_bytes bytes) into its
 * device receive area, in three steps around the interior kernel (gpu.h, "halo stream"):
 *   dirac_halo_gpu_begin     after dirac_gpu_halo_pack (halo stream): queues the copy to the
 *                            page-locked host buffer (staged path) or, with one process, the
 *                            device copy, on the halo stream; returns at once
 *   dirac_halo_gpu_start     after the interior kernel's launch: waits for the halo stream
 *                            and starts MPI on device memory or on the host buffers
 *                            (hr_gpu_halo_through_device); returns the request (NULL: none)
 *   dirac_halo_gpu_complete  completes it, queues the staged upload on the halo stream and
 *                            makes the compute stream wait for the halo stream, so that the
 *                            boundary kernels launched next read the received half spinors. */
void dirac_halo_gpu_begin(const dirac_halo *h, size_t half_bytes);
hr_comm_request *dirac_halo_gpu_start(const dirac_halo *h, size_t half_bytes);
void dirac_halo_gpu_complete(const dirac_halo *h, hr_comm_request *req, size_t half_bytes);
#endif

/* 1 when D runs on the GPU path (GPU builds with the GPU backend chosen). */
static inline int dirac_on_gpu(const dirac_op *D) {
  return HR_GPU_ENABLED && hr_backend_on_gpu(D->backend);
}

#endif
