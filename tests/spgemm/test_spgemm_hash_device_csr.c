/*
 * Device-resident matrices with the hash algorithm (part of spgemm_hash: test_spgemm_hash.c):
 * upload, shape, download and reuse, empty matrices, another context's matrices, and the
 * default algorithm's dispatch.
 */
#include <string.h>

#include "device_csr.h"
#include "device_test_util.h"
#include "spgemm_hash_test_util.h"
#include "status_test_util.h"

Test(device_csr, round_trip_and_reuse) {
    magnus_context ctx = magnus_test_context();
    uint64_t before = ctx->memory_in_use;
    magnus_csr A = uniform(120, 90, 5, 51, MAGNUS_FLOAT32), B = uniform(90, 70, 4, 52, MAGNUS_FLOAT32);
    magnus_device_csr dA, dB, dC;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&dB, ctx, B));
    int64_t r, c, n;
    ASSERT_OK(magnus_device_csr_shape(&r, &c, &n, dA));
    cr_assert(r == 120 && c == 90 && n == A->nnz);
    ASSERT_OK(magnus_device_csr_shape(NULL, NULL, NULL, dA));
    magnus_csr back;
    ASSERT_OK(magnus_device_csr_download(&back, dA));
    ASSERT_OK(magnus_csr_compare(NULL, back, A, NULL, 0));
    magnus_csr_free(&back);

    magnus_csr ref, mag;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, B));
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    cr_assert_eq(opt.algorithm, MAGNUS_ALGORITHM_AUTO, "AUTO is the default");
    opt.algorithm = MAGNUS_ALGORITHM_HASH;
    for (int round = 0; round < 2; round++) {
        magnus_report rep;
        ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dB, &opt, &rep));
        ASSERT_OK(magnus_device_csr_shape(&r, &c, &n, dC));
        cr_assert(r == 120 && c == 70 && n == ref->nnz);
        cr_assert_eq(rep.nnz_c, ref->nnz);
        magnus_csr C;
        ASSERT_OK(magnus_device_csr_download(&C, dC));
        ASSERT_OK(magnus_csr_compare(NULL, C, ref, mag, 0));
        magnus_csr_free(&C);
        ASSERT_OK(magnus_device_csr_free(&dC));
        cr_assert_null(dC);
    }
    /* B·A has mismatched shapes */
    ASSERT_STATUS(magnus_spgemm_device(&dC, ctx, dB, dB, &opt, NULL),
                  MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_null(dC);
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_OK(magnus_device_csr_free(&dB));
    ASSERT_OK(magnus_device_csr_free(&dA)); /* NULL: no-op */
    cr_assert_eq(ctx->memory_in_use, before);
    ASSERT_STATUS(magnus_device_csr_shape(&r, &c, &n, NULL), MAGNUS_ERROR_NULL_POINTER);
    /* a stale pointer to a freed handle is caught by its magic number when the memory is
     * still ours; use a fake one to stay defined */
    struct magnus_device_csr_s fake;
    memset(&fake, 0, sizeof fake);
    ASSERT_STATUS(magnus_device_csr_shape(&r, &c, &n, &fake), MAGNUS_ERROR_INVALID_HANDLE);
    ASSERT_STATUS(magnus_device_csr_download(&back, &fake), MAGNUS_ERROR_INVALID_HANDLE);
    magnus_device_csr pf = &fake;
    ASSERT_STATUS(magnus_device_csr_free(&pf), MAGNUS_ERROR_INVALID_HANDLE);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&ref);
    magnus_csr_free(&mag);
}

Test(device_csr, empty_and_other_context) {
    magnus_context ctx = magnus_test_context();
    magnus_csr Z;
    ASSERT_OK(magnus_csr_new(&Z, 0, 0, 0, MAGNUS_FLOAT32));
    magnus_device_csr dZ, dC;
    ASSERT_OK(magnus_device_csr_upload(&dZ, ctx, Z));
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = MAGNUS_ALGORITHM_HASH;
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dZ, dZ, &opt, NULL));
    magnus_csr C;
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    cr_assert(C->rows == 0 && C->cols == 0 && C->nnz == 0);
    magnus_csr_free(&C);
    ASSERT_OK(magnus_device_csr_free(&dC));
    /* a matrix of another context is refused */
    magnus_context other = magnus_test_budget_context(0);
    ASSERT_STATUS(magnus_spgemm_device(&dC, other, dZ, dZ, &opt, NULL), MAGNUS_ERROR_INVALID_HANDLE);
    magnus_context_free(&other);
    ASSERT_OK(magnus_device_csr_free(&dZ));
    magnus_csr_free(&Z);
}

Test(device_csr, default_algorithm_dispatch) {
    /* the default options (NULL, or magnus_spgemm_options_init's) ask for AUTO, which runs
     * one of the two algorithms and says why; a build without gMAGNUS says so instead of
     * guessing. A's rows are short (about 4 * 4 products each)... */
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(40, 40, 4, 81, MAGNUS_FLOAT32), C = NULL, ref, mag;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, A));
    int64_t longest = 0; /* the most products of a row of A·A */
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t products = 0;
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
            products += A->row_ptr[A->col_idx[p] + 1] - A->row_ptr[A->col_idx[p]];
        if (products > longest) longest = products;
    }
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    for (int with_options = 0; with_options < 2; with_options++) {
        magnus_report rep;
        magnus_status s = magnus_spgemm(&C, ctx, A, A, with_options ? &opt : NULL, &rep);
        if (s == MAGNUS_ERROR_INVALID_ARGUMENT) {
            cr_assert(strstr(magnus_last_error(), "not built") != NULL, "%s", magnus_last_error());
            cr_assert_null(C);
            continue;
        }
        cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_eq(rep.algorithm_requested, MAGNUS_ALGORITHM_AUTO);
        cr_assert(rep.algorithm == MAGNUS_ALGORITHM_MAGNUS ||
                      rep.algorithm == MAGNUS_ALGORITHM_HASH,
                  "AUTO ran algorithm %d", (int)rep.algorithm);
        cr_assert(rep.algorithm_reason && rep.algorithm_reason[0], "AUTO gave no reason");
        /* C narrow enough for dense rows: hash, from C's width alone (no threshold counted) */
        if (rep.auto_dense_rows) {
            cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH, "%s", rep.algorithm_reason);
            cr_assert_geq(rep.dense_row_columns, A->cols);
            cr_assert_eq(rep.auto_long_row_products, 0);
        } else {
            cr_assert_gt(rep.auto_long_row_products, 0);
        }
        /* ... so that no row is long wherever the hash tables hold that many: hash, share 0 */
        if (!rep.auto_dense_rows && longest <= rep.auto_long_row_products) {
            cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH, "%s", rep.algorithm_reason);
            cr_assert_eq(rep.auto_long_share, 0.0);
        }
        ASSERT_OK(magnus_csr_compare(NULL, C, ref, mag, 0));
        magnus_csr_free(&C);
    }
    magnus_csr_free(&A);
    magnus_csr_free(&ref);
    magnus_csr_free(&mag);
}
