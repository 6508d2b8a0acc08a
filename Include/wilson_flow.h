/* wilson_flow.h -- the gradient flow of gauge fields (Lüscher): dV/dt = Z(V) V with
 * Z = -g0^2 d S(V), S the Wilson plaquette action or the tree-level Symanzik (Lüscher-Weisz)
 * action, integrated with Euler, Lüscher's third-order Runge-Kutta scheme, or an adaptive
 * third-order scheme with a second-order error estimate (step from a tolerance). Periodic
 * boundaries, or openQCD's open time boundaries (Wilson action: the U_0 links at t = GLB_T-1
 * are zero, the force of the space-like boundary plaquettes weighs 1/2 and the space-like
 * links at t = 0 and GLB_T-1 flow with 2 eps). Observables along the flow: Wact, Yact and Q
 * with openQCD's normalisations and their time-slice sums, t^2 <E>, t0 and w0. The force is
 * the HMC gauge force (gauge_action.h), the link update md_update_links (md.h), so every
 * backend and process grid runs the same code. Doc/wilson_flow.md.
 * Implemented in: Update/wilson_flow.c. */
#ifndef WILSON_FLOW_H
#define WILSON_FLOW_H

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Action generating the flow. */
typedef enum { WF_ACTION_WILSON = 0, WF_ACTION_SYMANZIK = 1 } wf_action;
/* Integrator. */
typedef enum { WF_EULER = 0, WF_RK3 = 1, WF_ADAPTIVE = 2 } wf_integrator;

/* What the flow does. */
typedef struct {
  wf_action action;
  wf_integrator integrator;
  int open_bc_t;    /* openQCD open time boundaries (Wilson action only) */
  double tolerance; /* adaptive: largest accepted distance per step between the third- and
                       second-order results (max over links of max |element difference|) */
  int ms3_schedule; /* openQCD-2.0 ms3's step schedule: below flow time 1 the step is eps
                       times 0.1 (Euler) or 0.46416 (RK3) (Doc/wilson_flow.md) */
} wf_params;

/* The measurements at one flow time. Slices: arrays of GLB_T values, owned by the struct. */
typedef struct {
  double t;
  double wact, yact, qtop; /* openQCD's Wact, Yact (sum of E), Q */
  double *wsl, *ysl, *qsl; /* time-slice sums of Wact, Yact and Q */
} wf_measurement;

/* Parse "wilson" / "symanzik" and "euler" / "rk3" / "adaptive"; -1 if unknown. */
int wf_action_from_name(const char *name);
int wf_integrator_from_name(const char *name);
/* Names of the actions and integrators. */
const char *wf_action_name(wf_action a);
const char *wf_integrator_name(wf_integrator i);

/* One Euler step V <- exp(eps Z(V)) V. Collective. */
void wf_euler_step(suNg_field *u, const wf_params *p, double eps);
/* One step of Lüscher's third-order Runge-Kutta scheme. Collective. */
void wf_rk3_step(suNg_field *u, const wf_params *p, double eps);
/* One adaptive step attempt with step *eps: the RK3 step is kept when the distance to the
 * second-order result is <= p->tolerance (returns 1), else u is unchanged (returns 0); *eps
 * becomes the step proposed next. Collective. */
int wf_adaptive_step(suNg_field *u, const wf_params *p, double *eps);

/* Flow u from time t to t + dt with p->integrator and step *eps (fixed integrators: steps of
 * *eps and a last shorter one; adaptive: *eps is the initial step and returns the proposal
 * for the next call). Returns the number of (accepted) steps. Collective. */
long wf_flow(suNg_field *u, const wf_params *p, double t, double dt, double *eps);

/* Measure u at flow time t into m: m must be zeroed or hold an earlier measurement (its
 * slices are allocated on first use, when m->wsl is NULL). Collective. */
void wf_measure(wf_measurement *m, const suNg_field *u, int open_bc_t, double t);
/* Free the slices of m. */
void wf_measurement_free(wf_measurement *m);
/* t^2 <E>, with <E> = Yact over the volume where E is summed (open b.c.: 0 < t < GLB_T-1). */
double wf_t2E(const wf_measurement *m, int open_bc_t);

/* The flow time at which the curve (t[i], y[i]), i < n, increasing t, first reaches `ref` by
 * linear interpolation; -1 when it does not. t0: y = t^2 <E>, ref 0.3. */
double wf_crossing(const double *t, const double *y, int n, double ref);
/* w0^2 from (t[i], t^2 E[i]): the first t where t d/dt(t^2 <E>) reaches ref, the derivative
 * from neighbouring measurements (central differences), interpolated linearly; -1 if not
 * reached. Returns w0 = sqrt(that t). */
double wf_w0(const double *t, const double *t2E, int n, double ref);

#ifdef __cplusplus
}
#endif

#endif
