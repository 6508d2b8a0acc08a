/* test_gamma.c -- unit tests (Check) of gamma.h and dirac_site.h: the explicit gamma
 * matrices obey the Clifford algebra, are Hermitian, gamma0 gamma1 gamma2 gamma3 =
 * diag(1,1,-1,-1) = gamma5; sigma_mu,nu is Hermitian and block diagonal; the per-site
 * hopping kernel (spin projection, 2 mat-vecs, reconstruction) equals the product of the
 * explicit 4x4 matrices (1 -/+ gamma_mu) with U psi, in double and single precision; the
 * library's CPU site kernel (configure --with-simd) equals the generic code, and gives the
 * same bits from neighbours received as projected half spinors (the MPI halo); the packed
 * clover layout holds each Hermitian block whole; the standard counts 1320 flop and 1536
 * bytes for SU(3) fundamental. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dirac_site.h"
#include "gamma.h"
#include "random.h"
#include "../check_suite.h"

static void mat4_mul(const hr_complex *a, const hr_complex *b, hr_complex *c) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      hr_complex s = hr_cmplx(0, 0);
      for (int k = 0; k < 4; k++) s += a[4 * i + k] * b[4 * k + j];
      c[4 * i + j] = s;
    }
}

START_TEST(test_clifford) {
  hr_complex g[5][16];
  for (int mu = 0; mu < 5; mu++) hr_gamma_matrix(g[mu], mu);
  for (int mu = 0; mu < 5; mu++) {
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
        ck_assert(cabs(g[mu][4 * i + j] - conj(g[mu][4 * j + i])) == 0);
    for (int nu = 0; nu < 5; nu++) {
      hr_complex a[16], b[16];
      mat4_mul(g[mu], g[nu], a);
      mat4_mul(g[nu], g[mu], b);
      for (int i = 0; i < 16; i++) {
        hr_complex want = (mu == nu && i % 5 == 0) ? 2 : 0;
        ck_assert_msg(cabs(a[i] + b[i] - want) < 1e-15, "{g%d, g%d} entry %d", mu, nu, i);
      }
    }
  }
  hr_complex a[16], b[16], c[16];
  mat4_mul(g[0], g[1], a);
  mat4_mul(a, g[2], b);
  mat4_mul(b, g[3], c);
  const double diag[4] = {1, 1, -1, -1};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      ck_assert(cabs(c[4 * i + j] - (i == j ? diag[i] : 0)) < 1e-15);
      ck_assert(cabs(g[4][4 * i + j] - (i == j ? diag[i] : 0)) == 0);
    }
}
END_TEST

START_TEST(test_sigma) {
  for (int mu = 0; mu < 4; mu++)
    for (int nu = 0; nu < 4; nu++) {
      hr_complex s[16], gm[16], gn[16], a[16], b[16];
      hr_sigma_matrix(s, mu, nu);
      hr_gamma_matrix(gm, mu);
      hr_gamma_matrix(gn, nu);
      mat4_mul(gm, gn, a);
      mat4_mul(gn, gm, b);
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
          ck_assert(cabs(s[4 * i + j] - I * 0.5 * (a[4 * i + j] - b[4 * i + j])) < 1e-15);
          ck_assert(cabs(s[4 * i + j] - conj(s[4 * j + i])) < 1e-15);
          if ((i < 2) != (j < 2)) ck_assert(cabs(s[4 * i + j]) == 0);
        }
    }
}
END_TEST

static void random_vec(hr_rng_stream *st, hr_complex *v, int n) {
  for (int i = 0; i < n; i++) {
    double re = rng_gaussian(st);
    double im = rng_gaussian(st);
    v[i] = hr_cmplx(re, im);
  }
}

/* Random neighbour spinors up, dn and links uu, ud of one site, with the pointer arrays of
 * the site kernels pointing at them. */
