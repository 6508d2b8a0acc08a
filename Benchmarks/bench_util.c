/* bench_util.c -- wall clock, STREAM triad and thread control shared by the benchmarks. */
#include "bench_util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "communications.h"
#include "geometry.h"
#include "gpu.h"
#include "host_memory.h"
#include "hr_core.h"
#ifdef _OPENMP
#include <omp.h>
#endif

double bench_wtime(void) {
#if HR_WITH_MPI
  return MPI_Wtime();
#else
  return hr_wtime();
#endif
}

int bench_set_threads(int n) {
#ifdef _OPENMP
  if (n > 0) omp_set_num_threads(n);
#else
  (void)n;
#endif
  return hr_nthreads();
}

double bench_stream_triad(size_t bytes_per_array, int passes) {
  const long n = (long)(bytes_per_array / sizeof(double));
  const size_t bytes = (size_t)(n > 0 ? n : 0) * sizeof(double);
  /* on the pages the library's fields use (huge pages unless memory:huge_pages = off) */
  const int ok = n > 0;
  double *a = ok ? hr_host_alloc(bytes, "the triad") : NULL;
  double *b = ok ? hr_host_alloc(bytes, "the triad") : NULL;
  double *c = ok ? hr_host_alloc(bytes, "the triad") : NULL;
  double best = 1e30;
  if (ok) {
    HR_OMP_PRAGMA(omp parallel for schedule(static))
    for (long i = 0; i < n; i++) {
      a[i] = 0.;
      b[i] = 1.;
      c[i] = 2.;
    }
    for (int p = 0; p < passes; p++) {
      const double s = 0.5 + p;
      global_barrier();
      const double t0 = bench_wtime();
      HR_OMP_PRAGMA(omp parallel for schedule(static))
      for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
      global_barrier();
      double t = bench_wtime() - t0;
      global_max(&t, 1);
      if (t < best) best = t;
    }
  }
  double gbs = ok && best > 0 ? 3.0 * sizeof(double) * (double)n / best * 1e-9 : 0.0;
  global_sum(&gbs, 1);
  hr_host_free(a);
  hr_host_free(b);
  hr_host_free(c);
  return gbs;
}

double bench_stream_read(size_t bytes, int passes) {
  const long n = (long)(bytes / sizeof(double));
  const int ok = n > 0;
  double *a = ok ? hr_host_alloc((size_t)n * sizeof(double), "the read stream") : NULL;
  double best = 1e30;
  if (ok) {
    HR_OMP_PRAGMA(omp parallel for schedule(static))
    for (long i = 0; i < n; i++) a[i] = 1.0 + 1e-9 * (double)(i % 1000);
    volatile double sink = 0;
    const long n4 = n / 4;
    for (int p = 0; p < passes; p++) {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0; /* four chains: bound by memory, not by adds */
      global_barrier();
      const double t0 = bench_wtime();
      HR_OMP_PRAGMA(omp parallel for schedule(static) reduction(+ : s0, s1, s2, s3))
      for (long i = 0; i < n4; i++) {
        s0 += a[4 * i] * a[4 * i];
        s1 += a[4 * i + 1] * a[4 * i + 1];
        s2 += a[4 * i + 2] * a[4 * i + 2];
        s3 += a[4 * i + 3] * a[4 * i + 3];
      }
      double t = bench_wtime() - t0;
      global_max(&t, 1);
      sink = s0 + s1 + s2 + s3;
      if (t < best) best = t;
    }
    (void)sink;
  }
  double gbs = ok && best > 0 ? sizeof(double) * 4.0 * (double)(n / 4) / best * 1e-9 : 0.0;
  global_sum(&gbs, 1);
  hr_host_free(a);
  return gbs;
}

/* 32 bytes of doubles: the vectors of the site-stream probe (GNU vector extension). */
typedef double bench_v4 __attribute__((vector_size(32)));

double bench_stream_sites(size_t read_bytes, size_t write_bytes, long sites, int work,
                          int streams, int passes) {
  read_bytes = read_bytes / 32 * 32;
  write_bytes = write_bytes / 32 * 32;
  const int ok = sites > 0 && read_bytes > 0 && write_bytes > 0;
  char *r = ok ? hr_host_alloc((size_t)sites * read_bytes, "the site stream") : NULL;
  char *w = ok ? hr_host_alloc((size_t)sites * write_bytes, "the site stream") : NULL;
  double best = 1e30;
  if (ok) {
    HR_OMP_PRAGMA(omp parallel for schedule(static))
    for (long x = 0; x < sites; x++) { /* first touch by the threads that stream them */
      for (size_t o = 0; o < read_bytes; o += sizeof(double)) {
        const double v = 1e-3 * (double)(o % 7);
        memcpy(r + (size_t)x * read_bytes + o, &v, sizeof v);
      }
      memset(w + (size_t)x * write_bytes, 0, write_bytes);
    }
    const bench_v4 f = {0.5, 0.5, 0.5, 0.5};
    for (int p = 0; p < passes; p++) {
      global_barrier();
      const double t0 = bench_wtime();
      HR_OMP_PRAGMA(omp parallel) {
        long lo, hi;
        hr_thread_share(0, sites, &lo, &hi);
        for (long i = 0; i < hi - lo; i++) {
          const long x = streams == 2 ? hr_interleaved_index(lo, hi, i) : lo + i;
          const char *rs = r + (size_t)x * read_bytes;
          bench_v4 acc[4] = {{0}}; /* four chains: the loads, not the additions, set the pace */
          for (size_t o = 0, k = 0; o < read_bytes; o += sizeof(bench_v4), k++) {
            bench_v4 v;
            memcpy(&v, rs + o, sizeof v);
            acc[k % 4] += v;
          }
          for (int j = 0; j < work; j++) /* `work` dependent multiply-adds on each chain */
            for (int c = 0; c < 4; c++) acc[c] = acc[c] * f + acc[(c + 1) % 4];
          const bench_v4 sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
          for (size_t o = 0; o < write_bytes; o += sizeof sum)
            memcpy(w + (size_t)x * write_bytes + o, &sum, sizeof sum);
        }
      }
      double t = bench_wtime() - t0;
      global_max(&t, 1);
      if (t < best) best = t;
    }
  }
  double gbs = ok && best > 0 ? (double)(read_bytes + write_bytes) * (double)sites / best * 1e-9
                              : 0.0;
  global_sum(&gbs, 1);
  hr_host_free(r);
  hr_host_free(w);
  return gbs;
}

double bench_device_copy(size_t bytes, int passes) {
  double gbs = 0.0;
#if HR_GPU_ENABLED
  void *a = hr_gpu_alloc(bytes), *b = hr_gpu_alloc(bytes);
  if (a != NULL && b != NULL) {
    hr_gpu_zero(a, bytes);
    hr_gpu_zero(b, bytes);
    hr_gpu_copy_on_device(b, a, bytes); /* warm-up */
    double best = 1e30;
    for (int p = 0; p < passes; p++) {
      hr_gpu_synchronize();
      global_barrier();
      const double t0 = bench_wtime();
      hr_gpu_copy_on_device(p % 2 ? a : b, p % 2 ? b : a, bytes);
      hr_gpu_synchronize();
      double t = bench_wtime() - t0;
      global_max(&t, 1);
      if (t < best) best = t;
    }
    gbs = best > 0 ? 2.0 * (double)bytes / best * 1e-9 : 0.0;
  }
  hr_gpu_free(a);
  hr_gpu_free(b);
#else
  (void)bytes;
  (void)passes;
#endif
  global_sum(&gbs, 1);
  return gbs;
}
