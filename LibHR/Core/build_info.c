/* build_info.c -- the description of this build (version, source revision, theory,
 * parallelism, GPU backend, vector instructions, optional libraries, debug checks, compiler and
 * flags), printed by hr_setup at the head of every log and by Info/libhr_info. */
#include "hr_build_config.h"
#include "hr_core.h"
#include "logger.h"

/* Compiler version as the compiler that built this file reports it. */
#ifdef __VERSION__
#define HR_COMPILER_VERSION __VERSION__
#else
#define HR_COMPILER_VERSION "unknown"
#endif

/* "yes" or "no". */
static const char *yes_no(int flag) { return flag ? "yes" : "no"; }

void hr_log_build_config(const char *topic, int level) {
  lprintf(topic, level, "%-18s: %s\n", "LibHR version", LIBHR_VERSION);
  lprintf(topic, level, "%-18s: %s (%s)\n", "source revision", HR_REVISION,
          HR_REVISION_IS_GIT ? "git describe --always --dirty --tags at configure time"
                             : "package version: the sources were no git checkout");
  lprintf(topic, level, "%-18s: SU(%d)\n", "gauge group", NG);
  lprintf(topic, level, "%-18s: %s (%s), NF = %d%s\n", "representation", HR_REPR_NAME,
          HR_REPR_LONG_NAME, NF, HR_REPR_IS_REAL ? ", real" : "");
  lprintf(topic, level, "%-18s: %s\n", "MPI", yes_no(HR_WITH_MPI));
  lprintf(topic, level, "%-18s: %s\n", "OpenMP", yes_no(HR_WITH_OPENMP));
  lprintf(topic, level, "%-18s: %s\n", "GPU backend", HR_GPU_NAME);
  lprintf(topic, level, "%-18s: %s (%s)\n", "CPU Dirac kernels", HR_SIMD, HR_SIMD_CFLAGS);
  lprintf(topic, level, "%-18s: %s\n", "FFTW 3", yes_no(HR_WITH_FFTW));
  lprintf(topic, level, "%-18s: %s\n", "MPFR", yes_no(HR_WITH_MPFR));
  lprintf(topic, level, "%-18s: %s\n", "debug checks", yes_no(HR_DEBUG_CHECKS));
  lprintf(topic, level, "%-18s: %s\n", "compiler version", HR_COMPILER_VERSION);
  lprintf(topic, level, "%-18s: %s\n", "compiler and flags", HR_BUILD_CFLAGS);
}
