/* momentum_observables.c -- observables computed by FFT (gauge_fixing.h): the Polyakov-loop
 * correlator over all spatial separations (and its direct double sum, the reference of the
 * tests), and the Landau-gauge gluon propagator. The Polyakov lines of a spatial site are
 * assembled from the time segments of all processes through global_access.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "fourier.h"
#include "gauge_fixing.h"
#include "geometry.h"
#include "global_access.h"
#include "hr_error.h"
#include "reduction.h"
#include "suN.h"

#define MO_PI 3.14159265358979323846

/* tr P(x) / N of the Polyakov line through every master site (the same on every t):
 * trp[ix] for master sites ix. */
static void mo_polyakov_traces(hr_complex *trp, const suNg_field *u) {
  sync_host_suNg_field(u);
  const int ns = glattice.gsize_spinor;
  suNg *seg = malloc(sizeof(suNg) * (size_t)ns);
  if (seg == NULL) hr_error_code(HR_EXIT_SETUP, "polyakov: out of memory");
  /* the product of this process's time links at the sites with local t = 0 */
  _MASTER_FOR(&glattice, ix) {
    int x[4];
    local_coordinates(x, ix);
    if (x[0] != 0) continue;
    suNg p, t;
    suNg_unit(&p);
    int iy = ix;
    for (int k = 0; k < LOC_T; k++) {
      suNg_mul(&t, &p, _4FIELD_AT(u, iy, 0));
      p = t;
      iy = iup(iy, 0);
    }
    seg[ix] = p;
  }
  /* fetch the NP_T segments of every local spatial site */
  hr_ga_target tg = {seg, &glattice, HR_LAYOUT_SPINOR, sizeof(suNg), 1, 8, NULL, NULL, NULL};
  hr_global_access *a = global_access_new(&tg);
  const int v3 = LOC_X * LOC_Y * LOC_Z;
  suNg *all = malloc(sizeof(suNg) * (size_t)v3 * NP_T);
  for (int s = 0; s < v3; s++) {
    const int x = s / (LOC_Y * LOC_Z), y = (s / LOC_Z) % LOC_Y, z = s % LOC_Z;
    for (int k = 0; k < NP_T; k++) {
      const int g[4] = {k * LOC_T, ZERO_COORD[1] + x, ZERO_COORD[2] + y, ZERO_COORD[3] + z};
      global_fetch(&all[(size_t)s * NP_T + k], a, ga_site_index(g), 0);
    }
  }
  global_access_sync(a);
  global_access_free(a);
  hr_complex *tr3 = malloc(sizeof(hr_complex) * (size_t)v3);
  for (int s = 0; s < v3; s++) {
    suNg p = all[(size_t)s * NP_T], t;
    for (int k = 1; k < NP_T; k++) {
      suNg_mul(&t, &p, &all[(size_t)s * NP_T + k]);
      p = t;
    }
    tr3[s] = suNg_trace(&p) / (double)NG;
  }
  _MASTER_FOR(&glattice, ix) {
    int x[4];
    local_coordinates(x, ix);
    trp[ix] = tr3[(x[1] * LOC_Y + x[2]) * LOC_Z + x[3]];
  }
  free(tr3);
  free(all);
  free(seg);
}

/* Minimal-image r^2 of a separation n (componentwise, -L/2 < r <= L/2). */
static int mo_r2(const int n[4]) {
  int r2 = 0;
  for (int mu = 1; mu < 4; mu++) {
    int r = ((n[mu] % GLB_SIZE[mu]) + GLB_SIZE[mu]) % GLB_SIZE[mu];
    if (r > GLB_SIZE[mu] / 2) r -= GLB_SIZE[mu];
    r2 += r * r;
  }
  return r2;
}

static int mo_r2max(void) {
  int m = 0;
  for (int mu = 1; mu < 4; mu++) m += (GLB_SIZE[mu] / 2) * (GLB_SIZE[mu] / 2);
  return m;
}

/* Bins with entries: compact (sum / count) into ascending r2 lists. */
static void mo_compact(double **C, int **r2, int *nbins, const double *sum, const double *cnt,
                       int nmax) {
  int n = 0;
  for (int b = 0; b <= nmax; b++) n += cnt[b] > 0;
  *C = malloc(sizeof(double) * (size_t)(n + 1));
  *r2 = malloc(sizeof(int) * (size_t)(n + 1));
  n = 0;
  for (int b = 0; b <= nmax; b++)
    if (cnt[b] > 0) {
      (*C)[n] = sum[b] / cnt[b];
      (*r2)[n] = b;
      n++;
    }
  *nbins = n;
}

