/* archive_nersc.c -- reading NERSC gauge configurations (SU(3)): a text header
 * BEGIN_HEADER / KEY = VALUE lines / END_HEADER, then the links with x fastest and t slowest,
 * mu = x, y, z, t per site, each matrix as 3 rows (DATATYPE 4D_SU3_GAUGE_3x3) or its first 2
 * rows (4D_SU3_GAUGE; row 3 = conj(row 1 x row 2)), IEEE single or double, big-endian unless
 * FLOATING_POINT says LITTLE. Checks: CHECKSUM (sum mod 2^32 of the 32-bit words of the 3x3
 * matrices in file precision), LINK_TRACE and PLAQUETTE against the links, those the header
 * has; a header with none of them is refused. Every process reads its own sites.
 * Doc/archives_and_observables.md. */
#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "archive_formats.h"
#include "communications.h"
#include "halo_exchange.h"
#include "geometry.h"
#include "hr_error.h"
#include "logger.h"
#include "observables.h"
#include "suN.h"

#define NERSC_MAX_HEADER (1 << 16)
/* Tolerance of the header values (printed with limited digits; single-precision files). */
#define NERSC_TOLERANCE 1e-6

/* What the header says. */
typedef struct {
  int dims[4];        /* DIMENSION_1..4 = x, y, z, t */
  int rows;           /* 3 (3x3) or 2 (two rows stored) */
  int precision;      /* 32 or 64 */
  int little;         /* byte order of the data */
  uint32_t checksum;  /* CHECKSUM */
  double plaquette;   /* PLAQUETTE */
  double link_trace;  /* LINK_TRACE */
  int have_checksum, have_plaquette, have_link_trace;
  long long data_offset; /* first byte after the END_HEADER line */
  long long file_bytes;
} nersc_header;

int nersc_is_nersc(const char *path) {
  char b[12];
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  const int ok = af_pread_all(fd, b, sizeof b, 0) == 0 && memcmp(b, "BEGIN_HEADER", 12) == 0;
  close(fd);
  return ok;
}

/* Strip blanks at both ends of s in place. */
static char *trim(char *s) {
  while (isspace((unsigned char)*s)) ++s;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
  return s;
}

