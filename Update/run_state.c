/* run_state.c -- start, save, stop and continue a chain of configurations (run_state.h): the
 * chain's input keys, cold / hot / file starts, the conf dir's check, lock and clean-up, the
 * refusal to overwrite, saves of the configuration with its "<file>.rng" (generator state and
 * step), and the clean stop at a time limit or on a signal. */
#include "run_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "communications.h"
#include "heatbath.h"
#include "hr_core.h"
#include "hr_error.h"
#include "logger.h"
#include "random.h"

/* Longest path this module builds. */
#define RUN_PATH_MAX (2 * INPUT_STRING_MAX + 64)
/* The words after a file name in `gauge start` that begin a new chain from it. */
#define RUN_NEW_CHAIN " new chain"
/* Most file names a refusal lists. */
#define RUN_MAX_LISTED 4

/* The formats a chain can be saved in, as the `save format` key names them (in the order of
 * the choices string). */
static const hr_archive_format save_formats[] = {HR_ARCHIVE_HIREP, HR_ARCHIVE_ILDG,
                                                 HR_ARCHIVE_OPENQCD};

void run_chain_read_input(run_chain *c, input_file *in, const char *step) {
  memset(c, 0, sizeof *c);
  char help_freq[128], help_limit[256];
  snprintf(help_freq, sizeof help_freq, "save every n %ss (0: never)", step);
  snprintf(help_limit, sizeof help_limit,
           "wall-clock seconds for the run (0: none): it stops, saved, after the last %s "
           "that fits",
           step);
  int format = 0;
  const input_key keys[] = {
      {"gauge start", INPUT_STRING, c->start, "cold", NULL,
       "cold, hot, a saved configuration with its .rng (continues its chain), or "
       "'<file> new chain' (a new chain from the links of <file>)"},
      {"seed", INPUT_LONG, &c->seed, NULL, ">=0", "random-number seed of a new chain (>= 0)"},
      {"save freq", INPUT_INT, &c->save_freq, "0", ">=0", help_freq},
      {"save format", INPUT_CHOICE, &format, "hirep", "hirep|ildg|openqcd",
       "file format of the saved configurations"},
      {"conf dir", INPUT_STRING, c->conf_dir, ".", NULL, "folder of the saved configurations"},
      {"run name", INPUT_STRING, c->run_name, "run", NULL, "name prefix of saved configurations"},
      {"time limit", INPUT_DOUBLE, &c->time_limit, "0", ">=0", help_limit},
      INPUT_KEYS_END};
  input_read(in, NULL, keys);
  c->save_format = (int)save_formats[format];
  c->in = in;
  c->last_saved = -1;
  if (c->run_name[0] == '\0' || strchr(c->run_name, '/') != NULL)
    input_fail(in, NULL, "run name", "must be a non-empty name without '/'");
  if (c->save_format == HR_ARCHIVE_OPENQCD && NG != 3)
    input_fail(in, NULL, "save format",
               "openqcd holds SU(3) links; this build is SU(%d): use hirep or ildg", NG);
}

/* Read "<conf>.rng": generator state and step. Returns 0, or -1 if absent; stops when it is
 * malformed. */
static int read_rng_file(const char *conf, hr_rng_state *st, int *step) {
  char path[RUN_PATH_MAX];
  snprintf(path, sizeof path, "%s.rng", conf);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  const int ok = rng_read_state(st, f) == 0 && fscanf(f, "step=%d", step) == 1 && *step >= 0;
  fclose(f);
  if (!ok)
    hr_fatal(HR_EXIT_IO, "%s: malformed generator-state file (expected the line "
                         "'libhr-rng seed=.. draw=..' and 'step=<n>')", path);
  return 0;
}

/* The step k of a file name "<name>_n<k>" followed by `suffix` ("" or ".rng"), or -1. */
static long saved_step(const char *file, const char *name, const char *suffix) {
  const size_t n = strlen(name), s = strlen(suffix), len = strlen(file);
  if (len <= n + 2 + s || strncmp(file, name, n) != 0 || file[n] != '_' || file[n + 1] != 'n')
    return -1;
  if (strcmp(file + len - s, suffix) != 0) return -1;
  long k = 0;
  for (const char *p = file + n + 2; p < file + len - s; p++) {
    if (*p < '0' || *p > '9' || k > INT_MAX / 10) return -1;
    k = 10 * k + (*p - '0');
  }
  return k;
}

