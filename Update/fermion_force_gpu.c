/* fermion_force_gpu.c -- kernels of the GPU path of the fermion force and their launchers
 * (fermion_force_gpu.h): one thread per master site of a piece calls the site function of
 * fermion_force_sites.h that the CPU loop of fermion_force.c calls. Written in the common
 * subset of C11 and CUDA C++: the host compiler builds it for the emulated backend, nvcc
 * through fermion_force_gpu_cuda.cu; CPU builds compile nothing from it. The light kernels
 * are HR_KERNEL_ANY_BLOCK (any block size, 64 registers); the hopping, clover-insertion and
 * apply kernels are HR_KERNEL (blocks of up to 256 threads, 128 registers: the tuner tries
 * only sizes they can launch), where 64 registers made them spill kilobytes. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
/* the kernels read the factors of the clover leaves where they use them (fermion_force_sites.h) */
#define FF_LEAF_READ_WHERE_USED 1
#include "fermion_force_gpu.h"

/* Declares ix, the site of thread t in a piece of n sites starting at first; the body runs
 * only for threads inside the piece. */
#define FF_SITE_LOOP(ix, first, n)                                                             \
  HR_THREAD_LOOP(t)                                                                            \
  for (int ix = (first) + HR_THREAD_INDEX(t); ix < (first) + (n); ix = (first) + (n))

/* Run kernel_ on every master piece of geometry g_ (arguments: ..., first site, length). */
#define FF_PIECE_LAUNCH(g_, kernel_, ...)                                                      \
  _PIECE_FOR((g_), ixp) {                                                                      \
    const int n = _PIECE_LENGTH((g_), ixp);                                                    \
    HR_TUNED_LAUNCH(kernel_, n, HR_TUNE_STREAMING, __VA_ARGS__, (g_)->master_start[ixp], n);   \
  }

HR_KERNEL_ANY_BLOCK(ff_zero_kernel, fermion_force_view v, suNf *sig, ff_clover_acc z, int has_z,
          int first, int n) {
  FF_SITE_LOOP(ix, first, n) {
    if (has_z) /* two calls, not a pointer that may be NULL: that would put z on the stack */
      ff_site_zero(sig, &z, &v, ix);
    else
      ff_site_zero(sig, NULL, &v, ix);
  }
}

void fermion_force_gpu_zero(const fermion_force_view *v, suNf *sig, const ff_clover_acc *z) {
  ff_clover_acc zz = {{NULL, NULL}};
  if (z != NULL) zz = *z;
  FF_PIECE_LAUNCH(&glattice, ff_zero_kernel, *v, sig, zz, z != NULL);
}

/* full (glattice tables) at the sites of a piece of part (part's own piece layout). */
HR_KERNEL_ANY_BLOCK(ff_assemble_kernel, suNf_spinor *full, hr_gpu_sites full_sites,
          const suNf_spinor *part, int first, int n) {
  FF_SITE_LOOP(ix, first, n) {
    suNf_spinor s;
    read_gpu_suNf_spinor(n, &s, part, ix - first, 0);
    HR_GPU_SITE_AT(full_sites, ix, e, off, len);
    write_gpu_suNf_spinor(len, &s, full + off, e - off, 0);
  }
}

void fermion_force_gpu_assemble(spinor_field *full, const spinor_field *even,
                                const spinor_field *odd) {
  const spinor_field *part[2] = {even, odd};
  const hr_gpu_sites full_sites = hr_gpu_sites_of(full->type);
  suNf_spinor *dst = gpu_write_spinor_field(full);
  for (int k = 0; k < 2; k++) {
    const spinor_field *f = part[k];
    sync_gpu_spinor_field(f);
    _PIECE_FOR(f->type, ixp) {
      const int n = _PIECE_LENGTH(f->type, ixp);
      HR_TUNED_LAUNCH(ff_assemble_kernel, n, HR_TUNE_STREAMING, dst, full_sites,
                      _GPU_FIELD_BLK(f, ixp), f->type->master_start[ixp], n);
    }
  }
}