void polyakov_correlator(double **C, int **r2, int *nbins, const suNg_field *u) {
  if (!fft_available())
    hr_error_code(HR_EXIT_SETUP, "polyakov correlator: this build has no FFTW (install libfftw3-dev)");
  hr_complex *trp = malloc(sizeof(hr_complex) * (size_t)glattice.gsize_spinor);
  mo_polyakov_traces(trp, u);
  hr_complex *f = fft_alloc(1);
  _MASTER_FOR(&glattice, ix) {
    int x[4];
    local_coordinates(x, ix);
    f[fft_local_index(x)] = trp[ix];
  }
  fft_plain(f, 1, HR_FFT_SPACE, HR_FFT_FORWARD);
  for (int i = 0; i < VOLUME; i++) f[i] = hr_cmplx(hr_cabs2(f[i]), 0);
  /* backward: B(r) = sum_x conj(f(x)) f(x + r), the same for every t */
  fft_plain(f, 1, HR_FFT_SPACE, HR_FFT_BACKWARD);
  const int nmax = mo_r2max();
  const long v3 = (long)GLB_X * GLB_Y * GLB_Z;
  /* per bin: the values sorted by bin, then one exact global sum per bin */
  int *bin = malloc(sizeof(int) * (size_t)VOLUME);
  long *start = calloc((size_t)nmax + 2, sizeof(long));
  double *val = malloc(sizeof(double) * (size_t)VOLUME);
  for (int i = 0; i < VOLUME; i++) {
    int x[4];
    fft_local_coordinates(x, i);
    for (int mu = 0; mu < 4; mu++) x[mu] += ZERO_COORD[mu];
    bin[i] = mo_r2(x);
    start[bin[i] + 1]++;
  }
  for (int b = 0; b <= nmax; b++) start[b + 1] += start[b];
  long *pos = malloc(sizeof(long) * (size_t)(nmax + 1));
  memcpy(pos, start, sizeof(long) * (size_t)(nmax + 1));
  for (int i = 0; i < VOLUME; i++) val[pos[bin[i]]++] = hr_creal(f[i]) / v3;
  double *sum = calloc((size_t)nmax + 1, sizeof(double)), *cnt = calloc((size_t)nmax + 1, sizeof(double));
  double *ones = malloc(sizeof(double) * (size_t)(VOLUME + 1));
  for (int i = 0; i <= VOLUME; i++) ones[i] = 1.0;
  for (int b = 0; b <= nmax; b++) {
    sum[b] = global_sum_exact(val + start[b], start[b + 1] - start[b]);
    cnt[b] = global_sum_exact(ones, start[b + 1] - start[b]);
  }
  mo_compact(C, r2, nbins, sum, cnt, nmax);
  free(ones);
  free(sum);
  free(cnt);
  free(pos);
  free(val);
  free(start);
  free(bin);
  fft_free(f);
  free(trp);
}

void polyakov_correlator_direct(double **C, int **r2, int *nbins, const suNg_field *u) {
  hr_complex *trp = malloc(sizeof(hr_complex) * (size_t)glattice.gsize_spinor);
  mo_polyakov_traces(trp, u);
  /* every process fetches the traces of all spatial sites at t = 0 */
  hr_ga_target tg = {trp, &glattice, HR_LAYOUT_SPINOR, sizeof(hr_complex), 1, 8, NULL, NULL, NULL};
  hr_global_access *a = global_access_new(&tg);
  const long v3 = (long)GLB_X * GLB_Y * GLB_Z;
  hr_complex *all = malloc(sizeof(hr_complex) * (size_t)v3);
  long long *gs = malloc(sizeof(long long) * (size_t)v3);
  for (long s = 0; s < v3; s++) gs[s] = s; /* t = 0: global index = spatial index */
  global_fetch_many(all, a, v3, gs, NULL);
  global_access_sync(a);
  global_access_free(a);
  const int nmax = mo_r2max();
  double *sum = calloc((size_t)nmax + 1, sizeof(double)), *cnt = calloc((size_t)nmax + 1, sizeof(double));
  for (long s = 0; s < v3; s++)
    for (long q = 0; q < v3; q++) {
      const int d[4] = {0, (int)(q / (GLB_Y * GLB_Z) - s / (GLB_Y * GLB_Z)),
                        (int)((q / GLB_Z) % GLB_Y - (s / GLB_Z) % GLB_Y), (int)(q % GLB_Z - s % GLB_Z)};
      const int b = mo_r2(d);
      sum[b] += hr_creal(all[s] * hr_conj(all[q]));
      cnt[b] += 1;
    }
  mo_compact(C, r2, nbins, sum, cnt, nmax);
  free(sum);
  free(cnt);
  free(all);
  free(gs);
  free(trp);
}

/* Minimal-image |n_mu| of a momentum index. */
static int mo_absn(int n, int L) {
  n = ((n % L) + L) % L;
  return n > L / 2 ? L - n : n;
}

/* Order of momentum classes by p^2 (then by key, so the order is total). */
static const double *mo_sort_keys;
static int mo_cmp_keys(const void *a, const void *b) {
  const long ka = *(const long *)a, kb = *(const long *)b;
  if (mo_sort_keys[ka] != mo_sort_keys[kb]) return mo_sort_keys[ka] < mo_sort_keys[kb] ? -1 : 1;
  return ka < kb ? -1 : ka > kb;
}

