/* fermion_force.c -- the force of the even/odd Wilson-clover fermion monomials
 * (fermion_monomials.h) for any N and representation, CPU loops (OpenMP, MPI halos).
 *
 * A force is accumulated as matrices in the fermion representation:
 *   Sigma(x,mu)  per link, with dS = sum Re tr[ dU(x,mu) Sigma(x,mu) ], U = U^R times the
 *                boundary phase (the links of dirac_links);
 *   Z_q(x)       per site and plane q = (a<b), with dS = sum Re tr[ dF_ab(x) Z_q(x) ]
 *                (the clover insertions; F the clover-leaf field strength of clover.h).
 * Terms:
 *   Re[l^+ dDhat r] = Re[L^+ dD R] with the full-lattice fields L = (l, -g5 D_oo^-1 H_oe g5 l),
 *   R = (r, -D_oo^-1 H_oe r) and D = 4 + m0 + C + H (with open time boundaries L and R are set
 *   to zero on the slices 0 and T-1, where D is a constant identity block); the hopping part
 *   gives
 *     Sigma(x,mu) += -1/2 sum_s { [(1-g_mu) R(x+mu)]_s L(x)_s^+ + [(1+g_mu) L(x+mu)]_s R(x)_s^+ }
 *   and the clover part Z_q(x) += (i csw/2) sum_s [sigma_q R(x)]_s L(x)_s^+;
 *   d log det(4 + m0 + C(x)) = tr[(4 + m0 + C(x))^-1 dC(x)] gives
 *     (Z_q)_{ba} += (i csw/2) sum_{s,t} (sigma_q)_{st} (D_xx^-1)_{(t b),(s a)}.
 * At the end W_q = (Z_q - Z_q^+)/8 turns dF into dQ (Q the sum of the four leaves) and every
 * plaquette containing the link adds its leaves with W inserted at each corner; finally
 *   F^a(x,mu) = Re tr[ i T^a_R U(x,mu) Sigma(x,mu) ]
 * (suNf_generator_traces, the same code for the four representations), and p^a -= eps F^a.
 * The per-site mathematics is in fermion_force_sites.h, shared with the kernels of the GPU path
 * (fermion_force_gpu.c): with hr_backend_current() == HR_BACKEND_GPU every piece runs as
 * kernels on the device copies and no field is copied to the host.
 * Doc/hmc.md ("Fermion monomials") has the derivation. */
#include "fermion_monomials.h"

#include <stdlib.h>

#include "backend.h"
#include "clover.h"
#include "communications.h"
#include "halo_exchange.h"
#include "fermion_force_gpu.h"
#include "fermion_force_sites.h"
#include "gamma.h"
#include "geometry.h"
#include "hr_error.h"
#include "linear_algebra.h"

struct fermion_force_acc {
  double csw;
  suNf_field *sigma;     /* Sigma(x,mu) on glattice */
  suNf_field *zc;        /* two fields: Z_q(x) (then W_q) in slot q % 4 of field q / 4 */
  spinor_field *lf, *rf; /* L and R on glattice */
  spinor_field *te;      /* work field on glat_even */
  spinor_field *to;      /* work field on glat_odd */
};

/* The spin matrices on the host, and their device copy in GPU builds. */
static fermion_force_spin spin_host;
#if HR_GPU_ENABLED
static fermion_force_spin *spin_device = NULL;
#endif
static int spin_tables_ready = 0;

static void init_spin_tables(void) {
  if (spin_tables_ready) return;
  for (int mu = 0; mu < 4; mu++) {
    hr_complex g[16];
    hr_gamma_matrix(g, mu);
    for (int i = 0; i < 16; i++) {
      const double one = (i % 5 == 0) ? 1.0 : 0.0;
      spin_host.one_minus_gamma[mu][i] = hr_cmplx(one, 0) - g[i];
      spin_host.one_plus_gamma[mu][i] = hr_cmplx(one, 0) + g[i];
    }
  }
  int q = 0;
  for (int a = 0; a < 4; a++) {
    spin_host.plane_of[a][a] = -1;
    for (int b = a + 1; b < 4; b++, q++) {
      hr_sigma_matrix(spin_host.sigma_plane[q], a, b);
      spin_host.plane_of[a][b] = spin_host.plane_of[b][a] = q;
    }
  }
#if HR_GPU_ENABLED
  spin_device = (fermion_force_spin *)hr_gpu_alloc(sizeof spin_host);
  hr_gpu_copy_to_device(spin_device, &spin_host, sizeof spin_host);
#endif
  spin_tables_ready = 1;
}

/* 1 when the force runs on the GPU path. */
static int force_on_gpu(void) {
  return HR_GPU_ENABLED && hr_backend_current() == HR_BACKEND_GPU;
}

