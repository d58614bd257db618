/* Parallel first touch of fresh host memory: see host_prefault.h. */
#include "host_prefault.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 8

typedef struct touch_job {
    const magnus_host_range *ranges;
    size_t count;
    size_t first, last; /* this thread's pages, counted over all ranges in order */
    size_t page;
} touch_job;

/* Touches pages [first, last) of the concatenated ranges. */
static void *touch_pages(void *arg) {
    const touch_job *j = arg;
    size_t base = 0; /* pages before range r */
    for (size_t r = 0; r < j->count && base < j->last; r++) {
        const size_t pages = (j->ranges[r].bytes + j->page - 1) / j->page;
        size_t lo = j->first > base ? j->first - base : 0;
        size_t hi = j->last - base < pages ? j->last - base : pages;
        volatile char *p = j->ranges[r].ptr;
        for (size_t i = lo; i < hi; i++) p[i * j->page] = 0;
        base += pages;
    }
    return NULL;
}

int magnus_host_prefault_threads(void) {
    const char *env = getenv("MAGNUS_HOST_THREADS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v >= 0) return v > MAX_THREADS ? MAX_THREADS : (int)v;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n > MAX_THREADS ? MAX_THREADS : (int)n;
}

void magnus_host_prefault(const magnus_host_range *ranges, size_t count) {
    long ps = sysconf(_SC_PAGESIZE);
    const size_t page = ps > 0 ? (size_t)ps : 4096;
    size_t bytes = 0, pages = 0;
    for (size_t r = 0; r < count; r++) {
        if (!ranges[r].ptr) return;
        bytes += ranges[r].bytes;
        pages += (ranges[r].bytes + page - 1) / page;
    }
    const int threads = magnus_host_prefault_threads();
    if (bytes < MAGNUS_HOST_PREFAULT_MIN_BYTES || threads < 2) return;
    pthread_t tid[MAX_THREADS];
    touch_job jobs[MAX_THREADS];
    int started = 0;
    for (int t = 0; t < threads; t++) {
        jobs[t] = (touch_job){ranges, count, pages * (size_t)t / (size_t)threads,
                              pages * (size_t)(t + 1) / (size_t)threads, page};
        /* the calling thread takes the last share itself */
        if (t == threads - 1 || pthread_create(&tid[t], NULL, touch_pages, &jobs[t]) != 0) {
            /* no thread: this share (and, if a create failed, the rest) on this thread */
            jobs[t].last = pages;
            touch_pages(&jobs[t]);
            break;
        }
        started++;
    }
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
}
