/* speed_test_diracoperator.c -- speed of the Wilson and Wilson-clover operators on the lattice
 * and process grid of the input file, in double and single precision. One line per operator:
 *   op=<name> prec=<double|single> lattice=<TxXxYxZ> ranks=<n> threads=<n> ms_per_call=<>
 *   ns_per_site=<> bytes_per_site=<> gflops=<> GBps=<> roofline_fraction=<>
 * (ns and bytes per output site: per even site for the even/odd operators), after a line
 * with the vector instructions of the CPU kernels (configure --with-simd) and the compiler
 * flags of the library. Operators: hopping (even <- odd hopping term Dphi_hop), Dphi (full
 * Wilson operator), Dphi_clover (full Wilson-clover operator), g5Dphi_eopre_sq (Wilson),
 * Dphi_eopre_clover (clover even/odd preconditioned operator). Flops: the standard count
 * (printed at start): hopping term 128 NF^2 + 56 NF per output site (1320 for SU(3)
 * fundamental), plus the diagonal terms (see Doc/dirac.md). Bytes: the unavoidable traffic;
 * for the hopping term per output site 8 links, one input and one output spinor (1536 B
 * double SU(3) fundamental). The ceiling is the STREAM-triad bandwidth measured in the same
 * run on the same memory footprint as the operator (a 512 MB triad is printed too);
 * roofline_fraction = GBps / ceiling. A second line gives the calls timed and the CPU share
 * the threads got (the smallest over the ranks); an operator timed while some rank's threads
 * got less than 0.95 of their cores (another load on the machine) is timed again, up to 3
 * times, and the attempt with the largest share is kept. With the input key rounds = N every
 * operator is timed once in each of N rounds over all operators, its line gives the median,
 * and a line "rounds <op> <prec>: N, ns_per_site median .. min .. max .." follows it.
 * Where the operator exchanges a halo (MPI process grids) a line per operator gives the
 * exchanges and bytes per call (spin-projected half spinors), the time spent waiting for them
 * after the inner pieces with and without overlap, and the fraction of the exchange hidden
 * behind the inner pieces; on the CPU a second line gives rank 0's time per output site in the
 * loop over the inner pieces and in the loop over the boundary pieces.
 * In GPU builds the operators run on the GPU path: every timing ends with a device
 * synchronisation, the ceiling is the bandwidth of the field algebra's r += c s on device
 * spinor fields of the operator's footprint (two reads and a write, measured in the same run),
 * and each line also gives bound_ns_per_site = bytes_per_site / ceiling and, for the hopping
 * term, the bytes the kernel moves with its site tables (Doc/gpu.md, "Bytes per site").
 * On the CPU (input key data_only = true, the default) each operator is timed again with the
 * CPU loops moving its data without its arithmetic (dirac_set_cpu_data_only): a line
 *   data-only <op> <prec>: ns_per_site=<> GBps=<> roofline_fraction=<>; the operator takes <r>
 * gives the bound of the operator's own memory access pattern and the operator's time over it.
 * On the CPU four lines stream_sites give the site-stream probe (bench_stream_sites) with the
 * hopping term's bytes per site: the bandwidth of a loop with its byte mix and no arithmetic
 * (work=0), and with 4 and 16 dependent multiply-adds per site, as a fraction of the triad,
 * with each thread's sites in order (streams=1) and, with 4, as two interleaved halves
 * (streams=2: the CPU loops' cpu:prefetch = interleaved).
 * usage: [mpirun -np N] speed_test_diracoperator -i input_file_dirac (or input_file_dirac_large:
 * 48x24^3, larger than the caches) */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "libhr.h"
#include "clover.h"
#include "dirac.h"
#include "suN_random.h"

