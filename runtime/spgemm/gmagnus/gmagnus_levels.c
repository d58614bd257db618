/*
 * gMAGNUS hierarchical multisplit (paper Alg. 3 lines 10-20), on the heavy queue. Level L
 * reads stage L-1's heavy chunks (level 0: C-hat) from one buffer and writes stage L into
 * the other:
 *   Histogram        element counts per natural chunk (kernels/gmagnus_multisplit.cl), scan
 *   ThreshPartition  (all levels but the last) chunks with more than tau elements are heavy;
 *                    the layout puts them first, so the next level reads a contiguous prefix
 *   Multisplit       permutes the elements into the layout, columns local to the chunk.
 * Double buffering needs no copies: level L writes the prefix of the buffer that held stage
 * L-2, exactly the part stage L-1 consumed (its heavy chunks); stage L-2's light chunks,
 * after that prefix, stay in place for the accumulators. The loop stops early when a level
 * leaves no heavy chunk.
 *
 * In place (g->gap > 0, one level only, gmagnus_setup.c decides): C-hat sits after a gap of
 * 1/divisor of its size in buffer 1 and level 0 writes from the buffer's start, in row-aligned
 * batches of at most gap elements launched in order (gmagnus_batch_bounds): each batch
 * overwrites only input earlier batches have consumed (kernels/gmagnus_multisplit.cl). The
 * peak holds C-hat once plus the gap instead of twice; the cost is a launch per batch.
 */
#include "gmagnus_internal.h"
#include "kernels.h"
#include "primitives.h"

/* The stage when no multisplit is needed: C-hat's rows are the chunks. */
static void stage_from_chat(magnus_gm *g) {
    magnus_gm_stage *st = &g->stage[0];
    st->rows_in = g->nheavy;
    st->nchunks = 1;
    st->width = g->B->cols > 0 ? g->B->cols : 1;
    st->count = g->nheavy;
    st->heavy = 0;
    st->has_perm = 0;
    st->buffer = 0;
    st->ptr = g->chat_ptr;
    st->owns_ptr = 0;
    g->nstages = 1;
    g->levels_run = 0;
}

/* Frees a step's n temporaries: at once after a failure (the queues drained first), else
 * deferred past the work still queued that reads or writes them. */
static void free_temporaries(magnus_gm *g, magnus_status s, magnus_dbuf *const *tmp, size_t n) {
    if (s) magnus_gm_drain(g, s);
    for (size_t i = 0; i < n; i++) {
        if (s) magnus_dbuf_free(g->ctx, tmp[i]);
        magnus_dbuf_free_deferred(g->ctx, tmp[i]);
    }
}

/* Layout of a level that continues: perm = heavy ids then light ids, ptr = scan of the
 * laid-out counts, cursor[q] = ptr of q's laid-out row. `counts` becomes the cursor. */
static magnus_status lay_out_heavy_first(magnus_gm *g, magnus_gm_stage *st, magnus_dbuf *offsets,
                                         magnus_dbuf *counts) {
    magnus_context ctx = g->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_HEAVY;
    const uint64_t n = (uint64_t)st->count;
    magnus_dbuf above = {0}, below = {0};
    uint64_t nabove = 0, nbelow = 0;
    magnus_status s;
    if ((s = magnus_prim_partition_threshold(ctx, q, offsets, n, g->p.tau, &above, &below,
                                             &nabove, &nbelow)))
        return s;
    /* The partition waited for the heavy queue, the only one that reads what gMAGNUS has
     * deferred so far (the outer product's inputs, earlier levels' temporaries): free them
     * now, which keeps the peak down as the levels go. */
    if ((s = magnus_context_release_deferred(ctx))) goto done;
    st->heavy = (int64_t)nabove;
    st->has_perm = 1;
    if ((s = magnus_gm_alloc(g, (size_t)n * 4, &st->perm)) ||
        (s = magnus_dbuf_copy(ctx, q, &st->perm, 0, &above, 0, (size_t)nabove * 4)) ||
        (s = magnus_dbuf_copy(ctx, q, &st->perm, (size_t)nabove * 4, &below, 0,
                              (size_t)nbelow * 4)) ||
        (s = magnus_gm_alloc(g, ((size_t)n + 1) * 8, &st->ptr)) ||
        (s = magnus_prim_gather_u64(ctx, q, &st->ptr, counts, n, &st->perm, n)) ||
        (s = magnus_prim_fill_u64(ctx, q, &st->ptr, n, 1, 0)) ||
        (s = magnus_prim_scan_u64(ctx, q, &st->ptr, &st->ptr, n + 1, NULL)))
        goto done;
    s = magnus_k_gmagnus_chunk_cursor(ctx, q, g->variant, magnus_gm_groups((int64_t)n, 256), 256,
                                      0, n, &st->perm, &st->ptr, counts);
done:
    /* the copies into perm may still be running */
    free_temporaries(g, s, (magnus_dbuf *[]){&above, &below}, 2);
    return s;
}

