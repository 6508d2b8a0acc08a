/* wilson_flow.c -- the gradient flow of wilson_flow.h. The generator Z of the flow is
 * computed into an algebra-vector field with the HMC gauge force (gauge_force_update at
 * beta = 2 NG, i.e. g0^2 = 1: p -= eps F adds eps Z, since Z^a = -F^a), corrected for
 * openQCD's open time boundaries, and applied with md_update_links (V <- exp(eps P) V).
 * Lüscher's RK3 scheme runs in its low-storage form on one accumulator X:
 *   X = Z0/4;                 W1 = exp(X) W0
 *   X = 8/9 Z1 - 17/9 X;      W2 = exp(X) W1       (= 8/9 Z1 - 17/36 Z0)
 *   X = 3/4 Z2 - X;           W3 = exp(X) W2       (= 3/4 Z2 - 8/9 Z1 + 17/36 Z0)
 * (Zi = eps Z(Wi)). The adaptive scheme compares W3 with the second-order result
 * exp(2 Z1 - 5/4 Z0) W1 = exp(9/4 X2 - 3/4 X1) W1 (exponent sum 2 Z1 - Z0 = the integral of
 * Z to second order). Observables: the totals from gauge_action_observables_compute
 * (observables.h), the time-slice sums from the per-site parts of gauge_flow_site_parts
 * (observables.h), summed exactly per slice. */
#include "wilson_flow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gauge_action_sites.h"
#include "communications.h"
#include "gauge_action.h"
#include "geometry.h"
#include "hr_error.h"
#include "linear_algebra.h"
#include "md.h"
#include "observables.h"
#include "reduction.h"

/* ------------------------------------------------------------------ names */

int wf_action_from_name(const char *name) {
  if (strcasecmp(name, "wilson") == 0) return WF_ACTION_WILSON;
  if (strcasecmp(name, "symanzik") == 0) return WF_ACTION_SYMANZIK;
  return -1;
}

int wf_integrator_from_name(const char *name) {
  if (strcasecmp(name, "euler") == 0) return WF_EULER;
  if (strcasecmp(name, "rk3") == 0) return WF_RK3;
  if (strcasecmp(name, "adaptive") == 0) return WF_ADAPTIVE;
  return -1;
}

const char *wf_action_name(wf_action a) { return a == WF_ACTION_SYMANZIK ? "symanzik" : "wilson"; }

const char *wf_integrator_name(wf_integrator i) {
  return i == WF_EULER ? "euler" : i == WF_RK3 ? "rk3" : "adaptive";
}

/* ------------------------------------------------------------------ algebra fields */

/* Scratch fields of the current geometry: accumulator, stage-1 copy, link copies. */
static struct {
  int generation;
  suNg_av_field *x, *x1, *y;
  suNg_field *w1, *w3;
} scratch = {-1, NULL, NULL, NULL, NULL, NULL};

static void scratch_update(void) {
  if (scratch.generation == geometry_generation()) return;
  if (scratch.x != NULL) {
    free_avfield(scratch.x);
    free_avfield(scratch.x1);
    free_avfield(scratch.y);
    free_gfield(scratch.w1);
    free_gfield(scratch.w3);
  }
  scratch.x = alloc_avfield(&glattice);
  scratch.x1 = alloc_avfield(&glattice);
  scratch.y = alloc_avfield(&glattice);
  scratch.w1 = alloc_gfield(&glattice);
  scratch.w3 = alloc_gfield(&glattice);
  scratch.generation = geometry_generation();
}

/* x += c eps Z(u): the HMC force at g0^2 = 1 (c1 of the action), plus for open time
 * boundaries the extra time-like-plane force of the space-like boundary links (their flow is
 * 2 eps (Z_spatial / 2 + Z_temporal) = eps (Z + Z_temporal)). */
static void add_generator(suNg_av_field *x, const suNg_field *u, const wf_params *p,
                          double ceps) {
  const double c1 = p->action == WF_ACTION_SYMANZIK ? GAUGE_C1_SYMANZIK : GAUGE_C1_WILSON;
  gauge_force_update(x, u, 2.0 * NG, c1, ceps);
  if (!p->open_bc_t) return;
  const gauge_view v = gauge_view_of_host(sync_host_suNg_field(u), NULL);
  (void)sync_host_suNg_av_field(x);
  suNg_algebra_vector *xm = host_write_suNg_av_field(x);
  const int sh = glattice.master_shift;
  _OMP_MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    if (g[0] == 0 || g[0] == GLB_T - 1)
      for (int mu = 1; mu < 4; ++mu) {
        suNg S, V, U, W;
        ga_plaquette_staple(&S, &v, ix, mu, 0, +1);
        ga_plaquette_staple(&V, &v, ix, mu, 0, -1);
        suNg_add(&S, &S, &V);
        gauge_view_link(&U, &v, ix, mu);
        suNg_mul(&W, &U, &S);
        suNg_algebra_vector f;
        suNg_project_to_algebra(&f, &W);
        for (int a = 0; a < NG * NG - 1; ++a) xm[4 * (ix - sh) + mu].c[a] -= ceps * f.c[a];
      }
  }
}

