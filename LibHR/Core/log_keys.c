/* log_keys.c -- the log keys of an input file (log:default, log:<topic> = level), read into
 * the logger's per-topic verbosity: the one place where the logger and the input reader meet. */
#include "hr_error.h"
#include "input_file.h"
#include "logger.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* input_foreach_prefix callback for "log:<topic> = <level>". */
static void read_log_key(const char *key, const char *value, int line, void *ctx) {
  const input_file *in = ctx;
  const char *topic = key + strlen("log:");
  char *end;
  errno = 0;
  long level = strtol(value, &end, 10);
  int ok = *value != '\0' && *end == '\0' && errno == 0 && level >= INT_MIN && level <= INT_MAX;
  if (!ok)
    hr_fatal(HR_EXIT_INPUT, "%s:%d: %s: malformed value '%s' (expected an integer log level)",
             input_filename(in), line, key, value);
  if (*topic == '\0')
    hr_fatal(HR_EXIT_INPUT, "%s:%d: %s: missing topic name after 'log:' (e.g. log:default)",
             input_filename(in), line, key);
  logger_set_level(topic, (int)level);
}

void logger_read_input(struct input_file *in) {
  input_declare_key(in, NULL, "log:default");
  /* Order does not matter: a topic's own level always wins over log:default. */
  input_foreach_prefix(in, "log:", read_log_key, in);
}
