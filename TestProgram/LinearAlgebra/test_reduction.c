/* test_reduction.c -- the one reduction policy (reduction.h) is bitwise reproducible: the
 * global sums of fixed random fields (sqnorm and prod of spinor fields in both precisions,
 * the plaquette, E and Q of the observables, the clover log-determinant, global_sum_sites of a
 * per-site array) are printed
 * in hex (%a) as "VALUE exact.<name>" lines, once per backend (CPU, and GPU in GPU builds) and
 * per GPU block size (forced 32 and 256, tuned, tuned with blocks above 64 refused:
 * block_sizes); run_grids.sh runs the program
 * with 1 and 2 OpenMP threads and on the grids of reduction.gridtest and requires every
 * repeat of a name to print the same bits. Checks of accuracy against independent sums:
 *   global_sum_sites of per-site values that are exact in double (integers and small dyadic
 *     fractions) gives their exact sum, also with terms of mixed sign and wide range;
 *   a NaN / infinite value makes the sum NaN / infinite.
 *   the device sums (hr_gpu_sum_exact_n, hr_gpu_sum_sites; GPU builds) equal global_sum_exact_n
 *     and global_sum_sites bit for bit on random values of mixed magnitudes and signs,
 *     k = 1 .. 4 interleaved sums, block sizes 32 and 256 forced, NaN / Inf, and bring at most
 *     k + 1 doubles and 4 k integers to the host (transfer counter of gpu.h);
 *   the transfer counter counts a field's copies under the kind's name and the byte count.
 * The random fields are drawn per global site, so they are the same on every grid. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../Memory/field_test.h"
#include "halo_exchange.h"

/* Print one value of the reproducibility comparison in hex. */
static void value_hex(const char *name, double v) {
  if (hr_rank() == 0) printf("VALUE exact.%s%s %a\n", ft_value_prefix, name, v);
}

/* The backends of this build and the block sizes tried on the GPU one: forced (reductions
 * round up to a multiple of HR_REDUCE_CHUNK), 0 tuned, -64 tuned on an emulated device that
 * refuses blocks above 64 threads (reduction blocks of 32 and 64; on CUDA: tuned). */
static const int block_sizes[] = {32, 256, 0, -64};

#if HR_GPU_ENABLED
/* Use block size b of block_sizes. */
static void use_blocks(int b) {
  hr_tune_force_block(b > 0 ? b : 0);
  hr_gpu_emu_refuse_above(b < 0 ? -b : 0);
}
#endif

/* Sum over the master sites of Re tr U_mu(x), all mu, with global_sum_sites (host values). */
static double links_retr(const suNg_field *u) {
  const geometry_descriptor *g = u->type;
  double *v = (double *)calloc((size_t)geometry_field_size(g, HR_LAYOUT_GAUGE), sizeof *v);
  const suNg *h = sync_host_suNg_field(u);
  _MASTER_FOR(g, ix) {
    double t = 0;
    for (int mu = 0; mu < 4; mu++)
      for (int a = 0; a < NG; a++) t += hr_creal(h[4 * (ix - g->master_shift) + mu].c[a * NG + a]);
    v[ix - g->master_shift] = t;
  }
  double s;
  global_sum_sites(&s, g, v, 1);
  free(v);
  return s;
}

/* The sums of one backend / block size: every value under the same name. */
static void print_sums(const spinor_field *s, const spinor_field *se, const spinor_field_flt *sf,
                       const suNg_field *u) {
  value_hex("sqnorm", sqnorm_spinor_field(&s[0]));
  const hr_complex p = prod_spinor_field(&s[0], &s[1]);
  value_hex("prod.re", hr_creal(p));
  value_hex("prod.im", hr_cimag(p));
  value_hex("sqnorm_flt", sqnorm_spinor_field_flt(&sf[0]));
  const hr_complex pf = prod_spinor_field_flt(&sf[0], &sf[1]);
  value_hex("prod_flt.re", hr_creal(pf));
  value_hex("prod_flt.im", hr_cimag(pf));
  value_hex("even.sqnorm", sqnorm_spinor_field(se));
  value_hex("even.prod_re", prod_re_spinor_field(se, se));
  value_hex("links.retr", links_retr(u));
  value_hex("plaquette", avr_plaquette(u));
  const gauge_action_observables o = gauge_action_observables_compute(u, 0);
  value_hex("wact", o.wact);
  value_hex("E", o.yact);
  value_hex("Q", o.qtop);
  /* the clover log-determinant per parity (Haar-random links: a large mass keeps every
   * block positive definite) */
  const dirac_op D = dirac_op_make(u, 4.0, 0.5, NULL);
  value_hex("clover_logdet.odd", clover_logdet(&D, HR_PARITY_ODD));
  value_hex("clover_logdet.all", clover_logdet(&D, HR_PARITY_BOTH));
}

