/* test_fft.c -- the FFT of fourier.h on the process grid given by the arguments, against
 * independent truths (exit 77 in builds without FFTW):
 *  - forward then backward is the identity to 1e-13 (several direction subsets, periodic and
 *    twisted momenta, plain arrays and gauge / spinor / scalar fields through pack / unpack);
 *  - a plane wave exp(i p0.x) transforms into V_S at the one momentum p0 and 0 elsewhere;
 *  - Parseval: sum |f~|^2 = V_S sum |f|^2;
 *  - the same on every grid: selected components equal the direct sum
 *    sum_x exp(-i p.x) f(x) of a field defined by global coordinates, to 1e-12;
 *  - free Wilson operator in momentum space: the FFT of D eta equals
 *    (m0 + sum (1 - cos p) + i sum gamma sin p) eta~ (Doc/dirac.md) and the momentum-space
 *    propagator D(p)^-1 eta~ transformed back solves D psi = eta, to 1e-12, with antiperiodic
 *    time and a twisted x direction. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../test_cases.h"
#include "boundary_conditions.h"
#include "dirac.h"
#include "fields.h"
#include "fourier.h"
#include "gamma.h"
#include "heatbath.h"
#include "reduction.h"

#define PI 3.14159265358979323846

/* A number in [-1, 1) from (global coordinates, component, seed). */
static double hash_value(const int g[4], int c, uint64_t seed) {
  uint64_t h = seed * 0x9e3779b97f4a7c15ULL;
  for (int mu = 0; mu < 4; mu++) h = (h ^ (uint64_t)g[mu]) * 0xbf58476d1ce4e5b9ULL + 0x94d049bb133111ebULL;
  h = (h ^ (uint64_t)c) * 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 31;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 29;
  return (double)(h >> 11) / (double)(1ULL << 52) - 1.0;
}

static void fill_random(hr_complex *f, int ncomp, uint64_t seed) {
  for (int i = 0; i < VOLUME; i++) {
    int x[4], g[4];
    fft_local_coordinates(x, i);
    for (int mu = 0; mu < 4; mu++) g[mu] = ZERO_COORD[mu] + x[mu];
    for (int c = 0; c < ncomp; c++)
      f[(size_t)i * ncomp + c] = hr_cmplx(hash_value(g, 2 * c, seed), hash_value(g, 2 * c + 1, seed));
  }
}

static double max_diff(const hr_complex *a, const hr_complex *b, long n) {
  double m = 0;
  for (long i = 0; i < n; i++) m = fmax(m, hr_cabs(a[i] - b[i]));
  global_max(&m, 1);
  return m;
}

static double sum_abs2(const hr_complex *a, long n) {
  double *v = reduction_scratch(n);
  for (long i = 0; i < n; i++) v[i] = hr_creal(a[i]) * hr_creal(a[i]) + hr_cimag(a[i]) * hr_cimag(a[i]);
  return global_sum_exact(v, n);
}

static long subvolume(unsigned mask) {
  long v = 1;
  for (int mu = 0; mu < 4; mu++)
    if (mask & (1u << mu)) v *= GLB_SIZE[mu];
  return v;
}

static void identity_and_parseval(void) {
  const int nc = 3;
  const long n = (long)VOLUME * nc;
  hr_complex *f = fft_alloc(nc), *h = fft_alloc(nc);
  const unsigned masks[] = {HR_FFT_ALL, HR_FFT_SPACE, 0x1u, 0x5u, 0xau};
  const double theta[4] = {PI, 0.3, 0, -1.1};
  for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++)
    for (int tw = 0; tw < 2; tw++) {
      fill_random(f, nc, 7 + m);
      memcpy(h, f, sizeof(hr_complex) * (size_t)n);
      const double n0 = sum_abs2(f, n);
      fft_plain_twisted(h, nc, masks[m], HR_FFT_FORWARD, tw ? theta : NULL);
      const double n1 = sum_abs2(h, n);
      CHECK(fabs(n1 - subvolume(masks[m]) * n0) <= 1e-13 * n1, "Parseval mask %x twist %d: %.16g vs %.16g",
            masks[m], tw, n1, subvolume(masks[m]) * n0);
      fft_plain_twisted(h, nc, masks[m], HR_FFT_BACKWARD, tw ? theta : NULL);
      const double d = max_diff(f, h, n);
      CHECK(d < 1e-13, "forward + backward, mask %x twist %d: max deviation %.3g", masks[m], tw, d);
    }
  fft_free(f);
  fft_free(h);
  tc_case_end("forward then backward is the identity (1e-13); Parseval's identity");
}