/* Whether `file` is a temporary file of a save of `name`: "<name>_n<k>[.rng].tmp.XXXXXX". */
static int is_save_temporary(const char *file, const char *name) {
  const char *tmp = strstr(file, ".tmp.");
  if (tmp == NULL || strlen(tmp) != strlen(".tmp.XXXXXX")) return 0;
  char base[RUN_PATH_MAX];
  snprintf(base, sizeof base, "%.*s", (int)(tmp - file), file);
  return saved_step(base, name, "") >= 0 || saved_step(base, name, ".rng") >= 0;
}

/* Lock <dir>/<name>.lock for the lifetime of the process (rank 0). Returns 0, 1 when another
 * process holds it, or -1 with errno when it cannot be created. The descriptor stays open. */
static int lock_chain(const char *dir, const char *name, char *lock_path, size_t len) {
  snprintf(lock_path, len, "%s/%s.lock", dir, name);
  const int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    if (e == EWOULDBLOCK) {
      close(fd);
      return 1;
    }
    lprintf("RUN", 0, "note: %s: file locks are not supported here (%s); a second run of this "
                      "chain at the same time would not be detected\n",
            lock_path, strerror(e));
    return 0;
  }
  /* the holder's process id, for a person who finds the file (informative only) */
  char text[64];
  const int n = snprintf(text, sizeof text, "pid %ld\n", (long)getpid());
  if (ftruncate(fd, 0) == 0 && n > 0 && write(fd, text, (size_t)n) != n)
    lprintf("RUN", 10, "note: %s: the process id could not be written\n", lock_path);
  return 0;
}

/* What rank 0 found in the conf dir: whether to refuse, and the files. */
typedef struct {
  int status;       /* 0 fine; 1 cannot create / write; 2 locked; 3 saved files after the start */
  int err;          /* errno of status 1 */
  int nfound;       /* saved files after the start */
  long last_step;   /* largest step of any saved configuration with its .rng (-1: none) */
  char found[RUN_MAX_LISTED][RUN_PATH_MAX + 8];
} conf_dir_scan;

/* Rank 0: create, lock and scan the conf dir for a chain continuing after step `first`. */
static void scan_conf_dir(const run_chain *c, int first, conf_dir_scan *s) {
  memset(s, 0, sizeof *s);
  s->last_step = -1;
  struct stat st;
  if (stat(c->conf_dir, &st) != 0 && mkdir(c->conf_dir, 0777) != 0 && errno != EEXIST) {
    s->status = 1;
    s->err = errno;
    return;
  }
  char lock_path[RUN_PATH_MAX];
  const int locked = lock_chain(c->conf_dir, c->run_name, lock_path, sizeof lock_path);
  if (locked != 0) {
    s->status = locked > 0 ? 2 : 1;
    s->err = locked > 0 ? 0 : errno;
    return;
  }
  DIR *d = opendir(c->conf_dir);
  if (d == NULL) {
    s->status = 1;
    s->err = errno;
    return;
  }
  char path[RUN_PATH_MAX + 8];
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    const char *f = e->d_name;
    snprintf(path, sizeof path, "%s/%s", c->conf_dir, f);
    if (is_save_temporary(f, c->run_name)) {
      if (stat(path, &st) == 0 && unlink(path) == 0)
        lprintf("RUN", 0, "removed %s (%lld bytes): the temporary file of an interrupted save\n",
                path, (long long)st.st_size);
      continue;
    }
    const long k_conf = saved_step(f, c->run_name, "");
    const long k_rng = saved_step(f, c->run_name, ".rng");
    if (k_rng >= 0) {
      char conf[RUN_PATH_MAX + 8];
      snprintf(conf, sizeof conf, "%s/%.*s", c->conf_dir, (int)(strlen(f) - 4), f);
      if (stat(conf, &st) != 0) { /* a lone .rng: a save interrupted between its two files */
        if (k_rng > first && unlink(path) == 0)
          lprintf("RUN", 0, "removed %s: the generator state of an interrupted save (its "
                            "configuration was never written)\n",
                  path);
        continue;
      }
    }
    const long k = k_conf >= 0 ? k_conf : k_rng;
    if (k < 0) continue;
    if (k_conf >= 0) {
      char rng[RUN_PATH_MAX + 16];
      snprintf(rng, sizeof rng, "%s.rng", path);
      if (stat(rng, &st) == 0 && k > s->last_step) s->last_step = k;
    }
    if (k > first) {
      if (s->nfound < RUN_MAX_LISTED) snprintf(s->found[s->nfound], sizeof s->found[0], "%s", path);
      s->nfound++;
    }
  }
  closedir(d);
  if (s->nfound > 0) s->status = 3;
}