/* Exactness and NaN / Inf of global_sum_sites on glattice. */
static void check_exact_sums(void) {
  const geometry_descriptor *g = &glattice;
  const long n = geometry_field_size(g, HR_LAYOUT_SPINOR);
  double *v = (double *)calloc((size_t)(2 * n), sizeof *v);
  /* per-site dyadic values whose exact sum is an integer sum (reference in long long) */
  long long ref[2] = {0, 0};
  _MASTER_FOR(g, ix) {
    const long long code = ft_global_code(ix);
    const long long a = (code * 7919) % 100003 - 50001;      /* mixed sign */
    const long long b = (code % 3 == 0) ? (1LL << 40) : -(code % 5); /* wide range */
    v[2 * (ix - g->master_shift)] = ldexp((double)a, -20);
    v[2 * (ix - g->master_shift) + 1] = ldexp((double)b, -40);
    ref[0] += a;
    ref[1] += b;
  }
  double r[2] = {(double)ref[0], (double)ref[1]};
  global_sum(r, 2); /* integers below 2^53: exact */
  double s[2];
  global_sum_sites(s, g, v, 2);
  CHECK(s[0] == ldexp(r[0], -20), "global_sum_sites: %a, exact %a", s[0], ldexp(r[0], -20));
  CHECK(s[1] == ldexp(r[1], -40), "global_sum_sites: %a, exact %a", s[1], ldexp(r[1], -40));
  /* a NaN on one site of rank 0, an infinity on another */
  if (hr_rank() == 0) {
    v[2 * (g->master_start[0] - g->master_shift)] = NAN;
    v[2 * (g->master_start[0] - g->master_shift) + 1] = INFINITY;
  }
  global_sum_sites(s, g, v, 2);
  CHECK(isnan(s[0]), "NaN lost: %g", s[0]);
  CHECK(isinf(s[1]) && s[1] > 0, "Inf lost: %g", s[1]);
  free(v);
  tc_case_end("global_sum_sites: exact sums, NaN and Inf stay visible");
}

#if HR_GPU_ENABLED
/* A value of wide range and either sign from a 64-bit LCG state. */
static double wild_value(unsigned long long *st) {
  *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
  const unsigned long long r = *st >> 11;
  const double m = (double)(r & 0xfffffffffULL) / 68719476736.0; /* [0, 1) */
  const int e = (int)((r >> 36) % 61) - 30;                      /* 2^-30 .. 2^30 */
  const double x = ldexp(m, e);
  return (r >> 50) & 1 ? -x : x;
}

/* Bytes copied to the host since the last reset. */
static unsigned long long to_host(void) {
  return hr_gpu_transfer_bytes(HR_XFER_TO_HOST);
}

