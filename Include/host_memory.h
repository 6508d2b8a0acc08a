/* host_memory.h -- large host arrays (fields, clover blocks, packed links, index tables):
 * aligned to 64 bytes, and from 2 MiB on aligned to 2 MiB with transparent huge pages
 * requested from the kernel, so that sweeps over them do not miss the TLB every 4 KiB.
 * Implemented in: LibHR/Core/host_memory.c. */
#ifndef HR_HOST_MEMORY_H
#define HR_HOST_MEMORY_H

#include <stddef.h>

/* Alignment of every array of hr_host_alloc (a cache line; fields.h's HR_FIELD_ALIGN). */
#define HR_HOST_ALIGN_BYTES 64
/* Size of a huge page: arrays of at least this many bytes are placed on huge pages. */
#define HR_HUGE_PAGE_BYTES ((size_t)2 << 20)

/* `bytes` bytes (not zeroed) aligned to HR_HOST_ALIGN_BYTES, or to HR_HUGE_PAGE_BYTES with
 * huge pages advised where bytes >= HR_HUGE_PAGE_BYTES and huge pages are on; `what` names the
 * array in the message that stops the program (HR_EXIT_SETUP) when there is no memory. */
void *hr_host_alloc(size_t bytes, const char *what);
/* Free memory of hr_host_alloc (NULL is ignored). */
void hr_host_free(void *p);
/* Ask for huge pages in later allocations (on != 0, the default) or not; input key
 * memory:huge_pages. */
void hr_set_huge_pages(int on);
/* 1 while later allocations ask for huge pages, else 0. */
int hr_huge_pages(void);
/* Bytes of this process's anonymous memory that lie on transparent huge pages
 * (AnonHugePages of /proc/self/smaps_rollup), or -1 where the system does not say. */
long long hr_host_huge_page_bytes(void);
/* 1 if the kernel was asked for huge pages for all `bytes` bytes at p (one mapping of
 * /proc/self/smaps holds them, with VmFlags "hg"), 0 if not, -1 where the system does not say. */
int hr_host_huge_pages_advised(const void *p, size_t bytes);

#endif
