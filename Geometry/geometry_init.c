/* geometry_init.c -- lattice parameters (input keys GLB_*, NP_*, PB_*), their validation with
 * messages that name the key and the remedy, the size globals, the MPI Cartesian
 * communicator, and geometry_init / geometry_finalize. */
#include "communications.h"
#include "geometry_internal.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int LOC_T, LOC_X, LOC_Y, LOC_Z;
int LOC_SIZE[4];
int GLB_T, GLB_X, GLB_Y, GLB_Z;
int GLB_SIZE[4];
int NP_T = 1, NP_X = 1, NP_Y = 1, NP_Z = 1;
int NP_SIZE[4] = {1, 1, 1, 1};
int PB_T = 2, PB_X = 2, PB_Y = 2, PB_Z = 2;
int PB_SIZE[4] = {2, 2, 2, 2};
int VOLUME;
long long GLB_VOLUME;
int COORD[4];
int CART_RANK;
int PROC_UP[4], PROC_DN[4];
int ZERO_COORD[4];
int HALO_DIR[4];

#if HR_WITH_MPI
MPI_Comm hr_cart_comm = MPI_COMM_NULL;
#endif

static int initialized = 0;
static const char dir_name[4] = {'T', 'X', 'Y', 'Z'};

void geometry_params_default(geometry_params *p) {
  for (int mu = 0; mu < 4; mu++) {
    p->glb[mu] = 0;
    p->np[mu] = 1;
    p->pb[mu] = 2;
    p->force_halo[mu] = 0;
  }
}

static int check_input_params(const struct input_file *in, const geometry_params *p,
                              int nranks, char *errbuf, size_t errlen);

int geometry_read_input_keys(geometry_params *p, struct input_file *in, char *errbuf,
                             size_t errlen) {
  geometry_params_default(p);
  input_key keys[] = {
      {"GLB_T", INPUT_INT, &p->glb[0], NULL, NULL, "global lattice extent in t"},
      {"GLB_X", INPUT_INT, &p->glb[1], NULL, NULL, "global lattice extent in x"},
      {"GLB_Y", INPUT_INT, &p->glb[2], NULL, NULL, "global lattice extent in y"},
      {"GLB_Z", INPUT_INT, &p->glb[3], NULL, NULL, "global lattice extent in z"},
      {"NP_T", INPUT_INT, &p->np[0], "1", NULL, "MPI processes along t"},
      {"NP_X", INPUT_INT, &p->np[1], "1", NULL, "MPI processes along x"},
      {"NP_Y", INPUT_INT, &p->np[2], "1", NULL, "MPI processes along y"},
      {"NP_Z", INPUT_INT, &p->np[3], "1", NULL, "MPI processes along z"},
      {"PB_T", INPUT_INT, &p->pb[0], "2", NULL, "path-blocking size in t (bulk site order)"},
      {"PB_X", INPUT_INT, &p->pb[1], "2", NULL, "path-blocking size in x (bulk site order)"},
      {"PB_Y", INPUT_INT, &p->pb[2], "2", NULL, "path-blocking size in y (bulk site order)"},
      {"PB_Z", INPUT_INT, &p->pb[3], "2", NULL, "path-blocking size in z (bulk site order)"},
      INPUT_KEYS_END};
  if (input_read_keys(in, NULL, keys, errbuf, errlen) != 0) return -1;
  return check_input_params(in, p, -1, errbuf, errlen);
}

void geometry_read_input(geometry_params *p, struct input_file *in) {
  char err[2048];
  if (geometry_read_input_keys(p, in, err, sizeof err) != 0) hr_fatal(HR_EXIT_INPUT, "%s", err);
  int nranks = 1;
#if HR_WITH_MPI
  int mpi_running = 0;
  MPI_Initialized(&mpi_running);
  if (!mpi_running) return; /* the rank count is checked again by geometry_init */
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
#endif
  if (check_input_params(in, p, nranks, err, sizeof err) != 0) hr_fatal(HR_EXIT_INPUT, "%s", err);
}

/* Write a message into buf and return it. */
__attribute__((format(printf, 3, 4))) static const char *fail(char *buf, size_t len,
                                                              const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, len, fmt, ap);
  va_end(ap);
  return buf;
}

/* The values of NP that split `glb` into even local extents, as "1, 2, 4". */
static void valid_np_list(int glb, char *out, size_t len) {
  size_t n = 0;
  out[0] = '\0';
  for (int np = 1; np <= glb / 2 && n < len; np++)
    if (glb % np == 0 && (glb / np) % 2 == 0)
      n += (size_t)snprintf(out + n, len - n, "%s%d", n ? ", " : "", np);
  if (out[0] == '\0') snprintf(out, len, "none");
}

