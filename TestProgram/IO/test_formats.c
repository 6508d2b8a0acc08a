/* test_formats.c -- the community formats ILDG (LIME) and NERSC, on the process grid of the
 * arguments (NP_T NP_X NP_Y NP_Z):
 *  - CRC-32: the published check value of "123456789" (0xCBF43926) and agreement with a
 *    bit-by-bit CRC written here on random bytes;
 *  - ILDG written by LibHR, checked by an independent LIME reader written here: record
 *    headers (magic, version, MB/ME flags, lengths, 8-byte padding), the record order, the
 *    ildg-format XML, the lfn, every link at its ILDG position (x fastest, mu = x,y,z,t,
 *    big-endian), the SciDAC checksum recomputed here; read back bitwise (64-bit) and as
 *    float-rounded links (32-bit);
 *  - a flipped data byte fails the checksum, a damaged record header and a truncated file are
 *    refused;
 *  - stored configurations (SU(3)): HiRep -> ILDG -> HiRep and openQCD -> ILDG -> openQCD
 *    reproduce the files byte for byte (HiRep: the link bytes of the stored file, and all
 *    of the file LibHR writes directly, whose header plaquette is recomputed);
 *  - the inspection API (converter --info): LIME records, record text, lfn, checksum of the
 *    record and of the data, header fields of HiRep and NERSC files; the deviation of links
 *    from SU(N): random SU(N) and reunitarised float-rounded links below 1e-14, float-rounded
 *    ones at single-precision rounding;
 *  - NERSC (SU(3)): files written here (3x3 big-endian double; 2-row little-endian single)
 *    are read with the right links; a wrong checksum or plaquette is refused, and so is a
 *    header with none of CHECKSUM, PLAQUETTE and LINK_TRACE (one of them suffices). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>

#include "../Observables/obs_test.h"
#include "md.h"

static char grid_name[64];
static int np[4];

static int says(const char *err, const char *what) { return strstr(err, what) != NULL; }

/* ------------------------------------------------------------------ independent helpers */

/* CRC-32 bit by bit from its definition (reflected polynomial 0xEDB88320, preset and final
 * complement), without a table. */
static uint32_t bitwise_crc32(const unsigned char *p, size_t n) {
  uint32_t r = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) {
    r ^= p[i];
    for (int k = 0; k < 8; ++k) r = (r >> 1) ^ (0xEDB88320u & (0u - (r & 1u)));
  }
  return r ^ 0xffffffffu;
}

static uint64_t be_load(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = v * 256u + p[i];
  return v;
}

/* Whole file into memory (every rank reads it; small files). */
static unsigned char *slurp(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  *len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)*len + 1);
  if (fread(b, 1, (size_t)*len, f) != (size_t)*len) {
    free(b);
    b = NULL;
  }
  fclose(f);
  return b;
}

/* Rank 0: copy src to dst, first `keep` bytes (keep < 0: all), the byte at flip_at XOR mask. */
static void copy_modified(const char *src, const char *dst, long keep, long flip_at, int mask) {
  if (hr_rank() == 0) {
    long len;
    unsigned char *b = slurp(src, &len);
    FILE *out = fopen(dst, "wb");
    if (b == NULL || out == NULL) exit(1);
    if (flip_at >= 0 && flip_at < len) b[flip_at] ^= (unsigned char)mask;
    fwrite(b, 1, (size_t)(keep < 0 ? len : keep), out);
    fclose(out);
    free(b);
  }
  global_barrier();
}

/* Whether files a and b have the same size and the same bytes from offset skip on. */
static int files_equal_from(const char *a, const char *b, long skip) {
  long la, lb;
  unsigned char *x = slurp(a, &la), *y = slurp(b, &lb);
  const int eq = x != NULL && y != NULL && la == lb && la >= skip &&
                 memcmp(x + skip, y + skip, (size_t)(la - skip)) == 0;
  free(x);
  free(y);
  return eq;
}

/* ------------------------------------------------------------------ CRC */

