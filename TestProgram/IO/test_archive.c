/* test_archive.c -- gauge configuration archives, on the process grid of the arguments
 * (NP_T NP_X NP_Y NP_Z [--ref FILE]):
 *  - stored configurations (SU(3) builds): the HiRep and openQCD files of each pair give
 *    bitwise the same links; their header plaquettes agree with the recomputed ones and with
 *    each other (openQCD = 3 x HiRep normalisation; open b.c.: HiRep's weighted plaquette);
 *    other builds: both formats are refused with the right message;
 *  - round trip HiRep -> openQCD -> HiRep reproduces a LibHR-written file byte for byte, and
 *    the link data of the stored files;
 *  - save / load: a field written and read back is bitwise the same; with --ref, the file
 *    written on this grid is byte for byte FILE (written on one process) and FILE
 *    read on this grid gives the same links;
 *  - truncated file, wrong lattice size, wrong N, flipped byte: each rejected with the right
 *    message; a failed write leaves no file. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "../Observables/obs_test.h"

static char ref_file[4096] = "";
static char grid_name[64];

/* Whether err contains `what`. */
static int says(const char *err, const char *what) { return strstr(err, what) != NULL; }

/* Bytes of a file (rank 0 reads; result on every rank: 0 equal, 1 different, -1 error) from
 * offset `skip` on. */
