/* clover.c -- the clover term: clover-leaf field strength from the represented links, the
 * two Hermitian (2 NF) x (2 NF) blocks of 4 + m0 + C per site, their L D L^+ factorisation
 * (inverse and log det) and single-precision copies, built on the host for one derived state
 * of a Dirac operator (dirac_state.c) and kept as clover fields on glattice (the GPU path of
 * the operators reads their device copies). */
#include "clover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "dirac_internal.h"
#include "gamma.h"
#include "geometry.h"
#include "hr_error.h"
#include "reduction.h"
#include "suN.h"

#define D_ CLOVER_BLOCK_DIM

/* The represented link U_mu(ix) of uf. */
static const suNf *link_of(const suNf_field *uf, int ix, int mu) {
  hr_assert(ix >= 0, "clover leaf reaches a site outside the gauge halo");
  return _4FIELD_AT(uf, ix, mu);
}

void clover_field_strength(suNf *F, const suNf_field *uf, int ix, int mu, int nu) {
  const int xpm = iup(ix, mu), xpn = iup(ix, nu), xmm = idn(ix, mu), xmn = idn(ix, nu);
  const int xmm_pn = iup(xmm, nu), xmm_mn = idn(xmm, nu), xmn_pm = iup(xmn, mu);
  suNf q, a, b, leaf;
  /* U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+ */
  suNf_mul(&a, link_of(uf, ix, mu), link_of(uf, xpm, nu));
  suNf_mul_dag(&b, &a, link_of(uf, xpn, mu));
  suNf_mul_dag(&q, &b, link_of(uf, ix, nu));
  /* U_nu(x) U_mu(x-mu+nu)^+ U_nu(x-mu)^+ U_mu(x-mu) */
  suNf_mul_dag(&a, link_of(uf, ix, nu), link_of(uf, xmm_pn, mu));
  suNf_mul_dag(&b, &a, link_of(uf, xmm, nu));
  suNf_mul(&leaf, &b, link_of(uf, xmm, mu));
  suNf_add(&q, &q, &leaf);
  /* U_mu(x-mu)^+ U_nu(x-mu-nu)^+ U_mu(x-mu-nu) U_nu(x-nu) */
  suNf_mul(&a, link_of(uf, xmm_mn, nu), link_of(uf, xmm, mu));
  suNf_dagger(&b, &a);
  suNf_mul(&a, &b, link_of(uf, xmm_mn, mu));
  suNf_mul(&leaf, &a, link_of(uf, xmn, nu));
  suNf_add(&q, &q, &leaf);
  /* U_nu(x-nu)^+ U_mu(x-nu) U_nu(x-nu+mu) U_mu(x)^+ */
  suNf_dag_mul(&a, link_of(uf, xmn, nu), link_of(uf, xmn, mu));
  suNf_mul(&b, &a, link_of(uf, xmn_pm, nu));
  suNf_mul_dag(&leaf, &b, link_of(uf, ix, mu));
  suNf_add(&q, &q, &leaf);
  /* F = (Q - Q^+) / 8 */
  suNf_dagger(&a, &q);
  suNf_sub(&b, &q, &a);
  suNf_scale(F, 0.125, &b);
}

/* sigma_mu,nu restricted to the chirality blocks: sig[pair][ch][s][t], pairs mu < nu in the
 * order (01)(02)(03)(12)(13)(23). */
static hr_complex sig[6][2][2][2];
static int sig_ready = 0;

static void init_sigma(void) {
  if (sig_ready) return;
  int p = 0;
  for (int mu = 0; mu < 4; mu++)
    for (int nu = mu + 1; nu < 4; nu++, p++) {
      hr_complex s[16];
      hr_sigma_matrix(s, mu, nu);
      for (int ch = 0; ch < 2; ch++)
        for (int a = 0; a < 2; a++)
          for (int b = 0; b < 2; b++) sig[p][ch][a][b] = s[4 * (2 * ch + a) + 2 * ch + b];
    }
  sig_ready = 1;
}

/* L D L^+ factorisation of the Hermitian block a: fills inv with a^-1 and returns
 * log det a, or NAN when a pivot is not positive (block not positive definite). */
static double factorise_block(const hr_complex *a, hr_complex *inverse) {
  hr_complex L[D_ * D_];
  double d[D_];
  double logdet = 0.;
  for (int j = 0; j < D_; j++) {
    double dj = hr_creal(a[j * D_ + j]);
    for (int k = 0; k < j; k++) dj -= hr_cabs2(L[j * D_ + k]) * d[k];
    if (!(dj > 0.)) return NAN;
    d[j] = dj;
    logdet += log(dj);
    L[j * D_ + j] = hr_cmplx(1, 0);
    for (int i = j + 1; i < D_; i++) {
      hr_complex v = a[i * D_ + j];
      for (int k = 0; k < j; k++) v -= hr_cmul_conj(L[i * D_ + k], L[j * D_ + k]) * d[k];
      L[i * D_ + j] = v / dj;
    }
  }
  for (int c = 0; c < D_; c++) {
    hr_complex y[D_];
    for (int i = 0; i < D_; i++) { /* L y = e_c */
      hr_complex v = hr_cmplx(i == c ? 1 : 0, 0);
      for (int k = 0; k < i; k++) v -= hr_cmul(L[i * D_ + k], y[k]);
      y[i] = v;
    }
    for (int i = 0; i < D_; i++) y[i] = y[i] / d[i];
    for (int i = D_ - 1; i >= 0; i--) { /* L^+ x = y */
      hr_complex v = y[i];
      for (int k = i + 1; k < D_; k++) v -= hr_conj_cmul(L[k * D_ + i], y[k]);
      y[i] = v;
    }
    for (int i = 0; i < D_; i++) inverse[i * D_ + c] = y[i];
  }
  return logdet;
}