static void plane_wave(void) {
  const int n0[4] = {GLB_T - 1, 1, 0, GLB_Z / 2};
  const double theta[4] = {PI, 0, 0.7, 0};
  for (int tw = 0; tw < 2; tw++) {
    hr_complex *f = fft_alloc(2);
    for (int i = 0; i < VOLUME; i++) {
      int x[4];
      fft_local_coordinates(x, i);
      double ph = 0;
      for (int mu = 0; mu < 4; mu++)
        ph += (2 * PI * n0[mu] + (tw ? theta[mu] : 0)) * (ZERO_COORD[mu] + x[mu]) / GLB_SIZE[mu];
      f[2 * i] = hr_cexpi(ph);
      f[2 * i + 1] = hr_cmplx(0, 2) * hr_cexpi(ph);
    }
    fft_plain_twisted(f, 2, HR_FFT_ALL, HR_FFT_FORWARD, tw ? theta : NULL);
    double worst = 0;
    for (int i = 0; i < VOLUME; i++) {
      int x[4], at = 1;
      fft_local_coordinates(x, i);
      for (int mu = 0; mu < 4; mu++) at &= (ZERO_COORD[mu] + x[mu] == n0[mu]);
      const hr_complex e0 = at ? hr_cmplx((double)GLB_VOLUME, 0) : hr_cmplx(0, 0);
      worst = fmax(worst, hr_cabs(f[2 * i] - e0) / GLB_VOLUME);
      worst = fmax(worst, hr_cabs(f[2 * i + 1] - hr_cmplx(0, 2) * e0) / GLB_VOLUME);
    }
    global_max(&worst, 1);
    CHECK(worst < 1e-13, "plane wave (twist %d): deviation %.3g relative to V", tw, worst);
    fft_free(f);
  }
  tc_case_end("a plane wave transforms into one momentum");
}

static void direct_sums(void) {
  const int nc = 2;
  hr_complex *f = fft_alloc(nc), *h = fft_alloc(nc);
  fill_random(f, nc, 99);
  memcpy(h, f, sizeof(hr_complex) * (size_t)VOLUME * nc);
  const unsigned masks[2] = {HR_FFT_ALL, HR_FFT_SPACE};
  for (int m = 0; m < 2; m++) {
    memcpy(h, f, sizeof(hr_complex) * (size_t)VOLUME * nc);
    fft_plain(h, nc, masks[m], HR_FFT_FORWARD);
    const int probes[4][4] = {{0, 0, 0, 0}, {1, 2, 3, 1}, {GLB_T - 1, 1, 0, 3}, {3, 3, 2, 2}};
    for (int k = 0; k < 4; k++) {
      int q[4];
      for (int mu = 0; mu < 4; mu++) q[mu] = probes[k][mu] % GLB_SIZE[mu];
      for (int c = 0; c < nc; c++) {
        /* direct sum over x (for SPACE: over the spatial x at time q[0]) */
        double s[2] = {0, 0};
        for (int i = 0; i < VOLUME; i++) {
          int x[4], g[4];
          fft_local_coordinates(x, i);
          for (int mu = 0; mu < 4; mu++) g[mu] = ZERO_COORD[mu] + x[mu];
          if (!(masks[m] & 1u) && g[0] != q[0]) continue;
          double ph = 0;
          for (int mu = 0; mu < 4; mu++)
            if (masks[m] & (1u << mu)) ph -= 2 * PI * q[mu] * g[mu] / GLB_SIZE[mu];
          const hr_complex t = f[(size_t)i * nc + c] * hr_cexpi(ph);
          s[0] += hr_creal(t);
          s[1] += hr_cimag(t);
        }
        global_sum(s, 2);
        int local = 1, x[4];
        for (int mu = 0; mu < 4; mu++) {
          x[mu] = q[mu] - ZERO_COORD[mu];
          local &= x[mu] >= 0 && x[mu] < LOC_SIZE[mu];
        }
        if (local) {
          const hr_complex v = h[(size_t)fft_local_index(x) * nc + c];
          CHECK(hr_cabs(v - hr_cmplx(s[0], s[1])) < 1e-12 * (1 + hr_cabs(v)),
                "mask %x momentum (%d,%d,%d,%d) comp %d: FFT %.15g%+.15gi, direct %.15g%+.15gi",
                masks[m], q[0], q[1], q[2], q[3], c, hr_creal(v), hr_cimag(v), s[0], s[1]);
        }
      }
    }
  }
  fft_free(f);
  fft_free(h);
  tc_case_end("FFT equals the direct Fourier sum (the same on every grid)");
}

