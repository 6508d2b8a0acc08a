/* la_test_template.h -- the checks of test_linear_algebra.c for one precision; included twice
 * with
 *   LT_FIELD  field type (spinor_field / spinor_field_flt)
 *   LT_REAL   its real type (double / float)
 *   LT_TAG    suffix of the helper names (_f / _f_flt)
 *   LT_EPS    unit roundoff of LT_REAL
 *   LT_GPU_TOL  allowed relative difference between the GPU and the CPU path
 * Every operation runs on the CPU backend and, in GPU builds, on the GPU backend from the same
 * inputs; both are compared with a long-double reference computed here from the inputs, and
 * with each other. No include guard. */

/* The parameters must be defined by the includer. */
#ifndef LT_FIELD
#error "la_test_template.h: define LT_FIELD (the field type, e.g. spinor_field or spinor_field_flt) before including"
#endif
#ifndef LT_REAL
#error "la_test_template.h: define LT_REAL (the real type) before including"
#endif
#ifndef LT_TAG
#error "la_test_template.h: define LT_TAG (the function suffix, _f or _f_flt) before including"
#endif
#ifndef LT_EPS
#error "la_test_template.h: define LT_EPS (the unit roundoff of LT_REAL) before including"
#endif
#ifndef LT_GPU_TOL
#error "la_test_template.h: define LT_GPU_TOL (the allowed relative GPU/CPU difference) before including"
#endif

#define LT_F_(op) HR_CAT(op##_, LT_FIELD)
#define LT_(name) HR_CAT(name, LT_TAG)
#define LT_NR_ (8 * NF)

/* Host values of a field (brought to the host first), as a flat array of reals. */
static LT_REAL *LT_(lt_host)(LT_FIELD *f) {
  return (LT_REAL *)HR_CAT(sync_host_, LT_FIELD)(f);
}

/* Set f from saved host values (the host copy becomes current). */
static void LT_(lt_set)(LT_FIELD *f, const LT_REAL *saved, size_t n) {
  memcpy(HR_CAT(host_write_, LT_FIELD)(f), saved, n * sizeof(LT_REAL));
}

/* Reference of one streaming operation at real component q of the master site at offset o
 * (op numbers below); x0 = initial output, x1, x2 = inputs. Returns the value, *mag the sum
 * of the magnitudes of its terms. */
static long double LT_(lt_ref)(int op, const LT_REAL *x0, const LT_REAL *x1, const LT_REAL *x2,
                               size_t o, int q, const double c[2], hr_complex z,
                               long double *mag) {
  const size_t i = o * LT_NR_ + (size_t)q;
  const long double r = x0[i], s1 = x1[i], s2 = x2[i];
  /* Coefficients as the precision of the field sees them. */
  const long double c0 = (LT_REAL)c[0], c1 = (LT_REAL)c[1];
  const long double zr = (LT_REAL)hr_creal(z), zi = (LT_REAL)hr_cimag(z);
  const int re = q % 2 == 0;
  /* Partner component (imaginary part of a real part and vice versa). */
  const long double s1p = x1[re ? i + 1 : i - 1];
  const long double g5sign = (q / (2 * NF)) < 2 ? 1 : -1;
  long double zs, zs_mag;
  if (re) {
    zs = zr * s1 - zi * s1p;
  } else {
    zs = zr * s1 + zi * s1p;
  }
  zs_mag = fabsl(zr * s1) + fabsl(zi * s1p);
  switch (op) {
  case 0: *mag = 0; return 0;                                   /* zero */
  case 1: *mag = fabsl(s1); return s1;                          /* copy */
  case 2: *mag = fabsl(c0 * s1); return c0 * s1;                /* mul */
  case 3: *mag = zs_mag; return zs;                             /* mulc */
  case 4: *mag = fabsl(r) + fabsl(c0 * s1); return r + c0 * s1; /* mul_add_assign */
  case 5: *mag = fabsl(r) + zs_mag; return r + zs;              /* mulc_add_assign */
  case 6: *mag = fabsl(s1) + fabsl(s2); return s1 + s2;         /* add */
  case 7: *mag = fabsl(s1) + fabsl(s2); return s1 - s2;         /* sub */
  case 8: *mag = fabsl(r) + fabsl(s1); return r + s1;           /* add_assign */
  case 9: *mag = fabsl(r) + fabsl(s1); return r - s1;           /* sub_assign */
  case 10: *mag = fabsl(c0 * s1) + fabsl(c1 * s2); return c0 * s1 + c1 * s2; /* lc */
  case 11:                                                      /* lc_add_assign */
    *mag = fabsl(r) + fabsl(c0 * s1) + fabsl(c1 * s2);
    return r + c0 * s1 + c1 * s2;
  case 12: *mag = fabsl(s1); return -s1;                        /* minus */
  case 13: *mag = fabsl(s1); return g5sign * s1;                /* g5 */
  case 14: *mag = fabsl(r); return g5sign * r;                  /* g5_assign */
  case 15: *mag = fabsl(s1) + fabsl(c0 * r); return s1 + c0 * r; /* cg_direction p = r + b p */
  }
  *mag = 0;
  return 0;
}

