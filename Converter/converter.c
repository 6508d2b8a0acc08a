/* converter.c -- gauge configuration files between the formats LibHR knows:
 *   converter --info FILE                         format, lattice, gauge group, the header
 *             fields (ILDG: every LIME record, lfn, checksum), plaquette, deviation from SU(N)
 *   converter --from hirep|openqcd|ildg|nersc --to hirep|openqcd|ildg
 *             [--precision 64|32] [--lfn NAME] [--reunitarise] IN OUT
 * (--precision and --lfn: ILDG output, 64-bit by default, ildg-data-lfn record if --lfn;
 * --reunitarise: every link projected back to SU(N) before writing, with the deviation and
 * plaquette before and after in the output). Single-precision links written to a
 * double-precision file without --reunitarise get a warning with their deviation.
 * The lattice is taken from the header of the file; the converter runs on one process. The
 * input is checked as every LibHR read is (size, group, plaquette against the header); the
 * output is written atomically. Exit codes: hr_error.h (2 usage, 3 file problems). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "communications.h"
#include "geometry.h"
#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"
#include "md.h"
#include "observables.h"

static const char usage[] =
    "usage: converter --info FILE\n"
    "       converter --from hirep|openqcd|ildg|nersc --to hirep|openqcd|ildg\n"
    "                 [--precision 64|32] [--lfn NAME] [--reunitarise] IN OUT\n";

/* Largest deviation from SU(N) that --reunitarise treats as rounding (single precision
 * leaves about 1e-7); beyond it the links are not a rounded SU(N) field. */
#define REUNITARISE_MAX_DEVIATION 1e-4
/* Longest record text --info prints (LIME records). */
#define RECORD_TEXT_MAX 65536


/* Geometry of one process for the lattice of the header. */
static void geometry_from_header(const hr_archive_info *info) {
  geometry_params p;
  geometry_params_default(&p);
  for (int mu = 0; mu < 4; ++mu)
    p.glb[mu] = info->size[mu];
  geometry_init(&p);
}

static void finish(int code) {
  geometry_finalize();
#if HR_WITH_MPI
  MPI_Finalize();
#endif
  exit(code);
}

static void probe_or_die(const char *path, hr_archive_info *info) {
  char err[1024];
  if (archive_probe(info, path, err, sizeof err) != 0) hr_fatal(HR_EXIT_IO, "%s", err);
  if (info->file_bytes != info->expected_bytes)
    hr_fatal(HR_EXIT_IO,
             "%s: wrong file size: the %s header implies %lld bytes, the file has %lld "
             "(truncated or damaged file)",
             path, archive_format_name(info->format), info->expected_bytes, info->file_bytes);
}

/* Print n bytes of s on one line: blanks at both ends dropped, runs of white space as one
 * space, other control characters as '?'. */
static void print_one_line(const char *s, size_t n) {
  while (n > 0 && isspace((unsigned char)*s)) ++s, --n;
  while (n > 0 && isspace((unsigned char)s[n - 1])) --n;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char ch = (unsigned char)s[i];
    if (isspace(ch)) {
      if (!isspace((unsigned char)s[i - 1])) putchar(' ');
    } else {
      putchar(ch < 0x20 || ch == 0x7f ? '?' : ch);
    }
  }
}

/* Print every leaf element <tag>value</tag> of an XML text as "record N: tag = value";
 * returns how many. */
static int print_xml_leaves(int record, const char *xml) {
  int printed = 0;
  const char *p = xml;
  while ((p = strchr(p, '<')) != NULL) {
    const char *name = p + 1;
    if (*name == '?' || *name == '!' || *name == '/') {
      p = name;
      continue;
    }
    const size_t nlen = strcspn(name, " \t\r\n/>");
    const char *gt = strchr(name, '>');
    if (gt == NULL) break;
    if (nlen == 0 || gt[-1] == '/') { /* empty name or <empty/> */
      p = gt;
      continue;
    }
    const char *value = gt + 1, *lt = strchr(value, '<');
    if (lt == NULL) break;
    if (lt[1] == '/' && strncmp(lt + 2, name, nlen) == 0 && lt[2 + nlen] == '>') {
      printf("record %d: ", record);
      print_one_line(name, nlen);
      printf(" = ");
      print_one_line(value, (size_t)(lt - value));
      putchar('\n');
      ++printed;
      p = lt + 2 + nlen;
    } else {
      p = lt; /* an element with children: go on with them */
    }
  }
  return printed;
}

