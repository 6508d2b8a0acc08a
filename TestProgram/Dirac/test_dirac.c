/* test_dirac.c -- the Wilson and Wilson-clover operators on the process grid given on the
 * command line (run by run_grid.sh under mpirun), each check against an independent truth:
 *   gamma5-hermiticity (phi, Q psi) = (Q phi, psi) of every operator, both precisions;
 *   free field: plane waves with the boundary-condition momenta and twist are mapped to
 *     exp(ipx) [m0 + sum(1 - cos p) + i sum gamma_mu sin p_mu] u (explicit gamma matrices);
 *   constant abelian background: clover-leaf F_mu,nu equals its analytic value and the
 *     clover term equals csw (i/2) sum sigma x F built from explicit sigma matrices;
 *   gauge covariance D[U^g] g psi = g D[U] psi;
 *   hopping between parities = the full hopping term restricted; Schur complement: for
 *     psi_o = -D_oo^-1 D_oe psi_e, D (psi_e, psi_o) = (Dphi_eopre psi_e, 0);
 *   clover blocks Hermitian, block x inverse = 1, log det = log det of an independent LU;
 *   single = double precision to ~1e-6; overlap on = overlap off (exactly); 1 and 2 OpenMP
 *     threads give the same bits;
 *   checksums <chi, op psi> equal on every process grid (--write / --compare FILE), and a
 *     hash of the bits of op psi too (the site kernels give the same bits on every grid);
 *   the CPU loops' halo statistics: one exchange of half spinors per application, the output
 *     sites split between the inner and the boundary loop as the pieces are;
 *   GPU builds: the GPU path (kernels per piece, device halo exchange) equals the CPU loops
 *     for every operator, both precisions, overlap on and off, and never reads stale copies.
 * Usage: test_dirac NP_T NP_X NP_Y NP_Z [--write FILE | --compare FILE] */
#include "dirac_test.h"
#include "dirac_site.h"

#include "gamma.h"
#include "halo_exchange.h"
#if HR_WITH_OPENMP
#include <omp.h>
#endif

static const double PI = 3.14159265358979323846;
static const int glb[4] = {8, 8, 4, 4};

/* ------------------------------------------------------------------ helpers */

static void g5_field(spinor_field *f) {
  host_write_spinor_field(f);
  _MASTER_FOR(f->type, ix) suNf_spinor_g5(_FIELD_AT(f, ix), _FIELD_AT(f, ix));
}

/* U = exp(i eps v_a T^a) with Gaussian v keyed by global site: a smooth-ish random field. */
static void warm_gauge(suNg_field *u, double eps, uint64_t draw) {
  host_write_suNg_field(u);
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    hr_rng_stream st;
    rng_stream_init(&st, 4242, draw, (uint64_t)dt_global_index(g));
    for (int mu = 0; mu < 4; mu++) {
      suNg_algebra_vector v;
      suNg_algebra_vector_random(&v, &st);
      suNg_algebra_vector_scale(&v, eps, &v);
      suNg_exp(_4FIELD_AT(u, ix, mu), &v);
    }
  }
}

/* Relative difference |a - b| / |b| over a's geometry. */
static double rel_diff(const spinor_field *a, const spinor_field *b) {
  double n = dt_sqnorm(b);
  return sqrt(dt_diff2(a, b) / (n > 0 ? n : 1));
}

/* (M y)(x) = sum_b M[a][b] y[b] for a 4x4 spin matrix M acting on a spinor. */
static void spin_mul(const hr_complex M[16], const suNf_spinor *y, suNf_spinor *out) {
  for (int a = 0; a < 4; a++)
    for (int i = 0; i < NF; i++) {
      hr_complex s = hr_cmplx(0, 0);
      for (int b = 0; b < 4; b++) s += hr_cmul(M[4 * a + b], y->c[b].c[i]);
      out->c[a].c[i] = s;
    }
}

/* log |det a| and the phase, n x n, by LU with partial pivoting (independent of clover.c). */
static double lu_logdet(const hr_complex *a_in, int n, hr_complex *phase) {
  hr_complex a[CLOVER_BLOCK_DIM * CLOVER_BLOCK_DIM];
  memcpy(a, a_in, sizeof(hr_complex) * (size_t)(n * n));
  double ld = 0;
  hr_complex ph = hr_cmplx(1, 0);
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (hr_cabs(a[i * n + k]) > hr_cabs(a[p * n + k])) p = i;
    if (p != k) {
      for (int j = 0; j < n; j++) {
        hr_complex t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      ph = -ph;
    }
    hr_complex piv = a[k * n + k];
    ld += log(hr_cabs(piv));
    ph = hr_cmul(ph, piv / hr_cabs(piv));
    for (int i = k + 1; i < n; i++) {
      hr_complex f = a[i * n + k] / piv;
      for (int j = k; j < n; j++) a[i * n + j] -= hr_cmul(f, a[k * n + j]);
    }
  }
  *phase = ph;
  return ld;
}

/* ------------------------------------------------------------------ checksums */

#define MAX_SUMS 128
static char sum_name[MAX_SUMS][160];
static hr_complex sum_val[MAX_SUMS];
static int n_sums = 0;

/* A hash of the bits of every site of f, each keyed by its global index, summed in integers:
 * independent of the process grid and the thread count, and equal only for bitwise equal
 * fields (up to hash collisions). Two 31-bit halves, so the sum cannot overflow. */
static long long bits_hash_sites(const geometry_descriptor *gd, const void *p, size_t elem) {
  long long h[2] = {0, 0};
  _MASTER_FOR(gd, ix) {
    int g[4];
    global_coordinates(g, ix);
    uint64_t x = 1469598103934665603ULL ^ (uint64_t)dt_global_index(g);
    const unsigned char *b = (const unsigned char *)p + (size_t)(ix - gd->master_shift) * elem;
    for (size_t k = 0; k < elem; k++) x = (x ^ b[k]) * 1099511628211ULL;
    h[0] += (long long)(x & 0x7fffffffULL);
    h[1] += (long long)((x >> 31) & 0x7fffffffULL);
  }
  global_sum_long(h, 2);
  return h[0] * 1000003LL + h[1];
}
/* bits_hash_sites of a double or single precision spinor field. */
static long long bits_hash(const spinor_field *f) {
  return bits_hash_sites(f->type, sync_host_spinor_field(f), sizeof(suNf_spinor));
}
static long long bits_hash_flt(const spinor_field_flt *f) {
  return bits_hash_sites(f->type, sync_host_spinor_field_flt(f), sizeof(suNf_spinor_flt));
}

static long long bits_val[MAX_SUMS];

static void record_sum(const char *name, const spinor_field *result) {
  spinor_field *chi = dt_spinor(result->type);
  dt_random_spinor_field(chi, 99);
  hr_complex z = dt_prod(chi, result);
  DT_FREE(chi);
  CHECK(n_sums < MAX_SUMS, "more than %d checksums: raise MAX_SUMS", MAX_SUMS);
  if (n_sums < MAX_SUMS) {
    snprintf(sum_name[n_sums], sizeof sum_name[0], "%s", name);
    bits_val[n_sums] = bits_hash(result);
    sum_val[n_sums++] = z;
  }
}

static void write_sums(const char *path) {
  if (hr_rank() != 0) return;
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(1);
  }
  for (int i = 0; i < n_sums; i++)
    fprintf(f, "%s %.17g %.17g %lld\n", sum_name[i], hr_creal(sum_val[i]), hr_cimag(sum_val[i]),
            bits_val[i]);
  fclose(f);
}

static void compare_sums(const char *path) {
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot read reference checksums %s", path);
  if (f == NULL) return;
  char name[160];
  double re, im;
  long long bits;
  int found = 0;
  while (fscanf(f, "%159s %lf %lf %lld", name, &re, &im, &bits) == 4) {
    for (int i = 0; i < n_sums; i++)
      if (strcmp(name, sum_name[i]) == 0) {
        found++;
        double d = hr_cabs(sum_val[i] - hr_cmplx(re, im)) / (hypot(re, im) + 1e-300);
        CHECK(d < 1e-11, "%s: checksum %.15g%+.15gi, single process %.15g%+.15gi (rel %g)", name,
              hr_creal(sum_val[i]), hr_cimag(sum_val[i]), re, im, d);
        /* the site kernels are the same code on every grid: the same bits everywhere */
        CHECK(bits_val[i] == bits, "%s: the bits differ from the single process (hash %lld, "
              "single process %lld)", name, bits_val[i], bits);
      }
  }
  fclose(f);
  CHECK(found == n_sums, "only %d of %d checksums in %s", found, n_sums, path);
}

/* ------------------------------------------------------------------ operator cases */

typedef void (*op_dbl)(spinor_field *, const dirac_op *, const spinor_field *);
typedef void (*op_flt)(spinor_field_flt *, const dirac_op *, const spinor_field_flt *);
typedef struct {
  const char *name;
  op_dbl d;
  op_flt f;
  int eo;        /* 1: acts on glat_even */
  int hermitian; /* 1: the operator itself is Hermitian (g5 forms) */
} op_entry;