/* The view of the host copies (CPU loops) or of the device copies (kernels). */
static fermion_force_view force_view(int gpu) {
  fermion_force_view v;
  v.shift = glattice.master_shift;
  v.off = v.len = NULL;
  v.iup = hr_iup;
  v.idn = hr_idn;
  v.spin = &spin_host;
#if HR_GPU_ENABLED
  if (gpu) {
    const hr_gpu_sites sites = hr_gpu_sites_of(&glattice);
    v.off = sites.off;
    v.len = sites.len;
    v.iup = hr_gpu_iup();
    v.idn = hr_gpu_idn();
    v.spin = spin_device;
  }
#else
  (void)gpu;
#endif
  return v;
}

/* Pointer to the copy of a field on the side gpu (device copy if gpu, else host copy), made
 * current first: FF_READ for reading, FF_WRITE for writing (the other copy marked stale). */
#if HR_GPU_ENABLED
#define FF_READ(kind, f, gpu) ((gpu) ? sync_gpu_##kind(f) : sync_host_##kind(f))
#define FF_WRITE(kind, f, gpu) ((gpu) ? gpu_write_##kind(f) : host_write_##kind(f))
#else
#define FF_READ(kind, f, gpu) ((void)(gpu), sync_host_##kind(f))
#define FF_WRITE(kind, f, gpu) ((void)(gpu), host_write_##kind(f))
#endif

/* The clover accumulator on the side gpu, for writing (NULL fields when csw = 0). */
static ff_clover_acc clover_acc_of(fermion_force_acc *f, int gpu) {
  ff_clover_acc z;
  for (int k = 0; k < 2; k++)
    z.f[k] = f->zc == NULL ? NULL : FF_WRITE(suNf_field, &f->zc[k], gpu);
  return z;
}

fermion_force_acc *fermion_force_acc_new(double csw) {
  init_spin_tables();
  fermion_force_acc *f = calloc(1, sizeof *f);
  if (f == NULL) hr_error("out of memory for a fermion force accumulator");
  f->csw = csw;
  f->sigma = alloc_suNf_field(1, &glattice);
  if (csw != 0) f->zc = alloc_suNf_field(2, &glattice);
  f->lf = alloc_spinor_field(2, &glattice);
  f->rf = f->lf + 1;
  f->te = alloc_spinor_field(1, &glat_even);
  f->to = alloc_spinor_field(1, &glat_odd);
  return f;
}

void fermion_force_acc_free(fermion_force_acc *f) {
  if (f == NULL) return;
  free_suNf_field(f->sigma);
  free_suNf_field(f->zc);
  free_spinor_field(f->lf);
  free_spinor_field(f->te);
  free_spinor_field(f->to);
  free(f);
}

void fermion_force_acc_zero(fermion_force_acc *f) {
  const int gpu = force_on_gpu();
  const fermion_force_view v = force_view(gpu);
  suNf *sig = FF_WRITE(suNf_field, f->sigma, gpu);
  const ff_clover_acc z = clover_acc_of(f, gpu);
  const ff_clover_acc *zp = f->zc != NULL ? &z : NULL;
  if (gpu) {
#if HR_GPU_ENABLED
    fermion_force_gpu_zero(&v, sig, zp);
#endif
    return;
  }
  _OMP_MASTER_FOR(&glattice, ix) {
    ff_site_zero(sig, zp, &v, ix);
  }
}

/* out (glat_odd) = -D_oo^-1 H_oe in (in on glat_even); g5 = 1: the same with gamma5 on both
 * sides, -g5 D_oo^-1 H_oe g5 in (D_oo^-1 commutes with gamma5). */
static void odd_part(fermion_force_acc *f, const dirac_op *D, const spinor_field *in,
                     spinor_field *out, int g5) {
  const spinor_field *src = in;
  if (g5) {
    g5_spinor_field(f->te, in);
    src = f->te;
  }
  Dphi_hop_inv(out, D, src); /* D_oo^-1 D_oe src, one sweep */
  if (g5)
    g5_assign_spinor_field(out);
  minus_spinor_field(out, out);
}

/* full (glattice) = (even on even sites, odd on odd sites), zero on the outer time slices of
 * open boundaries (D is the identity there, so its derivative sees only the inner slices),
 * halo exchanged. */
static void assemble_full(spinor_field *full, const spinor_field *even, const spinor_field *odd,
                          const dirac_op *D) {
  if (force_on_gpu()) {
#if HR_GPU_ENABLED
    fermion_force_gpu_assemble(full, even, odd);
#endif
  } else {
    const suNf_spinor *e = sync_host_spinor_field(even);
    const suNf_spinor *o = sync_host_spinor_field(odd);
    suNf_spinor *g = host_write_spinor_field(full);
    const int she = glat_even.master_shift, sho = glat_odd.master_shift;
    const int sh = glattice.master_shift;
    _OMP_MASTER_FOR(&glat_even, ix) { g[ix - sh] = e[ix - she]; }
    _OMP_MASTER_FOR(&glat_odd, ix) { g[ix - sh] = o[ix - sho]; }
  }
  dirac_zero_outer_slices(full, D);
  sendrecv_spinor_field(full);
}