/* The two blocks of 4 + m0 + C at site ix. */
static void site_blocks(suNf_clover *out, const suNf_field *uf, double csw, double m0, int ix) {
  suNf F[6];
  int p = 0;
  for (int mu = 0; mu < 4; mu++)
    for (int nu = mu + 1; nu < 4; nu++, p++) clover_field_strength(&F[p], uf, ix, mu, nu);
  const hr_complex ihalf_csw = hr_cmplx(0, 0.5 * csw);
  for (int ch = 0; ch < 2; ch++)
    for (int s = 0; s < 2; s++)
      for (int a = 0; a < NF; a++)
        for (int t = 0; t < 2; t++)
          for (int b = 0; b < NF; b++) {
            hr_complex v = hr_cmplx(s == t && a == b ? 4. + m0 : 0., 0.);
            for (int q = 0; q < 6; q++)
              v += ihalf_csw * hr_cmul(sig[q][ch][s][t], F[q].c[a * NF + b]);
            out->c[ch][(s * NF + a) * D_ + t * NF + b] = v;
          }
}

void clover_state_free(dirac_clover_state *cs) {
  free_clover_field(cs->blk);
  free_clover_field_flt(cs->blk_flt);
  free(cs->logdet_site);
  memset(cs, 0, sizeof *cs);
}

void clover_state_build(dirac_clover_state *cs) {
  init_sigma();
  const int gen = cs->links->generation;
  if (cs->blk != NULL && cs->generation != gen) {
    const dirac_clover_state keep = *cs;
    clover_state_free(cs);
    *cs = keep; /* the key fields */
    cs->blk = NULL;
    cs->blk_flt = NULL;
    cs->logdet_site = NULL;
  }
  if (cs->blk == NULL) {
    cs->blk = alloc_clover_field(2, &glattice);
    cs->blk_flt = alloc_clover_field_flt(2, &glattice);
    cs->logdet_site =
        malloc((size_t)geometry_field_size(&glattice, HR_LAYOUT_SPINOR) * sizeof(double));
    if (cs->logdet_site == NULL) hr_error("out of memory for the clover term");
  }
  cs->generation = gen;
  const suNf_field *uf = cs->links->uf;
  const double csw = cs->csw, m0 = cs->m0;
  sync_host_suNf_field(uf);
  suNf_clover *blk = host_write_clover_field(&cs->blk[0]);
  suNf_clover *inv = host_write_clover_field(&cs->blk[1]);
  suNf_clover_flt *blk_flt = host_write_clover_field_flt(&cs->blk_flt[0]);
  suNf_clover_flt *inv_flt = host_write_clover_field_flt(&cs->blk_flt[1]);
  double *logdet_site = cs->logdet_site;
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) {
    suNf_clover *b = blk + (ix - sh), *iv = inv + (ix - sh);
    site_blocks(b, uf, csw, m0, ix);
    double ld = 0.;
    for (int ch = 0; ch < 2; ch++) ld += factorise_block(b->c[ch], iv->c[ch]);
    logdet_site[ix - sh] = ld;
    for (int ch = 0; ch < 2; ch++)
      for (int k = 0; k < D_ * D_; k++) {
        blk_flt[ix - sh].c[ch][k] = hr_complex_to_flt(b->c[ch][k]);
        inv_flt[ix - sh].c[ch][k] = hr_complex_to_flt(iv->c[ch][k]);
      }
  }
  _MASTER_FOR(&glattice, ix) {
    if (isnan(logdet_site[ix - sh])) {
      int g[4];
      global_coordinates(g, ix);
      hr_error_code(HR_EXIT_NUMERICS,
                    "the clover block 4 + m0 + C at site (t,x,y,z) = (%d,%d,%d,%d) is not "
                    "positive definite (m0 = %g, csw = %g): the even/odd preconditioned "
                    "clover operator needs m0 larger or csw smaller for this gauge field",
                    g[0], g[1], g[2], g[3], m0, csw);
    }
  }
}

void clover_block(hr_complex *out, const dirac_op *D, int ix, int chirality) {
  const dirac_clover_state *cs = dirac_clover_state_of(D);
  hr_assert(cs != NULL, "clover_block: the operator has csw = 0 (no clover term)");
  memcpy(out, sync_host_clover_field(&cs->blk[0])[ix - glattice.master_shift].c[chirality],
         sizeof(hr_complex) * D_ * D_);
}

void clover_block_inverse(hr_complex *out, const dirac_op *D, int ix, int chirality) {
  const dirac_clover_state *cs = dirac_clover_state_of(D);
  hr_assert(cs != NULL, "clover_block_inverse: the operator has csw = 0 (no clover term)");
  memcpy(out, sync_host_clover_field(&cs->blk[1])[ix - glattice.master_shift].c[chirality],
         sizeof(hr_complex) * D_ * D_);
}

const clover_field *clover_inverse_field(const dirac_op *D) {
  const dirac_clover_state *cs = dirac_clover_state_of(D);
  return cs == NULL ? NULL : &cs->blk[1];
}

double clover_logdet(const dirac_op *D, int parity) {
  const geometry_descriptor *g = geometry_of_parity(parity);
  const dirac_clover_state *cs = dirac_clover_state_of(D);
  if (cs == NULL) /* 4 + m0 on every site: 4 NF eigenvalues per site */
    return (double)(parity == HR_PARITY_BOTH ? GLB_VOLUME : GLB_VOLUME / 2) * 4 * NF *
           log(4. + D->m0);
  double s; /* the reduction policy: the same bits on every grid, thread count, backend */
  global_sum_sites(g, cs->logdet_site + (g->master_shift - glattice.master_shift), 1, &s);
  return s;
}