/* Check, lock and clean the conf dir for a chain continuing after step `first`; stops with a
 * message when the run would overwrite a file. Collective. */
static void prepare_conf_dir(const run_chain *c, int first) {
  conf_dir_scan s;
  memset(&s, 0, sizeof s);
  if (hr_rank() == 0) scan_conf_dir(c, first, &s);
  int v[4] = {s.status, s.err, s.nfound, (int)s.last_step};
  bcast_int(v, 4);
  if (v[0] == 1)
    hr_fatal(HR_EXIT_IO, "conf dir %s: cannot create or write there: %s. Give a writable "
                         "folder as conf dir.",
             c->conf_dir, strerror(v[1]));
  if (v[0] == 2)
    input_fail(c->in, NULL, "run name",
               "another running program holds %s/%s.lock: it writes this chain now. Wait for "
               "it to end, or choose another run name or conf dir",
               c->conf_dir, c->run_name);
  if (v[0] == 3) {
    char list[RUN_MAX_LISTED * (RUN_PATH_MAX + 10)] = "";
    for (int i = 0; i < s.nfound && i < RUN_MAX_LISTED; i++) {
      if (i > 0) strcat(list, ", ");
      strcat(list, s.found[i]);
    }
    char last[RUN_PATH_MAX + 160] = "";
    if (v[3] >= 0)
      snprintf(last, sizeof last,
               " To continue this chain give its last saved configuration, gauge start = "
               "%s/%s_n%d.",
               c->conf_dir, c->run_name, v[3]);
    input_fail(c->in, NULL, "run name",
               "this run would overwrite saved files of the chain '%s' in %s: %s%s (%d file%s "
               "after step %d).%s Or choose another run name or conf dir.",
               c->run_name, c->conf_dir, list, v[2] > RUN_MAX_LISTED ? ", ..." : "", v[2],
               v[2] == 1 ? "" : "s", first, last);
  }
}

/* `gauge start` split into the file and whether it starts a new chain. */
static void parse_start(const char *start, char *file, size_t len, int *new_chain) {
  snprintf(file, len, "%s", start);
  const size_t n = strlen(file), s = strlen(RUN_NEW_CHAIN);
  *new_chain = n > s && strcmp(file + n - s, RUN_NEW_CHAIN) == 0;
  if (*new_chain) {
    file[n - s] = '\0';
    for (size_t m = strlen(file); m > 0 && file[m - 1] == ' '; m--) file[m - 1] = '\0';
  }
}

