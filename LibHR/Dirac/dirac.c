/* dirac.c -- the Dirac operators of dirac.h: dirac_op_make, the overlap switch, and the
 * operators in double and single precision, instantiated from dirac_ops_template.c on the
 * per-site kernels of dirac_site.h; the links and clover blocks they read come from the
 * derived state of the operator (dirac_state.c). */
#include "dirac.h"

#include <stdint.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "halo_exchange.h"
#include "dirac_gpu.h"
#include "dirac_internal.h"
#include "dirac_site.h"
#include "geometry.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "linear_algebra.h"
#include "logger.h"
#include "suN.h"

static int dirac_overlap = 1;
/* 1: the CPU loops move the data of each site without its arithmetic (dirac_set_cpu_data_only) */
static int dirac_data_only = 0;
static int dirac_links_per_site = 18; /* numbers per link the GPU kernels read */
static dirac_comm_stats dirac_comm; /* of both paths, since the last reset */

/* Stops with a message when this CPU lacks the vector instructions that the CPU loops were
 * compiled for (configure --with-simd); checked once, when the first operator is made. */
static void dirac_check_cpu_simd(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  static int checked = 0;
  if (checked) return;
  checked = 1;
  __builtin_cpu_init();
  int ok = 1;
#ifdef __AVX512F__
  ok = ok && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#endif
#ifdef __FMA__
  ok = ok && __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#endif
  if (!ok)
    hr_error("the CPU Dirac kernels of this LibHR were built for %s (configure --with-simd=%s, "
             "flags %s), which this CPU lacks: configure again with --with-simd=avx2 or "
             "--with-simd=portable",
             HR_SIMD, HR_SIMD, HR_SIMD_CFLAGS);
#endif
}

dirac_op dirac_op_make(const suNg_field *u, double m0, double csw, const dirac_bc *bc) {
  hr_assert(u != NULL, "dirac_op_make: no gauge field");
  dirac_check_cpu_simd();
  dirac_op D;
  memset(&D, 0, sizeof D);
  D.u = u;
  D.m0 = m0;
  D.csw = csw;
  if (bc != NULL)
    D.bc = *bc;
  else
    dirac_bc_default(&D.bc);
  D.backend = HR_BACKEND_DEFAULT;
  return D;
}

#if HR_GPU_ENABLED
/* Arguments of a GPU application from fields on ig to fields on og (site and neighbour
 * tables filled, the rest zero: the caller sets fields and coefficients). */
static dirac_gpu_args dirac_gpu_args_for(const geometry_descriptor *og,
                                         const geometry_descriptor *ig) {
  dirac_gpu_args a;
  memset(&a, 0, sizeof a);
  a.osites = hr_gpu_sites_of(og);
  a.isites = hr_gpu_sites_of(ig);
  a.usites = hr_gpu_sites_of(&glattice);
  a.iup = hr_gpu_iup();
  a.idn = hr_gpu_idn();
  return a;
}
/* 12-number links (dirac_set_gpu_links): the boundary bits of the sites and det U of the
 * links of D in the bulk (b = 0) and across the boundary (b = 1), the cube of the phase that
 * dirac_bc_link_phase puts on the represented links (0 for the zero links of open boundaries:
 * their rows vanish, and so does the rebuilt one). Nothing for 18-number links. */
static void dirac_gpu_args_links(dirac_gpu_args *a, const dirac_op *D) {
  if (dirac_links_per_site != 12) return;
  a->edge = hr_gpu_edge_flags();
  for (int mu = 0; mu < 4; mu++)
    for (int b = 0; b < 2; b++) {
      /* any coordinate but the last one is in the bulk */
      const hr_complex ph = dirac_bc_link_phase(&D->bc, mu, b ? GLB_SIZE[mu] - 1 : -1);
      const hr_complex det = hr_cmul(ph, hr_cmul(ph, ph));
      a->link_det[mu][b][0] = hr_creal(det);
      a->link_det[mu][b][1] = hr_cimag(det);
    }
}
#define GPU_LINKS_DBL(ls) ((const void *)sync_gpu_suNf_field((ls)->uf_hop))
#define GPU_LINKS_FLT(ls) ((const void *)sync_gpu_suNf_field_flt((ls)->uf_flt))
#endif

