/* gauge_fixing.h -- Landau (all four directions) and Coulomb (spatial directions, every time
 * slice) gauge fixing by steepest ascent of the functional, Fourier accelerated (FFT through
 * fourier.h) or plain, or by over-relaxation (SU(2) subgroups, checkerboard); and the
 * momentum-space observables that need a fixed gauge or the FFT. Doc/momentum_space.md.
 *
 * With the directions D (Landau: 0..3, Coulomb: 1..3, d = |D|), A_mu(x) the traceless part
 * of (U_mu(x) - U_mu(x)^+)/(2i) and Delta(x) = sum_{mu in D} [A_mu(x-mu) - A_mu(x)]:
 *   functional F = (1/(N d V)) sum_x sum_{mu in D} Re tr U_mu(x)        (maximised)
 *   residual theta = (1/(N V)) sum_x tr[Delta(x) Delta(x)^+]            (stopping criterion)
 * A gauge transformation g acts as U_mu(x) -> g(x) U_mu(x) g(x+mu)^+ on every link.
 * Implemented in: LibHR/Fourier/gauge_fixing.c, LibHR/Fourier/momentum_observables.c. */
#ifndef GAUGE_FIXING_H
#define GAUGE_FIXING_H

#include "fields.h"
#include "hr_complex.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { HR_GF_NONE = 0, HR_GF_LANDAU = 1, HR_GF_COULOMB = 2 } hr_gauge_kind;
typedef enum { HR_GF_STEEPEST = 0, HR_GF_OVERRELAX = 1 } hr_gf_method;

/* Parameters of gauge_fix. */
typedef struct {
  hr_gauge_kind kind;  /* Landau or Coulomb */
  hr_gf_method method; /* steepest ascent (default) or over-relaxation */
  int fourier;         /* steepest ascent: Fourier acceleration (1, default) or plain (0) */
  double alpha;        /* steepest-ascent step (default 0.08) */
  double omega;        /* over-relaxation parameter (default 1.7) */
  double tolerance;    /* stop when theta < tolerance (default 1e-14) */
  int maxiter;         /* at most this many iterations (default 10000) */
  int print_every;     /* lprintf("GAUGEFIX", 10, ...) every this many iterations (0: never) */
} gauge_fixing_params;

/* Outcome of gauge_fix. */
typedef struct {
  int iterations;    /* iterations done */
  double theta;      /* final residual */
  double functional; /* final functional */
  int converged;     /* 1 when theta < tolerance */
  double seconds;    /* wall-clock time of the fixing */
} gauge_fixing_result;

/* Default parameters (Landau, Fourier-accelerated steepest ascent, see above). */
void gauge_fixing_params_default(gauge_fixing_params *p);
/* Name "landau" / "coulomb" / "none" of a gauge, and the gauge of a name (-1 if unknown). */
const char *gauge_kind_name(hr_gauge_kind k);
int gauge_kind_from_name(const char *name);
/* Fix the gauge of u in place (links of glattice; halo refreshed; new version). */
gauge_fixing_result gauge_fix(suNg_field *u, const gauge_fixing_params *p);
/* Residual theta of u for the gauge k. */
double gauge_fixing_theta(const suNg_field *u, hr_gauge_kind k);
/* Functional F of u for the gauge k. */
double gauge_fixing_functional(const suNg_field *u, hr_gauge_kind k);
/* Apply the gauge transformation g (one suNg per stored site of glattice's spinor layout,
 * halo included) to u: U_mu(x) -> g(x) U_mu(x) g(x+mu)^+, then refresh u's halo. */
void gauge_transform_links(suNg_field *u, const suNg *g);

/* ------------------------------------------------------------------ momentum space */

/* Polyakov-loop correlator: C[b] = (1/N^2) <tr P(x) tr P(x+r)^*> averaged over x and over
 * the spatial separations r (minimal image, -L/2 < r_i <= L/2) with r^2 = r2[b], by FFT;
 * P = product of the time links along t. On return *nbins bins, r2 ascending; arrays are
 * allocated (free them). Collective. */
void polyakov_correlator(double **C, int **r2, int *nbins, const suNg_field *u);
/* The same by the direct double sum over x and y (reference for tests: O(V_3^2)). */
void polyakov_correlator_direct(double **C, int **r2, int *nbins, const suNg_field *u);

/* Landau-gauge gluon propagator D(p^2), p_mu = 2 sin(pi n_mu / L_mu): for every distinct
 * lattice momentum class with p^2 (momenta equal up to reflections and, for equal extents,
 * permutations give the same p^2 and are averaged), D = 2/((N^2-1)(d-1)V) sum_mu
 * tr[A~_mu(p) A~_mu(-p)] (p = 0: d-1 -> d), A~_mu(p) = sum_x exp(-i p.(x + mu/2)) A_mu(x).
 * cylinder >= 0: keep only momenta within that distance (in units of 2 pi / L of the
 * smallest extent) of the diagonal (1,1,1,1); < 0: all momenta. Output like
 * polyakov_correlator, with p2 doubles; arrays allocated. Collective. */
void gluon_propagator(double **D, double **p2, int *nbins, const suNg_field *u, double cylinder);

#ifdef __cplusplus
}
#endif

#endif
