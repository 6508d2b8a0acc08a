/* field_layout.c -- conversion of one field between the host layout (array of structures,
 * site after site) and the device layout (structure of arrays per piece, gpu.h), done on
 * the host, and the grow-only host staging buffers of the CUDA copies. */
#include <stdlib.h>
#include <string.h>

#include "hr_error.h"
#include "memory_internal.h"

/* 16-byte unit (one double-precision complex number), copied as two doubles. */
typedef struct {
  double re, im;
} unit16;

/* Transposition of one piece for a unit type U: `nu` units per site, `len` sites starting at
 * host site offset `off` (in sites). to_dev: host -> device layout, else the reverse. */
#define HR_TRANSPOSE_(U)                                                                       \
  static void transpose_##U(const geometry_descriptor *g, int npieces, int nu, const void *src, \
                            void *dst, int to_dev) {                                           \
    for (int p = 0; p < npieces; p++) {                                                        \
      const int len = g->master_end[p] - g->master_start[p] + 1;                               \
      if (len <= 0) continue;                                                                  \
      const size_t off = (size_t)(g->master_start[p] - g->master_shift) * (size_t)nu;          \
      if (to_dev) {                                                                            \
        const U *h = (const U *)src + off;                                                     \
        U *d = (U *)dst + off;                                                                 \
        HR_OMP_PRAGMA(omp parallel for schedule(static) if (len > 4096))                       \
        for (int s = 0; s < len; s++)                                                          \
          for (int c = 0; c < nu; c++) d[(size_t)c * len + s] = h[(size_t)s * nu + c];        \
      } else {                                                                                 \
        const U *d = (const U *)src + off;                                                     \
        U *h = (U *)dst + off;                                                                 \
        HR_OMP_PRAGMA(omp parallel for schedule(static) if (len > 4096))                       \
        for (int s = 0; s < len; s++)                                                          \
          for (int c = 0; c < nu; c++) h[(size_t)s * nu + c] = d[(size_t)c * len + s];        \
      }                                                                                        \
    }                                                                                          \
  }
HR_TRANSPOSE_(float)
HR_TRANSPOSE_(double)
HR_TRANSPOSE_(unit16)
#undef HR_TRANSPOSE_

static void transpose(const struct hr_field_memory *m, const void *src, void *dst, int to_dev) {
  const hr_field_kind_info *k = m->kind;
  const int npieces = hr_kind_npieces(k, m->g);
  const int nu = hr_kind_site_units(k);
  switch (k->unit_bytes) {
  case sizeof(float): transpose_float(m->g, npieces, nu, src, dst, to_dev); break;
  case sizeof(double): transpose_double(m->g, npieces, nu, src, dst, to_dev); break;
  case sizeof(unit16): transpose_unit16(m->g, npieces, nu, src, dst, to_dev); break;
  default: hr_error("%s: unit of %zu bytes not supported", k->name, k->unit_bytes);
  }
}

void hr_field_host_to_device_layout(const struct hr_field_memory *m, const void *host,
                                    void *dev) {
  transpose(m, host, dev, 1);
}

void hr_field_device_to_host_layout(const struct hr_field_memory *m, const void *dev,
                                    void *host) {
  transpose(m, dev, host, 0);
}

static void *staging[2];
static size_t staging_bytes[2];

void *hr_field_staging(int which, size_t bytes) {
  hr_assert(which == 0 || which == 1, "staging buffer %d does not exist", which);
  if (bytes > staging_bytes[which]) {
    /* page-locked in CUDA builds, so that the copies run at full speed (aligned to 64) */
    hr_gpu_host_free(staging[which]);
    staging[which] = hr_gpu_host_alloc(bytes);
    memset(staging[which], 0, bytes);
    staging_bytes[which] = bytes;
  }
  return staging[which];
}