void dirac_cpu_site_lib(suNf_spinor *out, int mode, int g5, double s, double diag,
                        const suNf_spinor *x, const suNf_clover *cl, const suNf_spinor *const up[4],
                        const suNf_spinor *const dn[4], const dirac_half_spinor *const *hup,
                        const dirac_half_spinor *const *hdn, const suNf *const uup[4],
                        const suNf *const udn[4]) {
  dirac_cpu_site_halo(out, mode, g5, s, diag, x, cl, up, dn, hup, hdn, uup, udn);
}
void dirac_cpu_site_lib_flt(suNf_spinor_flt *out, int mode, int g5, float s, float diag,
                            const suNf_spinor_flt *x, const suNf_clover_flt *cl,
                            const suNf_spinor_flt *const up[4], const suNf_spinor_flt *const dn[4],
                            const dirac_half_spinor_flt *const *hup,
                            const dirac_half_spinor_flt *const *hdn, const suNf_flt *const uup[4],
                            const suNf_flt *const udn[4]) {
  dirac_cpu_site_halo_flt(out, mode, g5, s, diag, x, cl, up, dn, hup, hdn, uup, udn);
}

void dirac_cpu_pack_links(void *pk, void *pk_flt, const suNf *const uup[4],
                          const suNf *const udn[4]) {
  dirac_cpu_pack_site(pk, uup, udn);
  suNf_flt f[8];
  const suNf_flt *fup[4], *fdn[4];
  for (int mu = 0; mu < 4; mu++) {
    suNf_to_flt(f + mu, uup[mu]);
    suNf_to_flt(f + 4 + mu, udn[mu]);
    fup[mu] = f + mu;
    fdn[mu] = f + 4 + mu;
  }
  dirac_cpu_pack_site_flt(pk_flt, fup, fdn);
}

/* The software prefetch of the CPU loops, chosen by timing (dirac_set_cpu_prefetch;
 * Doc/dirac.md, "Prefetching the streams"): the stream prefetch pays where the operator's data
 * come from memory and costs 5 to 10% where they sit in the cache, the neighbour prefetch
 * costs up to a tenth where they sit in the L2 (8^4), and walking two halves of each thread's
 * sites at once pays 5 to 15% where they come from memory and costs as much in the cache, which
 * only a measurement on the machine tells. Per class of kernel (precision; bare, with x, with
 * clover blocks or with their inverses; output on a parity or the whole lattice; the two
 * sweeps of an even/odd operator are of different classes, so that the settings are compared
 * on one kernel): DIRAC_PF_WARMUP untimed applications, then timed ones with each of the
 * DIRAC_PF_SETTINGS settings in turn; the setting with the shortest fastest application is
 * kept (the fastest of several: robust to an interruption of the process).
 * Each rank chooses on its own: the bits are the same with every setting. */
#define DIRAC_PF_WARMUP 2
#define DIRAC_PF_SETTINGS 4 /* DIRAC_PREFETCH_OFF, _NEIGHBOURS, _ON, _INTERLEAVED */
#define DIRAC_PF_CLASSES (2 * DIRAC_CPU_PREFETCH_EPILOGUES * 2) /* precision x epilogue x output */
_Static_assert((DIRAC_CPU_PREFETCH_CALLS - DIRAC_PF_WARMUP) % DIRAC_PF_SETTINGS == 0,
               "every setting gets the same number of timed applications");
typedef struct {
  int calls;                         /* applications since the timing (re)started */
  double fastest[DIRAC_PF_SETTINGS]; /* the fastest timed application of each setting */
  int choice;                        /* the setting kept after DIRAC_CPU_PREFETCH_CALLS */
  int generation;                    /* the geometry_generation of the timing (0: none yet) */
  int single, epilogue, full;        /* the class, for the log line */
} dirac_pf_tuner;
static dirac_pf_tuner dirac_pf_tuners[DIRAC_PF_CLASSES];
static int dirac_pf_forced = DIRAC_PREFETCH_AUTO; /* else the setting forced */

/* The index of a class: single (0, 1), epilogue (DIRAC_EPILOGUE_*), full (0, 1). */
static int dirac_pf_class(int single, int epilogue, int full) {
  return (single * DIRAC_CPU_PREFETCH_EPILOGUES + epilogue) * 2 + full;
}

void dirac_set_cpu_prefetch(int mode) {
  if (mode < DIRAC_PREFETCH_AUTO || mode > DIRAC_PREFETCH_INTERLEAVED)
    hr_error_code(HR_EXIT_INPUT,
                  "cpu:prefetch: %d is not -1 (auto), 0 (off), 1 (neighbours), 2 (on) or 3 "
                  "(interleaved)",
                  mode);
  dirac_pf_forced = mode;
  if (mode == DIRAC_PREFETCH_AUTO) memset(dirac_pf_tuners, 0, sizeof dirac_pf_tuners);
}