static const op_entry ops[] = {
    {"Dphi", Dphi, Dphi_flt, 0, 0},
    {"g5Dphi", g5Dphi, g5Dphi_flt, 0, 1},
    {"g5Dphi_sq", g5Dphi_sq, g5Dphi_sq_flt, 0, 1},
    {"Dphi_eopre", Dphi_eopre, Dphi_eopre_flt, 1, 0},
    {"g5Dphi_eopre", g5Dphi_eopre, g5Dphi_eopre_flt, 1, 1},
    {"g5Dphi_eopre_sq", g5Dphi_eopre_sq, g5Dphi_eopre_sq_flt, 1, 1},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* Applies op in both precisions to psi and pf with knob(first), into d0 and f0, then with
 * knob(second), into d1 and f1, then calls knob(restore) (knob: a setting of the library,
 * e.g. the OpenMP threads). */
static void apply_under(const op_entry *op, const dirac_op *D, const spinor_field *psi,
                        const spinor_field_flt *pf, void (*knob)(int), int first, int second,
                        int restore, spinor_field *d0, spinor_field_flt *f0, spinor_field *d1,
                        spinor_field_flt *f1) {
  knob(first);
  op->d(d0, D, psi);
  op->f(f0, D, pf);
  knob(second);
  op->d(d1, D, psi);
  op->f(f1, D, pf);
  knob(restore);
}

/* Hermiticity, single vs double, overlap on/off and checksums of every operator (in both
 * precisions). */
static void check_operators(const dirac_op *D, const char *tag) {
  char name[160];
  for (int k = 0; k < NOPS; k++) {
    const geometry_descriptor *g = ops[k].eo ? &glat_even : &glattice;
    spinor_field *psi = dt_spinor(g), *phi = dt_spinor(g), *a = dt_spinor(g), *b = dt_spinor(g);
    spinor_field_flt *pf = dt_spinor_flt(g), *phf = dt_spinor_flt(g), *af = dt_spinor_flt(g),
                     *bf = dt_spinor_flt(g);
    dt_random_spinor_field(psi, 1);
    dt_random_spinor_field(phi, 2);
    /* gamma5-hermiticity: Q = op (Hermitian forms) or g5 op */
    ops[k].d(a, D, psi);
    ops[k].d(b, D, phi);
    if (!ops[k].hermitian) {
      g5_field(a);
      g5_field(b);
    }
    hr_complex l = dt_prod(phi, a), r = dt_prod(b, psi);
    double scale = sqrt(dt_sqnorm(phi) * dt_sqnorm(a));
    CHECK(hr_cabs(l - r) < 1e-13 * scale, "%s %s: (phi,Q psi) = %g%+gi, (Q phi,psi) = %g%+gi",
          ops[k].name, tag, hr_creal(l), hr_cimag(l), hr_creal(r), hr_cimag(r));
    /* single precision: hermiticity and agreement with double */
    dt_to_flt(psi, pf);
    dt_to_flt(phi, phf);
    ops[k].f(af, D, pf);
    ops[k].f(bf, D, phf);
    spinor_field *a2 = dt_spinor(g), *b2 = dt_spinor(g), *ps2 = dt_spinor(g), *ph2 = dt_spinor(g);
    dt_to_dbl(af, a2);
    /* the single-precision result's checksum too (exact in double): its bits on every grid */
    snprintf(name, sizeof name, "%s_%s_single", ops[k].name, tag);
    record_sum(name, a2);
    dt_to_dbl(bf, b2);
    dt_to_dbl(pf, ps2);
    dt_to_dbl(phf, ph2);
    if (!ops[k].hermitian) {
      g5_field(a2);
      g5_field(b2);
    }
    double dflt = rel_diff(a2, a);
    CHECK(dflt < 2e-6, "%s %s: single vs double relative difference %g", ops[k].name, tag, dflt);
    l = dt_prod(ph2, a2);
    r = dt_prod(b2, ps2);
    CHECK(hr_cabs(l - r) < 1e-5 * scale, "%s %s single: (phi,Q psi) = %g%+gi, (Q phi,psi) = %g%+gi",
          ops[k].name, tag, hr_creal(l), hr_cimag(l), hr_creal(r), hr_cimag(r));
    /* overlap off gives the same numbers */
    ops[k].d(a, D, psi);
    dirac_set_comm_overlap(0);
    ops[k].d(b, D, psi);
    dirac_set_comm_overlap(1);
    CHECK(dt_diff2(a, b) == 0., "%s %s: overlap on/off differ by %g", ops[k].name, tag,
          dt_diff2(a, b));
    /* the prefetch of the CPU loops forced off, to the neighbours, on and interleaved gives the
     * same bits */
    apply_under(&ops[k], D, psi, pf, dirac_set_cpu_prefetch, DIRAC_PREFETCH_OFF, DIRAC_PREFETCH_ON,
                DIRAC_PREFETCH_AUTO, a2, af, b2, bf);
    CHECK(bits_hash(a2) == bits_hash(b2) && bits_hash(a2) == bits_hash(a),
          "%s %s: prefetch off and on give different bits", ops[k].name, tag);
    CHECK(bits_hash_flt(af) == bits_hash_flt(bf),
          "%s %s single: prefetch off and on give different bits", ops[k].name, tag);
    apply_under(&ops[k], D, psi, pf, dirac_set_cpu_prefetch, DIRAC_PREFETCH_NEIGHBOURS,
                DIRAC_PREFETCH_ON, DIRAC_PREFETCH_AUTO, a2, af, b2, bf);
    CHECK(bits_hash(a2) == bits_hash(b2) && bits_hash(a2) == bits_hash(a),
          "%s %s: prefetch of the neighbours and on give different bits", ops[k].name, tag);
    CHECK(bits_hash_flt(af) == bits_hash_flt(bf),
          "%s %s single: prefetch of the neighbours and on give different bits", ops[k].name,
          tag);
    apply_under(&ops[k], D, psi, pf, dirac_set_cpu_prefetch, DIRAC_PREFETCH_INTERLEAVED,
                DIRAC_PREFETCH_ON, DIRAC_PREFETCH_AUTO, a2, af, b2, bf);
    CHECK(bits_hash(a2) == bits_hash(b2) && bits_hash(a2) == bits_hash(a),
          "%s %s: the interleaved site order and prefetch on give different bits", ops[k].name,
          tag);
    CHECK(bits_hash_flt(af) == bits_hash_flt(bf),
          "%s %s single: the interleaved site order and prefetch on give different bits",
          ops[k].name, tag);
#if HR_WITH_OPENMP
    /* one thread gives the bits of two */
    apply_under(&ops[k], D, psi, pf, omp_set_num_threads, 1, 2, omp_get_max_threads(), b, bf, a2,
                af);
    CHECK(bits_hash(a2) == bits_hash(b), "%s %s: 1 and 2 OpenMP threads give different bits",
          ops[k].name, tag);
    CHECK(bits_hash_flt(af) == bits_hash_flt(bf),
          "%s %s single: 1 and 2 OpenMP threads give different bits", ops[k].name, tag);
#endif
    snprintf(name, sizeof name, "%s_%s", ops[k].name, tag);
    record_sum(name, a);
    DT_FREE(psi);
    DT_FREE(phi);
    DT_FREE(a);
    DT_FREE(b);
    DT_FREE(a2);
    DT_FREE(b2);
    DT_FREE(ps2);
    DT_FREE(ph2);
    DT_FREE(pf);
    DT_FREE(phf);
    DT_FREE(af);
    DT_FREE(bf);
  }
}

/* 1 when no class of CPU kernel (precision x epilogue x output, dirac_cpu_prefetch) has chosen
 * its prefetch setting yet. */
static int prefetch_all_untimed(void) {
  int untimed = 1;
  const int ne = DIRAC_CPU_PREFETCH_EPILOGUES;
  for (int c = 0; c < 2 * ne * 2; c++)
    untimed &= dirac_cpu_prefetch(c / (2 * ne), c / 2 % ne, c % 2) == -1;
  return untimed;
}

/* The two sweeps of the even/odd clover operator (the hopping term then the inverse blocks on
 * the odd sites, the hopping term plus the blocks on the even ones) are timed as two classes
 * (DIRAC_EPILOGUE_INVERSE and _CLOVER, output on a parity): neither chooses before
 * DIRAC_CPU_PREFETCH_CALLS applications (one class for both would have chosen after half of
 * them, with settings timed on different sweeps), both have chosen after them, and the trials
 * give the same bits. */
static void check_prefetch_eo_classes(const dirac_op *D) {
  spinor_field *psi = dt_spinor(&glat_even), *a = dt_spinor(&glat_even);
  spinor_field *b = dt_spinor(&glat_even);
  dt_random_spinor_field(psi, 4);
  for (int n = 0; n < DIRAC_CPU_PREFETCH_CALLS; n++) {
    const int inv = dirac_cpu_prefetch(0, DIRAC_EPILOGUE_INVERSE, 0),
              blk = dirac_cpu_prefetch(0, DIRAC_EPILOGUE_CLOVER, 0);
    CHECK(inv == -1 && blk == -1,
          "even/odd clover: a sweep's prefetch chosen after %d of %d applications (inverse "
          "blocks %d, blocks %d)", n, DIRAC_CPU_PREFETCH_CALLS, inv, blk);
    Dphi_eopre(n == 0 ? a : b, D, psi);
    if (n > 0)
      CHECK(bits_hash(a) == bits_hash(b),
            "Dphi_eopre: application %d of the prefetch trials differs", n);
  }
  const int inv = dirac_cpu_prefetch(0, DIRAC_EPILOGUE_INVERSE, 0),
              blk = dirac_cpu_prefetch(0, DIRAC_EPILOGUE_CLOVER, 0);
  CHECK(inv >= DIRAC_PREFETCH_OFF && inv <= DIRAC_PREFETCH_INTERLEAVED &&
            blk >= DIRAC_PREFETCH_OFF && blk <= DIRAC_PREFETCH_INTERLEAVED,
        "even/odd clover: prefetch not chosen after %d applications (inverse blocks %d, "
        "blocks %d)", DIRAC_CPU_PREFETCH_CALLS, inv, blk);
  DT_FREE(psi);
  DT_FREE(a);
  DT_FREE(b);
}

/* The prefetch chosen by timing (dirac_set_cpu_prefetch(DIRAC_PREFETCH_AUTO)): every class is
 * untimed after a restart, Dphi (both precisions) chooses its setting for the full-lattice
 * classes it uses after DIRAC_CPU_PREFETCH_CALLS applications, while the applications of the
 * trials (each setting in turn) all give the same bits. */
static void check_prefetch_tuner(const dirac_op *D) {
  dirac_set_cpu_prefetch(-1);
  CHECK(prefetch_all_untimed(), "after dirac_set_cpu_prefetch(-1) a class is not being timed");
  spinor_field *psi = dt_spinor(&glattice), *a = dt_spinor(&glattice), *b = dt_spinor(&glattice);
  spinor_field_flt *pf = dt_spinor_flt(&glattice), *af = dt_spinor_flt(&glattice),
                   *bf = dt_spinor_flt(&glattice);
  dt_random_spinor_field(psi, 3);
  dt_to_flt(psi, pf);
  /* Dphi: hopping plus the diagonal or clover term */
  const int epi = D->csw != 0. ? DIRAC_EPILOGUE_CLOVER : DIRAC_EPILOGUE_X;
  for (int n = 0; n < DIRAC_CPU_PREFETCH_CALLS; n++) {
    CHECK(dirac_cpu_prefetch(0, epi, 1) == -1 && dirac_cpu_prefetch(1, epi, 1) == -1,
          "prefetch chosen after %d of %d applications", n, DIRAC_CPU_PREFETCH_CALLS);
    Dphi(n == 0 ? a : b, D, psi);
    Dphi_flt(n == 0 ? af : bf, D, pf);
    if (n > 0) {
      CHECK(bits_hash(a) == bits_hash(b), "Dphi: application %d of the prefetch trials differs", n);
      CHECK(bits_hash_flt(af) == bits_hash_flt(bf),
            "Dphi single: application %d of the prefetch trials differs", n);
    }
  }
  const int cd = dirac_cpu_prefetch(0, epi, 1), cs = dirac_cpu_prefetch(1, epi, 1);
  CHECK(cd >= DIRAC_PREFETCH_OFF && cd <= DIRAC_PREFETCH_INTERLEAVED &&
            cs >= DIRAC_PREFETCH_OFF && cs <= DIRAC_PREFETCH_INTERLEAVED,
        "prefetch not chosen after %d applications (double %d, single %d)",
        DIRAC_CPU_PREFETCH_CALLS, cd, cs);
  CHECK(dirac_cpu_prefetch(0, DIRAC_EPILOGUE_BARE, 0) == -1,
        "a class never applied has a prefetch setting");
  if (D->csw != 0.) check_prefetch_eo_classes(D);
  dirac_set_cpu_prefetch(DIRAC_PREFETCH_ON);
  CHECK(dirac_cpu_prefetch(0, DIRAC_EPILOGUE_BARE, 0) == DIRAC_PREFETCH_ON,
        "cpu:prefetch = on not reported");
  dirac_set_cpu_prefetch(DIRAC_PREFETCH_NEIGHBOURS);
  CHECK(dirac_cpu_prefetch(1, DIRAC_EPILOGUE_CLOVER, 1) == DIRAC_PREFETCH_NEIGHBOURS,
        "cpu:prefetch = neighbours not reported");
  dirac_set_cpu_prefetch(DIRAC_PREFETCH_INTERLEAVED);
  CHECK(dirac_cpu_prefetch(0, DIRAC_EPILOGUE_X, 0) == DIRAC_PREFETCH_INTERLEAVED &&
            strcmp(dirac_cpu_prefetch_name(DIRAC_PREFETCH_INTERLEAVED), "interleaved") == 0,
        "cpu:prefetch = interleaved not reported");
  dirac_set_cpu_prefetch(DIRAC_PREFETCH_AUTO);
  DT_FREE(psi);
  DT_FREE(a);
  DT_FREE(b);
  DT_FREE(pf);
  DT_FREE(af);
  DT_FREE(bf);
}

/* Applies the bare hopping term of the Wilson operator on u DIRAC_CPU_PREFETCH_CALLS times,
 * checking that its class is being timed before each call; returns the choice made. */
static int hop_until_chosen(const suNg_field *u, const dirac_bc *bc, uint64_t draw,
                            const char *tag) {
  const dirac_op D = dirac_op_make(u, -0.4, 0., bc);
  spinor_field *in = dt_spinor(&glat_odd), *out = dt_spinor(&glat_even);
  dt_random_spinor_field(in, draw);
  for (int n = 0; n < DIRAC_CPU_PREFETCH_CALLS; n++) {
    CHECK(dirac_cpu_prefetch(0, DIRAC_EPILOGUE_BARE, 0) == -1, "%s: chosen after %d calls", tag, n);
    Dphi_hop(out, &D, in);
  }
  const int choice = dirac_cpu_prefetch(0, DIRAC_EPILOGUE_BARE, 0);
  CHECK(choice >= DIRAC_PREFETCH_OFF && choice <= DIRAC_PREFETCH_INTERLEAVED,
        "%s: no prefetch choice after %d calls", tag,
        DIRAC_CPU_PREFETCH_CALLS);
  DT_FREE(in);
  DT_FREE(out);
  return choice;
}

/* The timing of the prefetch belongs to a geometry: after the class of the bare
 * hopping term has chosen, a new geometry_init (here of the same lattice, which frees the
 * fields of the old one) makes it time again. Frees u. */
static void check_prefetch_new_geometry(suNg_field *u, const dirac_bc *bc, const int np[4],
                                        int force) {
  dirac_set_cpu_prefetch(-1);
  const int before = hop_until_chosen(u, bc, 5, "old geometry");
  DT_FREE(u);
  dt_geometry(glb, np, force);
  CHECK(dirac_cpu_prefetch(0, DIRAC_EPILOGUE_BARE, 0) == -1,
        "the prefetch choice of the old geometry (%d) survived geometry_init", before);
  suNg_field *v = dt_gauge();
  warm_gauge(v, 0.6, 11);
  hop_until_chosen(v, bc, 6, "new geometry");
  DT_FREE(v);
}

/* out = op(in) on one backend, in double (d) and single (f) precision. */
typedef struct {
  const char *name;
  op_dbl d;
  op_flt f;
  const geometry_descriptor *out_g, *in_g;
} gpu_case;

/* The hopping term between the parities and on the full lattice. */
static const gpu_case hop_cases[3] = {
    {"Dphi_hop (even <- odd)", Dphi_hop, Dphi_hop_flt, &glat_even, &glat_odd},
    {"Dphi_hop (odd <- even)", Dphi_hop, Dphi_hop_flt, &glat_odd, &glat_even},
    {"Dphi_hop (full)", Dphi_hop, Dphi_hop_flt, &glattice, &glattice}};

/* 1 when every 32-byte chunk of each master site of p (elem bytes per site, a multiple of 32)
 * holds the same bits: what the data-only form of the CPU loops writes. */
static int chunks_equal(const geometry_descriptor *gd, const void *p, size_t elem) {
  int ok = 1;
  _MASTER_FOR(gd, ix) {
    const unsigned char *b = (const unsigned char *)p + (size_t)(ix - gd->master_shift) * elem;
    for (size_t o = 32; o < elem; o += 32) ok &= memcmp(b, b + o, 32) == 0;
  }
  int bad[1] = {!ok};
  global_sum_int(bad, 1);
  return bad[0] == 0;
}

/* The data-only form of the CPU loops (dirac_set_cpu_data_only, for benchmarks): on with the
 * CPU loops of op (both precisions), each output site is written whole with one repeated
 * 32-byte sum, not the operator; its applications leave the prefetch timing untouched; off
 * again, the operator gives the bits of before. */
static void check_data_only(const dirac_op *D, const gpu_case *c) {
  dirac_op Dc = *D;
  Dc.backend = HR_BACKEND_CPU;
  spinor_field *psi = dt_spinor(c->in_g), *a = dt_spinor(c->out_g), *b = dt_spinor(c->out_g);
  spinor_field_flt *pf = dt_spinor_flt(c->in_g), *af = dt_spinor_flt(c->out_g),
                   *bf = dt_spinor_flt(c->out_g);
  dt_random_spinor_field(psi, 41);
  dt_to_flt(psi, pf);
  c->d(a, &Dc, psi);
  c->f(af, &Dc, pf);
  const long long ha = bits_hash(a), haf = bits_hash_flt(af);
  CHECK(!chunks_equal(c->out_g, sync_host_spinor_field(a), sizeof(suNf_spinor)),
        "%s: the operator's output has the data-only pattern", c->name);
  dirac_set_cpu_prefetch(-1); /* the timing restarts: data-only applications must not count */
  dirac_set_cpu_data_only(1);
  CHECK(dirac_cpu_data_only() == 1, "dirac_cpu_data_only() does not report the mode");
  for (int n = 0; n < DIRAC_CPU_PREFETCH_CALLS; n++) {
    c->d(b, &Dc, psi);
    c->f(bf, &Dc, pf);
  }
  dirac_set_cpu_data_only(0);
  CHECK(prefetch_all_untimed(), "%s: data-only applications counted in the prefetch timing",
        c->name);
  CHECK(bits_hash(b) != ha && bits_hash_flt(bf) != haf,
        "%s: the data-only mode gave the operator's output", c->name);
  CHECK(chunks_equal(c->out_g, sync_host_spinor_field(b), sizeof(suNf_spinor)) &&
            chunks_equal(c->out_g, sync_host_spinor_field_flt(bf), sizeof(suNf_spinor_flt)),
        "%s: a site of the data-only output is not written whole", c->name);
  c->d(b, &Dc, psi);
  c->f(bf, &Dc, pf);
  CHECK(bits_hash(b) == ha && bits_hash_flt(bf) == haf,
        "%s: after the data-only mode the operator gives other bits", c->name);
  DT_FREE(psi); DT_FREE(a); DT_FREE(b); DT_FREE(pf); DT_FREE(af); DT_FREE(bf);
}

/* The CPU loops' halo statistics (dirac_comm_stats_get): per application of the hopping term
 * with a halo one exchange of half spinors, and the output sites split between the loop over
 * the inner pieces and the loop over the boundary pieces as the pieces of the output geometry
 * are (all in the boundary loop, which then also runs the inner pieces, with the overlap off);
 * nothing without a halo. */
static void check_cpu_halo_stats(const dirac_op *D) {
  dirac_op Dc = *D;
  Dc.backend = HR_BACKEND_CPU;
  for (int k = 0; k < 3; k++) {
    const gpu_case *c = &hop_cases[k];
    const geometry_descriptor *og = c->out_g;
    double inner = 0, boundary = 0;
    for (int p = 0; p < og->local_master_pieces; p++)
      *(p < og->inner_master_pieces ? &inner : &boundary) += _PIECE_LENGTH(og, p);
    spinor_field *psi = dt_spinor(c->in_g), *b = dt_spinor(og);
    spinor_field_flt *pf = dt_spinor_flt(c->in_g), *bf = dt_spinor_flt(og);
    dt_random_spinor_field(psi, 61 + (uint64_t)k);
    dt_to_flt(psi, pf);
    for (int run = 0; run < 4; run++) { /* double, single; overlap on, off */
      const int flt = run % 2, overlap = run < 2;
      const size_t want = sendrecv_bytes(c->in_g, HR_LAYOUT_SPINOR,
                                         flt ? sizeof(dirac_half_spinor_flt)
                                             : sizeof(dirac_half_spinor));
      const int halo = want > 0;
      dirac_set_comm_overlap(overlap);
      dirac_comm_stats_reset();
      if (flt) c->f(bf, &Dc, pf); else c->d(b, &Dc, psi);
      const dirac_comm_stats st = dirac_comm_stats_get();
      const double want_in = halo && overlap ? inner : 0;
      const double want_bd = halo ? (overlap ? boundary : inner + boundary) : 0;
      CHECK(st.exchanges == halo && st.bytes_sent == (double)want,
            "CPU halo, %s%s: %ld exchanges of %.0f bytes, want %d of %zu", c->name,
            flt ? ", single" : "", st.exchanges, st.bytes_sent, halo, want);
      CHECK(st.inner_sites == want_in && st.boundary_sites == want_bd &&
                st.inner_seconds >= 0 && st.boundary_seconds >= 0 &&
                (halo || st.inner_seconds + st.boundary_seconds == 0),
            "CPU halo, %s%s, overlap %s: %.0f inner and %.0f boundary sites timed (%g s, "
            "%g s), want %.0f and %.0f", c->name, flt ? ", single" : "", overlap ? "on" : "off",
            st.inner_sites, st.boundary_sites, st.inner_seconds, st.boundary_seconds, want_in,
            want_bd);
    }
    dirac_set_comm_overlap(1);
    DT_FREE(psi);
    DT_FREE(b);
    DT_FREE(pf);
    DT_FREE(bf);
  }
}

/* Send sites of the spinor buffers of g whose partner shares memory with this rank (MPI
 * builds; with group > 0 also the same group of `group` consecutive ranks of the node):
 * what the halo through node memory should write there. */
static double node_send_sites(const geometry_descriptor *g, int group) {
  double sites = 0;
#if HR_WITH_MPI
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Group world_group, node_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(node, &node_group);
  int me = -1;
  MPI_Comm_rank(node, &me);
  for (int i = 0; i < g->nbuffers_spinor; i++) {
    int partner = -1;
    MPI_Group_translate_ranks(world_group, 1, &g->sbuf_to_proc[i], node_group, &partner);
    if (partner != MPI_UNDEFINED && (group <= 0 || partner / group == me / group))
      sites += g->sbuf_len[i];
  }
  MPI_Group_free(&world_group);
  MPI_Group_free(&node_group);
  MPI_Comm_free(&node);
#else
  (void)g;
  (void)group;
#endif
  return sites;
}

/* The CPU loops' halo between ranks of one node (dirac_set_node_halo): through node memory,
 * as MPI messages, and mixed (groups of 2 ranks, or each rank, taken as nodes: some buffers
 * through memory, the others through MPI) give the same bits for every operator in both
 * precisions, and the statistics count the bytes written through node memory. */
static void check_node_halo(const dirac_op *D, const char *tag) {
  dirac_op Dc = *D;
  Dc.backend = HR_BACKEND_CPU;
  static const int settings[4][2] = {{1, 0}, {0, 0}, {1, 2}, {1, 1}}; /* on, group */
  for (int k = 0; k < NOPS; k++) {
    const geometry_descriptor *g = ops[k].eo ? &glat_even : &glattice;
    spinor_field *psi = dt_spinor(g), *a = dt_spinor(g);
    spinor_field_flt *pf = dt_spinor_flt(g), *af = dt_spinor_flt(g);
    dt_random_spinor_field(psi, 71 + (uint64_t)k);
    dt_to_flt(psi, pf);
    long long h0 = 0, hf0 = 0;
    for (int m = 0; m < 4; m++) {
      dirac_set_node_halo(settings[m][0], settings[m][1]);
      ops[k].d(a, &Dc, psi);
      ops[k].f(af, &Dc, pf);
      const long long h = bits_hash(a), hf = bits_hash_flt(af);
      if (m == 0) {
        h0 = h;
        hf0 = hf;
      }
      CHECK(h == h0 && hf == hf0,
            "%s %s: halo %s (node groups of %d ranks) gives other bits than through node memory",
            ops[k].name, tag, settings[m][0] ? "through node memory" : "as MPI messages",
            settings[m][1]);
    }
    DT_FREE(psi); DT_FREE(a); DT_FREE(pf); DT_FREE(af);
  }
  const gpu_case *c = &hop_cases[2];
  spinor_field *psi = dt_spinor(c->in_g), *b = dt_spinor(c->out_g);
  dt_random_spinor_field(psi, 79);
  for (int m = 0; m < 4; m++) {
    dirac_set_node_halo(settings[m][0], settings[m][1]);
    dirac_comm_stats_reset();
    c->d(b, &Dc, psi);
    const dirac_comm_stats st = dirac_comm_stats_get();
    const double want = settings[m][0] ? node_send_sites(c->in_g, settings[m][1]) *
                                             (double)sizeof(dirac_half_spinor)
                                       : 0.;
    CHECK(st.bytes_node == want && st.bytes_node <= st.bytes_sent,
          "%s, halo %s (groups of %d): %.0f of %.0f bytes through node memory, want %.0f",
          c->name, settings[m][0] ? "on" : "off", settings[m][1], st.bytes_node, st.bytes_sent,
          want);
  }
  dirac_set_node_halo(1, 0);
  DT_FREE(psi);
  DT_FREE(b);
}

#if HR_GPU_ENABLED
/* D with its own backend choice: the CPU loops (gpu = 0) or the GPU path (gpu = 1). */
static dirac_op on_backend(const dirac_op *D, int gpu) {
  dirac_op B = *D;
  B.backend = gpu ? HR_BACKEND_GPU : HR_BACKEND_CPU;
  return B;
}

/* Largest relative difference allowed between the two backends (rounding only). */
#define GPU_TOL_DBL 1e-13
#define GPU_TOL_FLT 2e-6

/* The GPU path (device kernels per piece, device halo exchange) gives the CPU loops' results
 * for every operator in both precisions, with overlap on and off; a GPU output is current on
 * the device only; chaining a GPU and a CPU application reads no stale copy. */
static void check_gpu_vs_cpu(const dirac_op *D, const char *tag) {
  const dirac_op Dc = on_backend(D, 0), Dg = on_backend(D, 1);
  gpu_case cases[NOPS + 6];
  int nc = 0;
  for (int k = 0; k < NOPS; k++) {
    const geometry_descriptor *g = ops[k].eo ? &glat_even : &glattice;
    gpu_case c = {ops[k].name, ops[k].d, ops[k].f, g, g};
    cases[nc++] = c;
  }
  const gpu_case diag[3] = {{"Dphi_diag (odd)", Dphi_diag, Dphi_diag_flt, &glat_odd, &glat_odd},
                            {"Dphi_diag_inv (even)", Dphi_diag_inv, Dphi_diag_inv_flt,
                             &glat_even, &glat_even},
                            {"Dphi_hop_inv (odd <- even)", Dphi_hop_inv, Dphi_hop_inv_flt,
                             &glat_odd, &glat_even}};
  for (int k = 0; k < 3; k++) cases[nc++] = hop_cases[k];
  for (int k = 0; k < 3; k++) cases[nc++] = diag[k];
  for (int k = 0; k < nc; k++) {
    const gpu_case *c = &cases[k];
    spinor_field *psi = dt_spinor(c->in_g), *a = dt_spinor(c->out_g), *b = dt_spinor(c->out_g);
    spinor_field_flt *pf = dt_spinor_flt(c->in_g), *af = dt_spinor_flt(c->out_g),
                     *bf = dt_spinor_flt(c->out_g);
    spinor_field *a2 = dt_spinor(c->out_g), *b2 = dt_spinor(c->out_g);
    dt_random_spinor_field(psi, 31 + (uint64_t)k);
    dt_to_flt(psi, pf);
    for (int overlap = 1; overlap >= 0; overlap--) {
      dirac_set_comm_overlap(overlap);
      c->d(a, &Dc, psi);
      c->f(af, &Dc, pf);
      c->d(b, &Dg, psi);
      c->f(bf, &Dg, pf);
      CHECK(b->current == HR_COPY_GPU && bf->current == HR_COPY_GPU,
            "%s %s: the GPU path did not leave its output on the device only", c->name, tag);
      const double dd = rel_diff(b, a);
      CHECK(dd < GPU_TOL_DBL, "%s %s overlap %d: GPU vs CPU relative difference %g", c->name,
            tag, overlap, dd);
      dt_to_dbl(af, a2);
      dt_to_dbl(bf, b2);
      const double df = rel_diff(b2, a2);
      CHECK(df < GPU_TOL_FLT, "%s %s overlap %d single: GPU vs CPU relative difference %g",
            c->name, tag, overlap, df);
      CHECK(dt_sqnorm(a) > 0, "%s %s: zero result", c->name, tag);
    }
    dirac_set_comm_overlap(1);
    /* chain: GPU application, then CPU application of its (device-current) output */
    if (c->in_g == c->out_g) {
      c->d(b, &Dg, psi);
      c->d(b2, &Dc, b);
      c->d(a, &Dc, psi);
      c->d(a2, &Dc, a);
      const double dc = rel_diff(b2, a2);
      CHECK(dc < GPU_TOL_DBL, "%s %s: GPU then CPU differs from CPU twice by %g", c->name, tag,
            dc);
    }
    DT_FREE(psi);
    DT_FREE(a);
    DT_FREE(b);
    DT_FREE(a2);
    DT_FREE(b2);
    DT_FREE(pf);
    DT_FREE(af);
    DT_FREE(bf);
  }
}

/* The GPU path's halo: one exchange per application, of spin-projected half spinors (half
 * the bytes of the full spinors of every spinor buffer of the input geometry), counted by
 * dirac_comm_stats_get, and staged through the host exactly when the halo path says so; one
 * packing launch, and one hopping launch each for the inner and the boundary pieces. */
static void check_gpu_halo_bytes(const dirac_op *D, const char *tag) {
  const dirac_op Dg = on_backend(D, 1);
  const int staged = HR_WITH_MPI && !hr_gpu_halo_through_device();
  for (int k = 0; k < 3; k++) {
    const gpu_case *c = &hop_cases[k];
    spinor_field *psi = dt_spinor(c->in_g), *b = dt_spinor(c->out_g);
    spinor_field_flt *pf = dt_spinor_flt(c->in_g), *bf = dt_spinor_flt(c->out_g);
    dt_random_spinor_field(psi, 41 + (uint64_t)k);
    dt_to_flt(psi, pf);
    for (int flt = 0; flt < 2; flt++) {
      const size_t half = flt ? sizeof(dirac_half_spinor_flt) : sizeof(dirac_half_spinor);
      const size_t full = flt ? sizeof(suNf_spinor_flt) : sizeof(suNf_spinor);
      const size_t want = sendrecv_bytes(c->in_g, HR_LAYOUT_SPINOR, half);
      CHECK(2 * want == sendrecv_bytes(c->in_g, HR_LAYOUT_SPINOR, full),
            "%s: a half spinor is not half a spinor", c->name);
      if (flt) c->f(bf, &Dg, pf); else c->d(b, &Dg, psi); /* input on the device */
      dirac_comm_stats_reset();
      hr_gpu_transfers_reset();
      hr_gpu_launches_reset();
      if (flt) c->f(bf, &Dg, pf); else c->d(b, &Dg, psi);
      /* one launch for the inner pieces and one for all boundary pieces (those with sites) */
      const geometry_descriptor *og = c->out_g;
      int inner = 0, boundary = 0;
      for (int p = 0; p < og->local_master_pieces; p++)
        if (_PIECE_LENGTH(og, p) > 0) *(p < og->inner_master_pieces ? &inner : &boundary) = 1;
      const unsigned long long hops = hr_gpu_launch_count("dirac_hop_kernel"),
                               packs = hr_gpu_launch_count("dirac_halo_pack_kernel");
      CHECK(hops == (unsigned long long)(inner + boundary) && packs == (want > 0),
            "%s %s%s: %llu hopping and %llu packing launches, want %d and %d (%d pieces)",
            c->name, tag, flt ? " single" : "", hops, packs, inner + boundary, want > 0,
            og->local_master_pieces);
      const dirac_comm_stats st = dirac_comm_stats_get();
      CHECK(st.exchanges == (want > 0) && st.bytes_sent == (double)want,
            "%s %s%s: %ld exchanges of %.0f bytes, want %d of %zu (half spinors)", c->name, tag,
            flt ? " single" : "", st.exchanges, st.bytes_sent, want > 0, want);
      const unsigned long long down = hr_gpu_transfer_bytes(HR_XFER_HALO_TO_HOST),
                               up = hr_gpu_transfer_bytes(HR_XFER_HALO_TO_DEVICE);
      CHECK(down == (staged ? want : 0) && up == down,
            "%s %s%s: %llu halo bytes staged down and %llu up, want %zu", c->name, tag,
            flt ? " single" : "", down, up, staged ? want : (size_t)0);
    }
#if HR_GPU_BACKEND == HR_GPU_EMULATED
    { /* a device that refuses blocks above 32 threads: every launch, the packing on the halo
         stream included, is retried with an allowed size, and the result keeps its bits */
      spinor_field *b32 = dt_spinor(c->out_g);
      hr_gpu_emu_refuse_above(HR_WARP);
      c->d(b32, &Dg, psi);
      hr_gpu_emu_refuse_above(0);
      CHECK(dt_diff2(b32, b) == 0., "%s %s: blocks of 32 threads change the result by %g",
            c->name, tag, dt_diff2(b32, b));
      DT_FREE(b32);
    }
#endif
    DT_FREE(psi);
    DT_FREE(b);
    DT_FREE(pf);
    DT_FREE(bf);
  }
}
#endif

#if HR_GPU_ENABLED && NF == 3
/* 12-number links (gpu:links = 12): the GPU path with the third rows rebuilt equals the CPU
 * loops for every operator, both precisions (check_gpu_vs_cpu with links 12; the bc of D
 * give the links phases in the bulk and across the boundary), and, for fundamental links, it
 * never reads a third row: with NaN in the third row of every link of u (Wilson operator: the
 * clover term would read them), the hopping term has the bits of the clean links, while
 * 18-number links give NaN. */
static void check_gpu_links12(const dirac_op *D, const char *tag) {
  char t[64];
  snprintf(t, sizeof t, "%s, links 12", tag);
  dirac_set_gpu_links(12);
  check_gpu_vs_cpu(D, t);
  if (D->csw == 0. && HR_BUILD_REPR == HR_FUND) {
    suNg_field *bad = dt_gauge();
    sync_host_suNg_field(D->u);
    host_write_suNg_field(bad);
    _MASTER_FOR(&glattice, ix)
    for (int mu = 0; mu < 4; mu++) {
      suNg *w = _4FIELD_AT(bad, ix, mu);
      *w = *_4FIELD_AT(D->u, ix, mu);
      for (int j = 0; j < NG; j++) w->c[(NG - 1) * NG + j] = hr_cmplx(NAN, NAN);
    }
    sendrecv_field(&glattice, HR_LAYOUT_GAUGE, bad->ptr, 4 * sizeof(suNg));
    const dirac_op Dg = on_backend(D, 1);
    dirac_op Dbad = Dg;
    Dbad.u = bad;
    for (int k = 0; k < 3; k++) {
      const gpu_case *c = &hop_cases[k];
      spinor_field *psi = dt_spinor(c->in_g), *a = dt_spinor(c->out_g), *b = dt_spinor(c->out_g);
      dt_random_spinor_field(psi, 51 + (uint64_t)k);
      c->d(a, &Dg, psi);
      c->d(b, &Dbad, psi);
      const double d12 = dt_diff2(a, b);
      CHECK(d12 == 0., "%s %s: links 12 read the third rows (difference %g)", c->name, tag, d12);
      dirac_set_gpu_links(18);
      c->d(b, &Dbad, psi);
      const double d18 = dt_diff2(a, b);
      CHECK(isnan(d18), "%s %s: links 18 did not see the poisoned third rows (%g)", c->name,
            tag, d18);
      dirac_set_gpu_links(12);
      DT_FREE(psi);
      DT_FREE(a);
      DT_FREE(b);
    }
    DT_FREE(bad);
  }
  dirac_set_gpu_links(18);
}
#endif

/* Hopping between parities vs the full operator; Schur complement vs full operator. */
static void check_even_odd(const dirac_op *D, const char *tag) {
  spinor_field *psi = dt_spinor(&glattice), *full = dt_spinor(&glattice),
               *diag = dt_spinor(&glattice);
  spinor_field *pe = dt_spinor(&glat_even), *po = dt_spinor(&glat_odd),
               *he = dt_spinor(&glat_even), *ho = dt_spinor(&glat_odd);
  dt_random_spinor_field(psi, 3);
  dt_copy_sites(pe, psi);
  dt_copy_sites(po, psi);
  /* Dphi_ on glattice restricted to each parity = Dphi_ between parities */
  Dphi_hop(full, D, psi);
  Dphi_hop(he, D, po);
  Dphi_hop(ho, D, pe);
  double de = sqrt(dt_diff2(he, full) / dt_sqnorm(he)), dod = sqrt(dt_diff2(ho, full) / dt_sqnorm(ho));
  CHECK(de < 1e-14 && dod < 1e-14, "%s: hopping even %g odd %g from the full one", tag, de, dod);
  /* Dphi = diagonal + hopping */
  Dphi_diag(diag, D, psi);
  spinor_field *d = dt_spinor(&glattice);
  Dphi(d, D, psi);
  _MASTER_FOR(&glattice, ix) suNf_spinor_add(_FIELD_AT(diag, ix), _FIELD_AT(diag, ix), _FIELD_AT(full, ix));
  CHECK(rel_diff(d, diag) < 1e-14, "%s: Dphi - (diag + hopping) = %g", tag, rel_diff(d, diag));
  /* diag_inv inverts diag */
  Dphi_diag(d, D, psi);
  Dphi_diag_inv(diag, D, d);
  CHECK(rel_diff(diag, psi) < 1e-13, "%s: diag_inv diag psi - psi = %g", tag, rel_diff(diag, psi));
  /* Schur: psi_o = -D_oo^-1 D_oe psi_e */
  Dphi_hop(ho, D, pe);
  Dphi_diag_inv(po, D, ho);
  _MASTER_FOR(&glat_odd, ix) suNf_spinor_minus(_FIELD_AT(po, ix), _FIELD_AT(po, ix));
  spinor_field *in = dt_spinor(&glattice);
  dt_copy_sites(in, pe);
  _MASTER_FOR(&glat_odd, ix) *_FIELD_AT(in, ix) = *_FIELD_AT(po, ix);
  Dphi(full, D, in);
  Dphi_eopre(he, D, pe);
  double ds = sqrt(dt_diff2(he, full) / dt_sqnorm(he));
  double zo = 0;
  _MASTER_FOR(&glat_odd, ix) zo += suNf_spinor_sqnorm(_FIELD_AT(full, ix));
  global_sum(&zo, 1);
  zo = sqrt(zo / dt_sqnorm(he));
  CHECK(ds < 1e-13, "%s: Schur complement vs full operator on even sites: %g", tag, ds);
  CHECK(zo < 1e-13, "%s: full operator on odd sites should vanish: %g", tag, zo);
  /* Dphi_hop_inv = Dphi_diag_inv Dphi_hop, both directions between the parities and both
   * precisions (one sweep against two: rounding only) */
  for (int k = 0; k < 2; k++) {
    spinor_field *src = k == 0 ? pe : po, *hop = k == 0 ? ho : he;
    spinor_field *two = dt_spinor(hop->type), *one = dt_spinor(hop->type);
    spinor_field_flt *srcf = dt_spinor_flt(src->type), *onef = dt_spinor_flt(hop->type);
    Dphi_hop(hop, D, src);
    Dphi_diag_inv(two, D, hop);
    Dphi_hop_inv(one, D, src);
    const double dd = rel_diff(one, two);
    CHECK(dd < 1e-14 && dt_sqnorm(one) > 0, "%s: Dphi_hop_inv %s vs Dphi_diag_inv Dphi_hop: %g",
          tag, k == 0 ? "odd <- even" : "even <- odd", dd);
    dt_to_flt(src, srcf);
    Dphi_hop_inv_flt(onef, D, srcf);
    dt_to_dbl(onef, one);
    const double df = rel_diff(one, two);
    CHECK(df < 1e-6, "%s: Dphi_hop_inv_flt %s vs double: %g", tag,
          k == 0 ? "odd <- even" : "even <- odd", df);
    DT_FREE(two);
    DT_FREE(one);
    DT_FREE(srcf);
    DT_FREE(onef);
  }
  DT_FREE(psi); DT_FREE(full); DT_FREE(diag); DT_FREE(pe); DT_FREE(po); DT_FREE(he);
  DT_FREE(ho); DT_FREE(d); DT_FREE(in);
}

/* Gauge covariance: D[U^g] (g psi) = g (D[U] psi), U^g_mu(x) = g(x) U_mu(x) g(x+mu)^+. */
static void check_gauge_covariance(const dirac_op *D, const char *tag) {
  const suNg_field *u = D->u;
  suNg_field *ug = dt_gauge();
  host_write_suNg_field(ug);
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    suNg gx;
    dt_random_suNg_at(500, g, &gx);
    for (int mu = 0; mu < 4; mu++) {
      int gy[4] = {g[0], g[1], g[2], g[3]};
      gy[mu] = (gy[mu] + 1) % GLB_SIZE[mu];
      suNg gxp, t;
      dt_random_suNg_at(500, gy, &gxp);
      suNg_mul(&t, &gx, _4FIELD_AT(u, ix, mu));
      suNg_mul_dag(_4FIELD_AT(ug, ix, mu), &t, &gxp);
    }
  }
  dirac_op Dg = *D; /* the same operator on the transformed links */
  Dg.u = ug;
  spinor_field *psi = dt_spinor(&glattice), *gpsi = dt_spinor(&glattice),
               *a = dt_spinor(&glattice), *b = dt_spinor(&glattice);
  dt_random_spinor_field(psi, 5);
  /* a = g D[U] psi (links currently set: U) */
  Dphi(a, D, psi);
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    suNg gx;
    suNf gr;
    dt_random_suNg_at(500, g, &gx);
    suNg_to_suNf(&gr, &gx);
    suNf_spinor_mul_colour(_FIELD_AT(a, ix), &gr, _FIELD_AT(a, ix));
    suNf_spinor_mul_colour(_FIELD_AT(gpsi, ix), &gr, _FIELD_AT(psi, ix));
  }
  Dphi(b, &Dg, gpsi);
  double d = rel_diff(b, a);
  CHECK(d < 1e-13, "%s: gauge covariance violated by %g", tag, d);
  DT_FREE(ug); DT_FREE(psi); DT_FREE(gpsi); DT_FREE(a); DT_FREE(b);
}