/* ILDG: every LIME record (type, size, offset, flags; text records: their XML leaves or
 * their text), then the lfn and the SciDAC checksum of the record against the data. */
static void print_lime_records(const char *path) {
  char err[1024] = "";
  hr_lime_record *recs;
  int n;
  if (archive_lime_records(path, &recs, &n, err, sizeof err) != 0) hr_fatal(HR_EXIT_IO, "%s", err);
  char *text = malloc(RECORD_TEXT_MAX);
  if (text == NULL) hr_fatal(HR_EXIT_SETUP, "converter: out of memory");
  printf("lime records = %d\n", n);
  for (int i = 0; i < n; ++i) {
    printf("record %d = ", i + 1);
    print_one_line(recs[i].type, strlen(recs[i].type));
    printf(", %lld bytes, data at byte %lld%s%s\n", recs[i].bytes, recs[i].data_at,
           recs[i].message_begin ? ", MB" : "", recs[i].message_end ? ", ME" : "");
    const int kind =
        archive_lime_record_text(path, &recs[i], text, RECORD_TEXT_MAX, err, sizeof err);
    if (kind < 0) hr_fatal(HR_EXIT_IO, "%s", err);
    if (kind == 1) {
      printf("record %d: not text (binary data, or over %d bytes)\n", i + 1, RECORD_TEXT_MAX - 1);
    } else if (print_xml_leaves(i + 1, text) == 0) {
      printf("record %d: text = ", i + 1);
      print_one_line(text, strlen(text));
      putchar('\n');
    }
  }
  free(recs);
  const int have_lfn = archive_ildg_lfn(path, text, RECORD_TEXT_MAX, err, sizeof err);
  if (have_lfn < 0) hr_fatal(HR_EXIT_IO, "%s", err);
  if (have_lfn) {
    printf("lfn = ");
    print_one_line(text, strlen(text));
    putchar('\n');
  } else {
    printf("lfn = none (no ildg-data-lfn record)\n");
  }
  free(text);
  hr_ildg_checksum c;
  if (archive_ildg_checksum(path, &c, err, sizeof err) != 0) hr_fatal(HR_EXIT_IO, "%s", err);
  if (c.in_file)
    printf("checksum = suma %08" PRIx32 " sumb %08" PRIx32 " (scidac-checksum record), data "
           "suma %08" PRIx32 " sumb %08" PRIx32 ": %s\n",
           c.file_suma, c.file_sumb, c.data_suma, c.data_sumb,
           c.file_suma == c.data_suma && c.file_sumb == c.data_sumb
               ? "match"
               : "MISMATCH (the data are damaged)");
  else
    printf("checksum = none (no scidac-checksum record), data suma %08" PRIx32
           " sumb %08" PRIx32 "\n",
           c.data_suma, c.data_sumb);
}

/* HiRep, openQCD, NERSC: every field of the header as stored. */
static void print_header_fields(const char *path) {
  char err[1024] = "";
  hr_archive_field *f;
  int n;
  if (archive_header_fields(path, &f, &n, err, sizeof err) != 0) hr_fatal(HR_EXIT_IO, "%s", err);
  for (int i = 0; i < n; ++i) {
    printf("header: ");
    print_one_line(f[i].key, strlen(f[i].key));
    printf(" = ");
    print_one_line(f[i].value, strlen(f[i].value));
    putchar('\n');
  }
  free(f);
}

/* "LABEL: max |U U^+ - 1| = .., max |det U - 1| = .." (no newline) for the links of u; the
 * two values into dev[2] if given. */
