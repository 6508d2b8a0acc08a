/* observables.c -- plaquettes, Polyakov loop and the clover-leaf E and Q of a gauge field:
 * the CPU path (OpenMP over sites of the host copy) and the host side of the GPU path
 * (observables_gpu.c: kernels over the device copy, one launch per piece), chosen by
 * hr_backend_current(). Both evaluate the per-site functions of observables_sites.h,
 * write one value per site and sum the values with the same exact summation, so the two
 * paths give the same results bit for bit where the compilers make the same floating-point
 * operations. Definitions: observables.h and Doc/archives_and_observables.md. */
#include "observables.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "communications.h"
#include "halo_exchange.h"
#include "geometry.h"
#include "gpu.h"
#include "hr_error.h"
#include "linear_algebra.h"
#include "observables_gpu.h"
#include "observables_sites.h"
#include "reduction.h"
#include "suN.h"
/* ------------------------------------------------------------------ reproducible sums */

/* Sums over sites follow the reduction policy of the library (reduction.h): exact, so the
 * same bits for any thread count, process grid and backend. The per-site arrays below hold
 * zeros outside the master sites. */

/* k zeroed arrays (one allocation) of n doubles, one per stored site of u's geometry, indexed
 * by ix - master_shift. */
static double *site_values_new(const suNg_field *u, int k, long *n) {
  *n = geometry_field_size(u->type, HR_LAYOUT_GAUGE);
  double *v = (double *)calloc((size_t)k * (size_t)*n, sizeof *v);
  if (v == NULL) hr_error("out of memory (%ld doubles)", (long)k * *n);
  return v;
}
#define SITE_VALUE(v, u, ix) ((v)[(ix) - (u)->type->master_shift])

/* ------------------------------------------------------------------ site tables */

/* Tables of the current geometry (rebuilt when geometry_generation() changes): the global
 * time of every stored element of glattice (host), and in GPU builds its device copy plus
 * device scratch for the per-site values; the piece and neighbour tables of the device side
 * are the shared ones of gpu.h (hr_gpu_sites_of, hr_gpu_iup, ...). */
static struct {
  int generation; /* geometry_generation() the tables belong to; -1: none */
  int n;          /* stored elements of glattice (gsize_gauge) */
  int *time;      /* host: global time of element e */
#if HR_GPU_ENABLED
  int *dev_time;
  double *dev_values; /* 4 n doubles */
#endif
} tab = {-1, 0, NULL
#if HR_GPU_ENABLED
         ,
         NULL, NULL
#endif
};

static void tables_free(void) {
  free(tab.time);
  tab.time = NULL;
#if HR_GPU_ENABLED
  hr_gpu_free(tab.dev_time);
  hr_gpu_free(tab.dev_values);
  tab.dev_time = NULL;
  tab.dev_values = NULL;
#endif
  tab.generation = -1;
  tab.n = 0;
}

/* Make the tables belong to the current geometry. */
static void tables_update(void) {
  hr_assert(geometry_initialized(), "gauge observables called before geometry_init");
  if (tab.generation == geometry_generation()) return;
  tables_free();
  const geometry_descriptor *g = &glattice;
  const int n = g->gsize_gauge;
  tab.n = n;
  tab.time = malloc((size_t)n * sizeof(int));
  if (tab.time == NULL) hr_error("out of memory for the observables' site tables");
  for (int e = 0; e < n; ++e) {
    int x[4];
    global_coordinates(x, e + g->master_shift);
    tab.time[e] = x[0];
  }
#if HR_GPU_ENABLED
  tab.dev_time = (int *)hr_gpu_alloc((size_t)n * sizeof(int));
  hr_gpu_copy_to_device(tab.dev_time, tab.time, (size_t)n * sizeof(int));
  tab.dev_values = (double *)hr_gpu_alloc(4 * (size_t)n * sizeof(double));
#endif
  tab.generation = geometry_generation();
}

/* Whether the calls run on the GPU path (hr_backend_current(), GPU builds only). */
static int use_gpu(void) { return HR_GPU_ENABLED && hr_backend_current() == HR_BACKEND_GPU; }

/* View of the host copy of u (made current first). */
static obs_gauge_view host_view(const suNg_field *u) {
  hr_assert(u->type == &glattice, "gauge observables: the links must live on glattice");
  tables_update();
  return gauge_view_of_host(sync_host_suNg_field(u), tab.time);
}

