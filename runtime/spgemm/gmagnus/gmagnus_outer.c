/*
 * gMAGNUS MaskedCsr2Csc and OuterProduct (paper Alg. 3 lines 7-8), on the heavy queue.
 *
 * CSC of A's heavy rows by a counting transpose (kernels/gmagnus_csr2csc.cl): count the
 * column ids of heavy-row entries whose B row is non-empty, scan, scatter. The scatter stores
 * for each CSC entry, in place of its row, the start of its run in C-hat (csc_dest:
 * chat_ptr[h] plus the B row lengths of the row's earlier entries), so the product kernel
 * (kernels/gmagnus_outer_product.cl) writes C-hat in one pass, with no reservation. Slice k
 * (column k times row k of B) has count[k] * ceil(nnz(B[k,:]) / W) rows of at most W elements
 * (an A entry times a segment of the B row; W = the kernel's team times its slots); the
 * non-empty slices are compacted (a threshold partition of the slice offsets with tau = 0) so
 * the product's teams never cross empty slices.
 * The kernels stay queued when this returns; their inputs are freed deferred (the context
 * frees them once idle: magnus_dbuf_free_deferred).
 */
#include "gmagnus_internal.h"
#include "kernels.h"
#include "primitives.h"

/* Work items of a team of the product kernel: a warp's 32 where the group holds them. */
static uint32_t outer_team(size_t wg) {
    return (uint32_t)(wg < MG_GM_OUTER_TEAM ? wg : MG_GM_OUTER_TEAM);
}

static magnus_status masked_csr2csc(magnus_gm *g, magnus_dbuf *csc_ptr, magnus_dbuf *csc_dest,
                                    magnus_dbuf *csc_val, magnus_dbuf *slice_list,
                                    magnus_dbuf *slice_off, uint64_t *nslices,
                                    uint64_t *entries_out) {
    magnus_context ctx = g->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_HEAVY;
    const struct magnus_device_csr_s *A = g->A, *B = g->B;
    const uint64_t ncols = (uint64_t)A->cols;
    const size_t wg = (size_t)g->p.outer_group_size;
    /* the scatter's scan keeps 8 bytes per item: as many items as the budget allows */
    size_t scatter_wg = wg;
    while (scatter_wg > 1 &&
           mg_gm_csc_scatter_bytes(scatter_wg) + MAGNUS_GM_STATIC_LOCAL_BYTES > g->p.local_mem_bytes)
        scatter_wg /= 2;
    const uint32_t width = outer_team(wg) * MG_GM_OUTER_SLOTS;
    magnus_dbuf count = {0}, cursor = {0}, slice_rows = {0}, slice_full = {0};
    uint64_t entries = 0;
    magnus_status s;
    if ((s = magnus_gm_alloc(g, (ncols + 1) * 8, &count)) ||
        (s = magnus_gm_alloc(g, (ncols + 1) * 8, csc_ptr)) ||
        (s = magnus_gm_alloc(g, (ncols + 1) * 8, &cursor)) ||
        (s = magnus_prim_fill_u64(ctx, q, &count, 0, ncols + 1, 0)))
        goto done;
    if ((s = magnus_k_gmagnus_csc_count(ctx, q, g->variant, magnus_gm_groups(g->nheavy, 1), wg,
                                        0, g->nheavy, &g->heavy_rows, &A->row_ptr, &A->col_idx,
                                        &B->row_ptr, &count)) ||
        (s = magnus_prim_scan_u64(ctx, q, csc_ptr, &count, ncols + 1, &entries)) ||
        (s = magnus_dbuf_copy(ctx, q, &cursor, 0, csc_ptr, 0, (size_t)ncols * 8)) ||
        (s = magnus_gm_alloc(g, (size_t)entries * 8, csc_dest)) ||
        (s = magnus_gm_alloc(g, (size_t)entries * g->value_bytes, csc_val)))
        goto done;
    if ((s = magnus_k_gmagnus_csc_scatter(ctx, q, g->variant, magnus_gm_groups(g->nheavy, 1),
                                          scatter_wg, (size_t)mg_gm_csc_scatter_bytes(scatter_wg),
                                          g->nheavy,
                                          &g->heavy_rows, &A->row_ptr, &A->col_idx, &A->values,
                                          &B->row_ptr, &g->chat_ptr, &cursor, csc_dest,
                                          csc_val)))
        goto done;

    *entries_out = entries;
    /* slices: rows, offsets over all columns, the non-empty ones compacted */
    if ((s = magnus_gm_alloc(g, (ncols + 1) * 8, &slice_rows)) ||
        (s = magnus_gm_alloc(g, (ncols + 1) * 8, &slice_full)) ||
        (s = magnus_prim_fill_u64(ctx, q, &slice_rows, ncols, 1, 0)))
        goto done;
    if ((s = magnus_k_gmagnus_slice_rows(ctx, q, g->variant, magnus_gm_groups((int64_t)ncols, wg),
                                         wg, 0, ncols, width, &count, &B->row_ptr,
                                         &slice_rows)) ||
        /* queued only: the product kernel reads the number of rows from the device, and the
         * host launches for a bound of it (magnus_gm_outer_product); reading the total back
         * was a host wait that also held back the light queue's launches */
        (s = magnus_prim_scan_u64(ctx, q, &slice_full, &slice_rows, ncols + 1, NULL)))
        goto done;
    if ((s = magnus_prim_partition_threshold(ctx, q, &slice_full, ncols, 0, slice_list, NULL,
                                             nslices, NULL)) ||
        (s = magnus_gm_alloc(g, ((size_t)*nslices + 1) * 8, slice_off)))
        goto done;
    s = magnus_k_gmagnus_slice_gather(ctx, q, g->variant, magnus_gm_groups((int64_t)*nslices, wg),
                                      wg, 0, *nslices, slice_list, &slice_full, slice_off);
done:
    /* No wait: freed temporaries are reused only after every queue has been waited for
     * (device_pool.c) or released by the backend after the queued work (backend.h). */
    if (s) magnus_gm_drain(g, s);
    magnus_dbuf_free(ctx, &count);
    magnus_dbuf_free(ctx, &cursor);
    magnus_dbuf_free(ctx, &slice_rows);
    magnus_dbuf_free(ctx, &slice_full);
    return s;
}

