/* gauge_action.c -- the gauge actions of gauge_action.h (Wilson plaquette + 2x1 rectangles,
 * any c1, any SU(NG)): the action as an exact sum of per-site terms, and the force update
 * p -= eps F. hr_backend_current() chooses the path: CPU (OpenMP loops over the master sites
 * of the host copies) or GPU (one kernel launch per piece over the device copies, halos
 * exchanged on the device, gauge_action_gpu.c); both run the per-site functions of
 * gauge_action_sites.h. With c1 != 0 the force first stores the 24 plaquette staples of every
 * master site in six intermediate link fields and exchanges their (depth-one) halo; the
 * rectangle staples are then products of links and staples at most one step away, so the
 * ordinary gauge halo serves on any process grid (formulas: gauge_action_sites.h). */
#include "gauge_action.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "communications.h"
#include "halo_exchange.h"
#include "gauge_action_gpu.h"
#include "gauge_action_sites.h"
#include "gauge_view.h"
#include "geometry.h"
#include "gpu.h"
#include "hr_error.h"
#include "reduction.h"

/* ------------------------------------------------------------------ exact site sums */

/* Sum of the per-site values v[0 .. n-1] of this process over all processes: the reduction
 * policy of the library (reduction.h), exact, so the same bits on every grid and backend. */
static double ga_exact_global_sum(const double *v, long n) { return global_sum_exact(v, n); }

/* ------------------------------------------------------------------ scratch */

/* The six staple fields (force with c1 != 0) and, in GPU builds, the device arrays of the
 * per-site action terms; remade when geometry_generation() changes. */
static struct {
  int generation; /* geometry_generation() they belong to; -1: none */
  suNg_field *staples;
  int *time; /* open boundaries: global time of each master element of glattice */
#if HR_GPU_ENABLED
  double *dev_values; /* 2 n doubles */
  int *dev_time;      /* device copy of time */
#endif
} scratch = {-1, NULL, NULL
#if HR_GPU_ENABLED
             ,
             NULL, NULL
#endif
};

static void scratch_update(void) {
  hr_assert(geometry_initialized(), "gauge action called before geometry_init");
  if (scratch.generation == geometry_generation()) return;
  free_suNg_field(scratch.staples);
  scratch.staples = NULL;
  free(scratch.time);
  scratch.time = NULL;
#if HR_GPU_ENABLED
  hr_gpu_free(scratch.dev_values);
  scratch.dev_values = NULL;
  hr_gpu_free(scratch.dev_time);
  scratch.dev_time = NULL;
#endif
  scratch.generation = geometry_generation();
}

static suNg_field *staple_fields(void) {
  if (scratch.staples == NULL) scratch.staples = alloc_suNg_field(GA_STAPLE_FIELDS, &glattice);
  return scratch.staples;
}

/* The global time of every master element of glattice (host table; others 0). */
static const int *time_table(void) {
  if (scratch.time == NULL) {
    const long n = geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
    scratch.time = (int *)calloc((size_t)n, sizeof(int));
    if (scratch.time == NULL) hr_error("out of memory for the gauge action's time table");
    _MASTER_FOR(&glattice, ix) {
      int g[4];
      global_coordinates(g, ix);
      scratch.time[ix - glattice.master_shift] = g[0];
    }
  }
  return scratch.time;
}

#if HR_GPU_ENABLED
/* The device copy of time_table(). */
static const int *device_time_table(void) {
  if (scratch.dev_time == NULL) {
    const long n = geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
    const int *t = time_table();
    scratch.dev_time = (int *)hr_gpu_alloc((size_t)n * sizeof(int));
    hr_gpu_copy_to_device(scratch.dev_time, t, (size_t)n * sizeof(int));
  }
  return scratch.dev_time;
}

/* Whether the calls run on the GPU path (hr_backend_current(), GPU builds only). */
static int use_gpu(void) { return hr_backend_current() == HR_BACKEND_GPU; }

/* Device view of u, its device copy made current and its device halo refreshed (the
 * exchange only rewrites the halo with values u already has). */
static gauge_view device_links(const suNg_field *u, int open) {
  sync_gpu_suNg_field(u);
  suNg_field *w = (suNg_field *)u;
  start_sendrecv_suNg_field(w);
  complete_sendrecv_suNg_field(w);
  return gauge_view_of_device(u->gpu_ptr, open ? device_time_table() : NULL);
}
#endif

/* ------------------------------------------------------------------ action */

/* The per-site form of b (NULL: periodic). */
static ga_boundary site_boundary(const gauge_boundary *b) {
  ga_boundary g;
  g.open = b != NULL && b->open;
  g.cg = b != NULL ? b->cg : 1.0;
  return g;
}

double gauge_action(const suNg_field *u, double beta, double c1) {
  return gauge_action_bc(u, beta, c1, NULL);
}

void gauge_force_update(suNg_av_field *p, const suNg_field *u, double beta, double c1,
                        double eps) {
  gauge_force_update_bc(p, u, beta, c1, eps, NULL);
}

void gauge_zero_open_links(suNg_field *u) {
  suNg *l = host_write_suNg_field(u);
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    if (g[0] == GLB_T - 1) suNg_zero(&l[4 * (ix - sh)]);
  }
  sendrecv_suNg_field(u);
}

