/*
 * The hash algorithm's error statuses (part of spgemm_hash: test_spgemm_hash.c): shapes,
 * types, invalid matrices, NULLs, options, cancellation, a device memory limit and a device
 * without fp64, none leaking device memory.
 */
#include <string.h>

#include "device_test_util.h"
#include "spgemm_hash_test_util.h"
#include "status_test_util.h"

static int cancel_at_multiply(void *user, double fraction, const char *what) {
    (void)fraction;
    ++*(int *)user;
    return strcmp(what, "multiply") != 0;
}

Test(hash_errors, statuses_and_no_leaks) {
    magnus_context ctx = magnus_test_context();
    uint64_t before = ctx->memory_in_use;
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = MAGNUS_ALGORITHM_HASH;
    magnus_csr A = uniform(10, 20, 3, 61, MAGNUS_FLOAT32), B = uniform(20, 5, 2, 62, MAGNUS_FLOAT32);
    magnus_csr C = (magnus_csr)1;
    ASSERT_STATUS(magnus_spgemm(&C, ctx, A, A, &opt, NULL), MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_null(C);
    if (ctx->device.fp64) {
        magnus_csr B64;
        ASSERT_OK(magnus_csr_convert(&B64, B, MAGNUS_FLOAT64));
        ASSERT_STATUS(magnus_spgemm(&C, ctx, A, B64, &opt, NULL), MAGNUS_ERROR_UNSUPPORTED_TYPE);
        magnus_csr_free(&B64);
    }
    /* invalid A: unsorted columns in some row; invalid B: a column out of range */
    magnus_csr bad;
    ASSERT_OK(magnus_csr_copy(&bad, A));
    int64_t row = 0;
    while (bad->row_ptr[row + 1] - bad->row_ptr[row] < 2) row++;
    int32_t tmp = bad->col_idx[bad->row_ptr[row]];
    bad->col_idx[bad->row_ptr[row]] = bad->col_idx[bad->row_ptr[row] + 1];
    bad->col_idx[bad->row_ptr[row] + 1] = tmp;
    ASSERT_STATUS(magnus_spgemm(&C, ctx, bad, B, &opt, NULL), MAGNUS_ERROR_COLUMNS_UNSORTED);
    cr_assert(strstr(magnus_last_error(), "A") != NULL, "message: %s", magnus_last_error());
    magnus_csr_free(&bad);
    ASSERT_OK(magnus_csr_copy(&bad, B));
    bad->col_idx[bad->nnz - 1] = 5;
    ASSERT_STATUS(magnus_spgemm(&C, ctx, A, bad, &opt, NULL), MAGNUS_ERROR_COLUMN_OUT_OF_RANGE);
    cr_assert(strstr(magnus_last_error(), "matrix B") != NULL, "message: %s", magnus_last_error());
    magnus_csr_free(&bad);
    /* NULLs, bad options, bad handles */
    ASSERT_STATUS(magnus_spgemm(NULL, ctx, A, B, &opt, NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_spgemm(&C, NULL, A, B, &opt, NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_spgemm(&C, ctx, NULL, B, &opt, NULL), MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_spgemm_options_init(NULL), MAGNUS_ERROR_NULL_POINTER);
    magnus_spgemm_options bad_opt = opt;
    bad_opt.algorithm = (magnus_algorithm)7;
    ASSERT_STATUS(magnus_spgemm(&C, ctx, A, B, &bad_opt, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    /* a progress callback that stops at "multiply" */
    int calls = 0;
    opt.progress = cancel_at_multiply;
    opt.progress_user = &calls;
    ASSERT_STATUS(magnus_spgemm(&C, ctx, A, B, &opt, NULL), MAGNUS_ERROR_CANCELLED);
    cr_assert_null(C);
    cr_assert_eq(calls, 2);
    cr_assert_eq(ctx->memory_in_use, before, "error paths leaked device memory");
    /* a device memory limit too small for the multiply */
    magnus_context_options o;
    ASSERT_OK(magnus_context_options_init(&o));
    /* room for A and B and a little more, not for C and the work buffers */
    o.device_memory_limit = (uint64_t)(A->rows + 1 + B->rows + 1) * 8 +
                            (uint64_t)(A->nnz + B->nnz) * 8 + 64;
    magnus_context small;
    ASSERT_OK(magnus_context_create(&small, NULL, &o));
    opt.progress = NULL;
    ASSERT_STATUS(magnus_spgemm(&C, small, A, B, &opt, NULL), MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    cr_assert_eq(small->memory_in_use, 0);
    magnus_context_free(&small);
    /* double precision on a device without it (pretended: the context's copy of the device
     * information is what the check reads) */
    magnus_context nofp64 = magnus_test_budget_context(0);
    nofp64->device.fp64 = 0;
    magnus_csr A64, B64;
    ASSERT_OK(magnus_csr_convert(&A64, A, MAGNUS_FLOAT64));
    ASSERT_OK(magnus_csr_convert(&B64, B, MAGNUS_FLOAT64));
    ASSERT_STATUS(magnus_spgemm(&C, nofp64, A64, B64, &opt, NULL), MAGNUS_ERROR_FEATURE_UNSUPPORTED);
    cr_assert_eq(nofp64->memory_in_use, 0);
    magnus_csr_free(&A64);
    magnus_csr_free(&B64);
    magnus_context_free(&nofp64);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}
