/* run_state.h -- start, save, stop and continue a Markov chain of gauge configurations (the
 * pure-gauge program and the HMC). A configuration is saved as <conf dir>/<run name>_n<step>
 * (HiRep, ILDG or openQCD format) with "<file>.rng" beside it holding the global generator
 * state and the step number, so that a run started from that file continues bitwise as if it
 * had never stopped. A run never overwrites a file: it refuses to start when a file it would
 * write exists, unless it continues the chain from its last saved configuration. A save
 * writes the .rng first and the configuration second, each through a temporary file: a kill at
 * any instant leaves the last complete pair, and at most temporary files and a lone .rng that
 * the next start removes and reports. A run stops cleanly, with its state saved, at a
 * wall-clock limit or on SIGTERM / SIGUSR1 (Doc/hmc.md, Doc/pure_gauge.md).
 * Implemented in: Update/run_state.c. */
#ifndef RUN_STATE_H
#define RUN_STATE_H

#include <stdint.h>

#include "fields.h"
#include "input_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A chain's keys of the input file and its state while it runs. */
typedef struct {
  char start[INPUT_STRING_MAX];    /* gauge start: cold, hot, <file> or "<file> new chain" */
  char conf_dir[INPUT_STRING_MAX]; /* folder of the saved configurations */
  char run_name[INPUT_STRING_MAX]; /* name prefix of the saved configurations */
  long long seed;                  /* generator seed of a new chain */
  int save_freq;                   /* save every save_freq steps (0: never) */
  int save_format;                 /* hr_archive_format of the saved configurations */
  double time_limit;               /* seconds of wall-clock time for the run (0: none) */
  /* set by run_start and run_save */
  const input_file *in;            /* for messages at the line of a key */
  double t_start, t_last;          /* hr_wtime() at run_start and at the last check */
  double longest_step, longest_save; /* seconds */
  int last_saved;                  /* step of the last save of this run (-1: none) */
  int stop_reason;                 /* RUN_STOP_* once run_stop_requested said so */
} run_chain;

/* Why a run stops before its last step. */
enum { RUN_CONTINUE = 0, RUN_STOP_TIME_LIMIT = 1, RUN_STOP_SIGNAL = 2 };

/* Read the chain's keys (gauge start, seed, save freq, save format, conf dir, run name, time
 * limit) from the top level of `in`; `step` names a step in the key help ("trajectory"). */
void run_chain_read_input(run_chain *c, input_file *in, const char *step);
/* Start the chain: the generator from the seed and the links u from `gauge start`. A saved
 * configuration continues its chain (generator state and step from its .rng; a file without
 * .rng stops with exit code 2 at the gauge start line, unless it says "new chain"). With
 * save freq > 0 the conf dir is created if needed, checked for writability and locked
 * (<run name>.lock) against a second run of the same chain; temporary files of an interrupted
 * save and lone .rng files of steps after the start are removed and reported; any other saved
 * file of this run name after the start step stops the run (exit code 2 at the run name line).
 * Logs the start configuration and its plaquette. Installs the SIGTERM / SIGUSR1 handling of
 * run_stop_requested. Returns the step to continue after (0 for a new chain). Collective. */
int run_start(suNg_field *u, run_chain *c);
/* After step `step` of a run that ends at `last`: whether to stop now (RUN_CONTINUE, or
 * RUN_STOP_SIGNAL after SIGTERM / SIGUSR1 on any rank, or RUN_STOP_TIME_LIMIT when the next
 * step and a save would not fit the time limit). On a stop with save freq > 0 the state after
 * `step` is saved (unless just saved) and a line says how to continue. Collective. */
int run_stop_requested(run_chain *c, int step, int last, suNg_field *u);
/* Save u as <conf dir>/<run name>_n<step> with its .rng (the .rng first); stops with exit
 * code 3 if either file exists or cannot be written. Collective. */
void run_save(run_chain *c, int step, suNg_field *u);
/* Links without a chain (benchmarks): the generator from `seed` and u from `start`: cold, hot
 * or any configuration file (a .rng beside it is ignored). Collective. */
void run_start_links(suNg_field *u, const char *start, uint64_t seed);
/* Exit code of a run that ended after run_stop_requested said `reason`: 0, or
 * HR_EXIT_STOPPED after a signal. */
int run_exit_code(int reason);

#ifdef __cplusplus
}
#endif

#endif