/* Append key = value to the list *fields of *count entries (capacity *room). */
static void add_field(hr_archive_field **fields, int *count, int *room, const char *key,
                      const char *value) {
  if (*count == *room) {
    *room = *room ? 2 * *room : 16;
    hr_archive_field *grown = realloc(*fields, (size_t)*room * sizeof **fields);
    if (grown == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
    *fields = grown;
  }
  snprintf((*fields)[*count].key, sizeof (*fields)[*count].key, "%s", key);
  snprintf((*fields)[*count].value, sizeof (*fields)[*count].value, "%s", value);
  ++*count;
}

/* Parse the header of path into *h; with fields != NULL also collect every KEY = VALUE line
 * in order (*fields malloc'd, *count entries). */
static int parse_header_fields(const char *path, nersc_header *h, hr_archive_field **fields,
                               int *count, char *err, size_t errlen) {
  memset(h, 0, sizeof *h);
  int room = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    af_set_err(err, errlen, "%s: cannot open the configuration file: %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0) h->file_bytes = (long long)st.st_size;
  char line[1024], datatype[128] = "", fp[128] = "IEEE64BIG";
  int begun = 0, ended = 0;
  while (!ended && ftell(f) < NERSC_MAX_HEADER && fgets(line, sizeof line, f) != NULL) {
    char *l = trim(line);
    if (!begun) {
      if (strcmp(l, "BEGIN_HEADER") != 0) break;
      begun = 1;
      continue;
    }
    if (strcmp(l, "END_HEADER") == 0) {
      ended = 1;
      h->data_offset = ftell(f);
      break;
    }
    char *eq = strchr(l, '=');
    if (eq == NULL) continue;
    *eq = '\0';
    char *key = trim(l), *val = trim(eq + 1);
    if (fields != NULL) add_field(fields, count, &room, key, val);
    if (strncmp(key, "DIMENSION_", 10) == 0 && key[10] >= '1' && key[10] <= '4' && key[11] == 0)
      h->dims[key[10] - '1'] = atoi(val);
    else if (strcmp(key, "DATATYPE") == 0)
      snprintf(datatype, sizeof datatype, "%s", val);
    else if (strcmp(key, "FLOATING_POINT") == 0)
      snprintf(fp, sizeof fp, "%s", val);
    else if (strcmp(key, "CHECKSUM") == 0)
      h->checksum = (uint32_t)strtoul(val, NULL, 16), h->have_checksum = 1;
    else if (strcmp(key, "PLAQUETTE") == 0)
      h->plaquette = strtod(val, NULL), h->have_plaquette = 1;
    else if (strcmp(key, "LINK_TRACE") == 0)
      h->link_trace = strtod(val, NULL), h->have_link_trace = 1;
  }
  fclose(f);
  if (!begun || !ended) {
    af_set_err(err, errlen, "%s: not a NERSC file: %s", path,
               begun ? "no END_HEADER line" : "it does not start with BEGIN_HEADER");
    return -1;
  }
  if (strcmp(datatype, "4D_SU3_GAUGE_3x3") == 0) h->rows = 3;
  else if (strcmp(datatype, "4D_SU3_GAUGE") == 0) h->rows = 2;
  else {
    af_set_err(err, errlen, "%s: NERSC DATATYPE '%s' not supported (4D_SU3_GAUGE_3x3 or "
               "4D_SU3_GAUGE)", path, datatype);
    return -1;
  }
  if (strncmp(fp, "IEEE32", 6) == 0) h->precision = 32;
  else if (strncmp(fp, "IEEE64", 6) == 0) h->precision = 64;
  else {
    af_set_err(err, errlen, "%s: NERSC FLOATING_POINT '%s' not supported (IEEE32*, IEEE64*)",
               path, fp);
    return -1;
  }
  h->little = strstr(fp, "LITTLE") != NULL;
  for (int d = 0; d < 4; ++d)
    if (h->dims[d] < 1 || h->dims[d] > (1 << 20)) {
      af_set_err(err, errlen, "%s: NERSC header has no valid DIMENSION_%d", path, d + 1);
      return -1;
    }
  return 0;
}

static int parse_header(const char *path, nersc_header *h, char *err, size_t errlen) {
  return parse_header_fields(path, h, NULL, NULL, err, errlen);
}

int nersc_header_fields(const char *path, hr_archive_field **fields, int *count, char *err,
                        size_t errlen) {
  nersc_header h;
  *fields = NULL;
  *count = 0;
  if (parse_header_fields(path, &h, fields, count, err, errlen) == 0) return 0;
  free(*fields);
  *fields = NULL;
  *count = 0;
  return -1;
}

/* Bytes of one site in the file. */
static long long nersc_site_bytes(const nersc_header *h) {
  return 4LL * h->rows * 3 * 2 * (h->precision / 8);
}

static void info_from_header(const nersc_header *h, hr_archive_info *info) {
  memset(info, 0, sizeof *info);
  info->format = HR_ARCHIVE_NERSC;
  info->ng = 3;
  info->size[0] = h->dims[3];
  for (int d = 0; d < 3; ++d) info->size[d + 1] = h->dims[d];
  info->plaquette = h->have_plaquette ? h->plaquette : NAN;
  info->has_plaquette = h->have_plaquette;
  info->precision = h->precision;
  info->file_bytes = h->file_bytes;
  info->expected_bytes = h->data_offset + (long long)h->dims[0] * h->dims[1] * h->dims[2] *
                                              h->dims[3] * nersc_site_bytes(h);
}

int nersc_probe(const char *path, hr_archive_info *info, char *err, size_t errlen) {
  nersc_header h;
  if (parse_header(path, &h, err, errlen) != 0) return -1;
  info_from_header(&h, info);
  return 0;
}

/* One real number of the file at b. */
static double load_real(const unsigned char *b, const nersc_header *h) {
  const int n = h->precision / 8;
  uint64_t v = 0;
  if (h->little)
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[i];
  else
    v = af_load_be(b, n);
  return n == 8 ? af_bits_double(v) : (double)af_bits_float((uint32_t)v);
}

/* The NERSC checksum words of one real number in file precision. */
static uint32_t checksum_words(double v, int precision) {
  if (precision == 32) return af_float_bits((float)v);
  const uint64_t b = af_double_bits(v);
  return (uint32_t)b + (uint32_t)(b >> 32);
}

/* The links of one site from its file bytes; returns the checksum contribution. */
static uint32_t site_from_file(const unsigned char *b, const nersc_header *h, suNg_field *u,
                               int ix) {
  const int rb = h->precision / 8;
  uint32_t sum = 0;
  for (int d = 0; d < 4; ++d) {
    hr_complex m[3][3];
    for (int r = 0; r < h->rows; ++r)
      for (int c = 0; c < 3; ++c, b += 2 * rb) m[r][c] = load_real(b, h) + I * load_real(b + rb, h);
    if (h->rows == 2)
      for (int c = 0; c < 3; ++c) {
        const int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        m[2][c] = conj(m[0][c1] * m[1][c2] - m[0][c2] * m[1][c1]);
      }
    suNg *l = _4FIELD_AT(u, ix, (d + 1) % 4);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        l->c[3 * r + c] = m[r][c];
        sum += checksum_words(creal(m[r][c]), h->precision) +
               checksum_words(cimag(m[r][c]), h->precision);
      }
  }
  return sum;
}

/* Average of Re tr U / 3 over all links. */
static double link_trace(const suNg_field *u) {
  double s = 0;
  _MASTER_FOR(u->type, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      const suNg *l = _4FIELD_AT(u, ix, mu);
      for (int a = 0; a < NG; ++a) s += creal(l->c[a * NG + a]);
    }
  }
  global_sum(&s, 1);
  return s / (4.0 * NG * (double)GLB_VOLUME);
}