/* Clover blocks: Hermitian, block x inverse = 1, log det vs LU, total log det. */
static void check_clover_blocks(const dirac_op *D, const char *tag) {
  const int n = CLOVER_BLOCK_DIM;
  hr_complex blk[CLOVER_BLOCK_DIM * CLOVER_BLOCK_DIM], inv[CLOVER_BLOCK_DIM * CLOVER_BLOCK_DIM];
  double herm = 0, ident = 0, ldd = 0, sum_ld = 0, phase_err = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int ch = 0; ch < 2; ch++) {
      clover_block(blk, D, ix, ch);
      clover_block_inverse(inv, D, ix, ch);
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          herm = fmax(herm, hr_cabs(blk[i * n + j] - hr_conj(blk[j * n + i])));
          hr_complex s = hr_cmplx(0, 0);
          for (int k = 0; k < n; k++) s += hr_cmul(blk[i * n + k], inv[k * n + j]);
          ident = fmax(ident, hr_cabs(s - hr_cmplx(i == j, 0)));
        }
      hr_complex ph;
      sum_ld += lu_logdet(blk, n, &ph);
      phase_err = fmax(phase_err, hr_cabs(ph - hr_cmplx(1, 0)));
    }
  }
  global_max(&herm, 1);
  global_max(&ident, 1);
  global_max(&phase_err, 1);
  global_sum(&sum_ld, 1);
  ldd = fabs(clover_logdet(D, HR_PARITY_BOTH) - sum_ld);
  double ld_eo = clover_logdet(D, HR_PARITY_EVEN) + clover_logdet(D, HR_PARITY_ODD);
  CHECK(herm < 1e-15, "%s: clover block not Hermitian by %g", tag, herm);
  CHECK(ident < 1e-13, "%s: block x inverse - 1 = %g", tag, ident);
  CHECK(phase_err < 1e-12, "%s: det of a block not real positive (phase error %g)", tag, phase_err);
  CHECK(ldd < 1e-10 * fabs(sum_ld) + 1e-12, "%s: log det %.15g vs LU %.15g", tag,
        clover_logdet(D, HR_PARITY_BOTH), sum_ld);
  CHECK(fabs(ld_eo - sum_ld) < 1e-10 * fabs(sum_ld) + 1e-12, "%s: even + odd log det %.15g vs %.15g",
        tag, ld_eo, sum_ld);
  /* F anti-Hermitian */
  double ah = 0;
  _MASTER_FOR(&glattice, ix) {
    suNf F, Fd;
    clover_field_strength(&F, dirac_links(D), ix, 1, 3);
    suNf_dagger(&Fd, &F);
    suNf_add(&Fd, &F, &Fd);
    ah = fmax(ah, sqrt(suNf_sqnorm(&Fd)));
  }
  global_max(&ah, 1);
  CHECK(ah < 1e-14, "%s: F_13 not anti-Hermitian by %g", tag, ah);
}

