/*
 * A context's cache of freed device blocks, so that a multiply's many small work buffers
 * (scan partials, counts, ids, offsets: ~100 per gMAGNUS multiply, most below 1 MB) are taken
 * from memory the context already holds instead of the driver. Through CUDA every free costs
 * a cuCtxSynchronize (backend.h: a freed buffer may still be read by queued work), which
 * serialised the light and heavy queues at every temporary the hash phases released; a
 * cached free is a list append.
 *
 * Safety without waiting: a freed block first goes to `pending`, because queued work may
 * still read it (magnus_dbuf_free's contract allows that). Only when every queue of the
 * context has been waited for (magnus_context_finish, and so at the start and end of each
 * multiply) do pending blocks become `ready`, reusable by the next allocation of exactly the
 * same size (a repeated multiply asks for the same sizes; rounding to size classes would
 * hide bytes from the accounting). Blocks above MAGNUS_POOL_MAX_BLOCK (C-hat, C) bypass the pool: their driver
 * calls are few, and keeping them would hold gigabytes.
 *
 * Accounting (device_memory.c): cached bytes are held device memory, so they count against
 * the memory limit and in the peak (ctx->memory_pooled beside memory_in_use); under the limit
 * or when the device refuses an allocation, the ready blocks are given back first.
 */
#include <string.h>

#include "backend.h"
#include "device_runtime.h"

static int list_push(magnus_pool_block **list, size_t *n, size_t *capacity, magnus_bmem *mem,
                     size_t bytes) {
    if (*n == *capacity) {
        size_t grown_capacity = *capacity ? 2 * *capacity : 32, alloc_bytes;
        if (!magnus_mul_size(grown_capacity, sizeof **list, &alloc_bytes)) return 0;
        magnus_pool_block *grown = magnus_host_realloc(*list, alloc_bytes);
        if (!grown) return 0;
        *list = grown;
        *capacity = grown_capacity;
    }
    (*list)[(*n)++] = (magnus_pool_block){mem, bytes};
    return 1;
}

magnus_bmem *magnus_pool_take(magnus_context ctx, size_t bytes) {
    if (bytes > MAGNUS_POOL_MAX_BLOCK) return NULL;
    /* the most recently cached block of the size; the list stays oldest first */
    for (size_t i = ctx->pool_nready; i-- > 0;) {
        if (ctx->pool_ready[i].bytes != bytes) continue;
        magnus_bmem *mem = ctx->pool_ready[i].mem;
        if (i + 1 < ctx->pool_nready)
            memmove(&ctx->pool_ready[i], &ctx->pool_ready[i + 1],
                    (ctx->pool_nready - i - 1) * sizeof *ctx->pool_ready);
        ctx->pool_nready--;
        ctx->pool_ready_bytes -= bytes;
        ctx->memory_pooled -= bytes;
        return mem;
    }
    return NULL;
}

int magnus_pool_put(magnus_context ctx, magnus_bmem *mem, size_t bytes) {
    if (bytes > MAGNUS_POOL_MAX_BLOCK) return 0;
    if (!list_push(&ctx->pool_pending, &ctx->pool_npending, &ctx->pool_pending_capacity, mem,
                   bytes))
        return 0; /* no host memory for the list: the caller frees it */
    ctx->memory_pooled += bytes;
    return 1;
}

/* Frees ready blocks, the oldest first, until at most `keep_bytes` in `keep_blocks` blocks
 * are ready. */
static void trim_ready(magnus_context ctx, uint64_t keep_bytes, size_t keep_blocks) {
    size_t drop = 0;
    while (drop < ctx->pool_nready &&
           (ctx->pool_ready_bytes > keep_bytes || ctx->pool_nready - drop > keep_blocks)) {
        magnus_pool_block b = ctx->pool_ready[drop++];
        const double t = MAGNUS_TRACE_START(ctx);
        ctx->ops->mem_free(ctx->bctx, b.mem);
        magnus_trace_event(ctx, "free", "cached", t, b.bytes);
        ctx->pool_ready_bytes -= b.bytes;
        ctx->memory_pooled -= b.bytes;
    }
    if (drop == 0) return; /* (also: no list yet, and memmove takes no NULL) */
    memmove(ctx->pool_ready, ctx->pool_ready + drop,
            (ctx->pool_nready - drop) * sizeof *ctx->pool_ready);
    ctx->pool_nready -= drop;
}

void magnus_pool_idle(magnus_context ctx) {
    for (size_t i = 0; i < ctx->pool_npending; i++) {
        magnus_pool_block b = ctx->pool_pending[i];
        if (list_push(&ctx->pool_ready, &ctx->pool_nready, &ctx->pool_ready_capacity, b.mem,
                      b.bytes)) {
            ctx->pool_ready_bytes += b.bytes;
        } else { /* no host memory for the list: give the block back (the queues are idle) */
            ctx->ops->mem_free(ctx->bctx, b.mem);
            ctx->memory_pooled -= b.bytes;
        }
    }
    ctx->pool_npending = 0;
    trim_ready(ctx, MAGNUS_POOL_CACHE_BYTES, MAGNUS_POOL_CACHE_BLOCKS);
}

void magnus_pool_evict_ready(magnus_context ctx) { trim_ready(ctx, 0, 0); }

void magnus_pool_release(magnus_context ctx) {
    magnus_pool_idle(ctx);
    magnus_pool_evict_ready(ctx);
    magnus_host_free(ctx->pool_ready);
    magnus_host_free(ctx->pool_pending);
    ctx->pool_ready = ctx->pool_pending = NULL;
    ctx->pool_nready = ctx->pool_npending = 0;
    ctx->pool_ready_capacity = ctx->pool_pending_capacity = 0;
}
