/* dirac_gpu.h -- the GPU path of the Dirac operators (internal to LibHR/Dirac): the
 * arguments of one hopping or diagonal application on device copies, and the launchers
 * (dirac_gpu.c, compiled by nvcc in CUDA builds and by the host compiler in emulated builds)
 * that start one kernel for a range of pieces. The per-site mathematics is that of
 * dirac_site.h. */
#ifndef DIRAC_GPU_H
#define DIRAC_GPU_H

#include "geometry.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One application on device copies (pointers to element 0 of each field's device copy). */
typedef struct {
  void *out;             /* output spinor field, on the geometry whose pieces are launched */
  const void *in;        /* input spinor field (hopping: the other parity, or glattice) */
  const void *x;         /* DIRAC_HOP_PLUS_DIAG: the spinor the diagonal acts on (out's
                            geometry), else NULL */
  const void *u;         /* represented links on glattice (hopping) */
  const void *cl;        /* clover blocks or inverses on glattice, or NULL (number diag) */
  hr_gpu_sites osites, isites, usites; /* site tables of out's, in's and glattice's geometry */
  const int *iup, *idn;  /* device copies of the neighbour tables */
  int mode, g5;          /* dirac_hop_mode, multiply by gamma5 at the end */
  double s, diag;        /* hopping factor; diagonal number when cl is NULL */
  /* The received half spinors of the halo (boundary pieces after the exchange; else NULL):
   * the neighbour of index iy with 0 <= iy - halo_lo < halo_n and halo_tab[3 k] >= 0 (k =
   * iy - halo_lo) is the half spinor of entry halo_tab[3 k + 1] of the block of
   * halo_tab[3 k + 2] sites that starts halo_tab[3 k] half spinors into halo_recv. */
  const int *halo_tab;
  const void *halo_recv;
  int halo_lo, halo_n;
  /* 12-number links (gpu:links = 12, NF = 3; else edge is NULL): rows 0 and 1 of each link
   * are read and the entries of row 2 rebuilt where used (dirac_link_row2_entry) with the
   * factor link_det[mu][b] = (re, im) of det U_mu: b = 1 for the links that cross the
   * boundary, as edge (the boundary bits of hr_gpu_edge_flags) tells for the output site,
   * else b = 0. */
  const unsigned char *edge;
  double link_det[4][2][2];
} dirac_gpu_args;

/* The sites of one launch: runs of consecutive indices (pieces that follow each other in
 * the index space merged into one run); thread i of the launch computes site
 * start[r] + i - first_thread[r] of the run r with first_thread[r] <= i < first_thread[r + 1]. */
#define DIRAC_GPU_MAX_RUNS 24
typedef struct {
  int n;
  int start[DIRAC_GPU_MAX_RUNS];
  int first_thread[DIRAC_GPU_MAX_RUNS + 1];
} dirac_gpu_runs;

/* Hopping term over pieces p0 .. p1-1 of og, one launch for all of them (dirac_site_hop,
 * then dirac_site_finish). */
void dirac_gpu_hop(const geometry_descriptor *og, int p0, int p1, const dirac_gpu_args *a);
void dirac_gpu_hop_flt(const geometry_descriptor *og, int p0, int p1, const dirac_gpu_args *a);
/* The halo's send area: for each of the n send sites, entry k of tab (4 ints: master index,
 * projection mu or mu + 4 as in dirac_halo, start of its buffer's block, that block's length
 * in sites) is (1 -/+ gamma_mu) a->in at the site, written to entry k - start of the block
 * that starts `start` half spinors into `send` (the device layout of a piece). */
void dirac_gpu_halo_pack(const dirac_gpu_args *a, const int *tab, void *send, int n);
void dirac_gpu_halo_pack_flt(const dirac_gpu_args *a, const int *tab, void *send, int n);
/* Diagonal part on the master sites of g, one launch: out = M in (times gamma5 if g5),
 * M = cl or diag (dirac_site_diag). */
void dirac_gpu_diag(const geometry_descriptor *g, const dirac_gpu_args *a);
void dirac_gpu_diag_flt(const geometry_descriptor *g, const dirac_gpu_args *a);

#ifdef __cplusplus
}
#endif

#endif
