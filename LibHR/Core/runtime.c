/* runtime.c -- what every layer asks of the running process: whether MPI runs, this rank and
 * the number of ranks, OpenMP threads and each thread's share of a range, wall-clock time.
 * Calls nothing else of LibHR. */
#include "hr_core.h"

#include <time.h>

#if HR_WITH_MPI
#include <mpi.h>
#endif
#if HR_WITH_OPENMP
#include <omp.h>
#endif

int hr_mpi_running(void) {
#if HR_WITH_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
#else
  return 0;
#endif
}

double hr_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int hr_rank(void) {
  int rank = 0;
#if HR_WITH_MPI
  if (hr_mpi_running()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
  return rank;
}

int hr_nranks(void) {
  int size = 1;
#if HR_WITH_MPI
  if (hr_mpi_running()) MPI_Comm_size(MPI_COMM_WORLD, &size);
#endif
  return size;
}

int hr_nthreads(void) {
#if HR_WITH_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void hr_thread_share(long begin, long end, long *lo, long *hi) {
#if HR_WITH_OPENMP
  const long nt = omp_get_num_threads(), t = omp_get_thread_num();
#else
  const long nt = 1, t = 0;
#endif
  *lo = begin + (end - begin) * t / nt;
  *hi = begin + (end - begin) * (t + 1) / nt;
}