const char *dirac_cpu_prefetch_name(int setting) {
  static const char *const names[DIRAC_PF_SETTINGS] = {"off", "neighbours", "on", "interleaved"};
  return setting >= 0 && setting < DIRAC_PF_SETTINGS ? names[setting] : "auto";
}

int dirac_cpu_prefetch(int single, int epilogue, int full) {
  if (dirac_pf_forced >= 0) return dirac_pf_forced;
  if (single < 0 || single > 1 || epilogue < 0 || epilogue >= DIRAC_CPU_PREFETCH_EPILOGUES ||
      full < 0 || full > 1)
    return -1;
  const dirac_pf_tuner *t = &dirac_pf_tuners[dirac_pf_class(single, epilogue, full)];
  if (t->generation != geometry_generation()) return -1; /* timed on another lattice */
  return t->calls >= DIRAC_CPU_PREFETCH_CALLS ? t->choice : -1;
}

/* The tuner of the class of a CPU application with output on og; its timing restarts when
 * the geometry was initialised again since it began (another lattice, another cache fit). */
static dirac_pf_tuner *dirac_pf_tuner_of(int single, int epilogue, const geometry_descriptor *og) {
  const int full = og == &glattice;
  dirac_pf_tuner *t = &dirac_pf_tuners[dirac_pf_class(single, epilogue, full)];
  if (t->generation != geometry_generation()) {
    memset(t, 0, sizeof *t);
    t->generation = geometry_generation();
    t->single = single;
    t->epilogue = epilogue;
    t->full = full;
  }
  return t;
}

/* The prefetch setting of the next application of the class of t. */
static int dirac_pf_setting(const dirac_pf_tuner *t) {
  if (dirac_pf_forced >= 0) return dirac_pf_forced;
  if (t->calls >= DIRAC_CPU_PREFETCH_CALLS) return t->choice;
  return t->calls % DIRAC_PF_SETTINGS; /* warm-up and trials: each setting in turn */
}

/* Records an application of the class of t made with setting pf in the given seconds; after
 * the last trial keeps the fastest setting and logs it. */
static void dirac_pf_record(dirac_pf_tuner *t, int pf, double seconds) {
  if (dirac_pf_forced >= 0 || t->calls >= DIRAC_CPU_PREFETCH_CALLS) return;
  if (t->calls >= DIRAC_PF_WARMUP &&
      (t->calls < DIRAC_PF_WARMUP + DIRAC_PF_SETTINGS || seconds < t->fastest[pf]))
    t->fastest[pf] = seconds;
  if (++t->calls < DIRAC_CPU_PREFETCH_CALLS) return;
  t->choice = DIRAC_PREFETCH_OFF;
  for (int k = 1; k < DIRAC_PF_SETTINGS; k++)
    if (t->fastest[k] < t->fastest[t->choice]) t->choice = k;
  static const char *const epilogue[DIRAC_CPU_PREFETCH_EPILOGUES] = {
      "hopping term only", "with the diagonal term of x", "with clover blocks",
      "with inverse clover blocks"};
  lprintf("DIRAC", 20,
          "CPU prefetch, %s precision, %s, output on %s: %s (fastest call %.3g ms off, %.3g ms "
          "neighbours, %.3g ms on, %.3g ms interleaved)\n",
          t->single ? "single" : "double", epilogue[t->epilogue],
          t->full ? "the lattice" : "one parity", dirac_cpu_prefetch_name(t->choice),
          1e3 * t->fastest[DIRAC_PREFETCH_OFF], 1e3 * t->fastest[DIRAC_PREFETCH_NEIGHBOURS],
          1e3 * t->fastest[DIRAC_PREFETCH_ON], 1e3 * t->fastest[DIRAC_PREFETCH_INTERLEAVED]);
}

void dirac_set_comm_overlap(int on) { dirac_overlap = on != 0; }
void dirac_set_cpu_data_only(int on) { dirac_data_only = on != 0; }
int dirac_cpu_data_only(void) { return dirac_data_only; }
void dirac_set_gpu_links(int numbers) {
  if (numbers != 18 && numbers != 12)
    hr_error_code(HR_EXIT_INPUT, "gpu:links = %d: the GPU kernels read 18 or 12 numbers per link",
                  numbers);
  if (numbers == 12 && NF != 3) /* dirac_read_input says so first, with the input file's line */
    hr_error_code(HR_EXIT_INPUT, "12-number links need 3x3 links; this build has NF = %d", NF);
  dirac_links_per_site = numbers;
}
int dirac_gpu_links(void) { return dirac_links_per_site; }

