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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_runtime.h"

void magnus_trace_open(magnus_context ctx) {
    ctx->trace = NULL;
    ctx->trace_owned = 0;
    ctx->trace_t0 = magnus_now_ms();
    const char *where = getenv("MAGNUS_TRACE");
    if (!where || !*where || strcmp(where, "0") == 0) return;
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
    if (ctx->trace && ctx->trace_owned) fclose(ctx->trace);
    else if (ctx->trace) fflush(ctx->trace);
    ctx->trace = NULL;
}

void magnus_trace_mark(magnus_context ctx, const char *what) {
    if (!ctx->trace) return;
    ctx->trace_t0 = magnus_now_ms();
    fprintf(ctx->trace, "trace 0.000 0.000 mark 0 %s\n", what);
}

void magnus_trace_event(magnus_context ctx, const char *kind, const char *what, double start_ms,
                        uint64_t bytes) {
    if (!ctx->trace) return;
    double end = magnus_now_ms();
    fprintf(ctx->trace, "trace %.3f %.3f %s %llu %s\n", start_ms - ctx->trace_t0, end - start_ms,
            kind, (unsigned long long)bytes, what ? what : "-");
}
