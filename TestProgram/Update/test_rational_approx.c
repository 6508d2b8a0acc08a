/* test_rational_approx.c -- tests of the minimax rational approximations (rational_approx.h):
 * for x^(-1/2), x^(-1/4), x^(1/4), x^(-3/4) on [1e-4, 10] with the degree chosen for a relative
 * error of 1e-8: the error at 10^4 points (double precision against pow) is within the
 * request and equals the reported error, the error equioscillates (2n+2 alternating extrema of
 * equal size, the minimax characterisation of type (n, n)), degree n - 1 misses the request
 * (the degree is minimal), the poles are real and negative; fixed degree 12 (error as
 * Zolotarev's asymptotic formula within a factor 4); x^-1 exact; the
 * cache file returns the same coefficients bitwise without recomputing. Without MPFR: exit 77. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../test_cases.h"
#include "rational_approx.h"

#define CACHE "test_rational_approx.cache"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Number of sign-alternating segments of the error over n log-spaced points whose extremum
 * is within 2% of emax; *mx gets the largest |error|. */
static int ripple_count(const rational_approx *r, int n, double emax, double *mx) {
  int count = 0, sign = 0;
  double seg = 0;
  *mx = 0;
  const double l = log(r->lmax / r->lmin);
  for (int i = 0; i < n; i++) {
    const double x = i == n - 1 ? r->lmax : r->lmin * exp(l * i / (n - 1));
    const double e = rational_approx_rel_error(r, x);
    if (fabs(e) > *mx) *mx = fabs(e);
    const int s = e < 0 ? -1 : 1;
    if (s != sign) {
      if (sign != 0 && seg >= 0.98 * emax) count++;
      sign = s;
      seg = 0;
    }
    if (fabs(e) > seg) seg = fabs(e);
  }
  if (seg >= 0.98 * emax) count++;
  return count;
}

static void check_approx(const rational_approx *r, const char *name, double request) {
  double mx;
  const int nrip = ripple_count(r, 10000, r->error, &mx);
  int poles_ok = 1;
  for (int k = 0; k < r->degree; k++)
    if (!(r->b[k] >= 0) || !isfinite(r->a[k])) poles_ok = 0;
  CHECK(poles_ok, "%s: poles not real and <= 0", name);
  if (request > 0)
    CHECK(mx <= request, "%s: max error at 10^4 points %.3e > requested %.1e", name, mx, request);
  CHECK(mx <= r->error * (1 + 1e-6) && mx >= 0.99 * r->error,
        "%s: max error at 10^4 points %.6e, reported %.6e", name, mx, r->error);
  CHECK(nrip >= 2 * r->degree + 2, "%s: %d alternating extrema of equal size, expected %d",
        name, nrip, 2 * r->degree + 2);
  if (hr_rank() == 0)
    printf("  %s: degree %d, error %.3e (10^4 points: %.3e), %d alternating extrema (2n+2 = %d)\n",
         name, r->degree, r->error, mx, nrip, 2 * r->degree + 2);
}

int main(int argc, char **argv) {
  tc_start(&argc, &argv);
  geometry_params gp;
  geometry_params_default(&gp);
  for (int mu = 0; mu < 4; mu++) gp.glb[mu] = 4;
  if (!tc_geometry_init(&gp, "test_rational_approx")) return 77;
  if (!rational_approx_have_remez()) {
    if (hr_rank() == 0) printf("SKIP: test_rational_approx: built without MPFR\n");
    tc_finish("test_rational_approx");
    return 77;
  }
  remove(CACHE);
  const int pq[4][2] = {{1, 2}, {1, 4}, {-1, 4}, {3, 4}};
  const double lmin = 1e-4, lmax = 10, prec = 1e-8;
  for (int i = 0; i < 4; i++) {
    char name[64];
    snprintf(name, sizeof name, "x^(%d/%d) precision %g", -pq[i][0], pq[i][1], prec);
    rational_approx r, r1;
    const double t0 = now();
    rational_approx_get(&r, pq[i][0], pq[i][1], lmin, lmax, 0, prec, CACHE);
    if (hr_rank() == 0) printf("  (computed in %.2f s)\n", now() - t0);
    check_approx(&r, name, prec);
    /* minimal degree: degree - 1 misses the request */
    rational_approx_get(&r1, pq[i][0], pq[i][1], lmin, lmax, r.degree - 1, 0, CACHE);
    CHECK(r1.error > prec, "%s: degree %d already reaches %.3e", name, r1.degree, r1.error);
    CHECK(r1.error > r.error, "%s: the error does not fall with the degree", name);
  }
  tc_case_end("minimax approximations meet the precision with equal ripple, minimal degree");

  rational_approx r;
  rational_approx_get(&r, 1, 2, 1e-5, 1, 12, 0, CACHE);
  check_approx(&r, "x^(-1/2) on [1e-5, 1], degree 12", 0);
  /* Zolotarev: the minimax relative error of x^(-1/2) of degree n on a range of condition
   * number k falls as 4 exp(-n pi^2 / log(4 sqrt(k))) */
  const double zol = 4 * exp(-12 * 9.869604401089358 / log(4 * sqrt(1e5)));
  CHECK(r.error > 0.25 * zol && r.error < 4 * zol, "degree 12: error %.3e, Zolotarev %.3e",
        r.error, zol);
  if (hr_rank() == 0) printf("  degree 12: error %.3e, Zolotarev estimate %.3e\n", r.error, zol);
  rational_approx_get(&r, 1, 1, 1e-5, 1, 5, 0, CACHE);
  CHECK(r.degree == 1 && r.error == 0 && rational_approx_eval(&r, 0.37) == 1 / 0.37,
        "x^-1 is not exact: degree %d error %g", r.degree, r.error);
  tc_case_end("fixed degree; x^-1 exact");

  /* cache: same bits, no recomputation (the file is not rewritten) */
  struct stat s0, s1;
  stat(CACHE, &s0);
  rational_approx a, b;
  rational_approx_get(&a, 3, 4, lmin, lmax, 0, prec, CACHE);
  const double t0 = now();
  rational_approx_get(&b, 3, 4, lmin, lmax, 0, prec, CACHE);
  const double dt = now() - t0;
  stat(CACHE, &s1);
  CHECK(memcmp(&a, &b, sizeof a) == 0, "cache: a second lookup differs");
  CHECK(s0.st_size == s1.st_size && s0.st_mtime == s1.st_mtime, "cache: the file was rewritten");
  rational_approx c;
  char err[256];
  CHECK(rational_approx_remez(&c, 3, 4, lmin, lmax, a.degree, err, sizeof err) == 0, "%s", err);
  CHECK(memcmp(&a.a, &c.a, sizeof a.a) == 0 && a.a0 == c.a0 && memcmp(&a.b, &c.b, sizeof a.b) == 0,
        "cache: the stored coefficients differ from a recomputation");
  if (hr_rank() == 0) printf("  cache lookup %.4f s\n", dt);
  tc_case_end("cache file: the same coefficients bit for bit, not recomputed");
  remove(CACHE);
  return tc_finish("test_rational_approx");
}
