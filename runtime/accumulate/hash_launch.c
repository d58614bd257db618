/*
 * The bin kernels (kernels/hash_rows.cl, hash_chunks.cl): one launch of the kernel a phase
 * needs, over rows or chunks, symbolic or numeric, with local or global tables, through its
 * typed wrapper (runtime/device/kernels.h); and the launches of the local-table bins.
 */
#include "accumulate_knobs.h"
#include "hash_private.h"
#include "kernels.h"

/* Rows of A*B: the A and B entries a row's products come from. */
static magnus_status launch_rows(const hash_phase *ph, const hash_launch *l, magnus_queue_id q,
                                 size_t groups, size_t group_size, size_t local_bytes) {
    const magnus_context ctx = ph->ctx;
    const magnus_kernel_variant v = ph->variant;
    const struct magnus_device_csr_s *A = ph->A, *B = ph->B;
    const uint32_t lanes = l->global ? HASH_GLOBAL_GROUP : l->lanes;
    const uint32_t team = ph->team < lanes ? ph->team : lanes;
    if (!ph->numeric && !l->global)
        return magnus_k_hash_rows_symbolic_local(
            ctx, q, v, groups, group_size, local_bytes, &A->row_ptr, &A->col_idx, &B->row_ptr,
            &B->col_idx, l->bins, l->bins_offset, l->count, ph->row_counts, l->table_size,
            l->lanes, team);
    if (!ph->numeric)
        return magnus_k_hash_rows_symbolic_global(
            ctx, q, v, groups, group_size, local_bytes, &A->row_ptr, &A->col_idx, &B->row_ptr,
            &B->col_idx, l->bins, l->bins_offset, ph->row_counts, l->tables, l->table_index,
            l->table_keys, team);
    if (!l->global)
        return magnus_k_hash_rows_numeric_local(
            ctx, q, v, groups, group_size, local_bytes, &A->row_ptr, &A->col_idx, &A->values,
            &B->row_ptr, &B->col_idx, &B->values, l->bins, l->bins_offset, l->count, ph->C_rp,
            ph->C_col, ph->C_val, l->table_size, l->lanes, team, l->sort_net);
    return magnus_k_hash_rows_numeric_global(
        ctx, q, v, groups, group_size, local_bytes, &A->row_ptr, &A->col_idx, &A->values,
        &B->row_ptr, &B->col_idx, &B->values, l->bins, l->bins_offset, ph->C_rp, ph->C_col,
        ph->C_val, l->tables, l->table_index, l->table_keys, l->table_vals, team, l->sort_block);
}

/* Chunks: segments of an intermediate matrix, written out shifted. */
static magnus_status launch_chunks(const hash_phase *ph, const hash_launch *l, magnus_queue_id q,
                                   size_t groups, size_t group_size, size_t local_bytes) {
    const magnus_context ctx = ph->ctx;
    const magnus_kernel_variant v = ph->variant;
    const magnus_hash_segments *sg = ph->seg;
    if (!ph->numeric && !l->global)
        return magnus_k_hash_chunks_symbolic_local(ctx, q, v, groups, group_size, local_bytes,
                                                   sg->ptr, sg->col, l->bins, l->bins_offset,
                                                   l->count, ph->chunk_counts, l->table_size,
                                                   l->lanes);
    if (!ph->numeric)
        return magnus_k_hash_chunks_symbolic_global(ctx, q, v, groups, group_size, local_bytes,
                                                    sg->ptr, sg->col, l->bins, l->bins_offset,
                                                    ph->chunk_counts, l->tables, l->table_index,
                                                    l->table_keys);
    /* without entry counts, the offsets' differences are the counts (nnz_is_ptr); without
     * column shifts, offset stands in for them (has_shift 0: unread) */
    const magnus_hash_chunk_output *o = ph->out;
    const magnus_dbuf *nnz = o->nnz ? o->nnz : o->offset;
    const magnus_dbuf *shift = o->col_shift ? o->col_shift : o->offset;
    const int32_t nnz_is_ptr = o->nnz ? 0 : 1, has_shift = o->col_shift ? 1 : 0;
    if (!l->global)
        return magnus_k_hash_chunks_numeric_local(
            ctx, q, v, groups, group_size, local_bytes, sg->ptr, sg->col, sg->val, l->bins,
            l->bins_offset, l->count, o->offset, nnz, nnz_is_ptr, shift, has_shift,
            o->shift_period, o->shift_step, o->C_col, o->C_val, l->table_size, l->lanes,
            l->sort_net);
    return magnus_k_hash_chunks_numeric_global(
        ctx, q, v, groups, group_size, local_bytes, sg->ptr, sg->col, sg->val, l->bins,
        l->bins_offset, o->offset, nnz, nnz_is_ptr, shift, has_shift, o->shift_period,
        o->shift_step, o->C_col, o->C_val, l->tables, l->table_index, l->table_keys,
        l->table_vals, l->sort_block);
}