/* ------------------------------------------------------------------ free field */

static void check_free_field(void) {
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.theta[1] = 0.3;
  bc.kind[2] = HR_BC_ANTIPERIODIC;
  bc.theta[3] = -0.7;
  suNg_field *u = dt_gauge();
  host_write_suNg_field(u);
  _MASTER_FOR(&glattice, ix) for (int mu = 0; mu < 4; mu++) suNg_unit(_4FIELD_AT(u, ix, mu));
  const double m0 = -0.3;
  const int nmode[4] = {1, 2, 0, 3};
  double p[4], pt[4];
  for (int mu = 0; mu < 4; mu++) {
    p[mu] = (2 * PI * nmode[mu] + (bc.kind[mu] == HR_BC_ANTIPERIODIC ? PI : 0)) / GLB_SIZE[mu];
    pt[mu] = p[mu] + PI * bc.theta[mu] / GLB_SIZE[mu];
  }
  /* spin matrix M = m0 + sum(1 - cos pt) + i sum gamma_mu sin pt_mu */
  hr_complex M[16];
  double mass = m0;
  for (int mu = 0; mu < 4; mu++) mass += 1 - cos(pt[mu]);
  for (int i = 0; i < 16; i++) M[i] = hr_cmplx(i % 5 == 0 ? mass : 0, 0);
  for (int mu = 0; mu < 4; mu++) {
    hr_complex gm[16];
    hr_gamma_matrix(gm, mu);
    for (int i = 0; i < 16; i++) M[i] += hr_cmplx(0, sin(pt[mu])) * gm[i];
  }
  suNf_spinor u0;
  const int g0[4] = {0, 0, 0, 0};
  dt_random_spinor_at(31, 0, g0, &u0);
  suNf_spinor mu0;
  spin_mul(M, &u0, &mu0);
  for (int clov = 0; clov < 2; clov++) {
    const dirac_op Dop = dirac_op_make(u, m0, clov ? 1.7 : 0., &bc), *D = &Dop;
    spinor_field *psi = dt_spinor(&glattice), *out = dt_spinor(&glattice),
                 *want = dt_spinor(&glattice);
    _MASTER_FOR(&glattice, ix) {
      int g[4];
      global_coordinates(g, ix);
      double ph = 0;
      for (int mu = 0; mu < 4; mu++) ph += p[mu] * g[mu];
      suNf_spinor_scale_cmplx(_FIELD_AT(psi, ix), hr_cexpi(ph), &u0);
      suNf_spinor_scale_cmplx(_FIELD_AT(want, ix), hr_cexpi(ph), &mu0);
    }
    Dphi(out, D, psi);
    double d = rel_diff(out, want);
    CHECK(d < 1e-13, "free %s plane wave: D psi differs from the analytic value by %g",
          clov ? "clover" : "Wilson", d);
    /* the eigenvalues of M are mass +- i |sin pt|: check |D psi|^2 for a spin eigvector
       is implied by M; check the analytic norm identity (M^+ M = mass^2 + sum sin^2) */
    double s2 = 0;
    for (int mu = 0; mu < 4; mu++) s2 += sin(pt[mu]) * sin(pt[mu]);
    double nrm = dt_sqnorm(out) / dt_sqnorm(psi);
    CHECK(fabs(nrm - (mass * mass + s2)) < 1e-12, "free field: |D psi|^2/|psi|^2 = %.15g, want %.15g",
          nrm, mass * mass + s2);
    DT_FREE(psi); DT_FREE(out); DT_FREE(want);
  }
  DT_FREE(u);
  tc_case_end("free field plane waves (Wilson and clover, antiperiodic + twisted bc)");
}