static void print_deviation(const char *label, const suNg_field *u, double dev[2]) {
  double unitarity, det;
  gauge_field_suN_deviation(u, &unitarity, &det);
  printf("%s: max |U U^+ - 1| = %.3g, max |det U - 1| = %.3g", label, unitarity, det);
  if (dev != NULL) dev[0] = unitarity, dev[1] = det;
}

static void info_command(const char *path) {
  hr_archive_info info;
  probe_or_die(path, &info);
  printf("file = %s\n", path);
  printf("format = %s\n", archive_format_name(info.format));
  printf("lattice = %dx%dx%dx%d (T x X x Y x Z)\n", info.size[0], info.size[1], info.size[2],
         info.size[3]);
  printf("gauge group = SU(%d)\n", info.ng);
  if (info.has_plaquette)
    printf("header plaquette = %.16g%s\n", info.plaquette,
           info.format == HR_ARCHIVE_OPENQCD ? " (openQCD: sum Re tr P / 6V, no 1/N)" : "");
  else
    printf("header plaquette = none (the %s format has none)\n", archive_format_name(info.format));
  if (info.format == HR_ARCHIVE_ILDG || info.format == HR_ARCHIVE_NERSC)
    printf("precision = %d bits\n", info.precision);
  if (info.format == HR_ARCHIVE_ILDG)
    print_lime_records(path);
  else
    print_header_fields(path);
  fflush(stdout); /* all of the above also when the read below ends the program */
  if (info.ng != NG) {
    printf("plaquette = unavailable (this converter is built for SU(%d))\n", NG);
    finish(HR_EXIT_OK);
  }
  geometry_from_header(&info);
  suNg_field *u = alloc_gfield(&glattice);
  archive_read(u, path, info.format, HR_ARCHIVE_BC_AUTO);
  const int open_bc = gauge_field_has_open_time_boundary(u);
  printf("time boundary = %s\n", open_bc ? "open (U_0 at t = T-1 is zero)" : "periodic");
  printf("plaquette = %.16g\n", avr_plaquette_of_boundary(u));
  if (open_bc)
    printf("plaquette (every plaquette, the zero links included) = %.16g\n", avr_plaquette(u));
  char label[64];
  snprintf(label, sizeof label, "deviation from SU(%d)", NG);
  print_deviation(label, u, NULL);
  putchar('\n');
  free_gfield(u);
  finish(HR_EXIT_OK);
}

/* --reunitarise: every link projected back to SU(NG) (md_reunitarize_links), deviation and
 * plaquette before and after printed; links further from SU(NG) than rounding are refused. */
static void reunitarise(suNg_field *u, const char *in) {
  double before[2];
  print_deviation("before reunitarisation", u, before);
  printf(", plaquette = %.16g\n", avr_plaquette_of_boundary(u));
  if (!(before[0] <= REUNITARISE_MAX_DEVIATION && before[1] <= REUNITARISE_MAX_DEVIATION))
    hr_fatal(HR_EXIT_IO,
             "%s: the links are far from SU(%d) (max |U U^+ - 1| = %.3g, max |det U - 1| = "
             "%.3g; rounding leaves at most about 1e-7): --reunitarise repairs rounding only "
             "and would change this configuration; check the file and where it comes from",
             in, NG, before[0], before[1]);
  md_reunitarize_links(u);
  print_deviation("after reunitarisation", u, NULL);
  printf(", plaquette = %.16g\n", avr_plaquette_of_boundary(u));
}

/* Single-precision links written to a double-precision file keep their rounding: say so,
 * with their deviation from SU(NG), and how to remove it. */
static void warn_single_precision(const suNg_field *u, const char *in, hr_archive_format to) {
  double unitarity, det;
  gauge_field_suN_deviation(u, &unitarity, &det);
  printf("WARNING: %s holds single-precision (32-bit) links and the %s output is double "
         "precision: the links carry single-precision rounding into it (deviation from "
         "SU(%d): max |U U^+ - 1| = %.3g, max |det U - 1| = %.3g, against about 1e-15 for "
         "double-precision links); convert with --reunitarise to project them back to SU(%d)\n",
         in, archive_format_name(to), NG, unitarity, det, NG);
}

