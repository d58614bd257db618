/*
 * The hash accumulator's use of dense rows (dense/dense_rows.h): they take the phase's global
 * bin when C is narrow enough (in column stripes up to MAGNUS_DENSE_STRIPES), and in the
 * numeric phase the local bins end at their cut. The rows, their width and launch are the
 * dense rows' own; the group they are sized for is the accumulator's (magnus_hash_group_cap).
 */
#include "hash_private.h"

int64_t magnus_hash_dense_row_columns(const magnus_context_s *ctx, magnus_value_type type) {
    return ctx ? magnus_dense_row_columns(ctx, type, magnus_hash_group_cap(ctx)) : 0;
}

int64_t magnus_hash_dense_row_stripes(const magnus_context_s *ctx, magnus_value_type type,
                                      int64_t cols) {
    return ctx ? magnus_dense_row_stripes(ctx, type, cols, magnus_hash_group_cap(ctx)) : 0;
}

bool magnus_hash_dense_rows_decide(const magnus_context_s *ctx, magnus_value_type type,
                                   int64_t cols) {
    const int64_t stripes = magnus_hash_dense_row_stripes(ctx, type, cols);
    return stripes == 1 ||
           (stripes > 1 && stripes <= (int64_t)magnus_dense_rows_knobs_of(ctx)->auto_stripes);
}

uint64_t magnus_hash_dense_rows_local_bytes(const magnus_context_s *ctx, magnus_value_type type) {
    return magnus_hash_dense_row_columns(ctx, type) > 0
               ? magnus_dense_rows_knobs_of(ctx)->dense_rows_local_bytes
               : 0;
}

bool magnus_hash_dense_rows_apply(const hash_phase *ph) {
    return ph->source == HASH_SOURCE_ROWS &&
           magnus_hash_dense_row_stripes(ph->ctx, ph->B->type, ph->B->cols) > 0;
}

void magnus_hash_dense_rows_cut(hash_plan *p, const hash_phase *ph) {
    if (!ph->numeric || p->nbins < 3) return;
    const int64_t cut = magnus_dense_rows_numeric_cut(ph->ctx, ph->B->type, ph->B->cols,
                                                      magnus_hash_group_cap(ph->ctx));
    if (cut == 0) return;
    int keep = 1;
    while (keep < p->nbins - 1 && p->bin[keep].max_key < cut) keep++;
    if (keep < p->nbins - 1) { /* bin `keep` straddles the cut: it ends there */
        p->bin[keep].max_key = cut;
        keep++;
    }
    p->bin[keep] = p->bin[p->nbins - 1];
    p->nbins = keep + 1;
}

magnus_status magnus_hash_run_dense_rows(const hash_phase *ph, hash_work *w, int64_t bins_offset,
                                         int64_t count, magnus_hash_stats *st) {
    const magnus_dense_rows_launch l = {
        .queue = ph->cfg.heavy,
        .after = ph->cfg.main,
        .variant = ph->variant,
        .value_bytes = ph->value_bytes,
        .numeric = ph->numeric,
        .group = magnus_hash_group_cap(ph->ctx),
        .A = ph->A,
        .B = ph->B,
        .rows = &w->bins,
        .rows_offset = bins_offset,
        .count = count,
        .row_counts = ph->row_counts,
        .C_row_ptr = ph->C_rp,
        .C_col = ph->C_col,
        .C_val = ph->C_val,
    };
    int64_t stripes = 0;
    magnus_status s = magnus_dense_rows_run(&stripes, ph->ctx, &l);
    if (s) return s;
    st->launches++;
    st->items_dense += count;
    if (stripes > st->dense_stripes) st->dense_stripes = stripes;
    return MAGNUS_SUCCESS;
}
