/* archive.c -- reading and writing gauge configurations in HiRep's and openQCD's formats,
 * with the checks of archive.h. Every process reads and writes the bytes of its own sites
 * with pread / pwrite at explicit offsets. Writing: process 0 creates the temporary file
 * (hr_ofile) and writes the header, the name of the temporary file is broadcast, every
 * process writes its sites and syncs, the processes agree on success (a global reduction,
 * which is also the barrier), then process 0 renames the file (or removes it on failure).
 * Doc/archives_and_observables.md describes formats and protocol. */
#include "archive.h"
#include "archive_formats.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "communications.h"
#include "halo_exchange.h"
#include "geometry.h"
#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"
#include "observables.h"
#include "suN.h"

/* Sizes of the formats. */
#define HIREP_HEADER_BYTES 28
#define OPENQCD_HEADER_BYTES 24
#define OPENQCD_NG 3
/* Doubles in one link of SU(n), and in one openQCD record (8 SU(3) links). */
#define LINK_DOUBLES(n) (2 * (n) * (n))
#define OPENQCD_RECORD_DOUBLES (8 * LINK_DOUBLES(OPENQCD_NG))
/* Largest lattice extent a header may declare (anything larger is not a header). */
#define MAX_EXTENT (1 << 20)
/* Relative accuracy to which the recomputed plaquette must match the header. */
#define PLAQUETTE_TOLERANCE 1e-12

/* ------------------------------------------------------------------ byte order */

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* Reverse the bytes of n items of `size` bytes in place when the file order `little`
 * differs from the host order. */
