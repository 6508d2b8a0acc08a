/* bench_util.h -- helpers shared by the benchmarks: a wall clock, the STREAM-triad memory
 * bandwidth measured with the threads and processes of the run (the ceiling the benchmarks
 * compare with), the device copy bandwidth (the ceiling of GPU builds), and the thread count
 * of OpenMP builds. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>

/* Wall-clock seconds (MPI_Wtime in MPI builds). */
double bench_wtime(void);

/* STREAM triad a[i] = b[i] + s c[i] over three arrays of `bytes_per_array` bytes on every
 * process, with the current OpenMP threads (first touch by the same threads), best of
 * `passes` passes, all processes at once. Returns the bandwidth summed over processes in
 * GB/s (1 GB = 1e9 bytes, 24 bytes per element as STREAM counts them: two reads, one write).
 * The arrays, like those of the probes below, come from hr_host_alloc: on the same pages
 * (huge or not, memory:huge_pages) as the fields the operators stream. */
double bench_stream_triad(size_t bytes_per_array, int passes);

/* Read-only bandwidth: s += a[i] * a[i] over one array of `bytes` bytes per process (same
 * threads, best of `passes`), summed over processes in GB/s. A reference for reductions: one
 * core often cannot read a single stream as fast as the triad moves three. */
double bench_stream_read(size_t bytes, int passes);

/* The site-stream probe: per site, reads `read_bytes` and writes `write_bytes` (rounded down to
 * multiples of 32; two arrays of `sites` consecutive blocks each, the threads splitting the sites
 * as the Dirac loops do), with `work` dependent multiply-adds per site on four vector chains
 * between the reads and the writes; best of `passes`, summed over processes in GB/s of the bytes
 * read and written. With the byte mix of an operator it is the bandwidth a loop of that mix can
 * have on this machine, without (work = 0) and with arithmetic that must wait for the data.
 * streams = 2 walks each thread's sites as two interleaved halves (x, x + half, x + 1, ...: the
 * CPU loops' DIRAC_PREFETCH_INTERLEAVED), 1 in order. */
double bench_stream_sites(size_t read_bytes, size_t write_bytes, long sites, int work,
                          int streams, int passes);

/* GPU builds: device-to-device copy of `bytes` bytes (cudaMemcpy; the emulated backend: memmove
 * in host memory), best of `passes`, counted as bytes read plus bytes written, summed over
 * processes in GB/s: the bandwidth ceiling of the device for streaming kernels. 0 in CPU
 * builds or when the memory cannot be had. */
double bench_device_copy(size_t bytes, int passes);

/* Set the number of OpenMP threads (no-op without OpenMP); returns the number in use. */
int bench_set_threads(int n);

#endif
