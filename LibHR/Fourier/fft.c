/* fft.c -- FFT of plain complex arrays on the distributed lattice (fourier.h). One direction
 * at a time: the lines along mu are dealt out over the NP_mu processes of the row of the
 * process grid along mu (all-to-all inside the row), each process runs batched 1-d FFTW plans
 * on its complete lines, and the lines go back. Any grid works, no slab restriction. */
#include "fourier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "communications.h"
#include "geometry.h"
#include "hr_core.h"
#include "host_memory.h"
#include "hr_error.h"

#if HR_WITH_FFTW
#include <fftw3.h>
#endif

static double fft_comm_time = 0;

double fft_comm_seconds(void) { return fft_comm_time; }

int fft_local_index(const int x[4]) {
  return ((x[0] * LOC_X + x[1]) * LOC_Y + x[2]) * LOC_Z + x[3];
}

void fft_local_coordinates(int x[4], int i) {
  for (int mu = 3; mu >= 0; mu--) {
    x[mu] = i % LOC_SIZE[mu];
    i /= LOC_SIZE[mu];
  }
}

hr_complex *fft_alloc(int ncomp) {
  const size_t n = (size_t)VOLUME * (size_t)ncomp * sizeof(hr_complex);
  void *p = hr_host_alloc(n, "an FFT field");
  memset(p, 0, n);
  return p;
}

void fft_free(hr_complex *p) { hr_host_free(p); }

/* Element (link l, unit u) of site ix as a complex number. */
void fft_pack_raw(hr_complex *plain, const void *field, const geometry_descriptor *g,
                  int nlinks, int units, int real_bytes, int cplx) {
  hr_assert(g->parity == HR_PARITY_BOTH, "fft: fields must live on glattice");
  const int nc = nlinks * units, nr = nc * (cplx ? 2 : 1);
  for (int i = 0; i < VOLUME; i++) {
    int x[4];
    fft_local_coordinates(x, i);
    const size_t e = (size_t)(ipt(x[0], x[1], x[2], x[3]) - g->master_shift) * (size_t)nr;
    for (int c = 0; c < nc; c++) {
      double re, im = 0;
      if (real_bytes == 8) {
        const double *d = (const double *)field + e;
        re = cplx ? d[2 * c] : d[c];
        if (cplx) im = d[2 * c + 1];
      } else {
        const float *d = (const float *)field + e;
        re = cplx ? d[2 * c] : d[c];
        if (cplx) im = d[2 * c + 1];
      }
      plain[(size_t)i * nc + c] = hr_cmplx(re, im);
    }
  }
}

void fft_unpack_raw(void *field, const hr_complex *plain, const geometry_descriptor *g,
                    int nlinks, int units, int real_bytes, int cplx) {
  hr_assert(g->parity == HR_PARITY_BOTH, "fft: fields must live on glattice");
  const int nc = nlinks * units, nr = nc * (cplx ? 2 : 1);
  for (int i = 0; i < VOLUME; i++) {
    int x[4];
    fft_local_coordinates(x, i);
    const size_t e = (size_t)(ipt(x[0], x[1], x[2], x[3]) - g->master_shift) * (size_t)nr;
    for (int c = 0; c < nc; c++) {
      const hr_complex v = plain[(size_t)i * nc + c];
      if (real_bytes == 8) {
        double *d = (double *)field + e;
        if (cplx) {
          d[2 * c] = hr_creal(v);
          d[2 * c + 1] = hr_cimag(v);
        } else
          d[c] = hr_creal(v);
      } else {
        float *d = (float *)field + e;
        if (cplx) {
          d[2 * c] = (float)hr_creal(v);
          d[2 * c + 1] = (float)hr_cimag(v);
        } else
          d[c] = (float)hr_creal(v);
      }
    }
  }
}

#if HR_WITH_FFTW

/* Cached state of the current geometry: row communicators, line bases, plans, buffers. */
#define FFT_MAX_PLANS 32
typedef struct {
  int n, howmany, sign;
  fftw_plan plan;
} fft_plan_entry;

static struct {
  int generation; /* geometry_generation() the cache belongs to; 0 = empty */
  int *base[4];   /* local index of the line start (x_mu = 0) of every perpendicular site */
#if HR_WITH_MPI
  MPI_Comm row[4];
#endif
  fft_plan_entry plans[FFT_MAX_PLANS];
  int nplans;
  fftw_complex *work;
  hr_complex *sbuf, *rbuf;
  size_t cap; /* complex numbers in each buffer */
} fc;

