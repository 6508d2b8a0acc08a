/* archive.h -- gauge configuration files: HiRep's format (big-endian, any N), openQCD's
 * "exported" format (little-endian, SU(3) only), byte-compatible with both codes, ILDG
 * (LIME container with SciDAC checksum, read and write) and NERSC (SU(3), read). Under MPI
 * every process reads and writes its own sites at explicit file offsets (no process holds
 * the whole lattice). Reading checks file size, lattice size and gauge group against the
 * running theory and compares the plaquette recomputed from the links with the header;
 * writing goes through a temporary file renamed when complete (hr_ofile). For inspection
 * (converter --info): header fields, LIME records, lfn and checksum of a file, and the
 * deviation of links from SU(NG). Formats, checks and the MPI write protocol:
 * Doc/archives_and_observables.md.
 * Implemented in: LibHR/IO/archive.c, LibHR/IO/archive_ildg.c, LibHR/IO/archive_nersc.c. */
#ifndef ARCHIVE_H
#define ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* File formats. */
typedef enum {
  HR_ARCHIVE_UNKNOWN = 0,
  HR_ARCHIVE_HIREP = 1,  /* HiRep: int32 NG,T,X,Y,Z + float64 plaquette, big-endian */
  HR_ARCHIVE_OPENQCD = 2, /* openQCD export: int32 N0..N3 + float64 plaq, little-endian */
  HR_ARCHIVE_ILDG = 3,    /* ILDG: LIME records ildg-format, ildg-binary-data (big-endian
                             IEEE double or single), scidac-checksum, ildg-data-lfn */
  HR_ARCHIVE_NERSC = 4    /* NERSC: text header + big/little-endian 3x3 or 2-row SU(3) (read) */
} hr_archive_format;

/* Time boundary condition that decides which header plaquette a file carries. */
typedef enum {
  HR_ARCHIVE_BC_AUTO = 0,     /* open when every link U_0(GLB_T-1, x) is exactly zero */
  HR_ARCHIVE_BC_PERIODIC = 1, /* plain average plaquette */
  HR_ARCHIVE_BC_OPEN = 2      /* HiRep: boundary-weighted plaquette (observables.h) */
} hr_archive_bc;

/* What the header of a file says. */
typedef struct {
  hr_archive_format format;
  int ng;           /* gauge group SU(ng) of the links */
  int size[4];      /* global extents T, X, Y, Z */
  double plaquette; /* header value as stored (openQCD: sum Re tr P / 6V, without 1/N) */
  long long file_bytes;     /* size of the file */
  long long expected_bytes; /* size that the header implies */
  int precision;            /* bits of a real number in the file (64, or 32 for ILDG/NERSC) */
  int has_plaquette;        /* whether the header holds a plaquette (ILDG: no) */
} hr_archive_info;

/* Name of a format: "HiRep", "openQCD", "unknown". */
const char *archive_format_name(hr_archive_format f);
/* Parse a format name ("hirep", "openqcd", "ildg", "nersc", case-insensitive); HR_ARCHIVE_UNKNOWN if none. */
hr_archive_format archive_format_from_name(const char *name);

/* Recognise the format of `path` from its header and size and fill *info. Returns 0, or -1
 * with a message naming the file in err (unreadable, or no format fits header and size). */
int archive_probe(hr_archive_info *info, const char *path, char *err, size_t errlen);

/* Read `path` in `format` (HR_ARCHIVE_UNKNOWN: recognise it) into u (glattice), check it
 * and exchange the halo. `bc` chooses the plaquette definition of HiRep headers. Returns 0,
 * or -1 with "file: what differs" in err (every process gets the same result); u is then
 * undefined. Collective. */
int archive_read_checked(suNg_field *u, const char *path, hr_archive_format format,
                         hr_archive_bc bc, char *err, size_t errlen);
/* Write u in `format` to `path` (temporary file + rename). bc as above (AUTO: open when
 * U_0 at GLB_T-1 is zero). Exchanges the halo of u first. Returns 0, or -1 with a message
 * in err (no file is left under `path`). Collective. */
int archive_write_checked(const char *path, hr_archive_format format, hr_archive_bc bc,
                          suNg_field *u, char *err, size_t errlen);

/* archive_read_checked that stops the program on error (exit code HR_EXIT_IO). */
void archive_read(suNg_field *u, const char *path, hr_archive_format format, hr_archive_bc bc);
/* archive_write_checked that stops the program on error (exit code HR_EXIT_IO). */
void archive_write(const char *path, hr_archive_format format, hr_archive_bc bc, suNg_field *u);

