/* speed_test_linear_algebra.c -- speed of the spinor-field linear algebra (linear_algebra.h)
 * on the lattice and process grid of the input file: for mul_add_assign, sqnorm, prod, copy
 * and lc in double and single precision, the time per call, the memory traffic in GB/s and
 * its fraction of the STREAM-triad bandwidth measured in the same run with the same threads
 * and processes (GPU path: of the device-to-device copy bandwidth, bench_device_copy). Runs on
 * the backend of the build (CPU, or the device copies in GPU builds).
 *
 * usage: [mpirun -np N] speed_test_linear_algebra -i input_file_linear_algebra
 * Input keys: GLB_*, NP_*, PB_* (geometry), min_time (seconds each operation is timed; the
 * figure is the best of 5 windows),
 * threads (list of OpenMP thread counts to measure, e.g. "1 2"; 0 = the OMP_NUM_THREADS
 * default). Fields live on glattice.
 *
 * Bytes per call counted (as STREAM does: each array read or written once, no
 * write-allocate): S = 4 NF complex numbers per site = 64 NF bytes (double) or 32 NF (single)
 *   mul_add_assign r += c s    3 S per site (read r, read s, write r)
 *   sqnorm |s|^2               1 S
 *   prod <r, s>                2 S
 *   copy r = s                 2 S (read s, write r)
 *   lc r = c1 s1 + c2 s2       3 S (read s1, read s2, write r)  */
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "libhr.h"

/* One operation to time: what it does to fields f[0..2] of one precision. */
typedef struct {
  const char *name;
  int streams; /* arrays of S bytes moved per site */
  void (*run_dbl)(spinor_field *f);
  void (*run_flt)(spinor_field_flt *f);
} la_bench_op;

static volatile double sink; /* keeps reductions alive */

static void mad_d(spinor_field *f) { mul_add_assign_spinor_field(&f[0], 1e-3, &f[1]); }
static void mad_s(spinor_field_flt *f) { mul_add_assign_spinor_field_flt(&f[0], 1e-3, &f[1]); }
static void sqn_d(spinor_field *f) { sink = sqnorm_spinor_field(&f[1]); }
static void sqn_s(spinor_field_flt *f) { sink = sqnorm_spinor_field_flt(&f[1]); }
static void prd_d(spinor_field *f) { sink = hr_creal(prod_spinor_field(&f[0], &f[1])); }
static void prd_s(spinor_field_flt *f) { sink = hr_creal(prod_spinor_field_flt(&f[0], &f[1])); }
static void cpy_d(spinor_field *f) { copy_spinor_field(&f[2], &f[1]); }
static void cpy_s(spinor_field_flt *f) { copy_spinor_field_flt(&f[2], &f[1]); }
static void lc_d(spinor_field *f) { lc_spinor_field(&f[2], 0.5, &f[0], -0.25, &f[1]); }
static void lc_s(spinor_field_flt *f) { lc_spinor_field_flt(&f[2], 0.5, &f[0], -0.25, &f[1]); }

static const la_bench_op ops[] = {{"mul_add_assign", 3, mad_d, mad_s},
                                  {"sqnorm", 1, sqn_d, sqn_s},
                                  {"prod", 2, prd_d, prd_s},
                                  {"copy", 2, cpy_d, cpy_s},
                                  {"lc", 3, lc_d, lc_s}};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* Seconds per call of op on the fields of one precision (flt selects): the best of 5 windows
 * of at least min_time / 5 each (the same number of calls on every process), so that other
 * load on the machine disturbs the figure as little as possible. */