static void fft_cache_clear(void) {
  for (int i = 0; i < fc.nplans; i++) fftw_destroy_plan(fc.plans[i].plan);
  fc.nplans = 0;
  for (int mu = 0; mu < 4; mu++) {
    free(fc.base[mu]);
    fc.base[mu] = NULL;
#if HR_WITH_MPI
    if (fc.row[mu] != MPI_COMM_NULL && fc.generation != 0) MPI_Comm_free(&fc.row[mu]);
    fc.row[mu] = MPI_COMM_NULL;
#endif
  }
  fftw_free(fc.work);
  free(fc.sbuf);
  free(fc.rbuf);
  fc.work = NULL;
  fc.sbuf = fc.rbuf = NULL;
  fc.cap = 0;
  fc.generation = 0;
}

static void fft_cache_init(void) {
  if (fc.generation == geometry_generation() && fc.generation != 0) return;
  fft_cache_clear();
  for (int mu = 0; mu < 4; mu++) {
    const int vp = VOLUME / LOC_SIZE[mu];
    fc.base[mu] = malloc(sizeof(int) * (size_t)vp);
    if (fc.base[mu] == NULL) hr_error_code(HR_EXIT_SETUP, "fft: out of memory");
    int p = 0;
    for (int i = 0; i < VOLUME; i++) {
      int x[4];
      fft_local_coordinates(x, i);
      if (x[mu] == 0) fc.base[mu][p++] = i;
    }
#if HR_WITH_MPI
    int color = 0;
    for (int nu = 0; nu < 4; nu++) color = color * NP_SIZE[nu] + (nu == mu ? 0 : COORD[nu]);
    MPI_Comm_split(hr_cart_comm, color, COORD[mu], &fc.row[mu]);
#endif
  }
  fc.generation = geometry_generation();
}

static void fft_buffers(size_t n) {
  if (n <= fc.cap) return;
  fftw_free(fc.work);
  free(fc.sbuf);
  free(fc.rbuf);
  fc.work = fftw_malloc(sizeof(fftw_complex) * n);
  fc.sbuf = malloc(sizeof(hr_complex) * n);
  fc.rbuf = malloc(sizeof(hr_complex) * n);
  if (fc.work == NULL || fc.sbuf == NULL || fc.rbuf == NULL)
    hr_error_code(HR_EXIT_SETUP, "fft: out of memory");
  fc.cap = n;
  /* plans were made for the old buffer: FFTW_ESTIMATE plans can run on any aligned array of
   * the same shape (fftw_execute_dft), so they stay valid */
}

static fftw_plan fft_get_plan(int n, int howmany, int sign) {
  for (int i = 0; i < fc.nplans; i++)
    if (fc.plans[i].n == n && fc.plans[i].howmany == howmany && fc.plans[i].sign == sign)
      return fc.plans[i].plan;
  if (fc.nplans == FFT_MAX_PLANS) {
    fftw_destroy_plan(fc.plans[0].plan);
    memmove(fc.plans, fc.plans + 1, sizeof(fft_plan_entry) * (FFT_MAX_PLANS - 1));
    fc.nplans--;
  }
  fftw_plan p = fftw_plan_many_dft(1, &n, howmany, fc.work, NULL, 1, n, fc.work, NULL, 1, n,
                                   sign == HR_FFT_FORWARD ? FFTW_FORWARD : FFTW_BACKWARD,
                                   FFTW_ESTIMATE);
  if (p == NULL) hr_error("fft: FFTW could not plan %d transforms of length %d", howmany, n);
  fc.plans[fc.nplans].n = n;
  fc.plans[fc.nplans].howmany = howmany;
  fc.plans[fc.nplans].sign = sign;
  fc.plans[fc.nplans].plan = p;
  fc.nplans++;
  return p;
}

