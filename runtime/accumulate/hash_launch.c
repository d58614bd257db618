/*
 * The bin kernels (kernels/hash_rows.cl, hash_chunks.cl): their names and arguments for a
 * phase over rows or chunks, symbolic or numeric, and the launches of the local-table bins.
 */
#include "hash_private.h"

const char *magnus_hash_kernel_name(const hash_phase *ph, int global) {
    static const char *names[2][2][2] = {
        {{"hash_rows_symbolic_local", "hash_rows_symbolic_global"},
         {"hash_rows_numeric_local", "hash_rows_numeric_global"}},
        {{"hash_chunks_symbolic_local", "hash_chunks_symbolic_global"},
         {"hash_chunks_numeric_local", "hash_chunks_numeric_global"}}};
    return names[ph->source == HASH_SOURCE_CHUNKS][ph->numeric != 0][global != 0];
}

/* Fills args[] for the bin kernel of `ph` (order as in kernels/hash_rows.cl, hash_chunks.cl)
 * and returns their number. */
int magnus_hash_kernel_args(magnus_karg *args, const hash_phase *ph, const hash_launch *l) {
    int n = 0;
    uint32_t lanes = l->global ? HASH_GLOBAL_GROUP : l->lanes;
    uint32_t team = ph->team < lanes ? ph->team : lanes;
    if (ph->source == HASH_SOURCE_ROWS) {
        args[n++] = magnus_arg_mem(&ph->A->row_ptr);
        args[n++] = magnus_arg_mem(&ph->A->col_idx);
        if (ph->numeric) args[n++] = magnus_arg_mem(&ph->A->values);
        args[n++] = magnus_arg_mem(&ph->B->row_ptr);
        args[n++] = magnus_arg_mem(&ph->B->col_idx);
        if (ph->numeric) args[n++] = magnus_arg_mem(&ph->B->values);
        args[n++] = magnus_arg_mem(l->bins);
        args[n++] = magnus_arg_i64(l->bins_offset);
        if (!l->global) args[n++] = magnus_arg_i64(l->count);
        if (ph->numeric) {
            args[n++] = magnus_arg_mem(ph->C_rp);
            args[n++] = magnus_arg_mem(ph->C_col);
            args[n++] = magnus_arg_mem(ph->C_val);
        } else {
            args[n++] = magnus_arg_mem(ph->row_counts);
        }
    } else {
        const magnus_hash_segments *s = ph->seg;
        args[n++] = magnus_arg_mem(s->ptr);
        args[n++] = magnus_arg_mem(s->col);
        if (ph->numeric) args[n++] = magnus_arg_mem(s->val);
        args[n++] = magnus_arg_mem(l->bins);
        args[n++] = magnus_arg_i64(l->bins_offset);
        if (!l->global) args[n++] = magnus_arg_i64(l->count);
        if (ph->numeric) {
            const magnus_hash_chunk_output *o = ph->out;
            args[n++] = magnus_arg_mem(o->offset);
            args[n++] = magnus_arg_mem(o->nnz ? o->nnz : o->offset);
            args[n++] = magnus_arg_i32(o->nnz ? 0 : 1);
            args[n++] = magnus_arg_mem(o->col_shift ? o->col_shift : o->offset);
            args[n++] = magnus_arg_i32(o->col_shift ? 1 : 0);
            args[n++] = magnus_arg_i64(o->shift_period);
            args[n++] = magnus_arg_i64(o->shift_step);
            args[n++] = magnus_arg_mem(o->C_col);
            args[n++] = magnus_arg_mem(o->C_val);
        } else {
            args[n++] = magnus_arg_mem(ph->chunk_counts);
        }
    }
    if (l->global) {
        args[n++] = magnus_arg_mem(l->tables);
        args[n++] = magnus_arg_i64(l->table_index);
        args[n++] = magnus_arg_mem(l->table_keys);
        if (ph->numeric) args[n++] = magnus_arg_mem(l->table_vals);
    } else {
        args[n++] = magnus_arg_u32(l->table_size);
        args[n++] = magnus_arg_u32(l->lanes);
    }
    if (ph->source == HASH_SOURCE_ROWS) args[n++] = magnus_arg_u32(team);
    if (!l->global && ph->numeric) args[n++] = magnus_arg_u32(l->sort_net);
    if (l->global && ph->numeric) args[n++] = magnus_arg_u32(l->sort_block);
    return n;
}

/* ---- local bins --------------------------------------------------------------------------- */

/* Local bins, largest first; the largest non-empty one joins the global work on heavy. */
magnus_status magnus_hash_run_local(const hash_phase *ph, const hash_plan *plan,
                                    const hash_work *w, const uint32_t *sizes,
                                    const int64_t *offsets, magnus_hash_stats *st) {
    magnus_context ctx = ph->ctx;
    magnus_status s;
    int last = plan->nbins - 1;
    int first = 1;
    for (int b = last - 1; b >= 1; b--) {
        if (sizes[b] == 0) continue;
        const hash_bin *bin = &plan->bin[b];
        hash_launch l = {.bins = &w->bins,
                         .bins_offset = offsets[b],
                         .count = sizes[b],
                         .table_size = bin->table,
                         .lanes = bin->lanes,
                         .sort_net = (uint32_t)pow2_ceil((uint64_t)bin->max_key)};
        uint64_t local_bytes = magnus_hash_bin_local_bytes(bin, ph->numeric, ph->value_bytes);
        magnus_karg ka[24];
        int kn = magnus_hash_kernel_args(ka, ph, &l);
        size_t groups = (size_t)((l.count + bin->per_group - 1) / bin->per_group);
        if ((s = magnus_launch(ctx, first ? ph->cfg.heavy : ph->cfg.light, ph->variant,
                               magnus_hash_kernel_name(ph, 0), groups,
                               (size_t)bin->lanes * bin->per_group, (size_t)local_bytes, kn, ka)))
            return s;
        st->launches++;
        first = 0;
    }
    return MAGNUS_SUCCESS;
}
