/* error_exit_demo.c -- for test_error_exit.sh: stops in the way HR_DEMO_MODE says, with
 * unfinished output files in HR_DEMO_DIR, to check exit codes, messages on stderr and the
 * removal of temporary files by a real exit, by SIGTERM, and under MPI by an abort of all
 * ranks. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libhr.h"
#if HR_WITH_MPI
#include <mpi.h>
#endif

int main(int argc, char **argv) {
  input_file *in = hr_setup(&argc, &argv, "/dev/null");
  hr_gpu_read_input(in); /* gpu:halo, the device of every rank */
  dirac_read_input(in);  /* cpu:prefetch, comm:node_halo, gpu:links */
  input_finish(in);
  const char *mode = getenv("HR_DEMO_MODE");
  const char *dir = getenv("HR_DEMO_DIR");
  if (mode == NULL || dir == NULL) hr_fatal(HR_EXIT_INPUT, "set HR_DEMO_MODE and HR_DEMO_DIR");
  char path[1024];
  snprintf(path, sizeof path, "%s/out_%d.dat", dir, hr_rank());
  hr_ofile *f = hr_ofile_open(path, "w");
  if (f == NULL) hr_fatal(HR_EXIT_IO, "cannot open %s", path);
  fprintf(hr_ofile_stream(f), "data of rank %d\n", hr_rank());
  fflush(hr_ofile_stream(f));
  if (strcmp(mode, "internal") == 0) hr_error("boom %d", 7);
  if (strcmp(mode, "fatal") == 0) hr_fatal(HR_EXIT_IO, "user error");
  if (strcmp(mode, "signal") == 0) raise(SIGTERM);
  if (strcmp(mode, "commit") == 0 && hr_ofile_commit(f) != 0) hr_fatal(HR_EXIT_IO, "commit");
  if (strcmp(mode, "internal-rank1") == 0 || strcmp(mode, "fatal-rank1") == 0) {
    /* only rank 1 fails; the others wait for it in a collective call */
    if (hr_rank() == 1) {
      if (mode[0] == 'i') hr_error("boom on rank %d", hr_rank());
      hr_fatal(HR_EXIT_NUMERICS, "only rank %d failed", hr_rank());
    }
#if HR_WITH_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
  }
  /* "exit": leave without committing */
  hr_finalize();
  return EXIT_SUCCESS;
}