static int files_differ(const char *a, const char *b, long skip) {
  int r = 0;
  if (hr_rank() == 0) {
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    if (fa == NULL || fb == NULL) r = -1;
    else {
      fseek(fa, skip, SEEK_SET);
      fseek(fb, skip, SEEK_SET);
      int ca, cb;
      do {
        ca = getc(fa);
        cb = getc(fb);
      } while (ca == cb && ca != EOF);
      r = ca != cb;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
  }
  bcast_int(&r, 1);
  return r;
}

/* Rank 0: copy `src` to `dst` with its first `keep` bytes (keep < 0: all) and, when
 * flip_at >= 0, the byte at flip_at XORed with `mask`. Barrier afterwards. */
static void copy_modified(const char *src, const char *dst, long keep, long flip_at, int mask) {
  if (hr_rank() == 0) {
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    if (in == NULL || out == NULL) {
      fprintf(stderr, "cannot copy %s to %s\n", src, dst);
      exit(1);
    }
    long i = 0;
    int c;
    while ((keep < 0 || i < keep) && (c = getc(in)) != EOF) {
      if (i == flip_at) c ^= mask;
      putc(c, out);
      ++i;
    }
    fclose(in);
    fclose(out);
  }
  global_barrier();
}

static void stored_pairs(void) {
  const int glb[4] = {8, 8, 8, 8};
  const char *dir = ot_stored_dir();
  static const char *pairs[2][2] = {
      {"HiRep_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1",
       "openQCD_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1"},
      {"HiRep_obc_openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1",
       "openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1"}};
  static const double hirep_header[2] = {0.0016696811441034925, 0.8266823421647487};
  static const double openqcd_header[2] = {0.005009043432310447, 2.2997535600322965};
  char hp[8192], op[8192], err[2048];
  int np[4];
  for (int mu = 0; mu < 4; ++mu) np[mu] = NP_SIZE[mu];
  ot_geometry(glb, np);
  suNg_field *a = ot_gauge_new(), *b = ot_gauge_new();
  for (int k = 0; k < 2; ++k) {
    snprintf(hp, sizeof hp, "%s/%s", dir, pairs[k][0]);
    snprintf(op, sizeof op, "%s/%s", dir, pairs[k][1]);
    if (NG != 3) {
      CHECK(archive_read_checked(a, hp, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) !=
                    0 &&
                says(err, "wrong gauge group") && says(err, hp),
            "SU(3) HiRep file in an SU(%d) build: '%s'", NG, err);
      CHECK(archive_read_checked(a, op, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) !=
                    0 &&
                says(err, "SU(3) fields only"),
            "openQCD file in an SU(%d) build: '%s'", NG, err);
      continue;
    }
    hr_archive_info hi, oi;
    CHECK(archive_probe(&hi, hp, err, sizeof err) == 0 && hi.format == HR_ARCHIVE_HIREP,
          "probe %s", hp);
    CHECK(archive_probe(&oi, op, err, sizeof err) == 0 && oi.format == HR_ARCHIVE_OPENQCD,
          "probe %s", op);
    CHECK(hi.plaquette == hirep_header[k] && oi.plaquette == openqcd_header[k],
          "header values %.17g %.17g", hi.plaquette, oi.plaquette);
    int ra = archive_read_checked(a, hp, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_AUTO, err, sizeof err);
    CHECK(ra == 0, "%s", err);
    int rb = archive_read_checked(b, op, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO, err, sizeof err);
    CHECK(rb == 0, "%s", err);
    CHECK(ot_links_differ(a, b) == 0, "the two files of pair %d give different links", k);
    const double plain = avr_plaquette(a);
    const double hirep_def = k == 0 ? plain : avr_plaquette_open_bc(a);
    CHECK(fabs(hirep_def - hirep_header[k]) < 1e-12, "HiRep header %.17g recomputed %.17g",
          hirep_header[k], hirep_def);
    CHECK(fabs(3.0 * plain - openqcd_header[k]) < 1e-12, "openQCD header %.17g, 3 x plaquette %.17g",
          openqcd_header[k], 3.0 * plain);
    CHECK(gauge_field_has_open_time_boundary(a) == k, "open boundary detection");
    if (k == 0)
      CHECK(fabs(openqcd_header[0] / 3.0 - hirep_header[0]) < 1e-12, "the two headers disagree");
    /* the open-b.c. HiRep header read as periodic must be refused: the definitions differ */
    if (k == 1) {
      CHECK(archive_read_checked(a, hp, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, err,
                                 sizeof err) != 0 &&
                says(err, "plaquette mismatch"),
            "open-b.c. file read as periodic: '%s'", err);
      /* openQCD log Wact -> HiRep weighted plaquette */
      const double from_log = 1.0 - 2.2362137484535451e+04 / (2.0 * 3 * 6 * 512 * 7);
      CHECK(fabs(hirep_header[1] - from_log) < 1e-12, "HiRep header vs ms3 log: %.17g %.17g",
            hirep_header[1], from_log);
    }
  }
  tc_case_end("stored configurations: both formats, headers, logs");

  /* round trip: stored HiRep -> LibHR HiRep (A) -> openQCD (B) -> HiRep (C) */
  char fa[256], fb[256], fc[256];
  snprintf(fa, sizeof fa, "io_rt_%s.hirep", grid_name);
  snprintf(fb, sizeof fb, "io_rt_%s.openqcd", grid_name);
  snprintf(fc, sizeof fc, "io_rt_%s.again.hirep", grid_name);
  if (NG == 3) {
    for (int k = 0; k < 2; ++k) {
      snprintf(hp, sizeof hp, "%s/%s", dir, pairs[k][0]);
      snprintf(op, sizeof op, "%s/%s", dir, pairs[k][1]);
      archive_read(a, hp, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_AUTO);
      archive_write(fa, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_AUTO, a);
      archive_write(fb, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO, a);
      archive_read(b, fb, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO);
      archive_write(fc, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_AUTO, b);
      CHECK(files_differ(fa, fc, 0) == 0, "round trip %d changed the HiRep file", k);
      CHECK(files_differ(fa, hp, 28) == 0, "link bytes of the HiRep file %d differ from stored",
            k);
      CHECK(files_differ(fb, op, 24) == 0, "link bytes of the openQCD file %d differ from stored",
            k);
      CHECK(ot_links_differ(a, b) == 0, "links changed in the round trip %d", k);
    }
    tc_case_end("round trip HiRep -> openQCD -> HiRep, byte for byte");
  }
  ot_gauge_free(a);
  ot_gauge_free(b);
}

static void save_load(void) {
  const int glb[4] = {8, 4, 4, 8};
  int np[4];
  for (int mu = 0; mu < 4; ++mu) np[mu] = NP_SIZE[mu];
  ot_geometry(glb, np);
  suNg_field *u = ot_gauge_new(), *v = ot_gauge_new();
  rng_init(2024);
  gauge_field_hot(u);
  heatbath_sweep(u, 5.0);
  overrelaxation_sweep(u);
  char f[256], err[2048];
  snprintf(f, sizeof f, "io_save_%s.hirep", grid_name);
  CHECK(archive_write_checked(f, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u, err, sizeof err) ==
            0,
        "%s", err);
  CHECK(archive_read_checked(v, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_PERIODIC, err, sizeof err) ==
            0,
        "%s", err);
  CHECK(ot_links_differ(u, v) == 0, "HiRep save/load changed links");
  if (NG == 3) {
    snprintf(f, sizeof f, "io_save_%s.openqcd", grid_name);
    CHECK(archive_write_checked(f, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO, u, err, sizeof err) ==
              0,
          "%s", err);
    zero_suNg_field(v);
    CHECK(archive_read_checked(v, f, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err) ==
              0,
          "%s", err);
    CHECK(ot_links_differ(u, v) == 0, "openQCD save/load changed links");
  } else {
    CHECK(archive_write_checked("io_never.openqcd", HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO, u, err,
                                sizeof err) != 0 &&
              says(err, "SU(3) fields only") && access("io_never.openqcd", F_OK) != 0,
          "openQCD write in an SU(%d) build: '%s'", NG, err);
  }
  if (ref_file[0] != '\0') {
    /* same seed on one process: same links, hence the same link bytes */
    snprintf(f, sizeof f, "io_save_%s.hirep", grid_name);
    /* sums are exact, so even the header plaquette does not depend on the grid */
    CHECK(files_differ(f, ref_file, 0) == 0, "%s differs from %s", f, ref_file);
    CHECK(archive_read_checked(v, ref_file, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, err,
                               sizeof err) == 0,
          "%s", err);
    CHECK(ot_links_differ(u, v) == 0, "reference file read on this grid differs");
  }
  tc_case_end("save / load bitwise (and against the one-process file)");
  ot_gauge_free(u);
  ot_gauge_free(v);
}

static void rejections(void) {
  int np[4];
  for (int mu = 0; mu < 4; ++mu) np[mu] = NP_SIZE[mu];
  const int small[4] = {4, 4, 4, 4}, big[4] = {8, 4, 4, 4};
  char fs[256], fbig[256], bad[256], err[2048];
  snprintf(fs, sizeof fs, "io_small_%s.hirep", grid_name);
  snprintf(fbig, sizeof fbig, "io_big_%s.hirep", grid_name);
  snprintf(bad, sizeof bad, "io_bad_%s", grid_name);
  ot_geometry(small, np);
  suNg_field *u = ot_gauge_new();
  rng_init(99);
  gauge_field_hot(u);
  archive_write(fs, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u);
  ot_gauge_free(u);

  ot_geometry(big, np);
  u = ot_gauge_new();
  gauge_field_hot(u);
  archive_write(fbig, HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u);
  const long body = 4L * 8 * 4 * 4 * 4 * 2 * NG * NG * 8;

  /* wrong lattice size */
  int r = archive_read_checked(u, fs, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_PERIODIC, err, sizeof err);
  CHECK(r != 0 && says(err, "wrong lattice size") && says(err, fs) && says(err, "4x4x4x4") &&
            says(err, "8x4x4x4"),
        "'%s'", err);
  /* truncated */
  copy_modified(fbig, bad, 28 + body - 100, -1, 0);
  r = archive_read_checked(u, bad, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_PERIODIC, err, sizeof err);
  CHECK(r != 0 && says(err, "wrong file size") && says(err, bad), "'%s'", err);
  /* wrong N: a header for another N with a body of the matching size */
  if (hr_rank() == 0) {
    const int other = NG == 2 ? 3 : 2;
    FILE *f = fopen(bad, "wb");
    const int32_t h[5] = {other, 8, 4, 4, 4};
    for (int i = 0; i < 5; ++i) {
      uint32_t x = (uint32_t)h[i];
      unsigned char be[4] = {x >> 24, x >> 16, x >> 8, x};
      fwrite(be, 1, 4, f);
    }
    for (long i = 0; i < 8 + 4L * 8 * 4 * 4 * 4 * 2 * other * other * 8; ++i) putc(0, f);
    fclose(f);
  }
  global_barrier();
  r = archive_read_checked(u, bad, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_PERIODIC, err, sizeof err);
  CHECK(r != 0 && says(err, "wrong gauge group") && says(err, bad), "'%s'", err);
  /* flipped byte: the sign / exponent byte of a real part in the middle of the data */
  copy_modified(fbig, bad, -1, 28 + (body / 2 / 16) * 16, 0x40);
  r = archive_read_checked(u, bad, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_PERIODIC, err, sizeof err);
  CHECK(r != 0 && says(err, "plaquette mismatch") && says(err, bad), "'%s'", err);
  if (NG == 3) {
    archive_write(fbig, HR_ARCHIVE_OPENQCD, HR_ARCHIVE_BC_AUTO, u);
    copy_modified(fbig, bad, -1, 24 + 8 * 1000 + 7, 0x40); /* little-endian: top byte */
    r = archive_read_checked(u, bad, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO, err, sizeof err);
    CHECK(r != 0 && says(err, "plaquette mismatch") && says(err, "openQCD"), "'%s'", err);
  }
  /* unwritable place: error, and no file */
  r = archive_write_checked("io_no_such_dir/x.cfg", HR_ARCHIVE_HIREP, HR_ARCHIVE_BC_PERIODIC, u,
                            err, sizeof err);
  CHECK(r != 0 && says(err, "io_no_such_dir/x.cfg"), "'%s'", err);
  tc_case_end("truncated, wrong size, wrong N, flipped byte rejected");
  ot_gauge_free(u);
  if (hr_rank() == 0) {
    remove(fs);
    remove(fbig);
    remove(bad);
  }
}

int main(int argc, char **argv) {
  ot_start(&argc, &argv);
  int np[4];
  ot_grid(argc, argv, np);
  for (int i = 5; i + 1 < argc; ++i)
    if (strcmp(argv[i], "--ref") == 0) snprintf(ref_file, sizeof ref_file, "%s", argv[i + 1]);
  snprintf(grid_name, sizeof grid_name, "%dx%dx%dx%d", np[0], np[1], np[2], np[3]);
  const int glb[4] = {8, 8, 8, 8};
  ot_geometry(glb, np); /* sets NP_SIZE for the cases */
  stored_pairs();
  save_load();
  rejections();
  return ot_finish("test_archive");
}
