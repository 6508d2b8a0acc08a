/* hr_inline.h -- qualifiers for functions shared by host code, CUDA device code and the
 * emulated GPU backend: HR_INLINE marks per-site mathematics usable everywhere;
 * HR_GPU_LOAD_BARRIER orders a kernel's loads (device code only).
 * Implemented in: LibHR/Core (header only). */
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

/* In device code, a block-scope memory fence: ptxas does not move the thread's loads across
 * it, so a kernel can keep the loads of a later phase (an epilogue, one half of a block) from
 * being hoisted into an earlier one, where they would raise the register pressure and spill
 * (the Dirac kernels, Doc/gpu.md). Nothing in host code and the emulated backend. */
#ifdef __CUDA_ARCH__
#define HR_GPU_LOAD_BARRIER() __threadfence_block()
#else
#define HR_GPU_LOAD_BARRIER() ((void)0)
#endif

/* Full unrolling of a short loop with a compile-time trip count in device code, placed before
 * the loop: an array indexed by its counter then stays in registers (indexed at run time it
 * goes to a stack frame in local memory). Nothing on the host (the device pass of nvcc only:
 * its host compiler does not know the pragma). */
#ifdef __CUDA_ARCH__
#define HR_DEVICE_UNROLL _Pragma("unroll")
#else
#define HR_DEVICE_UNROLL
#endif

/* Full unrolling of a short loop with a compile-time trip count in device code and in host C
 * code (gcc): for per-site code whose iterations are independent chains (rows of a matrix
 * product), which the CPU then overlaps. Nothing in nvcc's host pass. */
#if defined(__CUDA_ARCH__)
#define HR_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__CUDACC__) && !defined(__clang__)
#define HR_UNROLL _Pragma("GCC unroll 16")
#else
#define HR_UNROLL
#endif

#endif