#if HR_GPU_ENABLED
/* View of the device copy of u (made current first); with halo, the device halo is refreshed
 * from the device masters (device exchange; the host halo is then stale). */
static obs_gauge_view device_view(const suNg_field *u, int halo) {
  hr_assert(u->type == &glattice, "gauge observables: the links must live on glattice");
  tables_update();
  sync_gpu_suNg_field(u);
  if (halo) {
    /* the exchange changes only the halo, which stands for values u already has */
    suNg_field *w = (suNg_field *)(uintptr_t)u;
    start_sendrecv_suNg_field(w);
    complete_sendrecv_suNg_field(w);
  }
  return gauge_view_of_device(u->gpu_ptr, tab.dev_time);
}

#endif

/* ------------------------------------------------------------------ plaquettes */

/* Exact global sum of (weighted) Re tr P over the plaquettes that `which` (OBS_PLAQ_*)
 * selects. */
static double plaquette_sum(const suNg_field *u, int which) {
  long n;
  double *v;
#if HR_GPU_ENABLED
  if (use_gpu()) {
    const obs_gauge_view dv = device_view(u, 1);
    n = tab.n;
    hr_gpu_zero(tab.dev_values, (size_t)n * sizeof(double));
    obs_gpu_plaquettes(tab.dev_values, &dv, u->type, which);
    double sum; /* the exact sum on the device: a few numbers come to the host */
    hr_gpu_sum_exact_n(&sum, tab.dev_values, n, 1);
    return sum;
  } else
#endif
  {
    const obs_gauge_view hv = host_view(u);
    v = site_values_new(u, 1, &n);
    _OMP_MASTER_FOR(u->type, ix) { SITE_VALUE(v, u, ix) = obs_site_plaquettes(&hv, ix, which); }
  }
  const double sum = global_sum_exact(v, n);
  free(v);
  return sum;
}

void avr_plaquette_parts(double *temporal, double *spatial, const suNg_field *u) {
  const double norm = 3.0 * NG * (double)GLB_VOLUME;
  *temporal = plaquette_sum(u, OBS_PLAQ_TEMPORAL) / norm;
  *spatial = plaquette_sum(u, OBS_PLAQ_SPATIAL) / norm;
}

double avr_plaquette(const suNg_field *u) {
  return plaquette_retr_sum(u) / (6.0 * NG * (double)GLB_VOLUME);
}

double plaquette_retr_sum(const suNg_field *u) { return plaquette_sum(u, OBS_PLAQ_ALL); }

double avr_plaquette_open_bc(const suNg_field *u) {
  return plaquette_sum(u, OBS_PLAQ_OPEN_BC) /
         (6.0 * NG * (double)GLB_X * GLB_Y * GLB_Z * (GLB_T - 1));
}

/* ------------------------------------------------------------------ Polyakov loop */

