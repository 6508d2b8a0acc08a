/* run_state.h -- start, save and continue a Markov chain of gauge configurations (the
 * pure-gauge program and the HMC): a configuration is saved in HiRep's format as
 * <conf dir>/<run name>_n<step> with "<file>.rng" beside it holding the global generator state
 * and the step (trajectory) number, so that a run started from that file continues bitwise as
 * if it had never stopped (Doc/pure_gauge.md, Doc/hmc.md). Both files are written atomically. */
#ifndef RUN_STATE_H
#define RUN_STATE_H

#include <stdint.h>

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start the generator with `seed` and the links u from `start`: "cold", "hot", or the path of
 * a saved configuration; for a path with "<path>.rng" the generator state and the step are
 * restored from it (the run continues), otherwise the run starts anew from those links.
 * Returns the step to continue after (0 for a new run). Stops with a message (exit code 3)
 * on an unreadable or mismatched file. Collective. */
int run_start(suNg_field *u, uint64_t seed, const char *start);
/* Create the folder `dir` when it does not exist (rank 0); stops on failure. Collective. */
void run_prepare_conf_dir(const char *dir);
/* Save u as <dir>/<name>_n<step> and its "<file>.rng" (generator state and step). */
void run_save(const char *dir, const char *name, int step, suNg_field *u);

#ifdef __cplusplus
}
#endif

#endif
