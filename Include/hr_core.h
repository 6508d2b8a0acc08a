/* hr_core.h -- start and end of a LibHR program: command line (-i input file, -o log file),
 * MPI start-up, the program's input file, finalisers of the modules, the build description,
 * rank/size/thread queries and wall-clock time, writable output directories, and output files
 * that are written whole or not at all.
 * Implemented in: LibHR/Core/runtime.c, LibHR/Core/setup.c, LibHR/Core/ofile.c,
 *  LibHR/Core/output_dir.c, LibHR/Core/build_info.c. */
#ifndef HR_CORE_H
#define HR_CORE_H

#include <stdio.h>
#include "hr_build_config.h"
#include "input_file.h"

/* Start a program: MPI_Init (MPI builds), parse "-i FILE" (default `default_input`, may be
 * NULL to make -i required), "-o LOGFILE" and "-h" (usage, exit 0; any other argument stops
 * with exit code HR_EXIT_INPUT), open the input file and read the log:* keys and
 * memory:huge_pages. Returns the parsed input file (owned by LibHR, freed by hr_finalize); the
 * caller has the modules read their keys (hr_gpu_read_input, dirac_read_input), reads its
 * own, then calls input_finish. On return *argc is 1: every argument was consumed. */
input_file *hr_setup(int *argc, char ***argv, const char *default_input);
/* hr_setup for programs that also take names on the command line (configuration files):
 * the arguments that are neither options (starting with '-') nor the file of -i / -o come
 * back in *names, in their order (*nnames of them; the array belongs to LibHR and is freed by
 * hr_finalize, the strings are argv's); the options go to hr_setup. */
input_file *hr_setup_with_names(int argc, char **argv, const char *default_input, int *nnames,
                                char ***names);
/* End a program: run the finalisers of hr_at_finalize (the latest first), flush and close
 * logs, free the input file of hr_setup, MPI_Finalize. */
void hr_finalize(void);
/* Have hr_finalize call `fn` (before the logs close and MPI ends): a module frees there what
 * must go before MPI_Finalize. Finalisers run in the reverse order of registration, each once
 * per hr_finalize (a function registered again keeps its first place); call from one thread. */
void hr_at_finalize(void (*fn)(void));

/* Print the description of this build, one lprintf line each under `topic` at `level`: LibHR
 * version and source revision, theory, MPI, OpenMP, GPU backend, vector instructions of the
 * CPU Dirac kernels, FFTW, MPFR, debug checks, compiler and flags (format: Doc/input_files.md). */
void hr_log_build_config(const char *topic, int level);
/* Check, before any work, that output files can be written in `dir` (NULL or "": the current
 * directory): create it and its missing parents, then create and remove a file in it (finds a
 * read-only mount, missing permissions, a full disk). Returns 0, or -1 with the reason
 * ("cannot create directory 'a/b': Permission denied") in err. Each calling process checks. */
int hr_check_output_dir(const char *dir, char *err, size_t errlen);
/* The folder holding file `path` into dir (len bytes): "." for a name without '/', "/" for a
 * file in the root. */
void hr_parent_dir(char *dir, size_t len, const char *path);

/* Wall-clock seconds since an arbitrary start (monotonic clock), for timings. */
double hr_wtime(void);

/* 1 while MPI is running (initialised and not finalised); 0 otherwise and without MPI. */
int hr_mpi_running(void);
/* MPI rank of this process in the world communicator (0 without MPI). */
int hr_rank(void);
/* Number of MPI ranks (1 without MPI). */
int hr_nranks(void);
/* Number of OpenMP threads a parallel region uses (1 without OpenMP). */
int hr_nthreads(void);
/* [*lo, *hi): the calling thread's contiguous share of begin .. end-1 inside an OpenMP parallel
 * region, the shares in thread order (the whole range outside one and without OpenMP). */
void hr_thread_share(long begin, long end, long *lo, long *hi);
/* The i-th of lo .. hi-1 (0 <= i < hi - lo) walked as two interleaved halves: lo, lo + half,
 * lo + 1, lo + half + 1, ... with half = (hi - lo + 1) / 2; every index once. */
static inline long hr_interleaved_index(long lo, long hi, long i) {
  return lo + i / 2 + (i % 2) * ((hi - lo + 1) / 2);
}

/* An output file that appears under its final name only when complete: data go to a
 * temporary file beside it, which hr_ofile_commit flushes, syncs and renames. A fatal error
 * or hr_ofile_abort removes the temporary file, and so do an exit without commit and
 * SIGTERM/SIGINT/SIGHUP. Open, commit and abort from one thread at a time. */
typedef struct hr_ofile hr_ofile;
/* Open `path` for writing (through a temporary file); `mode` is "w" or "wb". Returns NULL
 * with errno set. */
hr_ofile *hr_ofile_open(const char *path, const char *mode);
/* The stdio stream to write to. */
FILE *hr_ofile_stream(hr_ofile *f);
/* Finish: flush, fsync, rename to the final name. Returns 0, or -1 (file removed). */
int hr_ofile_commit(hr_ofile *f);
/* Give up: close and remove the temporary file. */
void hr_ofile_abort(hr_ofile *f);

/* From now on the first SIGTERM or SIGUSR1 only records the signal (hr_stop_signal), so that
 * a long run can finish its step, save and exit cleanly; a second one of them removes the
 * temporary output files and ends the process as the signal does by default. */
void hr_stop_on_signals(void);
/* The signal recorded since hr_stop_on_signals (SIGTERM or SIGUSR1), or 0. */
int hr_stop_signal(void);
/* Fault injection for the tests: kill this process with SIGKILL here when the environment
 * variable HR_TEST_CRASH_POINT equals `point`. hr_ofile_commit offers the point
 * "commit:<file name without folder>" just before the rename; run_save (run_state.h)
 * "between:<run name>_n<step>" between the .rng and the configuration. */
void hr_test_crash_point(const char *point);

#endif