static void random_neighbourhood(hr_rng_stream *st, suNf_spinor up[4], suNf_spinor dn[4],
                                 suNf uu[4], suNf ud[4], const suNf_spinor *pu[4],
                                 const suNf_spinor *pd[4], const suNf *qu[4], const suNf *qd[4]) {
  for (int mu = 0; mu < 4; mu++) {
    random_vec(st, &up[mu].c[0].c[0], 4 * NF);
    random_vec(st, &dn[mu].c[0].c[0], 4 * NF);
    random_vec(st, uu[mu].c, NF * NF);
    random_vec(st, ud[mu].c, NF * NF);
    pu[mu] = &up[mu];
    pd[mu] = &dn[mu];
    qu[mu] = &uu[mu];
    qd[mu] = &ud[mu];
  }
}

/* The neighbourhood of random_neighbourhood rounded to single precision, with its pointer
 * arrays. */
static void neighbourhood_to_flt(const suNf_spinor up[4], const suNf_spinor dn[4],
                                 const suNf uu[4], const suNf ud[4], suNf_spinor_flt upf[4],
                                 suNf_spinor_flt dnf[4], suNf_flt uuf[4], suNf_flt udf[4],
                                 const suNf_spinor_flt *puf[4], const suNf_spinor_flt *pdf[4],
                                 const suNf_flt *quf[4], const suNf_flt *qdf[4]) {
  for (int mu = 0; mu < 4; mu++) {
    suNf_spinor_to_flt(&upf[mu], &up[mu]);
    suNf_spinor_to_flt(&dnf[mu], &dn[mu]);
    suNf_to_flt(&uuf[mu], &uu[mu]);
    suNf_to_flt(&udf[mu], &ud[mu]);
    puf[mu] = &upf[mu];
    pdf[mu] = &dnf[mu];
    quf[mu] = &uuf[mu];
    qdf[mu] = &udf[mu];
  }
}

/* (1 + s gamma_mu) W psi with W = U (s < 0) or U^+ (s > 0), from explicit matrices. */
static void explicit_dir(int mu, int s, const suNf_spinor *psi, const suNf *U, suNf_spinor *out) {
  hr_complex g[16];
  hr_gamma_matrix(g, mu);
  suNf_spinor w;
  for (int a = 0; a < 4; a++) {
    if (s < 0)
      suNf_mul_vec(&w.c[a], U, &psi->c[a]);
    else
      suNf_dag_mul_vec(&w.c[a], U, &psi->c[a]);
  }
  for (int a = 0; a < 4; a++)
    for (int i = 0; i < NF; i++) {
      hr_complex v = w.c[a].c[i];
      for (int b = 0; b < 4; b++) v += s * g[4 * a + b] * w.c[b].c[i];
      out->c[a].c[i] = v;
    }
}

START_TEST(test_site_kernel) {
  hr_rng_stream st;
  rng_stream_init(&st, 11, 0, 0);
  for (int rep = 0; rep < 20; rep++) {
    suNf_spinor up[4], dn[4], out, want;
    suNf uu[4], ud[4];
    const suNf_spinor *pu[4], *pd[4];
    const suNf *qu[4], *qd[4];
    random_neighbourhood(&st, up, dn, uu, ud, pu, pd, qu, qd);
    dirac_site_hop(&out, pu, pd, qu, qd);
    suNf_spinor_zero(&want);
    for (int mu = 0; mu < 4; mu++) {
      suNf_spinor t;
      explicit_dir(mu, -1, &up[mu], &uu[mu], &t);
      suNf_spinor_add(&want, &want, &t);
      explicit_dir(mu, +1, &dn[mu], &ud[mu], &t);
      suNf_spinor_add(&want, &want, &t);
    }
    suNf_spinor d, outg;
    suNf_spinor_sub(&d, &out, &want);
    ck_assert_msg(sqrt(suNf_spinor_sqnorm(&d) / suNf_spinor_sqnorm(&want)) < 1e-14,
                  "site kernel (DIRAC_SIMD = %d) differs from explicit gamma matrices", DIRAC_SIMD);
    dirac_site_hop_generic(&outg, pu, pd, qu, qd);
    suNf_spinor_sub(&d, &outg, &want);
    ck_assert_msg(sqrt(suNf_spinor_sqnorm(&d) / suNf_spinor_sqnorm(&want)) < 1e-14,
                  "generic site kernel differs from explicit gamma matrices");
    /* single precision from the same template */
    suNf_spinor_flt upf[4], dnf[4], outf;
    suNf_flt uuf[4], udf[4];
    const suNf_spinor_flt *puf[4], *pdf[4];
    const suNf_flt *quf[4], *qdf[4];
    neighbourhood_to_flt(up, dn, uu, ud, upf, dnf, uuf, udf, puf, pdf, quf, qdf);
    for (int form = 0; form < 2; form++) {
      if (form == 0)
        dirac_site_hop_flt(&outf, puf, pdf, quf, qdf);
      else
        dirac_site_hop_generic_flt(&outf, puf, pdf, quf, qdf);
      suNf_spinor back;
      suNf_spinor_flt_to_dbl(&back, &outf);
      suNf_spinor_sub(&d, &back, &want);
      ck_assert_msg(sqrt(suNf_spinor_sqnorm(&d) / suNf_spinor_sqnorm(&want)) < 1e-6,
                    "single-precision site kernel (form %d) differs", form);
    }
  }
}
END_TEST

