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
* Implemented in: Update/hmc.c, Update/hmc_input.c, Update/hmc_monomials.c, Update/stout_force.c. */
#ifndef HMC_H
#define HMC_H

#include "boundary_conditions.h"
#include "fields.h"
#include "gauge_action.h"
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
} hmc_monomial;

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

/* A monomial as an input file describes it (hmc_read_input), built by hmc_build_monomials
 * once the geometry exists. */
typedef struct {
  int type;                  /* 0 gauge, 1 hmc, 2 hasenbusch, 3 rhmc */
  int level;
  double beta, c1;           /* gauge */
  double mass, dm;           /* fermions: bare mass, hasenbusch shift */
  double mt_prec, force_prec;
  int chrono;
  /* rhmc (rhmc_monomial.h) */
  int nf, degree, meas_freq, strict;
  double precision, lmin, lmax;
  char cache[256];           /* "" for the default */
} hmc_monomial_spec;

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
  hmc_monomial_spec spec[HMC_MAX_MONOMIALS];
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

/* Parameters of one fermion monomial. */
typedef struct {
  double mass;       /* bare mass m0 */
  double dm;         /* hasenbusch: the heavier operator has mass m0 + dm */
  double mt_prec;    /* relative residual of the solves of the action */
  double force_prec; /* relative residual of the solves of the force */
  int chrono;        /* chronological initial guess from the last n force solutions (0: off) */
} hmc_fermion_params;

/* The gauge action (beta/N) sum [c0 plaquettes + c1 rectangles], c0 = 1 - 8 c1. */
hmc_monomial *hmc_monomial_gauge(double beta, double c1, int level);
/* The same with time boundaries b (gauge_action.h; NULL: periodic). */
hmc_monomial *hmc_monomial_gauge_bc(double beta, double c1, const gauge_boundary *b, int level);
/* Two degenerate flavours: phi^+ (Q^2)^-1 phi on the even sites plus the odd-site clover
 * determinant (Q the Hermitian even/odd Wilson-clover operator of mass fp->mass). */
hmc_monomial *hmc_monomial_hmc(const hmc_fermion_setup *fs, const hmc_fermion_params *fp,
                               int level);
/* Mass preconditioning: det(Q(m)^2) / det(Q(m + dm)^2), stacked with an hmc monomial of mass
 * m + dm. */
hmc_monomial *hmc_monomial_hasenbusch(const hmc_fermion_setup *fs,
                                      const hmc_fermion_params *fp, int level);

/* The fermion monomial `inner` on stout-smeared links (p->steps > 0; else inner itself):
 * heatbath and action on the smeared links of u, the force carried back to u through the
 * smearing chain (stout_force.h). Frees inner with itself. */
hmc_monomial *hmc_monomial_stout(hmc_monomial *inner, const stout_params *p);

struct input_file;
/* Read the HMC keys of an input file: tlen, the monomial and integrator blocks (Doc/hmc.md)
 * into h (monomials as specifications); stops with a message naming the file and the block on
 * a bad value. */
void hmc_read_input(struct input_file *in, hmc_params *h);
/* Build the monomials of the specifications of h (after geometry_init) with the fermion
 * setup fs, and check h. */
void hmc_build_monomials(hmc_params *h, const hmc_fermion_setup *fs);
/* Log the integrator levels and monomials (topic "HMC", level 10). */
void hmc_print_params(const hmc_params *h);

#ifdef __cplusplus
}
#endif

#endif
