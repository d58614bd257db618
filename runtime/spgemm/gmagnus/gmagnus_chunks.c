/*
 * gMAGNUS accumulation of the heavy rows' chunks (paper Alg. 3 lines 21 and 26), on the
 * heavy queue. Every stage's chunks that are not split again are accumulated in local
 * memory: those with at most tau elements by the shared hash accumulator
 * (runtime/accumulate/hash_accumulate.h, chunk items), the last stage's larger ones (more than
 * dense_min_elements, min(tau, dense_width / 16) by default) by the dense accumulator
 * (kernels/gmagnus_dense.cl), whose width the parameters fit in local memory.
 *
 * Symbolic: each accumulated chunk's count, then counts go up the stages (a split chunk
 * counts its children; kernels/gmagnus_chunks.cl) into C.row_ptr at the heavy rows.
 * Numeric: each chunk's first position in C goes down the stages (row start + siblings
 * before it), then the accumulators write the chunks sorted, columns shifted back.
 * The dense kernels are queued first and the hash calls (magnus_hash_chunks_*_sync, which
 * wait for their queue) after, so the dense kernels are queued before the host blocks and
 * the numeric phase returns with the heavy queue idle.
 */
#include <string.h>

#include "gmagnus_internal.h"
#include "hash_accumulate.h"
#include "kernels.h"
#include "primitives.h"

static magnus_status check_local_only(const magnus_hash_stats *st) {
    if (st->items_global != 0)
        return magnus_error(MAGNUS_ERROR_INTERNAL,
                            "gMAGNUS: %lld light chunks went to a global-memory hash table "
                            "(the parameters must keep every chunk in local memory)",
                            (long long)st->items_global);
    return MAGNUS_SUCCESS;
}

static magnus_hash_segments segments_of(const magnus_gm *g, const magnus_gm_stage *st) {
    magnus_hash_segments seg = {.ptr = &st->ptr,
                                .col = &g->col[st->buffer],
                                .val = &g->val[st->buffer],
                                .col_range = st->width,
                                .type = g->C->type};
    return seg;
}

/* Which chunks each accumulator takes: the last stage splits by dense_min_elements (below tau
 * by default: the dense accumulator also takes the larger light chunks, whose hash table
 * would need a long sort), the others send their light chunks (laid out after the
 * heavy ones) to the hash accumulator. */
static magnus_status choose_accumulators(magnus_gm *g, int L) {
    magnus_gm_stage *st = &g->stage[L];
    magnus_status s;
    if (L < g->nstages - 1) {
        if ((s = magnus_gm_iota(g, MAGNUS_QUEUE_HEAVY, st->count))) return s;
        st->hash_offset = st->heavy;
        st->hash_count = st->count - st->heavy;
        return MAGNUS_SUCCESS;
    }
    /* Levels stop early when no chunk is heavy any more: then the chunks can be wider than
     * the dense accumulator, and only tau applies (all of them are light). */
    const int64_t threshold = st->width <= g->p.dense_width ? g->p.dense_min_elements : g->p.tau;
    uint64_t ndense = 0, nhash = 0;
    if ((s = magnus_prim_partition_threshold(g->ctx, MAGNUS_QUEUE_HEAVY, &st->ptr,
                                             (uint64_t)st->count, threshold, &st->dense_ids,
                                             &st->hash_ids, &ndense, &nhash)))
        return s;
    st->dense_count = (int64_t)ndense;
    st->hash_count = (int64_t)nhash;
    st->hash_offset = 0;
    if (ndense > 0 && st->width > g->p.dense_width)
        return magnus_error(MAGNUS_ERROR_INTERNAL,
                            "gMAGNUS: %llu chunks of %lld columns exceed the dense accumulator "
                            "(%lld columns)", (unsigned long long)ndense, (long long)st->width,
                            (long long)g->p.dense_width);
    return MAGNUS_SUCCESS;
}

static const magnus_dbuf *hash_ids_of(const magnus_gm *g, const magnus_gm_stage *st) {
    return st->hash_ids.mem ? &st->hash_ids : &g->iota;
}

/* cnt of every stage, counts up into scan (natural order), heavy rows' counts into C. */
static magnus_status counts_up(magnus_gm *g) {
    magnus_context ctx = g->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_HEAVY;
    magnus_status s;
    for (int L = g->nstages - 1; L >= 0; L--) {
        magnus_gm_stage *st = &g->stage[L];
        const magnus_gm_stage *next = L + 1 < g->nstages ? &g->stage[L + 1] : st;
        if ((s = magnus_gm_alloc(g, ((size_t)st->count + 1) * 8, &st->scan))) return s;
        /* without a permutation, cnt stands in for perm (unread) */
        if ((s = magnus_k_gmagnus_chunk_counts_up(
                 ctx, q, g->variant, magnus_gm_groups(st->count, 256), 256, 0, st->count,
                 st->heavy, (uint32_t)st->has_perm, st->has_perm ? &st->perm : &st->cnt, &st->cnt,
                 &next->scan, next->nchunks, &st->scan)) ||
            (s = magnus_prim_fill_u64(ctx, q, &st->scan, (uint64_t)st->count, 1, 0)) ||
            (s = magnus_prim_scan_u64(ctx, q, &st->scan, &st->scan, (uint64_t)st->count + 1, NULL)))
            return s;
    }
    return magnus_k_gmagnus_heavy_row_counts(ctx, q, g->variant, magnus_gm_groups(g->nheavy, 256),
                                             256, 0, g->nheavy, &g->heavy_rows, &g->stage[0].scan,
                                             g->stage[0].nchunks, &g->C->row_ptr);
}