static void crc_cases(void) {
  CHECK(hr_crc32(0, "123456789", 9) == 0xCBF43926u, "CRC-32 check value %08" PRIx32,
        hr_crc32(0, "123456789", 9));
  unsigned char buf[1000];
  uint32_t s = 12345;
  for (int i = 0; i < 1000; ++i) buf[i] = (unsigned char)((s = s * 1103515245u + 12345u) >> 16);
  CHECK(hr_crc32(0, buf, 1000) == bitwise_crc32(buf, 1000), "CRC-32 table vs bitwise");
  CHECK(hr_crc32(hr_crc32(0, buf, 300), buf + 300, 700) == hr_crc32(0, buf, 1000),
        "CRC-32 continued");
  tc_case_end("CRC-32: check value, bitwise definition, continuation");
}

/* ------------------------------------------------------------------ ILDG layout */

/* The independent LIME reader: checks the layout of a LibHR ILDG file of the current
 * geometry against the links of u; returns the number of failed checks (all ranks). */
static int check_ildg_layout(const char *path, const suNg_field *u, int precision,
                             const char *lfn) {
  long len;
  unsigned char *f = slurp(path, &len);
  int bad = 0;
  if (f == NULL) return 1;
  const char *want_types[4] = {"ildg-format", "ildg-data-lfn", "ildg-binary-data",
                               "scidac-checksum"};
  int want_n = 0;
  const char *types[4];
  for (int k = 0; k < 4; ++k)
    if (k != 1 || lfn != NULL) types[want_n++] = want_types[k];
  long off = 0;
  int nrec = 0;
  long bin_off = -1, bin_len = -1;
  char fmt[4096] = "", csum[4096] = "";
  while (off < len) {
    if (off % 8 != 0 || off + 144 > len) {
      bad++;
      break;
    }
    const unsigned char *h = f + off;
    bad += be_load(h, 4) != 0x456789abu;
    bad += be_load(h + 4, 2) != 1;
    const unsigned flags = (unsigned)be_load(h + 6, 2);
    bad += ((flags & 0x8000u) != 0) != (nrec == 0);          /* MB on the first record only */
    bad += ((flags & 0x4000u) != 0) != (nrec == want_n - 1); /* ME on the last */
    bad += (flags & 0x3fffu) != 0;
    const long dl = (long)be_load(h + 8, 8);
    char type[129];
    memcpy(type, h + 16, 128);
    type[128] = 0;
    if (nrec < want_n) bad += strcmp(type, types[nrec]) != 0;
    const unsigned char *d = f + off + 144;
    if (strcmp(type, "ildg-format") == 0 && dl < 4096) memcpy(fmt, d, (size_t)dl);
    if (strcmp(type, "scidac-checksum") == 0 && dl < 4096) memcpy(csum, d, (size_t)dl);
    if (strcmp(type, "ildg-data-lfn") == 0)
      bad += lfn == NULL || (long)strlen(lfn) != dl || memcmp(d, lfn, (size_t)dl) != 0;
    if (strcmp(type, "ildg-binary-data") == 0) bin_off = off + 144, bin_len = dl;
    const long padded = (dl + 7) / 8 * 8;
    for (long i = dl; i < padded; ++i) bad += d[i] != 0;
    off += 144 + padded;
    ++nrec;
  }
  bad += off != len;
  bad += nrec != want_n;
  if (bad) lprintf("TEST", 0, "LIME structure: %d problems\n", bad);
  char tag[128];
  snprintf(tag, sizeof tag, "<field>su%dgauge</field>", NG);
  bad += strstr(fmt, tag) == NULL;
  snprintf(tag, sizeof tag, "<precision>%d</precision>", precision);
  bad += strstr(fmt, tag) == NULL;
  const char *names[4] = {"lt", "lx", "ly", "lz"};
  for (int mu = 0; mu < 4; ++mu) {
    snprintf(tag, sizeof tag, "<%s>%d</%s>", names[mu], GLB_SIZE[mu], names[mu]);
    bad += strstr(fmt, tag) == NULL;
  }
  bad += strstr(fmt, "<ildgFormat") == NULL;
  const long rb = precision / 8, sb = 4L * NG * NG * 2 * rb;
  bad += bin_len != (long)GLB_VOLUME * sb;
  /* the SciDAC checksum from the file bytes */
  if (bad == 0) {
    uint32_t a = 0, b = 0;
    for (long r = 0; r < (long)GLB_VOLUME; ++r) {
      const uint32_t c = bitwise_crc32(f + bin_off + r * sb, (size_t)sb);
      const unsigned s29 = (unsigned)(r % 29), s31 = (unsigned)(r % 31);
      a ^= s29 ? (c << s29) | (c >> (32 - s29)) : c;
      b ^= s31 ? (c << s31) | (c >> (32 - s31)) : c;
    }
    char want[128];
    snprintf(want, sizeof want, "<suma>%08" PRIx32 "</suma><sumb>%08" PRIx32 "</sumb>", a, b);
    if (strstr(csum, want) == NULL) {
      lprintf("TEST", 0, "checksum record '%s' lacks '%s'\n", csum, want);
      bad++;
    }
    /* every local link at its ILDG position */
    double wrong = 0;
    _MASTER_FOR(&glattice, ix) {
      int g[4];
      global_coordinates(g, ix);
      const long r = (((long)g[0] * GLB_Z + g[3]) * GLB_Y + g[2]) * GLB_X + g[1];
      const unsigned char *p = f + bin_off + r * sb;
      for (int d = 0; d < 4; ++d) {
        const double *c = (const double *)_4FIELD_AT(u, ix, (d + 1) % 4)->c;
        for (int k = 0; k < 2 * NG * NG; ++k, p += rb) {
          double v;
          if (rb == 8) {
            const uint64_t bits = be_load(p, 8);
            memcpy(&v, &bits, 8);
          } else {
            const uint32_t bits = (uint32_t)be_load(p, 4);
            float fv;
            memcpy(&fv, &bits, 4);
            v = fv;
          }
          const double expect = rb == 8 ? c[k] : (double)(float)c[k];
          wrong += v != expect;
        }
      }
    }
    global_sum(&wrong, 1);
    if (wrong != 0) lprintf("TEST", 0, "%g link numbers at the wrong place\n", wrong);
    bad += wrong != 0;
  }
  free(f);
  return bad;
}

