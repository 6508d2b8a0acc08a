/* check_demo.c -- a small LibHR program for test_setup_exit.sh: keys with ranges (a
 * solver-like precision and iteration count), a cross-key check reported with input_fail,
 * then the lattice and process-grid keys (geometry_read_input, which also checks the grid
 * against the MPI rank count), input_finish, and a log line with the values read. */
#include <stdio.h>
#include <stdlib.h>

#include "libhr.h"

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, NULL);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  double beta = 0, precision = 0;
  int maxiter = 0, nsteps = 0, meas_every = 0;
  const input_key keys[] = {
      {"beta", INPUT_DOUBLE, &beta, NULL, ">=0", "gauge coupling"},
      {"precision", INPUT_DOUBLE, &precision, "1e-10", ">0 <1", "relative residual of the solver"},
      {"maxiter", INPUT_INT, &maxiter, "100", ">=1", "most iterations of the solver"},
      {"nsteps", INPUT_INT, &nsteps, "10", ">=0", "number of steps"},
      {"meas every", INPUT_INT, &meas_every, "5", ">=1", "measure every this many steps"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  if (nsteps % meas_every != 0)
    input_fail(in, NULL, "meas every", "%d does not divide nsteps = %d; choose a divisor of "
               "nsteps", meas_every, nsteps);
  geometry_params gp;
  geometry_read_input(&gp, in);
  input_finish(in);
  lprintf("DEMO", 0, "beta=%g precision=%g maxiter=%d nsteps=%d glb=%dx%dx%dx%d np=%dx%dx%dx%d\n",
          beta, precision, maxiter, nsteps, gp.glb[0], gp.glb[1], gp.glb[2], gp.glb[3],
          gp.np[0], gp.np[1], gp.np[2], gp.np[3]);
  hr_finalize();
  return EXIT_SUCCESS;
}
