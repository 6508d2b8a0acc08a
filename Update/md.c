/* md.c -- the molecular dynamics of md.h: kinetic energy of the momenta (linear algebra of
 * the algebra-vector fields, so the reduction policy of the library), the link update
 * U <- exp(eps P) U on the CPU loops or the GPU path (md_sites.h for the per-link
 * mathematics, md_gpu.c for the kernels), and reunitarisation between trajectories. */
#include "md.h"

#include <math.h>

#include "backend.h"
#include "communications.h"
#include "halo_exchange.h"
#include "geometry.h"
#include "hr_error.h"
#include "linear_algebra.h"
#include "md_gpu.h"
#include "md_sites.h"
#include "reduction.h"
#include "suN.h"

double md_kinetic_energy(const suNg_av_field *p) {
  hr_assert(p->type == &glattice, "md_kinetic_energy: the momenta must live on glattice");
#if HR_GPU_ENABLED
  if (hr_backend_current() == HR_BACKEND_GPU) return 0.5 * md_gpu_kinetic(p);
#endif
  const long n = geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
  double *k = reduction_scratch(n); /* per-site sum_{mu,a} p^2, indexed by ix - master_shift */
  const suNg_algebra_vector *pm = sync_host_suNg_av_field(p);
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) { k[ix - sh] = md_site_momentum_sqnorm(pm + 4 * (ix - sh)); }
  double s;
  global_sum_sites(&s, &glattice, k, 1);
  return 0.5 * s;
}

void md_update_links(suNg_field *u, const suNg_av_field *p, double eps) {
  hr_assert(u->type == &glattice && p->type == &glattice,
            "md_update_links: links and momenta must live on glattice");
  if (hr_backend_current() == HR_BACKEND_GPU) {
#if HR_GPU_ENABLED
    sync_gpu_suNg_av_field(p);
    gpu_write_suNg_field(u);
    md_gpu_update_links(u, p, eps);
    start_sendrecv_suNg_field(u);
    complete_sendrecv_suNg_field(u);
#endif
    return;
  }
  const suNg_algebra_vector *pm = sync_host_suNg_av_field(p);
  suNg *um = host_write_suNg_field(u);
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      md_link_update(um + 4 * (ix - sh) + mu, pm + 4 * (ix - sh) + mu, eps);
  }
  sendrecv_field(&glattice, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
}

double md_reunitarize_links(suNg_field *u) {
  suNg *um = host_write_suNg_field(u);
  const int sh = glattice.master_shift;
  double worst = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++) {
      suNg *l = um + 4 * (ix - sh) + mu;
      int zero = 1; /* the absent links of open time boundaries stay zero */
      for (int e = 0; e < NG * NG; e++) zero &= l->c[e] == 0;
      if (zero) continue;
      const double d = sqrt(cmat_unitarity_defect(NG, l->c));
      if (d > worst) worst = d;
      if (suN_reunitarize(l->c, NG) != 0)
        hr_error("md_reunitarize_links: a link is singular (rows linearly dependent)");
    }
  }
  global_max(&worst, 1);
  sendrecv_field(&glattice, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
  return worst;
}