void gauge_zero_open_momenta(suNg_av_field *p) {
  hr_assert(p->type == &glattice, "gauge_zero_open_momenta: the momenta must live on glattice");
  scratch_update();
#if HR_GPU_ENABLED
  if (use_gpu()) {
    ga_fields f;
    memset(&f, 0, sizeof f); /* only the view's site tables and the momenta are used */
    f.u = gauge_view_of_device(NULL, device_time_table());
    f.mom = gpu_write_suNg_av_field(p);
    ga_gpu_zero_open_momenta(&f, &glattice);
    return;
  }
#endif
  const gauge_view v = gauge_view_of_host(NULL, time_table()); /* tables only */
  suNg_algebra_vector *mom = host_write_suNg_av_field(p);
  _OMP_MASTER_FOR(&glattice, ix) {
    if (ga_open_boundary_link(&v, ix, 0)) suNg_algebra_vector_zero(&mom[4 * (ix - v.shift)]);
  }
}

double gauge_action_bc(const suNg_field *u, double beta, double c1, const gauge_boundary *b) {
  hr_assert(u->type == &glattice, "gauge_action: the links must live on glattice");
  scratch_update();
  const ga_boundary gb = site_boundary(b);
  const int rect = c1 != 0.0;
  const long n = geometry_field_size(&glattice, HR_LAYOUT_GAUGE);
  double *plaq = (double *)calloc(2 * (size_t)n, sizeof(double)), *rects = plaq + n;
  if (plaq == NULL) hr_error("out of memory for the gauge action (%ld doubles)", 2 * n);
#if HR_GPU_ENABLED
  if (use_gpu()) {
    const gauge_view v = device_links(u, gb.open);
    if (scratch.dev_values == NULL)
      scratch.dev_values = (double *)hr_gpu_alloc(2 * (size_t)n * sizeof(double));
    hr_gpu_zero(scratch.dev_values, 2 * (size_t)n * sizeof(double));
    ga_gpu_action(scratch.dev_values, scratch.dev_values + n, &v, &glattice, rect, &gb);
    /* the exact sums of reduction.h on the device: a few numbers come to the host */
    double sp, sr = 0.0;
    hr_gpu_sum_exact_n(&sp, scratch.dev_values, n, 1);
    if (rect) hr_gpu_sum_exact_n(&sr, scratch.dev_values + n, n, 1);
    free(plaq);
    return beta / NG * ((1.0 - 8.0 * c1) * sp + c1 * sr);
  } else
#endif
  {
    const gauge_view v =
        gauge_view_of_host(sync_host_suNg_field(u), gb.open ? time_table() : NULL);
    _OMP_MASTER_FOR(&glattice, ix) {
      ga_site_action(&plaq[ix - v.shift], &rects[ix - v.shift], &v, ix, rect, &gb);
    }
  }
  const double sp = ga_exact_global_sum(plaq, n);
  const double sr = rect ? ga_exact_global_sum(rects, n) : 0.0;
  free(plaq);
  return beta / NG * ((1.0 - 8.0 * c1) * sp + c1 * sr);
}

/* ------------------------------------------------------------------ force */

void gauge_force_update_bc(suNg_av_field *p, const suNg_field *u, double beta, double c1,
                           double eps, const gauge_boundary *b) {
  hr_assert(u->type == &glattice && p->type == &glattice,
            "gauge_force_update: links and momenta must live on glattice");
  scratch_update();
  const ga_boundary gb = site_boundary(b);
  const int rect = c1 != 0.0;
  const double c0 = 1.0 - 8.0 * c1, coef = eps * beta / (2.0 * NG);
  suNg_field *st = rect ? staple_fields() : NULL;
  ga_fields f;
  memset(&f, 0, sizeof f); /* the staple members stay unused without rectangles */
#if HR_GPU_ENABLED
  if (use_gpu()) {
    f.u = device_links(u, gb.open);
    if (rect) {
      for (int k = 0; k < GA_STAPLE_FIELDS; ++k) {
        f.st_mem[k] = gpu_write_suNg_field(&st[k]);
        f.st[k] = gauge_view_of_device(f.st_mem[k], NULL);
      }
      ga_gpu_store_staples(&f, &glattice);
      for (int k = 0; k < GA_STAPLE_FIELDS; ++k) start_sendrecv_suNg_field(&st[k]);
      for (int k = 0; k < GA_STAPLE_FIELDS; ++k) complete_sendrecv_suNg_field(&st[k]);
    }
    f.mom = gpu_write_suNg_av_field(p);
    ga_gpu_force_update(&f, &glattice, rect, c0, c1, coef, &gb);
    return;
  }
#endif
  f.u = gauge_view_of_host(sync_host_suNg_field(u), gb.open ? time_table() : NULL);
  if (rect) {
    for (int k = 0; k < GA_STAPLE_FIELDS; ++k) {
      f.st_mem[k] = host_write_suNg_field(&st[k]);
      f.st[k] = gauge_view_of_host(f.st_mem[k], NULL);
    }
    _OMP_MASTER_FOR(&glattice, ix) { ga_site_store_staples(&f, ix); }
    for (int k = 0; k < GA_STAPLE_FIELDS; ++k) start_sendrecv_suNg_field(&st[k]);
    for (int k = 0; k < GA_STAPLE_FIELDS; ++k) complete_sendrecv_suNg_field(&st[k]);
  }
  f.mom = host_write_suNg_av_field(p);
  _OMP_MASTER_FOR(&glattice, ix) { ga_site_force_update(&f, ix, rect, c0, c1, coef, &gb); }
}
