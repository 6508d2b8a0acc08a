/* hmc.h -- the Hybrid Monte Carlo update of LibHR: monomials (the terms of the action), the
 * nested multi-level integrators (lf, omf2, omf4), one trajectory with the Metropolis
 * accept/reject, and the reversibility check. Conventions of momenta, forces and the link
 * update: md.h. Doc/hmc.md describes the algorithm, the actions and the input keys.
 *
 * A monomial is one term S_i of the action S = sum_i S_i with what the update needs of it:
 *   heatbath(m, u)            draw its pseudofermions at the start of a trajectory
 *                             (NULL for the gauge action); returns S_i at the start
 *   action(m, u)              S_i of the links u (recomputed at the end of a trajectory)
 *   force_update(m, u, p, e)  p^a -= e F_i^a (md.h)
 * and the level of the integrator it sits on. Level 0 is the outermost: it integrates the
 * whole trajectory length in steps; each of its "link updates" of length eps is a full
 * integration of level 1 over eps, and so on; the innermost level updates the links. The
 * forces of the monomials of level l are evaluated at level l only (cheap, stiff forces such
 * as the gauge action inside, expensive fermion forces outside).
 *
 * Monomials are built from one parameter record (hmc_monomial_params) by the functions of
 * their kind (hmc_monomial_kind: gauge, hmc, hasenbusch, rhmc; the table of hmc_monomials.c;
 * Doc/hmc.md, "Monomial kinds", also on adding a kind).
 * Implemented in: Update/hmc.c, Update/hmc_input.c, Update/hmc_monomials.c, Update/stout_force.c,
 *  Update/fermion_monomials.c, Update/rhmc_monomial.c. */
#ifndef HMC_H
#define HMC_H

#include "boundary_conditions.h"
#include "fields.h"
#include "gauge_action.h"
#include "input_file.h"
#include "stout_force.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most integrator levels and monomials of one HMC. */
#define HMC_MAX_LEVELS 8
#define HMC_MAX_MONOMIALS 16

/* Solver work of a monomial since its last heatbath (the current trajectory). */
typedef struct {
  long iterations; /* Krylov iterations of all its solves */
  double seconds;  /* wall-clock time in the solvers */
  double flops;    /* their floating-point operations */
} hmc_solver_stats;

/* One term of the action. */
typedef struct hmc_monomial {
  const char *name; /* for the log ("gauge", "hmc", "hasenbusch", ...) */
  int level;        /* integrator level it sits on */
  double (*heatbath)(struct hmc_monomial *m, const suNg_field *u);
  double (*action)(struct hmc_monomial *m, const suNg_field *u);
  void (*force_update)(struct hmc_monomial *m, const suNg_field *u, suNg_av_field *p,
                       double eps);
  /* Solver work since the last heatbath (fermion monomials; NULL otherwise). */
  void (*solver_stats)(struct hmc_monomial *m, hmc_solver_stats *st);
  void (*free)(struct hmc_monomial *m); /* release ctx (NULL: nothing to do) */
  void *ctx;                           /* the monomial's own data */
  const struct hmc_monomial_kind *kind; /* the kind that built it (hmc_monomial_new;
                                           NULL for the stout wrapper) */
} hmc_monomial;

/* Default residuals of the solves of a fermion monomial (input keys mt_prec, force_prec). */
#define HMC_DEFAULT_MT_PREC 1e-14
#define HMC_DEFAULT_FORCE_PREC 1e-10
/* The text of a default value for an input key table: HMC_DEFAULT_TEXT(HMC_DEFAULT_MT_PREC). */
#define HMC_DEFAULT_TEXT(x) HMC_DEFAULT_TEXT_(x)
#define HMC_DEFAULT_TEXT_(x) #x
/* Keys that several kinds of monomial share, for their input_key tables. */
#define HMC_KEY_LEVEL(target)                                                                  \
  {"level", INPUT_INT, (target), NULL, ">=0", "integrator level (0: outermost)"}
#define HMC_KEY_MASS(target) {"mass", INPUT_DOUBLE, (target), NULL, NULL, "bare mass m0"}
#define HMC_KEY_FORCE_PREC(target)                                                             \
  {"force_prec", INPUT_DOUBLE, (target), HMC_DEFAULT_TEXT(HMC_DEFAULT_FORCE_PREC), ">0 <1",     \
   "relative residual of the solves of the force"}

/* Parameters of one monomial of any kind: the keys of its monomial block (hmc_read_input) and
 * the run's setup it is built with (hmc_build_monomials). A kind reads and uses its own
 * fields and ignores the others. */
