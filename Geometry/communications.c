/* communications.c -- global reductions and broadcasts over all processes (sums, maxima,
 * minima, barrier); without MPI they do nothing. */
#include "communications.h"
#include "hr_core.h"

#if HR_WITH_MPI
/* The communicator of reductions, or MPI_COMM_NULL when MPI is not running. */
static MPI_Comm reduction_comm(void) {
  if (!hr_mpi_running()) return MPI_COMM_NULL;
  return hr_cart_comm != MPI_COMM_NULL ? hr_cart_comm : MPI_COMM_WORLD;
}

static void allreduce(void *d, int n, MPI_Datatype type, MPI_Op op) {
  MPI_Comm comm = reduction_comm();
  if (comm != MPI_COMM_NULL && n > 0) MPI_Allreduce(MPI_IN_PLACE, d, n, type, op, comm);
}

static void broadcast(void *d, int n, MPI_Datatype type) {
  MPI_Comm comm = reduction_comm();
  if (comm != MPI_COMM_NULL && n > 0) MPI_Bcast(d, n, type, 0, comm);
}

void global_sum(double *d, int n) { allreduce(d, n, MPI_DOUBLE, MPI_SUM); }
void global_sum_int(int *d, int n) { allreduce(d, n, MPI_INT, MPI_SUM); }
void global_sum_long(long long *d, int n) { allreduce(d, n, MPI_LONG_LONG, MPI_SUM); }
void global_max(double *d, int n) { allreduce(d, n, MPI_DOUBLE, MPI_MAX); }
void global_max_int(int *d, int n) { allreduce(d, n, MPI_INT, MPI_MAX); }
void global_min(double *d, int n) { allreduce(d, n, MPI_DOUBLE, MPI_MIN); }
void bcast(double *d, int n) { broadcast(d, n, MPI_DOUBLE); }
void bcast_int(int *d, int n) { broadcast(d, n, MPI_INT); }
void global_barrier(void) {
  MPI_Comm comm = reduction_comm();
  if (comm != MPI_COMM_NULL) MPI_Barrier(comm);
}
#else
void global_sum(double *d, int n) { (void)d, (void)n; }
void global_sum_int(int *d, int n) { (void)d, (void)n; }
void global_sum_long(long long *d, int n) { (void)d, (void)n; }
void global_max(double *d, int n) { (void)d, (void)n; }
void global_max_int(int *d, int n) { (void)d, (void)n; }
void global_min(double *d, int n) { (void)d, (void)n; }
void bcast(double *d, int n) { (void)d, (void)n; }
void bcast_int(int *d, int n) { (void)d, (void)n; }
void global_barrier(void) {}
#endif