static void fields_roundtrip(void) {
  suNg_field *u = alloc_suNg_field(2, &glattice);
  gauge_field_hot(&u[0]);
  hr_complex *p = fft_alloc(fft_ncomp_suNg_field());
  fft_pack_suNg_field(p, &u[0]);
  fft_plain(p, fft_ncomp_suNg_field(), HR_FFT_ALL, HR_FFT_FORWARD);
  fft_plain(p, fft_ncomp_suNg_field(), HR_FFT_ALL, HR_FFT_BACKWARD);
  fft_unpack_suNg_field(&u[1], p);
  double d = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; mu++)
      for (int k = 0; k < NG * NG; k++)
        d = fmax(d, hr_cabs(_4FIELD_AT(&u[0], ix, mu)->c[k] - _4FIELD_AT(&u[1], ix, mu)->c[k]));
  }
  global_max(&d, 1);
  CHECK(d < 1e-13, "gauge field forward + backward: %.3g", d);
  fft_free(p);
  free_suNg_field(u);
  scalar_field *s = alloc_scalar_field(2, &glattice);
  double *w = host_write_scalar_field(&s[0]);
  (void)w;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    *_FIELD_AT(&s[0], ix) = hash_value(g, 0, 5);
  }
  p = fft_alloc(1);
  fft_pack_scalar_field(p, &s[0]);
  fft_plain(p, 1, HR_FFT_SPACE, HR_FFT_FORWARD);
  fft_plain(p, 1, HR_FFT_SPACE, HR_FFT_BACKWARD);
  fft_unpack_scalar_field(&s[1], p);
  d = 0;
  _MASTER_FOR(&glattice, ix) d = fmax(d, fabs(*_FIELD_AT(&s[0], ix) - *_FIELD_AT(&s[1], ix)));
  global_max(&d, 1);
  CHECK(d < 1e-13, "scalar field forward + backward: %.3g", d);
  fft_free(p);
  free_scalar_field(s);
  tc_case_end("link and scalar fields through pack / FFT / unpack");
}

/* out = D(p) in (sign +1) or D(p)^-1 in (sign -1) at every momentum, spinor plain arrays. */
static void free_wilson_momentum(hr_complex *out, const hr_complex *in, double m0,
                                 const double twist[4], const double shift[4], int inverse) {
  hr_complex gm[4][16];
  for (int mu = 0; mu < 4; mu++) hr_gamma_matrix(gm[mu], mu);
  for (int i = 0; i < VOLUME; i++) {
    int x[4];
    fft_local_coordinates(x, i);
    double a = m0, s[4], s2 = 0;
    for (int mu = 0; mu < 4; mu++) {
      const double p = (2 * PI * (ZERO_COORD[mu] + x[mu]) + twist[mu] + shift[mu]) / GLB_SIZE[mu];
      a += 1 - cos(p);
      s[mu] = sin(p);
      s2 += s[mu] * s[mu];
    }
    /* M = a + i sum gamma s; M^-1 = (a - i sum gamma s) / (a^2 + s^2) */
    hr_complex M[16];
    for (int r = 0; r < 16; r++) {
      hr_complex v = (r % 5 == 0) ? hr_cmplx(a, 0) : hr_cmplx(0, 0);
      for (int mu = 0; mu < 4; mu++)
        v += hr_cmplx(0, inverse ? -s[mu] : s[mu]) * gm[mu][r];
      M[r] = inverse ? v / (a * a + s2) : v;
    }
    for (int col = 0; col < NF; col++)
      for (int r = 0; r < 4; r++) {
        hr_complex v = hr_cmplx(0, 0);
        for (int c = 0; c < 4; c++) v += M[4 * r + c] * in[(size_t)i * 4 * NF + c * NF + col];
        out[(size_t)i * 4 * NF + r * NF + col] = v;
      }
  }
}

