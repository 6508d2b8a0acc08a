/* host_memory.c -- large host arrays: 64-byte aligned, and from 2 MiB on 2 MiB aligned with
 * transparent huge pages advised (madvise MADV_HUGEPAGE); queries of /proc/self for what the
 * kernel made of the advice. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "host_memory.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hr_error.h"

static int huge_pages_on = 1;

void hr_set_huge_pages(int on) { huge_pages_on = on != 0; }

int hr_huge_pages(void) { return huge_pages_on; }

void *hr_host_alloc(size_t bytes, const char *what) {
  const int huge = huge_pages_on && bytes >= HR_HUGE_PAGE_BYTES;
  const size_t align = huge ? HR_HUGE_PAGE_BYTES : (size_t)HR_HOST_ALIGN_BYTES;
  if (bytes > SIZE_MAX - align)
    hr_error_code(HR_EXIT_SETUP, "cannot allocate %zu bytes for %s: more than memory can hold",
                  bytes, what);
  /* whole huge pages, so that no small page shares the array's last huge page */
  const size_t n = bytes == 0 ? align : (bytes + align - 1) / align * align;
  void *p = NULL;
  if (posix_memalign(&p, align, n) != 0 || p == NULL)
    hr_error_code(HR_EXIT_SETUP,
                  "out of host memory allocating %zu bytes for %s; use a smaller lattice or "
                  "more processes",
                  bytes, what);
#ifdef MADV_HUGEPAGE
  /* advice only: where the kernel has no transparent huge pages, small pages serve */
  if (huge) (void)madvise(p, n, MADV_HUGEPAGE);
#endif
  return p;
}

void hr_host_free(void *p) { free(p); }

long long hr_host_huge_page_bytes(void) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  if (f == NULL) return -1;
  char line[256];
  long long kb = -1;
  while (fgets(line, sizeof line, f) != NULL)
    if (sscanf(line, "AnonHugePages: %lld kB", &kb) == 1) break;
  fclose(f);
  return kb < 0 ? -1 : kb * 1024;
}

int hr_host_huge_pages_advised(const void *p, size_t bytes) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (f == NULL) return -1;
  const uintptr_t a = (uintptr_t)p, b = a + (bytes > 0 ? bytes : 1);
  char line[512];
  int holds = -1, result = -1; /* holds: the current mapping holds [a, b) (-1: none yet) */
  while (result < 0 && fgets(line, sizeof line, f) != NULL) {
    uintptr_t lo, hi;
    /* a mapping starts with "lo-hi perms ..."; its fields ("Size:", "VmFlags:") follow */
    if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2) {
      if (lo <= a && a < hi) holds = b <= hi;
    } else if (holds >= 0 && strncmp(line, "VmFlags:", 8) == 0) {
      result = holds && strstr(line, " hg") != NULL;
    }
  }
  fclose(f);
  return result;
}
