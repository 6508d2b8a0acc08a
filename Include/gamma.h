/* gamma.h -- the Dirac matrices of LibHR in the chiral basis, written out explicitly, and
 * the tables that describe their off-diagonal 2x2 blocks (used by the per-site spin
 * projections of dirac_site.h). Doc/dirac.md states the convention and compares it with
 * HiRep's and openQCD's.
 *
 * In block form (upper = spin components 0,1; lower = 2,3):
 *   gamma_mu = [[0, A_mu], [A_mu^+, 0]],   A_0 = -1, A_k = -i sigma_k (k = 1,2,3)
 * so every gamma_mu is Hermitian and unitary, {gamma_mu, gamma_nu} = 2 delta_mu,nu, and
 *   gamma5 = gamma0 gamma1 gamma2 gamma3 = diag(1, 1, -1, -1).
 * Each A_mu is monomial: row r has one non-zero entry, i^k in column p, with
 *   (p, k) = HR_GAMMA_PERM[mu][r], HR_GAMMA_IPOW[mu][r].
 * Implemented in: LibHR/Algebra (header only). */
#ifndef GAMMA_H
#define GAMMA_H

#include "hr_complex.h"
#include "hr_inline.h"

/* Column of the non-zero entry of row r of A_mu. */
#define HR_GAMMA_PERM_INIT {{0, 1}, {1, 0}, {1, 0}, {0, 1}}
/* Power k of i of that entry: A_mu[r][perm] = i^k. */
#define HR_GAMMA_IPOW_INIT {{2, 2}, {3, 3}, {2, 0}, {3, 1}}

/* i^k as a complex number (k taken mod 4). */
HR_INLINE hr_complex hr_i_pow(int k) {
  switch (((k % 4) + 4) % 4) {
  case 0: return hr_cmplx(1, 0);
  case 1: return hr_cmplx(0, 1);
  case 2: return hr_cmplx(-1, 0);
  default: return hr_cmplx(0, -1);
  }
}

/* g[4*a+b] = (gamma_mu)_ab for mu = 0..3, the explicit 4x4 matrix built from the tables;
 * mu = 4 gives gamma5 = diag(1, 1, -1, -1). */
HR_INLINE void hr_gamma_matrix(hr_complex g[16], int mu) {
  const int perm[4][2] = HR_GAMMA_PERM_INIT;
  const int ipow[4][2] = HR_GAMMA_IPOW_INIT;
  for (int i = 0; i < 16; ++i)
    g[i] = hr_cmplx(0, 0);
  if (mu == 4) {
    g[0] = g[5] = hr_cmplx(1, 0);
    g[10] = g[15] = hr_cmplx(-1, 0);
    return;
  }
  for (int r = 0; r < 2; ++r) {
    const hr_complex a = hr_i_pow(ipow[mu][r]);
    /* upper right block: A_mu; lower left block: A_mu^+ */
    g[4 * r + 2 + perm[mu][r]] = a;
    g[4 * (2 + perm[mu][r]) + r] = hr_conj(a);
  }
}

/* s[4*a+b] = (sigma_mu,nu)_ab = (i/2) [gamma_mu, gamma_nu]: Hermitian, block diagonal in the
 * chiral basis (components 0,1 and 2,3 do not mix). */
HR_INLINE void hr_sigma_matrix(hr_complex s[16], int mu, int nu) {
  hr_complex gm[16], gn[16];
  hr_gamma_matrix(gm, mu);
  hr_gamma_matrix(gn, nu);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      hr_complex c = hr_cmplx(0, 0);
      for (int k = 0; k < 4; ++k)
        c += hr_cmul(gm[4 * a + k], gn[4 * k + b]) - hr_cmul(gn[4 * a + k], gm[4 * k + b]);
      s[4 * a + b] = hr_cmplx(-0.5 * hr_cimag(c), 0.5 * hr_creal(c));
    }
}

#endif
