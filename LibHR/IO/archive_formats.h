/* archive_formats.h -- internal to LibHR/IO: the entry points of the community formats
 * (ILDG/LIME in archive_ildg.c, NERSC in archive_nersc.c) that archive.c dispatches to, and
 * the small file helpers they share (exact pread/pwrite, error text, agreement of all
 * processes, big-endian loads and stores). */
#ifndef ARCHIVE_FORMATS_H
#define ARCHIVE_FORMATS_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "archive.h"
#include "communications.h"
#include "hr_core.h"

/* ILDG: whether the file starts with a LIME record header (magic number). */
int ildg_is_lime(const char *path);
/* ILDG: fill *info from the records of path (no check against the running lattice). */
int ildg_probe(const char *path, hr_archive_info *info, char *err, size_t errlen);
/* ILDG: read path into u (glattice) with the checksum check; halo exchanged. Collective. */
int ildg_read_checked(const char *path, suNg_field *u, char *err, size_t errlen);

/* NERSC: whether the file starts with "BEGIN_HEADER". */
int nersc_is_nersc(const char *path);
/* NERSC: fill *info from the header of path. */
int nersc_probe(const char *path, hr_archive_info *info, char *err, size_t errlen);
/* NERSC: every KEY = VALUE line of the header of path, in order (archive_header_fields). */
int nersc_header_fields(const char *path, hr_archive_field **fields, int *count, char *err,
                        size_t errlen);
/* NERSC: read path into u with the checksum, link-trace and plaquette checks. Collective. */
int nersc_read_checked(const char *path, suNg_field *u, char *err, size_t errlen);

/* Format an error message into err (nothing when err is NULL). */
static inline void af_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void af_set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (err == NULL || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* pread / pwrite of exactly n bytes: 0, or -1 with errno (EIO for a short file). */
static inline int af_pread_all(int fd, void *buf, size_t n, off_t off) {
  unsigned char *p = buf;
  while (n > 0) {
    ssize_t r = pread(fd, p, n, off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r == 0) errno = EIO;
      return -1;
    }
    p += r, n -= (size_t)r, off += r;
  }
  return 0;
}
static inline int af_pwrite_all(int fd, const void *buf, size_t n, off_t off) {
  const unsigned char *p = buf;
  while (n > 0) {
    ssize_t r = pwrite(fd, p, n, off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r == 0) errno = EIO;
      return -1;
    }
    p += r, n -= (size_t)r, off += r;
  }
  return 0;
}

/* Whether every process has ok != 0 (collective; also a barrier). */
static inline int af_all_ok(int ok) {
  int v = ok ? 1 : 0;
#if HR_WITH_MPI
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
#endif
  return v;
}

/* End of an atomic write: every process agrees on ok, process 0 renames the temporary file of
 * `of` to its final name (all ok) or removes it; returns whether the file is in place, keeping
 * the errno of a local failure in *saved_errno. Collective. */
static inline int af_commit_all(hr_ofile *of, int ok, int *saved_errno) {
  ok = af_all_ok(ok);
  if (hr_rank() == 0) {
    if (ok) {
      ok = hr_ofile_commit(of) == 0;
      if (!ok) *saved_errno = errno;
    } else {
      hr_ofile_abort(of);
    }
  }
  return af_all_ok(ok);
}

/* 0 when the lattice of a file header (size[4]) is the run's; otherwise -1 with the message
 * in err. */
static inline int af_check_lattice(const char *path, const int size[4], char *err,
                                   size_t errlen) {
  for (int mu = 0; mu < 4; ++mu)
    if (size[mu] != GLB_SIZE[mu]) {
      af_set_err(err, errlen,
                 "%s: wrong lattice size: the file holds %dx%dx%dx%d, the run uses "
                 "%dx%dx%dx%d (T x X x Y x Z; set GLB_T..GLB_Z to match)",
                 path, size[0], size[1], size[2], size[3], GLB_T, GLB_X, GLB_Y, GLB_Z);
      return -1;
    }
  return 0;
}

/* Big-endian unsigned loads and stores of 2, 4 and 8 bytes. */
static inline uint64_t af_load_be(const unsigned char *p, int nbytes) {
  uint64_t v = 0;
  for (int i = 0; i < nbytes; ++i) v = (v << 8) | p[i];
  return v;
}
static inline void af_store_be(unsigned char *p, uint64_t v, int nbytes) {
  for (int i = nbytes - 1; i >= 0; --i, v >>= 8) p[i] = (unsigned char)(v & 0xff);
}

/* IEEE doubles / floats to and from their bit patterns. */
static inline uint64_t af_double_bits(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
static inline double af_bits_double(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}
static inline uint32_t af_float_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}
static inline float af_bits_float(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

/* Name of the temporary file behind an hr_ofile (the link /proc/self/fd/N, Linux). */
static inline int af_ofile_temp_name(hr_ofile *f, char *buf, size_t len) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fileno(hr_ofile_stream(f)));
  ssize_t n = readlink(link, buf, len - 1);
  if (n <= 0 || (size_t)n >= len - 1) return -1;
  buf[n] = '\0';
  return 0;
}

#endif
