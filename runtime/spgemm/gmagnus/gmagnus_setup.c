/*
 * gMAGNUS setup (paper Alg. 3 lines 2-5), on the main queue:
 *   products per row      C.row_ptr[r] = sum over k in A[r,:] of nnz(B[k,:])   (hash helper)
 *   InterOffsets          the exclusive scan of those (64-bit)
 *   ThreshPartition       rows with more than heavy_row_products (tau or more,
 *                         gmagnus_rows.c) products are heavy
 *   C-hat's row pointer   the exclusive scan of the heavy rows' products (chat_ptr, nheavy+1
 *                         entries), from which the CSC scatter places each A entry's run.
 *   In-place multisplit   whether C-hat gets one buffer with a gap in front instead of two
 *                         (gmagnus_levels.c): one multisplit level, a C-hat of at least
 *                         chat_gap_min_bytes, and no heavy row longer than the gap.
 * Ends with the main queue idle (the host needs the heavy and light counts).
 */
#include "gmagnus_internal.h"
#include "hash_accumulate.h"
#include "primitives.h"

/* g->gap from the context's knobs and heavy_ptr, the heavy rows' row pointer into C-hat. */
static magnus_status choose_gap(magnus_gm *g, const magnus_dbuf *heavy_ptr) {
    const magnus_gmagnus_knobs *knobs = magnus_gmagnus_knobs_of(g->ctx);
    const uint64_t n = (uint64_t)g->products_heavy;
    g->gap = 0;
    if (g->p.levels != 1 || knobs->chat_gap_divisor == 0 || n == 0 ||
        n * (4 + g->value_bytes) < knobs->chat_gap_min_bytes)
        return MAGNUS_SUCCESS;
    /* a multiple of 256 elements keeps C-hat's start 1 KiB-aligned after the gap */
    uint64_t gap = (n + knobs->chat_gap_divisor - 1) / knobs->chat_gap_divisor;
    gap = (gap + 255) & ~(uint64_t)255;
    magnus_long_segments long_rows;
    magnus_status s = magnus_prim_long_segments(g->ctx, MAGNUS_QUEUE_MAIN, heavy_ptr,
                                                (uint64_t)g->nheavy, gap, &long_rows);
    if (!s && long_rows.count == 0) g->gap = gap;
    return s;
}

magnus_status magnus_gm_setup_sync(magnus_gm *g) {
    magnus_context ctx = g->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    const int64_t rows = g->A->rows;
    magnus_dbuf offsets = {0}, heavy_products = {0};
    uint64_t total = 0, nheavy = 0, nlight = 0;
    magnus_status s;
    if ((s = magnus_timer_start(ctx, q, &g->timers[MAGNUS_GM_T_SETUP]))) return s;
    const magnus_dbuf *offs = &offsets;
    if (g->counted) { /* AUTO's statistics counted and scanned them already */
        offs = &g->counted->offsets;
        total = g->counted->total;
        if ((s = magnus_dbuf_copy(ctx, q, &g->C->row_ptr, 0, &g->counted->products, 0,
                                  ((size_t)rows + 1) * 8)))
            goto done;
    } else if ((s = magnus_hash_rows_products(ctx, q, g->A, g->B, NULL, 0, rows, &g->C->row_ptr,
                                              NULL)) ||
               (s = magnus_prim_fill_u64(ctx, q, &g->C->row_ptr, (uint64_t)rows, 1, 0)) ||
               (s = magnus_gm_alloc(g, ((size_t)rows + 1) * 8, &offsets)) ||
               (s = magnus_prim_scan_u64(ctx, q, &offsets, &g->C->row_ptr, (uint64_t)rows + 1,
                                         &total))) {
        goto done;
    }
    if ((s = magnus_prim_partition_threshold(ctx, q, offs, (uint64_t)rows,
                                             (uint64_t)g->heavy_row_products,
                                             &g->heavy_rows, &g->light_rows, &nheavy, &nlight)))
        goto done;
    g->products_total = (int64_t)total;
    g->nheavy = (int64_t)nheavy;
    g->nlight = (int64_t)nlight;

    if ((s = magnus_gm_alloc(g, ((size_t)nheavy + 1) * 8, &g->chat_ptr))) goto done;
    if (nheavy > 0) {
        uint64_t heavy_total = 0;
        if ((s = magnus_gm_alloc(g, ((size_t)nheavy + 1) * 8, &heavy_products)) ||
            (s = magnus_prim_gather_u64(ctx, q, &heavy_products, &g->C->row_ptr,
                                        (uint64_t)rows, &g->heavy_rows, nheavy)) ||
            (s = magnus_prim_fill_u64(ctx, q, &heavy_products, nheavy, 1, 0)) ||
            (s = magnus_prim_scan_u64(ctx, q, &heavy_products, &heavy_products, nheavy + 1,
                                      &heavy_total)) ||
            (s = magnus_dbuf_copy(ctx, q, &g->chat_ptr, 0, &heavy_products, 0,
                                  ((size_t)nheavy + 1) * 8)))
            goto done;
        g->products_heavy = (int64_t)heavy_total;
        if ((s = choose_gap(g, &heavy_products))) goto done;
    }
    if ((nheavy == 0 && (s = magnus_prim_fill_u64(ctx, q, &g->chat_ptr, 0, 1, 0))) ||
        (s = magnus_timer_stop(ctx, q, &g->timers[MAGNUS_GM_T_SETUP])))
        goto done;
    s = magnus_queue_finish(ctx, q);
done:
    if (s) magnus_gm_drain(g, s); /* buffers are freed only when idle */
    magnus_dbuf_free(ctx, &offsets);
    magnus_dbuf_free(ctx, &heavy_products);
    return s;
}
