/* archive_ildg.c -- ILDG gauge configurations in a LIME container, read and written by LibHR
 * itself: LIME record headers (144 bytes, big-endian: magic 0x456789ab, version 1, MB/ME
 * flags, data length, type name; data padded to 8 bytes), the records ildg-format (XML),
 * ildg-data-lfn (optional), ildg-binary-data (big-endian IEEE double or single, sites with
 * x fastest and t slowest, links mu = x, y, z, t, matrices row by row) and scidac-checksum
 * (the SciDAC suma/sumb built from the CRC-32 of each site's bytes). Every process reads and
 * writes its own sites at explicit offsets; writing goes through hr_ofile as in archive.c.
 * Definitions: Doc/archives_and_observables.md. */
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
#include "suN.h"

#define LIME_MAGIC 0x456789abu
#define LIME_VERSION 1
#define LIME_HEADER_BYTES 144
#define LIME_TYPE_BYTES 128
#define LIME_FLAG_MB 0x8000u /* message begin */
#define LIME_FLAG_ME 0x4000u /* message end */
/* Largest XML record read into memory. */
#define LIME_MAX_XML (1 << 16)
/* Bytes of the checksum XML written by LibHR (fixed: suma and sumb with 8 hex digits). */
#define CHECKSUM_XML_FORMAT                                                                    \
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacChecksum><version>1.0</version>"         \
  "<suma>%08" PRIx32 "</suma><sumb>%08" PRIx32 "</sumb></scidacChecksum>"

/* ------------------------------------------------------------------ CRC-32 and SciDAC sums */

/* CRC-32 of IEEE 802.3: bits processed least significant first, reflected polynomial
 * 0xEDB88320, register preset to all ones and complemented at the end. One table entry per
 * byte value: the register after shifting that byte through eight times. */
static uint32_t crc_table[256];
static int crc_table_ready = 0;

static void crc_table_build(void) {
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t r = b;
    for (int k = 0; k < 8; ++k) r = (r & 1u) ? (r >> 1) ^ 0xEDB88320u : r >> 1;
    crc_table[b] = r;
  }
  crc_table_ready = 1;
}

uint32_t hr_crc32(uint32_t crc, const void *data, size_t n) {
  if (!crc_table_ready) crc_table_build();
  const unsigned char *p = data;
  uint32_t r = ~crc;
  for (size_t i = 0; i < n; ++i) r = crc_table[(r ^ p[i]) & 0xffu] ^ (r >> 8);
  return ~r;
}

static uint32_t rotl32(uint32_t v, unsigned s) {
  s &= 31u;
  return s == 0 ? v : (v << s) | (v >> (32u - s));
}

/* SciDAC checksum: for the site of rank r in the file order, with c = CRC-32 of its bytes,
 * suma ^= c rotated left by r mod 29 and sumb ^= c rotated left by r mod 31. */
static void scidac_add_site(uint32_t sums[2], long long rank, const void *bytes, size_t n) {
  const uint32_t c = hr_crc32(0, bytes, n);
  sums[0] ^= rotl32(c, (unsigned)(rank % 29));
  sums[1] ^= rotl32(c, (unsigned)(rank % 31));
}

/* XOR of the sums of all processes. */
static void scidac_reduce(uint32_t sums[2]) {
#if HR_WITH_MPI
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UINT32_T, MPI_BXOR, MPI_COMM_WORLD);
#else
  (void)sums;
#endif
}

/* ------------------------------------------------------------------ LIME records */

/* What the records of a LIME file hold (as far as ILDG needs). */
typedef struct {
  char format_xml[LIME_MAX_XML];
  char checksum_xml[LIME_MAX_XML];
  char lfn[LIME_MAX_XML];
  int have_format, have_checksum, have_lfn, have_binary;
  off_t binary_offset; /* first data byte of ildg-binary-data */
  long long binary_bytes;
  long long file_bytes;
} lime_contents;

/* The first 8-byte multiple >= n. */
static long long pad8(long long n) { return (n + 7) / 8 * 8; }

/* Read a small record's data as a NUL-terminated string. */
static int read_text(int fd, off_t off, long long len, char *dst, const char *path,
                     const char *type, char *err, size_t errlen) {
  if (len >= LIME_MAX_XML) {
    af_set_err(err, errlen, "%s: the %s record is too long (%lld bytes): not an ILDG file",
               path, type, len);
    return -1;
  }
  if (af_pread_all(fd, dst, (size_t)len, off) != 0) {
    af_set_err(err, errlen, "%s: cannot read the %s record: %s", path, type, strerror(errno));
    return -1;
  }
  dst[len] = '\0';
  return 0;
}

