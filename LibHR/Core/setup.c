/* setup.c -- start and end of a LibHR program: MPI start-up, command line (-i, -o, -h),
 * the head of the log (separator line, command line, build, ranks and threads), opening of
 * the input file with its log:* keys, rank/size/thread queries. */
#include "dirac.h"
#include "gpu.h"
#include "hr_core.h"
#include "host_memory.h"
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if HR_WITH_MPI
#include <mpi.h>
#endif
#if HR_WITH_OPENMP
#include <omp.h>
#endif

/* The input file opened by hr_setup, freed by hr_finalize. */
static input_file *setup_input = NULL;
/* hr_setup_with_names: the names, and the options handed to hr_setup (kept until hr_finalize
 * so that a fatal error in hr_setup leaves nothing unfreed) */
static char **setup_names = NULL, **setup_opts = NULL;
/* Longest command line printed at the head of the log (longer ones end in "..."). */
#define HR_COMMAND_LINE_MAX 4096

int hr_mpi_running(void) {
#if HR_WITH_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
#else
  return 0;
#endif
}

double hr_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int hr_rank(void) {
  int rank = 0;
#if HR_WITH_MPI
  if (hr_mpi_running()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
  return rank;
}

int hr_nranks(void) {
  int size = 1;
#if HR_WITH_MPI
  if (hr_mpi_running()) MPI_Comm_size(MPI_COMM_WORLD, &size);
#endif
  return size;
}

int hr_nthreads(void) {
#if HR_WITH_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void hr_thread_share(long begin, long end, long *lo, long *hi) {
#if HR_WITH_OPENMP
  const long nt = omp_get_num_threads(), t = omp_get_thread_num();
#else
  const long nt = 1, t = 0;
#endif
  *lo = begin + (end - begin) * t / nt;
  *hi = begin + (end - begin) * (t + 1) / nt;
}

/* Program name without its directory, for messages. */
static const char *program_name(int argc, char **argv) {
  if (argc < 1 || argv == NULL || argv[0] == NULL) return "program";
  const char *slash = strrchr(argv[0], '/');
  return slash ? slash + 1 : argv[0];
}

#if HR_GPU_ENABLED
/* Choose the GPU of every rank (hr_gpu_select_device) and say which: one line per rank on
 * rank 0's log, and a note when ranks of a node share a device. */
static void log_gpu_devices(void) {
  const hr_gpu_device_choice c = hr_gpu_select_device();
  char name[256];
  hr_gpu_device_name(name, sizeof name);
  int mine[5] = {c.device, c.devices, c.local_rank, c.local_ranks, c.forced};
  int n = hr_nranks();
  int *all = hr_rank() == 0 ? malloc(sizeof(int) * 5 * (size_t)n) : NULL;
  if (hr_rank() == 0 && all == NULL) hr_error("out of memory (device log)");
#if HR_WITH_MPI
  if (hr_mpi_running())
    MPI_Gather(mine, 5, MPI_INT, all, 5, MPI_INT, 0, MPI_COMM_WORLD);
  else if (all != NULL)
    memcpy(all, mine, sizeof mine);
#else
  if (all != NULL) memcpy(all, mine, sizeof mine);
#endif
  lprintf("GPU", 10, "rank 0 uses %s\n", name);
  lprintf("GPU", 10, "halo exchange (MPI builds): %s\n",
          hr_gpu_halo_through_device() ? "device memory handed to MPI"
                                       : "staged through host memory");
  for (int r = 0; r < n && all != NULL; r++) {
    const int *a = all + 5 * r;
    lprintf("GPU", 10, "rank %d: device %d of %d on its node (node-local rank %d of %d%s)%s\n",
            r, a[0], a[1], a[2], a[3], a[4] ? ", set by HR_GPU_DEVICE" : "",
            a[3] > a[1] ? ": ranks of this node share its devices" : "");
  }
  free(all);
}
#endif

/* The arguments joined by spaces into buf, each quoted for a POSIX shell ('...') where it
 * holds other characters than letters, digits and _-+=.,/:@%; "..." at the end when cut. */
static void format_command_line(int argc, char **argv, char *buf, size_t len) {
  static const char plain[] = "_-+=.,/:@%";
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < argc && argv[i] != NULL; i++) {
    const char *a = argv[i];
    int quote = *a == '\0';
    for (const char *c = a; *c && !quote; c++)
      quote = !(isalnum((unsigned char)*c) || strchr(plain, *c) != NULL);
    char word[1024];
    size_t w = 0;
    if (quote) word[w++] = '\'';
    const char *c = a;
    for (; *c && w + 9 < sizeof word; c++) { /* room for '\'', "..." and the closing ' */
      if (*c == '\'') { /* ' becomes '\'' */
        memcpy(word + w, "'\\''", 4);
        w += 4;
      } else {
        word[w++] = *c;
      }
    }
    if (*c != '\0') { /* an argument too long to show whole */
      memcpy(word + w, "...", 3);
      w += 3;
    }
    if (quote) word[w++] = '\'';
    word[w] = '\0';
    int used = snprintf(buf + n, len - n, "%s%s", i ? " " : "", word);
    if (used < 0 || (size_t)used >= len - n) {
      if (len > 4) snprintf(buf + len - 4, 4, "...");
      return;
    }
    n += (size_t)used;
  }
}