/* ------------------------------------------------------------------ abelian background */

static void check_abelian_background(void) {
  dirac_bc bc;
  dirac_bc_default(&bc);
  suNg_field *u = dt_gauge();
  host_write_suNg_field(u);
  const double b = 4 * PI / (GLB_T * GLB_X);
  /* H = diag(1, -1, 0, ...) / 2 */
  suNg H;
  suNg_zero(&H);
  H.c[0] = hr_cmplx(0.5, 0);
  H.c[NG + 1] = hr_cmplx(-0.5, 0);
  /* exp(i phi H) is diagonal */
#define EXP_IH(phi, U)                                                                         \
  do {                                                                                         \
    suNg_unit(U);                                                                              \
    (U)->c[0] = hr_cexpi(0.5 * (phi));                                                         \
    (U)->c[NG + 1] = hr_cexpi(-0.5 * (phi));                                                   \
  } while (0)
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; mu++) suNg_unit(_4FIELD_AT(u, ix, mu));
    EXP_IH(b * g[0], _4FIELD_AT(u, ix, 1));
    if (g[0] == GLB_T - 1) EXP_IH(-b * GLB_T * g[1], _4FIELD_AT(u, ix, 0));
  }
  const double m0 = 0.2, csw = 1.3;
  const dirac_op Dop = dirac_op_make(u, m0, csw, &bc), *D = &Dop;
  suNg P;
  EXP_IH(b, &P);