void fermion_force_add_eo(fermion_force_acc *f, const dirac_op *D, double c,
                          const spinor_field *l, const spinor_field *r) {
  hr_assert(l->type == &glat_even && r->type == &glat_even,
            "fermion_force_add_eo: l and r must live on glat_even");
  hr_assert(D->csw == f->csw, "fermion_force_add_eo: csw %g of the operator, %g of the "
            "accumulator", D->csw, f->csw);
  odd_part(f, D, l, &f->to[0], 1);
  assemble_full(f->lf, l, &f->to[0], D);
  odd_part(f, D, r, &f->to[0], 0);
  assemble_full(f->rf, r, &f->to[0], D);
  const int gpu = force_on_gpu();
  const fermion_force_view v = force_view(gpu);
  const suNf_spinor *L = FF_READ(spinor_field, f->lf, gpu);
  const suNf_spinor *R = FF_READ(spinor_field, f->rf, gpu);
  suNf *sig = FF_WRITE(suNf_field, f->sigma, gpu);
  const ff_clover_acc z = clover_acc_of(f, gpu);
  const ff_clover_acc *zp = f->zc != NULL ? &z : NULL;
  const hr_complex chop = hr_cmplx(-0.5 * c, 0);
  const hr_complex cclover = hr_cmplx(0, 0.5 * f->csw * c);
  if (gpu) {
#if HR_GPU_ENABLED
    fermion_force_gpu_eo(&v, L, R, sig, zp, chop, cclover);
#endif
    return;
  }
  _OMP_MASTER_FOR(&glattice, ix) {
    ff_site_eo(sig, zp, &v, L, R, ix, chop, cclover);
  }
}

void fermion_force_add_logdet(fermion_force_acc *f, const dirac_op *D, double c, int parity) {
  if (f->csw == 0) return;
  hr_assert(D->csw == f->csw, "fermion_force_add_logdet: csw %g of the operator, %g of the "
            "accumulator", D->csw, f->csw);
  const geometry_descriptor *g = geometry_of_parity(parity);
  const hr_complex cc = hr_cmplx(0, 0.5 * f->csw * c);
  const int gpu = force_on_gpu();
  const fermion_force_view v = force_view(gpu);
  /* D's clover state (built here if stale, outside the parallel loop) */
  const suNf_clover *inv = FF_READ(clover_field, clover_inverse_field(D), gpu);
  const ff_clover_acc z = clover_acc_of(f, gpu);
  if (gpu) {
#if HR_GPU_ENABLED
    fermion_force_gpu_logdet(&v, g, inv, &z, cc);
#endif
    return;
  }
  _OMP_MASTER_FOR(g, ix) {
    ff_site_logdet(&z, &v, inv, ix, cc);
  }
}

void fermion_force_apply(suNg_av_field *p, fermion_force_acc *f, const dirac_op *D, double eps) {
  const int gpu = force_on_gpu();
  const fermion_force_view v = force_view(gpu);
  const suNf *uf = FF_READ(suNf_field, dirac_links(D), gpu);
  suNf *sig = FF_WRITE(suNf_field, f->sigma, gpu);
  if (f->zc != NULL) {
    /* W_q = (Z_q - Z_q^+) / 8 on every master site, then the halo (edges included), then the
     * insertions into Sigma */
    const ff_clover_acc z = clover_acc_of(f, gpu);
    if (gpu) {
#if HR_GPU_ENABLED
      fermion_force_gpu_antihermitian(&v, &z);
#endif
    } else {
      _OMP_MASTER_FOR(&glattice, ix) {
        ff_site_antihermitian(&z, &v, ix);
      }
    }
    sendrecv_suNf_field(&f->zc[0]);
    sendrecv_suNf_field(&f->zc[1]);
    if (gpu) {
#if HR_GPU_ENABLED
      fermion_force_gpu_clover_sigma(sig, &v, uf, &z);
#endif
    } else {
      _OMP_MASTER_FOR(&glattice, ix) {
        ff_site_clover_sigma(sig, &v, uf, &z, ix);
      }
    }
  }
  suNg_algebra_vector *pm = FF_WRITE(suNg_av_field, p, gpu);
  if (gpu) {
#if HR_GPU_ENABLED
    fermion_force_gpu_apply(&v, uf, sig, pm, eps);
#endif
    return;
  }
  _OMP_MASTER_FOR(&glattice, ix) {
    ff_site_apply(pm, &v, uf, sig, ix, eps);
  }
}