/* The hopping terms, and with the clover term (ff_eo_clover_kernel): two instantiations, not a
 * run-time choice (a pointer to z that may be NULL would put z on the stack). */
HR_KERNEL(ff_eo_kernel, fermion_force_view v, const suNf_spinor *L, const suNf_spinor *R,
          suNf *sig, hr_complex chop, int first, int n) {
  FF_SITE_LOOP(ix, first, n) {
    ff_site_eo(sig, NULL, &v, L, R, ix, chop, hr_cmplx(0, 0));
  }
}
HR_KERNEL(ff_eo_clover_kernel, fermion_force_view v, const suNf_spinor *L, const suNf_spinor *R,
          suNf *sig, ff_clover_acc z, hr_complex chop, hr_complex cclover, int first, int n) {
  FF_SITE_LOOP(ix, first, n) {
    ff_site_eo(sig, &z, &v, L, R, ix, chop, cclover);
  }
}

void fermion_force_gpu_eo(const fermion_force_view *v, const suNf_spinor *L,
                          const suNf_spinor *R, suNf *sig, const ff_clover_acc *z,
                          hr_complex chop, hr_complex cclover) {
  if (z != NULL) {
    FF_PIECE_LAUNCH(&glattice, ff_eo_clover_kernel, *v, L, R, sig, *z, chop, cclover);
  } else {
    FF_PIECE_LAUNCH(&glattice, ff_eo_kernel, *v, L, R, sig, chop);
  }
}

HR_KERNEL_ANY_BLOCK(ff_logdet_kernel, fermion_force_view v, const suNf_clover *inv, ff_clover_acc z,
          hr_complex cc, int first, int n) {
  FF_SITE_LOOP(ix, first, n) {
    ff_site_logdet(&z, &v, inv, ix, cc);
  }
}

void fermion_force_gpu_logdet(const fermion_force_view *v, const geometry_descriptor *g,
                              const suNf_clover *inv, const ff_clover_acc *z, hr_complex cc) {
  FF_PIECE_LAUNCH(g, ff_logdet_kernel, *v, inv, *z, cc);
}

HR_KERNEL_ANY_BLOCK(ff_antihermitian_kernel, fermion_force_view v, ff_clover_acc z, int first,
                    int n) {
  FF_SITE_LOOP(ix, first, n) {
    ff_site_antihermitian(&z, &v, ix);
  }
}

void fermion_force_gpu_antihermitian(const fermion_force_view *v, const ff_clover_acc *z) {
  FF_PIECE_LAUNCH(&glattice, ff_antihermitian_kernel, *v, *z);
}

HR_KERNEL(ff_clover_sigma_kernel, fermion_force_view v, const suNf *uf, ff_clover_acc z,
          suNf *sig, int first, int n) {
  FF_SITE_LOOP(ix, first, n) {
    ff_site_clover_sigma(sig, &v, uf, &z, ix);
  }
}

void fermion_force_gpu_clover_sigma(suNf *sig, const fermion_force_view *v, const suNf *uf,
                                    const ff_clover_acc *z) {
  FF_PIECE_LAUNCH(&glattice, ff_clover_sigma_kernel, *v, uf, *z, sig);
}

HR_KERNEL(ff_apply_kernel, fermion_force_view v, const suNf *uf, const suNf *sig,
          suNg_algebra_vector *p, double eps, int first, int n) {
  FF_SITE_LOOP(ix, first, n) {
    ff_site_apply(p, &v, uf, sig, ix, eps);
  }
}

void fermion_force_gpu_apply(const fermion_force_view *v, const suNf *uf, const suNf *sig,
                             suNg_algebra_vector *p, double eps) {
  FF_PIECE_LAUNCH(&glattice, ff_apply_kernel, *v, uf, sig, p, eps);
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_fermion_force_gpu_unused;
#endif