static void ildg_cases(void) {
  const int glb[4] = {8, 4, 2, 6};
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new(), *v = ot_gauge_new();
  rng_init(77);
  gauge_field_hot(u);
  char f[256], g[256], err[2048];
  snprintf(f, sizeof f, "fmt_%s.ildg", grid_name);
  snprintf(g, sizeof g, "fmt_%s.bad", grid_name);
  const char *lfn = "lfn://ldg/libhr/test/conf_1";
  CHECK(archive_write_ildg_checked(f, u, 64, lfn, err, sizeof err) == 0, "%s", err);
  CHECK(check_ildg_layout(f, u, 64, lfn) == 0, "layout of the 64-bit ILDG file");
  hr_archive_info info;
  CHECK(archive_probe(&info, f, err, sizeof err) == 0 && info.format == HR_ARCHIVE_ILDG &&
            info.ng == NG && info.size[0] == 8 && info.size[1] == 4 && info.size[2] == 2 &&
            info.size[3] == 6 && info.precision == 64 && !info.has_plaquette &&
            info.file_bytes == info.expected_bytes,
        "probe: %s", err);
  CHECK(archive_read_checked(v, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) == 0,
        "%s", err);
  CHECK(ot_links_differ(u, v) == 0, "64-bit ILDG round trip changed links");
  tc_case_end("ILDG 64-bit with lfn: LIME layout, links, checksum (independent reader)");

  /* the inspection API of converter --info */
  hr_lime_record *recs = NULL;
  int nrec = 0;
  CHECK(archive_lime_records(f, &recs, &nrec, err, sizeof err) == 0 && nrec == 4, "records: %s",
        err);
  static const char *const types[4] = {"ildg-format", "ildg-data-lfn", "ildg-binary-data",
                                       "scidac-checksum"};
  for (int i = 0; i < nrec && i < 4; ++i)
    CHECK(strcmp(recs[i].type, types[i]) == 0 && recs[i].message_begin == (i == 0) &&
              recs[i].message_end == (i == 3),
          "record %d: '%s' MB %d ME %d", i, recs[i].type, recs[i].message_begin,
          recs[i].message_end);
  char text[4096] = "";
  if (nrec == 4) {
    CHECK(recs[2].bytes == (long long)GLB_VOLUME * 4 * 2 * NG * NG * 8, "binary record bytes");
    CHECK(archive_lime_record_text(f, &recs[1], text, sizeof text, err, sizeof err) == 0 &&
              strcmp(text, lfn) == 0,
          "lfn record text '%s'", text);
    CHECK(archive_lime_record_text(f, &recs[2], text, sizeof text, err, sizeof err) == 1,
          "the binary record is not text");
  }
  free(recs);
  CHECK(archive_ildg_lfn(f, text, sizeof text, err, sizeof err) == 1 && strcmp(text, lfn) == 0,
        "lfn '%s' (%s)", text, err);
  hr_ildg_checksum sums;
  CHECK(archive_ildg_checksum(f, &sums, err, sizeof err) == 0 && sums.in_file &&
            sums.file_suma == sums.data_suma && sums.file_sumb == sums.data_sumb,
        "checksum of the record and of the data: %s", err);
  double unitarity, det;
  gauge_field_suN_deviation(u, &unitarity, &det);
  CHECK(unitarity < 1e-14 && det < 1e-14, "random SU(N) links: deviation %g %g", unitarity, det);
  tc_case_end("ILDG inspection: records, text, lfn, checksum; SU(N) deviation");

  CHECK(archive_write_ildg_checked(f, u, 32, NULL, err, sizeof err) == 0, "%s", err);
  CHECK(check_ildg_layout(f, u, 32, NULL) == 0, "layout of the 32-bit ILDG file");
  CHECK(archive_read_checked(v, f, HR_ARCHIVE_ILDG, HR_ARCHIVE_BC_AUTO, err, sizeof err) == 0,
        "%s", err);
  double wrong = 0;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      const double *a = (const double *)_4FIELD_AT(u, ix, mu)->c;
      const double *b = (const double *)_4FIELD_AT(v, ix, mu)->c;
      for (int k = 0; k < 2 * NG * NG; ++k) wrong += b[k] != (double)(float)a[k];
    }
  }
  global_sum(&wrong, 1);
  CHECK(wrong == 0, "32-bit ILDG read gives %g numbers not equal to the float-rounded ones", wrong);
  CHECK(archive_ildg_lfn(f, err, sizeof err, err, sizeof err) == 0, "no lfn record");
  double unit32, det32;
  gauge_field_suN_deviation(v, &unit32, &det32);
  CHECK(unit32 > 1e-9 && unit32 < 1e-5 && det32 > 1e-9 && det32 < 1e-5,
        "float-rounded links: deviation %g %g (single-precision rounding expected)", unit32, det32);
  md_reunitarize_links(v);
  gauge_field_suN_deviation(v, &unit32, &det32);
  CHECK(unit32 < 1e-14 && det32 < 1e-14, "reunitarised links: deviation %g %g", unit32, det32);
  tc_case_end("ILDG 32-bit: layout, links rounded to float, their deviation from SU(N)");

  /* damaged files; offsets for the 64-bit file without lfn: format record, binary header */
  archive_write(f, HR_ARCHIVE_ILDG, HR_ARCHIVE_BC_AUTO, u);
  long len;
  unsigned char *b = slurp(f, &len);
  const long fmt_len = (long)be_load(b + 8, 8);
  const long bin_data = 144 + (fmt_len + 7) / 8 * 8 + 144;
  free(b);
  copy_modified(f, g, -1, bin_data + 1000, 0x01);
  int r = archive_read_checked(v, g, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r != 0 && says(err, "checksum mismatch") && says(err, g), "flipped data byte: '%s'", err);
  CHECK(archive_ildg_checksum(g, &sums, err, sizeof err) == 0 && sums.in_file &&
            (sums.file_suma != sums.data_suma || sums.file_sumb != sums.data_sumb),
        "flipped data byte: the data checksum equals the record's");
  global_barrier(); /* every process has read g before it changes */
  copy_modified(f, g, -1, bin_data - 144 + 1, 0x20); /* magic of the binary-data header */
  r = archive_read_checked(v, g, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r != 0 && says(err, "damaged LIME file"), "damaged record header: '%s'", err);
  copy_modified(f, g, len - 500, -1, 0);
  r = archive_read_checked(v, g, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r != 0 && says(err, "truncated"), "truncated: '%s'", err);
  r = archive_read_checked(v, f, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r != 0 && says(err, "not in the HiRep format"), "ILDG read as HiRep: '%s'", err);
  tc_case_end("ILDG: flipped byte, damaged header, truncation refused");
  char h[256];
  snprintf(h, sizeof h, "fmt_%s.hirep", grid_name);
  archive_write(h, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u);
  hr_archive_field *fields = NULL;
  int nfields = 0;
  CHECK(archive_header_fields(h, &fields, &nfields, err, sizeof err) == 0 && nfields == 6,
        "HiRep header fields: %d (%s)", nfields, err);
  if (nfields == 6) {
    static const char *const keys[5] = {"NG", "T", "X", "Y", "Z"};
    const int want[5] = {NG, 8, 4, 2, 6};
    for (int i = 0; i < 5; ++i)
      CHECK(strcmp(fields[i].key, keys[i]) == 0 && atoi(fields[i].value) == want[i],
            "HiRep header field %d: %s = %s", i, fields[i].key, fields[i].value);
    CHECK(strcmp(fields[5].key, "plaquette") == 0 &&
              strtod(fields[5].value, NULL) == avr_plaquette(u),
          "HiRep header plaquette %s = %s", fields[5].key, fields[5].value);
  }
  free(fields);
  CHECK(archive_header_fields(f, &fields, &nfields, err, sizeof err) == 0 && nfields == 0,
        "ILDG: no header fields (records instead)");
  free(fields);
  tc_case_end("HiRep header fields as stored");
  global_barrier(); /* every process has read h */
  if (hr_rank() == 0) {
    remove(f);
    remove(g);
    remove(h);
  }
  ot_gauge_free(u);
  ot_gauge_free(v);
}