static double time_op(const la_bench_op *op, int flt, spinor_field *fd, spinor_field_flt *fs,
                      double min_time) {
  if (flt)
    op->run_flt(fs);
  else
    op->run_dbl(fd); /* warm-up: brings fields to the backend's side */
  hr_gpu_synchronize();
  const double window = min_time / 5;
  long calls = 1;
  double best = 1e30;
  int windows = 0;
  while (windows < 5) {
    global_barrier();
    const double t0 = bench_wtime();
    for (long i = 0; i < calls; i++) {
      if (flt)
        op->run_flt(fs);
      else
        op->run_dbl(fd);
    }
    hr_gpu_synchronize();
    double t = bench_wtime() - t0;
    global_max(&t, 1);
    if (t < window) { /* too short to count: more calls */
      calls = t > 0 ? (long)(calls * 1.2 * window / t) + 1 : calls * 10;
      continue;
    }
    if (t / (double)calls < best) best = t / (double)calls;
    windows++;
  }
  return best;
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, NULL);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_init_from_input(in);
  double min_time = 1.0;
  char thread_list[INPUT_STRING_MAX] = "0";
  input_key keys[] = {
      {"min_time", INPUT_DOUBLE, &min_time, "1.0", ">0", "seconds each operation is timed"},
      {"threads", INPUT_STRING, thread_list, "0", NULL,
       "OpenMP thread counts to measure, e.g. 1 2 (0: OMP_NUM_THREADS)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  input_finish(in);

  rng_init(12345);
  spinor_field *fd = alloc_spinor_field_f(3, &glattice);
  spinor_field_flt *fs = alloc_spinor_field_f_flt(3, &glattice);
  for (int i = 0; i < 3; i++) {
    gaussian_spinor_field(&fd[i]);
    gaussian_spinor_field_flt(&fs[i]);
  }
  const double sites = (double)GLB_VOLUME;
  const double S[2] = {sites * sizeof(suNf_spinor), sites * sizeof(suNf_spinor_flt)};
  const size_t local_field = (size_t)VOLUME * sizeof(suNf_spinor);

  lprintf("BENCH", 0, "speed_test_linear_algebra: lattice %dx%dx%dx%d, %d process(es) (grid %dx%dx%dx%d), "
          "SU(%d) %s NF=%d, backend %s\n", GLB_T, GLB_X, GLB_Y, GLB_Z, hr_nranks(), NP_T, NP_X,
          NP_Y, NP_Z, NG, HR_REPR_NAME, NF, HR_GPU_ENABLED ? HR_GPU_NAME " GPU" : "CPU");
  lprintf("BENCH", 0, "spinor field: %.1f MB (double), %.1f MB (single) in all; bytes per call "
          "= streams x field size\n", S[0] * 1e-6, S[1] * 1e-6);

  char *save = NULL;
  for (char *tok = strtok_r(thread_list, " ,", &save); tok != NULL; tok = strtok_r(NULL, " ,", &save)) {
    const int nt = bench_set_threads(atoi(tok));
    const double triad = bench_stream_triad(local_field, 10);
    const double read = bench_stream_read(local_field, 10);
    lprintf("BENCH", 0, "--- %d thread(s) per process: STREAM triad %.2f GB/s (3 arrays of "
            "%.1f MB per process); read-only sum of squares %.2f GB/s\n", nt, triad,
            local_field * 1e-6, read);
    /* the GPU path: the device's copy bandwidth is the ceiling */
    const int on_gpu = HR_GPU_ENABLED && hr_backend_current() == HR_BACKEND_GPU;
    const double ceiling = on_gpu ? bench_device_copy(3 * local_field, 10) : triad;
    if (on_gpu)
      lprintf("BENCH", 0, "GPU path: device copy (device to device, %.1f MB, read + write) "
              "%.2f GB/s (ceiling)\n", 3 * local_field * 1e-6, ceiling);
    lprintf("BENCH", 0, "%-16s %-6s %12s %10s %10s %8s\n", "operation", "prec", "time/call",
            "bytes/site", "GB/s", on_gpu ? "/copy" : "/STREAM");
    for (int flt = 0; flt <= 1; flt++)
      for (int o = 0; o < NOPS; o++) {
        const double t = time_op(&ops[o], flt, fd, fs, min_time);
        const double bytes = ops[o].streams * S[flt];
        const double gbs = bytes / t * 1e-9;
        lprintf("BENCH", 0, "%-16s %-6s %9.3f ms %10.0f %10.2f %7.1f%%\n", ops[o].name,
                flt ? "single" : "double", 1e3 * t, bytes / sites, gbs,
                ceiling > 0 ? 100 * gbs / ceiling : 0.0);
      }
  }
  if (HR_GPU_ENABLED) hr_tune_report();
  free_spinor_field_f(fd);
  free_spinor_field_f_flt(fs);
  geometry_finalize();
  hr_finalize();
  return 0;
}
