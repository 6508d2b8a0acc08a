/* eigenvalues.c -- the lowest eigenvalues of D^+ D = (gamma5 D)^2 of the Wilson-clover
 * operator on gauge configurations: eigenvalues -i INPUT_FILE [-o LOG_FILE] CONFIG...
 * Each CONFIG (HiRep or openQCD format, recognised from its header) is read, the operator is
 * built with the input file's mass (eig:mass = m0, or eig:kappa with m0 = 1/(2 kappa) - 4),
 * eig:csw and boundary conditions (bc_t.., theta_t..), the eig:nev lowest eigenpairs are
 * computed by thick-restart Lanczos (eig_lowest, inverters.h) to eig:precision, and one line
 * per eigenvalue
 *   conf=<file> m0=<m0> csw=<csw> n=<i> eigenvalue=<lambda_i> residual=<|A v - lambda v|/lambda>
 * is printed on stdout, i = 0 .. eig:nev - 1 ascending. Doc/solvers_and_spectrum.md,
 * "Eigenvalues". Exit codes: 0 success, 2 bad input file or command line, 3 missing /
 * unreadable / mismatched configuration, 5 eigenpairs that did not converge (nothing is
 * printed for that configuration). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "archive.h"
#include "boundary_conditions.h"
#include "dirac.h"
#include "fields.h"
#include "geometry.h"
#include "gpu.h"
#include "hr_core.h"
#include "hr_error.h"
#include "input_file.h"
#include "inverters.h"
#include "logger.h"

/* Parameters of the measurement. */
typedef struct {
  double m0, kappa, csw;
  hr_eig_params eig;
} eig_input;

/* Reads the eig:* keys (exactly one of eig:mass and eig:kappa; eig:nev required) and checks
 * eig:nev against the number of components of a spinor field on the lattice (dim). */
static void read_eig_input(input_file *in, eig_input *e, double dim) {
  eig_params_default(&e->eig);
  input_key keys[] = {
      {"eig:nev", INPUT_INT, &e->eig.nev, NULL, ">=1", "number of lowest eigenvalues"},
      {"eig:csw", INPUT_DOUBLE, &e->csw, "0", ">=0", "clover coefficient"},
      {"eig:precision", INPUT_DOUBLE, &e->eig.tol, "1e-10", ">=1e-14 <1",
       "relative residual |D^+D v - lambda v| / lambda of every eigenpair"},
      {"eig:maxiter", INPUT_INT, &e->eig.max_restarts, "200", ">=1",
       "limit on the Lanczos cycles (restarts)"},
      {"eig:krylov", INPUT_INT, &e->eig.krylov_size, "0", ">=0",
       "Lanczos vectors per cycle (0: max(2 nev + 20, nev + 40))"},
      {"eig:verbosity", INPUT_INT, &e->eig.verbosity, "0", ">=0 <=1",
       "1: a log line per Lanczos cycle"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  const input_key mass_keys[] = {
      {"eig:mass", INPUT_DOUBLE, &e->m0, NULL, ">=-1e12 <=1e12", "bare mass m0"},
      {"eig:kappa", INPUT_DOUBLE, &e->kappa, NULL, ">=5e-13",
       "hopping parameter kappa, m0 = 1/(2 kappa) - 4"},
      INPUT_KEYS_END};
  if (input_read_one_of(in, NULL, mass_keys) == 1) e->m0 = 1.0 / (2.0 * e->kappa) - 4.0;
  if (e->eig.nev + 2 > dim)
    input_fail(in, NULL, "eig:nev", "%d is too large for the lattice: at most %.0f (the "
               "components of a spinor field, 4 NF V, minus 2)", e->eig.nev, dim - 2);
  if (e->eig.krylov_size != 0 && (e->eig.krylov_size < e->eig.nev + 2 ||
                                  e->eig.krylov_size > dim))
    input_fail(in, NULL, "eig:krylov", "must be 0 or in eig:nev + 2 .. %.0f (got %d)", dim,
               e->eig.krylov_size);
}

int main(int argc, char **argv) {
  int nconf = 0;
  char **confs = NULL;
  input_file *in = hr_setup_with_names(argc, argv, NULL, &nconf, &confs);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_params gp;
  geometry_read_input(&gp, in);
  dirac_bc bc;
  dirac_bc_read_input(&bc, in);
  eig_input e;
  read_eig_input(in, &e, 4.0 * NF * gp.glb[0] * gp.glb[1] * gp.glb[2] * (double)gp.glb[3]);
  input_finish(in);
  if (nconf == 0)
    hr_fatal(HR_EXIT_INPUT, "eigenvalues: no configuration given\nusage: eigenvalues -i "
             "INPUT_FILE [-o LOG_FILE] CONFIG...");
  /* every configuration must exist and have a recognisable header: checked first */
  for (int i = 0; i < nconf; i++) {
    hr_archive_info info;
    char err[1024];
    if (archive_probe(&info, confs[i], err, sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "eigenvalues: configuration %d of %d: %s", i + 1, nconf, err);
  }
  geometry_init(&gp);
  dirac_bc_print(&bc);
  lprintf("EIGENVALUES", 10, "m0 = %.15g, csw = %.15g: the %d lowest eigenvalues of D^+ D to "
          "a relative residual of %.1e\n", e.m0, e.csw, e.eig.nev, e.eig.tol);

  suNg_field *u = alloc_gfield(&glattice);
  spinor_field *evec = alloc_spinor_field_f(e.eig.nev, &glattice);
  double *eval = malloc((size_t)e.eig.nev * sizeof(double));
  double *resid = malloc((size_t)e.eig.nev * sizeof(double));
  if (eval == NULL || resid == NULL) hr_fatal(HR_EXIT_SETUP, "eigenvalues: out of memory");
  const dirac_op D = dirac_op_make(u, e.m0, e.csw, &bc);
  const hr_linear_operator A = dirac_linear_operator(&D, DIRAC_FORM_Q2); /* D^+ D */
  for (int i = 0; i < nconf; i++) {
    char err[1024];
    if (archive_read_checked(u, confs[i], HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err,
                             sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "eigenvalues: %s", err);
    hr_eig_result res;
    const hr_solver_status s = eig_lowest(eval, evec, resid, &A, &e.eig, &res);
    if (s != HR_SOLVER_CONVERGED)
      hr_fatal(HR_EXIT_NUMERICS, "eigenvalues: %s: the eigenpairs did not converge (%s; "
               "largest residual %.3e, tolerance %.1e after %d Lanczos cycles): nothing is "
               "printed. Raise eig:maxiter or eig:krylov, or loosen eig:precision",
               confs[i], solver_status_name(s), res.max_residual, e.eig.tol, res.restarts);
    lprintf("EIGENVALUES", 10, "%s: %d eigenpairs, %d Lanczos cycles, %ld applications of "
            "D^+ D, largest residual %.3e, %.2f s\n", confs[i], e.eig.nev, res.restarts,
            res.applies, res.max_residual, res.seconds);
    if (hr_rank() == 0) {
      for (int n = 0; n < e.eig.nev; n++)
        printf("conf=%s m0=%.15g csw=%.15g n=%d eigenvalue=%.15e residual=%.15e\n", confs[i],
               e.m0, e.csw, n, eval[n], resid[n]);
      fflush(stdout);
    }
  }
  free(resid);
  free(eval);
  free_spinor_field_f(evec);
  free_gfield(u);
  dirac_finalize();
  geometry_finalize();
  hr_finalize();
  return HR_EXIT_OK;
}
