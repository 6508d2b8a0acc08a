/* dirac_gpu.h -- the GPU path of the Dirac operators (internal to LibHR/Dirac): the
 * arguments of one hopping or diagonal application on device copies, and the launchers
 * (dirac_gpu.c, compiled by nvcc in CUDA builds and by the host compiler in emulated builds)
 * that start one kernel per piece. The per-site mathematics is that of dirac_site.h. */
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
} dirac_gpu_args;

/* Hopping term over pieces p0 .. p1-1 of og (dirac_site_hop, then dirac_site_finish). */
void dirac_gpu_hop(const geometry_descriptor *og, int p0, int p1, const dirac_gpu_args *a);
void dirac_gpu_hop_flt(const geometry_descriptor *og, int p0, int p1, const dirac_gpu_args *a);
/* Diagonal part on the master sites of g: out = M in (times gamma5 if g5), M = cl or diag
 * (dirac_site_diag). */
void dirac_gpu_diag(const geometry_descriptor *g, const dirac_gpu_args *a);
void dirac_gpu_diag_flt(const geometry_descriptor *g, const dirac_gpu_args *a);

#ifdef __cplusplus
}
#endif

#endif
