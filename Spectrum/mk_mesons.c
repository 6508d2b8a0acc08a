/* mk_mesons.c -- meson two-point functions from a point source at (mes:source_t, 0, 0, 0),
 * default the origin, on gauge configurations: mk_mesons -i INPUT_FILE [-o LOG_FILE] CONFIG...
 * Each CONFIG (HiRep or openQCD format, recognised from its header) is read, the
 * Wilson-clover operator is built with the input file's mass (mes:mass = m0, or mes:kappa
 * with m0 = 1/(2 kappa) - 4), mes:csw and boundary conditions (bc_t.., theta_t..), the
 * 4 x NF columns of the propagator are solved with even/odd preconditioning (mixed
 * precision unless mes:mixed = false) to mes:precision, and one line per channel
 *   conf=<file> m0=<m0> csw=<csw> channel=<name> C= <C(0)> ... <C(GLB_T-1)>
 * is printed on stdout, t counted from the source (x_0 = source_t + t mod GLB_T; with
 * bc_t = open the source must lie on an inner slice, 1 .. GLB_T - 2). With mes:smear_source /
 * mes:smear_sink the source / the sink is Gaussian smeared (mes:smear_kappa, mes:smear_steps;
 * links optionally smeared first, mes:link_smearing = none|ape|stout|hyp) and the channel
 * names gain _<source><sink> with l (local) or s (smeared), e.g. pi_ss, pi_sl. Conventions:
 * Doc/solvers_and_spectrum.md (also for the masses the operator allows). Exit codes: 0
 * success, 2 bad input file or command line, 3 missing / unreadable / mismatched
 * configuration, 5 a solve that did not converge or a clover block that is not positive
 * definite on that gauge field (no correlator is printed for that configuration). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "boundary_conditions.h"
#include "clover.h"
#include "dirac.h"
#include "fields.h"
#include "geometry.h"
#include "gpu.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "inverters.h"
#include "logger.h"
#include "propagator.h"

/* Parameters of the measurement. */
typedef struct {
  double m0, kappa, csw, precision;
  int maxiter, mixed, verbosity;
  int source_t;                 /* time slice of the point source */
  int smear_source, smear_sink; /* Gaussian smearing of the source / the sink */
  quark_smearing_params qsp;    /* its parameters and the link smearing */
} mes_params;

/* Reads the quark smearing keys mes:smear_* and the link smearing keys; checks their ranges
 * when a smearing is asked for. */