void dirac_read_input(struct input_file *in) {
  /* cpu:prefetch = auto|off|neighbours|on|interleaved, the software prefetch and site order
   * of the CPU loops; comm:node_halo = on|off, the halo between ranks of one node through its
   * memory (accepted, and ignored, in builds without MPI); gpu:links = 18|12 (accepted, and
   * ignored, in builds without a GPU) */
  int prefetch = 0, node_halo = 1, links12 = 0;
  const input_key keys[] = {
      {"cpu:prefetch", INPUT_CHOICE, &prefetch, "auto", "auto|off|neighbours|on|interleaved",
       "software prefetch of the CPU Dirac loops: chosen by timing per kind of kernel (auto), "
       "none (off), the neighbour spinors of a site a few sites ahead (neighbours), those "
       "and the site's links, x and clover blocks (on), or as on with each thread's sites "
       "walked as two interleaved halves (interleaved); the same results with every setting"},
      {"comm:node_halo", INPUT_CHOICE, &node_halo, "on", "off|on",
       "halo exchanges of the CPU Dirac operators between MPI ranks of one node: written "
       "straight into the receiving rank's memory (on) or sent as MPI messages (off); the same "
       "results either way"},
      {"gpu:links", INPUT_CHOICE, &links12, "18", "18|12",
       "numbers per link read by the GPU Dirac kernels: all (18), or the first two rows, the "
       "third rebuilt (12; 3x3 links only)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  dirac_set_cpu_prefetch(prefetch - 1); /* auto: DIRAC_PREFETCH_AUTO = -1, off: 0, ... */
  dirac_set_node_halo(node_halo, 0);
#if HR_GPU_ENABLED
  if (links12 && NF != 3)
    input_fail(in, NULL, "gpu:links",
               "gpu:links = 12 rebuilds the third row of 3x3 links; the links of this build are "
               "%dx%d: use 18",
               NF, NF);
  dirac_set_gpu_links(links12 ? 12 : 18);
  lprintf("GPU", 10, "Dirac hopping kernels: %s\n",
          links12 ? "12 numbers per link (rows 0 and 1; row 2 rebuilt)" : "18 numbers per link");
#endif
}
dirac_comm_stats dirac_comm_stats_get(void) { return dirac_comm; }
void dirac_comm_stats_reset(void) { memset(&dirac_comm, 0, sizeof dirac_comm); }
int dirac_comm_overlap(void) { return dirac_overlap; }
long dirac_hop_flop_per_site(void) { return DIRAC_HOP_FLOP_PER_SITE(NF); }
long dirac_hop_bytes_per_site(int real_bytes) { return DIRAC_HOP_BYTES_PER_SITE(NF, real_bytes); }

/* Sites ahead whose neighbours the CPU hopping loop prefetches (DIRAC_PREFETCH_NEIGHBOURS
 * and _ON). */
#define DIRAC_PF_DIST 2
/* Sites ahead whose links, x and clover blocks the loop prefetches (DIRAC_PREFETCH_ON:
 * the stream prefetch; Doc/dirac.md, "Prefetching the streams"). */
#define DIRAC_PF_STREAM 6
/* Sites ahead whose links, x and clover blocks the double-precision loops also prefetch into
 * the L2 cache (DIRAC_PREFETCH_ON: the far stream prefetch; Doc/dirac.md, "The far link
 * prefetch" and "The far prefetch of the clover blocks and x"). */
#define DIRAC_PF_L2 18
/* Sites of the inner pieces between two calls of sendrecv_progress while the halo is
 * exchanged (a few microseconds of work; MPI_Testall costs well under one). */
#define DIRAC_POLL_SITES 64

/* 1 on the thread that may call MPI (the master thread; MPI_THREAD_FUNNELED). */
static inline int dirac_master_thread(void) {
#ifdef _OPENMP
  return omp_get_thread_num() == 0;
#else
  return 1;
#endif
}

#define DOP_SFX
#define DOP_SPINOR suNf_spinor
#define DOP_MAT suNf
#define DOP_FIELD spinor_field
#define DOP_CLOVER suNf_clover
#define DOP_CLOVER_KIND clover_field
#define DOP_REAL double
#define DOP_PACK(ls) ((const suNf *)dirac_links_pack(ls, 0))
#define DOP_GPU_LINKS GPU_LINKS_DBL
#define DOP_CLOVER_BLOCKS(cs) ((cs)->blk)
#define DOP_G5(out, in) g5_spinor_field(out, in)
#define DOP_HALF dirac_half_spinor
#define DOP_SINGLE 0
#include "dirac_ops_template.c"

#define DOP_SFX _flt
#define DOP_SPINOR suNf_spinor_flt
#define DOP_MAT suNf_flt
#define DOP_FIELD spinor_field_flt
#define DOP_CLOVER suNf_clover_flt
#define DOP_CLOVER_KIND clover_field_flt
#define DOP_REAL float
#define DOP_PACK(ls) ((const suNf_flt *)dirac_links_pack(ls, 1))
#define DOP_GPU_LINKS GPU_LINKS_FLT
#define DOP_CLOVER_BLOCKS(cs) ((cs)->blk_flt)
#define DOP_G5(out, in) g5_spinor_field_flt(out, in)
#define DOP_HALF dirac_half_spinor_flt
#define DOP_SINGLE 1
#include "dirac_ops_template.c"

/* ------------------------------------------------------------------ solver interface */

/* The four callbacks of one form (ctx: the dirac_op). */
#define DIRAC_FORM_CALLBACKS_(F)                                                               \
  static void apply_##F(spinor_field *out, const spinor_field *in, void *ctx) {                \
    form_apply(out, (const dirac_op *)ctx, DIRAC_FORM_##F, in);                                \
  }                                                                                            \
  static void apply_flt_##F(spinor_field_flt *out, const spinor_field_flt *in, void *ctx) {    \
    form_apply_flt(out, (const dirac_op *)ctx, DIRAC_FORM_##F, in);                            \
  }                                                                                            \
  static void apply_dag_##F(spinor_field *out, const spinor_field *in, void *ctx) {            \
    form_apply_dag(out, (const dirac_op *)ctx, DIRAC_FORM_##F, in);                            \
  }                                                                                            \
  static void apply_dag_flt_##F(spinor_field_flt *out, const spinor_field_flt *in, void *ctx) { \
    form_apply_dag_flt(out, (const dirac_op *)ctx, DIRAC_FORM_##F, in);                        \
  }
#define DIRAC_FORMS_(X) X(D) X(Q) X(Q2) X(EO) X(QEO) X(QEO2)
DIRAC_FORMS_(DIRAC_FORM_CALLBACKS_)
#undef DIRAC_FORM_CALLBACKS_

hr_linear_operator dirac_linear_operator(const dirac_op *D, dirac_form form) {
  hr_linear_operator op;
  memset(&op, 0, sizeof op);
  switch (form) {
#define DIRAC_FORM_CASE_(F)                                                                    \
  case DIRAC_FORM_##F:                                                                         \
    op.apply = apply_##F;                                                                      \
    op.apply_flt = apply_flt_##F;                                                              \
    op.apply_dag = apply_dag_##F;                                                              \
    op.apply_dag_flt = apply_dag_flt_##F;                                                      \
    break;
    DIRAC_FORMS_(DIRAC_FORM_CASE_)
#undef DIRAC_FORM_CASE_
  }
  op.ctx = (void *)(uintptr_t)D;
  op.flops = dirac_form_flops(D, form);
  return op;
}
#undef DIRAC_FORMS_

double dirac_form_flops(const dirac_op *D, dirac_form form) {
  const double v = (double)GLB_VOLUME;
  const double hop = (double)dirac_hop_flop_per_site();
  const double diag =
      D->csw != 0. || dirac_bc_open_t(&D->bc) ? 2.0 * (2 * NF) * (2 * NF) * 8.0 : 2.0 * 8.0 * NF;
  switch (form) {
    case DIRAC_FORM_D:
    case DIRAC_FORM_Q: return v * (hop + diag);
    case DIRAC_FORM_Q2: return 2 * v * (hop + diag);
    case DIRAC_FORM_EO:
    case DIRAC_FORM_QEO: return v * (hop + diag); /* two half-lattice hops and diagonals */
    case DIRAC_FORM_QEO2: return 2 * v * (hop + diag);
  }
  return 0;
}

void dirac_finalize(void) {
  tmp_field(-1, NULL);
  tmp_field_flt(-1, NULL);
  dirac_state_release();
  dirac_halo_release();
  hr_gpu_sites_release();
}
