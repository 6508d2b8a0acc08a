/* converter.c -- gauge configuration files between the formats LibHR knows:
 *   converter --info FILE                         format, lattice, gauge group, plaquette
 *   converter --from hirep|openqcd|ildg|nersc --to hirep|openqcd|ildg
 *             [--precision 64|32] [--lfn NAME] IN OUT
 * (--precision and --lfn: ILDG output, 64-bit by default, ildg-data-lfn record if --lfn).
 * The lattice is taken from the header of the file; the converter runs on one process. The
 * input is checked as every LibHR read is (size, group, plaquette against the header); the
 * output is written atomically. Exit codes: hr_error.h (2 usage, 3 file problems). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "communications.h"
#include "geometry.h"
#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"
#include "observables.h"

static const char usage[] =
    "usage: converter --info FILE\n"
    "       converter --from hirep|openqcd|ildg|nersc --to hirep|openqcd|ildg\n"
    "                 [--precision 64|32] [--lfn NAME] IN OUT\n";


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
  free_gfield(u);
  finish(HR_EXIT_OK);
}

static void convert_command(hr_archive_format from, hr_archive_format to, int precision,
                            const char *lfn, const char *in, const char *out) {
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
  if (to == HR_ARCHIVE_ILDG) {
    char err[1024] = "";
    if (archive_write_ildg_checked(out, u, precision, lfn, err, sizeof err) != 0)
      hr_fatal(HR_EXIT_IO, "%s", err);
  } else {
    archive_write(out, to, HR_ARCHIVE_BC_AUTO, u);
  }
  printf("converted %s (%s) -> %s (%s), plaquette = %.16g\n", in, archive_format_name(from), out,
         archive_format_name(to), avr_plaquette(u));
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
    int precision = 64;
    const char *lfn = NULL;
    int i = 5;
    for (; i + 2 < argc; i += 2) {
      if (strcmp(argv[i], "--precision") == 0) {
        precision = atoi(argv[i + 1]);
        if (precision != 32 && precision != 64)
          hr_fatal(HR_EXIT_INPUT, "converter: --precision must be 64 or 32\n%s", usage);
      } else if (strcmp(argv[i], "--lfn") == 0) {
        lfn = argv[i + 1];
      } else {
        break;
      }
    }
    if (i + 2 != argc) hr_fatal(HR_EXIT_INPUT, "converter: bad arguments\n%s", usage);
    if (to != HR_ARCHIVE_ILDG && (precision != 64 || lfn != NULL))
      hr_fatal(HR_EXIT_INPUT, "converter: --precision and --lfn apply to ILDG output only\n%s",
               usage);
    convert_command(from, to, precision, lfn, argv[i], argv[i + 1]);
  }
  hr_fatal(HR_EXIT_INPUT, "converter: bad arguments\n%s", usage);
}