static void check_params(const wf_params *p) {
  if (p->open_bc_t && p->action != WF_ACTION_WILSON)
    hr_fatal(HR_EXIT_INPUT, "wilson flow: open time boundaries are implemented for the Wilson "
                            "action only (flow:action = wilson)");
}

/* ------------------------------------------------------------------ integrators */

void wf_euler_step(suNg_field *u, const wf_params *p, double eps) {
  check_params(p);
  scratch_update();
  zero_suNg_av_field(scratch.x);
  add_generator(scratch.x, u, p, eps);
  md_update_links(u, scratch.x, 1.0);
}

/* The three RK3 stages; with keep, X1 and W1 are saved for the error estimate. The
 * combinations of the accumulator are field algebra (linear_algebra.h): on the device in GPU
 * builds, so that a step of the GPU path moves no field between host and device. */
static void rk3_stages(suNg_field *u, const wf_params *p, double eps, int keep) {
  suNg_av_field *x = scratch.x;
  zero_suNg_av_field(x);
  add_generator(x, u, p, 0.25 * eps);
  if (keep) copy_suNg_av_field(scratch.x1, x);
  md_update_links(u, x, 1.0);
  if (keep) copy_suNg_field(scratch.w1, u);
  mul_suNg_av_field(x, -17.0 / 9.0, x);
  add_generator(x, u, p, 8.0 / 9.0 * eps);
  md_update_links(u, x, 1.0);
  if (keep) lc_suNg_av_field(scratch.y, 9.0 / 4.0, x, -3.0 / 4.0, scratch.x1); /* 9/4 X2 - 3/4 X1 */
  minus_suNg_av_field(x, x);
  add_generator(x, u, p, 0.75 * eps);
  md_update_links(u, x, 1.0);
}

void wf_rk3_step(suNg_field *u, const wf_params *p, double eps) {
  check_params(p);
  scratch_update();
  rk3_stages(u, p, eps, 0);
}

/* Largest |element difference| between the master links of a and b (all processes). */
static double max_distance(const suNg_field *a, const suNg_field *b) {
  const suNg *am = sync_host_suNg_field(a), *bm = sync_host_suNg_field(b);
  const int sh = glattice.master_shift;
  double d = 0.0;
  _MASTER_FOR(&glattice, ix) {
    for (int l = 4 * (ix - sh); l < 4 * (ix - sh) + 4; ++l)
      for (int k = 0; k < NG * NG; ++k) {
        const double e = cabs(am[l].c[k] - bm[l].c[k]);
        if (e > d) d = e;
      }
  }
  global_max(&d, 1);
  return d;
}

int wf_adaptive_step(suNg_field *u, const wf_params *p, double *eps) {
  check_params(p);
  scratch_update();
  copy_suNg_field(scratch.w3, u); /* w3 = W0 until the step is accepted */
  rk3_stages(u, p, *eps, 1);
  /* second-order result from W1: exp(9/4 X2 - 3/4 X1) W1 (y, saved by rk3_stages) */
  md_update_links(scratch.w1, scratch.y, 1.0);
  const double d = max_distance(u, scratch.w1);
  const double tol = p->tolerance > 0 ? p->tolerance : 1e-5;
  double factor = d > 0 ? 0.9 * cbrt(tol / d) : 2.0;
  if (factor > 2.0) factor = 2.0;
  if (factor < 0.2) factor = 0.2;
  const int accepted = d <= tol;
  if (!accepted) copy_suNg_field(u, scratch.w3);
  *eps *= factor;
  return accepted;
}

/* One fixed step of the integrator. */
static void fixed_step(suNg_field *u, const wf_params *p, double eps) {
  if (p->integrator == WF_EULER)
    wf_euler_step(u, p, eps);
  else
    wf_rk3_step(u, p, eps);
}

/* floor(dt/h + slack) steps of h and one step with the remainder when it is not negligible
 * (slack 0: exactly as ms3 counts). Returns the number of steps. */
static long fixed_steps(suNg_field *u, const wf_params *p, double dt, double h, double slack) {
  const long n = (long)floor(dt / h + slack);
  for (long k = 0; k < n; ++k) fixed_step(u, p, h);
  const double rest = dt - (double)n * h;
  if (rest > 1e-12 * h) {
    fixed_step(u, p, rest);
    return n + 1;
  }
  return n;
}

/* openQCD-2.0 ms3: below flow time 1 the step is eps times this factor. */
static double ms3_factor(wf_integrator i) { return i == WF_EULER ? 0.1 : 0.46416; }