static void fill_spinor(spinor_field *f, uint64_t draw) {
  host_write_spinor_field(f);
  _OMP_MASTER_FOR(f->type, ix) {
    int g[4];
    global_coordinates(g, ix);
    hr_rng_stream st;
    rng_stream_init(&st, 99, draw, (uint64_t)((((long long)g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3]));
    suNf_spinor *s = _FIELD_AT(f, ix);
    for (int a = 0; a < 4; a++)
      for (int i = 0; i < NF; i++) {
        double re = rng_gaussian(&st);
        double im = rng_gaussian(&st);
        s->c[a].c[i] = hr_cmplx(re, im);
      }
  }
}

/* Bytes of site tables the GPU hopping kernel reads per output site, besides links and
 * spinors (dirac_gpu_template.h): iup and idn (8 ints), the piece entries (offset, length) of
 * the output site in the output and link tables, and of each input site and of each link
 * site of the other parity, read by 8 output sites each from cache (8 B per output site
 * each). */
#define GPU_TABLE_BYTES (8 * 4 + 4 * 8)

/* Timings of an operator, and the CPU share of the threads (smallest over the ranks) below
 * which an attempt is timed again (the machine's other load took part of the cores). */
#define BENCH_ATTEMPTS 3
#define BENCH_MIN_SHARE 0.95

typedef struct {
  const char *name;
  int clover;
  const geometry_descriptor *out_g, *in_g;
  double flop_per_site; /* per site of out_g */
  double bytes_per_site;
  void (*dbl)(spinor_field *, const dirac_op *, const spinor_field *);
  void (*flt)(spinor_field_flt *, const dirac_op *, const spinor_field_flt *);
} bench_op;

/* Process CPU time in seconds (all threads). */
static double cpu_time(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds per call (slowest rank); *cpu_share = CPU time / (wall time x threads), below 1
 * when the threads did not get their cores (a loaded machine). */
static double time_op(const bench_op *op, int single, const dirac_op *D, double min_time,
                      int *calls, double *cpu_share) {
  spinor_field *in = alloc_spinor_field(1, op->in_g), *out = alloc_spinor_field(1, op->out_g);
  spinor_field_flt *inf = alloc_spinor_field_flt(1, op->in_g);
  spinor_field_flt *outf = alloc_spinor_field_flt(1, op->out_g);
  fill_spinor(in, 1);
  to_flt_spinor_field(inf, in);
  /* warm-up, long enough for the CPU loops to choose their prefetch by timing */
  for (int w = 0; w < DIRAC_CPU_PREFETCH_CALLS; w++) {
    if (single) op->flt(outf, D, inf);
    else op->dbl(out, D, in);
  }
  hr_gpu_synchronize();
  dirac_comm_stats_reset(); /* the halo statistics of the timed calls only */
  int n = 0;
  const double c0 = cpu_time();
  double t0 = bench_wtime(), t;
  int go = 1;
  do {
    for (int k = 0; k < 5; k++) {
      if (single) op->flt(outf, D, inf);
      else op->dbl(out, D, in);
    }
    hr_gpu_synchronize(); /* GPU builds: the kernels have run (no-op otherwise) */
    n += 5;
    t = bench_wtime() - t0;
    double tt = t;
    global_max(&tt, 1); /* every rank agrees when to stop */
    go = tt < min_time;
  } while (go);
  *cpu_share = (cpu_time() - c0) / (t * hr_nthreads());
  global_max(&t, 1);
  free_spinor_field(in);
  free_spinor_field(out);
  free_spinor_field_flt(inf);
  free_spinor_field_flt(outf);
  *calls = n;
  return t / n;
}

/* Seconds per call of time_op, timed again while some rank's threads got less than
 * BENCH_MIN_SHARE of their cores, up to BENCH_ATTEMPTS in all: the attempt with the largest
 * smallest share is kept (its calls and share returned, with the attempts made). */
static double time_op_fair(const bench_op *op, int single, const dirac_op *D, double min_time,
                           int *calls, double *share, int *attempts) {
  double t = 0.;
  *share = -1.;
  *attempts = 0;
  while (*attempts < BENCH_ATTEMPTS && *share < BENCH_MIN_SHARE) {
    int calls_a;
    double share_a;
    const double t_a = time_op(op, single, D, min_time, &calls_a, &share_a);
    global_min(&share_a, 1); /* every rank agrees whether to time again */
    (*attempts)++;
    if (share_a > *share) {
      t = t_a;
      *calls = calls_a;
      *share = share_a;
    }
  }
  return t;
}

/* qsort order of doubles, ascending. */
static int compare_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Bandwidth in GB/s (summed over ranks) of r += c s (the field algebra, on the backend the
 * operators run on) over pairs of spinor fields of glattice holding at least bytes_per_array
 * bytes each side: two reads and a write per element, best of `passes`. */
static double field_triad(size_t bytes_per_array, int passes) {
  const size_t fb = (size_t)geometry_field_size(&glattice, HR_LAYOUT_SPINOR) * sizeof(suNf_spinor);
  const int n = (int)((bytes_per_array + fb - 1) / fb);
  spinor_field *r = alloc_spinor_field(n, &glattice), *a = alloc_spinor_field(n, &glattice);
  for (int j = 0; j < n; j++) {
    fill_spinor(&r[j], 10 + (uint64_t)j);
    fill_spinor(&a[j], 20 + (uint64_t)j);
    mul_add_assign_spinor_field(&r[j], 1e-3, &a[j]); /* both on the side the algebra runs */
  }
  double master_sites = 0;
  _MASTER_FOR(&glattice, ix) master_sites += 1;
  double best = 1e30;
  for (int p = 0; p < passes; p++) {
    hr_gpu_synchronize();
    global_barrier();
    const double t0 = bench_wtime();
    for (int j = 0; j < n; j++) mul_add_assign_spinor_field(&r[j], 1e-3, &a[j]);
    hr_gpu_synchronize();
    double t = bench_wtime() - t0;
    global_max(&t, 1);
    if (t < best) best = t;
  }
  free_spinor_field(r);
  free_spinor_field(a);
  double gbs = 3. * (double)sizeof(suNf_spinor) * master_sites * n / best * 1e-9;
  global_sum(&gbs, 1);
  return gbs;
}

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "input_file_dirac");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_params p;
  geometry_read_input(&p, in);
  double m0 = 0.1, csw = 1.0, min_time = 1.0;
  int data_only = 1, rounds = 1;
  input_key keys[] = {
      {"m0", INPUT_DOUBLE, &m0, "0.1", NULL, "bare mass"},
      {"csw", INPUT_DOUBLE, &csw, "1.0", NULL, "clover coefficient of the clover operator"},
      {"min_time", INPUT_DOUBLE, &min_time, "1.0", ">0", "seconds each operator is timed at least"},
      {"rounds", INPUT_INT, &rounds, "1", ">0",
       "rounds over all operators, each timed once per round; the lines give the median"},
      {"data_only", INPUT_BOOL, &data_only, "true", NULL,
       "time each operator also with the CPU loops moving its data only (dirac_set_cpu_data_only)"},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  dirac_bc bc;
  dirac_bc_read_input(&bc, in);
  input_finish(in);
  geometry_init(&p);
  dirac_bc_print(&bc);

  /* smooth random gauge field U = exp(i 0.3 v_a T^a), keyed by global site */
  suNg_field *u = alloc_suNg_field(1, &glattice);
  host_write_suNg_field(u);
  _OMP_MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    hr_rng_stream st;
    rng_stream_init(&st, 7, 0, (uint64_t)((((long long)g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3]));
    for (int mu = 0; mu < 4; mu++) {
      suNg_algebra_vector v;
      suNg_algebra_vector_random(&v, &st);
      suNg_algebra_vector_scale(&v, 0.3, &v);
      suNg_exp(_4FIELD_AT(u, ix, mu), &v);
    }
  }
  const dirac_op wilson = dirac_op_make(u, m0, 0., &bc), clover = dirac_op_make(u, m0, csw, &bc);

  const double hop = (double)dirac_hop_flop_per_site();
  const double diag_flop = 24. * NF;              /* (4+m0) x + s r: scale and axpy */
  const double inv_flop = 8. * NF;                /* s r / (4+m0) */
  const double clov_flop = 64. * NF * NF - 8. * NF; /* two (2NF)^2 complex mat-vecs */
  const double sp = 4. * NF * 16, lk = NF * NF * 16.; /* bytes of a spinor / link, double */
  /* the GPU path: with gpu:links = 12 the kernels read two rows of each link */
  const int on_gpu = HR_GPU_ENABLED && hr_backend_current() == HR_BACKEND_GPU;
  const int links = on_gpu ? dirac_gpu_links() : 18;
  const double lk_read = links == 12 ? 2. * NF * 16. : lk;
  const double hop_b = 8 * lk_read + 2 * sp;      /* hopping term per output site */
  const double blk_b = (double)sizeof(suNf_clover); /* one site's packed clover blocks */
  bench_op ops[] = {
      {"hopping", 0, &glat_even, &glat_odd, hop, hop_b, Dphi_hop, Dphi_hop_flt},
      {"Dphi", 0, &glattice, &glattice, hop + diag_flop, hop_b + sp, Dphi, Dphi_flt},
      {"Dphi_clover", 1, &glattice, &glattice, hop + clov_flop + 16. * NF, hop_b + sp + blk_b,
       Dphi, Dphi_flt},
      {"g5Dphi_eopre_sq", 0, &glat_even, &glat_even, 2 * (2 * hop + diag_flop + inv_flop),
       2 * (2 * hop_b + sp), g5Dphi_eopre_sq, g5Dphi_eopre_sq_flt},
      {"Dphi_eopre_clover", 1, &glat_even, &glat_even,
       2 * hop + 2 * clov_flop + 16. * NF, 2 * hop_b + sp + 2 * blk_b, Dphi_eopre, Dphi_eopre_flt},
  };
  const int nops = (int)(sizeof ops / sizeof ops[0]);

  double nsites_local[sizeof ops / sizeof ops[0]];
  for (int k = 0; k < nops; k++) {
    nsites_local[k] = 0;
    _MASTER_FOR(ops[k].out_g, ix) nsites_local[k] += 1;
  }
  /* ceiling: triad over the footprint of the hopping term (links + 2 half spinor fields) */
  const size_t footprint = (size_t)(4. * geometry_field_size(&glattice, HR_LAYOUT_GAUGE) * lk +
                                    geometry_field_size(&glattice, HR_LAYOUT_SPINOR) * sp);
  const double host_triad = bench_stream_triad(footprint / 3, 10);
  const double triad_big = bench_stream_triad(((size_t)512 << 20) / 3, 5);
  /* the GPU path: the device's bandwidth over the same footprint is the ceiling */
  const double triad = on_gpu ? field_triad(footprint / 3, 10) : host_triad;
  lprintf("BENCH", 0, "SU(%d) %s, NF = %d; hopping flop/site = 128 NF^2 + 56 NF = %.0f; hopping "
          "bytes/site (double) = 8 links + 2 spinors = (8 NF^2 + 8 NF) x 16 = %.0f\n",
          NG, repr_name(HR_BUILD_REPR), NF, hop, 8 * lk + 2 * sp);
  if (links == 12)
    lprintf("BENCH", 0, "12-number links (gpu:links = 12): 8 x %.0f + 2 spinors = %.0f bytes per "
            "hopping site (double); the third rows are rebuilt in the kernels\n", lk_read, hop_b);
  lprintf("BENCH", 0, "stream_triad footprint=%.1fMB GBps=%.2f%s; stream_triad "
          "footprint=512MB GBps=%.2f (summed over %d ranks)\n", footprint / 1048576., host_triad,
          on_gpu ? " (host)" : " (ceiling)", triad_big, hr_nranks());
  if (on_gpu) {
    char dev[256];
    hr_gpu_device_name(dev, sizeof dev);
    lprintf("BENCH", 0, "GPU path on %s: device triad (r += c s on spinor fields) "
            "footprint=%.1fMB GBps=%.2f (ceiling); the hopping kernel also reads its site "
            "tables, %d B per output site (Doc/gpu.md)\n", dev, footprint / 1048576., triad,
            GPU_TABLE_BYTES);
    lprintf("BENCH", 0, "GPU path: device copy (device to device, read + write) footprint=%.1fMB "
            "GBps=%.2f (for reference)\n", footprint / 1048576.,
            bench_device_copy(footprint / 2, 10));
  }
  if (!on_gpu) {
    /* the site-stream probe with the hopping term's bytes (double): what a loop with its
     * byte mix reaches on this machine, without and with arithmetic per site, and with each
     * thread's sites walked as two interleaved halves (Doc/dirac.md, "What bounds the
     * memory-bound operators", "Two streams per thread") */
    const int work[] = {0, 4, 16, 4}, streams[] = {1, 1, 1, 2};
    for (int j = 0; j < 4; j++) {
      const double g = bench_stream_sites((size_t)(hop_b - sp), (size_t)sp,
                                          (long)nsites_local[0], work[j], streams[j], 5);
      lprintf("BENCH", 0, "stream_sites read=%.0fB write=%.0fB per site (the hopping term's, "
              "double) work=%d streams=%d GBps=%.2f fraction_of_triad=%.3f\n", hop_b - sp, sp,
              work[j], streams[j], g, host_triad > 0 ? g / host_triad : 0.);
    }
  }
  lprintf("BENCH", 0, "overlap of communication: %s; CPU halo between ranks of a node: %s\n",
          dirac_comm_overlap() ? "on" : "off",
          dirac_node_halo() ? "through node memory (comm:node_halo = on)" : "MPI messages");
  lprintf("BENCH", 0, "CPU Dirac kernels: %s (%s); library built with: %s\n", HR_SIMD,
          HR_SIMD_CFLAGS, HR_BUILD_CFLAGS);

  /* rounds > 1: every operator is timed in each of `rounds` rounds over all operators, and
   * its line gives the median; the rounds interleave the operators, so that a drift of the
   * machine's speed (other loads on its memory or caches) falls on all of them alike */
  double *round_t = malloc(sizeof(double) * (size_t)(2 * nops * rounds));
  if (round_t == NULL)
    hr_fatal(HR_EXIT_SETUP, "speed_test_diracoperator: no memory for the timings of %d rounds",
             rounds);
  for (int r = 0; r + 1 < rounds; r++)
    for (int k = 0; k < nops; k++)
      for (int single = 0; single < 2; single++) {
        int calls_r, attempts_r;
        double share_r;
        round_t[(2 * k + single) * rounds + r] =
            time_op_fair(&ops[k], single, ops[k].clover ? &clover : &wilson, min_time, &calls_r,
                         &share_r, &attempts_r);
      }
  for (int k = 0; k < nops; k++)
    for (int single = 0; single < 2; single++) {
      /* the last round: its calls, share and halo statistics are the ones printed */
      int calls = 0, attempts = 0;
      double share;
      double *tk = round_t + (2 * k + single) * rounds;
      tk[rounds - 1] = time_op_fair(&ops[k], single, ops[k].clover ? &clover : &wilson,
                                    min_time, &calls, &share, &attempts);
      const dirac_comm_stats comm = dirac_comm_stats_get();
      qsort(tk, (size_t)rounds, sizeof *tk, compare_double);
      const double t = rounds % 2 ? tk[rounds / 2] : 0.5 * (tk[rounds / 2 - 1] + tk[rounds / 2]);
      double sites = nsites_local[k];
      global_sum(&sites, 1);
      const double flop = ops[k].flop_per_site * sites;
      const double bytes = ops[k].bytes_per_site * sites * (single ? 0.5 : 1.);
      const double gbps = bytes / t * 1e-9;
      const double site_bytes = ops[k].bytes_per_site * (single ? 0.5 : 1.);
      lprintf("BENCH", 0,
              "op=%s prec=%s lattice=%dx%dx%dx%d ranks=%d threads=%d ms_per_call=%.4f "
              "ns_per_site=%.1f bytes_per_site=%.0f gflops=%.2f GBps=%.2f roofline_fraction=%.3f"
              " bound_ns_per_site=%.2f\n",
              ops[k].name, single ? "single" : "double", GLB_T, GLB_X, GLB_Y, GLB_Z,
              hr_nranks(), hr_nthreads(), 1e3 * t, 1e9 * t / sites, site_bytes, flop / t * 1e-9,
              gbps, triad > 0 ? gbps / triad : 0., triad > 0 ? site_bytes / triad : 0.);
      if (on_gpu && k == 0)
        lprintf("BENCH", 0, "  hopping %s on the GPU: %.0f bytes per site with the site tables "
                "(%.3f of the minimum), %.1f%% of the ceiling for them\n",
                single ? "single" : "double", site_bytes + GPU_TABLE_BYTES,
                (site_bytes + GPU_TABLE_BYTES) / site_bytes,
                triad > 0 ? 100. * (bytes + GPU_TABLE_BYTES * sites) / t * 1e-9 / triad : 0.);
      if (rounds > 1)
        lprintf("BENCH", 0, "  rounds %s %s: %d, ns_per_site median %.1f min %.1f max %.1f\n",
                ops[k].name, single ? "single" : "double", rounds, 1e9 * t / sites,
                1e9 * tk[0] / sites, 1e9 * tk[rounds - 1] / sites);
      /* flop per second of CPU time actually received, per thread: what one core delivers */
      const double per_core = flop / (t * share * hr_nthreads()) * 1e-9;
      lprintf("BENCH", 1,
              "  (%s %s: %d calls, CPU share of the threads %.2f%s, timed %d time(s); %.2f "
              "GFLOP per CPU-second per thread)\n",
              ops[k].name, single ? "single" : "double", calls, share,
              share < BENCH_MIN_SHARE ? ": machine loaded, timing pessimistic" : "", attempts,
              per_core);
      if (comm.exchanges > 0 && dirac_comm_overlap()) {
        /* the same operator with the exchange completed before any site is computed: the
         * wait is then the whole exchange, and the overlap hides 1 - wait_on / wait_off of it */
        int calls_off;
        double share_off;
        dirac_set_comm_overlap(0);
        const double t_off = time_op(&ops[k], single, ops[k].clover ? &clover : &wilson,
                                     min_time, &calls_off, &share_off);
        const dirac_comm_stats off = dirac_comm_stats_get();
        dirac_set_comm_overlap(1);
        double w[2] = {comm.wait_seconds / calls, off.wait_seconds / calls_off};
        global_max(w, 2);
        lprintf("BENCH", 0,
                "  halo %s %s: %.1f exchanges and %.0f bytes sent per call and rank (spin-"
                "projected half spinors; %.0f of them through node memory), projecting %.1f us; "
                "wait after the inner pieces %.1f us per call, %.1f us without overlap (%.1f "
                "ns_per_site): %.0f%% of the exchange hidden\n",
                ops[k].name, single ? "single" : "double", (double)comm.exchanges / calls,
                comm.bytes_sent / calls, comm.bytes_node / calls, 1e6 * comm.pack_seconds / calls,
                1e6 * w[0], 1e6 * w[1],
                1e9 * t_off / sites, w[1] > 0 ? 100. * (1. - w[0] / w[1]) : 0.);
        if (comm.inner_sites > 0 && comm.boundary_sites > 0) /* rank 0's loops */
          lprintf("BENCH", 0,
                  "  loops %s %s: inner pieces %.1f ns per output site (exchange progressing), "
                  "boundary pieces %.1f ns per output site, on one rank\n",
                  ops[k].name, single ? "single" : "double",
                  1e9 * comm.inner_seconds / comm.inner_sites,
                  1e9 * comm.boundary_seconds / comm.boundary_sites);
      }
      if (data_only && !on_gpu) {
        /* the same operator with the CPU loops reading and writing its data only: the bound
         * of its memory access pattern, measured (Doc/dirac.md, "The data-only bound") */
        int calls_d;
        double share_d;
        dirac_set_cpu_data_only(1);
        const double t_d = time_op(&ops[k], single, ops[k].clover ? &clover : &wilson, min_time,
                                   &calls_d, &share_d);
        dirac_set_cpu_data_only(0);
        const double gbps_d = bytes / t_d * 1e-9;
        lprintf("BENCH", 0,
                "  data-only %s %s: ns_per_site=%.1f GBps=%.2f roofline_fraction=%.3f; the "
                "operator takes %.2f of the time of its data movement alone\n",
                ops[k].name, single ? "single" : "double", 1e9 * t_d / sites, gbps_d,
                triad > 0 ? gbps_d / triad : 0., t / t_d);
      }
    }
  if (!on_gpu) { /* what the CPU loops chose (cpu:prefetch = auto), per class of kernel */
    char pfs[768] = ""; /* 16 classes of up to 40 characters */
    static const char *const epilogue[DIRAC_CPU_PREFETCH_EPILOGUES] = {"bare", "x", "clover",
                                                                       "inverse"};
    for (int single = 0; single < 2; single++)
      for (int e = 0; e < DIRAC_CPU_PREFETCH_EPILOGUES; e++)
        for (int full = 0; full < 2; full++) {
          const int c = dirac_cpu_prefetch(single, e, full);
          char one[64];
          if (c < 0) continue; /* a class no operator used */
          snprintf(one, sizeof one, " %s/%s/%s=%s", single ? "single" : "double", epilogue[e],
                   full ? "lattice" : "parity", dirac_cpu_prefetch_name(c));
          strncat(pfs, one, sizeof pfs - strlen(pfs) - 1);
        }
    lprintf("BENCH", 0, "CPU prefetch chosen (rank 0; precision/epilogue/output):%s\n", pfs);
  }
  {
    /* what the kernel made of the huge-page advice, with every field of the run allocated */
    const long long huge = hr_host_huge_page_bytes();
    char amount[64] = "not reported by this system";
    if (huge >= 0) snprintf(amount, sizeof amount, "%.1f MiB", huge / 1048576.);
    lprintf("BENCH", 0, "host memory: huge pages %s (memory:huge_pages); rank 0's memory on "
            "transparent huge pages: %s\n", hr_huge_pages() ? "on" : "off", amount);
  }
  free(round_t);
  dirac_finalize();
  free_suNg_field(u);
  hr_finalize();
  return 0;
}