/* Stored configurations: X -> ILDG -> X byte for byte, X = HiRep and openQCD. */
static void stored_round_trips(void) {
  if (NG != 3) return;
  const int glb[4] = {8, 8, 8, 8};
  ot_geometry(glb, np);
  const char *dir = ot_stored_dir();
  static const char *files[2] = {"HiRep_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1",
                                 "openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1"};
  static const hr_archive_format formats[2] = {HR_ARCHIVE_HIREP, HR_ARCHIVE_OPENQCD};
  suNg_field *u = ot_gauge_new(), *v = ot_gauge_new();
  for (int k = 0; k < 2; ++k) {
    char in[8192], il[256], out[256];
    snprintf(in, sizeof in, "%s/%s", dir, files[k]);
    snprintf(il, sizeof il, "fmt_rt_%s.ildg", grid_name);
    snprintf(out, sizeof out, "fmt_rt_%s.back", grid_name);
    archive_read(u, in, formats[k], HR_ARCHIVE_BC_AUTO);
    archive_write(il, HR_ARCHIVE_ILDG, HR_ARCHIVE_BC_AUTO, u);
    archive_read(v, il, HR_ARCHIVE_ILDG, HR_ARCHIVE_BC_AUTO);
    CHECK(ot_links_differ(u, v) == 0, "%s: links changed through ILDG", files[k]);
    archive_write(out, formats[k], HR_ARCHIVE_BC_AUTO, v);
    /* HiRep: LibHR recomputes the header plaquette (last digits differ from the stored
     * header), so the whole-file comparison is against the LibHR-written original */
    const long skip = formats[k] == HR_ARCHIVE_HIREP ? 28 : 0;
    CHECK(files_equal_from(in, out, skip), "%s -> ILDG -> %s: bytes from %ld differ from the "
          "stored file", files[k], archive_format_name(formats[k]), skip);
    char direct[256];
    snprintf(direct, sizeof direct, "fmt_rt_%s.direct", grid_name);
    archive_write(direct, formats[k], HR_ARCHIVE_BC_AUTO, u);
    CHECK(files_equal_from(direct, out, 0), "%s -> ILDG -> %s is not byte for byte the file "
          "written directly", files[k], archive_format_name(formats[k]));
    global_barrier();
    if (hr_rank() == 0) remove(direct);
    global_barrier();
    if (hr_rank() == 0) {
      remove(il);
      remove(out);
    }
  }
  tc_case_end("stored: HiRep -> ILDG -> HiRep and openQCD -> ILDG -> openQCD byte for byte");
  ot_gauge_free(u);
  ot_gauge_free(v);
}