hr_complex polyakov_loop(const suNg_field *u) {
  const int gpu = use_gpu();
  const int vs = LOC_X * LOC_Y * LOC_Z;
  suNg *line = malloc((size_t)vs * sizeof *line);
  if (line == NULL) hr_error("out of memory (%d matrices)", vs);
  /* The product U_0(0) U_0(1) ... U_0(GLB_T-1) is formed left to right in every case, so its
   * rounding does not depend on the process grid: with NP_T > 1 the process at time
   * coordinate c receives the products of the processes below, multiplies its own links
   * onto them one by one and passes them up. The links are local: no halo is needed. */
  int start_new = 1;
#if HR_WITH_MPI
  const int count = vs * NG * NG * 2;
  if (NP_T > 1 && COORD[0] > 0) {
    MPI_Recv(line, count, MPI_DOUBLE, PROC_DN[0], 701, hr_cart_comm, MPI_STATUS_IGNORE);
    start_new = 0;
  }
#endif
  /* the last process in time holds the full products; the others add zeros */
  const int last = COORD[0] == NP_T - 1;
  double *re = (double *)calloc(2 * (size_t)vs, sizeof *re), *im = re + vs;
  if (re == NULL) hr_error("out of memory (%d doubles)", 2 * vs);
#if HR_GPU_ENABLED
  if (gpu) {
    const obs_gauge_view dv = device_view(u, 0);
    suNg *dline = (suNg *)hr_gpu_alloc((size_t)vs * sizeof *dline);
    double *dre = tab.dev_values, *dim = dre + vs; /* vs <= n */
    if (!start_new) hr_gpu_copy_to_device(dline, line, (size_t)vs * sizeof *line);
    obs_gpu_polyakov(dline, last ? dre : NULL, last ? dim : NULL, &dv, hr_gpu_ipt(), vs, LOC_T,
                     start_new);
    if (!last) {
      hr_gpu_zero(dre, 2 * (size_t)vs * sizeof *re); /* the others add zeros */
      hr_gpu_copy_to_host(line, dline, (size_t)vs * sizeof *line); /* sent up the time axis */
    }
    hr_gpu_free(dline);
  } else
#endif
  {
    (void)gpu;
    const obs_gauge_view hv = host_view(u);
    HR_OMP_PRAGMA(omp parallel for schedule(static))
    for (int s = 0; s < vs; ++s) {
      obs_polyakov_line(&line[s], &hv, hr_ipt, vs, s, LOC_T, start_new);
      if (last) obs_trace_parts(&re[s], &im[s], &line[s]);
    }
  }
#if HR_WITH_MPI
  if (NP_T > 1 && COORD[0] < NP_T - 1)
    MPI_Send(line, count, MPI_DOUBLE, PROC_UP[0], 701, hr_cart_comm);
#endif
  free(line);
  double tr[2];
#if HR_GPU_ENABLED
  if (gpu) { /* the exact sums on the device */
    hr_gpu_sum_exact_n(&tr[0], tab.dev_values, vs, 1);
    hr_gpu_sum_exact_n(&tr[1], tab.dev_values + vs, vs, 1);
  } else
#endif
  {
    tr[0] = global_sum_exact(re, vs);
    tr[1] = global_sum_exact(im, vs);
  }
  free(re);
  const double norm = (double)NG * GLB_X * GLB_Y * GLB_Z;
  return hr_cmplx(tr[0] / norm, tr[1] / norm);
}

/* ------------------------------------------------------------------ E, Q, Wact */

gauge_action_observables gauge_action_observables_compute(const suNg_field *u, int open_bc_t) {
  long n;
  double *w, *e, *q;
#if HR_GPU_ENABLED
  if (use_gpu()) {
    const obs_gauge_view dv = device_view(u, 1);
    n = tab.n;
    double *dw = tab.dev_values, *de = dw + n, *dq = de + n;
    hr_gpu_zero(tab.dev_values, 3 * (size_t)n * sizeof(double));
    obs_gpu_action(dw, de, dq, &dv, u->type, open_bc_t);
    gauge_action_observables r; /* the exact sums on the device */
    hr_gpu_sum_exact_n(&r.wact, dw, n, 1);
    hr_gpu_sum_exact_n(&r.yact, de, n, 1);
    hr_gpu_sum_exact_n(&r.qtop, dq, n, 1);
    return r;
  } else
#endif
  {
    const obs_gauge_view hv = host_view(u);
    w = site_values_new(u, 3, &n);
    e = w + n;
    q = e + n;
    _OMP_MASTER_FOR(u->type, ix) {
      obs_site_action(&SITE_VALUE(w, u, ix), &SITE_VALUE(e, u, ix), &SITE_VALUE(q, u, ix), &hv, ix,
                      open_bc_t);
    }
  }
  gauge_action_observables r;
  r.wact = global_sum_exact(w, n);
  r.yact = global_sum_exact(e, n);
  r.qtop = global_sum_exact(q, n);
  free(w);
  return r;
}

double *gauge_flow_site_parts(const suNg_field *u, int open_bc_t, long *n) {
  double *r = site_values_new(u, 4, n);
#if HR_GPU_ENABLED
  if (use_gpu()) {
    const obs_gauge_view dv = device_view(u, 1);
    hr_gpu_zero(tab.dev_values, 4 * (size_t)tab.n * sizeof(double));
    obs_gpu_flow_parts(tab.dev_values, &dv, u->type, open_bc_t);
    hr_gpu_copy_to_host(r, tab.dev_values, 4 * (size_t)*n * sizeof(double));
    return r;
  }
#endif
  const obs_gauge_view hv = host_view(u);
  _OMP_MASTER_FOR(u->type, ix) {
    obs_site_flow_parts(&r[4 * (ix - u->type->master_shift)], &hv, ix, open_bc_t);
  }
  return r;
}