magnus_status magnus_gm_outer_product(magnus_gm *g) {
    magnus_context ctx = g->ctx;
    const magnus_queue_id q = MAGNUS_QUEUE_HEAVY;
    magnus_dbuf csc_ptr = {0}, csc_dest = {0}, csc_val = {0}, slice_list = {0}, slice_off = {0},
                starts = {0};
    magnus_dbuf *inputs[] = {&csc_ptr, &csc_dest, &csc_val, &slice_list, &slice_off, &starts};
    uint64_t nslices = 0, entries = 0;
    magnus_status s;
    g->chat_nnz = g->products_heavy;
    if ((s = magnus_timer_start(ctx, q, &g->timers[MAGNUS_GM_T_CSR2CSC])) ||
        (s = masked_csr2csc(g, &csc_ptr, &csc_dest, &csc_val, &slice_list, &slice_off, &nslices,
                            &entries)) ||
        (s = magnus_timer_stop(ctx, q, &g->timers[MAGNUS_GM_T_CSR2CSC])))
        goto done;
    /* C-hat in buffer 0, or after the gap in buffer 1 (in place: gmagnus_levels.c) */
    const int buf = g->gap ? 1 : 0;
    const size_t elems_held = (size_t)g->chat_nnz + (size_t)g->gap;
    if ((s = magnus_gm_alloc(g, elems_held * 4, &g->col[buf])) ||
        (s = magnus_gm_alloc(g, elems_held * g->value_bytes, &g->val[buf])) ||
        (s = magnus_timer_start(ctx, q, &g->timers[MAGNUS_GM_T_OUTER])))
        goto done;
    if (nslices > 0) {
        /* Teams of `team` items take ranges of team_rows rows, about outer_group_elems
         * elements per group (the partition's grain, from the device's local memory). The
         * rows are counted on the device only; the host launches for a bound:
         * sum_k m_k ceil(L_k / W) <= products / W + entries. Where each range starts is found
         * first, by one item per range (kernels/gmagnus_outer_product.cl says why). */
        const size_t wg = (size_t)g->p.outer_group_size;
        const uint32_t team = outer_team(wg);
        const uint64_t width = (uint64_t)team * MG_GM_OUTER_SLOTS, teams = wg / team;
        const uint64_t group_rows = ((uint64_t)g->p.outer_group_elems + width - 1) / width;
        const uint64_t team_rows = (group_rows + teams - 1) / teams; /* >= 1 */
        const uint64_t rows_bound = (uint64_t)g->chat_nnz / width + entries;
        const int64_t ranges = (int64_t)((rows_bound + team_rows - 1) / team_rows);
        if ((s = magnus_gm_alloc(g, (size_t)ranges * 8, &starts)) ||
            (s = magnus_k_gmagnus_outer_starts(ctx, q, g->variant, magnus_gm_groups(ranges, wg),
                                               wg, 0, nslices, team_rows, &slice_off, &starts)) ||
            (s = magnus_k_gmagnus_outer_product(
                 ctx, q, g->variant, magnus_gm_groups(ranges, teams), wg, 0, nslices, team_rows,
                 team, &starts, &slice_list, &slice_off, &csc_ptr, &csc_dest, &csc_val,
                 &g->B->row_ptr, &g->B->col_idx, &g->B->values, &g->col[buf], &g->val[buf],
                 g->gap)))
            goto done;
    }
    s = magnus_timer_stop(ctx, q, &g->timers[MAGNUS_GM_T_OUTER]);
done:
    /* the product kernel may still be running: its inputs are freed when the context is idle
     * (after an error, by the caller's drain) */
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
        magnus_dbuf_free_deferred(g->ctx, inputs[i]);
    return s;
}