int nersc_read_checked(const char *path, suNg_field *u, char *err, size_t errlen) {
  nersc_header h;
  hr_archive_info info;
  int ok = parse_header(path, &h, err, errlen) == 0;
  if (ok) info_from_header(&h, &info);
  if (ok && NG != 3) {
    af_set_err(err, errlen, "%s: NERSC files hold SU(3) fields only, this build is SU(%d)", path,
               NG);
    ok = 0;
  }
  if (ok && info.file_bytes != info.expected_bytes) {
    af_set_err(err, errlen,
               "%s: wrong file size: the NERSC header implies %lld bytes, the file has %lld "
               "(truncated or damaged file)",
               path, info.expected_bytes, info.file_bytes);
    ok = 0;
  }
  if (ok && !h.have_checksum && !h.have_plaquette && !h.have_link_trace) {
    af_set_err(err, errlen,
               "%s: the NERSC header has no CHECKSUM, PLAQUETTE or LINK_TRACE line, so the links "
               "cannot be checked (a damaged header, or a file written without them: add the "
               "writing code's CHECKSUM line to the header to read it)",
               path);
    ok = 0;
  }
  if (ok && af_check_lattice(path, info.size, err, errlen) != 0) ok = 0;
  if (!af_all_ok(ok)) {
    if (ok) af_set_err(err, errlen, "%s: the NERSC header check failed on another process", path);
    return -1;
  }
  host_write_suNg_field(u);
  const long long sb = nersc_site_bytes(&h);
  unsigned char *buf = malloc((size_t)(LOC_X * sb));
  int fd = open(path, O_RDONLY);
  ok = fd >= 0 && buf != NULL;
  long long sum = 0;
  for (int t = 0; t < LOC_T && ok; ++t)
    for (int z = 0; z < LOC_Z && ok; ++z)
      for (int y = 0; y < LOC_Y && ok; ++y) {
        const long long r0 =
            (((long long)(ZERO_COORD[0] + t) * GLB_Z + ZERO_COORD[3] + z) * GLB_Y + ZERO_COORD[2] +
             y) * GLB_X + ZERO_COORD[1];
        ok = af_pread_all(fd, buf, (size_t)(LOC_X * sb), (off_t)(h.data_offset + r0 * sb)) == 0;
        for (int x = 0; x < LOC_X && ok; ++x) sum += site_from_file(buf + x * sb, &h, u, ipt(t, x, y, z));
      }
  if (fd >= 0) close(fd);
  free(buf);
  if (!af_all_ok(ok)) {
    af_set_err(err, errlen, "%s: reading the links failed on %s: %s", path,
               ok ? "another process" : "this process", ok ? "see its message" : strerror(errno));
    return -1;
  }
  global_sum_long(&sum, 1);
  const uint32_t checksum = (uint32_t)((unsigned long long)sum & 0xffffffffu);
  if (h.have_checksum && checksum != h.checksum) {
    af_set_err(err, errlen,
               "%s: checksum mismatch: the NERSC header says %" PRIx32 ", the data give %" PRIx32
               " (damaged file)",
               path, h.checksum, checksum);
    return -1;
  }
  sync_host_suNg_field(u);
  sendrecv_field(u->type, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
  const double tr = link_trace(u), plaq = avr_plaquette(u);
  if (h.have_link_trace && !(fabs(tr - h.link_trace) <= NERSC_TOLERANCE)) {
    af_set_err(err, errlen,
               "%s: link trace mismatch: the NERSC header says %.10g, the links give %.10g", path,
               h.link_trace, tr);
    return -1;
  }
  if (h.have_plaquette && !(fabs(plaq - h.plaquette) <= NERSC_TOLERANCE)) {
    af_set_err(err, errlen,
               "%s: plaquette mismatch: the NERSC header says %.10g, the links give %.10g", path,
               h.plaquette, plaq);
    return -1;
  }
  lprintf("ARCHIVE", 10,
          "read %s (NERSC, %d rows, %d-bit %s-endian): checksum %" PRIx32 " %s, plaquette "
          "%.12g %s, link trace %.12g %s\n",
          path, h.rows, h.precision, h.little ? "little" : "big", checksum,
          h.have_checksum ? "checked" : "(not in the header)", plaq,
          h.have_plaquette ? "checked" : "(not in the header)", tr,
          h.have_link_trace ? "checked" : "(not in the header)");
  return 0;
}