/* The first lines of a run's log: a separator naming the program, the date, time and host
 * (a log file is appended to, so that it tells where each run begins), the command line, the
 * working directory, the build, the ranks and threads. */
static void log_head(const char *prog, const char *command_line) {
  char when[64] = "unknown time", host[256] = "unknown", cwd[4096] = "unknown";
  const time_t now = time(NULL);
  struct tm local;
  if (localtime_r(&now, &local) != NULL)
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z", &local);
  if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "unknown");
  host[sizeof host - 1] = '\0';
  if (getcwd(cwd, sizeof cwd) == NULL) snprintf(cwd, sizeof cwd, "unknown");
  lprintf("SETUP", 0, "======== %s: start %s, host %s ========\n", prog, when, host);
  lprintf("SETUP", 0, "command line: %s\n", command_line);
  lprintf("SETUP", 0, "working directory: %s\n", cwd);
  hr_log_build_config("SETUP", 0);
  lprintf("SETUP", 0, "%d MPI rank(s), %d OpenMP thread(s) per rank\n", hr_nranks(),
          hr_nthreads());
}

/* Usage text of the options hr_setup understands. */
static void format_usage(char *buf, size_t len, const char *prog, const char *default_input) {
  snprintf(buf, len,
           "usage: %s [-i INPUT_FILE] [-o LOG_FILE] [-h]\n"
           "  -i INPUT_FILE  input file to read (%s%s)\n"
           "  -o LOG_FILE    append the log of rank 0 to LOG_FILE instead of standard output\n"
           "  -h             print this help and exit",
           prog, default_input ? "default: " : "required", default_input ? default_input : "");
}

/* hr_setup, with the whole command line (for the log head) given apart: hr_setup_with_names
 * hands over the options only. */
static input_file *setup_program(int *argc, char ***argv, const char *default_input,
                                 const char *command_line) {
#if HR_WITH_MPI
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
#if HR_WITH_OPENMP
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
#else
    MPI_Init(argc, argv);
#endif
  }
#endif
  const char *prog = program_name(*argc, *argv);
  char usage[1024];
  format_usage(usage, sizeof usage, prog, default_input);

  const char *input_path = NULL, *log_path = NULL;
  for (int i = 1; i < *argc; i++) {
    const char *arg = (*argv)[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      if (hr_rank() == 0) printf("%s\n", usage);
      fflush(stdout);
#if HR_WITH_MPI
      MPI_Finalize();
#endif
      exit(HR_EXIT_OK);
    }
    if (strcmp(arg, "-i") == 0 || strcmp(arg, "-o") == 0) {
      const char **target = arg[1] == 'i' ? &input_path : &log_path;
      if (i + 1 >= *argc)
        hr_fatal(HR_EXIT_INPUT, "%s: option %s needs a file name\n%s", prog, arg, usage);
      if (*target != NULL)
        hr_fatal(HR_EXIT_INPUT, "%s: option %s given twice\n%s", prog, arg, usage);
      *target = (*argv)[++i];
      continue;
    }
    hr_fatal(HR_EXIT_INPUT, "%s: unknown %s '%s'\n%s", prog,
             arg[0] == '-' ? "option" : "argument", arg, usage);
  }
  if (input_path == NULL) input_path = default_input;
  if (input_path == NULL)
    hr_fatal(HR_EXIT_INPUT, "%s: no input file; give one with -i INPUT_FILE\n%s", prog, usage);

  if (log_path != NULL) logger_set_output(log_path, 0);
  log_head(prog, command_line);
  if (*argc > 1) { /* every argument was consumed */
    *argc = 1;
    (*argv)[1] = NULL;
  }
  lprintf("SETUP", 0, "input file: %s\n", input_path);
  input_file *in = input_open(input_path);
  logger_read_input(in);
  setup_input = in;
  /* the host side: cpu:prefetch = auto|off|neighbours|on|interleaved, the software prefetch
   * and site order of the CPU Dirac loops; comm:node_halo = on|off, the Dirac halo between
   * ranks of one node through its memory (accepted, and ignored, in builds without MPI);
   * memory:huge_pages = on|off, large host arrays on transparent huge pages */
  int prefetch = 0, node_halo = 1, huge_pages = 1;
  const input_key host_keys[] = {
      {"cpu:prefetch", INPUT_CHOICE, &prefetch, "auto", "auto|off|neighbours|on|interleaved",
       "software prefetch of the CPU Dirac loops: chosen by timing per kind of kernel (auto), "
       "none (off), the neighbour spinors of a site a few sites ahead (neighbours), those "
       "and the site's links, x and clover blocks (on), or as on with each thread's sites "
       "walked as two interleaved halves (interleaved); the same results with every setting"},
      {"comm:node_halo", INPUT_CHOICE, &node_halo, "on", "off|on",
       "halo exchanges of the CPU Dirac operators between MPI ranks of one node: written "
       "straight into the receiving rank's memory (on) or sent as MPI messages (off); the same "
       "results either way"},
      {"memory:huge_pages", INPUT_CHOICE, &huge_pages, "on", "off|on",
       "large host arrays (fields, clover blocks, packed links, neighbour tables) aligned to "
       "2 MiB and placed on transparent huge pages where the kernel has them (on), or on "
       "ordinary pages (off); the same results either way"},
      INPUT_KEYS_END};
  input_read(in, NULL, host_keys);
  dirac_set_cpu_prefetch(prefetch - 1); /* auto: DIRAC_PREFETCH_AUTO = -1, off: 0, ... */
  dirac_set_node_halo(node_halo, 0);
  hr_set_huge_pages(huge_pages);
  /* gpu:halo = auto|device|host, gpu:links = 18|12 (accepted, and ignored, in builds without a
   * GPU) */
  int halo_path = HR_GPU_HALO_AUTO, links12 = 0;
  const input_key gpu_keys[] = {
      {"gpu:halo", INPUT_CHOICE, &halo_path, "auto", HR_GPU_HALO_CHOICES,
       "GPU halo exchanges: device memory to MPI where it reads it (auto), always (device), "
       "or staged through host memory (host)"},
      {"gpu:links", INPUT_CHOICE, &links12, "18", "18|12",
       "numbers per link read by the GPU Dirac kernels: all (18), or the first two rows, the "
       "third rebuilt (12; 3x3 links only)"},
      INPUT_KEYS_END};
  input_read(in, NULL, gpu_keys);
