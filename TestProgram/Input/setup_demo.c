/* setup_demo.c -- a small LibHR program for test_setup_exit.sh and test_log_record.sh: hr_setup
 * with -i/-o, the library's readers (hr_gpu_read_input, dirac_read_input), a key table with
 * every key type, repeated "monomial" blocks, input_finish, and a log line with the values
 * read. */
#include <stdio.h>
#include <stdlib.h>

#include "libhr.h"

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, NULL);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  int glb_t = 0, glb_x = 0, bc_t = 0, measure = 0;
  double beta = 0;
  long long seed = 0;
  char start[INPUT_STRING_MAX];
  const input_key keys[] = {
      {"GLB_T", INPUT_INT, &glb_t, NULL, NULL, "global lattice extent in t"},
      {"GLB_X", INPUT_INT, &glb_x, "4", NULL, "global lattice extent in x"},
      {"beta", INPUT_DOUBLE, &beta, NULL, NULL, "gauge coupling"},
      {"bc_t", INPUT_CHOICE, &bc_t, "periodic", "periodic|antiperiodic|open",
       "boundary condition in time"},
      {"gauge start", INPUT_STRING, start, "cold", NULL, "start configuration"},
      {"measure", INPUT_BOOL, &measure, "no", NULL, "measure the plaquette"},
      {"seed", INPUT_LONG, &seed, "1", NULL, "random seed"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  int n_monomials = input_count_blocks(in, "monomial");
  double mass_sum = 0;
  for (int i = 0; i < n_monomials; i++) {
    char label[INPUT_STRING_MAX], err[2048];
    double mass = 0;
    const input_key monomial_keys[] = {
        {"type", INPUT_CHOICE, NULL, NULL, "gauge|hmc|rhmc", "kind of monomial"},
        {"mass", INPUT_DOUBLE, &mass, "0", NULL, "bare mass"},
        {"name", INPUT_STRING, label, "none", NULL, "label"},
        INPUT_KEYS_END};
    if (input_read_block_keys(in, "monomial", i, monomial_keys, err, sizeof err) != 0)
      hr_fatal(HR_EXIT_INPUT, "%s", err);
    mass_sum += mass;
  }
  input_finish(in);
  lprintf("DEMO", 0, "GLB_T=%d GLB_X=%d beta=%g bc_t=%d start=%s measure=%d seed=%lld "
          "monomials=%d mass_sum=%g\n",
          glb_t, glb_x, beta, bc_t, start, measure, seed, n_monomials, mass_sum);
  lprintf("DEMO", 20, "a detail shown only with log:DEMO >= 20\n");
  hr_finalize();
  return EXIT_SUCCESS;
}