/* Transform along direction mu. */
static void fft_direction(hr_complex *data, int ncomp, int mu, int sign, double theta) {
  const int L = LOC_SIZE[mu], N = GLB_SIZE[mu], P = NP_SIZE[mu], me = COORD[mu];
  const int vp = VOLUME / L;
  int stride = 1;
  for (int nu = mu + 1; nu < 4; nu++) stride *= LOC_SIZE[nu];
  const long M = (long)vp * ncomp; /* lines */
  const long l0 = M * me / P, l1 = M * (me + 1) / P, nl = l1 - l0;
  const int *base = fc.base[mu];
  fft_buffers((size_t)VOLUME * (size_t)ncomp + 1);
  hr_complex *work = (hr_complex *)fc.work;
#define FFT_ELEM(l, k) data[((size_t)base[(l) / ncomp] + (size_t)(k) * stride) * ncomp + (l) % ncomp]
  if (P == 1) {
    for (long l = 0; l < M; l++)
      for (int k = 0; k < L; k++) work[l * N + k] = FFT_ELEM(l, k);
  } else {
#if HR_WITH_MPI
    int *cnt = malloc(sizeof(int) * 4 * (size_t)P);
    int *sc = cnt, *sd = cnt + P, *rc = cnt + 2 * P, *rd = cnt + 3 * P;
    long o = 0;
    for (int r = 0; r < P; r++) {
      const long a = M * r / P, b = M * (r + 1) / P;
      sc[r] = (int)((b - a) * L * (long)sizeof(hr_complex));
      sd[r] = (int)(o * (long)sizeof(hr_complex));
      for (long l = a; l < b; l++)
        for (int k = 0; k < L; k++) fc.sbuf[o++] = FFT_ELEM(l, k);
      rc[r] = (int)(nl * L * (long)sizeof(hr_complex));
      rd[r] = (int)((long)r * nl * L * (long)sizeof(hr_complex));
    }
    const double t0 = hr_wtime();
    MPI_Alltoallv(fc.sbuf, sc, sd, MPI_BYTE, fc.rbuf, rc, rd, MPI_BYTE, fc.row[mu]);
    fft_comm_time += hr_wtime() - t0;
    for (int q = 0; q < P; q++)
      for (long l = 0; l < nl; l++)
        for (int k = 0; k < L; k++)
          work[l * N + q * L + k] = fc.rbuf[((long)q * nl + l) * L + k];
    free(cnt);
#else
    hr_error("fft: a split direction without MPI");
#endif
  }
  const long lines = P == 1 ? M : nl;
  if (theta != 0 && sign == HR_FFT_FORWARD)
    for (long l = 0; l < lines; l++)
      for (int j = 0; j < N; j++) work[l * N + j] *= hr_cexpi(-theta * j / N);
  if (lines > 0) fftw_execute_dft(fft_get_plan(N, (int)lines, sign), fc.work, fc.work);
  if (sign == HR_FFT_BACKWARD)
    for (long l = 0; l < lines; l++)
      for (int j = 0; j < N; j++)
        work[l * N + j] *= (theta != 0 ? hr_cexpi(theta * j / N) : 1.0) / N;
  if (P == 1) {
    for (long l = 0; l < M; l++)
      for (int k = 0; k < L; k++) FFT_ELEM(l, k) = work[l * N + k];
  } else {
#if HR_WITH_MPI
    int *cnt = malloc(sizeof(int) * 4 * (size_t)P);
    int *sc = cnt, *sd = cnt + P, *rc = cnt + 2 * P, *rd = cnt + 3 * P;
    for (int q = 0; q < P; q++)
      for (long l = 0; l < nl; l++)
        for (int k = 0; k < L; k++) fc.rbuf[((long)q * nl + l) * L + k] = work[l * N + q * L + k];
    long o = 0;
    for (int r = 0; r < P; r++) {
      const long a = M * r / P, b = M * (r + 1) / P;
      rc[r] = (int)((b - a) * L * (long)sizeof(hr_complex));
      rd[r] = (int)(o * (long)sizeof(hr_complex));
      o += (b - a) * L;
      sc[r] = (int)(nl * L * (long)sizeof(hr_complex));
      sd[r] = (int)((long)r * nl * L * (long)sizeof(hr_complex));
    }
    const double t0 = hr_wtime();
    MPI_Alltoallv(fc.rbuf, sc, sd, MPI_BYTE, fc.sbuf, rc, rd, MPI_BYTE, fc.row[mu]);
    fft_comm_time += hr_wtime() - t0;
    o = 0;
    for (int r = 0; r < P; r++) {
      const long a = M * r / P, b = M * (r + 1) / P;
      for (long l = a; l < b; l++)
        for (int k = 0; k < L; k++) FFT_ELEM(l, k) = fc.sbuf[o++];
    }
    free(cnt);
#endif
  }
#undef FFT_ELEM
}

int fft_available(void) { return 1; }

void fft_plain_twisted(hr_complex *data, int ncomp, unsigned dirmask, int sign,
                       const double theta[4]) {
  hr_assert(sign == HR_FFT_FORWARD || sign == HR_FFT_BACKWARD, "fft: bad sign %d", sign);
  hr_assert(ncomp >= 1, "fft: ncomp %d", ncomp);
  fft_cache_init();
  for (int mu = 0; mu < 4; mu++)
    if (dirmask & (1u << mu)) fft_direction(data, ncomp, mu, sign, theta ? theta[mu] : 0.0);
}

#else /* no FFTW */

int fft_available(void) { return 0; }

void fft_plain_twisted(hr_complex *data, int ncomp, unsigned dirmask, int sign,
                       const double theta[4]) {
  (void)data;
  (void)ncomp;
  (void)dirmask;
  (void)sign;
  (void)theta;
  hr_error_code(HR_EXIT_SETUP, "this build of LibHR has no FFTW: reconfigure with FFTW 3 "
                               "installed (Debian: libfftw3-dev, bash Make/deps.sh)");
}

#endif

void fft_plain(hr_complex *data, int ncomp, unsigned dirmask, int sign) {
  fft_plain_twisted(data, ncomp, dirmask, sign, NULL);
}
