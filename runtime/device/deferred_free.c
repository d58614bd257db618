/*
 * Deferred freeing: a buffer that queued work may still read is handed to the context, which
 * releases it at the next point where the context is known idle (magnus_context_finish, or
 * magnus_context_release_deferred from a caller that has waited), instead of freeing it now
 * (cuMemFree synchronises the device, Level Zero drains first) or waiting for the queues.
 * The list grows as needed: deferring never waits. The bytes stay in memory_in_use until the
 * release, because the device memory is still held.
 */
#include "backend.h"
#include "device_runtime.h"

/* First capacity of the list; it doubles from there. */
#define DEFERRED_INITIAL 16

void magnus_dbuf_free_deferred(magnus_context ctx, magnus_dbuf *buf) {
    if (!buf || !buf->mem || magnus_context_check(ctx)) return;
    if (ctx->ndeferred == ctx->deferred_capacity) {
        size_t capacity = ctx->deferred_capacity ? 2 * ctx->deferred_capacity : DEFERRED_INITIAL;
        magnus_dbuf *grown = NULL;
        size_t bytes;
        if (magnus_mul_size(capacity, sizeof *grown, &bytes))
            grown = magnus_host_realloc(ctx->deferred, bytes);
        if (!grown) {
            /* No host memory for the list: free now. The backends make freeing memory that
             * queued work still uses safe (backend.h), at the cost of the synchronisation
             * deferring avoids; nothing leaks and nothing fails. */
            magnus_dbuf_free(ctx, buf);
            return;
        }
        ctx->deferred = grown;
        ctx->deferred_capacity = capacity;
    }
    ctx->deferred[ctx->ndeferred++] = *buf;
    ctx->deferred_bytes += buf->bytes;
    buf->mem = NULL;
    buf->bytes = 0;
}

magnus_status magnus_context_release_deferred(magnus_context ctx) {
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    for (size_t i = 0; i < ctx->ndeferred; i++) magnus_dbuf_free(ctx, &ctx->deferred[i]);
    ctx->ndeferred = 0;
    ctx->deferred_bytes = 0;
    return MAGNUS_SUCCESS;
}
