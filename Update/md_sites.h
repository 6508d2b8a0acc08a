/* md_sites.h -- the per-link mathematics of the molecular dynamics (md.h), shared by the CPU
 * loops (md.c) and the kernels of the GPU path (md_gpu.c): the link update
 * U <- exp(eps P) U and the per-site kinetic term. Written in the common subset of C11 and CUDA C++. */
#ifndef MD_SITES_H
#define MD_SITES_H

#include "suN.h"

/* *e = exp(eps i p^a T^a), the factor of the link update. */
HR_INLINE void md_link_step(suNg *e, const suNg_algebra_vector *p, double eps) {
  suNg_algebra_vector v;
  for (int a = 0; a < NG * NG - 1; a++) v.c[a] = eps * p->c[a];
  suNg_exp(e, &v);
}

/* *u = exp(eps i p^a T^a) *u. */
HR_INLINE void md_link_update(suNg *u, const suNg_algebra_vector *p, double eps) {
  suNg e, t;
  md_link_step(&e, p, eps);
  suNg_mul(&t, &e, u);
  *u = t;
}

/* sum_{mu, a} p^a(x,mu)^2 of the four momenta of a site (p: the 4 links of the site). */
HR_INLINE double md_site_momentum_sqnorm(const suNg_algebra_vector *p) {
  double s = 0;
  for (int mu = 0; mu < 4; mu++)
    for (int a = 0; a < NG * NG - 1; a++) s += p[mu].c[a] * p[mu].c[a];
  return s;
}

#endif
