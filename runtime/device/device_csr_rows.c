/*
 * Row blocks of device matrices: a block of rows copied out into a matrix of its own
 * (magnus_device_csr_rows) and blocks of rows stacked back into one matrix
 * (magnus_device_csr_stack). gMAGNUS multiplies in row blocks when its C-hat would pass the
 * context's batch budget (runtime/spgemm/gmagnus/gmagnus_batches.c). Row pointers move to their new
 * base by prim_shift_u64; entries move by buffer copies. All work is queued on one queue.
 */
#include "device_csr.h"
#include "kernels.h"

magnus_status magnus_dbuf_shift_u64(magnus_context ctx, magnus_queue_id q,
                                    magnus_kernel_variant variant, magnus_dbuf *out,
                                    uint64_t out_at, const magnus_dbuf *in, uint64_t in_at,
                                    uint64_t n, uint64_t add, uint64_t sub) {
    if (n == 0) return MAGNUS_SUCCESS;
    size_t gs = 256;
    while (gs > 1 && gs > ctx->device.max_work_group_size) gs >>= 1;
    uint64_t units = n / gs + 1;
    size_t groups = units < 65535 ? (size_t)units : 65535;
    return magnus_k_prim_shift_u64(ctx, q, variant, groups, gs, 0, out, out_at, in,
                                   in_at, n, add, sub);
}

magnus_status magnus_device_csr_rows(magnus_device_csr *out, const struct magnus_device_csr_s *d,
                                     int64_t r0, int64_t r1, magnus_queue_id q) {
    *out = NULL;
    if (r0 < 0 || r1 < r0 || r1 > d->rows)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "rows %lld to %lld of a device matrix of %lld rows", (long long)r0,
                            (long long)r1, (long long)d->rows);
    magnus_context ctx = d->ctx;
    int64_t first = 0, last = 0;
    magnus_status s;
    if ((s = magnus_dbuf_read(ctx, q, &first, &d->row_ptr, (size_t)r0 * 8, 8)) ||
        (s = magnus_dbuf_read(ctx, q, &last, &d->row_ptr, (size_t)r1 * 8, 8)))
        return s;
    if (first < 0 || last < first || last > d->nnz)
        return magnus_error(MAGNUS_ERROR_INTERNAL,
                            "device matrix row pointers %lld and %lld at rows %lld and %lld "
                            "(nnz %lld)",
                            (long long)first, (long long)last, (long long)r0, (long long)r1,
                            (long long)d->nnz);
    magnus_device_csr b = NULL;
    const size_t vsize = magnus_value_size(d->type);
    const int64_t nnz = last - first;
    if ((s = magnus_device_csr_new(&b, ctx, r1 - r0, d->cols, d->type)) ||
        (s = magnus_dbuf_shift_u64(ctx, q, magnus_variant_of(d->type), &b->row_ptr, 0,
                                   &d->row_ptr, (uint64_t)r0, (uint64_t)(r1 - r0) + 1, 0,
                                   (uint64_t)first)))
        goto fail;
    if (nnz > 0 &&
        ((s = magnus_device_csr_alloc_entries(b, nnz)) ||
         (s = magnus_dbuf_copy(ctx, q, &b->col_idx, 0, &d->col_idx, (size_t)first * 4,
                               (size_t)nnz * 4)) ||
         (s = magnus_dbuf_copy(ctx, q, &b->values, 0, &d->values, (size_t)first * vsize,
                               (size_t)nnz * vsize))))
        goto fail;
    *out = b;
    return MAGNUS_SUCCESS;
fail:
    /* queued work may still write b's buffers: wait before they are freed */
    magnus_context_finish_after_error(ctx, s);
    magnus_device_csr_destroy(&b);
    return s;
}

/* Copies every block's array `which` (0: column indices, 1: values) into m's, in order, then
 * frees the blocks' arrays once q has run the copies. */