/* Input keys of the geometry, by direction. */
static const char *const glb_key[4] = {"GLB_T", "GLB_X", "GLB_Y", "GLB_Z"};
static const char *const np_key[4] = {"NP_T", "NP_X", "NP_Y", "NP_Z"};
static const char *const pb_key[4] = {"PB_T", "PB_X", "PB_Y", "PB_Z"};

/* geometry_check_params, also naming in *key the input key at fault (for the process grid
 * against the rank count: NULL). nranks < 0: the rank count is not checked. */
static const char *check_params(const geometry_params *p, int nranks, char *buf, size_t len,
                                const char **key) {
  char valid[256];
  for (int mu = 0; mu < 4; mu++) {
    char c = dir_name[mu];
    *key = glb_key[mu];
    if (p->glb[mu] < 2 || p->glb[mu] % 2 != 0)
      return fail(buf, len,
                  "GLB_%c = %d: the global lattice extent must be an even number >= 2 "
                  "(even-odd ordering); set GLB_%c to e.g. %d",
                  c, p->glb[mu], c, p->glb[mu] < 2 ? 4 : p->glb[mu] + 1);
    *key = np_key[mu];
    if (p->np[mu] < 1)
      return fail(buf, len,
                  "NP_%c = %d: the number of processes along %c must be >= 1; "
                  "set NP_%c = 1 to leave this direction unsplit",
                  c, p->np[mu], c + 'a' - 'A', c);
  }
  for (int mu = 0; mu < 4; mu++) {
    char c = dir_name[mu];
    *key = np_key[mu];
    valid_np_list(p->glb[mu], valid, sizeof valid);
    if (p->glb[mu] % p->np[mu] != 0)
      return fail(buf, len,
                  "GLB_%c = %d is not divisible by NP_%c = %d: every process needs the same "
                  "local lattice; choose NP_%c from %s, or change GLB_%c",
                  c, p->glb[mu], c, p->np[mu], c, valid, c);
    int loc = p->glb[mu] / p->np[mu];
    if (loc % 2 != 0)
      return fail(buf, len,
                  "local extent GLB_%c/NP_%c = %d/%d = %d is odd: even-odd ordering needs even "
                  "local extents; choose NP_%c from %s, or change GLB_%c",
                  c, c, p->glb[mu], p->np[mu], loc, c, valid, c);
    if (!HR_WITH_MPI && p->np[mu] > 1)
      return fail(buf, len,
                  "NP_%c = %d: this build of LibHR has no MPI, so the process grid must be "
                  "1x1x1x1; set NP_%c = 1, or configure LibHR with --enable-mpi",
                  c, p->np[mu], c);
    *key = pb_key[mu];
    if (p->pb[mu] < 1 || p->pb[mu] > loc)
      return fail(buf, len,
                  "PB_%c = %d: the path-blocking size must be between 1 and the local extent "
                  "%d; set PB_%c = 2 (default) or remove the key",
                  c, p->pb[mu], loc, c);
  }
  int product = p->np[0] * p->np[1] * p->np[2] * p->np[3];
  *key = NULL;
  if (nranks >= 0 && product != nranks)
    return fail(buf, len,
                "process grid NP_T x NP_X x NP_Y x NP_Z = %dx%dx%dx%d needs %d MPI process%s, "
                "but this run has %d: start it with mpirun -np %d, or change NP_T..NP_Z so "
                "that their product is %d",
                p->np[0], p->np[1], p->np[2], p->np[3], product, product == 1 ? "" : "es",
                nranks, product, nranks);
  return NULL;
}

const char *geometry_check_params(const geometry_params *p, int nranks, char *buf,
                                  size_t len) {
  const char *key;
  return check_params(p, nranks, buf, len, &key);
}

/* check_params for parameters read from `in`: the message names the file and the line of
 * the key at fault (for the rank count: the first NP_* key of the file). Returns 0 or -1. */
static int check_input_params(const struct input_file *in, const geometry_params *p,
                              int nranks, char *errbuf, size_t errlen) {
  char msg[1024];
  const char *key;
  if (check_params(p, nranks, msg, sizeof msg, &key) == NULL) return 0;
  if (key == NULL) {
    key = np_key[0];
    int first = 0;
    for (int mu = 0; mu < 4; mu++) {
      int line = input_key_line(in, NULL, np_key[mu]);
      if (line > 0 && (first == 0 || line < first)) first = line, key = np_key[mu];
    }
  }
  input_value_error(in, NULL, key, errbuf, errlen, "%s", msg);
  return -1;
}

