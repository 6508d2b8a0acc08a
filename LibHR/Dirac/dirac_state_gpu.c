/* dirac_state_gpu.c -- kernels of the GPU path of the derived state of the Dirac operators
 * (dirac_state_gpu.h): one thread per master site of a piece of glattice represents its four
 * links with their boundary phases (dirac_site_represent, the function of the host loop) and
 * rounds them to single precision; one thread per master site builds its clover blocks,
 * inverses and log det (dirac_site_clover, the function of the host loop); one thread per
 * master site zeroes a spinor on the outer slices of open time boundaries. Written in the
 * common subset of C11 and CUDA C++: the host compiler builds it for the emulated backend, nvcc
 * through dirac_state_gpu_cuda.cu; CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include <string.h>

#include "dirac_state_gpu.h"

HR_KERNEL(ds_represent_kernel, int n, suNf *uf, suNf_flt *uf_flt, const suNg *u,
          const uint64_t *glb, dirac_phases ph) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      for (int mu = 0; mu < 4; mu++) {
        suNg l;
        suNf r;
        suNf_flt rf;
        read_gpu_suNg(n, &l, u, i, mu);
        dirac_site_represent(&r, &l, dirac_site_phase(&ph, glb[i], mu));
        suNf_to_flt(&rf, &r);
        write_gpu_suNf(n, &r, uf, i, mu);
        write_gpu_suNf_flt(n, &rf, uf_flt, i, mu);
      }
    }
  }
}

void dirac_gpu_represent(suNf *uf, suNf_flt *uf_flt, const suNg *u, const dirac_phases *ph) {
  const geometry_descriptor *g = &glattice;
  const uint64_t *glb = hr_gpu_global_index();
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    const int e = g->master_start[ixp] - g->master_shift;
    HR_TUNED_LAUNCH(ds_represent_kernel, n, HR_TUNE_STREAMING, n, uf + 4 * e, uf_flt + 4 * e,
                    u + 4 * e, glb + e, *ph);
  }
}

HR_KERNEL(ds_clover_kernel, int n, int e0, suNf_clover *blk, suNf_clover *inv,
          suNf_clover_flt *blk_flt, suNf_clover_flt *inv_flt, double *logdet,
          dirac_links_view v, const dirac_sigma_blocks *sig, double csw, double m0) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      /* each unit written where it is computed (gpu.h layout: unit u of element i at u n + i) */
      const dirac_clover_sink blk_sink = {(hr_complex *)blk + i, (hr_complex_flt *)blk_flt + i,
                                          (size_t)n};
      const dirac_clover_sink inv_sink = {(hr_complex *)inv + i, (hr_complex_flt *)inv_flt + i,
                                          (size_t)n};
      logdet[i] = dirac_site_clover(&blk_sink, &inv_sink, &v, sig, csw, m0, v.shift + e0 + i);
    }
  }
}

/* The sigma blocks in device memory (the kernel reads the plane of a run-time index): uploaded
 * on first use and again only when they change (they depend on the gamma matrices alone). */
static dirac_sigma_blocks *dev_sig = NULL, dev_sig_host;

void dirac_gpu_clover(suNf_clover *blk, suNf_clover *inv, suNf_clover_flt *blk_flt,
                      suNf_clover_flt *inv_flt, double *logdet, const dirac_links_view *v,
                      const dirac_sigma_blocks *sig, double csw, double m0) {
  if (dev_sig == NULL || memcmp(&dev_sig_host, sig, sizeof *sig) != 0) {
    if (dev_sig == NULL) dev_sig = (dirac_sigma_blocks *)hr_gpu_alloc(sizeof *dev_sig);
    hr_gpu_copy_to_device(dev_sig, sig, sizeof *sig);
    dev_sig_host = *sig;
  }
  const geometry_descriptor *g = &glattice;
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    const int e = g->master_start[ixp] - g->master_shift;
    HR_TUNED_LAUNCH(ds_clover_kernel, n, HR_TUNE_STREAMING, n, e, blk + e, inv + e, blk_flt + e,
                    inv_flt + e, logdet + e, *v, dev_sig, csw, m0);
  }
}

HR_KERNEL(ds_zero_outer_slices_kernel, int n, suNf_spinor *s, const int *time, int glb_t) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n && dirac_open_outer_slice(time[i], glb_t)) {
      suNf_spinor zero;
      suNf_spinor_zero(&zero);
      write_gpu_suNf_spinor(n, &zero, s, i, 0);
    }
  }
}

void dirac_gpu_zero_outer_slices(spinor_field *s, const int *time) {
  const geometry_descriptor *g = s->type;
  sync_gpu_spinor_field(s); /* only some sites are written: the others must be current */
  gpu_write_spinor_field(s);
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(ds_zero_outer_slices_kernel, n, HR_TUNE_STREAMING, n, _GPU_FIELD_BLK(s, ixp),
                    time + g->master_start[ixp] - glattice.master_shift, GLB_T);
  }
}

#else
/* Nothing to build without a GPU backend. */
typedef int hr_dirac_state_gpu_unused;
#endif