/* Relative distance |a - b| / |b| of two spinors. */
static double spinor_rel(const suNf_spinor *a, const suNf_spinor *b) {
  suNf_spinor d;
  suNf_spinor_sub(&d, a, b);
  return sqrt(suNf_spinor_sqnorm(&d) / suNf_spinor_sqnorm(b));
}

/* The CPU site kernel as the library compiles it (configure --with-simd: explicit FMA,
 * AVX-512 or the portable vector form; dirac_cpu_site_lib) against the generic per-site code
 * compiled here (dirac_site_hop_generic, then dirac_site_finish), for every epilogue (plain,
 * plus diagonal, then inverse), with and without gamma5, with a clover block or the number,
 * in both precisions: to rounding (1e-14 double, 1e-6 single), and bit for bit in the
 * portable build (no FMA: the same operations). */
START_TEST(test_cpu_kernel) {
  hr_rng_stream st;
  rng_stream_init(&st, 12, 0, 0);
  const int portable = strcmp(HR_SIMD, "portable") == 0;
  int cases = 0;
  for (int rep = 0; rep < 4; rep++) {
    suNf_spinor up[4], dn[4], x, out, want;
    suNf uu[4], ud[4];
    suNf_clover cl;
    const suNf_spinor *pu[4], *pd[4];
    const suNf *qu[4], *qd[4];
    random_neighbourhood(&st, up, dn, uu, ud, pu, pd, qu, qd);
    random_vec(&st, &x.c[0].c[0], 4 * NF);
    random_vec(&st, &cl.c[0][0], 2 * CLOVER_PACKED_UNITS);
    suNf_spinor_flt upf[4], dnf[4], xf, outf;
    suNf_flt uuf[4], udf[4];
    suNf_clover_flt clf;
    const suNf_spinor_flt *puf[4], *pdf[4];
    const suNf_flt *quf[4], *qdf[4];
    neighbourhood_to_flt(up, dn, uu, ud, upf, dnf, uuf, udf, puf, pdf, quf, qdf);
    suNf_spinor_to_flt(&xf, &x);
    for (int k = 0; k < 2 * CLOVER_PACKED_UNITS; k++)
      (&clf.c[0][0])[k] = hr_complex_to_flt((&cl.c[0][0])[k]);
    /* the neighbours as received half spinors (a halo of another process): the directions
     * of the bits of `halo_dirs` (forward mu: bit mu, backward: bit 4 + mu) */
    dirac_half_spinor hu[4], hd[4];
    dirac_half_spinor_flt huf[4], hdf[4];
    const dirac_half_spinor *phu[4], *phd[4];
    const dirac_half_spinor_flt *phuf[4], *phdf[4];
    const int halo_dirs = rep == 0 ? 0xff : 0x5a + rep;
    for (int mu = 0; mu < 4; mu++) {
      dirac_spin_project(&hu[mu], mu, -1, &up[mu]);
      dirac_spin_project(&hd[mu], mu, +1, &dn[mu]);
      dirac_spin_project_flt(&huf[mu], mu, -1, &upf[mu]);
      dirac_spin_project_flt(&hdf[mu], mu, +1, &dnf[mu]);
      phu[mu] = (halo_dirs >> mu) & 1 ? &hu[mu] : NULL;
      phd[mu] = (halo_dirs >> (4 + mu)) & 1 ? &hd[mu] : NULL;
      phuf[mu] = phu[mu] != NULL ? &huf[mu] : NULL;
      phdf[mu] = phd[mu] != NULL ? &hdf[mu] : NULL;
    }
    const int modes[3] = {DIRAC_HOP_PLAIN, DIRAC_HOP_PLUS_DIAG, DIRAC_HOP_THEN_INV};
    for (int m = 0; m < 3; m++)
      for (int g5 = 0; g5 < 2; g5++)
        for (int withcl = 0; withcl < 2; withcl++) {
          const double s = m == 2 ? -0.5 : 0.5, diag = 4.1;
          const suNf_clover *c = withcl ? &cl : NULL;
          suNf_spinor r;
          dirac_site_hop_generic(&r, pu, pd, qu, qd);
          dirac_site_finish(&want, modes[m], g5, s, diag, &x, c, &r);
          dirac_cpu_site_lib(&out, modes[m], g5, s, diag, &x, c, pu, pd, NULL, NULL, qu, qd);
          suNf_spinor outh;
          dirac_cpu_site_lib(&outh, modes[m], g5, s, diag, &x, c, pu, pd, phu, phd, qu, qd);
          ck_assert_msg(memcmp(&out, &outh, sizeof out) == 0,
                        "CPU kernel mode %d g5 %d clover %d: received half spinors (directions "
                        "0x%x) do not give the bits of the full neighbours",
                        modes[m], g5, withcl, halo_dirs);
          const double dd = spinor_rel(&out, &want);
          ck_assert_msg(dd < 1e-14, "CPU kernel (%s) mode %d g5 %d clover %d: relative %g", HR_SIMD,
                        modes[m], g5, withcl, dd);
          if (portable)
            ck_assert_msg(memcmp(&out, &want, sizeof out) == 0,
                          "portable CPU kernel mode %d g5 %d clover %d: not the generic bits",
                          modes[m], g5, withcl);
          dirac_cpu_site_lib_flt(&outf, modes[m], g5, (float)s, (float)diag, &xf,
                                 withcl ? &clf : NULL, puf, pdf, NULL, NULL, quf, qdf);
          suNf_spinor_flt outhf;
          dirac_cpu_site_lib_flt(&outhf, modes[m], g5, (float)s, (float)diag, &xf,
                                 withcl ? &clf : NULL, puf, pdf, phuf, phdf, quf, qdf);
          ck_assert_msg(memcmp(&outf, &outhf, sizeof outf) == 0,
                        "single CPU kernel mode %d g5 %d clover %d: received half spinors "
                        "(directions 0x%x) do not give the bits of the full neighbours",
                        modes[m], g5, withcl, halo_dirs);
          suNf_spinor back;
          suNf_spinor_flt_to_dbl(&back, &outf);
          const double df = spinor_rel(&back, &want);
          ck_assert_msg(df < 1e-6, "single CPU kernel (%s) mode %d g5 %d clover %d: relative %g",
                        HR_SIMD, modes[m], g5, withcl, df);
          cases++;
        }
  }
  ck_assert_int_eq(cases, 48);
}
END_TEST

