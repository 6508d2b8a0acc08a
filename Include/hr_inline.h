/* hr_inline.h -- qualifiers for functions shared by host code, CUDA device code and the
 * emulated GPU backend: HR_INLINE marks per-site mathematics usable everywhere. */
#ifndef HR_INLINE_H
#define HR_INLINE_H

#ifdef __CUDACC__
#define HR_INLINE __host__ __device__ static inline
#define HR_HOST_DEVICE __host__ __device__
#else
#define HR_INLINE static inline
#define HR_HOST_DEVICE
#endif

/* Token pasting that expands its arguments first. */
#define HR_CAT_(a, b) a##b
#define HR_CAT(a, b) HR_CAT_(a, b)

#endif