static const char *const LT_(lt_op_names)[] = {
    "zero", "copy", "mul", "mulc", "mul_add_assign", "mulc_add_assign", "add", "sub",
    "add_assign", "sub_assign", "lc", "lc_add_assign", "minus", "g5", "g5_assign",
    "cg_direction"};
#define LT_NOPS_ 16

/* Run streaming operation `op` with output r (initial values x0) and inputs s1, s2. */
static void LT_(lt_run)(int op, LT_FIELD *r, LT_FIELD *s1, LT_FIELD *s2, const double c[2],
                        hr_complex z) {
  switch (op) {
  case 0: LT_F_(zero)(r); break;
  case 1: LT_F_(copy)(r, s1); break;
  case 2: LT_F_(mul)(r, c[0], s1); break;
  case 3: LT_F_(mulc)(r, z, s1); break;
  case 4: LT_F_(mul_add_assign)(r, c[0], s1); break;
  case 5: LT_F_(mulc_add_assign)(r, z, s1); break;
  case 6: LT_F_(add)(r, s1, s2); break;
  case 7: LT_F_(sub)(r, s1, s2); break;
  case 8: LT_F_(add_assign)(r, s1); break;
  case 9: LT_F_(sub_assign)(r, s1); break;
  case 10: LT_F_(lc)(r, c[0], s1, c[1], s2); break;
  case 11: LT_F_(lc_add_assign)(r, c[0], s1, c[1], s2); break;
  case 12: LT_F_(minus)(r, s1); break;
  case 13: LT_F_(g5)(r, s1); break;
  case 14: LT_F_(g5_assign)(r); break;
  case 15: LT_F_(cg_direction)(r, c[0], s1); break;
  }
}

/* Reductions: 0 sqnorm(s1), 1 prod(s1, s2), 2 prod_re, 3 prod_im, 4 g5_prod, 5 g5_prod_re. */
static const char *const LT_(lt_red_names)[] = {"sqnorm", "prod", "prod_re",
                                                  "prod_im", "g5_prod", "g5_prod_re"};
#define LT_NRED_ 6
static void LT_(lt_reduce)(int op, LT_FIELD *s1, LT_FIELD *s2, double out[2]) {
  hr_complex z = hr_cmplx(0, 0);
  out[1] = 0;
  switch (op) {
  case 0: out[0] = LT_F_(sqnorm)(s1); return;
  case 1: z = LT_F_(prod)(s1, s2); break;
  case 2: out[0] = LT_F_(prod_re)(s1, s2); return;
  case 3: out[0] = LT_F_(prod_im)(s1, s2); return;
  case 4: z = LT_F_(g5_prod)(s1, s2); break;
  case 5: out[0] = LT_F_(g5_prod_re)(s1, s2); return;
  }
  out[0] = hr_creal(z);
  out[1] = hr_cimag(z);
}
/* Long-double reference of a reduction over the master sites of g, summed over processes;
 * mag[] the sum of magnitudes of the terms. */
