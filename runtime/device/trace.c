/*
 * A host-side timeline of a context's device work, for finding the time a multiply spends
 * outside kernels (docs/performance.md): with MAGNUS_TRACE set when the context is created
 * ("stderr", or a file to append to), every driver allocation and free, every host wait
 * (queue and context finishes, reads and writes, which block) and every kernel launch is
 * written as one line
 *
 *   trace START_MS DURATION_MS KIND BYTES WHAT
 *
 * START_MS counts from the last mark (the start of each multiply: magnus_trace_mark), KIND
 * is alloc, free, wait, read, write, launch or mark. After a wait the device has nothing
 * queued on that queue until the next launch, so the host time from a wait's end to the
 * next launch is device idle time the timeline exposes (scripts/trace_summary.py sums it).
 * Costs one branch per event when off.
 *
 * MAGNUS_TRACE_DEVICE=1 adds the device's side (CUDA events; a backend whose events carry no
 * times writes none): an event recorded on the launch's queue before and after every kernel,
 * read back when the queues are idle and written as
 *
 *   dtrace START_MS END_MS QUEUE GROUPS NAME
 *
 * in device time from an event recorded at the mark (on the idle main queue, so it is close
 * to the mark's host time). START is when the queue reached the kernel (its earlier work and
 * waits done), so END - START includes any time the kernel waited for the device's units
 * behind another queue's kernels: that wait is what it shows. The extra events cost a few
 * microseconds of host time per launch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "device_runtime.h"

typedef struct trace_launch {
    magnus_bevent *before, *after;
    const char *name; /* the context's kernel table's copy: freed after the trace closes */
    int queue;
    size_t groups;
} trace_launch;

struct magnus_trace_device_s {
    magnus_bevent *base; /* recorded at the mark */
    trace_launch *launches;
    size_t n, capacity;
};

void magnus_trace_open(magnus_context ctx) {
    ctx->trace = NULL;
    ctx->trace_owned = 0;
    ctx->trace_t0 = magnus_now_ms();
    ctx->trace_device = NULL;
    const char *where = getenv("MAGNUS_TRACE");
    if (!where || !*where || strcmp(where, "0") == 0) return;
    const char *device = getenv("MAGNUS_TRACE_DEVICE");
    if (device && strcmp(device, "1") == 0)
        ctx->trace_device = magnus_host_calloc(1, sizeof *ctx->trace_device);
    if (strcmp(where, "stderr") == 0 || strcmp(where, "1") == 0) {
        ctx->trace = stderr;
        return;
    }
    ctx->trace = fopen(where, "a");
    if (ctx->trace) {
        ctx->trace_owned = 1;
        setvbuf(ctx->trace, NULL, _IOFBF, 1 << 16);
    } else {
        fprintf(stderr, "magnus: MAGNUS_TRACE=%s: cannot open it for appending; no trace\n", where);
    }
}

void magnus_trace_close(magnus_context ctx) {
    magnus_trace_device_flush(ctx);
    if (ctx->trace_device) {
        magnus_host_free(ctx->trace_device->launches);
        magnus_host_free(ctx->trace_device);
        ctx->trace_device = NULL;
    }
    if (ctx->trace && ctx->trace_owned) fclose(ctx->trace);
    else if (ctx->trace) fflush(ctx->trace);
    ctx->trace = NULL;
}

void magnus_trace_mark(magnus_context ctx, const char *what) {
    if (!ctx->trace) return;
    magnus_trace_device_flush(ctx);
    ctx->trace_t0 = magnus_now_ms();
    fprintf(ctx->trace, "trace 0.000 0.000 mark 0 %s\n", what);
    if (ctx->trace_device && ctx->queues[MAGNUS_QUEUE_MAIN] &&
        ctx->ops->event_record(ctx->queues[MAGNUS_QUEUE_MAIN], &ctx->trace_device->base))
        ctx->trace_device->base = NULL;
}

void magnus_trace_event(magnus_context ctx, const char *kind, const char *what, double start_ms,
                        uint64_t bytes) {
    if (!ctx->trace) return;
    double end = magnus_now_ms();
    fprintf(ctx->trace, "trace %.3f %.3f %s %llu %s\n", start_ms - ctx->trace_t0, end - start_ms,
            kind, (unsigned long long)bytes, what ? what : "-");
}

magnus_bevent *magnus_trace_device_before(magnus_context ctx, magnus_queue_id q) {
    magnus_bevent *e = NULL;
    if (!ctx->trace || !ctx->trace_device || !ctx->trace_device->base) return NULL;
    if (ctx->ops->event_record(ctx->queues[q], &e)) return NULL;
    return e;
}

void magnus_trace_device_after(magnus_context ctx, magnus_queue_id q, const char *name,
                               size_t groups, magnus_bevent *before) {
    if (!before) return;
    struct magnus_trace_device_s *d = ctx->trace_device;
    magnus_bevent *after = NULL;
    if (d->n == d->capacity) {
        size_t capacity = d->capacity ? 2 * d->capacity : 256;
        trace_launch *grown = magnus_host_realloc(d->launches, capacity * sizeof *grown);
        if (!grown) {
            ctx->ops->event_destroy(before);
            return;
        }
        d->launches = grown;
        d->capacity = capacity;
    }
    if (ctx->ops->event_record(ctx->queues[q], &after)) {
        ctx->ops->event_destroy(before);
        return;
    }
    d->launches[d->n++] = (trace_launch){before, after, name, (int)q, groups};
}

void magnus_trace_device_flush(magnus_context ctx) {
    struct magnus_trace_device_s *d = ctx->trace_device;
    if (!d) return;
    for (size_t i = 0; i < d->n; i++) {
        trace_launch *l = &d->launches[i];
        double start = 0, end = 0;
        /* elapsed_ms waits for both events: the launches are done by the time this runs */
        if (d->base && ctx->trace && !ctx->ops->event_elapsed_ms(d->base, l->before, &start) &&
            !ctx->ops->event_elapsed_ms(d->base, l->after, &end))
            fprintf(ctx->trace, "dtrace %.4f %.4f %d %zu %s\n", start, end, l->queue, l->groups,
                    l->name);
        ctx->ops->event_destroy(l->before);
        ctx->ops->event_destroy(l->after);
    }
    d->n = 0;
    if (d->base) ctx->ops->event_destroy(d->base);
    d->base = NULL;
}
