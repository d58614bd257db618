/*
 * A call that succeeds leaves magnus_last_error() empty (part of test_api_errors:
 * test_api_errors.c), even where its work set a message on the way and recovered (the
 * registry's "unknown backend" placeholder did, before a context was created). Every call is
 * made right after a failing call, so a message left from before would show too; the _free
 * functions and version queries keep that message instead (magnus.h, magnus_last_error). And outputs:
 * a handle output is written, never read or freed, so a matrix it held before is the caller's
 * to free (magnus.h, "Conventions").
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api_errors_test_util.h"
#include "context_test_util.h"

/* A failing call: its message is what a success must not leave behind. */
static void stale(void) {
    cr_assert_neq(magnus_csr_validate(NULL), MAGNUS_SUCCESS);
    cr_assert_str_not_empty(magnus_last_error());
}

#define CLEAN(call)                                                                             \
    do {                                                                                        \
        stale();                                                                                \
        magnus_status s_ = (call);                                                              \
        cr_expect_eq(s_, MAGNUS_SUCCESS, "%s: %s", #call, magnus_last_error());                \
        cr_expect_str_empty(magnus_last_error(), "%s succeeded but left \"%s\"", #call,        \
                            magnus_last_error());                                               \
    } while (0)

/* The _free functions and the pure queries leave the message as it was, so that cleaning up
 * after a failure keeps the failure's detail for the caller to report. */
#define KEEPS(call)                                                                             \
    do {                                                                                        \
        stale();                                                                                \
        char before_[1024];                                                                     \
        snprintf(before_, sizeof before_, "%s", magnus_last_error());                           \
        magnus_status s_ = (call);                                                              \
        cr_expect_eq(s_, MAGNUS_SUCCESS, "%s: %s", #call, magnus_last_error());                \
        cr_expect_str_eq(magnus_last_error(), before_, "%s changed the message", #call);       \
    } while (0)

Test(api_clean, host_calls_leave_no_message) {
    magnus_csr A = NULL, B = NULL, C = NULL, M = NULL, R = NULL, X = NULL;
    CLEAN(magnus_csr_new(&A, 3, 3, 0, MAGNUS_FLOAT32));
    KEEPS(magnus_csr_free(&A));
    CLEAN(magnus_gen_laplacian_2d(&A, 6, 5, MAGNUS_FLOAT64));
    CLEAN(magnus_gen_laplacian_3d(&X, 3, 3, 3, MAGNUS_FLOAT64));
    KEEPS(magnus_csr_free(&X));
    CLEAN(magnus_gen_banded(&X, 30, 2, 1, 7, MAGNUS_FLOAT64));
    KEEPS(magnus_csr_free(&X));
    CLEAN(magnus_gen_uniform(&X, 30, 30, 2.5, 3, MAGNUS_FLOAT64));
    KEEPS(magnus_csr_free(&X));
    CLEAN(magnus_gen_star(&X, 40, 2, 20, 3, 3, MAGNUS_FLOAT64));
    KEEPS(magnus_csr_free(&X));
    magnus_rmat_options ropt;
    CLEAN(magnus_rmat_options_init(&ropt));
    ropt.scale = 5;
    CLEAN(magnus_gen_rmat(&X, &ropt, NULL, NULL));
    KEEPS(magnus_csr_free(&X));
    CLEAN(magnus_csr_validate(A));
    CLEAN(magnus_host_memory_check(1024, "x"));
    CLEAN(magnus_csr_copy(&B, A));
    CLEAN(magnus_csr_convert(&X, A, MAGNUS_FLOAT32));
    KEEPS(magnus_csr_free(&X));
    magnus_csr_stats st;
    CLEAN(magnus_csr_stats_compute(&st, A, B));
    CLEAN(magnus_reference_spgemm(&C, &M, A, B));
    magnus_compare_result cmp;
    CLEAN(magnus_csr_compare(&cmp, C, C, M, 0));
    char path[256];
    snprintf(path, sizeof path, "%s/api_clean_%d.mtx", MAGNUS_BINARY_DIR, (int)getpid());
    CLEAN(magnus_mm_write_pattern(path, A));
    CLEAN(magnus_mm_write(path, A));
    CLEAN(magnus_mm_read(&R, path, MAGNUS_FLOAT64, NULL, NULL));
    unlink(path);
    cr_expect_eq(R->nnz, A->nnz);
    magnus_device_info dev = described_device();
    magnus_gmagnus_params gp;
    CLEAN(magnus_gmagnus_params_compute(&gp, &dev, 1000, MAGNUS_FLOAT32));
    magnus_gmagnus_plan plan;
    CLEAN(magnus_gmagnus_plan_compute(&plan, &dev, A, B));
    size_t at;
    CLEAN(magnus_device_match(&at, &dev, 1, "opencl:0"));
    int major;
    KEEPS(magnus_version_numbers(&major, NULL, NULL));
    magnus_spgemm_options sopt;
    CLEAN(magnus_spgemm_options_init(&sopt));
    magnus_context_options copt;
    CLEAN(magnus_context_options_init(&copt));
    KEEPS(magnus_csr_free(&A));
    KEEPS(magnus_csr_free(&B));
    KEEPS(magnus_csr_free(&C));
    KEEPS(magnus_csr_free(&M));
    KEEPS(magnus_csr_free(&R));
}

Test(api_clean, device_calls_leave_no_message, .timeout = 300) {
    magnus_context probe_ctx = context_or_skip(0); /* skips without a device */
    KEEPS(magnus_context_free(&probe_ctx));
    size_t count = 0;
    CLEAN(magnus_device_probe(NULL, 0, &count));
    magnus_device_info dev;
    CLEAN(magnus_device_select(&dev));
    CLEAN(magnus_device_find(&dev, magnus_backend_name(dev.backend)));
    magnus_context ctx = NULL;
    CLEAN(magnus_context_create(&ctx, NULL, NULL)); /* the "unknown backend 3" of issue 14 */
    KEEPS(magnus_context_free(&ctx));
    CLEAN(magnus_context_create(&ctx, &dev, NULL));
    magnus_device_info in_effect;
    CLEAN(magnus_context_device(&in_effect, ctx));
    magnus_native_handles native;
    CLEAN(magnus_context_native(&native, ctx));
    magnus_csr A = NULL, C = NULL, D = NULL;
    CLEAN(magnus_gen_laplacian_2d(&A, 12, 9, MAGNUS_FLOAT32));
    magnus_spgemm_options opt;
    CLEAN(magnus_spgemm_options_init(&opt));
    magnus_report report;
    for (int a = 0; a < 2; a++) {
        opt.algorithm = a ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        CLEAN(magnus_spgemm(&C, ctx, A, A, &opt, &report));
        KEEPS(magnus_csr_free(&C));
    }
    magnus_device_csr dA = NULL, dC = NULL;
    CLEAN(magnus_device_csr_upload(&dA, ctx, A));
    int64_t rows;
    CLEAN(magnus_device_csr_shape(&rows, NULL, NULL, dA));
    magnus_device_csr_buffers bufs;
    CLEAN(magnus_device_csr_native(&bufs, dA));
    CLEAN(magnus_spgemm_device(&dC, ctx, dA, dA, NULL, NULL));
    CLEAN(magnus_device_csr_download(&D, dC));
    KEEPS(magnus_device_csr_free(&dC));
    magnus_spgemm_plan plan = NULL;
    magnus_spgemm_plan_info plan_info;
    CLEAN(magnus_spgemm_plan_create(&plan, ctx, dA, dA, &opt));
    CLEAN(magnus_spgemm_plan_info_get(&plan_info, plan));
    CLEAN(magnus_device_csr_write_values(dA, A->values, A->nnz, A->type));
    CLEAN(magnus_spgemm_plan_execute(&dC, plan, dA, dA, &report));
    CLEAN(magnus_spgemm_plan_execute_into(dC, plan, dA, dA, &report));
    KEEPS(magnus_device_csr_free(&dC));
    KEEPS(magnus_spgemm_plan_free(&plan));
    KEEPS(magnus_device_csr_free(&dA));
    double gbps;
    CLEAN(magnus_device_copy_bandwidth(&gbps, ctx, 4096, 1));
    KEEPS(magnus_context_free(&ctx));
    magnus_csr_free(&A);
    magnus_csr_free(&D);
}

/* *C is an output: overwritten with the product, the matrix it held left alone (the caller
 * frees it; the sanitizer build would report a double free or a leak otherwise). */
Test(api_clean, output_handles_are_overwritten_not_freed, .timeout = 300) {
    magnus_csr A = NULL, C = NULL, before = NULL;
    cr_assert_eq(magnus_gen_laplacian_2d(&A, 8, 8, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_csr_copy(&C, A), MAGNUS_SUCCESS);
    before = C;
    cr_assert_eq(magnus_reference_spgemm(&C, NULL, A, A), MAGNUS_SUCCESS);
    cr_expect_neq(C, before, "the reference reused the caller's matrix");
    cr_expect_eq(magnus_csr_validate(before), MAGNUS_SUCCESS, "the old *C was freed");
    cr_expect_eq(before->nnz, A->nnz, "the old *C was changed");
    magnus_csr_free(&C);
    magnus_csr_free(&before);
    magnus_csr_free(&A);
}

Test(api_clean, spgemm_output_is_overwritten_not_freed, .timeout = 300) {
    magnus_context ctx = context_or_skip(0);
    magnus_csr A = NULL, C = NULL, before = NULL;
    cr_assert_eq(magnus_gen_laplacian_2d(&A, 8, 8, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_csr_copy(&before, A), MAGNUS_SUCCESS);
    C = before;
    cr_assert_eq(magnus_spgemm(&C, ctx, A, A, NULL, NULL), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    cr_expect_neq(C, before);
    cr_expect_eq(magnus_csr_validate(before), MAGNUS_SUCCESS, "spgemm freed the old *C");
    cr_expect_eq(before->nnz, A->nnz, "spgemm changed the old *C");
    magnus_csr_free(&C);
    /* on failure *C is NULL, and the old matrix is still the caller's */
    C = before;
    magnus_csr wide = NULL;
    cr_assert_eq(magnus_csr_new(&wide, 3, 5, 0, MAGNUS_FLOAT32), MAGNUS_SUCCESS);
    cr_expect_eq(magnus_spgemm(&C, ctx, wide, wide, NULL, NULL), MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_expect_null(C);
    cr_expect_eq(magnus_csr_validate(before), MAGNUS_SUCCESS);
    magnus_csr_free(&wide);
    magnus_csr_free(&before);
    magnus_csr_free(&A);
    magnus_context_free(&ctx);
}