#undef EXP_IH
  suNf PR, PRd, Fw;
  suNg_to_suNf(&PR, &P);
  suNf_dagger(&PRd, &PR);
  suNf_sub(&Fw, &PR, &PRd);
  suNf_scale(&Fw, 0.5, &Fw);
  double dev = 0, fnorm = sqrt(suNf_sqnorm(&Fw));
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      for (int nu = mu + 1; nu < 4; nu++) {
        suNf F, d;
        clover_field_strength(&F, dirac_links(D), ix, mu, nu);
        if (mu == 0 && nu == 1)
          suNf_sub(&d, &F, &Fw);
        else
          d = F;
        dev = fmax(dev, sqrt(suNf_sqnorm(&d)));
      }
  }
  global_max(&dev, 1);
  CHECK(fnorm > 0.1, "analytic field strength too small (%g) for a meaningful test", fnorm);
  CHECK(dev < 1e-14, "clover-leaf F deviates from the analytic uniform field by %g", dev);
  /* clover term = (4 + m0) + csw (i/2) sigma_01 x F_01, explicit sigma from gamma.h */
  hr_complex s01[16];
  hr_sigma_matrix(s01, 0, 1);
  spinor_field *psi = dt_spinor(&glattice), *out = dt_spinor(&glattice),
               *want = dt_spinor(&glattice);
  dt_random_spinor_field(psi, 7);
  _MASTER_FOR(&glattice, ix) {
    suNf_spinor fpsi, sfpsi;
    suNf_spinor_mul_colour(&fpsi, &Fw, _FIELD_AT(psi, ix));
    spin_mul(s01, &fpsi, &sfpsi);
    suNf_spinor_scale(_FIELD_AT(want, ix), 4 + m0, _FIELD_AT(psi, ix));
    suNf_spinor_mul_add_cmplx(_FIELD_AT(want, ix), _FIELD_AT(want, ix), hr_cmplx(0, 0.5 * csw),
                              &sfpsi);
  }
  Dphi_diag(out, D, psi);
  double d = rel_diff(out, want);
  CHECK(d < 1e-14, "clover term in the abelian background differs by %g", d);
  DT_FREE(psi); DT_FREE(out); DT_FREE(want); DT_FREE(u);
  tc_case_end("uniform abelian background: clover-leaf F and clover term");
}

