/* communications.h -- the process grid's communicator and global reductions / broadcasts
 * over all processes (without MPI they do nothing).
 * Implemented in: Geometry/communications.c, Geometry/geometry_init.c. */
#ifndef COMMUNICATIONS_H
#define COMMUNICATIONS_H

#include <stddef.h>

#include "geometry.h"

#if HR_WITH_MPI
#include <mpi.h>
/* The periodic Cartesian communicator of the process grid (NP_T x NP_X x NP_Y x NP_Z),
 * created by geometry_init; ranks are those of MPI_COMM_WORLD. */
extern MPI_Comm hr_cart_comm;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* In-place sums, maxima and minima over all processes of n values. */
void global_sum(double *d, int n);
void global_sum_int(int *d, int n);
void global_sum_long(long long *d, int n);
void global_max(double *d, int n);
void global_max_int(int *d, int n);
void global_min(double *d, int n);
/* Copy n values of rank 0 to every process. */
void bcast(double *d, int n);
void bcast_int(int *d, int n);
/* Wait until every process arrives. */
void global_barrier(void);

#ifdef __cplusplus
}
#endif

#endif