static magnus_status stack_array(struct magnus_device_csr_s *m, magnus_device_csr *blocks,
                                 size_t count, int which, magnus_queue_id q) {
    const size_t element = which ? magnus_value_size(m->type) : 4;
    magnus_status s = MAGNUS_SUCCESS;
    size_t p = 0;
    for (size_t i = 0; i < count && !s; i++) {
        magnus_dbuf *src = which ? &blocks[i]->values : &blocks[i]->col_idx;
        magnus_dbuf *dst = which ? &m->values : &m->col_idx;
        if (blocks[i]->nnz > 0)
            s = magnus_dbuf_copy(m->ctx, q, dst, p * element, src, 0,
                                 (size_t)blocks[i]->nnz * element);
        p += (size_t)blocks[i]->nnz;
    }
    if (!s) s = magnus_queue_finish(m->ctx, q);
    if (!s)
        for (size_t i = 0; i < count; i++)
            magnus_dbuf_free(m->ctx, which ? &blocks[i]->values : &blocks[i]->col_idx);
    return s;
}

magnus_status magnus_device_csr_stack(magnus_device_csr *out, magnus_context ctx,
                                      magnus_device_csr *blocks, size_t count, int64_t cols,
                                      magnus_value_type type, magnus_queue_id q) {
    *out = NULL;
    int64_t rows = 0, nnz = 0;
    for (size_t i = 0; i < count; i++) {
        if (blocks[i]->cols != cols || blocks[i]->type != type)
            return magnus_error(MAGNUS_ERROR_INTERNAL,
                                "row block %zu of %lld columns and type %d stacked into a "
                                "matrix of %lld columns and type %d",
                                i, (long long)blocks[i]->cols, (int)blocks[i]->type,
                                (long long)cols, (int)type);
        rows += blocks[i]->rows;
        nnz += blocks[i]->nnz;
    }
    const size_t vsize = magnus_value_size(type);
    size_t col_bytes = 0, val_bytes = 0;
    if (nnz < 0 || !magnus_mul_size((size_t)nnz, 4, &col_bytes) ||
        !magnus_mul_size((size_t)nnz, vsize, &val_bytes))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "stacked matrix with %lld entries",
                            (long long)nnz);
    magnus_device_csr m = NULL;
    magnus_status s;
    if ((s = magnus_device_csr_new(&m, ctx, rows, cols, type))) return s;
    int64_t r = 0, p = 0;
    for (size_t i = 0; i < count && !s; i++) {
        /* the block's row pointers but its last, which the next block's first repeats */
        s = magnus_dbuf_shift_u64(ctx, q, magnus_variant_of(type), &m->row_ptr, (uint64_t)r,
                                  &blocks[i]->row_ptr, 0, (uint64_t)blocks[i]->rows,
                                  (uint64_t)p, 0);
        r += blocks[i]->rows;
        p += blocks[i]->nnz;
    }
    if (!s) s = magnus_dbuf_fill(ctx, q, &m->row_ptr, (size_t)rows * 8, &nnz, 8, 8);
    /* One array at a time, each block's copy freed before the next array is allocated: at
     * most the blocks plus C's column indices are held, 1.5 times C's entries in float32
     * (1.67 in float64), instead of the blocks plus all of C. */
    if (!s && nnz > 0) {
        m->nnz = nnz;
        if (!(s = magnus_dbuf_alloc(ctx, col_bytes, &m->col_idx)) &&
            !(s = stack_array(m, blocks, count, 0, q)) &&
            !(s = magnus_dbuf_alloc(ctx, val_bytes, &m->values)))
            s = stack_array(m, blocks, count, 1, q);
    }
    if (s) {
        magnus_context_finish_after_error(ctx, s);
        magnus_device_csr_destroy(&m);
        return s;
    }
    for (size_t i = 0; i < count; i++) magnus_device_csr_destroy(&blocks[i]);
    *out = m;
    return MAGNUS_SUCCESS;
}