/* The records of `path` (archive_lime_records) and the size of the file. */
static int lime_list(const char *path, hr_lime_record **records, int *count,
                     long long *file_bytes_out, char *err, size_t errlen) {
  *records = NULL;
  *count = 0;
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    af_set_err(err, errlen, "%s: cannot open the configuration file: %s", path,
               strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    af_set_err(err, errlen, "%s: cannot stat the file: %s", path, strerror(errno));
    close(fd);
    return -1;
  }
  const long long file_bytes = (long long)st.st_size;
  *file_bytes_out = file_bytes;
  long long off = 0;
  int rc = 0, n = 0, room = 0;
  hr_lime_record *list = NULL;
  while (off < file_bytes && rc == 0) {
    unsigned char h[LIME_HEADER_BYTES];
    if (off + LIME_HEADER_BYTES > file_bytes || af_pread_all(fd, h, LIME_HEADER_BYTES, off) != 0) {
      af_set_err(err, errlen,
                 "%s: truncated LIME file: record %d at byte %lld has no complete header", path,
                 n, off);
      rc = -1;
      break;
    }
    if (af_load_be(h, 4) != LIME_MAGIC || af_load_be(h + 4, 2) != LIME_VERSION) {
      af_set_err(err, errlen,
                 "%s: damaged LIME file: no LIME record header (magic 0x456789ab, version 1) "
                 "at byte %lld",
                 path, off);
      rc = -1;
      break;
    }
    if (n == room) {
      room = room ? 2 * room : 8;
      hr_lime_record *grown = realloc(list, (size_t)room * sizeof *list);
      if (grown == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
      list = grown;
    }
    hr_lime_record *r = &list[n];
    memcpy(r->type, h + 16, LIME_TYPE_BYTES);
    r->type[LIME_TYPE_BYTES] = '\0';
    const unsigned flags = (unsigned)af_load_be(h + 6, 2);
    r->message_begin = (flags & LIME_FLAG_MB) != 0;
    r->message_end = (flags & LIME_FLAG_ME) != 0;
    r->bytes = (long long)af_load_be(h + 8, 8);
    r->data_at = off + LIME_HEADER_BYTES;
    if (r->bytes < 0 || r->bytes > file_bytes - r->data_at) {
      af_set_err(err, errlen,
                 "%s: truncated LIME file: record '%s' at byte %lld declares %lld bytes, the "
                 "file ends at %lld",
                 path, r->type, off, r->bytes, file_bytes);
      rc = -1;
      break;
    }
    off = r->data_at + pad8(r->bytes);
    ++n;
  }
  close(fd);
  if (rc != 0) {
    free(list);
    return -1;
  }
  *records = list;
  *count = n;
  return 0;
}

int archive_lime_records(const char *path, hr_lime_record **records, int *count, char *err,
                         size_t errlen) {
  long long file_bytes;
  return lime_list(path, records, count, &file_bytes, err, errlen);
}

/* Walk the records of `path` (lime_list) and keep what ILDG needs. */
static int lime_scan(const char *path, lime_contents *c, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  hr_lime_record *recs;
  int n;
  if (lime_list(path, &recs, &n, &c->file_bytes, err, errlen) != 0) return -1;
  int fd = open(path, O_RDONLY);
  int rc = fd >= 0 ? 0 : -1;
  if (rc != 0)
    af_set_err(err, errlen, "%s: cannot open the configuration file: %s", path,
               strerror(errno));
  for (int i = 0; i < n && rc == 0; ++i) {
    const hr_lime_record *r = &recs[i];
    if (strcmp(r->type, "ildg-format") == 0) {
      rc = read_text(fd, (off_t)r->data_at, r->bytes, c->format_xml, path, r->type, err, errlen);
      c->have_format = 1;
    } else if (strcmp(r->type, "scidac-checksum") == 0) {
      rc = read_text(fd, (off_t)r->data_at, r->bytes, c->checksum_xml, path, r->type, err,
                     errlen);
      c->have_checksum = 1;
    } else if (strcmp(r->type, "ildg-data-lfn") == 0) {
      rc = read_text(fd, (off_t)r->data_at, r->bytes, c->lfn, path, r->type, err, errlen);
      c->have_lfn = 1;
    } else if (strcmp(r->type, "ildg-binary-data") == 0) {
      c->binary_offset = (off_t)r->data_at;
      c->binary_bytes = r->bytes;
      c->have_binary = 1;
    }
  }
  if (fd >= 0) close(fd);
  free(recs);
  if (rc == 0 && (!c->have_format || !c->have_binary)) {
    af_set_err(err, errlen, "%s: not an ILDG file: the LIME file has no %s record", path,
               c->have_format ? "ildg-binary-data" : "ildg-format");
    rc = -1;
  }
  return rc;
}

/* The integer between <tag> and </tag> of xml; -1 when absent. Text value into buf if given. */
static long xml_value(const char *xml, const char *tag, char *buf, size_t len) {
  char open_tag[64];
  snprintf(open_tag, sizeof open_tag, "<%s>", tag);
  const char *p = strstr(xml, open_tag);
  if (p == NULL) return -1;
  p += strlen(open_tag);
  const char *e = strchr(p, '<');
  if (e == NULL) return -1;
  if (buf != NULL) {
    size_t n = (size_t)(e - p) < len - 1 ? (size_t)(e - p) : len - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
  }
  char *end;
  long v = strtol(p, &end, 10);
  return end == p ? -1 : v;
}

/* ILDG field name of SU(n) gauge links ("su3gauge" for n = 3, as in the ILDG schema). */
static void field_name(int n, char *buf, size_t len) { snprintf(buf, len, "su%dgauge", n); }

/* Fill *info from the records. */
static int info_from_contents(const char *path, const lime_contents *c, hr_archive_info *info,
                              char *err, size_t errlen) {
  memset(info, 0, sizeof *info);
  info->format = HR_ARCHIVE_ILDG;
  info->plaquette = NAN;
  info->has_plaquette = 0;
  info->file_bytes = c->file_bytes;
  char field[64] = "";
  xml_value(c->format_xml, "field", field, sizeof field);
  if (sscanf(field, "su%dgauge", &info->ng) != 1 || info->ng < 2 || info->ng > 64) {
    af_set_err(err, errlen, "%s: the ildg-format record names the field '%s', not suNgauge",
               path, field);
    return -1;
  }
  info->precision = (int)xml_value(c->format_xml, "precision", NULL, 0);
  static const char *tags[4] = {"lt", "lx", "ly", "lz"};
  long long vol = 1;
  for (int mu = 0; mu < 4; ++mu) {
    const long v = xml_value(c->format_xml, tags[mu], NULL, 0);
    if (v < 1 || v > (1 << 20)) {
      af_set_err(err, errlen, "%s: the ildg-format record has no valid <%s>", path, tags[mu]);
      return -1;
    }
    info->size[mu] = (int)v;
    vol *= v;
  }
  if (info->precision != 32 && info->precision != 64) {
    af_set_err(err, errlen, "%s: the ildg-format record gives precision %d (32 or 64 expected)",
               path, info->precision);
    return -1;
  }
  const long long want = vol * 4 * 2 * info->ng * info->ng * (info->precision / 8);
  /* the size check of the callers compares these two */
  info->expected_bytes = c->file_bytes - c->binary_bytes + want;
  return 0;
}

int ildg_is_lime(const char *path) {
  unsigned char h[4];
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  const int ok = af_pread_all(fd, h, 4, 0) == 0 && af_load_be(h, 4) == LIME_MAGIC;
  close(fd);
  return ok;
}

int ildg_probe(const char *path, hr_archive_info *info, char *err, size_t errlen) {
  lime_contents *c = malloc(sizeof *c);
  if (c == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
  int rc = lime_scan(path, c, err, errlen);
  if (rc == 0) rc = info_from_contents(path, c, info, err, errlen);
  free(c);
  return rc;
}

/* suma and sumb of the scidac-checksum record (hexadecimal, 32 bits). Returns 0, or -1 with
 * err when the record lacks them. */
static int checksum_record_values(const char *path, const lime_contents *c, uint32_t *suma,
                                  uint32_t *sumb, char *err, size_t errlen) {
  char a[64] = "", b[64] = "";
  xml_value(c->checksum_xml, "suma", a, sizeof a);
  xml_value(c->checksum_xml, "sumb", b, sizeof b);
  char *ea, *eb;
  const unsigned long fa = strtoul(a, &ea, 16), fb = strtoul(b, &eb, 16);
  if (ea == a || eb == b || fa > 0xffffffffUL || fb > 0xffffffffUL) {
    af_set_err(err, errlen, "%s: the scidac-checksum record has no suma/sumb", path);
    return -1;
  }
  *suma = (uint32_t)fa;
  *sumb = (uint32_t)fb;
  return 0;
}

/* ------------------------------------------------------------------ inspection */

int archive_lime_record_text(const char *path, const hr_lime_record *r, char *text, size_t len,
                             char *err, size_t errlen) {
  if (len == 0 || r->bytes > (long long)len - 1) return 1;
  char *buf = malloc((size_t)r->bytes + 1);
  if (buf == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
  int fd = open(path, O_RDONLY);
  if (fd < 0 || af_pread_all(fd, buf, (size_t)r->bytes, (off_t)r->data_at) != 0) {
    af_set_err(err, errlen, "%s: cannot read the %s record: %s", path, r->type,
               strerror(errno));
    if (fd >= 0) close(fd);
    free(buf);
    return -1;
  }
  close(fd);
  size_t n = (size_t)r->bytes;
  while (n > 0 && buf[n - 1] == '\0') --n; /* some writers count the C string's NUL */
  int is_text = 1;
  for (size_t i = 0; i < n && is_text; ++i) {
    const unsigned char ch = (unsigned char)buf[i];
    is_text = ch >= 0x20 ? ch != 0x7f : ch == '\t' || ch == '\n' || ch == '\r';
  }
  if (is_text) {
    memcpy(text, buf, n);
    text[n] = '\0';
  }
  free(buf);
  return is_text ? 0 : 1;
}

int archive_ildg_lfn(const char *path, char *lfn, size_t len, char *err, size_t errlen) {
  lime_contents *c = malloc(sizeof *c);
  if (c == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
  int rc = lime_scan(path, c, err, errlen);
  if (rc == 0) {
    rc = c->have_lfn;
    if (rc && len > 0) snprintf(lfn, len, "%s", c->lfn);
  }
  free(c);
  return rc;
}

int archive_ildg_checksum(const char *path, hr_ildg_checksum *sums, char *err, size_t errlen) {
  memset(sums, 0, sizeof *sums);
  lime_contents *c = malloc(sizeof *c);
  if (c == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
  hr_archive_info info;
  memset(&info, 0, sizeof info);
  int rc = lime_scan(path, c, err, errlen) == 0 &&
                   info_from_contents(path, c, &info, err, errlen) == 0
               ? 0
               : -1;
  if (rc == 0 && c->have_checksum) {
    rc = checksum_record_values(path, c, &sums->file_suma, &sums->file_sumb, err, errlen);
    sums->in_file = rc == 0;
  }
  const long long nsites = (long long)info.size[0] * info.size[1] * info.size[2] * info.size[3];
  const size_t sb = (size_t)4 * 2 * info.ng * info.ng * (info.precision / 8);
  if (rc == 0 && c->binary_bytes != nsites * (long long)sb) {
    af_set_err(err, errlen,
               "%s: wrong size of the ildg-binary-data record: %lld bytes, the ildg-format "
               "record implies %lld (truncated or damaged file)",
               path, c->binary_bytes, nsites * (long long)sb);
    rc = -1;
  }
  if (rc == 0) {
    /* whole lines of x in file order: the rank of a site is its position in the record */
    const long long chunk = info.size[1];
    unsigned char *buf = malloc((size_t)chunk * sb);
    int fd = open(path, O_RDONLY);
    uint32_t s[2] = {0, 0};
    rc = buf != NULL && fd >= 0 ? 0 : -1;
    for (long long r0 = 0; r0 < nsites && rc == 0; r0 += chunk) {
      const off_t at = c->binary_offset + (off_t)(r0 * (long long)sb);
      rc = af_pread_all(fd, buf, (size_t)chunk * sb, at);
      for (long long k = 0; k < chunk && rc == 0; ++k)
        scidac_add_site(s, r0 + k, buf + (size_t)k * sb, sb);
    }
    if (rc != 0)
      af_set_err(err, errlen, "%s: cannot read the ildg-binary-data record: %s", path,
                 strerror(errno));
    if (fd >= 0) close(fd);
    free(buf);
    sums->data_suma = s[0];
    sums->data_sumb = s[1];
  }
  free(c);
  return rc;
}

/* ------------------------------------------------------------------ site data */

/* ILDG direction d (x, y, z, t) -> LibHR direction (t = 0). */
static int libhr_dir(int d) { return (d + 1) % 4; }

/* Rank of the global site g (LibHR order t, x, y, z) in the file: x fastest, t slowest. */
static long long ildg_rank(const int g[4]) {
  return (((long long)g[0] * GLB_Z + g[3]) * GLB_Y + g[2]) * GLB_X + g[1];
}

/* Bytes of one site in the file. */
static size_t site_bytes(int precision) { return (size_t)4 * 2 * NG * NG * (precision / 8); }

/* Site ix <-> its file bytes (big-endian, `precision` bits). */
static void site_to_file(unsigned char *b, const suNg_field *u, int ix, int precision) {
  for (int d = 0; d < 4; ++d) {
    const double *c = (const double *)_4FIELD_AT(u, ix, libhr_dir(d))->c;
    for (int k = 0; k < 2 * NG * NG; ++k) {
      if (precision == 64) {
        af_store_be(b, af_double_bits(c[k]), 8);
        b += 8;
      } else {
        af_store_be(b, af_float_bits((float)c[k]), 4);
        b += 4;
      }
    }
  }
}
static void site_from_file(const unsigned char *b, int precision, suNg_field *u, int ix) {
  for (int d = 0; d < 4; ++d) {
    double *c = (double *)_4FIELD_AT(u, ix, libhr_dir(d))->c;
    for (int k = 0; k < 2 * NG * NG; ++k) {
      if (precision == 64) {
        c[k] = af_bits_double(af_load_be(b, 8));
        b += 8;
      } else {
        c[k] = (double)af_bits_float((uint32_t)af_load_be(b, 4));
        b += 4;
      }
    }
  }
}

/* Read (writing = 0) or write the local sites, one contiguous run of X sites per local
 * (t, z, y), and accumulate the SciDAC sums of those sites. */
static int ildg_io_body(int fd, off_t base, int precision, suNg_field *u, int writing,
                        uint32_t sums[2]) {
  const size_t sb = site_bytes(precision);
  unsigned char *buf = malloc((size_t)LOC_X * sb);
  if (buf == NULL) return -1;
  int ok = 1;
  for (int t = 0; t < LOC_T && ok; ++t)
    for (int z = 0; z < LOC_Z && ok; ++z)
      for (int y = 0; y < LOC_Y && ok; ++y) {
        const int g[4] = {ZERO_COORD[0] + t, ZERO_COORD[1], ZERO_COORD[2] + y,
                          ZERO_COORD[3] + z};
        const long long r0 = ildg_rank(g);
        const off_t off = base + (off_t)r0 * (off_t)sb;
        if (writing) {
          for (int x = 0; x < LOC_X; ++x) site_to_file(buf + x * sb, u, ipt(t, x, y, z), precision);
          ok = af_pwrite_all(fd, buf, (size_t)LOC_X * sb, off) == 0;
        } else {
          ok = af_pread_all(fd, buf, (size_t)LOC_X * sb, off) == 0;
          if (ok)
            for (int x = 0; x < LOC_X; ++x) site_from_file(buf + x * sb, precision, u, ipt(t, x, y, z));
        }
        if (ok)
          for (int x = 0; x < LOC_X; ++x) scidac_add_site(sums, r0 + x, buf + x * sb, sb);
      }
  free(buf);
  return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ read */

int ildg_read_checked(const char *path, suNg_field *u, char *err, size_t errlen) {
  lime_contents *c = malloc(sizeof *c);
  if (c == NULL) hr_fatal(HR_EXIT_SETUP, "out of memory");
  hr_archive_info info;
  int ok = lime_scan(path, c, err, errlen) == 0 &&
           info_from_contents(path, c, &info, err, errlen) == 0;
  if (ok && info.ng != NG) {
    af_set_err(err, errlen,
               "%s: wrong gauge group: the file holds SU(%d) links, this build is SU(%d) "
               "(configure --with-ng=%d to read it)",
               path, info.ng, NG, info.ng);
    ok = 0;
  }
  if (ok && af_check_lattice(path, info.size, err, errlen) != 0) ok = 0;
  if (ok && info.expected_bytes != info.file_bytes) {
    af_set_err(err, errlen,
               "%s: wrong size of the ildg-binary-data record: %lld bytes, the ildg-format "
               "record implies %lld (truncated or damaged file)",
               path, c->binary_bytes, c->binary_bytes + info.expected_bytes - info.file_bytes);
    ok = 0;
  }
  if (!af_all_ok(ok)) {
    if (ok) af_set_err(err, errlen, "%s: the ILDG header check failed on another process", path);
    free(c);
    return -1;
  }
  host_write_suNg_field(u);
  uint32_t sums[2] = {0, 0};
  int fd = open(path, O_RDONLY);
  ok = fd >= 0;
  if (ok) {
    ok = ildg_io_body(fd, c->binary_offset, info.precision, u, 0, sums) == 0;
    close(fd);
  }
  if (!af_all_ok(ok)) {
    af_set_err(err, errlen, "%s: reading the links failed on %s: %s", path,
               ok ? "another process" : "this process", ok ? "see its message" : strerror(errno));
    free(c);
    return -1;
  }
  scidac_reduce(sums);
  if (c->have_checksum) {
    uint32_t fa, fb;
    if (checksum_record_values(path, c, &fa, &fb, err, errlen) != 0) {
      free(c);
      return -1;
    }
    if (fa != sums[0] || fb != sums[1]) {
      af_set_err(err, errlen,
                 "%s: checksum mismatch: the scidac-checksum record says suma=%" PRIx32
                 " sumb=%" PRIx32 ", the data give suma=%08" PRIx32 " sumb=%08" PRIx32
                 " (damaged file)",
                 path, fa, fb, sums[0], sums[1]);
      free(c);
      return -1;
    }
  } else {
    lprintf("ARCHIVE", 0, "WARNING: %s has no scidac-checksum record: data not verified\n",
            path);
  }
  sync_host_suNg_field(u);
  sendrecv_field(u->type, HR_LAYOUT_GAUGE, u->ptr, 4 * sizeof(suNg));
  lprintf("ARCHIVE", 10,
          "read %s (ILDG, SU(%d), %dx%dx%dx%d, %d-bit%s%s), SciDAC checksum %08" PRIx32
          " %08" PRIx32 " checked\n",
          path, info.ng, info.size[0], info.size[1], info.size[2], info.size[3], info.precision,
          c->have_lfn ? ", lfn " : "", c->have_lfn ? c->lfn : "", sums[0], sums[1]);
  free(c);
  return 0;
}

/* ------------------------------------------------------------------ write */

/* A LIME record header into h. */
static void lime_header(unsigned char h[LIME_HEADER_BYTES], const char *type, long long len,
                        unsigned flags) {
  memset(h, 0, LIME_HEADER_BYTES);
  af_store_be(h, LIME_MAGIC, 4);
  af_store_be(h + 4, LIME_VERSION, 2);
  af_store_be(h + 6, flags, 2);
  af_store_be(h + 8, (uint64_t)len, 8);
  strncpy((char *)h + 16, type, LIME_TYPE_BYTES - 1);
}

/* Append one record (header, data, zero padding) to s. */
static int lime_put(FILE *s, const char *type, const void *data, long long len, unsigned flags) {
  unsigned char h[LIME_HEADER_BYTES];
  static const unsigned char zeros[8] = {0};
  lime_header(h, type, len, flags);
  return fwrite(h, 1, LIME_HEADER_BYTES, s) == LIME_HEADER_BYTES &&
                 (len == 0 || fwrite(data, 1, (size_t)len, s) == (size_t)len) &&
                 fwrite(zeros, 1, (size_t)(pad8(len) - len), s) == (size_t)(pad8(len) - len)
             ? 0
             : -1;
}

int archive_write_ildg_checked(const char *path, suNg_field *u, int precision_bits,
                               const char *lfn, char *err, size_t errlen) {
  if (precision_bits != 32 && precision_bits != 64) {
    af_set_err(err, errlen, "%s: ILDG precision must be 32 or 64, not %d", path, precision_bits);
    return -1;
  }
  sync_host_suNg_field(u);
  char field[32], xml[1024];
  field_name(NG, field, sizeof field);
  snprintf(xml, sizeof xml,
           "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<ildgFormat xmlns=\"http://www.lqcd.org/ildg\" "
           "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
           "xsi:schemaLocation=\"http://www.lqcd.org/ildg http://www.lqcd.org/ildg/filefmt.xsd\">\n"
           "  <version>1.0</version>\n  <field>%s</field>\n  <precision>%d</precision>\n"
           "  <lx>%d</lx>\n  <ly>%d</ly>\n  <lz>%d</lz>\n  <lt>%d</lt>\n</ildgFormat>\n",
           field, precision_bits, GLB_X, GLB_Y, GLB_Z, GLB_T);
  const long long binary = (long long)GLB_VOLUME * (long long)site_bytes(precision_bits);
  char csum[256];
  const int csum_len = snprintf(csum, sizeof csum, CHECKSUM_XML_FORMAT, (uint32_t)0, (uint32_t)0);
  const int with_lfn = lfn != NULL && lfn[0] != '\0';

  /* process 0: temporary file with the records before the binary data and its header */
  char temp[4096] = "";
  hr_ofile *of = NULL;
  int ok = 1, saved_errno = 0;
  long long binary_offset = 0;
  if (hr_rank() == 0) {
    of = hr_ofile_open(path, "wb");
    ok = of != NULL;
    if (ok) {
      FILE *s = hr_ofile_stream(of);
      unsigned char h[LIME_HEADER_BYTES];
      lime_header(h, "ildg-binary-data", binary, 0);
      ok = lime_put(s, "ildg-format", xml, (long long)strlen(xml), LIME_FLAG_MB) == 0 &&
           (!with_lfn || lime_put(s, "ildg-data-lfn", lfn, (long long)strlen(lfn), 0) == 0) &&
           fwrite(h, 1, LIME_HEADER_BYTES, s) == LIME_HEADER_BYTES && fflush(s) == 0 &&
           af_ofile_temp_name(of, temp, sizeof temp) == 0;
      binary_offset = ftell(s);
    }
    if (!ok) saved_errno = errno;
  }
#if HR_WITH_MPI
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(temp, (int)sizeof temp, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Bcast(&binary_offset, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
#endif
  if (!ok) {
    if (of != NULL) hr_ofile_abort(of);
    af_set_err(err, errlen, "%s: cannot create the temporary output file: %s", path,
               saved_errno ? strerror(saved_errno) : "see process 0");
    return -1;
  }
  uint32_t sums[2] = {0, 0};
  int fd = open(temp, O_WRONLY);
  ok = fd >= 0;
  if (ok) ok = ildg_io_body(fd, (off_t)binary_offset, precision_bits, u, 1, sums) == 0;
  if (!ok) saved_errno = errno;
  scidac_reduce(sums);
  /* process 0: padding of the binary data and the checksum record after it */
  if (ok && hr_rank() == 0) {
    static const unsigned char zeros[8] = {0};
    unsigned char h[LIME_HEADER_BYTES];
    const off_t end = (off_t)(binary_offset + binary);
    snprintf(csum, sizeof csum, CHECKSUM_XML_FORMAT, sums[0], sums[1]);
    lime_header(h, "scidac-checksum", csum_len, LIME_FLAG_ME);
    const off_t coff = end + (off_t)(pad8(binary) - binary);
    ok = af_pwrite_all(fd, zeros, (size_t)(pad8(binary) - binary), end) == 0 &&
         af_pwrite_all(fd, h, LIME_HEADER_BYTES, coff) == 0 &&
         af_pwrite_all(fd, csum, (size_t)csum_len, coff + LIME_HEADER_BYTES) == 0 &&
         af_pwrite_all(fd, zeros, (size_t)(pad8(csum_len) - csum_len),
                       coff + LIME_HEADER_BYTES + csum_len) == 0;
    if (!ok) saved_errno = errno;
  }
  if (fd >= 0) {
    if (ok && fsync(fd) != 0) ok = 0, saved_errno = errno;
    if (close(fd) != 0 && ok) ok = 0, saved_errno = errno;
  }
  ok = af_commit_all(of, ok, &saved_errno);
  if (!ok) {
    af_set_err(err, errlen, "%s: writing the ILDG file failed: %s", path,
               saved_errno ? strerror(saved_errno) : "on another process");
    return -1;
  }
  lprintf("ARCHIVE", 10, "wrote %s (ILDG, %d-bit), SciDAC checksum %08" PRIx32 " %08" PRIx32 "\n",
          path, precision_bits, sums[0], sums[1]);
  return 0;
}
