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
 * hide bytes from the accounting).
 *
 * Large blocks (above MAGNUS_POOL_MAX_BLOCK: C-hat, C) are cached only when the backend's
 * allocator keeps nothing of its own (ops->mem_reserved reports 0 while the block is still
 * live): CUDA's stream-ordered pool already reuses them, but OpenCL's driver maps and unmaps
 * every one, 0.15-0.25 ms per call for a 312 MB block on the H200 with the device idle
 * meanwhile, and a repeated multiply asks for the same sizes again. So that stale large blocks
 * never sit beside a new large allocation, a large request that finds no block of its size
 * gives the ready large blocks back before the driver is asked; they are also capped at a
 * quarter of the device's memory (or of the context's limit) and MAGNUS_POOL_LARGE_BLOCKS.
 *
 * Accounting (device_memory.c): cached bytes are held device memory, so they count against
 * the memory limit and in the peak (ctx->memory_pooled beside memory_in_use); under the limit
 * or when the device refuses an allocation, the ready blocks are given back first.
 */
#include <stdint.h>
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

static int is_large(size_t bytes) { return bytes > MAGNUS_POOL_MAX_BLOCK; }

/* Keeps the newest ready blocks of each class that fit its caps (`small_bytes` in
 * `small_blocks`, `large_bytes` in `large_blocks`) and frees the older ones. */
static void trim_ready(magnus_context ctx, uint64_t small_bytes, size_t small_blocks,
                       uint64_t large_bytes, size_t large_blocks) {
    /* newest first: each class keeps its newest blocks while they fit, the older ones go */
    uint64_t kept_bytes[2] = {0, 0};
    size_t kept_blocks[2] = {0, 0};
    const uint64_t cap_bytes[2] = {small_bytes, large_bytes};
    const size_t cap_blocks[2] = {small_blocks, large_blocks};
    int full[2] = {0, 0};
    size_t keep = ctx->pool_nready; /* ready[keep..] are kept; compacted from the end */
    for (size_t i = ctx->pool_nready; i-- > 0;) {
        magnus_pool_block b = ctx->pool_ready[i];
        const int c = is_large(b.bytes);
        full[c] = full[c] || kept_blocks[c] + 1 > cap_blocks[c] ||
                  kept_bytes[c] + b.bytes > cap_bytes[c];
        if (!full[c]) {
            kept_bytes[c] += b.bytes;
            kept_blocks[c]++;
            ctx->pool_ready[--keep] = b;
            continue;
        }
        const double t = MAGNUS_TRACE_START(ctx);
        ctx->ops->mem_free(ctx->bctx, b.mem);
        magnus_trace_event(ctx, "free", "cached", t, b.bytes);
        ctx->pool_ready_bytes -= b.bytes;
        ctx->memory_pooled -= b.bytes;
    }
    if (keep == 0) return; /* nothing dropped (also: no list yet, and memmove takes no NULL) */
    ctx->pool_nready -= keep;
    memmove(ctx->pool_ready, ctx->pool_ready + keep, ctx->pool_nready * sizeof *ctx->pool_ready);
}

magnus_bmem *magnus_pool_take(magnus_context ctx, size_t bytes) {
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
    /* a large block the driver must give: the cached ones of other sizes go back first */
    if (is_large(bytes)) trim_ready(ctx, UINT64_MAX, SIZE_MAX, 0, 0);
    return NULL;
}

/* Whether freed large blocks are worth keeping: the backend's allocator keeps nothing itself
 * (it reports 0 held even now, with the block being freed still live). */
static int cache_large(magnus_context ctx) { return magnus_context_reserved_bytes(ctx) == 0; }

int magnus_pool_put(magnus_context ctx, magnus_bmem *mem, size_t bytes) {
    if (is_large(bytes) && !cache_large(ctx)) return 0;
    if (!list_push(&ctx->pool_pending, &ctx->pool_npending, &ctx->pool_pending_capacity, mem,
                   bytes))
        return 0; /* no host memory for the list: the caller frees it */
    ctx->memory_pooled += bytes;
    return 1;
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
    const uint64_t device_bytes =
        ctx->memory_limit ? ctx->memory_limit : ctx->device.global_mem_bytes;
    trim_ready(ctx, MAGNUS_POOL_CACHE_BYTES, MAGNUS_POOL_CACHE_BLOCKS,
               device_bytes / MAGNUS_POOL_LARGE_SHARE, MAGNUS_POOL_LARGE_BLOCKS);
}

void magnus_pool_evict_ready(magnus_context ctx) { trim_ready(ctx, 0, 0, 0, 0); }

void magnus_pool_release(magnus_context ctx) {
    magnus_pool_idle(ctx);
    magnus_pool_evict_ready(ctx);
    magnus_host_free(ctx->pool_ready);
    magnus_host_free(ctx->pool_pending);
    ctx->pool_ready = ctx->pool_pending = NULL;
    ctx->pool_nready = ctx->pool_npending = 0;
    ctx->pool_ready_capacity = ctx->pool_pending_capacity = 0;
}