#if HR_WITH_MPI
/* Number of processes in MPI_COMM_WORLD; MPI must be running. */
static int world_size(void) {
  int flag = 0, size = 1;
  MPI_Initialized(&flag);
  if (!flag)
    hr_error("MPI is not initialised: call hr_setup (or MPI_Init) before geometry_init");
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}
#endif

int geometry_rank_at(const int d[4]) {
#if HR_WITH_MPI
  int c[4];
  for (int mu = 0; mu < 4; mu++) c[mu] = ((COORD[mu] + d[mu]) % NP_SIZE[mu] + NP_SIZE[mu]) % NP_SIZE[mu];
  int rank = 0;
  MPI_Cart_rank(hr_cart_comm, c, &rank);
  return rank;
#else
  (void)d;
  return 0;
#endif
}

void geometry_finalize(void) {
  if (!initialized) return;
  geometry_layout_free();
#if HR_WITH_MPI
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && hr_cart_comm != MPI_COMM_NULL) MPI_Comm_free(&hr_cart_comm);
  hr_cart_comm = MPI_COMM_NULL;
#endif
  initialized = 0;
}

int geometry_initialized(void) { return initialized; }

static int generation = 0;
int geometry_generation(void) { return generation; }

void geometry_init(const geometry_params *p) {
  geometry_finalize();
  int nranks = 1;
#if HR_WITH_MPI
  nranks = world_size();
#endif
  char msg[1024];
  if (geometry_check_params(p, nranks, msg, sizeof msg) != NULL)
    hr_fatal(HR_EXIT_SETUP, "%s", msg);

  VOLUME = 1;
  GLB_VOLUME = 1;
  for (int mu = 0; mu < 4; mu++) {
    GLB_SIZE[mu] = p->glb[mu];
    NP_SIZE[mu] = p->np[mu];
    PB_SIZE[mu] = p->pb[mu];
    LOC_SIZE[mu] = p->glb[mu] / p->np[mu];
    HALO_DIR[mu] = p->np[mu] > 1 || p->force_halo[mu];
    VOLUME *= LOC_SIZE[mu];
    GLB_VOLUME *= p->glb[mu];
  }
  LOC_T = LOC_SIZE[0], LOC_X = LOC_SIZE[1], LOC_Y = LOC_SIZE[2], LOC_Z = LOC_SIZE[3];
  GLB_T = GLB_SIZE[0], GLB_X = GLB_SIZE[1], GLB_Y = GLB_SIZE[2], GLB_Z = GLB_SIZE[3];
  NP_T = NP_SIZE[0], NP_X = NP_SIZE[1], NP_Y = NP_SIZE[2], NP_Z = NP_SIZE[3];
  PB_T = PB_SIZE[0], PB_X = PB_SIZE[1], PB_Y = PB_SIZE[2], PB_Z = PB_SIZE[3];

#if HR_WITH_MPI
  int periods[4] = {1, 1, 1, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 4, NP_SIZE, periods, 0, &hr_cart_comm);
  MPI_Comm_rank(hr_cart_comm, &CART_RANK);
  MPI_Cart_coords(hr_cart_comm, CART_RANK, 4, COORD);
#else
  CART_RANK = 0;
  for (int mu = 0; mu < 4; mu++) COORD[mu] = 0;
#endif
  for (int mu = 0; mu < 4; mu++) {
    int d[4] = {0, 0, 0, 0};
    d[mu] = 1;
    PROC_UP[mu] = geometry_rank_at(d);
    d[mu] = -1;
    PROC_DN[mu] = geometry_rank_at(d);
    ZERO_COORD[mu] = COORD[mu] * LOC_SIZE[mu];
  }
  initialized = 1;
  generation++;
  geometry_layout_build();

  lprintf("GEOMETRY", 10, "global lattice %dx%dx%dx%d, process grid %dx%dx%dx%d, local lattice %dx%dx%dx%d\n",
          GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z, LOC_T, LOC_X, LOC_Y, LOC_Z);
  lprintf("GEOMETRY", 20, "path blocking %dx%dx%dx%d; halo in%s%s%s%s%s\n", PB_T, PB_X, PB_Y,
          PB_Z, HALO_DIR[0] ? " t" : "", HALO_DIR[1] ? " x" : "", HALO_DIR[2] ? " y" : "",
          HALO_DIR[3] ? " z" : "",
          (HALO_DIR[0] | HALO_DIR[1] | HALO_DIR[2] | HALO_DIR[3]) ? "" : " no direction");
  lprintf("GEOMETRY", 20, "sites per field: spinor layout %d, gauge layout %d (local volume %d)\n",
          glattice.gsize_spinor, glattice.gsize_gauge, VOLUME);
}

void geometry_init_from_input(struct input_file *in) {
  geometry_params p;
  geometry_read_input(&p, in);
  geometry_init(&p);
}
