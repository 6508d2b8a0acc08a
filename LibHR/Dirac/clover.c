/* clover.c -- the clover term: clover-leaf field strength from the represented links, the
 * two Hermitian (2 NF) x (2 NF) blocks of 4 + m0 + C per site, their L D L^+ factorisation
 * (inverse and log det) and single-precision copies, for one derived state of a Dirac
 * operator (dirac_state.c), kept as clover fields on glattice and a per-site array of log
 * dets. Built by the host loop, or by kernels on the device copies when the operator runs on
 * the GPU path (dirac_state_gpu.c); both call the per-site functions of dirac_state_sites.h. */
#include "clover.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "dirac_internal.h"
#include "dirac_site.h"
#include "dirac_state_gpu.h"
#include "dirac_state_sites.h"
#include "gamma.h"
#include "geometry.h"
#include "hr_error.h"
#include "reduction.h"
#include "suN.h"

#define D_ CLOVER_BLOCK_DIM

/* View of the host copy of the represented links uf (made current by the caller). */
static dirac_links_view host_links_view(const suNf_field *uf) {
  dirac_links_view v;
  v.base = uf->ptr;
  v.off = v.len = NULL;
  v.iup = hr_iup;
  v.idn = hr_idn;
  v.shift = glattice.master_shift;
  v.open_t = 0;
  v.time = NULL;
  v.glb_t = GLB_T;
  v.dcf = 0.;
  return v;
}

/* Open time boundaries: the global time of every master element of glattice (host table and,
 * in GPU builds, its device copy), remade when the geometry changes. */
static struct {
  int generation;
  int *time, *dev_time;
} ctime_tab = {-1, NULL, NULL};

const int *dirac_time_table(int on_gpu) {
  if (ctime_tab.generation != geometry_generation()) {
    free(ctime_tab.time);
#if HR_GPU_ENABLED
    hr_gpu_free(ctime_tab.dev_time);
#endif
    ctime_tab.time = ctime_tab.dev_time = NULL;
    ctime_tab.generation = geometry_generation();
  }
  const size_t n = (size_t)geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
  if (ctime_tab.time == NULL) {
    ctime_tab.time = (int *)calloc(n, sizeof(int));
    if (ctime_tab.time == NULL) hr_error("out of memory for the time table of the Dirac operators");
    _MASTER_FOR(&glattice, ix) {
      int g[4];
      global_coordinates(g, ix);
      ctime_tab.time[ix - glattice.master_shift] = g[0];
    }
  }
#if HR_GPU_ENABLED
  if (on_gpu) {
    if (ctime_tab.dev_time == NULL) {
      ctime_tab.dev_time = (int *)hr_gpu_alloc(n * sizeof(int));
      hr_gpu_copy_to_device(ctime_tab.dev_time, ctime_tab.time, n * sizeof(int));
    }
    return ctime_tab.dev_time;
  }
#else
  (void)on_gpu;
#endif
  return ctime_tab.time;
}

void clover_field_strength(suNf *F, const suNf_field *uf, int ix, int mu, int nu) {
  const dirac_links_view v = host_links_view(uf);
  dirac_site_field_strength(F, &v, ix, mu, nu);
}

/* sigma_mu,nu restricted to the chirality blocks (dirac_state_sites.h). */
static dirac_sigma_blocks sig;
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
          for (int b = 0; b < 2; b++) sig.s[p][ch][a][b] = s[4 * (2 * ch + a) + 2 * ch + b];
    }
  sig_ready = 1;
}

void clover_state_free(dirac_clover_state *cs) {
  free_clover_field(cs->blk);
  free_clover_field_flt(cs->blk_flt);
  free(cs->logdet_site);
#if HR_GPU_ENABLED
  hr_gpu_free(cs->dev_logdet);
#endif
  memset(cs, 0, sizeof *cs);
}

/* Stop with the first site (host array of log dets) whose block is not positive definite. */
static void check_positive(const dirac_clover_state *cs) {
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    if (isnan(cs->logdet_site[ix - sh])) {
      int g[4];
      global_coordinates(g, ix);
      hr_error_code(HR_EXIT_NUMERICS,
                    "the clover block 4 + m0 + C at site (t,x,y,z) = (%d,%d,%d,%d) is not "
                    "positive definite (m0 = %g, csw = %g): the even/odd preconditioned "
                    "clover operator needs m0 larger or csw smaller for this gauge field",
                    g[0], g[1], g[2], g[3], cs->m0, cs->csw);
    }
  }
}

