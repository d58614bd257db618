/* Where a plan's numeric phase writes C, and C handed over or cleaned up after it
 * (spgemm_algorithm.h): the same for every algorithm's phase and for plans by positions. */
#include "device_csr.h"
#include "spgemm_algorithm.h"

magnus_status magnus_spgemm_numeric_target(magnus_device_csr *dC,
                                           struct magnus_device_csr_s *into, magnus_context ctx,
                                           int64_t rows, int64_t cols, magnus_value_type type,
                                           int64_t nnz) {
    *dC = into;
    if (into) return MAGNUS_SUCCESS;
    magnus_status s = magnus_device_csr_new(dC, ctx, rows, cols, type);
    return s ? s : magnus_device_csr_alloc_entries(*dC, nnz);
}

magnus_status magnus_spgemm_numeric_done(magnus_device_csr *C, magnus_device_csr *dC,
                                         const struct magnus_device_csr_s *into,
                                         magnus_context ctx, magnus_status s) {
    if (!s) {
        if (C) *C = *dC;
        return s;
    }
    magnus_context_finish_after_error(ctx, s); /* queued work may still use C's buffers */
    if (!into) magnus_device_csr_destroy(dC);
    return s;
}
