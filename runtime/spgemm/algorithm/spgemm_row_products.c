/*
 * A·B's products per row and their scan (spgemm_algorithm.h): counted once, by AUTO's choice
 * or by the algorithm that needs them, and handed on so no one counts twice.
 */
#include <string.h>

#include "hash_accumulate.h"
#include "primitives.h"
#include "spgemm_algorithm.h"

void magnus_row_products_free(magnus_context ctx, magnus_row_products *rp) {
    magnus_dbuf_free(ctx, &rp->products);
    magnus_dbuf_free(ctx, &rp->offsets);
    rp->total = 0;
}

magnus_status magnus_row_products_queue(magnus_row_products *rp, magnus_context ctx,
                                        magnus_queue_id q, const struct magnus_device_csr_s *A,
                                        const struct magnus_device_csr_s *B) {
    const uint64_t rows = (uint64_t)A->rows;
    memset(rp, 0, sizeof *rp);
    magnus_status s;
    if ((s = magnus_dbuf_alloc(ctx, (rows + 1) * 8, &rp->products)) ||
        (s = magnus_dbuf_alloc(ctx, (rows + 1) * 8, &rp->offsets)) ||
        (s = magnus_hash_rows_products(ctx, q, A, B, NULL, 0, A->rows, &rp->products, NULL)) ||
        (s = magnus_prim_fill_u64(ctx, q, &rp->products, rows, 1, 0)) ||
        (s = magnus_prim_scan_u64(ctx, q, &rp->offsets, &rp->products, rows + 1, NULL)))
        magnus_context_finish_after_error(ctx, s);
    return s;
}