#if HR_GPU_ENABLED
  if (links12 && NF != 3)
    input_fail(in, NULL, "gpu:links",
               "gpu:links = 12 rebuilds the third row of 3x3 links; the links of this build are "
               "%dx%d: use 18",
               NF, NF);
  dirac_set_gpu_links(links12 ? 12 : 18);
  lprintf("GPU", 10, "Dirac hopping kernels: %s\n",
          links12 ? "12 numbers per link (rows 0 and 1; row 2 rebuilt)" : "18 numbers per link");
  hr_gpu_set_halo_path((hr_gpu_halo_path)halo_path);
  log_gpu_devices();
#endif
  return in;
}

input_file *hr_setup(int *argc, char ***argv, const char *default_input) {
  char command_line[HR_COMMAND_LINE_MAX];
  format_command_line(*argc, *argv, command_line, sizeof command_line);
  return setup_program(argc, argv, default_input, command_line);
}

input_file *hr_setup_with_names(int argc, char **argv, const char *default_input, int *nnames,
                                char ***names) {
  const size_t n = argc > 0 ? (size_t)argc : 1;
  free(setup_opts);
  free(setup_names);
  char **opts = setup_opts = malloc((n + 1) * sizeof(char *)); /* argv[0], the options, NULL */
  setup_names = malloc(n * sizeof(char *));
  if (opts == NULL || setup_names == NULL)
    hr_fatal(HR_EXIT_INTERNAL, "hr_setup_with_names: out of memory for %d arguments", argc);
  int nopt = 0, nn = 0;
  opts[nopt++] = argc > 0 ? argv[0] : "program";
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] != '-') {
      setup_names[nn++] = argv[i];
      continue;
    }
    opts[nopt++] = argv[i];
    if ((strcmp(argv[i], "-i") == 0 || strcmp(argv[i], "-o") == 0) && i + 1 < argc)
      opts[nopt++] = argv[++i];
  }
  opts[nopt] = NULL;
  char command_line[HR_COMMAND_LINE_MAX];
  format_command_line(argc, argv, command_line, sizeof command_line);
  char **o = opts;
  input_file *in = setup_program(&nopt, &o, default_input, command_line);
  *nnames = nn;
  *names = setup_names;
  return in;
}

void hr_finalize(void) {
  dirac_comm_release(); /* MPI windows, before MPI_Finalize */
  logger_close();
  input_free(setup_input);
  setup_input = NULL;
  free(setup_names);
  free(setup_opts);
  setup_names = setup_opts = NULL;
  fflush(stdout);
#if HR_WITH_MPI
  if (hr_mpi_running()) MPI_Finalize();
#endif
}
