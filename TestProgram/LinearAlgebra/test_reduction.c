/* test_reduction.c -- the one reduction policy (reduction.h) is bitwise reproducible: the
 * global sums of fixed random fields (sqnorm and prod of spinor fields in both precisions,
 * the plaquette, E and Q of the observables, the clover log-determinant, global_sum_sites of a
 * per-site array) are printed
 * in hex (%a) as "VALUE exact.<name>" lines, once per backend (CPU, and GPU in GPU builds) and
 * per forced GPU block size (32 and 256, hr_tune_force_block); run_grids.sh runs the program
 * with 1 and 2 OpenMP threads and on the grids of reduction.gridtest and requires every
 * repeat of a name to print the same bits. Checks of accuracy against independent sums:
 *   global_sum_sites of per-site values that are exact in double (integers and small dyadic
 *     fractions) gives their exact sum, also with terms of mixed sign and wide range;
 *   a NaN / infinite value makes the sum NaN / infinite.
 * The random fields are drawn per global site, so they are the same on every grid. */
#include <math.h>
#include <stdio.h>

#include "../Memory/field_test.h"

/* Print one value of the reproducibility comparison in hex. */
static void value_hex(const char *name, double v) {
  if (hr_rank() == 0) printf("VALUE exact.%s%s %a\n", ft_value_prefix, name, v);
}

/* The backends of this build and the block sizes tried on the GPU one. */
static const int block_sizes[] = {32, 256};

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
  global_sum_sites(g, v, 1, &s);
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
  global_sum_sites(g, v, 2, s);
  CHECK(s[0] == ldexp(r[0], -20), "global_sum_sites: %a, exact %a", s[0], ldexp(r[0], -20));
  CHECK(s[1] == ldexp(r[1], -40), "global_sum_sites: %a, exact %a", s[1], ldexp(r[1], -40));
  /* a NaN on one site of rank 0, an infinity on another */
  if (hr_rank() == 0) {
    v[2 * (g->master_start[0] - g->master_shift)] = NAN;
    v[2 * (g->master_start[0] - g->master_shift) + 1] = INFINITY;
  }
  global_sum_sites(g, v, 2, s);
  CHECK(isnan(s[0]), "NaN lost: %g", s[0]);
  CHECK(isinf(s[1]) && s[1] > 0, "Inf lost: %g", s[1]);
  free(v);
  tc_case_end("global_sum_sites: exact sums, NaN and Inf stay visible");
}

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
      hr_tune_force_block(block_sizes[b]);
      hr_backend_set(HR_BACKEND_GPU);
      print_sums(s, se, sf, u);
    }
    hr_tune_force_block(0);
#else
    (void)block_sizes;
#endif
    hr_backend_set(HR_BACKEND_CPU);
    check_exact_sums();
    free_spinor_field(s);
    free_spinor_field(se);
    free_spinor_field_flt(sf);
    free_suNg_field(u);
  }
  return ft_finish("test_reduction");
}