/* ------------------------------------------------------------------ NERSC */

typedef double complex_pair[2];

/* A deterministic SU(3) matrix for link number n: Gram-Schmidt of two pseudo-random rows,
 * third row conj(row1 x row2); rows 1 and 2 first rounded to float when `single`. */
static void test_su3(long n, int single, hr_complex m[3][3]) {
  uint64_t s = 0x9E3779B97F4A7C15ull * (uint64_t)(n + 1);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      double re, im;
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      re = (double)(s >> 11) / 9007199254740992.0 - 0.5;
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      im = (double)(s >> 11) / 9007199254740992.0 - 0.5;
      m[r][c] = re + I * im;
    }
  double n0 = 0;
  for (int c = 0; c < 3; ++c) n0 += creal(m[0][c] * conj(m[0][c]));
  for (int c = 0; c < 3; ++c) m[0][c] /= sqrt(n0);
  hr_complex p = 0;
  for (int c = 0; c < 3; ++c) p += conj(m[0][c]) * m[1][c];
  for (int c = 0; c < 3; ++c) m[1][c] -= p * m[0][c];
  double n1 = 0;
  for (int c = 0; c < 3; ++c) n1 += creal(m[1][c] * conj(m[1][c]));
  for (int c = 0; c < 3; ++c) m[1][c] /= sqrt(n1);
  if (single)
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c) m[r][c] = (float)creal(m[r][c]) + I * (double)(float)cimag(m[r][c]);
  for (int c = 0; c < 3; ++c) {
    const int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
    m[2][c] = conj(m[0][c1] * m[1][c2] - m[0][c2] * m[1][c1]);
  }
  if (single)
    for (int c = 0; c < 3; ++c) m[2][c] = (float)creal(m[2][c]) + I * (double)(float)cimag(m[2][c]);
}