int run_start(suNg_field *u, run_chain *c) {
  c->t_start = c->t_last = hr_wtime();
  c->last_saved = -1;
  rng_init((uint64_t)c->seed);
  const int cold = strcmp(c->start, "cold") == 0, hot = strcmp(c->start, "hot") == 0;
  char file[INPUT_STRING_MAX];
  int new_chain = 0, first = 0;
  hr_rng_state st = {0, 0};
  if (!cold && !hot) {
    parse_start(c->start, file, sizeof file, &new_chain);
    if (file[0] == '\0')
      input_fail(c->in, NULL, "gauge start", "'%s' names no file", c->start);
    /* rank 0's .rng decides for every rank */
    int v[6] = {0, 0, 0, 0, 0, 0};
    if (!new_chain && hr_rank() == 0) {
      v[0] = read_rng_file(file, &st, &v[1]) == 0;
      v[2] = (int)(uint32_t)(st.seed >> 32);
      v[3] = (int)(uint32_t)st.seed;
      v[4] = (int)(uint32_t)(st.draw >> 32);
      v[5] = (int)(uint32_t)st.draw;
    }
    bcast_int(v, 6);
    if (!new_chain && !v[0])
      input_fail(c->in, NULL, "gauge start",
                 "%s has no %s.rng (generator state and step), so it cannot continue its "
                 "chain. To start a new chain from these links deliberately write "
                 "'gauge start = %s new chain' (the seed of this input file starts the "
                 "generator) and give the new chain a run name of its own",
                 file, file, file);
    if (!new_chain) {
      first = v[1];
      st.seed = ((uint64_t)(uint32_t)v[2] << 32) | (uint32_t)v[3];
      st.draw = ((uint64_t)(uint32_t)v[4] << 32) | (uint32_t)v[5];
    }
  }
  if (c->save_freq > 0) prepare_conf_dir(c, first);
  if (cold) {
    gauge_field_cold(u);
    lprintf("RUN", 0, "new chain from a cold start, seed %lld\n", c->seed);
  } else if (hot) {
    gauge_field_hot(u);
    lprintf("RUN", 0, "new chain from a hot start, seed %lld\n", c->seed);
  } else {
    archive_read(u, file, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO);
    const int open = gauge_field_has_open_time_boundary(u);
    const double plaq = avr_plaquette_of_boundary(u);
    if (new_chain) {
      lprintf("RUN", 0, "new chain from the links of %s (plaquette %.16g%s), seed %lld\n", file,
              plaq, open ? ", open-boundary weighted" : "", c->seed);
    } else {
      rng_set_state(st);
      lprintf("RUN", 0, "continuing the chain of %s after step %d (plaquette %.16g%s; "
                        "generator state restored)\n",
              file, first, plaq, open ? ", open-boundary weighted" : "");
    }
  }
  if (c->save_freq > 0)
    lprintf("RUN", 10, "saving every %d steps as %s/%s_n<step> (%s format) with its .rng\n",
            c->save_freq, c->conf_dir, c->run_name,
            archive_format_name((hr_archive_format)c->save_format));
  if (c->time_limit > 0) lprintf("RUN", 10, "time limit %.0f s\n", c->time_limit);
  hr_stop_on_signals();
  return first;
}

/* Write <path>.rng: generator state and step (atomically). Returns 0 or -1 with errno. */
static int write_rng_file(const char *path, int step) {
  char rngpath[RUN_PATH_MAX + 8];
  snprintf(rngpath, sizeof rngpath, "%s.rng", path);
  hr_ofile *f = hr_ofile_open(rngpath, "w");
  if (f == NULL) return -1;
  const int ok = rng_write_state(hr_ofile_stream(f), rng_get_state()) == 0 &&
                 fprintf(hr_ofile_stream(f), "step=%d\n", step) > 0;
  if (!ok) {
    const int e = errno;
    hr_ofile_abort(f);
    errno = e;
    return -1;
  }
  return hr_ofile_commit(f);
}