/* The hash accumulator over every stage's hash chunks on the heavy queue, symbolic (counts
 * into st->cnt) or numeric (sorted into C at st->base, columns shifted back by st->shift);
 * waits for the queue. */
static magnus_status hash_chunks_sync(magnus_gm *g, int numeric) {
    magnus_status s = MAGNUS_SUCCESS;
    magnus_hash_config cfg;
    magnus_hash_config_init(&cfg, MAGNUS_QUEUE_HEAVY);
    magnus_hash_stats stats;
    memset(&stats, 0, sizeof stats);
    for (int L = 0; L < g->nstages && !s; L++) {
        magnus_gm_stage *st = &g->stage[L];
        if (st->hash_count == 0) continue;
        magnus_hash_segments seg = segments_of(g, st);
        if (!numeric) {
            s = magnus_hash_chunks_symbolic_sync(g->ctx, &cfg, &seg, hash_ids_of(g, st),
                                                 st->hash_offset, st->hash_count, &st->cnt,
                                                 &stats);
            continue;
        }
        magnus_hash_chunk_output out = {.offset = &st->base,
                                        .nnz = &st->cnt,
                                        .col_shift = &st->shift,
                                        .shift_period = 0,
                                        .shift_step = 0,
                                        .C_col = &g->C->col_idx,
                                        .C_val = &g->C->values};
        s = magnus_hash_chunks_numeric_sync(g->ctx, &cfg, &seg, hash_ids_of(g, st),
                                            st->hash_offset, st->hash_count, &out, &stats);
    }
    if (!s) s = check_local_only(&stats);
    return s;
}

magnus_status magnus_gm_chunks_symbolic(magnus_gm *g) {
    magnus_context ctx = g->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_HEAVY;
    magnus_status s = MAGNUS_SUCCESS;
    if (g->nstages == 0) return MAGNUS_SUCCESS;
    for (int L = 0; L < g->nstages && !s; L++) {
        magnus_gm_stage *st = &g->stage[L];
        if (!(s = magnus_gm_alloc(g, (size_t)st->count * 8, &st->cnt)))
            s = choose_accumulators(g, L);
    }
    /* dense first (queued), then the hash calls, which wait for the queue */
    magnus_gm_stage *last = &g->stage[g->nstages - 1];
    if (!s && last->dense_count > 0) {
        const size_t wg = (size_t)g->p.dense_group_size;
        s = magnus_k_gmagnus_dense_symbolic(
            ctx, q, g->variant, magnus_gm_groups(last->dense_count, 1), wg,
            (size_t)mg_gm_dense_symbolic_bytes(last->width, wg), last->dense_count,
            &last->dense_ids, 0, &last->ptr, &g->col[last->buffer], (uint32_t)last->width,
            &last->cnt);
    }
    if (!s) s = hash_chunks_sync(g, 0);
    if (!s) s = counts_up(g);
    if (s) magnus_gm_drain(g, s);
    return s;
}

/* base and shift of every stage, from C's row pointers down. */
static magnus_status bases_down(magnus_gm *g) {
    magnus_status s;
    for (int L = 0; L < g->nstages; L++) {
        magnus_gm_stage *st = &g->stage[L];
        const magnus_gm_stage *parent = L > 0 ? &g->stage[L - 1] : NULL;
        if ((s = magnus_gm_alloc(g, (size_t)st->count * 8, &st->base)) ||
            (s = magnus_gm_alloc(g, (size_t)st->count * 4, &st->shift)))
            return s;
        /* stand-ins where nothing is read: shift for perm, the stage's own base and shift
         * for the parent's at level 0 */
        if ((s = magnus_k_gmagnus_chunk_bases_down(
                 g->ctx, MAGNUS_QUEUE_HEAVY, g->variant, magnus_gm_groups(st->count, 256), 256, 0,
                 st->count, (uint32_t)st->has_perm, st->has_perm ? &st->perm : &st->shift,
                 &st->scan, st->nchunks, st->width, parent ? 0u : 1u, &g->heavy_rows,
                 &g->C->row_ptr, parent ? &parent->base : &st->base,
                 parent ? &parent->shift : &st->shift, &st->base, &st->shift)))
            return s;
    }
    return MAGNUS_SUCCESS;
}

magnus_status magnus_gm_chunks_numeric_dense(magnus_gm *g) {
    if (g->nstages == 0) return MAGNUS_SUCCESS;
    magnus_status s = bases_down(g);
    magnus_gm_stage *last = &g->stage[g->nstages - 1];
    if (!s && last->dense_count > 0) {
        const size_t wg = (size_t)g->p.dense_group_size;
        s = magnus_k_gmagnus_dense_numeric(
            g->ctx, MAGNUS_QUEUE_HEAVY, g->variant, magnus_gm_groups(last->dense_count, 1), wg,
            (size_t)mg_gm_dense_numeric_bytes(last->width, wg, g->value_bytes), last->dense_count,
            &last->dense_ids, 0, &last->ptr, &g->col[last->buffer], &g->val[last->buffer],
            (uint32_t)last->width, &last->base, &last->shift, &g->C->col_idx, &g->C->values);
    }
    if (s) magnus_gm_drain(g, s);
    return s;
}

/* The light chunks' numeric phase; waits for the heavy queue (returns with it idle). */
magnus_status magnus_gm_chunks_numeric_sync(magnus_gm *g) {
    magnus_status s = hash_chunks_sync(g, 1);
    if (!s) s = magnus_queue_finish(g->ctx, MAGNUS_QUEUE_HEAVY);
    if (s) magnus_gm_drain(g, s);
    return s;
}