/* The device sums against the host sums, bit for bit; the bytes they bring to the host. */
static void check_device_sums(void) {
  const geometry_descriptor *geos[2] = {&glattice, &glat_even};
  unsigned long long st = 12345ULL + 977ULL * (unsigned long long)hr_rank();
  for (int b = 0; b < (int)(sizeof block_sizes / sizeof block_sizes[0]); b++) {
    use_blocks(block_sizes[b]);
    for (int k = 1; k <= 4; k++) {
      const long ns[3] = {1, 1152, 70001};
      for (int c = 0; c < 3; c++) {
        const long n = ns[c];
        double *v = (double *)malloc((size_t)(n * k) * sizeof *v);
        for (long i = 0; i < n * k; i++) v[i] = wild_value(&st);
        if (c == 2) /* mixed magnitudes inside one sum: a few huge terms among small ones */
          for (long i = 0; i < n * k; i += 997) v[i] *= 0x1p40;
        double *d = (double *)hr_gpu_alloc((size_t)(n * k) * sizeof *d);
        hr_gpu_copy_to_device(d, v, (size_t)(n * k) * sizeof *d);
        double ref[4], got[4];
        global_sum_exact_n(ref, v, n, k);
        hr_gpu_transfers_reset();
        hr_gpu_sum_exact_n(got, d, n, k);
        const unsigned long long moved = to_host();
        for (int j = 0; j < k; j++)
          CHECK(memcmp(&ref[j], &got[j], sizeof(double)) == 0,
                "hr_gpu_sum_exact_n n %ld k %d sum %d block %d: %a, host %a", n, k, j,
                block_sizes[b], got[j], ref[j]);
        CHECK(moved <= (unsigned long long)(k + 1) * 8 + (unsigned long long)k * 32,
              "hr_gpu_sum_exact_n n %ld k %d: %llu bytes to the host", n, k, moved);
        /* one process: a single copy (the scales found on the device); else two */
        CHECK(hr_gpu_transfer_copies(HR_XFER_TO_HOST) == (hr_nranks() == 1 ? 1u : 2u),
              "hr_gpu_sum_exact_n n %ld k %d: %llu copies to the host on %d process(es)", n, k,
              hr_gpu_transfer_copies(HR_XFER_TO_HOST), hr_nranks());
        /* not finite: the same NaN / Inf as the host sum */
        v[n * k - 1] = (c == 1) ? NAN : INFINITY;
        hr_gpu_copy_to_device(d + n * k - 1, v + n * k - 1, sizeof *d);
        global_sum_exact_n(ref, v, n, k);
        hr_gpu_sum_exact_n(got, d, n, k);
        for (int j = 0; j < k; j++)
          CHECK((isnan(ref[j]) && isnan(got[j])) || memcmp(&ref[j], &got[j], sizeof(double)) == 0,
                "hr_gpu_sum_exact_n with %s, k %d sum %d: %a, host %a", c == 1 ? "NaN" : "Inf", k,
                j, got[j], ref[j]);
        hr_gpu_free(d);
        free(v);
      }
      /* per-site arrays of a geometry: only its master pieces count (garbage elsewhere) */
      for (int q = 0; q < 2; q++) {
        const geometry_descriptor *g = geos[q];
        const long n = geometry_field_size(g, HR_LAYOUT_SPINOR);
        double *v = (double *)malloc((size_t)(n * k) * sizeof *v);
        for (long i = 0; i < n * k; i++) v[i] = 1e30; /* not master: must be ignored */
        _MASTER_FOR(g, ix) {
          for (int j = 0; j < k; j++) v[(ix - g->master_shift) * k + j] = wild_value(&st);
        }
        double *d = (double *)hr_gpu_alloc((size_t)(n * k) * sizeof *d);
        hr_gpu_copy_to_device(d, v, (size_t)(n * k) * sizeof *d);
        double ref[4], got[4];
        global_sum_sites(ref, g, v, k);
        hr_gpu_transfers_reset();
        hr_gpu_sum_sites(got, g, d, k);
        const unsigned long long moved = to_host();
        for (int j = 0; j < k; j++)
          CHECK(memcmp(&ref[j], &got[j], sizeof(double)) == 0,
                "hr_gpu_sum_sites %s k %d sum %d block %d: %a, host %a",
                g == &glattice ? "glattice" : "glat_even", k, j, block_sizes[b], got[j], ref[j]);
        CHECK(moved <= (unsigned long long)(k + 1) * 8 + (unsigned long long)k * 32,
              "hr_gpu_sum_sites k %d: %llu bytes to the host", k, moved);
        hr_gpu_free(d);
        free(v);
      }
    }
  }
  use_blocks(0);
  tc_case_end(
      "hr_gpu_sum_exact_n / hr_gpu_sum_sites: bit for bit the host sums, k = 1 .. 4, "
      "few bytes to the host");
}

