/*
 * Dense rows: the rows of a phase that no local hash table holds, when C is narrow enough
 * that an array over its whole width (values and an occupancy bitmap, kernels/
 * hash_rows_dense.cl) fits the local memory a work group may take. The hash accumulator would
 * give each such row a table in global memory, probe it there, compact the row into C and
 * sort it there; a dense row touches local memory only, reads A and B once per phase and
 * writes C in column order. Local memory: the context's dense_rows_local_bytes, the device's
 * own unless the caller set a budget (so that MAGNUS_LOCAL_MEM_BYTES still bounds every
 * launch), since on GPUs whose budget default is below the device (48 KiB of the H200's 227)
 * the device's is what makes C's of 10^4 columns fit.
 *
 * Stripes: where C is wider than that, up to the context's dense_row_stripes (MAGNUS_DENSE_
 * STRIPES), a row is done in S = ceil(W / D) column stripes of ceil(W / S) columns, one pass
 * over its A entries each (the kernels cut every B row to the stripe by binary searches); so
 * a device of little local memory (OpenCL's 48 KiB on the H200) keeps the path that its
 * local memory-rich sibling takes, at S reads of the long rows' A entries and B row bounds.
 */
#include "hash_private.h"
#include "kernels.h"

static const magnus_kernel_id dense_kernel[2] = {MAGNUS_KERNEL_hash_rows_dense_symbolic,
                                                 MAGNUS_KERNEL_hash_rows_dense_numeric};

/* The widest C whose numeric dense row, in groups of wg items, fits `limit` bytes. */
static int64_t width_for(uint64_t limit, size_t value_bytes, uint64_t wg) {
    if (limit <= HASH_LOCAL_RESERVE) return 0;
    const uint64_t room = limit - HASH_LOCAL_RESERVE;
    const uint64_t fixed = mg_hash_dense_bytes(1u, 0u, value_bytes, wg);
    if (room <= fixed + 16u) return 0;
    /* values plus one bit each, less what the alignment of the two arrays may take */
    uint64_t w = (room - fixed) * 8u / (8u * value_bytes + 1u);
    while (w > 0 && mg_hash_dense_bytes(1u, w, value_bytes, wg) > room) w--;
    return w > INT32_MAX ? INT32_MAX : (int64_t)w;
}

int64_t magnus_hash_dense_row_columns(const magnus_context_s *ctx, magnus_value_type type) {
    const size_t vb = magnus_value_size(type);
    if (!ctx || vb == 0 || magnus_accumulate_knobs_of(ctx)->dense_rows_local_bytes == 0) return 0;
    return width_for(magnus_accumulate_knobs_of(ctx)->dense_rows_local_bytes, vb,
                     magnus_hash_group_cap(ctx));
}

int64_t magnus_hash_dense_row_stripes(const magnus_context_s *ctx, magnus_value_type type,
                                      int64_t cols) {
    const int64_t D = magnus_hash_dense_row_columns(ctx, type);
    if (D <= 0 || cols <= 0) return 0;
    const int64_t S = (cols + D - 1) / D;
    return S == 1 || S <= (int64_t)magnus_accumulate_knobs_of(ctx)->dense_row_stripes ? S : 0;
}

bool magnus_hash_dense_rows_apply(const hash_phase *ph) {
    return ph->source == HASH_SOURCE_ROWS &&
           magnus_hash_dense_row_stripes(ph->ctx, ph->B->type, ph->B->cols) > 0;
}

/* In the numeric phase, rows of more entries than C's width / the share (and than
 * HASH_DENSE_MIN_ENTRIES) go dense too: their local tables would be large (one row per group,
 * hundreds of lanes) and sorted, where the dense row writes its entries in column order.
 * The symbolic phase keeps its tables up to their capacity: counting keys needs no sort,
 * and a dense row's fixed costs (a group of up to 1024 items per row, its scans) lost to
 * them on rows of 2,000-4,000 products (EX5, bcsstk16: docs/performance.md, "Dense rows").
 * The local bins end at that key; the last bin (the global tables' place) takes the rest.
 * Not in stripes: there a dense row costs a pass over its A entries per stripe. */
