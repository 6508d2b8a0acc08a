/* setup.c -- start and end of a LibHR program: MPI start-up, command line (-i, -o, -h),
 * the head of the log (separator line, command line, build, ranks and threads), opening of
 * the input file with its log:* keys and memory:huge_pages; the finalisers that modules
 * register (hr_at_finalize), run by hr_finalize before MPI_Finalize. */
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

/* The input file opened by hr_setup, freed by hr_finalize. */
static input_file *setup_input = NULL;
/* hr_setup_with_names: the names, and the options handed to hr_setup (kept until hr_finalize
 * so that a fatal error in hr_setup leaves nothing unfreed) */
static char **setup_names = NULL, **setup_opts = NULL;
/* Longest command line printed at the head of the log (longer ones end in "..."). */
#define HR_COMMAND_LINE_MAX 4096
/* Most finalisers hr_at_finalize accepts. */
#define HR_FINALIZE_MAX 32

/* The finalisers registered by hr_at_finalize, in their order. */
static void (*finalizers[HR_FINALIZE_MAX])(void);
static int n_finalizers = 0;

/* Program name without its directory, for messages. */
static const char *program_name(int argc, char **argv) {
  if (argc < 1 || argv == NULL || argv[0] == NULL) return "program";
  const char *slash = strrchr(argv[0], '/');
  return slash ? slash + 1 : argv[0];
}

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
  /* memory:huge_pages = on|off: large host arrays on transparent huge pages (host_memory.c) */
  int huge_pages = 1;
  const input_key host_keys[] = {
      {"memory:huge_pages", INPUT_CHOICE, &huge_pages, "on", "off|on",
       "large host arrays (fields, clover blocks, packed links, neighbour tables) aligned to "
       "2 MiB and placed on transparent huge pages where the kernel has them (on), or on "
       "ordinary pages (off); the same results either way"},
      INPUT_KEYS_END};
  input_read(in, NULL, host_keys);
  hr_set_huge_pages(huge_pages);
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

void hr_at_finalize(void (*fn)(void)) {
  hr_assert(fn != NULL, "hr_at_finalize: no function given");
  for (int i = 0; i < n_finalizers; i++)
    if (finalizers[i] == fn) return;
  if (n_finalizers == HR_FINALIZE_MAX)
    hr_error("hr_at_finalize: more than %d finalisers", HR_FINALIZE_MAX);
  finalizers[n_finalizers++] = fn;
}

void hr_finalize(void) {
  /* the latest first, each once; the list is empty afterwards (one registered while they run
   * waits for the next hr_finalize) */
  void (*run[HR_FINALIZE_MAX])(void);
  const int n = n_finalizers;
  memcpy(run, finalizers, sizeof run);
  n_finalizers = 0;
  for (int i = n - 1; i >= 0; i--) run[i]();
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