long wf_flow(suNg_field *u, const wf_params *p, double t, double dt, double *eps) {
  long steps = 0;
  if (dt <= 0) return 0;
  if (p->integrator == WF_ADAPTIVE) {
    double done = 0.0;
    while (dt - done > 1e-12 * dt) {
      const double remaining = dt - done, before = *eps;
      const int clipped = before >= remaining;
      const double tried = clipped ? remaining : before;
      double e = tried;
      const int accepted = wf_adaptive_step(u, p, &e);
      if (accepted) {
        done += tried;
        ++steps;
      }
      /* an accepted step shortened to reach t + dt keeps the larger earlier proposal */
      *eps = clipped && accepted ? fmax(e, before) : e;
    }
    return steps;
  }
  if (p->ms3_schedule && t < 1.0) {
    /* openQCD-2.0 ms3: up to flow time 1 the step is eps times the factor, floor(dt/step)
     * steps and one with the remainder; from there on the nominal step */
    const double below = fmin(dt, 1.0 - t);
    steps = fixed_steps(u, p, below, *eps * ms3_factor(p->integrator), 0.0);
    return steps + (dt > below ? fixed_steps(u, p, dt - below, *eps, 0.0) : 0);
  }
  return fixed_steps(u, p, dt, *eps, 1e-9);
}

/* ------------------------------------------------------------------ observables */

void wf_measurement_free(wf_measurement *m) {
  free(m->wsl);
  m->wsl = m->ysl = m->qsl = NULL;
}

void wf_measure(wf_measurement *m, const suNg_field *u, int open_bc_t, double t) {
  const gauge_action_observables o = gauge_action_observables_compute(u, open_bc_t);
  m->t = t;
  m->wact = o.wact;
  m->yact = o.yact;
  m->qtop = o.qtop;
  if (m->wsl == NULL) {
    m->wsl = calloc(3 * (size_t)GLB_T, sizeof(double));
    if (m->wsl == NULL) hr_error("out of memory");
    m->ysl = m->wsl + GLB_T;
    m->qsl = m->ysl + GLB_T;
  }
  /* per-slice sums: the numbers of every site (Wact of the site's slice: its spatial
   * plaquettes and half of its temporal ones; the other half of the temporal ones, which
   * belongs to the next slice; E; q), computed in parallel on the backend of the call
   * (observables.h), then summed exactly per global slice (reduction.h), so that they do not
   * depend on the thread count, the process grid or the backend */
  enum { K_ = 4 };
  long n;
  double *site = gauge_flow_site_parts(u, open_bc_t, &n);
  int *time = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  double *rows = malloc((size_t)(n > 0 ? n : 1) * K_ * sizeof(double));
  long *start = calloc((size_t)GLB_T + 1, sizeof(long));
  if (time == NULL || rows == NULL || start == NULL) hr_error("out of memory");
  for (long e = 0; e < n; ++e) {
    int g[4];
    global_coordinates(g, (int)e + glattice.master_shift);
    time[e] = g[0];
  }
  /* the rows of the master sites grouped by global slice (in the order of the sites) */
  _MASTER_FOR(&glattice, ix) start[time[ix - glattice.master_shift] + 1]++;
  for (int t = 0; t < GLB_T; ++t) start[t + 1] += start[t];
  {
    long *fill = calloc((size_t)GLB_T, sizeof(long));
    if (fill == NULL) hr_error("out of memory");
    _MASTER_FOR(&glattice, ix) {
      const int tt = time[ix - glattice.master_shift];
      memcpy(&rows[(start[tt] + fill[tt]++) * K_], &site[(ix - glattice.master_shift) * K_],
             K_ * sizeof(double));
    }
    free(fill);
  }
  double *half_next = malloc((size_t)GLB_T * sizeof(double));
  if (half_next == NULL) hr_error("out of memory");
  for (int t = 0; t < GLB_T; ++t) { /* collective: every process, every slice */
    double sum[K_];
    global_sum_exact_n(sum, &rows[start[t] * K_], start[t + 1] - start[t], K_);
    m->wsl[t] = sum[0];
    half_next[t] = sum[1];
    m->ysl[t] = sum[2];
    m->qsl[t] = sum[3];
  }
  for (int t = 0; t < GLB_T; ++t) m->wsl[(t + 1) % GLB_T] += half_next[t];
  free(half_next);
  free(start);
  free(rows);
  free(site);
  free(time);
}

double wf_t2E(const wf_measurement *m, int open_bc_t) {
  const double vol = (double)GLB_X * GLB_Y * GLB_Z * (open_bc_t ? GLB_T - 2 : GLB_T);
  return m->t * m->t * m->yact / vol;
}

double wf_crossing(const double *t, const double *y, int n, double ref) {
  for (int i = 1; i < n; ++i)
    if ((y[i - 1] - ref) * (y[i] - ref) <= 0 && y[i] != y[i - 1])
      return t[i - 1] + (ref - y[i - 1]) * (t[i] - t[i - 1]) / (y[i] - y[i - 1]);
  return -1.0;
}

double wf_w0(const double *t, const double *t2E, int n, double ref) {
  if (n < 3) return -1.0;
  double *tm = malloc((size_t)n * sizeof(double)), *w = malloc((size_t)n * sizeof(double));
  if (tm == NULL || w == NULL) hr_error("out of memory");
  int m = 0;
  for (int i = 1; i + 1 < n; ++i) {
    tm[m] = t[i];
    w[m] = t[i] * (t2E[i + 1] - t2E[i - 1]) / (t[i + 1] - t[i - 1]);
    ++m;
  }
  const double t_w = wf_crossing(tm, w, m, ref);
  free(tm);
  free(w);
  return t_w > 0 ? sqrt(t_w) : -1.0;
}
