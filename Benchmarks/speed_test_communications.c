/* speed_test_communications.c -- halo-exchange benchmark: time and bandwidth of the blocking
 * exchange of spinor-like fields (24 doubles per site, full lattice and one parity) and of
 * gauge-like fields (4 links of N x N complex numbers per site), and of the copy sync alone,
 * on the lattice and process grid of the input file.
 *
 * usage: [mpirun -np N] speed_test_communications -i input_file_comm
 * Input keys: GLB_*, NP_*, PB_* (geometry), n_exchanges (timed exchanges per field),
 * force_halo (directions among "txyz" that get a halo even when NP = 1: the process then
 * exchanges with itself, to measure the local cost). Printed per field: bytes each process
 * sends per exchange, time per exchange (slowest process), and the send bandwidth per
 * process and summed over processes in GB/s (1 GB = 1e9 bytes). */
#include "libhr.h"
#include "halo_exchange.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall_time(void) {
#if HR_WITH_MPI
  return MPI_Wtime();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
#endif
}

/* Time one kind of field: `dps` doubles per site with `layout` on g. */
static void bench(const char *name, const geometry_descriptor *g, hr_layout layout, int dps,
                  int n_exchanges) {
  size_t site_bytes = (size_t)dps * sizeof(double);
  size_t n = (size_t)geometry_field_size(g, layout) * (size_t)dps;
  double *f = malloc(n * sizeof(double));
  if (f == NULL) hr_fatal(HR_EXIT_SETUP, "speed_test_communications: cannot allocate %zu bytes", n * sizeof(double));
  for (size_t i = 0; i < n; i++) f[i] = (double)i;
  for (int i = 0; i < 3; i++) sendrecv_field(g, layout, f, site_bytes);

  global_barrier();
  double t0 = wall_time();
  for (int i = 0; i < n_exchanges; i++) sendrecv_field(g, layout, f, site_bytes);
  double t_exchange = (wall_time() - t0) / n_exchanges;
  global_barrier();
  t0 = wall_time();
  for (int i = 0; i < n_exchanges; i++) sync_copies(g, layout, f, site_bytes);
  double t_sync = (wall_time() - t0) / n_exchanges;
  global_max(&t_exchange, 1);
  global_max(&t_sync, 1);

  double bytes = (double)sendrecv_bytes(g, layout, site_bytes), total = bytes;
  global_sum(&total, 1);
  double copy_sites = 0;
  for (int c = 0; c < geometry_ncopies(g, layout); c++) copy_sites += g->copy_len[c];
  if (bytes == 0)
    lprintf("BENCH", 0, "%-22s no halo to exchange (no direction split); copy sync %.3g us\n",
            name, 1e6 * t_sync);
  else
    lprintf("BENCH", 0,
            "%-22s %10.0f bytes/process  %9.2f us/exchange  %7.3f GB/s/process  %8.3f GB/s "
            "total  (copy sync of %.0f sites: %.2f us)\n",
            name, bytes, 1e6 * t_exchange, bytes / t_exchange * 1e-9, total / t_exchange * 1e-9,
            copy_sites, 1e6 * t_sync);
  free(f);
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file_comm");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_params p;
  geometry_read_input(&p, in);
  int n_exchanges = 100;
  char force[INPUT_STRING_MAX] = "";
  input_key keys[] = {
      {"n_exchanges", INPUT_INT, &n_exchanges, "100", ">=1", "timed exchanges per field"},
      {"force_halo", INPUT_STRING, force, "none", NULL,
       "directions (letters of txyz) with a halo even when NP = 1, or none"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  input_finish(in);
  if (strcmp(force, "none") != 0)
    for (const char *c = force; *c; c++) {
      const char *dirs = "txyz", *d = strchr(dirs, *c);
      if (d == NULL)
        input_fail(in, NULL, "force_halo", "'%c' is not one of t, x, y, z (or use none)", *c);
      p.force_halo[d - dirs] = 1;
    }
  geometry_init(&p);

  lprintf("BENCH", 0, "halo exchange: lattice %dx%dx%dx%d, process grid %dx%dx%dx%d (%d ranks, %d threads each), local %dx%dx%dx%d, halo in%s%s%s%s%s\n",
          GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z, hr_nranks(), hr_nthreads(), LOC_T, LOC_X,
          LOC_Y, LOC_Z, HALO_DIR[0] ? " t" : "", HALO_DIR[1] ? " x" : "", HALO_DIR[2] ? " y" : "",
          HALO_DIR[3] ? " z" : "", (HALO_DIR[0] | HALO_DIR[1] | HALO_DIR[2] | HALO_DIR[3]) ? "" : " no direction");
  lprintf("BENCH", 0, "%d timed exchanges per field, blocking start+complete, times of the slowest rank\n", n_exchanges);
  int link_doubles = 2 * NG * NG;
  bench("spinor (24 dbl/site)", &glattice, HR_LAYOUT_SPINOR, 24, n_exchanges);
  bench("spinor even (24 dbl)", &glat_even, HR_LAYOUT_SPINOR, 24, n_exchanges);
  char gname[64];
  snprintf(gname, sizeof gname, "gauge SU(%d) (%d dbl)", NG, 4 * link_doubles);
  bench(gname, &glattice, HR_LAYOUT_GAUGE, 4 * link_doubles, n_exchanges);
  geometry_finalize();
  hr_finalize();
  return 0;
}