void gluon_propagator(double **D, double **p2, int *nbins, const suNg_field *u, double cylinder) {
  if (!fft_available())
    hr_error_code(HR_EXIT_SETUP, "gluon propagator: this build has no FFTW (install libfftw3-dev)");
  sync_host_suNg_field(u);
  const int nc = 4 * NG * NG;
  hr_complex *f = fft_alloc(nc);
  _MASTER_FOR(&glattice, ix) {
    int x[4];
    local_coordinates(x, ix);
    hr_complex *a = f + (size_t)fft_local_index(x) * nc;
    for (int mu = 0; mu < 4; mu++) {
      const suNg *U = _4FIELD_AT(u, ix, mu);
      hr_complex *A = a + mu * NG * NG, tr = hr_cmplx(0, 0);
      /* A = (U - U^+)/(2i), traceless */
      for (int i = 0; i < NG; i++)
        for (int j = 0; j < NG; j++)
          A[i * NG + j] = (U->c[i * NG + j] - hr_conj(U->c[j * NG + i])) * hr_cmplx(0, -0.5);
      for (int i = 0; i < NG; i++) tr += A[i * NG + i];
      for (int i = 0; i < NG; i++) A[i * NG + i] -= tr / NG;
    }
  }
  fft_plain(f, nc, HR_FFT_ALL, HR_FFT_FORWARD);
  /* classes: sorted |n| within groups of equal extents, indexed in prod (L_mu/2 + 1) */
  long nkeys = 1;
  for (int mu = 0; mu < 4; mu++) nkeys *= GLB_SIZE[mu] / 2 + 1;
  double *sum = calloc((size_t)nkeys, sizeof(double)), *cnt = calloc((size_t)nkeys, sizeof(double));
  int lmin = GLB_SIZE[0];
  for (int mu = 1; mu < 4; mu++) lmin = GLB_SIZE[mu] < lmin ? GLB_SIZE[mu] : lmin;
  for (int i = 0; i < VOLUME; i++) {
    int x[4], n[4];
    fft_local_coordinates(x, i);
    double k[4], kd = 0;
    for (int mu = 0; mu < 4; mu++) {
      n[mu] = mo_absn(ZERO_COORD[mu] + x[mu], GLB_SIZE[mu]);
      k[mu] = 2 * MO_PI * n[mu] / GLB_SIZE[mu];
      kd += 0.5 * k[mu];
    }
    if (cylinder >= 0) {
      double dist2 = 0;
      for (int mu = 0; mu < 4; mu++) dist2 += (k[mu] - 0.5 * kd) * (k[mu] - 0.5 * kd);
      const double R = cylinder * 2 * MO_PI / lmin;
      if (dist2 > R * R * (1 + 1e-12)) continue;
    }
    double s = 0;
    for (int c = 0; c < nc; c++) s += hr_cabs2(f[(size_t)i * nc + c]);
    /* sort |n| within groups of equal extent (insertion sort) */
    for (int a = 1; a < 4; a++)
      for (int b = a; b > 0 && GLB_SIZE[b] == GLB_SIZE[b - 1] && n[b] < n[b - 1]; b--) {
        const int t = n[b];
        n[b] = n[b - 1];
        n[b - 1] = t;
      }
    long key = 0;
    for (int mu = 0; mu < 4; mu++) key = key * (GLB_SIZE[mu] / 2 + 1) + n[mu];
    sum[key] += s;
    cnt[key] += 1;
  }
  global_sum(sum, (int)nkeys);
  global_sum(cnt, (int)nkeys);
  /* merge classes of equal p^2 (to rounding), ascending */
  double *pk = malloc(sizeof(double) * (size_t)nkeys);
  long *idx = malloc(sizeof(long) * (size_t)nkeys);
  long m = 0;
  for (long key = 0; key < nkeys; key++) {
    if (cnt[key] == 0) continue;
    long r = key;
    double q2 = 0;
    for (int mu = 3; mu >= 0; mu--) {
      const int n = (int)(r % (GLB_SIZE[mu] / 2 + 1));
      r /= GLB_SIZE[mu] / 2 + 1;
      const double sn = 2 * sin(MO_PI * n / GLB_SIZE[mu]);
      q2 += sn * sn;
    }
    pk[key] = q2;
    idx[m++] = key;
  }
  mo_sort_keys = pk;
  qsort(idx, (size_t)m, sizeof(long), mo_cmp_keys);
  *D = malloc(sizeof(double) * (size_t)(m + 1));
  *p2 = malloc(sizeof(double) * (size_t)(m + 1));
  const double norm = 2.0 / ((double)(NG * NG - 1) * (double)GLB_VOLUME);
  int nb = 0;
  for (long a = 0; a < m;) {
    double s = 0, c = 0;
    const double q2 = pk[idx[a]];
    long b = a;
    for (; b < m && fabs(pk[idx[b]] - q2) <= 1e-12 * (1 + q2); b++) {
      s += sum[idx[b]];
      c += cnt[idx[b]];
    }
    (*D)[nb] = norm * s / c / (q2 > 1e-14 ? 3.0 : 4.0);
    (*p2)[nb] = q2;
    nb++;
    a = b;
  }
  *nbins = nb;
  free(pk);
  free(idx);
  free(sum);
  free(cnt);
  fft_free(f);
}