static void read_smearing_params(input_file *in, mes_params *mp) {
  int link_kind = 0;
  quark_smearing_params *q = &mp->qsp;
  q->links = (smear_params){SMEAR_NONE, 0, 0, 0, {0, 0, 0}};
  input_key keys[] = {
      {"mes:smear_source", INPUT_BOOL, &mp->smear_source, "false", NULL,
       "Gaussian smearing of the point source"},
      {"mes:smear_sink", INPUT_BOOL, &mp->smear_sink, "false", NULL,
       "Gaussian smearing of the propagator at the sink"},
      {"mes:smear_kappa", INPUT_DOUBLE, &q->kappa, "0.25", NULL,
       "kappa_s of psi <- [(1 + kappa_s H) / (1 + 6 kappa_s)]^n psi"},
      {"mes:smear_steps", INPUT_INT, &q->steps, "20", NULL, "n, applications of the smearing"},
      {"mes:link_smearing", INPUT_CHOICE, &link_kind, "none", "none|ape|stout|hyp",
       "smearing of the links used by the quark smearing"},
      {"mes:link_smear_steps", INPUT_INT, &q->links.steps, "1", NULL,
       "iterations of the link smearing"},
      {"mes:ape_alpha", INPUT_DOUBLE, &q->links.alpha, "0.5", NULL, "APE staple weight"},
      {"mes:stout_rho", INPUT_DOUBLE, &q->links.rho, "0.1", NULL, "stout staple weight"},
      {"mes:hyp_alpha1", INPUT_DOUBLE, &q->links.hyp[0], "0.75", NULL, "HYP alpha1"},
      {"mes:hyp_alpha2", INPUT_DOUBLE, &q->links.hyp[1], "0.6", NULL, "HYP alpha2"},
      {"mes:hyp_alpha3", INPUT_DOUBLE, &q->links.hyp[2], "0.3", NULL, "HYP alpha3"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  const smear_kind kinds[] = {SMEAR_NONE, SMEAR_APE, SMEAR_STOUT, SMEAR_HYP};
  q->links.kind = kinds[link_kind];
  /* checked only when used: a value outside the range is harmless otherwise */
  if (!mp->smear_source && !mp->smear_sink) return;
  if (!(q->kappa >= 0 && q->kappa <= 100))
    input_fail(in, NULL, "mes:smear_kappa", "must be in [0, 100] (got %g)", q->kappa);
  if (q->steps < 0 || q->steps > 100000)
    input_fail(in, NULL, "mes:smear_steps", "must be in 0..100000 (got %d)", q->steps);
  if (q->links.kind == SMEAR_NONE) return;
  if (q->links.steps < 1 || q->links.steps > 10000)
    input_fail(in, NULL, "mes:link_smear_steps", "must be in 1..10000 (got %d)", q->links.steps);
  if (q->links.kind == SMEAR_APE && !(q->links.alpha > 0 && q->links.alpha <= 1))
    input_fail(in, NULL, "mes:ape_alpha", "must be in (0, 1] (got %g)", q->links.alpha);
  if (q->links.kind == SMEAR_STOUT && !(q->links.rho > 0 && q->links.rho <= 0.5))
    input_fail(in, NULL, "mes:stout_rho", "must be in (0, 0.5] (got %g)", q->links.rho);
  static const char *const hyp_keys[3] = {"mes:hyp_alpha1", "mes:hyp_alpha2", "mes:hyp_alpha3"};
  for (int i = 0; i < 3 && q->links.kind == SMEAR_HYP; i++)
    if (!(q->links.hyp[i] >= 0 && q->links.hyp[i] <= 1))
      input_fail(in, NULL, hyp_keys[i], "must be in [0, 1] (got %g)", q->links.hyp[i]);
}

/* Ends the program at the line of `key` (mes:mass or mes:kappa) when m0 leaves a diagonal
 * block of the operator singular or indefinite for every gauge field. The even/odd solve
 * inverts the blocks 4 + m0 + C site by site; where they are built (mes:csw > 0, or
 * bc_t = open) they are factorised as L D L^+, which needs them positive definite
 * (LibHR/Dirac/clover.c). C is traceless, so a block with 4 + m0 <= 0 (4 + m0 + cF - 1 <= 0
 * on the slices 1 and GLB_T - 2 of open boundaries) never is. Without blocks (csw = 0, no
 * open boundary) only 4 + m0 = 0 is singular. */
static void check_mass(const input_file *in, const char *key, const mes_params *mp,
                       const dirac_bc *bc, int glb_t) {
  const int open_t = dirac_bc_open_t(bc);
  const int by_kappa = strcmp(key, "mes:kappa") == 0;
  char given[128];
  if (by_kappa)
    snprintf(given, sizeof given, "kappa = %.15g (m0 = 1/(2 kappa) - 4 = %.15g)", mp->kappa,
             mp->m0);
  else
    snprintf(given, sizeof given, "m0 = %.15g", mp->m0);
  if (mp->csw == 0. && !open_t) {
    if (4. + mp->m0 == 0.)
      input_fail(in, NULL, key, "%s is out of range: with mes:csw = 0 the even/odd solve "
                 "divides by 4 + m0, here 0: choose m0 != -4", given);
    return;
  }
  char with[64];
  if (mp->csw != 0.)
    snprintf(with, sizeof with, "with the clover term (mes:csw = %.15g)", mp->csw);
  else
    snprintf(with, sizeof with, "with bc_t = open");
  /* the slices with the diagonal 4 + m0: all, or with open boundaries 2 .. GLB_T - 3 */
  if ((!open_t || glb_t > 4) && !(4. + mp->m0 > 0.))
    input_fail(in, NULL, key, "%s is out of range: %s m0 must be > -4 (kappa > 0): the "
               "even/odd solve factorises the diagonal blocks 4 + m0 + C, which are positive "
               "definite only if 4 + m0 > 0 (C is traceless; LibHR/Dirac/clover.c)", given, with);
  if (open_t && !(3. + mp->m0 + bc->cf > 0.))
    input_fail(in, NULL, key, "%s is out of range: with bc_t = open and cF = %.15g m0 must be "
               "> -3 - cF = %.15g%s: the even/odd solve factorises the diagonal blocks "
               "4 + m0 + cF - 1 + C of the time slices 1 and GLB_T - 2, which are positive "
               "definite only if 3 + m0 + cF > 0 (C is traceless; LibHR/Dirac/clover.c)", given,
               bc->cf, -3. - bc->cf, by_kappa ? " (kappa < 1/(2 (1 - cF)))" : "");
}

/* Reads the mes:* keys (exactly one of mes:mass and mes:kappa) and checks the mass against
 * the operator that bc and mes:csw make. */
static void read_mes_params(input_file *in, mes_params *mp, const dirac_bc *bc, int glb_t) {
  input_key keys[] = {
      {"mes:csw", INPUT_DOUBLE, &mp->csw, "0", ">=0", "clover coefficient"},
      {"mes:precision", INPUT_DOUBLE, &mp->precision, "1e-12", ">=1e-15 <1",
       "relative residual |b - D x| / |b| of every solve; below 1e-15 double precision cannot "
       "reach it"},
      {"mes:maxiter", INPUT_INT, &mp->maxiter, "20000", ">=1", "iteration limit of a solve"},
      {"mes:mixed", INPUT_BOOL, &mp->mixed, "true", NULL,
       "mixed precision (single-precision iterations, reliable updates in double)"},
      {"mes:verbosity", INPUT_INT, &mp->verbosity, "0", ">=0 <=2", "solver log detail 0..2"},
      {"mes:source_t", INPUT_INT, &mp->source_t, "0", ">=0",
       "time slice of the point source (C(t) is printed for t = x_0 - source_t mod GLB_T)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  read_smearing_params(in, mp);
  /* |m0| <= 1e12: far beyond any physical bare mass, and below the masses at which the solves
   * break down (mixed precision from about 1e17 on, double precision near 1e300) */
  const input_key mass_keys[] = {
      {"mes:mass", INPUT_DOUBLE, &mp->m0, NULL, ">=-1e12 <=1e12", "bare mass m0"},
      {"mes:kappa", INPUT_DOUBLE, &mp->kappa, NULL, ">=5e-13",
       "hopping parameter kappa, m0 = 1/(2 kappa) - 4"},
      INPUT_KEYS_END};
  const int kappa_given = input_read_one_of(in, NULL, mass_keys) == 1;
  if (kappa_given) mp->m0 = 1.0 / (2.0 * mp->kappa) - 4.0;
  check_mass(in, kappa_given ? "mes:kappa" : "mes:mass", mp, bc, glb_t);
}

int main(int argc, char **argv) {
  /* configuration files: the arguments that are neither options nor option values
   * (hr_setup accepts only -i, -o, -h) */
  int nconf = 0;
  char **confs = NULL;
  input_file *in = hr_setup_with_names(argc, argv, NULL, &nconf, &confs);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_params gp;
  geometry_read_input(&gp, in);
  dirac_bc bc;
  dirac_bc_read_input(&bc, in);
  mes_params mp;
  read_mes_params(in, &mp, &bc, gp.glb[0]);
  if (mp.source_t >= gp.glb[0])
    input_fail(in, NULL, "mes:source_t", "must be below GLB_T = %d (got %d)", gp.glb[0],
               mp.source_t);
  if (dirac_bc_open_t(&bc) && (mp.source_t == 0 || mp.source_t == gp.glb[0] - 1))
    input_fail(in, NULL, "mes:source_t", "%d is an outer time slice of open boundaries "
               "(bc_t = open), where the quark fields vanish (Doc/dirac.md): choose 1 .. %d",
               mp.source_t, gp.glb[0] - 2);
  input_finish(in);
  if (nconf == 0)
    hr_fatal(HR_EXIT_INPUT, "mk_mesons: no configuration given\nusage: mk_mesons -i INPUT_FILE "
             "[-o LOG_FILE] CONFIG...");
  /* every configuration must exist and have a recognisable header before any work */
  for (int i = 0; i < nconf; i++) {
    hr_archive_info info;
    char err[1024];
    if (archive_probe(&info, confs[i], err, sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "mk_mesons: configuration %d of %d: %s", i + 1, nconf, err);
  }
  geometry_init(&gp);
  dirac_bc_print(&bc);
  lprintf("MESONS", 10, "m0 = %.15g, csw = %.15g, precision %.1e, %s precision\n", mp.m0, mp.csw,
          mp.precision, mp.mixed ? "mixed" : "double");

  suNg_field *u = alloc_gfield(&glattice);
  spinor_field *prop = alloc_spinor_field_f(4 * NF, &glattice);
  int nch;
  const hr_meson_channel *ch = meson_channels(&nch);
  double *corr = malloc((size_t)nch * GLB_T * sizeof(double));
  hr_solver_result res[4 * NF];
  hr_solver_params sp;
  solver_params_default(&sp);
  sp.tol = mp.precision;
  sp.max_iter = mp.maxiter;
  sp.verbosity = mp.verbosity;
  const int origin[4] = {mp.source_t, 0, 0, 0};
  const dirac_op D = dirac_op_make(u, mp.m0, mp.csw, &bc);
  const int smeared = mp.smear_source || mp.smear_sink;
  /* channel names: plain for a local source and sink, else with _<source><sink> */
  char (*label)[32] = malloc((size_t)nch * sizeof *label);
  for (int c = 0; c < nch; c++)
    snprintf(label[c], sizeof label[c], smeared ? "%s_%c%c" : "%s", ch[c].name,
             mp.smear_source ? 's' : 'l', mp.smear_sink ? 's' : 'l');
  if (smeared)
    lprintf("MESONS", 10, "Gaussian smearing of the %s: kappa_s = %.15g, %d steps, links %s "
            "(%d steps, ape_alpha %g, stout_rho %g, hyp %g %g %g)\n",
            mp.smear_source ? (mp.smear_sink ? "source and sink" : "source") : "sink",
            mp.qsp.kappa, mp.qsp.steps, smear_kind_name(mp.qsp.links.kind), mp.qsp.links.steps,
            mp.qsp.links.alpha, mp.qsp.links.rho, mp.qsp.links.hyp[0], mp.qsp.links.hyp[1],
            mp.qsp.links.hyp[2]);
  for (int i = 0; i < nconf; i++) {
    char err[1024];
    if (archive_read_checked(u, confs[i], HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err,
                             sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "mk_mesons: %s", err);
    /* the operator follows the links just read (their new version) by itself */
    quark_smearing qs = {NULL, 0, 0};
    if (smeared) quark_smearing_init(&qs, u, &bc, &mp.qsp);
    const hr_solver_status s = propagator_smeared_point(prop, &D, origin,
                                                        mp.smear_source ? &qs : NULL, mp.mixed,
                                                        &sp, res);
    int iters = 0;
    double worst = 0;
    for (int k = 0; k < 4 * NF; k++) {
      iters += res[k].iterations;
      if (res[k].residual > worst) worst = res[k].residual;
    }
    if (s != HR_SOLVER_CONVERGED)
      hr_fatal(HR_EXIT_NUMERICS, "mk_mesons: %s: the propagator did not converge (%s; worst "
               "residual %.3e, tolerance %.1e after up to %d iterations): no correlator is "
               "printed. Raise mes:maxiter or check the mass (m0 = %g)",
               confs[i], solver_status_name(s), worst, mp.precision, mp.maxiter, mp.m0);
    lprintf("MESONS", 10, "%s: %d solves, %d iterations in all, worst |b - D x|/|b| = %.3e\n",
            confs[i], 4 * NF, iters, worst);
    if (mp.smear_sink) propagator_smear_sink(prop, &qs);
    if (smeared) quark_smearing_free(&qs);
    meson_correlators(corr, prop, mp.source_t, nch, ch);
    if (hr_rank() == 0) {
      for (int c = 0; c < nch; c++) {
        printf("conf=%s m0=%.15g csw=%.15g channel=%s C=", confs[i], mp.m0, mp.csw, label[c]);
        for (int t = 0; t < GLB_T; t++) printf(" %.15e", corr[c * GLB_T + t]);
        printf("\n");
      }
      fflush(stdout);
    }
  }
  free(label);
  free(corr);
  free_spinor_field_f(prop);
  free_gfield(u);
  dirac_finalize();
  geometry_finalize();
  hr_finalize();
  return HR_EXIT_OK;
}