/* One level; *stop when it leaves no heavy chunk. */
static magnus_status run_level(magnus_gm *g, int level, int *stop) {
    magnus_context ctx = g->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_HEAVY;
    const int last = level == g->p.levels - 1;
    magnus_gm_stage *st = &g->stage[level];
    const magnus_dbuf *in_ptr;
    int64_t elems;
    magnus_status s;
    if (level == 0) {
        st->rows_in = g->nheavy;
        in_ptr = &g->chat_ptr;
        elems = g->chat_nnz;
        st->buffer = 1;
    } else {
        const magnus_gm_stage *prev = &g->stage[level - 1];
        uint64_t end = 0;
        if ((s = magnus_dbuf_read(ctx, q, &end, &prev->ptr, (size_t)prev->heavy * 8, 8)))
            return s;
        st->rows_in = prev->heavy;
        in_ptr = &prev->ptr;
        elems = (int64_t)end;
        st->buffer = 1 - prev->buffer;
    }
    const int in_buf = 1 - st->buffer;
    st->nchunks = g->p.chunks_per_level[level];
    st->width = g->p.chunk_width[level];
    st->owns_ptr = 1;
    if (st->rows_in > (int64_t)(UINT32_MAX / (uint64_t)st->nchunks))
        return magnus_error(MAGNUS_ERROR_PROBLEM_TOO_LARGE,
                            "gMAGNUS level %d: %lld rows x %lld chunks exceed 2^32 chunk ids",
                            level, (long long)st->rows_in, (long long)st->nchunks);
    st->count = st->rows_in * st->nchunks;
    if (level == 0 && !g->gap &&
        ((s = magnus_gm_alloc(g, (size_t)g->chat_nnz * 4, &g->col[1])) ||
         (s = magnus_gm_alloc(g, (size_t)g->chat_nnz * g->value_bytes, &g->val[1]))))
        return s;
    /* In place (level 0 only): C-hat after the gap in buffer 1, the output at its start */
    const uint64_t in_off = level == 0 ? g->gap : 0;
    const int in_at = in_off ? st->buffer : in_buf;

    const uint32_t shift = (uint32_t)magnus_gmagnus_level_shift(&g->p, level);
    const int64_t group_elems = g->p.multisplit_group_elems[level];
    const size_t wg = (size_t)g->p.multisplit_group_size;
    const int64_t groups = (elems + group_elems - 1) / group_elems;
    const uint64_t nkeys = mg_gm_ms_keys(st->nchunks, g->p.subgroups);
    magnus_dbuf counts = {0}, offsets = {0}, bounds = {0};
    /* The multisplit's batches: in place at most 2 * ceil(elems / gap) + 1 of at most the gap
     * each (gmagnus_batch_bounds), else one of every element (a batch as long as the input). */
    const uint64_t batch_max = in_off ? in_off : (uint64_t)elems;
    const uint64_t nbatches = in_off ? 2 * (((uint64_t)elems + in_off - 1) / in_off) + 1 : 1;
    const int64_t batch_groups = ((int64_t)batch_max + group_elems - 1) / group_elems;
    magnus_timer *t_hist = &g->timers[MAGNUS_GM_T_HISTOGRAM + level];
    magnus_timer *t_ms = &g->timers[MAGNUS_GM_T_MULTISPLIT + level];
    if ((s = magnus_gm_alloc(g, ((size_t)st->count + 1) * 8, &counts)) ||
        (s = magnus_gm_alloc(g, ((size_t)st->count + 1) * 8, &offsets)) ||
        (s = magnus_timer_start(ctx, q, t_hist)) ||
        (s = magnus_prim_fill_u64(ctx, q, &counts, 0, (uint64_t)st->count + 1, 0)))
        goto done;
    if ((s = magnus_k_gmagnus_histogram(ctx, q, g->variant, magnus_gm_groups(groups, 1), wg,
                                        (size_t)mg_gm_histogram_bytes(nkeys), st->rows_in, elems,
                                        group_elems, in_ptr, &g->col[in_at], in_off,
                                        (uint32_t)st->nchunks, shift, (uint32_t)g->p.subgroups,
                                        (uint32_t)g->p.subgroup_size, &counts)) ||
        (s = magnus_prim_scan_u64(ctx, q, &offsets, &counts, (uint64_t)st->count + 1, NULL)))
        goto done;
    if (!last) {
        if ((s = lay_out_heavy_first(g, st, &offsets, &counts))) goto done;
    } else {
        /* the last level keeps natural order: the scan is the row pointer and the cursor */
        st->heavy = 0;
        st->has_perm = 0;
        st->ptr = offsets;
        offsets = (magnus_dbuf){0};
        if ((s = magnus_dbuf_copy(ctx, q, &counts, 0, &st->ptr, 0, (size_t)st->count * 8)))
            goto done;
    }
    if ((s = magnus_timer_stop(ctx, q, t_hist)) || (s = magnus_timer_start(ctx, q, t_ms)))
        goto done;
    uint64_t local = magnus_gmagnus_multisplit_local_bytes(st->nchunks, g->p.subgroups,
                                                           group_elems, g->value_bytes);
    if ((s = magnus_gm_alloc(g, ((size_t)nbatches + 1) * 8, &bounds)) ||
        (s = magnus_k_gmagnus_batch_bounds(ctx, q, g->variant, 1, 1, 0, (uint64_t)st->rows_in,
                                           in_ptr, (uint64_t)elems, batch_max, nbatches,
                                           &bounds)))
        goto done;
    /* in place, the batches must run one after the other: one queue, in order */
    for (uint64_t b = 0; !s && b < nbatches; b++)
        s = magnus_k_gmagnus_multisplit(ctx, q, g->variant, magnus_gm_groups(batch_groups, 1), wg,
                                        (size_t)local, st->rows_in, &bounds, (uint32_t)b,
                                        group_elems, in_ptr, &g->col[in_at], &g->val[in_at],
                                        in_off, (uint32_t)st->nchunks, shift,
                                        (uint32_t)g->p.subgroups, (uint32_t)g->p.subgroup_size,
                                        &counts, &g->col[st->buffer], &g->val[st->buffer]);
    if (s || (s = magnus_timer_stop(ctx, q, t_ms))) goto done;
    g->nstages = level + 1;
    g->levels_run = level + 1;
    *stop = !last && st->heavy == 0;
done:
    /* the multisplit may still be running */
    free_temporaries(g, s, (magnus_dbuf *[]){&counts, &offsets, &bounds}, 3);
    return s;
}

magnus_status magnus_gm_levels(magnus_gm *g) {
    if (g->nheavy == 0) return MAGNUS_SUCCESS;
    if (g->p.levels == 0) {
        stage_from_chat(g);
        return MAGNUS_SUCCESS;
    }
    for (int level = 0; level < g->p.levels; level++) {
        int stop = 0;
        magnus_status s = run_level(g, level, &stop);
        if (s) return s;
        if (stop) break;
    }
    return MAGNUS_SUCCESS;
}