/* Write u as an ILDG file: precision_bits 64 or 32 (big-endian IEEE), lfn the logical file
 * name of the ildg-data-lfn record (NULL or "": no such record). archive_write_checked with
 * HR_ARCHIVE_ILDG writes double precision without lfn. Returns 0 or -1 with err. Collective. */
int archive_write_ildg_checked(const char *path, suNg_field *u, int precision_bits,
                               const char *lfn, char *err, size_t errlen);

/* One record of a LIME file (the container of ILDG files). */
typedef struct {
  char type[129];        /* type name, e.g. "ildg-format" */
  long long data_at;     /* byte offset of its data (its 144-byte header precedes it) */
  long long bytes;       /* data length (without the padding to 8 bytes) */
  int message_begin;     /* MB flag: first record of a message */
  int message_end;       /* ME flag: last record of a message */
} hr_lime_record;

/* The SciDAC checksum of an ILDG file: the record's values and those of the binary data. */
typedef struct {
  int in_file;                      /* whether a scidac-checksum record with suma, sumb exists */
  uint32_t file_suma, file_sumb;    /* the values of that record */
  uint32_t data_suma, data_sumb;    /* computed from the ildg-binary-data record */
} hr_ildg_checksum;

/* One KEY = VALUE field of a file header, as stored. */
typedef struct {
  char key[128];
  char value[1024];
} hr_archive_field;

/* Every record of the LIME file `path` in file order into *records (malloc'd; free it) and
 * *count. Returns 0, or -1 with err (damaged or truncated record headers). One process. */
int archive_lime_records(const char *path, hr_lime_record **records, int *count, char *err,
                         size_t errlen);
/* The data of record r of `path` as text in text[len] (trailing NULs dropped). Returns 0
 * (text), 1 (binary data, or longer than len - 1 bytes: text untouched), -1 with err. */
int archive_lime_record_text(const char *path, const hr_lime_record *r, char *text, size_t len,
                             char *err, size_t errlen);
/* The logical file name of the ildg-data-lfn record of `path` into lfn[len]. Returns 1, 0
 * when the file has no such record, -1 with err. One process. */
int archive_ildg_lfn(const char *path, char *lfn, size_t len, char *err, size_t errlen);
/* The SciDAC checksum of the ILDG file `path`: its record and the sums of the data (read
 * whole, in file order). Returns 0, or -1 with err. One process. */
int archive_ildg_checksum(const char *path, hr_ildg_checksum *sums, char *err, size_t errlen);
/* The header fields of `path` as stored into *fields (malloc'd; free it) and *count: HiRep
 * NG, T, X, Y, Z, plaquette; openQCD N0..N3, plaq; NERSC every KEY = VALUE line in order;
 * ILDG none (its records: archive_lime_records). Returns 0, or -1 with err. One process. */
int archive_header_fields(const char *path, hr_archive_field **fields, int *count, char *err,
                          size_t errlen);

/* CRC-32 (IEEE 802.3 / zlib: reflected polynomial 0xEDB88320) of n bytes, continuing from
 * crc (start with 0). */
uint32_t hr_crc32(uint32_t crc, const void *data, size_t n);

/* HiRep-style names: read / write a HiRep-format file (periodic time b.c.), fatal on error. */
void read_gauge_field(suNg_field *u, const char *path);
void write_gauge_field(const char *path, suNg_field *u);

/* Whether every link U_0(GLB_T-1, x) of u is exactly zero (openQCD's open boundary). */
int gauge_field_has_open_time_boundary(const suNg_field *u);
/* The plaquette of LibHR's convention for u, the value HiRep headers carry, readers check and
 * the programs print: the open-boundary weighted average (avr_plaquette_open_bc, openQCD's
 * normalisation divided by N) when every U_0(GLB_T-1, x) is zero, else avr_plaquette.
 * Collective. */
double avr_plaquette_of_boundary(const suNg_field *u);
/* Largest deviations of the links of u from SU(NG) over all processes: *unitarity = max
 * |U U^+ - 1| (Frobenius norm), *det = max |det U - 1|; exact-zero links (open time
 * boundary) are left out. Reads the host copy. Collective. */
void gauge_field_suN_deviation(const suNg_field *u, double *unitarity, double *det);

#ifdef __cplusplus
}
#endif

#endif
