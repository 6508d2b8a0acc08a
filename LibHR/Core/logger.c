/* logger.c -- lprintf: messages by topic, per-topic verbosity (logger_set_level; the keys
 * log:default and log:<topic> are read in log_keys.c), output of rank 0 to stdout or a file
 * and of other ranks to their own files or nowhere; log files are appended to, and a fatal
 * error's message goes into them too (an error hook). */
#include "logger.h"
#include "hr_build_config.h"
#include "hr_core.h"
#include "hr_error.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Verbosity of topics without a level of their own, unless log:default says otherwise. */
#define LOGGER_DEFAULT_LEVEL 10
/* Most topics with their own level, and the longest topic name. */
#define LOGGER_MAX_TOPICS 64
#define LOGGER_TOPIC_MAX 48

typedef struct {
  char name[LOGGER_TOPIC_MAX];
  int level;
} logger_topic;

static logger_topic topics[LOGGER_MAX_TOPICS];
static int n_topics = 0;
static int default_level = LOGGER_DEFAULT_LEVEL;
/* NULL: not chosen yet (rank 0 uses stdout, other ranks nothing). */
static FILE *log_stream = NULL;
static int log_stream_is_file = 0;
static int log_output_chosen = 0;

/* Entry of `topic` (case-insensitive), or NULL. */
static logger_topic *find_topic(const char *topic) {
  for (int i = 0; i < n_topics; i++)
    if (strcasecmp(topics[i].name, topic) == 0) return &topics[i];
  return NULL;
}

void logger_set_level(const char *topic, int level) {
  if (strcasecmp(topic, "default") == 0) {
    default_level = level;
    return;
  }
  logger_topic *t = find_topic(topic);
  if (t == NULL) {
    if (n_topics == LOGGER_MAX_TOPICS)
      hr_error("too many log topics (at most %d); cannot set the level of '%s'",
               LOGGER_MAX_TOPICS, topic);
    if (strlen(topic) >= LOGGER_TOPIC_MAX)
      hr_error("log topic '%s' is too long (at most %d characters)", topic,
               LOGGER_TOPIC_MAX - 1);
    t = &topics[n_topics++];
    strcpy(t->name, topic);
  }
  t->level = level;
}

int logger_level(const char *topic) {
  if (strcasecmp(topic, "default") == 0) return default_level;
  const logger_topic *t = find_topic(topic);
  return t ? t->level : default_level;
}

/* Stream this rank writes to (NULL: nowhere). */
static FILE *current_stream(void) {
  if (log_output_chosen) return log_stream;
  return hr_rank() == 0 ? stdout : NULL;
}

/* Append formatted text to a growing buffer. */
static void format_line(char **buf, size_t *cap, const char *topic, int level,
                        const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int head = snprintf(*buf, *cap, "[%s][%d]", topic, level);
  if (head < 0) head = 0;
  size_t used = (size_t)head < *cap ? (size_t)head : *cap;
  int body = vsnprintf(*buf + used, *cap - used, fmt, ap);
  if (body >= 0 && (size_t)head + (size_t)body + 1 > *cap) {
    size_t need = (size_t)head + (size_t)body + 1;
    char *big = malloc(need);
    if (big != NULL) {
      snprintf(big, need, "[%s][%d]", topic, level);
      vsnprintf(big + head, need - (size_t)head, fmt, ap2);
      *buf = big;
      *cap = need;
    }
  }
  va_end(ap2);
}

void lprintf(const char *topic, int level, const char *fmt, ...) {
  if (level > logger_level(topic)) return;
  FILE *out = current_stream();
  if (out == NULL) return;
  char local[1024];
  char *buf = local;
  size_t cap = sizeof local;
  va_list ap;
  va_start(ap, fmt);
  format_line(&buf, &cap, topic, level, fmt, ap);
  va_end(ap);
#if HR_WITH_OPENMP
#pragma omp critical(hr_logger_output)
#endif
  {
    fputs(buf, out);
    fflush(out);
  }
  if (buf != local) free(buf);
}

/* Error hook: the message of a fatal error (as printed on stderr, without "[rank R] ") goes
 * into the log file too, so that the log says why the run ended. */
static void write_error_to_log(void) {
  if (log_stream == NULL || !log_stream_is_file) return;
  fprintf(log_stream, "%s\n", hr_last_error());
  fflush(log_stream);
}

/* Exit with a message unless log file `name` can be written: its directory is created when missing and must
 * take files (hr_check_output_dir). */
static void check_log_directory(const char *name) {
  char dir[4096], why[4096 + 256];
  hr_parent_dir(dir, sizeof dir, name);
  if (hr_check_output_dir(dir, why, sizeof why) != 0)
    hr_fatal(HR_EXIT_IO, "log file '%s': %s; choose a log file (-o) where files can be written",
             name, why);
}

void logger_set_output(const char *path, int all_ranks) {
  logger_close();
  log_output_chosen = 1;
  int rank = hr_rank();
  if (path == NULL) {
    log_stream = (rank == 0 || all_ranks) ? stdout : NULL;
    return;
  }
  if (rank != 0 && !all_ranks) {
    log_stream = NULL;
    return;
  }
  char name[4096];
  if (rank == 0)
    snprintf(name, sizeof name, "%s", path);
  else
    snprintf(name, sizeof name, "%s_%d", path, rank);
  check_log_directory(name);
  FILE *f = fopen(name, "a"); /* a restart with the same log keeps the earlier part */
  if (f == NULL)
    hr_fatal(HR_EXIT_IO, "cannot open log file '%s' for writing: %s", name, strerror(errno));
  if (hr_atexit_error(write_error_to_log) != 0) {
    fclose(f);
    hr_error("no room for the error hook of the log file '%s'", name);
  }
  log_stream = f;
  log_stream_is_file = 1;
}

void logger_close(void) {
  if (log_stream != NULL) {
    if (log_stream_is_file)
      fclose(log_stream);
    else
      fflush(log_stream);
  }
  log_stream = NULL;
  log_stream_is_file = 0;
  log_output_chosen = 0;
}