typedef struct hmc_monomial_params {
  const struct hmc_monomial_kind *kind; /* what it is (type = ... of its block) */
  int level;                 /* integrator level */
  double beta, c1;           /* gauge: coupling, rectangle coefficient */
  gauge_boundary gauge_bc;   /* gauge: time boundaries (from bc_t and cG) */
  double mass;               /* fermions: bare mass m0 */
  double csw;                /* fermions: clover coefficient (from the run's csw) */
  dirac_bc bc;               /* fermions: boundary conditions (from the run's bc_* keys) */
  double mt_prec;            /* fermions: relative residual of the heatbath and action solves */
  double force_prec;         /* fermions: relative residual of the force solves */
  double dm;                 /* hasenbusch: the heavier operator has mass m0 + dm */
  int chrono;                /* hmc, hasenbusch: force solves start from the extrapolation of
                                the last chrono solutions (0: from zero) */
  int nf;                    /* rhmc: flavours (1, 2 or 3) */
  double lmin, lmax;         /* rhmc: spectral range of Q^2 covered by the approximations */
  int degree;                /* rhmc: degree of the action's approximation (0: from precision) */
  double precision;          /* rhmc: its maximal relative error (with a degree: checked, 0 for
                                no check) */
  int meas_freq;             /* rhmc: spectral range measured every meas_freq heatbaths (0: at
                                the first only) */
  int strict;                /* rhmc: 1: a spectrum outside [lmin, lmax] ends the run */
  char cache[256];           /* rhmc: cache file of the approximations ("": the default) */
} hmc_monomial_params;

/* One kind of monomial: its name (type = name in a monomial block, the name in the log) and
 * its code. The per-kind functions get the data that init returned. */
typedef struct hmc_monomial_kind {
  const char *name;
  int fermion; /* 1: it sees the fermions' links (stout-smeared with the smear block) */
  /* Read the keys of the index-th monomial block besides type into p (kind set already) and
   * check them (hmc_read_block_keys, input_fail_block); exits with file:line: key messages. */
  void (*read)(input_file *in, int index, hmc_monomial_params *p);
  /* Its data for the parameters p (after geometry_init); exits on invalid parameters. */
  void *(*init)(const hmc_monomial_params *p);
  void (*free)(void *data);
  /* Draw the pseudofermions; returns the action (NULL: no heatbath, e.g. the gauge action). */
  double (*heatbath)(void *data, const suNg_field *u);
  double (*action)(void *data, const suNg_field *u);
  void (*force_update)(void *data, const suNg_field *u, suNg_av_field *p, double eps);
  /* Solver work since the last heatbath (NULL: no solver). */
  void (*solver_stats)(const void *data, hmc_solver_stats *st);
} hmc_monomial_kind;

/* Integrators of one level. */
typedef enum {
  HMC_LEAPFROG = 0, /* lf: p(eps/2) u(eps) p(eps/2) */
  HMC_OMF2 = 1,     /* omf2: second-order Omelyan, lambda = 0.1931833275037836 */
  HMC_OMF4 = 2      /* omf4: fourth-order Omelyan (5 force evaluations per step) */
} hmc_integrator_type;

/* The integrator of one level. */
typedef struct {
  hmc_integrator_type type;
  int steps; /* steps over the time of this level */
} hmc_level;

/* Everything that defines the update. */
typedef struct {
  double tlen;                    /* trajectory length */
  int nlevels;                    /* levels 0 .. nlevels-1 */
  hmc_level level[HMC_MAX_LEVELS];
  int nmonomials;
  hmc_monomial *monomial[HMC_MAX_MONOMIALS];
  int nspecs;                     /* monomials read from an input file, not yet built */
  int open_t;                     /* open time boundaries: the momenta of the zero links
                                     U_0(GLB_T - 1) are kept zero (gauge_zero_open_momenta) */
  double cg;                      /* open time boundaries: openQCD's cG of the gauge
                                     monomials (input key cG, default 1) */
  hmc_monomial_params spec[HMC_MAX_MONOMIALS]; /* the nspecs monomials read (hmc_read_input) */
} hmc_params;

/* What one trajectory did. */
typedef struct {
  int accepted;      /* 1 when the new links were kept */
  double dH;         /* H(end) - H(start) */
  double H0, H1;     /* Hamiltonians at start and end */
  double seconds;    /* wall-clock time */
  double force_seconds;   /* time in the force updates of all monomials (with their solves) */
  double force_solver_seconds; /* ... of it in their solvers */
  double monomial_force_seconds[HMC_MAX_MONOMIALS]; /* ... of each monomial */
  hmc_solver_stats solver[HMC_MAX_MONOMIALS];       /* solver work of each monomial */
} hmc_result;

/* Name of an integrator ("lf", "omf2", "omf4") and the inverse (-1 if unknown). */
const char *hmc_integrator_name(hmc_integrator_type t);
int hmc_integrator_from_name(const char *name);
/* Check the parameters (levels used by the monomials exist, steps >= 1, tlen > 0, every level
 * has a monomial or an inner level); stops with a message naming the problem. */