/* The transfer counter: a field copy counts its bytes under the kind's name, a raw copy under
 * the calling file and line. */
static void check_transfer_counter(void) {
  spinor_field *s = alloc_spinor_field(1, &glattice);
  gaussian_spinor_field(s);
  hr_backend_set(HR_BACKEND_CPU);
  host_write_spinor_field(s);
  hr_gpu_transfers_reset();
  sync_gpu_spinor_field(s);
  const unsigned long long fb = field_bytes(&hr_kind_spinor_field, &glattice);
  CHECK(hr_gpu_transfer_bytes(HR_XFER_TO_DEVICE) == fb &&
            hr_gpu_transfer_copies(HR_XFER_TO_DEVICE) == 1,
        "copy_to_gpu: %llu bytes counted, field %llu", hr_gpu_transfer_bytes(HR_XFER_TO_DEVICE),
        fb);
  const char *what;
  hr_gpu_xfer_kind kind;
  unsigned long long bytes, copies;
  CHECK(hr_gpu_transfer_origin(0, &what, &kind, &bytes, &copies) &&
            strcmp(what, "spinor_field") == 0 && kind == HR_XFER_TO_DEVICE && bytes == fb &&
            copies == 1,
        "origin of the field copy not recorded");
  double x = 1.5, y = 0;
  double *d = (double *)hr_gpu_alloc(sizeof x);
  hr_gpu_copy_to_device(d, &x, sizeof x);
  hr_gpu_copy_to_host(&y, d, sizeof y);
  CHECK(y == x && hr_gpu_transfer_bytes(HR_XFER_TO_HOST) == sizeof y &&
            hr_gpu_transfer_origin(2, &what, &kind, &bytes, &copies) &&
            strstr(what, "test_reduction.c:") != NULL,
        "raw copies: %llu bytes to the host", hr_gpu_transfer_bytes(HR_XFER_TO_HOST));
  hr_gpu_transfers_reset();
  CHECK(hr_gpu_transfer_bytes(HR_XFER_TO_DEVICE) == 0 &&
            !hr_gpu_transfer_origin(0, &what, &kind, &bytes, &copies),
        "reset left counts");
  hr_gpu_free(d);
  free_spinor_field(s);
  tc_case_end("transfer counter: field copies by kind, raw copies by file:line, reset");
}
#endif

int main(int argc, char **argv) {
  int np[4];
  ft_start(&argc, &argv, np);
  rng_init(2718);
  char name[256];
  if (ft_setup(ft_lattices[0], np, 0, name, sizeof name)) {
    spinor_field *s = alloc_spinor_field(2, &glattice);
    spinor_field *se = alloc_spinor_field(1, &glat_even);
    spinor_field_flt *sf = alloc_spinor_field_flt(2, &glattice);
    suNg_field *u = alloc_suNg_field(1, &glattice);
    gaussian_spinor_field(&s[0]);
    gaussian_spinor_field(&s[1]);
    gaussian_spinor_field(&se[0]);
    gaussian_spinor_field_flt(&sf[0]);
    gaussian_spinor_field_flt(&sf[1]);
    random_suNg_field(u);
    start_sendrecv_suNg_field(u); /* the observables read the halo (observables.h) */
    complete_sendrecv_suNg_field(u);
    hr_backend_set(HR_BACKEND_CPU);
    print_sums(s, se, sf, u);
#if HR_GPU_ENABLED
    for (int b = 0; b < (int)(sizeof block_sizes / sizeof block_sizes[0]); b++) {
      use_blocks(block_sizes[b]);
      hr_backend_set(HR_BACKEND_GPU);
      print_sums(s, se, sf, u);
    }
    use_blocks(0);
#else
    (void)block_sizes;
#endif
    hr_backend_set(HR_BACKEND_CPU);
    check_exact_sums();
#if HR_GPU_ENABLED
    check_device_sums();
    check_transfer_counter();
#endif
    free_spinor_field(s);
    free_spinor_field(se);
    free_spinor_field_flt(sf);
    free_suNg_field(u);
  }
  return ft_finish("test_reduction");
}
