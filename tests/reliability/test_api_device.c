/*
 * The device entry points against bad input (part of test_api_errors: test_api_errors.c):
 * contexts and device matrices that are not ones, options, shapes, types and every broken
 * matrix, and context options and device selection that cannot be met.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api_errors_test_util.h"
#include "context_test_util.h"
#include "device_runtime.h"

/* ---- device entry points (PoCL in CI; skipped where no device exists) ------------------------ */

Test(api_device, handles_shapes_types_and_broken_matrices, .timeout = 300) {
    magnus_context ctx = context_or_skip(0);
    magnus_csr A24 = valid(2, M_ROWS), B53 = valid(M_COLS, 3);
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);

    /* a context that is not one */
    struct magnus_context_s not_ctx;
    memset(&not_ctx, 0, sizeof not_ctx);
    magnus_csr C = POISON_CSR;
    EXPECT_STATUS(magnus_spgemm(&C, NULL, A24, A24, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm NULL context");
    cr_expect_null(C);
    EXPECT_STATUS(magnus_spgemm(&C, &not_ctx, A24, A24, NULL, NULL), MAGNUS_ERROR_INVALID_HANDLE,
                  "spgemm foreign context");
    EXPECT_STATUS(magnus_spgemm(NULL, ctx, A24, A24, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm NULL C");
    magnus_device_info info;
    EXPECT_STATUS(magnus_context_device(&info, &not_ctx), MAGNUS_ERROR_INVALID_HANDLE,
                  "context_device foreign");
    EXPECT_STATUS(magnus_context_device(NULL, ctx), MAGNUS_ERROR_NULL_POINTER,
                  "context_device NULL out");
    magnus_context fake_ctx = &not_ctx;
    EXPECT_STATUS(magnus_context_free(&fake_ctx), MAGNUS_ERROR_INVALID_HANDLE,
                  "context_free foreign");
    double gbs;
    EXPECT_STATUS(magnus_device_copy_bandwidth(NULL, ctx, 4096, 1), MAGNUS_ERROR_NULL_POINTER,
                  "bandwidth NULL out");
    EXPECT_STATUS(magnus_device_copy_bandwidth(&gbs, &not_ctx, 4096, 1),
                  MAGNUS_ERROR_INVALID_HANDLE, "bandwidth foreign context");
    EXPECT_STATUS(magnus_device_copy_bandwidth(&gbs, ctx, 4096, 0), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "bandwidth 0 repetitions");

    /* options */
    opt.algorithm = (magnus_algorithm)9;
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A24, B53, &opt, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "spgemm algorithm 9");
    magnus_spgemm_options_init(&opt);

    /* shapes and types */
    EXPECT_STATUS(magnus_spgemm(&C, ctx, B53, B53, NULL, NULL), MAGNUS_ERROR_DIMENSION_MISMATCH,
                  "spgemm shapes");
    magnus_csr B53f = NULL;
    cr_assert_eq(magnus_csr_convert(&B53f, B53, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    magnus_csr A25 = valid(2, M_COLS);
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A25, B53f, NULL, NULL), MAGNUS_ERROR_UNSUPPORTED_TYPE,
                  "spgemm mixed types");
    cr_expect_null(C);

    /* every broken matrix, both algorithms, both positions; and upload */
    for (int alg = 0; alg < 2; alg++) {
        opt.algorithm = alg ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        for (int c = 0; c < C_COUNT; c++) {
            magnus_csr_s *X = broken_make((corruption)c);
            C = POISON_CSR;
            EXPECT_STATUS(magnus_spgemm(&C, ctx, X, B53, &opt, NULL), corruption_status[c],
                          "spgemm alg %d (A = %s)", alg, corruption_names[c]);
            cr_expect_null(C);
            C = POISON_CSR;
            EXPECT_STATUS(magnus_spgemm(&C, ctx, A24, X, &opt, NULL), corruption_status[c],
                          "spgemm alg %d (B = %s)", alg, corruption_names[c]);
            cr_expect_null(C);
            if (alg == 0) {
                magnus_device_csr d = (magnus_device_csr)(uintptr_t)0x1;
                EXPECT_STATUS(magnus_device_csr_upload(&d, ctx, X), corruption_status[c],
                              "upload(%s)", corruption_names[c]);
                cr_expect_null(d);
            }
            broken_free(X);
        }
    }

    /* device matrices: NULL, foreign, another context's, mismatched */
    magnus_device_csr dA = NULL, dB = NULL, dC = NULL;
    cr_assert_eq(magnus_device_csr_upload(&dA, ctx, A25), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_assert_eq(magnus_device_csr_upload(&dB, ctx, B53), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    struct magnus_device_csr_s not_d;
    memset(&not_d, 0, sizeof not_d);
    EXPECT_STATUS(magnus_device_csr_upload(NULL, ctx, A24), MAGNUS_ERROR_NULL_POINTER,
                  "upload NULL out");
    EXPECT_STATUS(magnus_device_csr_upload(&dC, &not_ctx, A24), MAGNUS_ERROR_INVALID_HANDLE,
                  "upload foreign context");
    cr_expect_null(dC);
    C = POISON_CSR;
    EXPECT_STATUS(magnus_device_csr_download(&C, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "download NULL");
    cr_expect_null(C);
    EXPECT_STATUS(magnus_device_csr_download(&C, &not_d), MAGNUS_ERROR_INVALID_HANDLE,
                  "download foreign");
    EXPECT_STATUS(magnus_device_csr_download(NULL, dA), MAGNUS_ERROR_NULL_POINTER,
                  "download NULL out");
    int64_t r;
    EXPECT_STATUS(magnus_device_csr_shape(&r, NULL, NULL, &not_d), MAGNUS_ERROR_INVALID_HANDLE,
                  "shape foreign");
    EXPECT_STATUS(magnus_device_csr_shape(&r, NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "shape NULL");
    magnus_device_csr fake_d = &not_d;
    EXPECT_STATUS(magnus_device_csr_free(&fake_d), MAGNUS_ERROR_INVALID_HANDLE, "free foreign");
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, dB, dB, NULL, NULL),
                  MAGNUS_ERROR_DIMENSION_MISMATCH, "spgemm_device shapes");
    cr_expect_null(dC);
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, &not_d, dB, NULL, NULL),
                  MAGNUS_ERROR_INVALID_HANDLE, "spgemm_device foreign A");
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, dA, NULL, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm_device NULL B");
    EXPECT_STATUS(magnus_spgemm_device(NULL, ctx, dA, dB, NULL, NULL), MAGNUS_ERROR_NULL_POINTER,
                  "spgemm_device NULL C");
    /* a matrix of another context */
    magnus_context other = context_or_skip(0);
    EXPECT_STATUS(magnus_spgemm_device(&dC, other, dA, dB, NULL, NULL),
                  MAGNUS_ERROR_INVALID_HANDLE, "spgemm_device other context");
    cr_expect_null(dC);
    magnus_context_free(&other);
    /* and the good call still works after all that */
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, dA, dB, NULL, NULL), MAGNUS_SUCCESS,
                  "spgemm_device valid");
    magnus_device_csr_free(&dA);
    magnus_device_csr_free(&dB);
    magnus_device_csr_free(&dC);
    cr_expect_null(dA);

    magnus_csr_free(&A24);
    magnus_csr_free(&B53);
    magnus_csr_free(&B53f);
    magnus_csr_free(&A25);
    magnus_context_free(&ctx);
    cr_expect_null(ctx);
}

