/* dirac.h -- the Wilson and Wilson-clover Dirac operators (Doc/conventions.md, Doc/dirac.md):
 *   D psi(x) = (4 + m0) psi(x) + C psi(x) + H psi(x),
 *   H psi(x) = -1/2 sum_mu [(1 - gamma_mu) U_mu(x) psi(x+mu)
 *                           + (1 + gamma_mu) U_mu(x-mu)^+ psi(x-mu)]   (hopping term),
 *   C = csw (i/4) sum_mu,nu sigma_mu,nu F_mu,nu (clover.h; zero when csw = 0),
 * with U the links of the gauge field in the fermion representation times the boundary
 * phases (boundary_conditions.h). Even/odd preconditioning: D_ee = D_oo = 4 + m0 + C on one
 * parity,  Dphi_eopre = D_ee - D_eo D_oo^-1 D_oe  (fields on glat_even), and the Hermitian
 * Q = gamma5 D forms. Every operator has a single-precision twin with the suffix _flt acting
 * on spinor_field_flt (links rounded from the double ones).
 *
 * Operators are values. A dirac_op holds what defines the operator -- the gauge field, m0,
 * csw, the boundary conditions and the backend -- and is passed to every application, so a
 * program can hold several at once (two masses for Hasenbusch, ...) with no global state:
 *     dirac_op D = dirac_op_make(u, m0, csw, &bc);
 *     g5Dphi_eopre(out, &D, in);
 * What the operator derives from the gauge field (represented links with boundary phases,
 * packed and single-precision links, device copies, the clover term, its inverse and
 * log-determinant) is built on first use and rebuilt automatically when the gauge field's
 * version changes (fields.h: every write through the library, or host_write_suNg_field
 * before a program's own loop, gives it a new version). Nothing has to be called after
 * changing the links. Derived state is cached per (gauge field version, boundary conditions)
 * and, for the clover term, per (csw, m0); two operators on the same links share the links.
 *
 * Under MPI each application starts the halo exchange of its input, computes the inner
 * pieces, completes the exchange and computes the boundary pieces (dirac_set_comm_overlap(0):
 * wait for the exchange first; the result is the same bit for bit). The CPU loops and the
 * GPU path send the halo as spin-projected half spinors (half the bytes of full spinors;
 * dirac_comm_stats_get counts them). Output and input must be different fields. In GPU
 * builds an operator runs where its backend says (backend.h).
 * Implemented in: LibHR/Dirac/dirac.c, LibHR/Dirac/dirac_ops_template.c,
 *  LibHR/Dirac/dirac_state.c, LibHR/Dirac/dirac_halo.c. */
#ifndef DIRAC_H
#define DIRAC_H

#include "backend.h"
#include "boundary_conditions.h"
#include "dirac_fields.h"
#include "linear_operator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A Wilson(-clover) Dirac operator: a plain value (copy it freely). The gauge field must
 * outlive every application. */
typedef struct {
  const suNg_field *u; /* gauge field: fundamental links on glattice */
  double m0;           /* bare mass */
  double csw;          /* clover coefficient (0: plain Wilson) */
  dirac_bc bc;         /* fermion boundary conditions (phases of the represented links) */
  hr_backend backend;  /* where it runs: HR_BACKEND_DEFAULT follows hr_backend_current() */
} dirac_op;

/* The operator on links u with mass m0, clover coefficient csw and boundary conditions bc
 * (NULL: dirac_bc_default), on the default backend. */
dirac_op dirac_op_make(const suNg_field *u, double m0, double csw, const dirac_bc *bc);

/* Overlap of communication and computation for every operator: 1 (default) or 0. */
void dirac_set_comm_overlap(int on);
int dirac_comm_overlap(void);
/* Halo exchanges of the CPU operators between ranks of one node (input key comm:node_halo):
 * the half spinors written straight into the receiving rank's memory (on = 1, the default) or
 * sent with MPI (0). group > 0 treats each `group` consecutive ranks of a node as a node of
 * their own (tests of mixed exchanges), 0 the real nodes. Collective; nothing without MPI. */
void dirac_set_node_halo(int on, int group);
int dirac_node_halo(void);
/* Free the halo exchanges' memory and node-memory windows (collective; registered with
 * hr_at_finalize when the first halo is made, so that hr_finalize calls it before
 * MPI_Finalize; remade on use). */
void dirac_comm_release(void);
/* Numbers per link that the GPU hopping kernels read (input key gpu:links): 18 (default), or
 * 12 for 3x3 links (NF = 3): rows 0 and 1, row 2 rebuilt in the kernel from them and det U
 * (Doc/gpu.md, "12-number links"). Stops with a message for 12 when NF != 3. No effect on
 * the CPU loops. */
