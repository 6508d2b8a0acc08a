/* libhr_info.c -- prints the configuration of this LibHR build (hr_log_build_config: version,
 * source revision, theory, MPI, OpenMP, GPU backend, vector instructions of the CPU Dirac
 * kernels, FFTW, MPFR, debug checks, compiler and flags) and checks, numerically, the
 * group theory of the compiled theory: the generators T^a_R of the fermion representation must
 * give tr(T^a_R T^b_R) = T_R delta^{ab} and sum_a T^a_R T^a_R = C_2(R) 1 with the standard
 * values, and U -> U^R must be a unitary homomorphism on Haar-random SU(N) matrices.
 * Input keys: seed (default 1), samples (default 100), tolerance (default 1e-12), log:*. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "libhr.h"

/* Largest |tr(T^a T^b) - T_R delta^{ab}| and largest entry of |sum_a T^a T^a - C_2 1|. */
static void generator_defects(double *trace_defect, double *casimir_defect) {
  static suNf T[NG * NG - 1];
  suNf casimir, prod;
  suNf_zero(&casimir);
  for (int a = 0; a < NG * NG - 1; ++a) suNf_generator(&T[a], a);
  *trace_defect = 0.0;
  for (int a = 0; a < NG * NG - 1; ++a) {
    for (int b = 0; b < NG * NG - 1; ++b) {
      suNf_mul(&prod, &T[a], &T[b]);
      hr_complex tr = suNf_trace(&prod);
      double expect = (a == b) ? repr_index(HR_BUILD_REPR, NG) : 0.0;
      double d = sqrt(hr_cabs2(tr - hr_cmplx(expect, 0.0)));
      if (d > *trace_defect) *trace_defect = d;
      if (a == b) suNf_add(&casimir, &casimir, &prod);
    }
  }
  *casimir_defect = 0.0;
  for (int i = 0; i < NF; ++i)
    for (int j = 0; j < NF; ++j) {
      double expect = (i == j) ? repr_casimir(HR_BUILD_REPR, NG) : 0.0;
      double d = sqrt(hr_cabs2(casimir.c[i * NF + j] - hr_cmplx(expect, 0.0)));
      if (d > *casimir_defect) *casimir_defect = d;
    }
}

/* Largest unitarity and homomorphism defects (Frobenius norms) of U -> U^R over `samples` random pairs. */
static void map_defects(long long seed, int samples, double *unitarity, double *homomorphism) {
  hr_rng_stream s;
  rng_stream_init(&s, (uint64_t)seed, 0, HR_RNG_NO_SITE);
  *unitarity = *homomorphism = 0.0;
  for (int k = 0; k < samples; ++k) {
    suNg U, V, UV;
    suNf RU, RV, RUV, RURV;
    suNg_random(&U, &s);
    suNg_random(&V, &s);
    suNg_mul(&UV, &U, &V);
    suNg_to_suNf(&RU, &U);
    suNg_to_suNf(&RV, &V);
    suNg_to_suNf(&RUV, &UV);
    suNf_mul(&RURV, &RU, &RV);
    double u = sqrt(cmat_unitarity_defect(NF, RU.c));
    double h = sqrt(cmat_sqdist(NF, RUV.c, RURV.c));
    if (u > *unitarity) *unitarity = u;
    if (h > *homomorphism) *homomorphism = h;
  }
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  long long seed = 1;
  int samples = 100;
  double tolerance = 1e-12;
  const input_key keys[] = {
      {"seed", INPUT_LONG, &seed, "1", NULL, "seed of the random SU(N) matrices"},
      {"samples", INPUT_INT, &samples, "100", ">=1", "number of random matrix pairs"},
      {"tolerance", INPUT_DOUBLE, &tolerance, "1e-12", ">0", "largest accepted defect"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  input_finish(in);

  hr_log_build_config("INFO", 0);
  lprintf("INFO", 0, "%-18s: %d MPI rank(s), %d OpenMP thread(s) per rank\n", "this run",
          hr_nranks(), hr_nthreads());
  lprintf("INFO", 0, "%-18s: suNg %zu B, suNf %zu B, spinor %zu B (double), %zu B (single)\n",
          "site sizes", sizeof(suNg), sizeof(suNf), sizeof(suNf_spinor), sizeof(suNf_spinor_flt));

  double tr_def, cas_def, uni_def, hom_def;
  generator_defects(&tr_def, &cas_def);
  map_defects(seed, samples, &uni_def, &hom_def);
  lprintf("INFO", 0, "d_R = %d, T_R = %.6f, C_2(R) = %.6f (standard formulas)\n", repr_dim(HR_BUILD_REPR, NG),
          repr_index(HR_BUILD_REPR, NG), repr_casimir(HR_BUILD_REPR, NG));
  lprintf("INFO", 0, "max |tr(T^a T^b) - T_R delta^ab|     = %.3e\n", tr_def);
  lprintf("INFO", 0, "max |sum_a T^a T^a - C_2(R) 1|       = %.3e\n", cas_def);
  lprintf("INFO", 0, "max |U^R (U^R)^+ - 1|  (%d samples)  = %.3e\n", samples, uni_def);
  lprintf("INFO", 0, "max |(UV)^R - U^R V^R| (%d samples)  = %.3e\n", samples, hom_def);
  int ok = tr_def < tolerance && cas_def < tolerance && uni_def < tolerance && hom_def < tolerance;
  lprintf("INFO", 0, "group theory of the compiled theory: %s (tolerance %.1e)\n", ok ? "OK" : "FAILED", tolerance);
  hr_finalize();
  return ok ? 0 : HR_EXIT_NUMERICS;
}