static void convert_command(hr_archive_format from, hr_archive_format to, int precision,
                            const char *lfn, int reunitarise_links, const char *in,
                            const char *out) {
  if (access(out, F_OK) == 0)
    hr_fatal(HR_EXIT_INPUT, "%s exists: the converter does not overwrite files; remove it or "
             "choose another output name", out);
  hr_archive_info info;
  probe_or_die(in, &info);
  if (info.format != from)
    hr_fatal(HR_EXIT_IO, "%s: not in the %s format (its header looks like the %s format)", in,
             archive_format_name(from), archive_format_name(info.format));
  if (info.ng != NG)
    hr_fatal(HR_EXIT_IO, "%s: the file holds SU(%d) links, this converter is built for SU(%d)",
             in, info.ng, NG);
  geometry_from_header(&info);
  suNg_field *u = alloc_gfield(&glattice);
  archive_read(u, in, from, HR_ARCHIVE_BC_AUTO);
  if (reunitarise_links)
    reunitarise(u, in);
  else if (info.precision == 32 && (to != HR_ARCHIVE_ILDG || precision == 64))
    warn_single_precision(u, in, to);
  if (to == HR_ARCHIVE_ILDG) {
    char err[1024] = "";
    if (archive_write_ildg_checked(out, u, precision, lfn, err, sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "%s", err);
  } else {
    archive_write(out, to, HR_ARCHIVE_BC_AUTO, u);
  }
  printf("converted %s (%s) -> %s (%s), plaquette = %.16g\n", in, archive_format_name(from), out,
         archive_format_name(to), avr_plaquette_of_boundary(u));
  free_gfield(u);
  finish(HR_EXIT_OK);
}

int main(int argc, char **argv) {
#if HR_WITH_MPI
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) hr_fatal(HR_EXIT_SETUP, "converter runs on one process (got %d)", size);
#endif
  logger_set_level("default", 0);
  if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    fputs(usage, stdout);
    finish(HR_EXIT_OK);
  }
  if (argc == 3 && strcmp(argv[1], "--info") == 0) info_command(argv[2]);
  if (argc >= 7 && strcmp(argv[1], "--from") == 0 && strcmp(argv[3], "--to") == 0) {
    const hr_archive_format from = archive_format_from_name(argv[2]);
    const hr_archive_format to = archive_format_from_name(argv[4]);
    if (from == HR_ARCHIVE_UNKNOWN)
      hr_fatal(HR_EXIT_INPUT,
               "converter: unknown input format '%s' (use hirep, openqcd, ildg or nersc)\n%s",
               argv[2], usage);
    if (to == HR_ARCHIVE_UNKNOWN || to == HR_ARCHIVE_NERSC)
      hr_fatal(HR_EXIT_INPUT,
               "converter: cannot write format '%s' (use hirep, openqcd or ildg)\n%s", argv[4],
               usage);
    int precision = 64, reunitarise_links = 0;
    const char *lfn = NULL;
    int i = 5;
    while (i + 2 < argc) {
      if (strcmp(argv[i], "--reunitarise") == 0) {
        reunitarise_links = 1;
        i += 1;
      } else if (i + 3 < argc && strcmp(argv[i], "--precision") == 0) {
        precision = atoi(argv[i + 1]);
        if (precision != 32 && precision != 64)
          hr_fatal(HR_EXIT_INPUT, "converter: --precision must be 64 or 32\n%s", usage);
        i += 2;
      } else if (i + 3 < argc && strcmp(argv[i], "--lfn") == 0) {
        lfn = argv[i + 1];
        i += 2;
      } else {
        break;
      }
    }
    if (i + 2 != argc) hr_fatal(HR_EXIT_INPUT, "converter: bad arguments\n%s", usage);
    if (to != HR_ARCHIVE_ILDG && (precision != 64 || lfn != NULL))
      hr_fatal(HR_EXIT_INPUT, "converter: --precision and --lfn apply to ILDG output only\n%s",
               usage);
    convert_command(from, to, precision, lfn, reunitarise_links, argv[i], argv[i + 1]);
  }
  hr_fatal(HR_EXIT_INPUT, "converter: bad arguments\n%s", usage);
}