/* The packed clover layout (field_kinds.h): every unit holds entries of one Hermitian pair
 * (i, j), (j, i) or the two real diagonal entries of one colour, each unit is used, the
 * column pairs (a, NF + a) of the sub-blocks a < b are adjacent units (the CPU kernels' pair
 * form); clover_packed_entry inverts clover_packed_unit_sc; a random packed block is
 * Hermitian through dirac_clover_entry, and
 * dirac_site_clover_mul is the product with its full matrix. */
START_TEST(test_clover_packed) {
  enum { D = 2 * NF, U = CLOVER_PACKED_UNITS };
  int uses[U][4];
  memset(uses, 0, sizeof uses);
  for (int i = 0; i < D; i++)
    for (int j = 0; j < D; j++) {
      int how, how_t;
      const int k = clover_packed_unit(i, j, &how), kt = clover_packed_unit(j, i, &how_t);
      ck_assert_msg(k >= 0 && k < U, "entry (%d,%d): unit %d out of range", i, j, k);
      uses[k][how]++;
      if (i == j) {
        ck_assert_int_eq(how, i < NF ? HR_CLOVER_RE : HR_CLOVER_IM);
      } else {
        ck_assert_msg(k == kt && how + how_t == HR_CLOVER_CONJ && how != how_t,
                      "entries (%d,%d) and (%d,%d) are not a conjugate pair", i, j, j, i);
      }
      const int a = i % NF, b = j % NF;
      if (i < NF && a < b) { /* rows a and NF + a of a column: units k, k + 1 */
        int h2;
        ck_assert_int_eq(clover_packed_unit(NF + a, j, &h2), k + 1);
        ck_assert_int_eq(how, HR_CLOVER_UNIT);
        ck_assert_int_eq(h2, HR_CLOVER_UNIT);
      }
    }
  for (int k = 0; k < U; k++)
    ck_assert_msg((uses[k][HR_CLOVER_UNIT] == 1 && uses[k][HR_CLOVER_CONJ] == 1 &&
                   uses[k][HR_CLOVER_RE] == 0 && uses[k][HR_CLOVER_IM] == 0) ||
                      (uses[k][HR_CLOVER_UNIT] == 0 && uses[k][HR_CLOVER_CONJ] == 0 &&
                       uses[k][HR_CLOVER_RE] == 1 && uses[k][HR_CLOVER_IM] == 1),
                  "unit %d is not one Hermitian pair or one diagonal pair", k);
  /* clover_packed_entry is the inverse of clover_packed_unit_sc */
  for (int k = 0; k < U; k++) {
    int r, a, c, b, how;
    const int pair = clover_packed_entry(k, &r, &a, &c, &b);
    ck_assert_int_eq(clover_packed_unit_sc(r, a, c, b, &how), k);
    ck_assert_int_eq(how, pair ? HR_CLOVER_RE : HR_CLOVER_UNIT);
  }
  hr_rng_stream st;
  rng_stream_init(&st, 13, 0, 0);
  suNf_clover cl;
  suNf_spinor x, out;
  random_vec(&st, &cl.c[0][0], 2 * U);
  random_vec(&st, &x.c[0].c[0], 4 * NF);
  const dirac_clover_ref c = dirac_clover_host(&cl);
  for (int ch = 0; ch < 2; ch++)
    for (int i = 0; i < D; i++)
      for (int j = 0; j < D; j++)
        ck_assert(dirac_clover_entry(&c, ch, i, j) == conj(dirac_clover_entry(&c, ch, j, i)));
  dirac_site_clover_mul(&out, &cl, &x);
  double dmax = 0;
  for (int ch = 0; ch < 2; ch++)
    for (int i = 0; i < D; i++) {
      hr_complex want = 0;
      for (int j = 0; j < D; j++)
        want += dirac_clover_entry(&c, ch, i, j) * x.c[2 * ch + j / NF].c[j % NF];
      const double d = cabs(out.c[2 * ch + i / NF].c[i % NF] - want);
      dmax = d > dmax ? d : dmax;
    }
  ck_assert_msg(dmax < 1e-14, "packed clover block times a spinor: deviation %g", dmax);
}
END_TEST