/* Open boundary in time (openQCD's operator, boundary_conditions.h): the outer slices 0 and
 * T-1 are decoupled, so a change of psi on slice 0 changes D psi on slice 0 alone (the
 * identity block there) and neither slice 1 nor the last slice; Q stays Hermitian. */
static void check_open_bc(const suNg_field *u) {
  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.kind[0] = HR_BC_OPEN;
  const dirac_op D = dirac_op_make(u, 0.1, 0., &bc);
  spinor_field *psi = dt_spinor(&glattice), *phi = dt_spinor(&glattice),
               *a = dt_spinor(&glattice), *b = dt_spinor(&glattice);
  dt_random_spinor_field(psi, 8);
  dt_random_spinor_field(phi, 9);
  g5Dphi(a, &D, psi);
  g5Dphi(b, &D, phi);
  hr_complex l = dt_prod(phi, a), r = dt_prod(b, psi);
  CHECK(hr_cabs(l - r) < 1e-12 * sqrt(dt_sqnorm(phi) * dt_sqnorm(a)), "open bc: Q not Hermitian");
  /* change psi on slice 0 only: D psi on the last slice must not change */
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    if (g[0] == 0) suNf_spinor_scale(_FIELD_AT(psi, ix), 3.0, _FIELD_AT(psi, ix));
  }
  g5Dphi(b, &D, psi);
  double dl = 0, d1 = 0, d0 = 0;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    suNf_spinor d;
    suNf_spinor_sub(&d, _FIELD_AT(a, ix), _FIELD_AT(b, ix));
    if (g[0] == GLB_T - 1) dl += suNf_spinor_sqnorm(&d);
    if (g[0] == 1) d1 += suNf_spinor_sqnorm(&d);
    if (g[0] == 0) d0 += suNf_spinor_sqnorm(&d);
  }
  global_sum(&dl, 1);
  global_sum(&d1, 1);
  global_sum(&d0, 1);
  CHECK(dl == 0., "open bc: the last time slice sees slice 0 (change %g)", dl);
  CHECK(d1 == 0., "open bc: slice 1 sees slice 0 (change %g)", d1);
  CHECK(d0 > 1e-3, "open bc: slice 0 should see its own change (change %g)", d0);
