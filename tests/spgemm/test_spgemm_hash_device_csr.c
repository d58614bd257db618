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
    cr_assert_eq(opt.algorithm, MAGNUS_ALGORITHM_MAGNUS, "gMAGNUS is the default");
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
    /* the default options pick gMAGNUS; a build without it says so instead of guessing */
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(40, 40, 4, 81, MAGNUS_FLOAT32), C = NULL, ref, mag;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, A));
    magnus_report rep;
    magnus_status s = magnus_spgemm(&C, ctx, A, A, NULL, &rep);
    if (s == MAGNUS_ERROR_INVALID_ARGUMENT) {
        cr_assert(strstr(magnus_last_error(), "not built") != NULL, "%s", magnus_last_error());
        cr_assert_null(C);
    } else {
        cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS);
        ASSERT_OK(magnus_csr_compare(NULL, C, ref, mag, 0));
    }
    magnus_csr_free(&C);
    magnus_csr_free(&A);
    magnus_csr_free(&ref);
    magnus_csr_free(&mag);
}