void hmc_check_params(const hmc_params *h);

/* Integrate the equations of motion of h for time tau (sign: backwards for tau < 0) from
 * (u, p): the nested scheme of all levels. */
void hmc_integrate(suNg_field *u, suNg_av_field *p, const hmc_params *h, double tau);
/* H = K(p) + sum of the monomials' actions of u (after their heatbath for the start). */
double hmc_hamiltonian(const hmc_params *h, const suNg_field *u, const suNg_av_field *p);

/* One trajectory: momenta heatbath, pseudofermion heatbaths, integration over tlen, all
 * actions recomputed at the end, Metropolis accept/reject with a random number from the
 * global generator (the same on every process). On rejection u is restored bitwise. */
void hmc_trajectory(suNg_field *u, const hmc_params *h, hmc_result *res);

/* Reversibility check from the links u (unchanged afterwards): fresh momenta and
 * pseudofermions, integrate forward over tlen, flip the momenta, integrate back. Returns the
 * largest |U_back - U_start| (element-wise, over all links) in *du and the largest
 * |p_back + p_start| in *dp, and the two energy changes' sum in *dh (0 for an exact
 * integrator). */
void hmc_reversibility(double *du, double *dp, double *dh, const hmc_params *h,
                       const suNg_field *u);

/* Release the monomials (their free functions). */
void hmc_free(hmc_params *h);

/* ------------------------------------------------------------------ monomials of LibHR */

/* What every fermion monomial shares: the clover coefficient and the boundary conditions of
 * the Wilson-clover operator of the compiled representation (dirac.h). */
typedef struct {
  double csw;
  dirac_bc bc;
  stout_params smear; /* stout smearing of the links the fermions see (steps 0: none) */
} hmc_fermion_setup;

/* Define the kind hmc_monomial_kind_<id> named `name` (fermion: 0 or 1) from the functions
 * <prefix>_read, _init, _free, _heatbath, _action, _force_update and _solver_stats of its file
 * (Doc/hmc.md, "Adding a monomial kind"). */
#define HMC_MONOMIAL_KIND(id, name, fermion, prefix)                                           \
  const hmc_monomial_kind hmc_monomial_kind_##id = {                                           \
      name, fermion, prefix##_read, prefix##_init, prefix##_free, prefix##_heatbath,           \
      prefix##_action, prefix##_force_update, prefix##_solver_stats}

/* Read `keys` from the index-th `block` of an input file; exits with the reader's message. */
void hmc_read_block_keys(input_file *in, const char *block, int index, const input_key *keys);
/* The kind named `name` (the table of hmc_monomials.c), NULL if there is none. */
const hmc_monomial_kind *hmc_monomial_kind_find(const char *name);
/* The i-th kind of the table (0-based), NULL past its end. */
const hmc_monomial_kind *hmc_monomial_kind_at(int i);
/* The kinds' names joined by '|' in table order (the choices of the key type). */
const char *hmc_monomial_kind_names(void);
/* p for the kind named `name` with every optional key at its default (level 0, mass 0, csw 0,
 * dirac_bc_default, periodic gauge boundaries); exits if there is no such kind. */
void hmc_monomial_params_init(hmc_monomial_params *p, const char *name);
/* The monomial of p->kind (after geometry_init), on the thin links. */
hmc_monomial *hmc_monomial_new(const hmc_monomial_params *p);

/* The gauge action (beta/N) sum [c0 plaquettes + c1 rectangles], c0 = 1 - 8 c1. */
hmc_monomial *hmc_monomial_gauge(double beta, double c1, int level);
/* The same with time boundaries b (gauge_action.h; NULL: periodic). */
hmc_monomial *hmc_monomial_gauge_bc(double beta, double c1, const gauge_boundary *b, int level);

/* The fermion monomial `inner` on stout-smeared links (p->steps > 0; else inner itself):
 * heatbath and action on the smeared links of u, the force carried back to u through the
 * smearing chain (stout_force.h). Frees inner with itself. */
hmc_monomial *hmc_monomial_stout(hmc_monomial *inner, const stout_params *p);

/* Read the HMC keys of an input file: tlen, the monomial and integrator blocks (Doc/hmc.md)
 * into h (monomials as specifications); stops with a message naming the file and the block on
 * a bad value. */
void hmc_read_input(input_file *in, hmc_params *h);
/* Build the monomials of the specifications of h (after geometry_init) with the fermion
 * setup fs, and check h. */
void hmc_build_monomials(hmc_params *h, const hmc_fermion_setup *fs);
/* Log the integrator levels and monomials (topic "HMC", level 10). */
void hmc_print_params(const hmc_params *h);

#ifdef __cplusplus
}
#endif

#endif