void dirac_set_gpu_links(int numbers);
int dirac_gpu_links(void);
/* The software prefetch and site order of the CPU loops (Doc/dirac.md, "Prefetching the
 * streams"), input key cpu:prefetch = auto|off|neighbours|on|interleaved: no prefetch (the
 * hardware prefetcher alone); the neighbour spinors of a site a few sites ahead; those and the
 * streams (the links, x and clover blocks of a site a few sites ahead; in double precision also
 * the links of a site farther ahead into the L2 cache); as on, with each
 * thread's sites walked as two interleaved halves (two streams of each array at once for the
 * hardware prefetcher); or (auto, the default) one of these chosen by timing for each class
 * of kernel. The results are the same bits with every setting. */
enum {
  DIRAC_PREFETCH_AUTO = -1,
  DIRAC_PREFETCH_OFF = 0,
  DIRAC_PREFETCH_NEIGHBOURS = 1,
  DIRAC_PREFETCH_ON = 2,
  DIRAC_PREFETCH_INTERLEAVED = 3
};
/* Sets the prefetch of the CPU loops: DIRAC_PREFETCH_AUTO (chosen for each class of kernel
 * after the first DIRAC_CPU_PREFETCH_CALLS applications of the class after each geometry_init;
 * also restarts the timing), _OFF, _NEIGHBOURS, _ON or _INTERLEAVED. */
void dirac_set_cpu_prefetch(int mode);
struct input_file;
/* Read the Dirac keys of a program's input file (after hr_setup and hr_gpu_read_input, before
 * input_finish) and apply them: cpu:prefetch (dirac_set_cpu_prefetch; default auto),
 * comm:node_halo (dirac_set_node_halo; default on), gpu:links (dirac_set_gpu_links; default
 * 18; 12 with NF != 3 is an input error at the key's line; GPU builds log the choice as
 * [GPU][10]Dirac hopping kernels: ...). Keys of the hardware that a build lacks are accepted
 * and ignored (comm:node_halo without MPI, gpu:links without a GPU); Doc/input_files.md. */
void dirac_read_input(struct input_file *in);
/* The epilogue of a class of CPU kernels (dirac_cpu_prefetch): the bare hopping term, with the
 * diagonal term of a spinor x, with clover blocks, or with the inverse clover blocks (the
 * first sweep of the even/odd clover operator); DIRAC_CPU_PREFETCH_EPILOGUES of them. */
enum {
  DIRAC_EPILOGUE_BARE = 0,
  DIRAC_EPILOGUE_X = 1,
  DIRAC_EPILOGUE_CLOVER = 2,
  DIRAC_EPILOGUE_INVERSE = 3,
  DIRAC_CPU_PREFETCH_EPILOGUES = 4
};
/* The prefetch setting of the CPU kernels of one class: single (1) or double (0) precision,
 * epilogue (DIRAC_EPILOGUE_BARE, _X, _CLOVER or _INVERSE), full (1: output on the whole
 * lattice, 0: on one parity); DIRAC_PREFETCH_OFF, _NEIGHBOURS, _ON or _INTERLEAVED, or -1
 * while it is being timed. */
int dirac_cpu_prefetch(int single, int epilogue, int full);
/* The input-file word of a prefetch setting ("off", "neighbours", "on", "interleaved"; "auto"
 * for -1). */
const char *dirac_cpu_prefetch_name(int setting);
/* Applications of a class after which its prefetch setting is chosen (warm-up and trials:
 * 2 untimed, then 4 of each setting in turn). */
#define DIRAC_CPU_PREFETCH_CALLS 18
/* For benchmarks only: with on = 1 the CPU loops of every operator read all the data of each
 * output site (links, neighbours or their received half spinors, x, clover blocks) and write
 * the output spinor, without the operator's arithmetic, so the output is NOT the operator;
 * the time is the bound of the operator's memory access pattern (speed_test_diracoperator,
 * Doc/dirac.md). The halo exchange, the other passes of composite operators and the GPU path
 * are unchanged, and such applications do not count in the timing of the stream prefetch.
 * 0 (default): the operators. */
void dirac_set_cpu_data_only(int on);
int dirac_cpu_data_only(void);
/* Halo exchanges of the operators (half spinors; CPU loops and GPU path) since the last
 * reset: their number, the bytes this process sent, the seconds spent projecting and posting
 * them, and the seconds spent waiting for them after the inner pieces (the part of the
 * exchange not hidden). For the CPU loops of applications with a halo, also the seconds of
 * the loop over the inner pieces (the exchange progressing meanwhile) and over the boundary
 * pieces, and the output sites of each (all in the first with the overlap off). */