void run_save(run_chain *c, int step, suNg_field *u) {
  const double t0 = hr_wtime();
  char path[RUN_PATH_MAX], rngpath[RUN_PATH_MAX + 8];
  snprintf(path, sizeof path, "%s/%s_n%d", c->conf_dir, c->run_name, step);
  snprintf(rngpath, sizeof rngpath, "%s.rng", path);
  int v[2] = {0, 0}; /* 1: a file exists; 2: the .rng could not be written; errno */
  if (hr_rank() == 0) {
    struct stat st;
    if (stat(path, &st) == 0 || stat(rngpath, &st) == 0) {
      v[0] = 1;
    } else if (write_rng_file(path, step) != 0) {
      v[0] = 2;
      v[1] = errno;
    }
  }
  bcast_int(v, 2);
  if (v[0] == 1)
    hr_fatal(HR_EXIT_IO, "%s or its .rng exists already: not overwritten. Another program "
                         "writes this chain; the run stops here (its last save is the one "
                         "before step %d)",
             path, step);
  if (v[0] == 2)
    hr_fatal(HR_EXIT_IO, "%s: cannot write the generator state: %s", rngpath, strerror(v[1]));
  char point[RUN_PATH_MAX];
  snprintf(point, sizeof point, "between:%s_n%d", c->run_name, step);
  hr_test_crash_point(point); /* fault injection of the tests: kill between the two files */
  char err[1024];
  int rc;
  if (c->save_format == HR_ARCHIVE_ILDG) {
    char lfn[RUN_PATH_MAX];
    snprintf(lfn, sizeof lfn, "%s_n%d", c->run_name, step);
    rc = archive_write_ildg_checked(path, u, 64, lfn, err, sizeof err);
  } else {
    rc = archive_write_checked(path, (hr_archive_format)c->save_format, HR_ARCHIVE_BC_AUTO, u,
                               err, sizeof err);
  }
  if (rc != 0) {
    if (hr_rank() == 0) unlink(rngpath); /* no lone .rng beside a failed save */
    hr_fatal(HR_EXIT_IO, "%s", err);
  }
  c->last_saved = step;
  const double dt = hr_wtime() - t0;
  if (dt > c->longest_save) c->longest_save = dt;
  lprintf("RUN", 10, "saved %s (%.2f s)\n", path, dt);
}

int run_stop_requested(run_chain *c, int step, int last, suNg_field *u) {
  const double now = hr_wtime();
  if (now - c->t_last > c->longest_step) c->longest_step = now - c->t_last;
  c->t_last = now;
  if (step >= last) return RUN_CONTINUE;
  int v[2] = {hr_stop_signal(), 0};
  if (hr_rank() == 0 && c->time_limit > 0) {
    /* the next step, and a save after it, must fit */
    const double save = c->save_freq > 0 ? fmax(c->longest_save, 0.1 * c->longest_step) : 0;
    v[1] = now - c->t_start + 1.05 * c->longest_step + save > c->time_limit;
  }
  global_max_int(v, 1); /* a signal on any rank */
  bcast_int(v + 1, 1);  /* rank 0's clock */
  if (v[0] == 0 && v[1] == 0) return RUN_CONTINUE;
  c->stop_reason = v[0] ? RUN_STOP_SIGNAL : RUN_STOP_TIME_LIMIT;
  if (v[0])
    lprintf("RUN", 0, "stop requested by signal %d (%s) after step %d of %d\n", v[0],
            v[0] == SIGTERM ? "SIGTERM" : v[0] == SIGUSR1 ? "SIGUSR1" : "signal", step, last);
  else
    lprintf("RUN", 0, "time limit: %.0f s of %.0f s used after step %d of %d; the next step "
                      "(up to %.1f s) would not fit\n",
            now - c->t_start, c->time_limit, step, last, c->longest_step);
  if (c->save_freq > 0) {
    if (c->last_saved != step) run_save(c, step, u);
    lprintf("RUN", 0, "continue with: gauge start = %s/%s_n%d\n", c->conf_dir, c->run_name,
            step);
  } else {
    lprintf("RUN", 0, "save freq = 0: nothing saved\n");
  }
  return c->stop_reason;
}

void run_start_links(suNg_field *u, const char *start, uint64_t seed) {
  rng_init(seed);
  if (strcmp(start, "cold") == 0)
    gauge_field_cold(u);
  else if (strcmp(start, "hot") == 0)
    gauge_field_hot(u);
  else
    archive_read(u, start, HR_ARCHIVE_UNKNOWN, HR_ARCHIVE_BC_AUTO);
}

int run_exit_code(int reason) { return reason == RUN_STOP_SIGNAL ? HR_EXIT_STOPPED : HR_EXIT_OK; }