static void free_wilson(void) {
  const int nc = fft_ncomp_spinor_field();
  const double m0 = 0.13;
  dirac_bc bc;
  dirac_bc_default(&bc); /* antiperiodic t */
  bc.theta[1] = 0.4;     /* twisted x */
  double twist[4], shift[4];
  for (int mu = 0; mu < 4; mu++) {
    twist[mu] = bc.kind[mu] == HR_BC_ANTIPERIODIC ? PI : 0;
    shift[mu] = PI * bc.theta[mu];
  }
  suNg_field *u = alloc_suNg_field(1, &glattice);
  gauge_field_cold(u);
  dirac_op D = dirac_op_make(u, m0, 0.0, &bc);
  spinor_field *s = alloc_spinor_field(3, &glattice);
  hr_complex *eta = fft_alloc(nc), *chi = fft_alloc(nc), *ref = fft_alloc(nc);
  fill_random(eta, nc, 31);
  fft_unpack_spinor_field(&s[0], eta);
  Dphi(&s[1], &D, &s[0]);
  /* D in momentum space */
  fft_pack_spinor_field(chi, &s[1]);
  fft_plain_twisted(chi, nc, HR_FFT_ALL, HR_FFT_FORWARD, twist);
  fft_plain_twisted(eta, nc, HR_FFT_ALL, HR_FFT_FORWARD, twist);
  free_wilson_momentum(ref, eta, m0, twist, shift, 0);
  double d = max_diff(chi, ref, (long)VOLUME * nc), nrm = 0;
  for (long i = 0; i < (long)VOLUME * nc; i++) nrm = fmax(nrm, hr_cabs(ref[i]));
  global_max(&nrm, 1);
  CHECK(d < 1e-12 * nrm, "FFT of D eta vs D(p) eta~: %.3g (scale %.3g)", d, nrm);
  /* propagator: psi = F^-1 D(p)^-1 eta~ solves D psi = eta */
  free_wilson_momentum(ref, eta, m0, twist, shift, 1);
  fft_plain_twisted(ref, nc, HR_FFT_ALL, HR_FFT_BACKWARD, twist);
  fft_unpack_spinor_field(&s[2], ref);
  Dphi(&s[1], &D, &s[2]);
  fft_pack_spinor_field(chi, &s[1]);
  fft_pack_spinor_field(ref, &s[0]);
  d = max_diff(chi, ref, (long)VOLUME * nc);
  CHECK(d < 1e-12, "D applied to the momentum-space propagator: max |D psi - eta| = %.3g", d);
  fft_free(eta);
  fft_free(chi);
  fft_free(ref);
  free_spinor_field(s);
  free_suNg_field(u);
  tc_case_end("free Wilson operator and propagator in momentum space (Doc/dirac.md formula)");
}

int main(int argc, char **argv) {
  int np[4];
  tc_start_grid(&argc, &argv, np);
  if (!fft_available()) {
    if (hr_rank() == 0) printf("SKIP: test_fft: this build has no FFTW\n");
    tc_finish("test_fft");
    return 77;
  }
  geometry_params p;
  geometry_params_default(&p);
  const int glb[4] = {8, 4, 4, 4};
  for (int mu = 0; mu < 4; mu++) {
    p.glb[mu] = glb[mu];
    p.np[mu] = np[mu];
  }
  if (!tc_geometry_init(&p, "fft")) return tc_finish("test_fft");
  identity_and_parseval();
  plane_wave();
  direct_sums();
  fields_roundtrip();
  free_wilson();
  dirac_finalize();
  return tc_finish("test_fft");
}