typedef struct {
  long exchanges;
  double bytes_sent, pack_seconds, wait_seconds;
  double bytes_node; /* of bytes_sent: written straight into ranks of this node */
  double inner_seconds, boundary_seconds, inner_sites, boundary_sites;
} dirac_comm_stats;
/* The statistics so far (this process). */
dirac_comm_stats dirac_comm_stats_get(void);
/* Set the statistics to zero. */
void dirac_comm_stats_reset(void);
/* Standard flop count of one application of the hopping term per output site. */
long dirac_hop_flop_per_site(void);
/* Unavoidable bytes per output site of the even/odd hopping term (double: 8, single: 4). */
long dirac_hop_bytes_per_site(int real_bytes);

/* --------------------------------------------------------------- double precision */
/* out = H in: hopping term from the parity of in to the parity of out (glat_even <-
 * glat_odd, glat_odd <- glat_even, or glattice <- glattice); D's mass and csw are unused. */
void Dphi_hop(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = D in on glattice. */
void Dphi(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = gamma5 D in on glattice. */
void g5Dphi(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = (gamma5 D)^2 in on glattice. */
void g5Dphi_sq(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = (D_ee - D_eo D_oo^-1 D_oe) in on glat_even. */
void Dphi_eopre(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = gamma5 Dphi_eopre in. */
void g5Dphi_eopre(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = (gamma5 Dphi_eopre)^2 in. */
void g5Dphi_eopre_sq(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = (4 + m0 + C) in, site by site (any geometry). */
void Dphi_diag(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = (4 + m0 + C)^-1 in, site by site (any geometry). */
void Dphi_diag_inv(spinor_field *out, const dirac_op *D, const spinor_field *in);
/* out = (4 + m0 + C)^-1 H in, Dphi_hop and then Dphi_diag_inv in one sweep (the first sweep of
 * Dphi_eopre): glat_odd <- glat_even (D_oo^-1 D_oe) or glat_even <- glat_odd. */
void Dphi_hop_inv(spinor_field *out, const dirac_op *D, const spinor_field *in);

/* --------------------------------------------------------------- single precision */
void Dphi_hop_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void Dphi_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void g5Dphi_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void g5Dphi_sq_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void Dphi_eopre_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void g5Dphi_eopre_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void g5Dphi_eopre_sq_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void Dphi_diag_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void Dphi_diag_inv_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);
void Dphi_hop_inv_flt(spinor_field_flt *out, const dirac_op *D, const spinor_field_flt *in);

/* --------------------------------------------------------------- for the solvers */
/* Which form of a Dirac operator a hr_linear_operator applies. */
typedef enum {
  DIRAC_FORM_D = 0,    /* D (glattice); adjoint gamma5 D gamma5 */
  DIRAC_FORM_Q = 1,    /* Q = gamma5 D (glattice), Hermitian */
  DIRAC_FORM_Q2 = 2,   /* Q^2 (glattice), Hermitian positive */
  DIRAC_FORM_EO = 3,   /* Dphi_eopre (glat_even); adjoint gamma5 Dphi_eopre gamma5 */
  DIRAC_FORM_QEO = 4,  /* gamma5 Dphi_eopre (glat_even), Hermitian */
  DIRAC_FORM_QEO2 = 5  /* (gamma5 Dphi_eopre)^2 (glat_even), Hermitian positive */
} dirac_form;
/* The solvers' view of form `form` of D (both precisions, adjoint where not Hermitian, flop
 * count): its ctx points to *D, which must outlive it. */
hr_linear_operator dirac_linear_operator(const dirac_op *D, dirac_form form);
/* Floating-point operations of one application of `form` of D on the whole lattice: the
 * hopping term counts dirac_hop_flop_per_site() per output site; the diagonal 4 + m0 + C
 * counts 2 (2NF)^2 complex multiply-adds (8 flop each) with clover, 2 x 8 NF flop without. */
double dirac_form_flops(const dirac_op *D, dirac_form form);

/* With open time boundaries (bc_t = open): s = 0 on the time slices 0 and GLB_T - 1, where
 * openQCD's quark fields vanish and D is the identity (boundary_conditions.h); nothing
 * otherwise. On the side (host or device copy) where D runs; the halo is not exchanged. */
void dirac_zero_outer_slices(spinor_field *s, const dirac_op *D);

/* --------------------------------------------------------------- derived state */
/* The represented links of D with boundary phases and exchanged gauge halo (built or
 * rebuilt if D's gauge field changed; valid until the next application with other links). */
const suNf_field *dirac_links(const dirac_op *D);
/* Number of times derived state was (re)built since the start: links and clover term (for
 * tests and logs). */
long dirac_state_builds(void);
/* Drop every cached derived state (memory back; the next application rebuilds). */
void dirac_state_release(void);
/* Release the module's temporaries and cached state (optional, at exit). */
void dirac_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