static void LT_(lt_reduce_ref)(int op, const geometry_descriptor *g, const LT_REAL *x1,
                               const LT_REAL *x2, double out[2], double mag[2]) {
  long double re = 0, im = 0, mre = 0, mim = 0;
  _MASTER_FOR(g, ix) {
    const size_t o = (size_t)(ix - g->master_shift) * LT_NR_;
    for (int k = 0; k < 4 * NF; k++) {
      const long double ar = x1[o + 2 * k], ai = x1[o + 2 * k + 1];
      const long double br = x2[o + 2 * k], bi = x2[o + 2 * k + 1];
      const long double sign = (op >= 4 && k >= 2 * NF) ? -1 : 1;
      if (op == 0) {
        re += ar * ar + ai * ai;
        mre += ar * ar + ai * ai;
      } else {
        re += sign * (ar * br + ai * bi);
        im += sign * (ar * bi - ai * br);
        mre += fabsl(ar * br) + fabsl(ai * bi);
        mim += fabsl(ar * bi) + fabsl(ai * br);
      }
    }
  }
  double v[4] = {(double)re, (double)im, (double)mre, (double)mim};
  global_sum(v, 4);
  out[0] = v[0];
  out[1] = v[1];
  mag[0] = v[2];
  mag[1] = v[3];
  if (op == 3) { /* prod_im: the imaginary part is the result */
    out[0] = out[1];
    mag[0] = mag[1];
  }
}