magnus_status magnus_hash_launch_bin(const hash_phase *ph, const hash_launch *l,
                                     magnus_queue_id q, size_t groups, size_t group_size,
                                     size_t local_bytes) {
    return ph->source == HASH_SOURCE_ROWS
               ? launch_rows(ph, l, q, groups, group_size, local_bytes)
               : launch_chunks(ph, l, q, groups, group_size, local_bytes);
}

/* ---- local bins --------------------------------------------------------------------------- */

/* Local bins, largest first.
 *
 * Each launch costs the host time and the device a gap (more through NVIDIA's OpenCL than
 * through CUDA: the H100's launch traces, docs/performance.md), and a phase's smallest bins are
 * often a few work groups each, too few to fill the device. So, walking down from a bin, the
 * smaller non-empty bins below it join its launch while the launch stays within the
 * accumulator's merge limit (MAGNUS_HASH_MERGE_GROUPS; unset: the device's compute units, one
 * wave of groups; 0: every bin its own launch; measured on the H100: docs/performance.md,
 * "Fewer launches for the smallest bins"). Their items fit the larger bin's tables (bins are
 * upper bounds on keys), and binning lays adjacent bins' ids side by side, so the launch
 * takes one range of them. */

/* One launch of local bins: bin `top`'s tables for the ids [begin, begin + count), which
 * hold `joined` smaller non-empty bins merged into it. */
typedef struct local_launch {
    int top;
    int64_t begin, count;
    unsigned joined;
} local_launch;

/* The next launch at or below bin *b (walking down; *b is left below it): false when no
 * non-empty local bin is left. */
static bool next_local_launch(const hash_plan *plan, const uint32_t *sizes,
                              const int64_t *offsets, uint64_t merge_limit, int *b,
                              local_launch *out) {
    while (*b >= 1 && sizes[*b] == 0) (*b)--;
    if (*b < 1) return false;
    const hash_bin *bin = &plan->bin[*b];
    *out = (local_launch){.top = *b, .begin = offsets[*b], .count = sizes[*b], .joined = 0};
    int below = *b - 1;
    for (; below >= 1 && merge_limit > 0; below--) {
        const int64_t sum = out->count + sizes[below];
        if ((uint64_t)((sum + bin->per_group - 1) / bin->per_group) > merge_limit) break;
        if (sizes[below] > 0) out->joined++;
        out->begin = offsets[below];
        out->count = sum;
    }
    *b = below;
    return true;
}

int magnus_hash_local_launches(const hash_phase *ph, const hash_plan *plan,
                               const uint32_t *sizes, const int64_t *offsets) {
    const uint64_t merge_limit = magnus_accumulate_knobs_of(ph->ctx)->hash_merge_groups;
    int n = 0, b = plan->nbins - 2;
    local_launch next;
    while (next_local_launch(plan, sizes, offsets, merge_limit, &b, &next)) n++;
    return n;
}

magnus_status magnus_hash_run_local(const hash_phase *ph, const hash_plan *plan,
                                    const hash_work *w, const uint32_t *sizes,
                                    const int64_t *offsets, magnus_queue_id first_queue,
                                    magnus_queue_id other_queue, magnus_hash_stats *st) {
    const uint64_t merge_limit = magnus_accumulate_knobs_of(ph->ctx)->hash_merge_groups;
    magnus_status s;
    int first = 1, b = plan->nbins - 2;
    local_launch next;
    while (next_local_launch(plan, sizes, offsets, merge_limit, &b, &next)) {
        const hash_bin *bin = &plan->bin[next.top];
        st->bins_merged += next.joined;
        hash_launch l = {.bins = &w->bins,
                         .bins_offset = next.begin,
                         .count = next.count,
                         .table_size = bin->table,
                         .lanes = bin->lanes,
                         .sort_net = (uint32_t)pow2_ceil((uint64_t)bin->max_key)};
        uint64_t local_bytes = magnus_hash_bin_local_bytes(bin, ph->numeric, ph->value_bytes);
        size_t groups = (size_t)((l.count + bin->per_group - 1) / bin->per_group);
        if ((s = magnus_hash_launch_bin(ph, &l, first ? first_queue : other_queue, groups,
                                        (size_t)bin->lanes * bin->per_group,
                                        (size_t)local_bytes)))
            return s;
        st->launches++;
        first = 0;
    }
    return MAGNUS_SUCCESS;
}
