/* logger.h -- lprintf(topic, level, ...): messages by topic with per-topic verbosity levels
 * (input keys log:default and log:<topic>); rank 0 writes to stdout or a file, other ranks
 * to their own file or nowhere.
 * Implemented in: LibHR/Core/logger.c, LibHR/Core/log_keys.c. */
#ifndef LOGGER_H
#define LOGGER_H

#include <stdio.h>

struct input_file;

/* Print a message of `topic` if `level` <= the topic's verbosity (default 10), prefixed
 * with "[TOPIC][level]" (once per call; put "\n" in fmt). Topics match without regard to
 * case. Thread-safe (one call, one whole write); only ranks that have an output print. */
void lprintf(const char *topic, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set the verbosity of one topic ("default" sets every topic without its own level). */
void logger_set_level(const char *topic, int level);
/* Current verbosity of a topic. */
int logger_level(const char *topic);
/* Read log:default and every log:<topic> key of the input file (they count as used); a
 * level that is not an integer stops with "file:line: key: ..." (HR_EXIT_INPUT). */
void logger_read_input(struct input_file *in);
/* Send rank 0's output to `path` (NULL: stdout); other ranks log to "<path>_<rank>" (NULL:
 * stdout) when `all_ranks` is non-zero and nowhere otherwise. A file that cannot be
 * opened stops the program (HR_EXIT_IO). */
void logger_set_output(const char *path, int all_ranks);
/* Flush and close log files; afterwards rank 0 logs to stdout again. */
void logger_close(void);

#endif
