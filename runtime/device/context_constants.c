/*
 * Small read-only tables that kernels take as buffers and that stay the same from call to
 * call (the hash accumulator's bin bounds: one table per plan), uploaded once per context
 * instead of once per phase. A write waits for its queue (backend.h), so a per-call upload
 * cost each hash phase a host wait on top of the one for its bin sizes; a cached table costs
 * a compare of at most a few hundred bytes.
 *
 * The buffers come from the backend directly and are not counted in the context's memory
 * (memory_in_use, the peak, the limit): at most MAGNUS_MAX_CONSTANTS of at most
 * MAGNUS_CONSTANT_MAX_BYTES each, held until the context is freed, so that a caller's
 * accounting of one multiply (or of its error paths) is not moved by the first multiply's
 * tables. When the table is full the context waits for its queues (no queued work reads a
 * table then) and starts it afresh.
 */
#include <string.h>

#include "backend.h"
#include "device_runtime.h"

void magnus_context_constants_free(magnus_context ctx) {
    for (int i = 0; i < ctx->nconstants; i++) {
        ctx->ops->mem_free(ctx->bctx, ctx->constants[i].buf.mem);
        ctx->constants[i].buf.mem = NULL;
    }
    ctx->nconstants = 0;
}

magnus_status magnus_context_constant(const magnus_dbuf **out, magnus_context ctx,
                                      const void *data, size_t bytes) {
    if (!out || !data)
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_context_constant: NULL argument");
    *out = NULL;
    magnus_status s = magnus_context_check(ctx);
    if (s) return s;
    if (bytes == 0 || bytes > MAGNUS_CONSTANT_MAX_BYTES)
        return magnus_error(MAGNUS_ERROR_INTERNAL,
                            "magnus_context_constant: a table of %zu bytes (1 to %d)", bytes,
                            MAGNUS_CONSTANT_MAX_BYTES);
    for (int i = 0; i < ctx->nconstants; i++) {
        magnus_context_constant_s *c = &ctx->constants[i];
        if (c->bytes == bytes && memcmp(c->data, data, bytes) == 0) {
            *out = &c->buf;
            return MAGNUS_SUCCESS;
        }
    }
    if (ctx->nconstants == MAGNUS_MAX_CONSTANTS) {
        if ((s = magnus_context_finish(ctx))) return s;
        magnus_context_constants_free(ctx);
    }
    magnus_context_constant_s *c = &ctx->constants[ctx->nconstants];
    if ((s = ctx->ops->mem_alloc(ctx->bctx, bytes, &c->buf.mem))) return s;
    c->buf.bytes = bytes;
    c->bytes = bytes;
    memcpy(c->data, data, bytes);
    if ((s = magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &c->buf, 0, data, bytes))) {
        ctx->ops->mem_free(ctx->bctx, c->buf.mem);
        c->buf.mem = NULL;
        return s;
    }
    ctx->nconstants++;
    *out = &c->buf;
    return MAGNUS_SUCCESS;
}