void magnus_hash_dense_rows_cut(hash_plan *p, const hash_phase *ph) {
    const uint32_t share = magnus_accumulate_knobs_of(ph->ctx)->dense_row_share;
    if (!ph->numeric || share == 0 || p->nbins < 3 ||
        magnus_hash_dense_row_stripes(ph->ctx, ph->B->type, ph->B->cols) != 1)
        return;
    int64_t cut = ph->B->cols / share;
    if (cut < HASH_DENSE_MIN_ENTRIES) cut = HASH_DENSE_MIN_ENTRIES;
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
    magnus_context ctx = ph->ctx;
    const struct magnus_device_csr_s *A = ph->A, *B = ph->B;
    const int numeric = ph->numeric != 0;
    /* the group the width was sized for, or a smaller one if the kernel takes no more (it
     * needs less local memory, so the width still fits) */
    uint64_t wg = magnus_hash_group_cap(ctx);
    magnus_kernel_limits lim;
    magnus_status s = magnus_kernel_limits_get(&lim, ctx, ph->variant, dense_kernel[numeric]);
    if (s) return s;
    while (lim.max_group_size != 0 && wg > lim.max_group_size && wg > 1) wg /= 2;
    /* balanced stripes: S of ceil(W / S) columns, each no wider than the arrays allow */
    const int64_t stripes = magnus_hash_dense_row_stripes(ctx, B->type, B->cols);
    if (stripes <= 0) return magnus_error(MAGNUS_ERROR_INTERNAL, "dense rows: C too wide");
    const uint32_t cols = (uint32_t)B->cols;
    const uint32_t width = (uint32_t)((B->cols + stripes - 1) / stripes);
    const uint64_t bytes = mg_hash_dense_bytes((mg_u32)numeric, width, ph->value_bytes, wg);
    /* the groups a unit's local memory holds (one wave), each taking rows in turn: the arrays
     * are cleared once per group, not once per row */
    uint64_t per_unit = bytes ? ctx->device_local_mem_bytes / bytes : 1;
    if (per_unit > HASH_DENSE_GROUPS_PER_UNIT) per_unit = HASH_DENSE_GROUPS_PER_UNIT;
    /* at least MAGNUS_DENSE_ROW_ITEMS items a unit: a device that reports only a group's
     * local memory (OpenCL) may hold more groups of narrow work groups than that fit says;
     * groups beyond what a unit holds wait for others to end (no group waits for another) */
    const uint64_t by_items = magnus_accumulate_knobs_of(ctx)->dense_row_items / wg;
    if (by_items > per_unit) per_unit = by_items;
    const uint64_t units = ctx->device.compute_units > 0 ? (uint64_t)ctx->device.compute_units : 1;
    uint64_t groups = units * (per_unit > 0 ? per_unit : 1);
    if (groups > (uint64_t)count) groups = (uint64_t)count;
    if (ph->cfg.heavy != ph->cfg.main && (s = magnus_queue_depend(ctx, ph->cfg.heavy, ph->cfg.main)))
        return s;
    if (!numeric)
        s = magnus_k_hash_rows_dense_symbolic(ctx, ph->cfg.heavy, ph->variant, (size_t)groups,
                                              (size_t)wg, (size_t)bytes, &A->row_ptr,
                                              &A->col_idx, &B->row_ptr, &B->col_idx, &w->bins,
                                              bins_offset, count, ph->row_counts, width, cols);
    else
        s = magnus_k_hash_rows_dense_numeric(ctx, ph->cfg.heavy, ph->variant, (size_t)groups,
                                             (size_t)wg, (size_t)bytes, &A->row_ptr, &A->col_idx,
                                             &A->values, &B->row_ptr, &B->col_idx, &B->values,
                                             &w->bins, bins_offset, count, ph->C_rp, ph->C_col,
                                             ph->C_val, width, cols);
    if (s) return s;
    st->launches++;
    st->items_dense += count;
    if (stripes > st->dense_stripes) st->dense_stripes = stripes;
    return MAGNUS_SUCCESS;
}
