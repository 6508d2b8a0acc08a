/* stout_force.h -- stout smearing of the links the fermions see in the HMC, and the force
 * through the smearing chain (Morningstar and Peardon, hep-lat/0311018), for any SU(N): the
 * links are smeared in the fundamental representation, the fermion monomials represent the
 * smeared links, and their force on the smeared links is carried back to the thin links.
 *
 * One step: U' = exp(A) U with A = the traceless antihermitian part of rho C U^+, C the sum
 * of the staples of U in the planes that are smeared (isotropic: all six; spatial: for the
 * spatial links only, the two spatial planes; time links are then copied). The chain keeps
 * the links of every level, rebuilt when the gauge field's version changes.
 *
 * Forces. A force on links V is an algebra-vector field F^a(x,mu) = Re tr[i T^a V Sigma] for
 * dS = sum Re tr[Sigma dV] (the convention of the fermion and gauge forces). Given F' on the
 * smeared links, one step back gives, with Lambda = L_A(U Sigma') (L_A the derivative of the
 * exponential at A, by scaling and squaring of the pair (exp, derivative)) and
 * Gamma = the traceless antihermitian part of Lambda,
 *   Sigma(x,mu) = Sigma' exp(A) - rho C^+ Gamma + (the six staple terms of M = rho U^+ Gamma
 *                 of every link whose staples contain (x,mu));
 * Doc/hmc.md ("Stout-smeared fermions") has the derivation. Host loops (OpenMP, MPI halos);
 * in GPU builds the fields are brought to the host.
 * Implemented in: Update/stout_force.c. */
#ifndef STOUT_FORCE_H
#define STOUT_FORCE_H

#include "fields.h"

struct input_file;

#ifdef __cplusplus
extern "C" {
#endif

/* The smearing of the fermion links (input block smear { steps = .. rho = .. spatial = .. }). */
typedef struct {
  int steps;   /* number of stout steps (0: no smearing) */
  double rho;  /* weight of each staple */
  int spatial; /* 1: spatial links with spatial staples only */
} stout_params;

/* No smearing (steps 0, rho 0.1, isotropic). */
void stout_params_default(stout_params *p);
/* Read the optional top-level block smear { steps = ..  rho = ..  spatial = true|false } of
 * `in` (absent: no smearing); stops with file:line on a bad value. */
void stout_params_read_input(stout_params *p, struct input_file *in);
/* Log the smearing (topic "HMC", level 10). */
void stout_params_print(const stout_params *p);

/* A stout-smearing chain: parameters and the links of every level. */
typedef struct {
  int steps;             /* number of stout steps (0: the thin links) */
  double rho;            /* weight of each staple */
  int spatial;           /* 1: smear the spatial links with spatial staples only */
  suNg_field *links;     /* steps + 1 fields: links[0] a copy of the thin links, ... */
  const suNg_field *src; /* the field the chain was built from */
  unsigned long version; /* its version then */
  suNg_av_field *work;   /* force on the smeared links (hmc_monomial_stout) */
} stout_chain;

/* A chain of `steps` steps of weight rho (spatial: 1 for spatial smearing only). */
stout_chain *stout_chain_new(int steps, double rho, int spatial);
/* Free a chain (NULL is ignored). */
void stout_chain_free(stout_chain *c);
/* The smeared links of u: rebuilt when u or its version changed since the last call (halo
 * exchanged), else the stored ones. Collective. */
const suNg_field *stout_chain_links(stout_chain *c, const suNg_field *u);
/* f = the force on the thin links from f_smeared, the force on the smeared links of the last
 * stout_chain_links call (f may be f_smeared). Collective. */
void stout_chain_force(suNg_av_field *f, const suNg_av_field *f_smeared, stout_chain *c);
/* X = the derivative of exp at A in the direction E: d/dt exp(A + t E) at t = 0 (any complex
 * matrices; expA = exp(A) as a by-product). */
void stout_exp_derivative(suNg *X, suNg *expA, const suNg *A, const suNg *E);

#ifdef __cplusplus
}
#endif

#endif