/* Link number of U_mu at global (t, x, y, z), LibHR mu. */
static long link_no(const int g[4], int mu) {
  return ((((long)g[0] * GLB_X + g[1]) * GLB_Y + g[2]) * GLB_Z + g[3]) * 4 + mu;
}

/* Plaquette average Re tr / 3 and link trace of the test field, computed here. */
static void test_field_values(int single, double *plaq, double *trace) {
  double ps = 0, ts = 0;
  for (int t = 0; t < GLB_T; ++t)
    for (int x = 0; x < GLB_X; ++x)
      for (int y = 0; y < GLB_Y; ++y)
        for (int z = 0; z < GLB_Z; ++z) {
          const int g[4] = {t, x, y, z};
          for (int mu = 0; mu < 4; ++mu) {
            hr_complex a[3][3];
            test_su3(link_no(g, mu), single, a);
            for (int i = 0; i < 3; ++i) ts += creal(a[i][i]);
            for (int nu = mu + 1; nu < 4; ++nu) {
              int gm[4] = {t, x, y, z}, gn[4] = {t, x, y, z};
              gm[mu] = (gm[mu] + 1) % GLB_SIZE[mu];
              gn[nu] = (gn[nu] + 1) % GLB_SIZE[nu];
              hr_complex b[3][3], c[3][3], d[3][3];
              test_su3(link_no(g, nu), single, d);
              test_su3(link_no(gm, nu), single, b);
              test_su3(link_no(gn, mu), single, c);
              /* Re tr a b c^+ d^+ */
              for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                  hr_complex ab = 0, dc = 0; /* (a b)_ij and (d c)_ij */
                  for (int k = 0; k < 3; ++k) ab += a[i][k] * b[k][j], dc += d[i][k] * c[k][j];
                  ps += creal(ab * conj(dc));
                }
            }
          }
        }
  *plaq = ps / (3.0 * 6.0 * (double)GLB_VOLUME);
  *trace = ts / (3.0 * 4.0 * (double)GLB_VOLUME);
}

