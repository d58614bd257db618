/*
 * Device-to-device copy bandwidth of a context's device: the ceiling that `magnus bench`
 * divides its kernels' byte floors by ("speed of light", gMAGNUS paper §V). Measured with the
 * device's own copy engine path (magnus_dbuf_copy) and device events, in the same process and
 * on the same context as the multiplies it is compared with.
 */
#include <stdlib.h>

#include "backend.h"
#include "device_runtime.h"

#define MIN_COPY_BYTES 4096u
#define MAX_REPETITIONS 1000

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One timed copy of `bytes` from src to dst on the main queue, in milliseconds. */
static magnus_status timed_copy(magnus_context ctx, magnus_dbuf *dst, const magnus_dbuf *src,
                                size_t bytes, double *ms) {
    magnus_timer t = {0};
    magnus_status s = magnus_timer_start(ctx, MAGNUS_QUEUE_MAIN, &t);
    if (!s) s = magnus_dbuf_copy(ctx, MAGNUS_QUEUE_MAIN, dst, 0, src, 0, bytes);
    if (!s) s = magnus_timer_stop(ctx, MAGNUS_QUEUE_MAIN, &t);
    if (!s) return magnus_timer_elapsed_ms(ctx, &t, ms);
    /* A failed step leaves events behind: wait for the queue, then drop them. */
    (void)magnus_queue_finish(ctx, MAGNUS_QUEUE_MAIN);
    magnus_timer_discard(ctx, &t);
    return s;
}

magnus_status magnus_device_copy_bandwidth(double *gb_per_s, magnus_context ctx, uint64_t bytes,
                                           int repetitions) {
    magnus_error_clear();
    if (!gb_per_s)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_device_copy_bandwidth: output NULL");
    *gb_per_s = 0;
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if (bytes < MIN_COPY_BYTES || bytes > SIZE_MAX)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_device_copy_bandwidth: %llu bytes (at least %u)",
                            (unsigned long long)bytes, MIN_COPY_BYTES);
    if (repetitions < 1 || repetitions > MAX_REPETITIONS)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "magnus_device_copy_bandwidth: %d repetitions (1..%d)", repetitions,
                            MAX_REPETITIONS);
    size_t n = (size_t)(bytes & ~(uint64_t)7); /* whole 8-byte words for the fill */
    double *times = magnus_host_malloc((size_t)repetitions * sizeof *times);
    if (!times) return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "copy bandwidth timings");
    magnus_dbuf src = {0}, dst = {0};
    const uint64_t pattern = 0x3ff0000000000001ULL; /* nonzero data: zeros can be special */
    double warm_ms = 0;
    if ((s = magnus_dbuf_alloc(ctx, n, &src)) || (s = magnus_dbuf_alloc(ctx, n, &dst)) ||
        (s = magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &src, 0, &pattern, sizeof pattern, n)) ||
        (s = magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &dst, 0, &pattern, sizeof pattern, n)) ||
        (s = timed_copy(ctx, &dst, &src, n, &warm_ms)))
        goto done;
    for (int r = 0; r < repetitions && !s; r++) s = timed_copy(ctx, &dst, &src, n, &times[r]);
    if (s) goto done;
    qsort(times, (size_t)repetitions, sizeof *times, compare_double);
    double median = repetitions % 2 ? times[repetitions / 2]
                                    : 0.5 * (times[repetitions / 2 - 1] + times[repetitions / 2]);
    if (!(median > 0)) {
        s = magnus_error(MAGNUS_ERROR_DEVICE,
                         "magnus_device_copy_bandwidth: the device timed a %zu-byte copy at %g ms",
                         n, median);
        goto done;
    }
    *gb_per_s = 2.0 * (double)n / (median * 1e6);
done:
    (void)magnus_queue_finish(ctx, MAGNUS_QUEUE_MAIN);
    magnus_dbuf_free(ctx, &src);
    magnus_dbuf_free(ctx, &dst);
    magnus_host_free(times);
    return s;
}