#if NF == 3
/* 12-number links: row 2 of U = ph V (V special unitary; ph 1, a twist phase, minus it, 0)
 * rebuilt from rows 0 and 1 with det U = ph^3 (dirac_link_reconstruct) equals the stored
 * row to rounding, in both precisions; and the hopping direction from two rows
 * (dirac_site_hop_dir_half_12) has the bits of dirac_site_hop_dir_half on the rebuilt link. */
START_TEST(test_link12) {
  hr_rng_stream st;
  rng_stream_init(&st, 12, 0, 0);
  const hr_complex tw = hr_cexpi(3.14159265358979323846 * 0.3 / 8);
  const hr_complex phases[4] = {hr_cmplx(1, 0), tw, -tw, hr_cmplx(0, 0)};
  for (int trial = 0; trial < 8; trial++)
    for (int p = 0; p < 4; p++) {
      suNf U, w;
      random_vec(&st, U.c, 9);
      ck_assert_int_eq(suN_reunitarize(U.c, 3), 0);
      const hr_complex ph = phases[p], det = ph * ph * ph;
      for (int k = 0; k < 9; k++) U.c[k] = ph * U.c[k];
      w = U;
      for (int j = 0; j < 3; j++) w.c[6 + j] = hr_cmplx(NAN, NAN);
      dirac_link_reconstruct(&w, det);
      double err = 0;
      for (int k = 0; k < 9; k++) err = fmax(err, hr_cabs(w.c[k] - U.c[k]));
      ck_assert_msg(err < 1e-14, "phase %d: rebuilt row off by %g", p, err);
      suNf_flt Uf, wf;
      suNf_to_flt(&Uf, &U);
      wf = Uf;
      for (int j = 0; j < 3; j++) wf.c[6 + j] = hr_cmplx_flt(NAN, NAN);
      dirac_link_reconstruct_flt(&wf, hr_cmplx_flt((float)hr_creal(det), (float)hr_cimag(det)));
      double errf = 0;
      for (int k = 0; k < 9; k++)
        errf = fmax(errf, hr_cabs(hr_cmplx(crealf(wf.c[k]) - crealf(Uf.c[k]),
                                            cimagf(wf.c[k]) - cimagf(Uf.c[k]))));
      ck_assert_msg(errf < 1e-6, "phase %d single: rebuilt row off by %g", p, errf);
      /* the direction kernels: from two rows (NaN in row 2) and from the rebuilt link */
      for (int mu = 0; mu < 4; mu++)
        for (int sg = -1; sg <= 1; sg += 2) {
          dirac_half_spinor h;
          random_vec(&st, &h.c[0].c[0], 2 * NF);
          suNf two = U;
          for (int j = 0; j < 3; j++) two.c[6 + j] = hr_cmplx(NAN, NAN);
          suNf_spinor a, b;
          dirac_site_hop_dir_half_12(&a, mu, sg, 1, &h, &two, det);
          dirac_site_hop_dir_half(&b, mu, sg, 1, &h, &w);
          ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "mu %d s %d: 12-number direction differs",
                        mu, sg);
        }
    }
}
END_TEST
#endif

START_TEST(test_counts) {
  ck_assert_int_eq(DIRAC_HOP_FLOP_PER_SITE(3), 1320);
  ck_assert_int_eq(DIRAC_HOP_BYTES_PER_SITE(3, 8), 1536);
  ck_assert_int_eq(DIRAC_HOP_BYTES_PER_SITE(3, 4), 768);
}
END_TEST

int main(void) {
  Suite *s = suite_create("gamma");
  TCase *tc = tcase_create("gamma");
  tcase_add_test(tc, test_clifford);
  tcase_add_test(tc, test_sigma);
  tcase_add_test(tc, test_site_kernel);
  tcase_add_test(tc, test_cpu_kernel);
  tcase_add_test(tc, test_clover_packed);
  tcase_add_test(tc, test_counts);
#if NF == 3
  tcase_add_test(tc, test_link12);
#endif
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