/* Rank 0 writes the test field as a NERSC file; checksum_delta / plaq_delta falsify them. */
static void write_nersc(const char *path, int rows, int single, int little, uint32_t checksum_delta,
                        double plaq_delta) {
  if (hr_rank() == 0) {
    double plaq, trace;
    test_field_values(single, &plaq, &trace);
    const int rb = single ? 4 : 8;
    const long sb = 4L * rows * 3 * 2 * rb;
    unsigned char *data = malloc((size_t)(sb * GLB_VOLUME));
    uint32_t sum = 0;
    for (int t = 0; t < GLB_T; ++t)
      for (int z = 0; z < GLB_Z; ++z)
        for (int y = 0; y < GLB_Y; ++y)
          for (int x = 0; x < GLB_X; ++x) {
            const int g[4] = {t, x, y, z};
            unsigned char *p =
                data + ((((long)t * GLB_Z + z) * GLB_Y + y) * GLB_X + x) * sb;
            for (int d = 0; d < 4; ++d) {
              hr_complex m[3][3];
              test_su3(link_no(g, (d + 1) % 4), single, m);
              for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                  for (int ri = 0; ri < 2; ++ri) {
                    const double val = ri ? cimag(m[r][c]) : creal(m[r][c]);
                    uint64_t bits;
                    if (single) {
                      const float fv = (float)val;
                      uint32_t b32;
                      memcpy(&b32, &fv, 4);
                      bits = b32;
                      sum += b32;
                    } else {
                      memcpy(&bits, &val, 8);
                      sum += (uint32_t)bits + (uint32_t)(bits >> 32);
                    }
                    if (r < rows) {
                      for (int i = 0; i < rb; ++i)
                        p[little ? i : rb - 1 - i] = (unsigned char)(bits >> (8 * i));
                      p += rb;
                    }
                  }
            }
          }
    FILE *f = fopen(path, "wb");
    fprintf(f,
            "BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = %s\nSTORAGE_FORMAT = 1.0\n"
            "DIMENSION_1 = %d\nDIMENSION_2 = %d\nDIMENSION_3 = %d\nDIMENSION_4 = %d\n"
            "LINK_TRACE = %.10f\nPLAQUETTE = %.10f\nBOUNDARY_1 = PERIODIC\nBOUNDARY_2 = PERIODIC\n"
            "BOUNDARY_3 = PERIODIC\nBOUNDARY_4 = PERIODIC\nCHECKSUM = %" PRIx32 "\n"
            "SCIDAC_CHECKSUMA = 0\nENSEMBLE_ID = libhr-test\nSEQUENCE_NUMBER = 1\n"
            "FLOATING_POINT = %s\nEND_HEADER\n",
            rows == 3 ? "4D_SU3_GAUGE_3x3" : "4D_SU3_GAUGE", GLB_X, GLB_Y, GLB_Z, GLB_T, trace,
            plaq + plaq_delta, sum + checksum_delta,
            single ? (little ? "IEEE32LITTLE" : "IEEE32BIG") : (little ? "IEEE64LITTLE" : "IEEE64BIG"));
    fwrite(data, 1, (size_t)(sb * GLB_VOLUME), f);
    fclose(f);
    free(data);
  }
  global_barrier();
}

/* Local links of u that differ from the test field (by more than tol). */
static double nersc_wrong_links(const suNg_field *u, int single, double tol) {
  double wrong = 0;
  _MASTER_FOR(&glattice, ix) {
    int g[4];
    global_coordinates(g, ix);
    for (int mu = 0; mu < 4; ++mu) {
      hr_complex m[3][3];
      test_su3(link_no(g, mu), single, m);
      const suNg *l = _4FIELD_AT(u, ix, mu);
      for (int k = 0; k < 9; ++k) wrong += cabs(l->c[k] - m[k / 3][k % 3]) > tol;
    }
  }
  global_sum(&wrong, 1);
  return wrong;
}

/* Rank 0 spoils the header keys of the NERSC file at path that are named in keys (each
 * "KEY =" becomes "XEY =", the same length), so the reader no longer finds them. */
static void spoil_nersc_keys(const char *path, const char *const *keys, int nkeys) {
  if (hr_rank() == 0) {
    FILE *f = fopen(path, "r+b");
    char head[2048];
    const size_t n = fread(head, 1, sizeof head - 1, f);
    head[n] = '\0';
    for (int k = 0; k < nkeys; ++k) {
      char pat[64];
      snprintf(pat, sizeof pat, "\n%s =", keys[k]);
      char *at = strstr(head, pat);
      if (at != NULL) at[1] = 'X';
    }
    fseek(f, 0, SEEK_SET);
    fwrite(head, 1, n, f);
    fclose(f);
  }
  global_barrier();
}

