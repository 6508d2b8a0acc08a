/* geometry.h -- the lattice geometry of LibHR: global and local lattice sizes, the process
 * grid, the geometry descriptors glattice / glat_even / glat_odd that say where every site of
 * a field lives in memory (pieces, send and receive buffers, copies), the neighbour tables
 * ipt / iup / idn, and the loop macros (_MASTER_FOR, _PIECE_FOR, _SITE_FOR, OpenMP-parallel
 * and reduction forms, _FIELD_AT). Doc/geometry.md explains the layout with an example.
 * Implemented in: Geometry/geometry_init.c, Geometry/geometry_layout.c, Geometry/geometry_print.c. */
#ifndef GEOMETRY_H
#define GEOMETRY_H

#include <stddef.h>
#include <stdio.h>

#include "hr_build_config.h"
#include "hr_complex.h"
#include "hr_inline.h"

#ifdef __cplusplus
extern "C" {
#endif

struct input_file;

/* ------------------------------------------------------------------ parameters */

/* Send / receive buffers of a descriptor at most: 8 faces and 24 edges, each for two
 * parities. */
#define HR_GEOMETRY_MAX_BUFFERS 64

/* Directions: 0 = t, 1 = x, 2 = y, 3 = z. */
enum { HR_DIR_T = 0, HR_DIR_X = 1, HR_DIR_Y = 2, HR_DIR_Z = 3 };

/* Everything the geometry is built from. Input keys GLB_T..GLB_Z (required), NP_T..NP_Z
 * (default 1), PB_T..PB_Z (default 2). */
typedef struct geometry_params {
  int glb[4];        /* global lattice extents GLB_T, GLB_X, GLB_Y, GLB_Z */
  int np[4];         /* process grid NP_T, NP_X, NP_Y, NP_Z */
  int pb[4];         /* path-blocking sizes PB_T, PB_X, PB_Y, PB_Z of the bulk ordering */
  int force_halo[4]; /* for tests and print_geometry: lay out and exchange a halo in this
                        direction even when NP = 1 (the process then talks to itself); no
                        input key. Results are identical to the unsplit geometry. */
} geometry_params;

/* Defaults: glb = 0 (unset), np = 1, pb = 2, force_halo = 0. */
void geometry_params_default(geometry_params *p);
/* Fill `p` from the GLB_*, NP_* and PB_* keys of the top level of `in` and check them as
 * geometry_check_params does, except for the rank count. Returns 0, or -1 with
 * "file:line: key: ..." in errbuf (missing, malformed or impossible value). */
int geometry_read_input_keys(geometry_params *p, struct input_file *in, char *errbuf,
                             size_t errlen);
/* As geometry_read_input_keys, also checking NP_T*NP_X*NP_Y*NP_Z against the number of MPI
 * ranks (when MPI runs; message at the line of the first NP_* key); stops the program on
 * error (exit code HR_EXIT_INPUT). */
void geometry_read_input(geometry_params *p, struct input_file *in);
/* Check `p` for a run on `nranks` processes: GLB divisible by NP, local extents even and
 * >= 2, product of NP == nranks, NP > 1 only in MPI builds, 1 <= PB <= local extent.
 * Returns NULL when valid, else `buf` holding a message that names the key and the remedy. */
const char *geometry_check_params(const geometry_params *p, int nranks, char *buf,
                                  size_t buflen);
/* Build the geometry (stops with HR_EXIT_SETUP when geometry_check_params fails): sets the
 * size globals, glattice / glat_even / glat_odd, the neighbour tables and, under MPI, the
 * Cartesian communicator. May be called again (the old geometry is freed first). */
void geometry_init(const geometry_params *p);
/* Read the geometry keys of `in` and call geometry_init. */
void geometry_init_from_input(struct input_file *in);
/* Free the geometry and its communicator. */
void geometry_finalize(void);

/* ------------------------------------------------------------------ sizes and grid */

/* Local lattice extents (this process) and their array form LOC_SIZE[mu]. */
extern int LOC_T, LOC_X, LOC_Y, LOC_Z;
extern int LOC_SIZE[4];
/* Global lattice extents. */
extern int GLB_T, GLB_X, GLB_Y, GLB_Z;
extern int GLB_SIZE[4];
/* Process grid. */
extern int NP_T, NP_X, NP_Y, NP_Z;
extern int NP_SIZE[4];
/* Path-blocking sizes. */
extern int PB_T, PB_X, PB_Y, PB_Z;
extern int PB_SIZE[4];
/* Local volume LOC_T*LOC_X*LOC_Y*LOC_Z and global volume. */
extern int VOLUME;
extern long long GLB_VOLUME;
/* Coordinates of this process in the grid, its rank in the Cartesian communicator (0
 * without MPI) and the ranks of its neighbours one step up / down in each direction. */
extern int COORD[4];
extern int CART_RANK;
extern int PROC_UP[4], PROC_DN[4];
/* Global coordinate of local coordinate 0 of this process: COORD[mu] * LOC_SIZE[mu]. */
extern int ZERO_COORD[4];
/* 1 when direction mu has a halo (NP > 1, or force_halo). */
extern int HALO_DIR[4];

/* ------------------------------------------------------------------ descriptor */

/* Where the sites of a field live in memory. All indices (master_start, copy_from,
 * sbuf_start, ...) are in the one index space shared by every field; site ix of a field
 * on this geometry is element ix - master_shift of its memory (_FIELD_AT). Ranges are
 * inclusive: piece ixp holds master_end[ixp] - master_start[ixp] + 1 sites (0 is possible). */
typedef struct geometry_descriptor {
  int inner_master_pieces;         /* pieces 0 .. inner_master_pieces-1: bulk sites */
  int local_master_pieces;         /* + boundary pieces: all sites owned by this process */
  int total_spinor_master_pieces;  /* + one piece per spinor receive buffer */
  int total_gauge_master_pieces;   /* + one piece per gauge-only receive buffer */
  int *master_start, *master_end;  /* first and last index of each piece */
  int master_shift;                /* index of element 0 of a field on this geometry */
  int ncopies_spinor;              /* copy ranges to sync before a spinor-layout send */
  int ncopies_gauge;               /* all copy ranges (gauge layout), spinor ones first */
  int *copy_from, *copy_to, *copy_len; /* range copy_to.. is a copy of copy_from.. */
  int copy_shift;                  /* subtract from copy_from/copy_to to address field
                                      memory; equals master_shift */
  int nbuffers_spinor;             /* send/receive buffer pairs of the spinor layout */
  int nbuffers_gauge;              /* all buffer pairs (gauge layout), spinor ones first */
  int *rbuf_len, *sbuf_len;        /* sites in receive / send buffer i (equal) */
  int *rbuf_from_proc, *rbuf_start; /* receive buffer i: partner rank and first index */
  int *sbuf_to_proc, *sbuf_start;   /* send buffer i: partner rank and first index */
  int gsize_spinor;                /* sites to allocate for a spinor-layout field */
  int gsize_gauge;                 /* sites to allocate for a gauge-layout field */
  int *fuse_mask;                  /* all master sites, inner ones first, then the spinor
                                      halo sites, then the gauge-only halo sites */
  int fuse_gauge_size;             /* length of fuse_mask */
  int fuse_inner_counter;          /* inner (bulk) sites at the start of fuse_mask */
  /* LibHR additions */
  int parity;                      /* HR_PARITY_EVEN, HR_PARITY_ODD or HR_PARITY_BOTH */
  int master_sites;                /* number of master sites (prefix of fuse_mask) */
  int fuse_spinor_size;            /* master sites + spinor halo sites in fuse_mask */
  int *buf_tag;                    /* MPI tag of buffer i: encodes direction and parity */
  int *buf_disp;                   /* displacement of buffer i, 4 ints per buffer: receive
                                      buffer i holds the sites at +disp*LOC_SIZE; send buffer
                                      i goes to the process at -disp */
} geometry_descriptor;

enum { HR_PARITY_EVEN = 0, HR_PARITY_ODD = 1, HR_PARITY_BOTH = 2 };

/* Layout of a field: spinor (site fields: one halo layer) or gauge (links: halo with the
 * edges x+mu+-nu for staples and clover leaves). */
typedef enum { HR_LAYOUT_SPINOR = 0, HR_LAYOUT_GAUGE = 1 } hr_layout;

/* Full lattice, even sites, odd sites. */
extern geometry_descriptor glattice, glat_even, glat_odd;

/* ------------------------------------------------------------------ site tables */

/* Neighbour tables for every stored index (master, copy, halo): hr_iup[4*ix+mu] is the index
 * of the site one step up in direction mu, -1 when that site is not stored (outside the
 * halo). Directions without a halo wrap periodically. A copy has the neighbours of its
 * master; neighbours of local sites are always master sites. */
extern int *hr_iup, *hr_idn;
/* Index of local coordinates (t,x,y,z), 0 <= t < LOC_T etc.:
 * hr_ipt[((t*LOC_X+x)*LOC_Y+y)*LOC_Z+z]. */
extern int *hr_ipt;
#define iup(ix, mu) (hr_iup[4 * (ix) + (mu)])
#define idn(ix, mu) (hr_idn[4 * (ix) + (mu)])
#define ipt(t, x, y, z) (hr_ipt[(((t) * LOC_X + (x)) * LOC_Y + (y)) * LOC_Z + (z)])

/* Index of local coordinates x[4] that may lie in the halo (x[mu] = -1 or LOC_SIZE[mu] in
 * directions with a halo); -1 when that site is not stored. */
int ipt_ext(const int x[4]);
/* Local coordinates of any stored index (halo sites have -1 or LOC_SIZE[mu]). */
void local_coordinates(int x[4], int ix);
/* Global coordinates (0 <= g[mu] < GLB_SIZE[mu]) of any stored index. */
void global_coordinates(int g[4], int ix);
/* Parity (0 even, 1 odd) of any stored index: (t+x+y+z) mod 2 of its global coordinates. */
int site_parity(int ix);
/* The master index a stored index stands for: itself for master sites and halo sites, the
 * master of a copy. */
int master_index(int ix);
/* Number of stored indices: glattice.gsize_gauge. */
int geometry_total_sites(void);
/* Whether geometry_init has run. */
int geometry_initialized(void);
/* Number of geometry_init calls so far: data kept across calls (module temporaries) compares
 * it to know whether it belongs to the current geometry. */
int geometry_generation(void);
/* Descriptor of the given parity (HR_PARITY_EVEN, _ODD or _BOTH). */
const geometry_descriptor *geometry_of_parity(int parity);
/* Number of buffers / copy ranges of `g` for a layout. */
HR_INLINE int geometry_nbuffers(const geometry_descriptor *g, hr_layout layout) {
  return layout == HR_LAYOUT_GAUGE ? g->nbuffers_gauge : g->nbuffers_spinor;
}
HR_INLINE int geometry_ncopies(const geometry_descriptor *g, hr_layout layout) {
  return layout == HR_LAYOUT_GAUGE ? g->ncopies_gauge : g->ncopies_spinor;
}
/* Number of sites to allocate for a field of `g` with `layout`. */
HR_INLINE int geometry_field_size(const geometry_descriptor *g, hr_layout layout) {
  return layout == HR_LAYOUT_GAUGE ? g->gsize_gauge : g->gsize_spinor;
}
/* Print the pieces (with their ranges), buffers (partner ranks and ranges) and copies of
 * `g` to `f`, under the title `name`. */
void geometry_fprint_descriptor(FILE *f, const char *name, const geometry_descriptor *g);
/* Print a map of the plane of directions mu (rows) and nu (columns) through the local
 * coordinates `at` (the other two coordinates), halo included: the index of every stored
 * site, '.' where none is stored. */
void geometry_fprint_plane(FILE *f, int mu, int nu, const int at[4]);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------ loop macros */

/* Serial loops (user code writes no raw loop over memory):
 *   _PIECE_FOR(g, ixp)        every master piece ixp of g (inner pieces first)
 *   _SITE_FOR(g, ixp, ix)     every site ix of piece ixp
 *   _MASTER_FOR(g, ix)        every master site of g
 *   _INNER_FOR(g, ix)         the sites of the inner pieces (no halo needed)
 *   _BOUNDARY_FOR(g, ix)      the sites of the boundary pieces (need the halo)
 *   _PIECE_RANGE_FOR(g, p0, p1, ix)  sites of pieces p0 .. p1-1
 * `ix` and `ixp` are declared by the macro. Do not `break` out of these loops. */
#define _PIECE_FOR(g, ixp) for (int ixp = 0; ixp < (g)->local_master_pieces; ixp++)
#define _SITE_FOR(g, ixp, ix)                                                              \
  for (int ix = (g)->master_start[ixp]; ix <= (g)->master_end[ixp]; ix++)
#define _PIECE_RANGE_FOR(g, p0, p1, ix)                                                    \
  for (int HR_CAT(hr_p_, ix) = (p0); HR_CAT(hr_p_, ix) < (p1); HR_CAT(hr_p_, ix)++)       \
    _SITE_FOR(g, HR_CAT(hr_p_, ix), ix)
#define _MASTER_FOR(g, ix) _PIECE_RANGE_FOR(g, 0, (g)->local_master_pieces, ix)
#define _INNER_FOR(g, ix) _PIECE_RANGE_FOR(g, 0, (g)->inner_master_pieces, ix)
#define _BOUNDARY_FOR(g, ix)                                                               \
  _PIECE_RANGE_FOR(g, (g)->inner_master_pieces, (g)->local_master_pieces, ix)

/* OpenMP pragma that vanishes in builds without OpenMP. */
#ifdef _OPENMP
#define HR_OMP_PRAGMA(x) _Pragma(#x)
#else
#define HR_OMP_PRAGMA(x)
#endif

/* Parallel loops: each opens its own OpenMP parallel region and shares the sites of every
 * piece among the threads (static schedule, no barrier between pieces). Without OpenMP
 * they are the serial loops. Use them outside parallel regions only; the body must not
 * `break`, `return` or write to variables shared by sites other than its own site, except
 * through the reduction forms:
 *   _OMP_PIECE_RANGE_FOR(g, p0, p1, ix)   sites of pieces p0 .. p1-1
 *   _OMP_MASTER_FOR(g, ix), _OMP_INNER_FOR(g, ix), _OMP_BOUNDARY_FOR(g, ix)
 *   _OMP_SITE_FOR(g, ixp, ix)             sites of one piece
 *   _OMP_MASTER_FOR_SUM(g, ix, s)         s (a double variable) += what the body adds to s
 *   _OMP_MASTER_FOR_SUM_COMPLEX(g, ix, z) z (an hr_complex variable) likewise; the sum is
 *                                         reduced as two doubles (re, im)
 * and the _PIECE_RANGE_ variants of the sums. `s` and `z` must be plain identifiers. The
 * sums are local to this process: call global_sum (communications.h) for the total. */
#define _OMP_PIECE_RANGE_FOR(g, p0, p1, ix)                                                \
  HR_OMP_PRAGMA(omp parallel)                                                              \
  for (int HR_CAT(hr_p_, ix) = (p0); HR_CAT(hr_p_, ix) < (p1); HR_CAT(hr_p_, ix)++)       \
    HR_OMP_PRAGMA(omp for schedule(static) nowait)                                         \
    _SITE_FOR(g, HR_CAT(hr_p_, ix), ix)
#define _OMP_MASTER_FOR(g, ix) _OMP_PIECE_RANGE_FOR(g, 0, (g)->local_master_pieces, ix)
#define _OMP_INNER_FOR(g, ix) _OMP_PIECE_RANGE_FOR(g, 0, (g)->inner_master_pieces, ix)
#define _OMP_BOUNDARY_FOR(g, ix)                                                           \
  _OMP_PIECE_RANGE_FOR(g, (g)->inner_master_pieces, (g)->local_master_pieces, ix)
#define _OMP_SITE_FOR(g, ixp, ix)                                                          \
  HR_OMP_PRAGMA(omp parallel for schedule(static))                                         \
  _SITE_FOR(g, ixp, ix)

#define _OMP_PIECE_RANGE_FOR_SUM(g, p0, p1, ix, s)                                         \
  HR_OMP_PRAGMA(omp parallel reduction(+ : s))                                             \
  for (int HR_CAT(hr_p_, ix) = (p0); HR_CAT(hr_p_, ix) < (p1); HR_CAT(hr_p_, ix)++)       \
    HR_OMP_PRAGMA(omp for schedule(static) nowait)                                         \
    _SITE_FOR(g, HR_CAT(hr_p_, ix), ix)
#define _OMP_MASTER_FOR_SUM(g, ix, s)                                                      \
  _OMP_PIECE_RANGE_FOR_SUM(g, 0, (g)->local_master_pieces, ix, s)

/* The complex sum: an outer one-pass loop adds the reduced (re, im) to z at its end; inside
 * the parallel region each thread accumulates into its own hr_complex z (which shadows the
 * caller's z) and adds it to the reduction variables when its share is done. */
#define _OMP_PIECE_RANGE_FOR_SUM_COMPLEX(g, p0, p1, ix, z)                                 \
  for (double hr_re_##z = 0., hr_im_##z = 0., *hr_done_##z = NULL; hr_done_##z == NULL;    \
       z += hr_cmplx(hr_re_##z, hr_im_##z), hr_done_##z = &hr_re_##z)                     \
    HR_OMP_PRAGMA(omp parallel reduction(+ : hr_re_##z, hr_im_##z))                        \
    for (hr_complex z = 0., *hr_tdone_##z = NULL; hr_tdone_##z == NULL;                    \
         hr_re_##z += hr_creal(z), hr_im_##z += hr_cimag(z), hr_tdone_##z = &z)                  \
      for (int HR_CAT(hr_p_, ix) = (p0); HR_CAT(hr_p_, ix) < (p1); HR_CAT(hr_p_, ix)++)     \
        HR_OMP_PRAGMA(omp for schedule(static) nowait)                                     \
        _SITE_FOR(g, HR_CAT(hr_p_, ix), ix)
#define _OMP_MASTER_FOR_SUM_COMPLEX(g, ix, z)                                              \
  _OMP_PIECE_RANGE_FOR_SUM_COMPLEX(g, 0, (g)->local_master_pieces, ix, z)

/* Pointer to site ix of a field struct with members `ptr` (element type of one site) and
 * `type` (its geometry_descriptor *). */
#define _FIELD_AT(f, ix) ((f)->ptr + ((ix) - (f)->type->master_shift))
/* Pointer to link mu of site ix of a link field (4 elements per site). */
#define _4FIELD_AT(f, ix, mu) ((f)->ptr + 4 * ((ix) - (f)->type->master_shift) + (mu))

#endif