/* The host array of log dets of cs, brought from the device when built there. */
static const double *host_logdet(const dirac_clover_state *cs) {
#if HR_GPU_ENABLED
  if (!cs->logdet_on_host) {
    hr_gpu_copy_to_host(cs->logdet_site, cs->dev_logdet,
                        (size_t)geometry_field_size(&glattice, HR_LAYOUT_SPINOR) * sizeof(double));
    ((dirac_clover_state *)(uintptr_t)cs)->logdet_on_host = 1;
  }
#endif
  return cs->logdet_site;
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
#if HR_GPU_ENABLED
    cs->dev_logdet = NULL;
#endif
  }
  const size_t nsites = (size_t)geometry_field_size(&glattice, HR_LAYOUT_SPINOR);
  if (cs->blk == NULL) {
    cs->blk = alloc_clover_field(2, &glattice);
    cs->blk_flt = alloc_clover_field_flt(2, &glattice);
    cs->logdet_site = calloc(nsites, sizeof(double));
    if (cs->logdet_site == NULL) hr_error("out of memory for the clover term");
#if HR_GPU_ENABLED
    cs->dev_logdet = (double *)hr_gpu_alloc(nsites * sizeof(double));
    hr_gpu_zero(cs->dev_logdet, nsites * sizeof(double));
#endif
  }
  cs->generation = gen;
  const suNf_field *uf = cs->links->uf;
  const double csw = cs->csw, m0 = cs->m0;
#if HR_GPU_ENABLED
  if (cs->on_gpu) { /* on the device copies: no field crosses to the host */
    dirac_links_view v;
    const hr_gpu_sites sites = hr_gpu_sites_of(&glattice);
    v.base = sync_gpu_suNf_field(uf);
    v.off = sites.off;
    v.len = sites.len;
    v.iup = hr_gpu_iup();
    v.idn = hr_gpu_idn();
    v.shift = sites.shift;
    v.glb_t = GLB_T;
    v.open_t = dirac_bc_open_t(&cs->links->bc);
    v.dcf = dirac_bc_diag_shift(&cs->links->bc);
    v.time = v.open_t ? dirac_time_table(1) : NULL;
    dirac_gpu_clover(gpu_write_clover_field(&cs->blk[0]), gpu_write_clover_field(&cs->blk[1]),
                     gpu_write_clover_field_flt(&cs->blk_flt[0]),
                     gpu_write_clover_field_flt(&cs->blk_flt[1]), cs->dev_logdet, &v, &sig, csw,
                     m0);
    cs->logdet_on_host = 0;
    double s; /* one exact sum (a few numbers to the host) tells whether every block is fine */
    hr_gpu_sum_sites(&s, &glattice, cs->dev_logdet, 1);
    if (isnan(s)) {
      host_logdet(cs);
      check_positive(cs);
    }
    return;
  }
#endif
  sync_host_suNf_field(uf);
  dirac_links_view v = host_links_view(uf);
  v.open_t = dirac_bc_open_t(&cs->links->bc);
  v.dcf = dirac_bc_diag_shift(&cs->links->bc);
  v.time = v.open_t ? dirac_time_table(0) : NULL;
  suNf_clover *blk = host_write_clover_field(&cs->blk[0]);
  suNf_clover *inv = host_write_clover_field(&cs->blk[1]);
  suNf_clover_flt *blk_flt = host_write_clover_field_flt(&cs->blk_flt[0]);
  suNf_clover_flt *inv_flt = host_write_clover_field_flt(&cs->blk_flt[1]);
  double *logdet_site = cs->logdet_site;
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) {
    const int e = ix - sh;
    const dirac_clover_sink blk_sink = {blk[e].c[0], blk_flt[e].c[0], 1};
    const dirac_clover_sink inv_sink = {inv[e].c[0], inv_flt[e].c[0], 1};
    logdet_site[e] = dirac_site_clover(&blk_sink, &inv_sink, &v, &sig, csw, m0, ix);
  }
#if HR_GPU_ENABLED
  cs->logdet_on_host = 1;
  hr_gpu_copy_to_device(cs->dev_logdet, logdet_site, nsites * sizeof(double));
#endif
  check_positive(cs);
}

/* out = the full block `chirality` of the packed clover element m (row-major). */
static void clover_unpack(hr_complex *out, const suNf_clover *m, int chirality) {
  const dirac_clover_ref c = dirac_clover_host(m);
  for (int i = 0; i < D_; i++)
    for (int j = 0; j < D_; j++) out[i * D_ + j] = dirac_clover_entry(&c, chirality, i, j);
}

void clover_block(hr_complex *out, const dirac_op *D, int ix, int chirality) {
  const dirac_clover_state *cs = dirac_clover_state_of(D);
  hr_assert(cs != NULL, "clover_block: the operator has csw = 0 (no clover term)");
  clover_unpack(out, &sync_host_clover_field(&cs->blk[0])[ix - glattice.master_shift], chirality);
}

void clover_block_inverse(hr_complex *out, const dirac_op *D, int ix, int chirality) {
  const dirac_clover_state *cs = dirac_clover_state_of(D);
  hr_assert(cs != NULL, "clover_block_inverse: the operator has csw = 0 (no clover term)");
  clover_unpack(out, &sync_host_clover_field(&cs->blk[1])[ix - glattice.master_shift], chirality);
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
  const long shift = g->master_shift - glattice.master_shift;
#if HR_GPU_ENABLED
  if (dirac_on_gpu(D)) { /* summed on the device */
    hr_gpu_sum_sites(&s, g, cs->dev_logdet + shift, 1);
    return s;
  }
#endif
  global_sum_sites(&s, g, host_logdet(cs) + shift, 1);
  return s;
}