#if HR_GPU_ENABLED
  check_gpu_vs_cpu(&D, "open bc");
#if NF == 3
  check_gpu_links12(&D, "open bc");
#endif
#endif
  DT_FREE(psi); DT_FREE(phi); DT_FREE(a); DT_FREE(b);
}

int main(int argc, char **argv) {
  dt_start(&argc, &argv);
  int np[4] = {1, 1, 1, 1};
  const char *write_path = NULL, *compare_path = NULL;
  int a = 1;
  if (argc >= 5) {
    for (int mu = 0; mu < 4; mu++) np[mu] = atoi(argv[mu + 1]);
    a = 5;
  }
  for (; a + 1 < argc; a += 2) {
    if (strcmp(argv[a], "--write") == 0) write_path = argv[a + 1];
    else if (strcmp(argv[a], "--compare") == 0) compare_path = argv[a + 1];
  }
  /* force a halo in every direction without MPI split: exercises buffers and copies */
  int force = 0;
  for (int mu = 0; mu < 4; mu++)
    if (np[mu] == 1 && hr_nranks() == 1 && write_path == NULL) force |= 1 << mu;
  dt_geometry(glb, np, force);
#if HR_GPU_ENABLED
  /* the analytic checks read and write host copies directly: run them on the CPU loops; the
   * GPU path is compared with them case by case (check_gpu_vs_cpu) */
  hr_backend_set(HR_BACKEND_CPU);
#endif
  if (hr_rank() == 0)
    printf("test_dirac: SU(%d) %s (NF = %d), lattice %dx%dx%dx%d, grid %dx%dx%dx%d%s\n", NG,
           repr_name(HR_BUILD_REPR), NF, glb[0], glb[1], glb[2], glb[3], np[0], np[1], np[2],
           np[3], force ? ", halo forced in all directions" : "");

  check_free_field();
  check_abelian_background();

  dirac_bc bc;
  dirac_bc_default(&bc);
  bc.theta[1] = 0.3;
  suNg_field *u = dt_gauge();
  warm_gauge(u, 0.6, 10);
  const double m0 = 0.1;
  for (int clov = 0; clov < 2; clov++) {
    const char *tag = clov ? "clover" : "wilson";
    const dirac_op Dop = dirac_op_make(u, m0, clov ? 1.1 : 0., &bc), *D = &Dop;
    char name[128];
    check_operators(D, tag);
    snprintf(name, sizeof name, "%s: gamma5-hermiticity, single vs double, overlap, checksums", tag);
    tc_case_end(name);
    check_even_odd(D, tag);
    snprintf(name, sizeof name, "%s: hopping between parities and Schur complement", tag);
    tc_case_end(name);
    check_gauge_covariance(D, tag);
    snprintf(name, sizeof name, "%s: gauge covariance", tag);
    tc_case_end(name);
    if (!clov) {
      check_cpu_halo_stats(D);
      tc_case_end("CPU loops: halo statistics, sites of the inner and boundary loops");
    }
    check_node_halo(D, tag);
    snprintf(name, sizeof name, "%s: halo through node memory, MPI messages and mixed", tag);
    tc_case_end(name);
#if HR_GPU_ENABLED
    check_gpu_vs_cpu(D, tag);
    snprintf(name, sizeof name, "%s: GPU path equals CPU loops", tag);
    tc_case_end(name);
    check_gpu_halo_bytes(D, tag);
    snprintf(name, sizeof name, "%s: GPU halo of half spinors, launches", tag);
    tc_case_end(name);
#if NF == 3
    check_gpu_links12(D, tag);
    snprintf(name, sizeof name, "%s: GPU path with 12-number links", tag);
    tc_case_end(name);
#endif
#endif
    if (clov) {
      check_prefetch_tuner(D);
      tc_case_end("clover: prefetch of the CPU loops chosen by timing, same bits");
      static const gpu_case data_only_cases[2] = {
          {"Dphi with clover", Dphi, Dphi_flt, &glattice, &glattice},
          {"Dphi_eopre with clover", Dphi_eopre, Dphi_eopre_flt, &glat_even, &glat_even}};
      for (int k = 0; k < 2; k++) check_data_only(D, &data_only_cases[k]);
      tc_case_end("clover: data-only form of the CPU loops (benchmarks), the operator after it");
      check_clover_blocks(D, tag);
      tc_case_end("clover blocks: Hermitian, inverse, log det");
    }
  }
  /* Haar-random (hot) links for the Wilson operator */
  dt_random_gauge(u, 20);
  const dirac_op Dhot = dirac_op_make(u, -0.4, 0., &bc);
  check_operators(&Dhot, "hot");
  check_even_odd(&Dhot, "hot");
  check_gauge_covariance(&Dhot, "hot");
#if HR_GPU_ENABLED
  check_gpu_vs_cpu(&Dhot, "hot");
#endif
  tc_case_end("hot gauge field, Wilson: all identities");
  check_open_bc(u);
  tc_case_end("open boundary in time");

  if (write_path != NULL) write_sums(write_path);
  if (compare_path != NULL) {
    compare_sums(compare_path);
    tc_case_end("checksums equal to the single-process run");
  }
  check_prefetch_new_geometry(u, &bc, np, force);
  tc_case_end("prefetch timed again after geometry_init");
  return dt_finish("test_dirac");
}