static void nersc_cases(void) {
  if (NG != 3) return;
  const int glb[4] = {8, 4, 2, 6};
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new();
  char f[256], err[2048];
  snprintf(f, sizeof f, "fmt_%s.nersc", grid_name);
  write_nersc(f, 3, 0, 0, 0, 0.0);
  hr_archive_info info;
  CHECK(archive_probe(&info, f, err, sizeof err) == 0 && info.format == HR_ARCHIVE_NERSC &&
            info.size[0] == 8 && info.size[1] == 4 && info.size[3] == 6 && info.precision == 64,
        "probe NERSC: %s", err);
  CHECK(archive_read_checked(u, f, HR_ARCHIVE_NERSC, HR_ARCHIVE_BC_AUTO, err, sizeof err) == 0,
        "%s", err);
  CHECK(nersc_wrong_links(u, 0, 0.0) == 0, "NERSC 3x3 double: links differ");
  write_nersc(f, 2, 1, 1, 0, 0.0);
  CHECK(archive_read_checked(u, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) == 0,
        "%s", err);
  CHECK(nersc_wrong_links(u, 1, 1e-6) == 0, "NERSC 2-row single: links differ");
  write_nersc(f, 2, 0, 0, 0, 0.0);
  CHECK(archive_read_checked(u, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) == 0,
        "%s", err);
  CHECK(nersc_wrong_links(u, 0, 1e-14) == 0, "NERSC 2-row double: links differ");
  tc_case_end("NERSC: 3x3 double big-endian, 2-row single little-endian, 2-row double");
  hr_archive_field *fields = NULL;
  int nfields = 0;
  CHECK(archive_header_fields(f, &fields, &nfields, err, sizeof err) == 0 && nfields == 18,
        "NERSC header fields: %d (%s)", nfields, err);
  if (nfields == 18)
    CHECK(strcmp(fields[0].key, "HDR_VERSION") == 0 && strcmp(fields[0].value, "1.0") == 0 &&
              strcmp(fields[15].key, "ENSEMBLE_ID") == 0 &&
              strcmp(fields[15].value, "libhr-test") == 0 &&
              strcmp(fields[17].key, "FLOATING_POINT") == 0 &&
              strcmp(fields[17].value, "IEEE64BIG") == 0,
          "NERSC header fields in file order: %s = %s, %s = %s", fields[0].key, fields[0].value,
          fields[17].key, fields[17].value);
  free(fields);
  global_barrier(); /* every process has read f before it changes */
  tc_case_end("NERSC header fields: every KEY = VALUE line in order");
  write_nersc(f, 3, 0, 0, 1, 0.0);
  int r = archive_read_checked(u, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r != 0 && says(err, "checksum mismatch") && says(err, f), "wrong checksum: '%s'", err);
  write_nersc(f, 3, 0, 0, 0, 1e-4);
  r = archive_read_checked(u, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r != 0 && says(err, "plaquette mismatch"), "wrong plaquette: '%s'", err);
  /* a header without any of the three checks: refused; one of them suffices */
  const char *const checks[3] = {"PLAQUETTE", "LINK_TRACE", "CHECKSUM"};
  write_nersc(f, 3, 0, 0, 0, 0.0);
  spoil_nersc_keys(f, checks, 2);
  r = archive_read_checked(u, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r == 0, "checksum only: '%s'", err);
  spoil_nersc_keys(f, checks + 2, 1);
  r = archive_read_checked(u, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
  CHECK(r != 0 && says(err, "no CHECKSUM, PLAQUETTE or LINK_TRACE") && says(err, f),
        "no checks: '%s'", err);
  tc_case_end("NERSC: wrong checksum, wrong plaquette and a header without checks refused");
  if (hr_rank() == 0) remove(f);
  ot_gauge_free(u);
}

int main(int argc, char **argv) {
  ot_start(&argc, &argv);
  ot_grid(argc, argv, np);
  snprintf(grid_name, sizeof grid_name, "%dx%dx%dx%d", np[0], np[1], np[2], np[3]);
  crc_cases();
  ildg_cases();
  stored_round_trips();
  nersc_cases();
  return ot_finish("test_formats");
}
