/* field_gpu_kernels.c -- device kernels of Memory/: gathering the send sites of a halo
 * exchange into the packed send area. Written in the common subset of C11 and CUDA C++: the
 * host compiler builds it for the emulated backend, nvcc through field_gpu_kernels_cuda.cu for
 * CUDA; CPU builds compile nothing from it. */
#include "hr_build_config.h"

#if HR_GPU_BACKEND != HR_GPU_NONE
#include "field_pack.h"
#include "gpu.h"

/* 16-byte unit (one double-precision complex number). */
typedef struct {
  double re, im;
} hr_unit16;

/* One thread per send site: copy its nu units from the master site to the packed area. */
#define HR_PACK_KERNEL_(U)                                                                     \
  HR_KERNEL(pack_kernel_##U, const hr_pack_entry *pack, int nsend, int nu, const U *src,        \
            U *dst) {                                                                          \
    HR_THREAD_LOOP(t) {                                                                        \
      const int j = HR_THREAD_INDEX(t);                                                        \
      if (j < nsend) {                                                                         \
        const hr_pack_entry e = pack[j];                                                       \
        const U *from = src + (size_t)e.src_off * (size_t)nu + e.src_in;                       \
        U *to = dst + (size_t)e.dst_off * (size_t)nu + e.dst_in;                               \
        for (int c = 0; c < nu; c++)                                                           \
          to[(size_t)c * (size_t)e.dst_stride] = from[(size_t)c * (size_t)e.src_stride];       \
      }                                                                                        \
    }                                                                                          \
  }
HR_PACK_KERNEL_(float)
HR_PACK_KERNEL_(double)
HR_PACK_KERNEL_(hr_unit16)
#undef HR_PACK_KERNEL_

void hr_field_gpu_pack(const hr_pack_entry *pack, int nsend, int units_per_site,
                       size_t unit_bytes, const void *gpu, void *send) {
  switch (unit_bytes) {
  case sizeof(float):
    HR_TUNED_LAUNCH(pack_kernel_float, nsend, HR_TUNE_STREAMING, pack, nsend, units_per_site,
                    (const float *)gpu, (float *)send);
    break;
  case sizeof(double):
    HR_TUNED_LAUNCH(pack_kernel_double, nsend, HR_TUNE_STREAMING, pack, nsend, units_per_site,
                    (const double *)gpu, (double *)send);
    break;
  default:
    HR_TUNED_LAUNCH(pack_kernel_hr_unit16, nsend, HR_TUNE_STREAMING, pack, nsend,
                    units_per_site, (const hr_unit16 *)gpu, (hr_unit16 *)send);
    break;
  }
}
#else
/* Nothing to build without a GPU backend. */
typedef int hr_field_gpu_kernels_unused;
#endif
