/* mk_mesons.c -- meson two-point functions from a point source at the origin on gauge
 * configurations: mk_mesons -i INPUT_FILE [-o LOG_FILE] CONFIG...
 * Each CONFIG (HiRep or openQCD format, recognised from its header) is read, the
 * Wilson-clover operator is built with the input file's mass (mes:mass = m0, or mes:kappa
 * with m0 = 1/(2 kappa) - 4), mes:csw and boundary conditions (bc_t.., theta_t..), the
 * 4 x NF columns of the propagator are solved with even/odd preconditioning (mixed
 * precision unless mes:mixed = false) to mes:precision, and one line per channel
 *   conf=<file> m0=<m0> csw=<csw> channel=<name> C= <C(0)> ... <C(GLB_T-1)>
 * is printed on stdout. Conventions: Doc/solvers_and_spectrum.md. Exit codes: 0 success,
 * 2 bad input file or command line, 3 missing / unreadable / mismatched configuration,
 * 5 a solve that did not converge (no correlator is printed for that configuration). */
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
} mes_params;

/* Reads the mes:* keys: exactly one of mes:mass and mes:kappa. */
static void read_mes_params(input_file *in, mes_params *mp) {
  const int has_mass = input_has_key(in, NULL, "mes:mass");
  const int has_kappa = input_has_key(in, NULL, "mes:kappa");
  if (has_mass == has_kappa)
    hr_fatal(HR_EXIT_INPUT, "%s: mes:mass: give exactly one of mes:mass (bare mass m0) and "
             "mes:kappa (m0 = 1/(2 kappa) - 4)%s", input_filename(in),
             has_mass ? ", not both" : "; neither is set");
  input_key keys[] = {
      {has_mass ? "mes:mass" : "mes:kappa", INPUT_DOUBLE, has_mass ? &mp->m0 : &mp->kappa, NULL,
       NULL, has_mass ? "bare mass m0" : "hopping parameter kappa"},
      {"mes:csw", INPUT_DOUBLE, &mp->csw, "0", NULL, "clover coefficient"},
      {"mes:precision", INPUT_DOUBLE, &mp->precision, "1e-12", NULL,
       "relative residual |b - D x| / |b| of every solve"},
      {"mes:maxiter", INPUT_INT, &mp->maxiter, "20000", NULL, "iteration limit of a solve"},
      {"mes:mixed", INPUT_BOOL, &mp->mixed, "true", NULL,
       "mixed precision (single-precision iterations, reliable updates in double)"},
      {"mes:verbosity", INPUT_INT, &mp->verbosity, "0", NULL, "solver log detail 0..2"},
      INPUT_KEYS_END};
  input_declare_key(in, NULL, "mes:mass");
  input_declare_key(in, NULL, "mes:kappa");
  input_read(in, NULL, keys);
  if (has_kappa) {
    if (!(mp->kappa > 0))
      hr_fatal(HR_EXIT_INPUT, "%s: mes:kappa: must be > 0 (got %g)", input_filename(in),
               mp->kappa);
    mp->m0 = 1.0 / (2.0 * mp->kappa) - 4.0;
  }
  if (!(mp->precision > 0 && mp->precision < 1))
    hr_fatal(HR_EXIT_INPUT, "%s: mes:precision: must be in (0, 1) (got %g)", input_filename(in),
             mp->precision);
  if (mp->maxiter < 1)
    hr_fatal(HR_EXIT_INPUT, "%s: mes:maxiter: must be >= 1 (got %d)", input_filename(in),
             mp->maxiter);
}

int main(int argc, char **argv) {
  /* configuration files: the arguments that are neither options nor option values
   * (hr_setup accepts only -i, -o, -h) */
  char **confs = malloc((size_t)argc * sizeof(char *));
  char **rest = malloc((size_t)(argc + 1) * sizeof(char *));
  if (confs == NULL || rest == NULL) return HR_EXIT_INTERNAL;
  int nconf = 0, nrest = 0;
  rest[nrest++] = argv[0];
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-') {
      rest[nrest++] = argv[i];
      if ((strcmp(argv[i], "-i") == 0 || strcmp(argv[i], "-o") == 0) && i + 1 < argc)
        rest[nrest++] = argv[++i];
    } else {
      confs[nconf++] = argv[i];
    }
  }
  rest[nrest] = NULL;
  input_file *in = hr_setup(&nrest, &rest, NULL);
  geometry_params gp;
  geometry_read_input(in, &gp);
  dirac_bc bc;
  dirac_bc_read_input(in, &bc);
  mes_params mp;
  read_mes_params(in, &mp);
  input_finish(in);
  if (nconf == 0)
    hr_fatal(HR_EXIT_INPUT, "mk_mesons: no configuration given\nusage: mk_mesons -i INPUT_FILE "
             "[-o LOG_FILE] CONFIG...");
  /* every configuration must exist and have a recognisable header before any work */
  for (int i = 0; i < nconf; i++) {
    hr_archive_info info;
    char err[1024];
    if (archive_probe(confs[i], &info, err, sizeof err) != 0)
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
  const int origin[4] = {0, 0, 0, 0};
  const dirac_op D = dirac_op_make(u, mp.m0, mp.csw, &bc);
  for (int i = 0; i < nconf; i++) {
    char err[1024];
    if (archive_read_checked(confs[i], HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, u, err,
                             sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "mk_mesons: %s", err);
    /* the operator follows the links just read (their new version) by itself */
    const hr_solver_status s = propagator_point(prop, &D, origin, mp.mixed, &sp, res);
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
    meson_correlators(prop, 0, nch, ch, corr);
    if (hr_rank() == 0) {
      for (int c = 0; c < nch; c++) {
        printf("conf=%s m0=%.15g csw=%.15g channel=%s C=", confs[i], mp.m0, mp.csw, ch[c].name);
        for (int t = 0; t < GLB_T; t++) printf(" %.15e", corr[c * GLB_T + t]);
        printf("\n");
      }
      fflush(stdout);
    }
  }
  free(corr);
  free_spinor_field_f(prop);
  free_gfield(u);
  dirac_finalize();
  geometry_finalize();
  free(confs);
  free(rest);
  hr_finalize();
  return HR_EXIT_OK;
}