static void to_from_file_order(void *data, size_t n, size_t size, int little) {
  if (host_is_little_endian() == little) return;
  unsigned char *p = data;
  for (size_t i = 0; i < n; ++i, p += size)
    for (size_t a = 0, b = size - 1; a < b; ++a, --b) {
      unsigned char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

static int32_t load_i32(const unsigned char *p, int little) {
  int32_t v;
  memcpy(&v, p, 4);
  to_from_file_order(&v, 1, 4, little);
  return v;
}
static double load_f64(const unsigned char *p, int little) {
  double v;
  memcpy(&v, p, 8);
  to_from_file_order(&v, 1, 8, little);
  return v;
}
static void store_i32(unsigned char *p, int32_t v, int little) {
  to_from_file_order(&v, 1, 4, little);
  memcpy(p, &v, 4);
}
static void store_f64(unsigned char *p, double v, int little) {
  to_from_file_order(&v, 1, 8, little);
  memcpy(p, &v, 8);
}

/* ------------------------------------------------------------------ small helpers */

/* set_err, pread_all, pwrite_all, all_ok: the af_* helpers of archive_formats.h. */

/* Global lexicographic index of global coordinates g (t slowest, z fastest). */
static long long global_lex(const int g[4]) {
  return (((long long)g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3];
}

/* The halo exchange of the host copy of a gauge field (gauge layout, 4 links per site),
 * after making the host copy current. */
static void exchange_gauge_halo(suNg_field *u) {
  sync_host_suNg_field(u);
  sendrecv_field(u->type, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
}

#define LINK_AT(u, ix, mu) (_4FIELD_AT(u, ix, mu))

/* ------------------------------------------------------------------ formats and probing */

const char *archive_format_name(hr_archive_format f) {
  switch (f) {
  case HR_ARCHIVE_HIREP: return "HiRep";
  case HR_ARCHIVE_OPENQCD: return "openQCD";
  case HR_ARCHIVE_ILDG: return "ILDG";
  case HR_ARCHIVE_NERSC: return "NERSC";
  default: return "unknown";
  }
}

hr_archive_format archive_format_from_name(const char *name) {
  if (name == NULL) return HR_ARCHIVE_UNKNOWN;
  if (strcasecmp(name, "hirep") == 0) return HR_ARCHIVE_HIREP;
  if (strcasecmp(name, "openqcd") == 0) return HR_ARCHIVE_OPENQCD;
  if (strcasecmp(name, "ildg") == 0) return HR_ARCHIVE_ILDG;
  if (strcasecmp(name, "nersc") == 0) return HR_ARCHIVE_NERSC;
  return HR_ARCHIVE_UNKNOWN;
}

static int extent_plausible(long v) { return v >= 1 && v <= MAX_EXTENT; }

/* Fill *info as if `format` were the format of the header `h` (28 bytes, zero-padded). Returns
 * 1 when the header values are plausible for that format. */
static int header_as(hr_archive_format format, const unsigned char *h, hr_archive_info *info) {
  memset(info->size, 0, sizeof info->size);
  info->format = format;
  info->precision = 64;
  info->has_plaquette = 1;
  long long vol = 1;
  int ok = 1;
  if (format == HR_ARCHIVE_HIREP) {
    info->ng = load_i32(h, 0);
    ok = info->ng >= 2 && info->ng <= 64;
    for (int mu = 0; mu < 4; ++mu) {
      info->size[mu] = load_i32(h + 4 + 4 * mu, 0);
      ok = ok && extent_plausible(info->size[mu]);
      if (ok) vol *= info->size[mu]; /* implausible extents could overflow */
    }
    info->plaquette = load_f64(h + 20, 0);
    info->expected_bytes =
        ok ? HIREP_HEADER_BYTES + vol * 4 * LINK_DOUBLES((long long)info->ng) * 8 : -1;
  } else {
    info->ng = OPENQCD_NG;
    for (int mu = 0; mu < 4; ++mu) {
      info->size[mu] = load_i32(h + 4 * mu, 1);
      ok = ok && extent_plausible(info->size[mu]);
      if (ok) vol *= info->size[mu];
    }
    info->plaquette = load_f64(h + 16, 1);
    info->expected_bytes = ok ? OPENQCD_HEADER_BYTES + vol / 2 * OPENQCD_RECORD_DOUBLES * 8 : -1;
  }
  return ok;
}

int archive_probe(hr_archive_info *info, const char *path, char *err, size_t errlen) {
  memset(info, 0, sizeof *info);
  /* the community formats announce themselves (archive_ildg.c, archive_nersc.c) */
  if (ildg_is_lime(path)) return ildg_probe(path, info, err, errlen);
  if (nersc_is_nersc(path)) return nersc_probe(path, info, err, errlen);
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    af_set_err(err, errlen, "%s: cannot open the configuration file: %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  unsigned char h[HIREP_HEADER_BYTES];
  memset(h, 0, sizeof h);
  if (fstat(fd, &st) != 0) {
    af_set_err(err, errlen, "%s: cannot stat the file: %s", path, strerror(errno));
    close(fd);
    return -1;
  }
  ssize_t got = pread(fd, h, sizeof h, 0);
  close(fd);
  if (got < OPENQCD_HEADER_BYTES) {
    af_set_err(err, errlen, "%s: too short for a configuration header (%lld bytes)", path,
            (long long)st.st_size);
    return -1;
  }
  hr_archive_info hi, oq;
  const int hi_ok = header_as(HR_ARCHIVE_HIREP, h, &hi) && got >= HIREP_HEADER_BYTES;
  const int oq_ok = header_as(HR_ARCHIVE_OPENQCD, h, &oq);
  hi.file_bytes = oq.file_bytes = (long long)st.st_size;
  /* a header whose size matches wins; else the plausible one (the size check reports it) */
  if (hi_ok && hi.expected_bytes == hi.file_bytes) *info = hi;
  else if (oq_ok && oq.expected_bytes == oq.file_bytes) *info = oq;
  else if (hi_ok) *info = hi;
  else if (oq_ok) *info = oq;
  else {
    info->file_bytes = (long long)st.st_size;
    af_set_err(err, errlen,
            "%s: not a gauge configuration: the header fits neither the HiRep format "
            "(big-endian NG,T,X,Y,Z) nor the openQCD format (little-endian N0..N3)",
            path);
    return -1;
  }
  return 0;
}

/* The shortest of %.15g, %.16g, %.17g that reads back as v (the exact stored value). */
static void format_exact(char *buf, size_t len, double v) {
  for (int digits = 15; digits <= 17; ++digits) {
    snprintf(buf, len, "%.*g", digits, v);
    if (strtod(buf, NULL) == v) return;
  }
}

int archive_header_fields(const char *path, hr_archive_field **fields, int *count, char *err,
                          size_t errlen) {
  *fields = NULL;
  *count = 0;
  if (ildg_is_lime(path)) return 0; /* ILDG: LIME records instead (archive_lime_records) */
  if (nersc_is_nersc(path)) return nersc_header_fields(path, fields, count, err, errlen);
  hr_archive_info info;
  if (archive_probe(&info, path, err, errlen) != 0) return -1;
  static const char *const hirep_keys[6] = {"NG", "T", "X", "Y", "Z", "plaquette"};
  static const char *const openqcd_keys[5] = {"N0", "N1", "N2", "N3", "plaq"};
  const int hirep = info.format == HR_ARCHIVE_HIREP;
  const int n = hirep ? 6 : 5;
  hr_archive_field *f = calloc((size_t)n, sizeof *f);
  if (f == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
  for (int i = 0; i < n; ++i) {
    snprintf(f[i].key, sizeof f[i].key, "%s", hirep ? hirep_keys[i] : openqcd_keys[i]);
    const int extent = hirep ? i - 1 : i; /* HiRep: NG first */
    if (i == n - 1)
      format_exact(f[i].value, sizeof f[i].value, info.plaquette);
    else
      snprintf(f[i].value, sizeof f[i].value, "%d", extent < 0 ? info.ng : info.size[extent]);
  }
  *fields = f;
  *count = n;
  return 0;
}

/* Check the header of `path` against the running theory and the requested format. */
static int check_header(const char *path, hr_archive_format format, hr_archive_info *info,
                        char *err, size_t errlen) {
  if (archive_probe(info, path, err, errlen) != 0) return -1;
  if (format != HR_ARCHIVE_UNKNOWN && format != info->format) {
    /* interpret the header as the requested format to give the right size message */
    hr_archive_info want = *info;
    int fd = open(path, O_RDONLY);
    unsigned char h[HIREP_HEADER_BYTES] = {0};
    int plausible = 0;
    if (fd >= 0) {
      plausible = pread(fd, h, sizeof h, 0) >= OPENQCD_HEADER_BYTES &&
                  header_as(format, h, &want);
      close(fd);
    }
    if (!plausible) {
      af_set_err(err, errlen, "%s: not in the %s format (its header looks like the %s format)",
              path, archive_format_name(format), archive_format_name(info->format));
      return -1;
    }
    want.file_bytes = info->file_bytes;
    *info = want;
  }
  if (info->file_bytes != info->expected_bytes) {
    af_set_err(err, errlen,
            "%s: wrong file size: the %s header (SU(%d), %dx%dx%dx%d) implies %lld bytes, the "
            "file has %lld (truncated or damaged file)",
            path, archive_format_name(info->format), info->ng, info->size[0], info->size[1],
            info->size[2], info->size[3], info->expected_bytes, info->file_bytes);
    return -1;
  }
  if (info->format == HR_ARCHIVE_OPENQCD && NG != OPENQCD_NG) {
    af_set_err(err, errlen,
            "%s: the openQCD format holds SU(3) fields only, this build is SU(%d) "
            "(use the HiRep format)",
            path, NG);
    return -1;
  }
  if (info->ng != NG) {
    af_set_err(err, errlen,
            "%s: wrong gauge group: the file holds SU(%d) links, this build is SU(%d) "
            "(configure --with-ng=%d to read it)",
            path, info->ng, NG, info->ng);
    return -1;
  }
  for (int mu = 0; mu < 4; ++mu)
    if (info->size[mu] != GLB_SIZE[mu]) {
      af_set_err(err, errlen,
              "%s: wrong lattice size: the file holds %dx%dx%dx%d, the run uses %dx%dx%dx%d "
              "(T x X x Y x Z; set GLB_T..GLB_Z to match)",
              path, info->size[0], info->size[1], info->size[2], info->size[3], GLB_T, GLB_X,
              GLB_Y, GLB_Z);
      return -1;
    }
  return 0;
}

/* ------------------------------------------------------------------ site data */

/* Local z-lines: (t, x, y) of this process and the global coordinates of their first site. */
#define FOR_LOCAL_LINES(t, x, y)                                                               \
  for (int t = 0; t < LOC_T; ++t)                                                                  \
    for (int x = 0; x < LOC_X; ++x)                                                                \
      for (int y = 0; y < LOC_Y; ++y)

static void line_global_start(int t, int x, int y, int g[4]) {
  g[0] = ZERO_COORD[0] + t;
  g[1] = ZERO_COORD[1] + x;
  g[2] = ZERO_COORD[2] + y;
  g[3] = ZERO_COORD[3];
}

/* Copy one link between a buffer in file byte order and a matrix. */
static void link_from_file(suNg *dst, const double *src, int little) {
  memcpy(dst->c, src, sizeof(suNg));
  to_from_file_order(dst->c, LINK_DOUBLES(NG), 8, little);
}
static void link_to_file(double *dst, const suNg *src, int little) {
  memcpy(dst, src->c, sizeof(suNg));
  to_from_file_order(dst, LINK_DOUBLES(NG), 8, little);
}

/* HiRep body: per local z-line one contiguous run of Z sites x 4 links. */
static int hirep_io_body(int fd, suNg_field *u, int writing) {
  const size_t site_doubles = 4 * LINK_DOUBLES(NG);
  double *buf = malloc((size_t)LOC_Z * site_doubles * sizeof(double));
  if (buf == NULL) return -1;
  int ok = 1;
  FOR_LOCAL_LINES(t, x, y) {
    if (!ok) break;
    int g[4];
    line_global_start(t, x, y, g);
    const off_t off = HIREP_HEADER_BYTES + (off_t)global_lex(g) * site_doubles * 8;
    const size_t bytes = (size_t)LOC_Z * site_doubles * 8;
    if (writing) {
      for (int z = 0; z < LOC_Z; ++z)
        for (int mu = 0; mu < 4; ++mu)
          link_to_file(buf + z * site_doubles + mu * LINK_DOUBLES(NG), LINK_AT(u, ipt(t, x, y, z), mu),
                       0);
      ok = af_pwrite_all(fd, buf, bytes, off) == 0;
    } else {
      ok = af_pread_all(fd, buf, bytes, off) == 0;
      if (ok)
        for (int z = 0; z < LOC_Z; ++z)
          for (int mu = 0; mu < 4; ++mu)
            link_from_file(LINK_AT(u, ipt(t, x, y, z), mu), buf + z * site_doubles + mu * LINK_DOUBLES(NG),
                           0);
    }
  }
  free(buf);
  return ok ? 0 : -1;
}

/* openQCD record index of the odd global site g: its lexicographic index / 2 (every pair of
 * neighbouring z holds one odd site, the extents being even). */
static off_t openqcd_record_offset(const int g[4]) {
  return OPENQCD_HEADER_BYTES + (off_t)(global_lex(g) / 2) * OPENQCD_RECORD_DOUBLES * 8;
}

/* Read the records of the odd sites among z = z0 .. z0+n-1 (mod GLB_Z) of the global line
 * (g[0], g[1], g[2]); the record of z0+k lands at rec + k * OPENQCD_RECORD_DOUBLES (even
 * sites: untouched). At most two contiguous reads. */
static int openqcd_read_line(int fd, const int gline[4], int z0, int n, double *rec) {
  int k = 0;
  while (k < n) {
    const int zstart = (z0 + k) % GLB_Z;
    int run = GLB_Z - zstart; /* sites up to the end of the global line */
    if (run > n - k) run = n - k;
    int g[4] = {gline[0], gline[1], gline[2], zstart};
    const int first_odd = ((g[0] + g[1] + g[2] + zstart) & 1) ? 0 : 1;
    const int nodd = (run - first_odd + 1) / 2;
    if (nodd > 0) {
      g[3] = zstart + first_odd;
      double *tmp = malloc((size_t)nodd * OPENQCD_RECORD_DOUBLES * sizeof(double));
      if (tmp == NULL) return -1;
      if (af_pread_all(fd, tmp, (size_t)nodd * OPENQCD_RECORD_DOUBLES * 8,
                    openqcd_record_offset(g)) != 0) {
        free(tmp);
        return -1;
      }
      for (int j = 0; j < nodd; ++j)
        memcpy(rec + (size_t)(k + first_odd + 2 * j) * OPENQCD_RECORD_DOUBLES,
               tmp + (size_t)j * OPENQCD_RECORD_DOUBLES, OPENQCD_RECORD_DOUBLES * 8);
      free(tmp);
    }
    k += run;
  }
  return 0;
}

/* openQCD body, reading: for each local z-line, the records of the line itself give the links
 * of its odd sites (slot 2 mu); the links U_mu(y) of its even sites y sit in slot 2 mu + 1 of
 * the record of the odd site y + mu, read from the lines shifted by one in t, x, y, and from
 * the same line shifted by one in z. */
static int openqcd_read_body(int fd, suNg_field *u) {
  const size_t rec_bytes = (size_t)(LOC_Z + 1) * OPENQCD_RECORD_DOUBLES * sizeof(double);
  double *own = malloc(rec_bytes), *shifted = malloc(rec_bytes);
  int ok = own != NULL && shifted != NULL;
  FOR_LOCAL_LINES(t, x, y) {
    if (!ok) break;
    int g[4];
    line_global_start(t, x, y, g);
    ok = openqcd_read_line(fd, g, g[3], LOC_Z, own) == 0;
    for (int z = 0; z < LOC_Z && ok; ++z)
      if ((g[0] + g[1] + g[2] + g[3] + z) & 1)
        for (int mu = 0; mu < 4; ++mu)
          link_from_file(LINK_AT(u, ipt(t, x, y, z), mu), own + (size_t)z * OPENQCD_RECORD_DOUBLES + 2 * mu * LINK_DOUBLES(3),
                         1);
    for (int mu = 0; mu < 4 && ok; ++mu) {
      int gs[4] = {g[0], g[1], g[2], g[3]};
      int zshift = 0;
      if (mu < 3)
        gs[mu] = (gs[mu] + 1) % GLB_SIZE[mu];
      else
        zshift = 1;
      ok = openqcd_read_line(fd, gs, g[3] + zshift, LOC_Z, shifted) == 0;
      for (int z = 0; z < LOC_Z && ok; ++z)
        if (!((g[0] + g[1] + g[2] + g[3] + z) & 1))
          link_from_file(LINK_AT(u, ipt(t, x, y, z), mu),
                         shifted + (size_t)z * OPENQCD_RECORD_DOUBLES +
                             (2 * mu + 1) * LINK_DOUBLES(3), 1);
    }
  }
  free(own);
  free(shifted);
  return ok ? 0 : -1;
}

/* openQCD body, writing: the records of the local odd sites, one contiguous run per z-line;
 * U_mu(x - mu) comes from the halo when x - mu belongs to the process below. */
static int openqcd_write_body(int fd, suNg_field *u) {
  const int nrec = LOC_Z / 2;
  double *buf = malloc((size_t)nrec * OPENQCD_RECORD_DOUBLES * sizeof(double));
  int ok = buf != NULL;
  FOR_LOCAL_LINES(t, x, y) {
    if (!ok) break;
    int g[4];
    line_global_start(t, x, y, g);
    const int first_odd = ((g[0] + g[1] + g[2] + g[3]) & 1) ? 0 : 1;
    for (int j = 0; j < nrec; ++j) {
      const int ix = ipt(t, x, y, first_odd + 2 * j);
      double *rec = buf + (size_t)j * OPENQCD_RECORD_DOUBLES;
      for (int mu = 0; mu < 4; ++mu) {
        link_to_file(rec + 2 * mu * LINK_DOUBLES(3), LINK_AT(u, ix, mu), 1);
        link_to_file(rec + (2 * mu + 1) * LINK_DOUBLES(3), LINK_AT(u, idn(ix, mu), mu), 1);
      }
    }
    g[3] += first_odd;
    ok = af_pwrite_all(fd, buf, (size_t)nrec * OPENQCD_RECORD_DOUBLES * 8,
                    openqcd_record_offset(g)) == 0;
  }
  free(buf);
  return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ open boundary */

int gauge_field_has_open_time_boundary(const suNg_field *u) {
  double nonzero = 0.0;
  _OMP_MASTER_FOR_SUM(u->type, ix, nonzero) {
    int x[4];
    local_coordinates(x, ix);
    if (x[0] + ZERO_COORD[0] == GLB_T - 1) {
      const suNg *l = LINK_AT(u, ix, 0);
      for (int i = 0; i < NG * NG; ++i)
        if (creal(l->c[i]) != 0.0 || cimag(l->c[i]) != 0.0) {
          nonzero += 1.0;
          break;
        }
    }
  }
  global_sum(&nonzero, 1);
  return nonzero == 0.0;
}

double avr_plaquette_of_boundary(const suNg_field *u) {
  return gauge_field_has_open_time_boundary(u) ? avr_plaquette_open_bc(u) : avr_plaquette(u);
}

void gauge_field_suN_deviation(const suNg_field *u, double *unitarity, double *det) {
  const suNg *um = sync_host_suNg_field(u);
  const int sh = u->type->master_shift;
  double worst[2] = {0.0, 0.0};
  _MASTER_FOR(u->type, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      const suNg *l = um + 4 * (ix - sh) + mu;
      int zero = 1;
      for (int e = 0; e < NG * NG; ++e) zero &= l->c[e] == 0;
      if (zero) continue;
      const double d_unit = sqrt(cmat_unitarity_defect(NG, l->c));
      const double d_det = hr_cabs(suN_det(NG, l->c) - 1.0);
      /* written so that a NaN entry counts as the worst deviation */
      if (!(d_unit <= worst[0])) worst[0] = isnan(d_unit) ? INFINITY : d_unit;
      if (!(d_det <= worst[1])) worst[1] = isnan(d_det) ? INFINITY : d_det;
    }
  }
  global_max(worst, 2);
  *unitarity = worst[0];
  *det = worst[1];
}

/* The header plaquette of `format` for the links of u (halo current). */
static double header_plaquette(hr_archive_format format, hr_archive_bc bc, const suNg_field *u) {
  if (format == HR_ARCHIVE_OPENQCD) return plaquette_retr_sum(u) / (6.0 * (double)GLB_VOLUME);
  if (bc == HR_ARCHIVE_BC_AUTO) return avr_plaquette_of_boundary(u);
  return bc == HR_ARCHIVE_BC_OPEN ? avr_plaquette_open_bc(u) : avr_plaquette(u);
}

/* ------------------------------------------------------------------ read */

int archive_read_checked(suNg_field *u, const char *path, hr_archive_format format,
                         hr_archive_bc bc, char *err, size_t errlen) {
  /* ILDG and NERSC: their own readers (archive_ildg.c, archive_nersc.c) */
  const int lime = ildg_is_lime(path), nersc = !lime && nersc_is_nersc(path);
  if (format == HR_ARCHIVE_ILDG || format == HR_ARCHIVE_NERSC ||
      (format == HR_ARCHIVE_UNKNOWN && (lime || nersc))) {
    if ((format == HR_ARCHIVE_ILDG && !lime) || (format == HR_ARCHIVE_NERSC && !nersc)) {
      af_set_err(err, errlen, "%s: not in the %s format (%s)", path, archive_format_name(format),
              format == HR_ARCHIVE_ILDG ? "no LIME record header at its start"
                                        : "it does not start with BEGIN_HEADER");
      return -1;
    }
    return lime ? ildg_read_checked(path, u, err, errlen) : nersc_read_checked(path, u, err, errlen);
  }
  hr_archive_info info;
  /* every process reads the header and reaches the same verdict */
  if (!af_all_ok(check_header(path, format, &info, err, errlen) == 0)) {
    if (err != NULL && errlen > 0 && err[0] == '\0')
      af_set_err(err, errlen, "%s: the header check failed on another process", path);
    return -1;
  }
  host_write_suNg_field(u); /* the host copy receives the links (GPU copy stale) */
  int fd = open(path, O_RDONLY);
  int ok = fd >= 0;
  if (ok) {
    ok = (info.format == HR_ARCHIVE_HIREP ? hirep_io_body(fd, u, 0) : openqcd_read_body(fd, u)) ==
         0;
    close(fd);
  }
  if (!af_all_ok(ok)) {
    af_set_err(err, errlen, "%s: reading the links failed on %s: %s", path,
            ok ? "another process" : "this process", ok ? "see its message" : strerror(errno));
    return -1;
  }
  exchange_gauge_halo(u);
  const double plaq = header_plaquette(info.format, bc, u);
  if (!(fabs(plaq - info.plaquette) <= PLAQUETTE_TOLERANCE * fmax(1.0, fabs(info.plaquette)))) {
    af_set_err(err, errlen,
            "%s: plaquette mismatch: the %s header says %.16g, the links give %.16g "
            "(difference %.3g): the data are damaged, or the file was written with another "
            "time boundary condition",
            path, archive_format_name(info.format), info.plaquette, plaq, plaq - info.plaquette);
    return -1;
  }
  lprintf("ARCHIVE", 10, "read %s (%s format, SU(%d), %dx%dx%dx%d), plaquette %.16g checked\n",
          path, archive_format_name(info.format), info.ng, info.size[0], info.size[1],
          info.size[2], info.size[3], plaq);
  return 0;
}

void archive_read(suNg_field *u, const char *path, hr_archive_format format, hr_archive_bc bc) {
  char err[1024] = "";
  if (archive_read_checked(u, path, format, bc, err, sizeof err) != 0)
    hr_fatal(HR_EXIT_IO, "%s", err);
}

void read_gauge_field(suNg_field *u, const char *path) {
  archive_read(u, path, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC);
}

/* ------------------------------------------------------------------ write */

/* Name of the temporary file behind an hr_ofile: the link /proc/self/fd/N (Linux). */
static int ofile_temp_name(hr_ofile *f, char *buf, size_t len) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fileno(hr_ofile_stream(f)));
  ssize_t n = readlink(link, buf, len - 1);
  if (n <= 0 || (size_t)n >= len - 1) return -1;
  buf[n] = '\0';
  return 0;
}

int archive_write_checked(const char *path, hr_archive_format format, hr_archive_bc bc,
                          suNg_field *u, char *err, size_t errlen) {
  if (format == HR_ARCHIVE_ILDG) return archive_write_ildg_checked(path, u, 64, NULL, err, errlen);
  if (format != HR_ARCHIVE_HIREP && format != HR_ARCHIVE_OPENQCD) {
    af_set_err(err, errlen, "%s: cannot write format '%s'", path, archive_format_name(format));
    return -1;
  }
  if (format == HR_ARCHIVE_OPENQCD && NG != OPENQCD_NG) {
    af_set_err(err, errlen,
            "%s: the openQCD format holds SU(3) fields only, this build is SU(%d) "
            "(use the HiRep format)",
            path, NG);
    return -1;
  }
  exchange_gauge_halo(u);
  const double plaq = header_plaquette(format, bc, u);

  /* process 0: temporary file and header */
  unsigned char header[HIREP_HEADER_BYTES];
  size_t header_bytes;
  if (format == HR_ARCHIVE_HIREP) {
    store_i32(header, NG, 0);
    for (int mu = 0; mu < 4; ++mu)
      store_i32(header + 4 + 4 * mu, GLB_SIZE[mu], 0);
    store_f64(header + 20, plaq, 0);
    header_bytes = HIREP_HEADER_BYTES;
  } else {
    for (int mu = 0; mu < 4; ++mu)
      store_i32(header + 4 * mu, GLB_SIZE[mu], 1);
    store_f64(header + 16, plaq, 1);
    header_bytes = OPENQCD_HEADER_BYTES;
  }
  char temp[4096] = "";
  hr_ofile *of = NULL;
  int ok = 1;
  int saved_errno = 0;
  if (hr_rank() == 0) {
    of = hr_ofile_open(path, "wb");
    ok = of != NULL;
    if (ok) {
      FILE *s = hr_ofile_stream(of);
      ok = fwrite(header, 1, header_bytes, s) == header_bytes && fflush(s) == 0 &&
           ofile_temp_name(of, temp, sizeof temp) == 0;
    }
    if (!ok) saved_errno = errno;
  }
#if HR_WITH_MPI
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(temp, (int)sizeof temp, MPI_CHAR, 0, MPI_COMM_WORLD);
#endif
  if (!ok) {
    if (of != NULL) hr_ofile_abort(of);
    af_set_err(err, errlen, "%s: cannot create the temporary output file: %s", path,
            saved_errno ? strerror(saved_errno) : "see process 0");
    return -1;
  }
  /* every process: its own sites */
  int fd = open(temp, O_WRONLY);
  ok = fd >= 0;
  if (ok) {
    ok = (format == HR_ARCHIVE_HIREP ? hirep_io_body(fd, u, 1) : openqcd_write_body(fd, u)) == 0;
    ok = ok && fsync(fd) == 0;
    if (close(fd) != 0) ok = 0;
  }
  if (!ok) saved_errno = errno;
  /* every process agrees; process 0 renames or removes */
  ok = af_commit_all(of, ok, &saved_errno);
  if (!ok) {
    af_set_err(err, errlen, "%s: writing the configuration failed: %s", path,
               saved_errno ? strerror(saved_errno) : "on another process");
    return -1;
  }
  lprintf("ARCHIVE", 10, "wrote %s (%s format), header plaquette %.16g\n", path,
          archive_format_name(format), plaq);
  return 0;
}

void archive_write(const char *path, hr_archive_format format, hr_archive_bc bc, suNg_field *u) {
  char err[1024] = "";
  if (archive_write_checked(path, format, bc, u, err, sizeof err) != 0)
    hr_fatal(HR_EXIT_IO, "%s", err);
}

void write_gauge_field(const char *path, suNg_field *u) {
  archive_write(path, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u);
}