Test(api_device, context_options, .timeout = 120) {
    magnus_device_info dev;
    magnus_status s = magnus_device_select(&dev);
    if (s == MAGNUS_ERROR_NO_DEVICE) magnus_test_no_device("no device");
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_context ctx = (magnus_context)(uintptr_t)0x1;
    magnus_context_options o;
    magnus_context_options_init(&o);
    o.local_mem_bytes = dev.local_mem_bytes + 1;
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, &o), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "local memory beyond the device's");
    cr_expect_null(ctx);
    magnus_device_info bad = dev;
    bad.backend = (magnus_backend_kind)42;
    EXPECT_STATUS(magnus_context_create(&ctx, &bad, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "unknown backend");
    bad = dev;
    bad.index = 1000;
    s = magnus_context_create(&ctx, &bad, NULL);
    cr_expect(s == MAGNUS_ERROR_NO_DEVICE || s == MAGNUS_ERROR_INVALID_ARGUMENT,
              "device index 1000: %d %s", s, magnus_last_error());
    cr_expect_neq(magnus_last_error()[0], '\0');
    cr_expect_null(ctx);
    bad.index = -1;
    s = magnus_context_create(&ctx, &bad, NULL);
    cr_expect(s == MAGNUS_ERROR_NO_DEVICE || s == MAGNUS_ERROR_INVALID_ARGUMENT,
              "device index -1: %d %s", s, magnus_last_error());
    cr_expect_null(ctx);
    setenv("MAGNUS_DEVICE_MEMORY_LIMIT", "lots", 1);
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "MAGNUS_DEVICE_MEMORY_LIMIT=lots");
    setenv("MAGNUS_DEVICE_MEMORY_LIMIT", "99999999999999999999T", 1);
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "MAGNUS_DEVICE_MEMORY_LIMIT overflowing");
    unsetenv("MAGNUS_DEVICE_MEMORY_LIMIT");
    setenv("MAGNUS_LOCAL_MEM_BYTES", "-5", 1);
    EXPECT_STATUS(magnus_context_create(&ctx, &dev, NULL), MAGNUS_ERROR_INVALID_ARGUMENT,
                  "MAGNUS_LOCAL_MEM_BYTES=-5");
    unsetenv("MAGNUS_LOCAL_MEM_BYTES");
    cr_expect_null(ctx);
    setenv("MAGNUS_DEVICE", "opencl:999", 1);
    EXPECT_STATUS(magnus_device_select(&dev), MAGNUS_ERROR_NO_DEVICE, "MAGNUS_DEVICE=opencl:999");
    setenv("MAGNUS_DEVICE", "warp-drive:0", 1);
    s = magnus_device_select(&dev);
    cr_expect(s == MAGNUS_ERROR_INVALID_ARGUMENT || s == MAGNUS_ERROR_NO_DEVICE,
              "MAGNUS_DEVICE=warp-drive:0: %d", s);
    cr_expect_neq(magnus_last_error()[0], '\0');
    unsetenv("MAGNUS_DEVICE");
}