static void LT_(lt_test)(const geometry_descriptor *g, const char *gname, const char *lname) {
  const size_t nreal = field_bytes(&HR_CAT(hr_kind_, LT_FIELD), g) / sizeof(LT_REAL);
  char cname[512], vname[256];
  LT_FIELD *f = HR_CAT(alloc_, LT_FIELD)(6, g);
  LT_FIELD *A = &f[0], *B = &f[1], *C = &f[2], *R = &f[3], *X = &f[4], *Y = &f[5];
  HR_CAT(gaussian_, LT_FIELD)(A);
  HR_CAT(gaussian_, LT_FIELD)(B);
  HR_CAT(gaussian_, LT_FIELD)(C);
  LT_REAL *a = malloc(nreal * sizeof(LT_REAL)), *b = malloc(nreal * sizeof(LT_REAL)),
          *c0 = malloc(nreal * sizeof(LT_REAL)), *res[2];
  res[0] = malloc(nreal * sizeof(LT_REAL));
  res[1] = malloc(nreal * sizeof(LT_REAL));
  memcpy(a, LT_(lt_host)(A), nreal * sizeof(LT_REAL));
  memcpy(b, LT_(lt_host)(B), nreal * sizeof(LT_REAL));
  memcpy(c0, LT_(lt_host)(C), nreal * sizeof(LT_REAL));
  const double coef[2] = {0.7312, -1.2345678901234567};
  const hr_complex z = hr_cmplx(0.3, -0.9);
  const int nb = HR_GPU_ENABLED ? 2 : 1;
  const hr_backend backends[2] = {HR_BACKEND_CPU, HR_BACKEND_GPU};
  const double tol = 8 * LT_EPS;

  /* ---- streaming operations */
  for (int op = 0; op < LT_NOPS_; op++) {
    for (int ib = 0; ib < nb; ib++) {
      hr_backend_set(backends[ib]);
      LT_(lt_set)(R, c0, nreal);
      LT_(lt_run)(op, R, A, B, coef, z);
      if (backends[ib] == HR_BACKEND_GPU)
        CHECK(R->current == HR_COPY_GPU && (op == 0 || op == 14 || (A->current & HR_COPY_GPU)),
              "GPU %s: output current %d, input %d", LT_(lt_op_names)[op], R->current,
              A->current);
      memcpy(res[ib], LT_(lt_host)(R), nreal * sizeof(LT_REAL));
    }
    long double worst = 0;
    double maxabs = 0, maxdiff = 0;
    int bitwise = 1;
    _MASTER_FOR(g, ix) {
      const size_t o = (size_t)(ix - g->master_shift);
      for (int q = 0; q < LT_NR_; q++) {
        long double mag;
        const long double ref = LT_(lt_ref)(op, c0, a, b, o, q, coef, z, &mag);
        const long double err = fabsl((long double)res[0][o * LT_NR_ + q] - ref);
        if (err > tol * mag && err - tol * mag > worst) worst = err - tol * mag;
        if (nb == 2) {
          const double cpu = res[0][o * LT_NR_ + q], gpu = res[1][o * LT_NR_ + q];
          if (fabs(cpu) > maxabs) maxabs = fabs(cpu);
          if (fabs(gpu - cpu) > maxdiff) maxdiff = fabs(gpu - cpu);
          bitwise &= memcmp(&res[0][o * LT_NR_ + q], &res[1][o * LT_NR_ + q], sizeof(LT_REAL)) == 0;
        }
      }
    }
    CHECK(worst == 0, "%s%s: differs from the long-double reference by %Lg beyond %g x |terms|",
          LT_(lt_op_names)[op], HR_STR(LT_TAG), worst, tol);
    if (nb == 2) {
      CHECK(maxdiff <= LT_GPU_TOL * maxabs, "%s%s: GPU differs from CPU by %g (max |x| %g)",
            LT_(lt_op_names)[op], HR_STR(LT_TAG), maxdiff, maxabs);
      if (!bitwise && hr_rank() == 0)
        printf("note: %s%s GPU and CPU results not bitwise equal (max diff %g)\n",
               LT_(lt_op_names)[op], HR_STR(LT_TAG), maxdiff);
    }
    /* Bits keyed by global coordinates: equal on every grid. */
    uint64_t sum = 0;
    _MASTER_FOR(g, ix) {
      const size_t o = (size_t)(ix - g->master_shift);
      uint64_t h = 0;
      for (int q = 0; q < LT_NR_; q++) {
        double v = res[0][o * LT_NR_ + q];
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        h = (h ^ bits) * UINT64_C(1099511628211);
      }
      sum += (h ^ (uint64_t)ft_global_code(ix)) >> 24;
    }
    long long ls = (long long)sum;
    global_sum_long(&ls, 1);
    snprintf(vname, sizeof vname, "exact.%s.%s%s", gname, LT_(lt_op_names)[op], HR_STR(LT_TAG));
    ft_value_line(vname, (double)ls);
  }
  snprintf(cname, sizeof cname, "streaming operations%s, %s, %s", HR_STR(LT_TAG), gname, lname);
  tc_case_end(cname);

  /* ---- reductions */
  int threads[3];
  const int nthr = lt_nthreads_list(threads);
  for (int op = 0; op < LT_NRED_; op++) {
    double ref[2], mag[2];
    LT_(lt_reduce_ref)(op, g, a, op == 0 ? a : b, ref, mag);
    for (int ib = 0; ib < nb; ib++) {
      hr_backend_set(backends[ib]);
      double first[2] = {0, 0};
      for (int t = 0; t < nthr; t++) {
        lt_set_threads(threads[t]);
        double out[2];
        LT_(lt_reduce)(op, A, B, out);
        const int nres = (op == 1 || op == 4) ? 2 : 1;
        for (int k = 0; k < nres; k++)
          CHECK(fabs(out[k] - ref[k]) <= 1e-13 * mag[k],
                "%s%s (%s, %d threads) part %d: %.17g, reference %.17g (|terms| %g)",
                LT_(lt_red_names)[op], HR_STR(LT_TAG), ib ? "GPU" : "CPU", threads[t], k,
                out[k], ref[k], mag[k]);
        if (t == 0) {
          first[0] = out[0], first[1] = out[1];
        } else {
          CHECK(memcmp(first, out, sizeof first) == 0,
                "%s%s (%s): %d threads give %.17g, 1 thread %.17g (not bitwise equal)",
                LT_(lt_red_names)[op], HR_STR(LT_TAG), ib ? "GPU" : "CPU", threads[t], out[0],
                first[0]);
        }
      }
      lt_set_threads(threads[nthr - 1]);
      if (ib == 0) {
        snprintf(vname, sizeof vname, "%s.%s%s", gname, LT_(lt_red_names)[op], HR_STR(LT_TAG));
        ft_value_line(vname, first[0]);
      }
    }
  }
  /* Reductions on the GPU and CPU paths agree. */
  if (nb == 2) {
    for (int op = 0; op < LT_NRED_; op++) {
      double out[2][2];
      for (int ib = 0; ib < 2; ib++) {
        hr_backend_set(backends[ib]);
        LT_(lt_reduce)(op, A, B, out[ib]);
      }
      double ref[2], mag[2];
      LT_(lt_reduce_ref)(op, g, a, op == 0 ? a : b, ref, mag);
      CHECK(fabs(out[1][0] - out[0][0]) <= LT_GPU_TOL * mag[0] &&
                fabs(out[1][1] - out[0][1]) <= LT_GPU_TOL * (mag[1] + mag[0]),
            "%s%s: GPU %.17g, CPU %.17g", LT_(lt_red_names)[op], HR_STR(LT_TAG), out[1][0],
            out[0][0]);
    }
  }
  snprintf(cname, sizeof cname, "reductions%s (threads 1..3 bitwise), %s, %s", HR_STR(LT_TAG),
           gname, lname);
  tc_case_end(cname);

  /* ---- fused CG update: x += a p, r -= a q, |r|^2 */
  {
    const double alpha = 0.37;
    double rr[2];
    for (int ib = 0; ib < nb; ib++) {
      hr_backend_set(backends[ib]);
      LT_(lt_set)(X, c0, nreal);
      LT_(lt_set)(Y, a, nreal);
      rr[ib] = LT_F_(cg_update)(X, Y, alpha, B, C);
      memcpy(res[ib], LT_(lt_host)(Y), nreal * sizeof(LT_REAL));
      const LT_REAL *x = LT_(lt_host)(X);
      const long double ca = (LT_REAL)alpha;
      long double worst = 0, sq = 0;
      _MASTER_FOR(g, ix) {
        const size_t o = (size_t)(ix - g->master_shift) * LT_NR_;
        for (int q = 0; q < LT_NR_; q++) {
          const long double xr = (long double)c0[o + q] + ca * b[o + q];
          const long double rref = (long double)a[o + q] - ca * c0[o + q];
          const long double ex = fabsl(x[o + q] - xr) - tol * (fabsl(c0[o + q]) + fabsl(ca * b[o + q]));
          const long double er = fabsl(res[ib][o + q] - rref) - tol * (fabsl(a[o + q]) + fabsl(ca * c0[o + q]));
          if (ex > worst) worst = ex;
          if (er > worst) worst = er;
          sq += (long double)res[ib][o + q] * res[ib][o + q];
        }
      }
      double sqd = (double)sq;
      global_sum(&sqd, 1);
      CHECK(worst <= 0, "cg_update%s (%s): x or r off the reference by %Lg", HR_STR(LT_TAG),
            ib ? "GPU" : "CPU", worst);
      CHECK(fabs(rr[ib] - sqd) <= 1e-13 * sqd, "cg_update%s (%s): |r|^2 %.17g, reference %.17g",
            HR_STR(LT_TAG), ib ? "GPU" : "CPU", rr[ib], sqd);
    }
    if (nb == 2)
      CHECK(fabs(rr[1] - rr[0]) <= LT_GPU_TOL * rr[0], "cg_update%s: GPU %.17g CPU %.17g",
            HR_STR(LT_TAG), rr[1], rr[0]);
    snprintf(vname, sizeof vname, "%s.cg_update%s", gname, HR_STR(LT_TAG));
    ft_value_line(vname, rr[0]);
  }
  snprintf(cname, sizeof cname, "fused CG update%s, %s, %s", HR_STR(LT_TAG), gname, lname);
  tc_case_end(cname);
  hr_backend_set(HR_BACKEND_DEFAULT);

  free(a);
  free(b);
  free(c0);
  free(res[0]);
  free(res[1]);
  HR_CAT(free_, LT_FIELD)(f);
}

#undef LT_F_
#undef LT_
#undef LT_NR_
#undef LT_NOPS_
#undef LT_NRED_
#undef LT_FIELD
#undef LT_REAL
#undef LT_TAG
#undef LT_EPS
#undef LT_GPU_TOL
