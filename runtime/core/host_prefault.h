/*
 * Parallel first touch of fresh host memory (runtime/core/host_prefault.c). A large result
 * downloaded into just-allocated arrays spends most of its time in page faults, one per 4 KiB
 * page, taken by the one thread that copies: on the H200's host 650 MB of C came down at
 * 1.2 GB/s (docs/performance.md, "Downloads into fresh memory"). Touching the pages first from
 * several threads takes the faults in parallel, and the copy then writes resident memory.
 */
#ifndef MAGNUS_HOST_PREFAULT_H
#define MAGNUS_HOST_PREFAULT_H

#include <stddef.h>

/* One range of host memory about to be written. */
typedef struct magnus_host_range {
    void *ptr;
    size_t bytes;
} magnus_host_range;

/* Writes one byte of every page of the ranges (their contents become unspecified) from up
 * to magnus_host_prefault_threads() threads, when they hold at least
 * MAGNUS_HOST_PREFAULT_MIN_BYTES in all; else, or when no thread can be started, does
 * nothing (the copy then faults as before). Never fails. */
void magnus_host_prefault(const magnus_host_range *ranges, size_t count);

/* Threads the prefault uses: MAGNUS_HOST_THREADS when set (0 or 1: no prefault), else the
 * online processors, at most 8. */
int magnus_host_prefault_threads(void);

#define MAGNUS_HOST_PREFAULT_MIN_BYTES ((size_t)16 << 20)

#endif
