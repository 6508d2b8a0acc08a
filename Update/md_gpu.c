/* md_gpu.c -- kernels of the GPU path of the molecular dynamics and their launchers
 * (md_gpu.h): one thread per master site of a piece updates its four links with
 * md_link_update, the function the CPU loop uses. Written in the common subset of C11 and
 * CUDA C++: the host compiler builds it for the emulated backend, nvcc through
 * md_gpu_cuda.cu; CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "md_gpu.h"
#include "md_sites.h"
#include "reduction.h"

HR_KERNEL(md_links_kernel, suNg *u, const suNg_algebra_vector *p, int n, double eps) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      for (int mu = 0; mu < 4; mu++) {
        suNg link, e, updated;
        suNg_algebra_vector mom;
        read_gpu_suNg_algebra_vector(n, &mom, p, i, mu);
        md_link_step(&e, &mom, eps); /* md_link_update, with the link read once e is made */
        HR_GPU_LOAD_BARRIER();
        read_gpu_suNg(n, &link, u, i, mu);
        suNg_mul(&updated, &e, &link);
        write_gpu_suNg(n, &updated, u, i, mu);
      }
    }
  }
}

void md_gpu_update_links(suNg_field *u, const suNg_av_field *p, double eps) {
  _PIECE_FOR(u->type, ixp) {
    const int n = _PIECE_LENGTH(u->type, ixp);
    HR_TUNED_LAUNCH(md_links_kernel, n, HR_TUNE_STREAMING, _GPU_4FIELD_BLK(u, ixp),
                    _GPU_4FIELD_BLK(p, ixp), n, eps);
  }
}

HR_KERNEL(md_kinetic_kernel, const suNg_algebra_vector *p, int n, double *k) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      suNg_algebra_vector mom[4];
      for (int mu = 0; mu < 4; mu++) read_gpu_suNg_algebra_vector(n, &mom[mu], p, i, mu);
      k[i] = md_site_momentum_sqnorm(mom);
    }
  }
}

double md_gpu_kinetic(const suNg_av_field *p) {
  const geometry_descriptor *g = p->type;
  const size_t n = (size_t)geometry_field_size(g, HR_LAYOUT_GAUGE);
  static double *dev = NULL;
  static size_t dev_n = 0;
  if (dev_n < n) {
    hr_gpu_free(dev);
    dev = (double *)hr_gpu_alloc(n * sizeof(double));
    dev_n = n;
  }
  sync_gpu_suNg_av_field(p);
  _PIECE_FOR(g, ixp) {
    const int len = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(md_kinetic_kernel, len, HR_TUNE_STREAMING, _GPU_4FIELD_BLK(p, ixp), len,
                    dev + (g->master_start[ixp] - g->master_shift));
  }
  double s; /* summed on the device: a few numbers come to the host */
  hr_gpu_sum_sites(&s, g, dev, 1);
  return s;
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_md_gpu_unused;
#endif
