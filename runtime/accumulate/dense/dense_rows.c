/*
 * Dense rows (dense_rows.h): whether a C fits, its stripes, the numeric cut, and the launch of
 * kernels/hash_rows_dense.cl. A dense row touches local memory only, reads A and B once per
 * phase (per stripe) and writes C in column order, where a global table would be probed in
 * global memory, then compacted into C and sorted there.
 */
#include "dense_rows.h"
#include "kernels.h"
#include "shared/hash_layout.h"

static const magnus_kernel_id dense_kernel[2] = {MAGNUS_KERNEL_hash_rows_dense_symbolic,
                                                 MAGNUS_KERNEL_hash_rows_dense_numeric};

/* The widest C whose numeric dense row, in groups of wg items, fits `limit` bytes. */
static int64_t width_for(uint64_t limit, size_t value_bytes, uint64_t wg) {
    if (limit <= MAGNUS_DENSE_LOCAL_RESERVE) return 0;
    const uint64_t room = limit - MAGNUS_DENSE_LOCAL_RESERVE;
    const uint64_t fixed = mg_hash_dense_bytes(1u, 0u, value_bytes, wg);
    if (room <= fixed + 16u) return 0;
    /* values plus one bit each, less what the alignment of the two arrays may take */
    uint64_t w = (room - fixed) * 8u / (8u * value_bytes + 1u);
    while (w > 0 && mg_hash_dense_bytes(1u, w, value_bytes, wg) > room) w--;
    return w > INT32_MAX ? INT32_MAX : (int64_t)w;
}

int64_t magnus_dense_row_columns(const magnus_context_s *ctx, magnus_value_type type,
                                 uint32_t group) {
    const size_t vb = magnus_value_size(type);
    if (!ctx || vb == 0 || magnus_dense_rows_knobs_of(ctx)->dense_rows_local_bytes == 0) return 0;
    return width_for(magnus_dense_rows_knobs_of(ctx)->dense_rows_local_bytes, vb, group);
}

int64_t magnus_dense_row_stripes(const magnus_context_s *ctx, magnus_value_type type,
                                 int64_t cols, uint32_t group) {
    const int64_t D = magnus_dense_row_columns(ctx, type, group);
    if (D <= 0 || cols <= 0) return 0;
    const int64_t S = (cols + D - 1) / D;
    return S == 1 || S <= (int64_t)magnus_dense_rows_knobs_of(ctx)->dense_row_stripes ? S : 0;
}

int64_t magnus_dense_rows_numeric_cut(const magnus_context_s *ctx, magnus_value_type type,
                                      int64_t cols, uint32_t group) {
    const uint32_t share = magnus_dense_rows_knobs_of(ctx)->dense_row_share;
    if (share == 0 || magnus_dense_row_stripes(ctx, type, cols, group) != 1) return 0;
    const int64_t cut = cols / share;
    return cut < MAGNUS_DENSE_MIN_ENTRIES ? MAGNUS_DENSE_MIN_ENTRIES : cut;
}

magnus_status magnus_dense_rows_run(int64_t *stripes_out, magnus_context ctx,
                                    const magnus_dense_rows_launch *l) {
    const struct magnus_device_csr_s *A = l->A, *B = l->B;
    const int numeric = l->numeric != 0;
    /* the group the width was sized for, or a smaller one if the kernel takes no more (it
     * needs less local memory, so the width still fits) */
    uint64_t wg = l->group;
    magnus_kernel_limits lim;
    magnus_status s = magnus_kernel_limits_get(&lim, ctx, l->variant, dense_kernel[numeric]);
    if (s) return s;
    while (lim.max_group_size != 0 && wg > lim.max_group_size && wg > 1) wg /= 2;
    /* balanced stripes: S of ceil(W / S) columns, each no wider than the arrays allow */
    const int64_t stripes = magnus_dense_row_stripes(ctx, B->type, B->cols, l->group);
    if (stripes <= 0) return magnus_error(MAGNUS_ERROR_INTERNAL, "dense rows: C too wide");
    const uint32_t cols = (uint32_t)B->cols;
    const uint32_t width = (uint32_t)((B->cols + stripes - 1) / stripes);
    const uint64_t bytes = mg_hash_dense_bytes((mg_u32)numeric, width, l->value_bytes, wg);
    /* the groups a unit's local memory holds (one wave), each taking rows in turn: the arrays
     * are cleared once per group, not once per row */
    uint64_t per_unit = bytes ? ctx->device_local_mem_bytes / bytes : 1;
    if (per_unit > MAGNUS_DENSE_GROUPS_PER_UNIT) per_unit = MAGNUS_DENSE_GROUPS_PER_UNIT;
    /* at least MAGNUS_DENSE_ROW_ITEMS items a unit: a device that reports only a group's
     * local memory (OpenCL) may hold more groups of narrow work groups than that fit says;
     * groups beyond what a unit holds wait for others to end (no group waits for another) */
    const uint64_t by_items = magnus_dense_rows_knobs_of(ctx)->dense_row_items / wg;
    if (by_items > per_unit) per_unit = by_items;
    const uint64_t units = ctx->device.compute_units > 0 ? (uint64_t)ctx->device.compute_units : 1;
    uint64_t groups = units * (per_unit > 0 ? per_unit : 1);
    if (groups > (uint64_t)l->count) groups = (uint64_t)l->count;
    if (l->queue != l->after && (s = magnus_queue_depend(ctx, l->queue, l->after))) return s;
    if (!numeric)
        s = magnus_k_hash_rows_dense_symbolic(ctx, l->queue, l->variant, (size_t)groups,
                                              (size_t)wg, (size_t)bytes, &A->row_ptr,
                                              &A->col_idx, &B->row_ptr, &B->col_idx, l->rows,
                                              l->rows_offset, l->count, l->row_counts, width,
                                              cols);
    else
        s = magnus_k_hash_rows_dense_numeric(ctx, l->queue, l->variant, (size_t)groups,
                                             (size_t)wg, (size_t)bytes, &A->row_ptr, &A->col_idx,
                                             &A->values, &B->row_ptr, &B->col_idx, &B->values,
                                             l->rows, l->rows_offset, l->count, l->C_row_ptr,
                                             l->C_col, l->C_val, width, cols);
    if (s) return s;
    *stripes_out = stripes;
    return MAGNUS_SUCCESS;
}
