/* fourier.h -- fast Fourier transforms of fields on the distributed lattice (any process grid,
 * any subset of the four directions) through FFTW 3. Conventions (Doc/momentum_space.md):
 *   forward   f~(n) = sum_x exp(-i p.x) f(x),            no normalisation
 *   backward  f(x)  = (1/V_S) sum_n exp(+i p.x) f~(n),   V_S = product of L_mu transformed
 * with p_mu = (2 pi n_mu + theta_mu) / L_mu over the transformed directions (theta_mu = 0:
 * periodic, theta_mu = pi: antiperiodic fields), x_mu and n_mu = 0 .. L_mu - 1.
 *
 * The transforms work on "plain" arrays: ncomp complex numbers per master site of this
 * process, site-major in local lexicographic order, plain[(((t LOC_X + x) LOC_Y + y) LOC_Z + z)
 * ncomp + c]; in momentum space the same index holds momentum n = ZERO_COORD + (t, x, y, z)
 * (momenta are distributed like coordinates). fft_pack_<kind> / fft_unpack_<kind> convert
 * fields of every kind (ncomp = fft_ncomp_<kind>(): complex units of all elements of a site;
 * real units become complex numbers with zero imaginary part and unpacking keeps the real
 * part). A colour-vector field is a plain array with ncomp = NF.
 *
 * Plans are cached per geometry (rebuilt after a new geometry_init). Without FFTW
 * (HR_WITH_FFTW = 0) fft_available() is 0 and every transform stops with an error.
 * Implemented in: LibHR/Fourier/fft.c. */
#ifndef FOURIER_H
#define FOURIER_H

#include "fields.h"
#include "hr_complex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Direction masks: bit mu set = transform direction mu. */
#define HR_FFT_ALL 0xfu
#define HR_FFT_SPACE 0xeu
enum { HR_FFT_FORWARD = -1, HR_FFT_BACKWARD = +1 };

/* 1 when this build has FFTW, else 0. */
int fft_available(void);
/* In place transform of a plain array (ncomp per site) over the directions in dirmask. */
void fft_plain(hr_complex *data, int ncomp, unsigned dirmask, int sign);
/* The same with momenta p_mu = (2 pi n_mu + theta[mu]) / L_mu (theta NULL = all zero). */
void fft_plain_twisted(hr_complex *data, int ncomp, unsigned dirmask, int sign,
                       const double theta[4]);
/* Allocate a plain array of ncomp complex numbers per local site (free with fft_free). */
hr_complex *fft_alloc(int ncomp);
/* Free what fft_alloc returned. */
void fft_free(hr_complex *p);
/* Local lexicographic index of local coordinates x[4] (the site index of plain arrays). */
int fft_local_index(const int x[4]);
/* Local coordinates x[4] of a local lexicographic index. */
void fft_local_coordinates(int x[4], int i);
/* Seconds spent in communication by the transforms so far (for benchmarks). */
double fft_comm_seconds(void);

/* Generic conversion field <-> plain: site values of `nlinks` elements of `units` units of
 * `real_bytes` (8 double, 4 float), complex (cplx = 1) or real (0). */
void fft_pack_raw(hr_complex *plain, const void *field, const geometry_descriptor *g,
                  int nlinks, int units, int real_bytes, int cplx);
/* Inverse of fft_pack_raw on the master sites (halo not refreshed). */
void fft_unpack_raw(void *field, const hr_complex *plain, const geometry_descriptor *g,
                    int nlinks, int units, int real_bytes, int cplx);

/* Per kind: fft_ncomp_<kind>(), fft_pack_<kind>(plain, f), fft_unpack_<kind>(f, plain)
 * (unpack writes the host copy and refreshes the halo). Fields must live on glattice. */
#define HR_FFT_KIND_(kind, site, nlinks_, layout_, unit, alg_)                                 \
  static inline int fft_ncomp_##kind(void) { return nlinks_ * hr_kind_##kind.units; }          \
  static inline void fft_pack_##kind(hr_complex *plain, const kind *f) {                       \
    fft_pack_raw(plain, sync_host_##kind(f), f->type, nlinks_, hr_kind_##kind.units,           \
                 (int)(hr_kind_##kind.unit_bytes / (size_t)hr_kind_##kind.unit_reals),         \
                 hr_kind_##kind.unit_reals == 2);                                              \
  }                                                                                            \
  static inline void fft_unpack_##kind(kind *f, const hr_complex *plain) {                     \
    fft_unpack_raw(host_write_##kind(f), plain, f->type, nlinks_, hr_kind_##kind.units,        \
                   (int)(hr_kind_##kind.unit_bytes / (size_t)hr_kind_##kind.unit_reals),       \
                   hr_kind_##kind.unit_reals == 2);                                            \
    sendrecv_##kind(f);                                                                        \
  }
HR_FIELD_KINDS(HR_FFT_KIND_)
#undef HR_FFT_KIND_

#ifdef __cplusplus
}
#endif

#endif
