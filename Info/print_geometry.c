/* print_geometry.c -- prints the geometry of a lattice and process grid: for every process,
 * the pieces of glattice, glat_even and glat_odd with their index ranges, the send and
 * receive buffers with partner ranks, the copies, and a map of the indices of one lattice
 * plane (halo included).
 *
 * usage: print_geometry -i INPUT_FILE [--halo DIRS] [--plane MU NU] [--brief]
 *   INPUT_FILE has GLB_T..GLB_Z, NP_T..NP_Z (default 1), PB_T..PB_Z (default 2);
 *   --halo DIRS    lay out a halo in the directions DIRS (letters of "txyz") even where
 *                  NP = 1, to see the layout of a split lattice on one process;
 *   --plane MU NU  directions (letters) of the printed plane (default: the first two
 *                  directions with a halo, else t x); the other coordinates are 0;
 *   --brief        print only glattice.
 * Example: print_geometry -i input_geometry       (8x8x2x2 on one process, halo in t and x)
 *          mpirun -np 4 print_geometry -i input_geometry_mpi   (NP_T = NP_X = 2) */
#include "libhr.h"

#include <stdlib.h>
#include <string.h>

static int dir_of_letter(char c) {
  const char *letters = "txyz";
  const char *p = strchr(letters, c);
  if (c == '\0' || p == NULL)
    hr_fatal(HR_EXIT_INPUT, "print_geometry: '%c' is not a direction; use one of t, x, y, z", c);
  return (int)(p - letters);
}

/* Remove argv[i] .. argv[i+n-1]. */
static void drop_args(int *argc, char **argv, int i, int n) {
  for (int j = i; j + n <= *argc; j++) argv[j] = argv[j + n];
  *argc -= n;
}

/* Options of this program; the rest go to hr_setup. */
typedef struct {
  int halo[4];
  int plane[2];
  int brief;
} options;

static void parse_options(int *argc, char **argv, options *o) {
  o->plane[0] = o->plane[1] = -1;
  for (int i = 1; i < *argc;) {
    if (strcmp(argv[i], "--halo") == 0 && i + 1 < *argc) {
      for (const char *c = argv[i + 1]; *c; c++) o->halo[dir_of_letter(*c)] = 1;
      drop_args(argc, argv, i, 2);
    } else if (strcmp(argv[i], "--plane") == 0 && i + 2 < *argc) {
      o->plane[0] = dir_of_letter(argv[i + 1][0]);
      o->plane[1] = dir_of_letter(argv[i + 2][0]);
      if (o->plane[0] == o->plane[1])
        hr_fatal(HR_EXIT_INPUT, "print_geometry: --plane needs two different directions");
      drop_args(argc, argv, i, 3);
    } else if (strcmp(argv[i], "--brief") == 0) {
      o->brief = 1;
      drop_args(argc, argv, i, 1);
    } else {
      i++;
    }
  }
}

/* Text of this process's description. */
static char *describe(const options *o, size_t *len) {
  char *text = NULL;
  FILE *f = open_memstream(&text, len);
  if (f == NULL) hr_error("open_memstream failed");
  fprintf(f, "=== rank %d, grid coordinates (%d,%d,%d,%d), local lattice %dx%dx%dx%d\n",
          CART_RANK, COORD[0], COORD[1], COORD[2], COORD[3], LOC_T, LOC_X, LOC_Y, LOC_Z);
  fprintf(f, "  neighbours: up (t,x,y,z) = (%d,%d,%d,%d), down = (%d,%d,%d,%d)\n", PROC_UP[0],
          PROC_UP[1], PROC_UP[2], PROC_UP[3], PROC_DN[0], PROC_DN[1], PROC_DN[2], PROC_DN[3]);
  geometry_fprint_descriptor(f, "glattice", &glattice);
  if (!o->brief) {
    geometry_fprint_descriptor(f, "glat_even", &glat_even);
    geometry_fprint_descriptor(f, "glat_odd", &glat_odd);
  }
  int mu = o->plane[0], nu = o->plane[1];
  if (mu < 0) {
    mu = 0, nu = 1;
    int found = 0;
    for (int a = 0; a < 4 && found < 2; a++)
      if (HALO_DIR[a]) (found++ == 0 ? (mu = a) : (nu = a));
    if (found == 1) nu = mu == 0 ? 1 : 0;
    if (mu > nu) { int t = mu; mu = nu; nu = t; }
  }
  int at[4] = {0, 0, 0, 0};
  fprintf(f, "  index map (copies are listed above; '.' = not stored):\n");
  geometry_fprint_plane(f, mu, nu, at);
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  options o = {{0, 0, 0, 0}, {-1, -1}, 0};
  parse_options(&argc, argv, &o);
  input_file *in = hr_setup(&argc, &argv, NULL);
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  geometry_params p;
  geometry_read_input(&p, in);
  input_finish(in);
  for (int mu = 0; mu < 4; mu++) p.force_halo[mu] = o.halo[mu];
  geometry_init(&p);

  if (hr_rank() == 0)
    printf("global lattice %dx%dx%dx%d, process grid %dx%dx%dx%d, path blocking %dx%dx%dx%d\n",
           GLB_T, GLB_X, GLB_Y, GLB_Z, NP_T, NP_X, NP_Y, NP_Z, PB_T, PB_X, PB_Y, PB_Z);
  size_t len = 0;
  char *text = describe(&o, &len);
  /* Rank 0 prints every description in rank order. */
  int nranks = hr_nranks();
  for (int r = 0; r < nranks; r++) {
    int n = r == hr_rank() ? (int)len : 0;
    global_max_int(&n, 1);
    char *buf = malloc((size_t)n + 1);
    if (r == hr_rank()) memcpy(buf, text, (size_t)n);
#if HR_WITH_MPI
    if (r != 0) {
      if (hr_rank() == r) MPI_Send(buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
      if (hr_rank() == 0) MPI_Recv(buf, n, MPI_CHAR, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
#endif
    buf[n] = '\0';
    if (hr_rank() == 0) fputs(buf, stdout);
    free(buf);
  }
  free(text);
  geometry_finalize();
  hr_finalize();
  return 0;
}
