/*
 * gMAGNUS failing mid-way (device memory limits, host allocation failures): nothing leaks,
 * nothing half-built comes back. Part of the spgemm_gmagnus executable
 * (test_spgemm_gmagnus.c has the products themselves).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "device_test_util.h"
#include "magnus/magnus.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

#define SMALL_BUDGET 2048 /* bytes of local memory per work group: tau 128 (fp32) / 85 (fp64) */


/* Device memory limits below the multiply's peak: each run either succeeds (correct) or fails
 * with OUT_OF_DEVICE_MEMORY, and afterwards the context holds no device memory. Twice: the
 * whole product at once (a batch budget above its C-hat), where limits below the peak must
 * fail, and with the default batch budget (an eighth of the limit: row blocks), whose error
 * paths (a block, the stack) must leave nothing held either, and which completes under at
 * least as many limits. */
Test(gmagnus_errors, device_memory_limits) {
    magnus_context ctx = magnus_test_budget_context(SMALL_BUDGET);
    magnus_csr A = magnus_test_rmat(9, 8, 101, MAGNUS_FLOAT32);
    magnus_report full;
    int64_t reference_nnz;
    magnus_csr C_full = multiply_and_compare(&full, &reference_nnz, ctx, A, A,
                                             MAGNUS_ALGORITHM_MAGNUS, "unlimited");
    magnus_csr_free(&C_full);
    cr_assert_gt(full.rows_heavy, 0);
    cr_assert_gt(full.levels, 0);
    magnus_context_free(&ctx);
    int failures[2] = {0, 0}, batched = 0;
    for (int mode = 0; mode < 2; mode++) {
        for (int k = 1; k <= 12; k++) {
            magnus_context_options opt;
            ASSERT_OK(magnus_context_options_init(&opt));
            opt.local_mem_bytes = SMALL_BUDGET;
            opt.device_memory_limit = full.peak_device_bytes * (uint64_t)k / 12;
            opt.chat_batch_bytes = mode == 0 ? UINT64_C(1) << 50 : 0;
            ASSERT_OK(magnus_context_create(&ctx, NULL, &opt));
            magnus_csr C = NULL;
            magnus_spgemm_options gm = algorithm_options(MAGNUS_ALGORITHM_MAGNUS);
            magnus_report rep;
            magnus_status s = magnus_spgemm(&C, ctx, A, A, &gm, &rep);
            if (s == MAGNUS_SUCCESS) {
                magnus_csr R = NULL, M = NULL;
                ASSERT_OK(magnus_reference_spgemm(&R, &M, A, A));
                ASSERT_OK(magnus_csr_compare(NULL, C, R, M, 0));
                magnus_csr_free(&R);
                magnus_csr_free(&M);
                batched += rep.batches > 1;
            } else {
                cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY, "mode %d, limit %d/12: %s (%s)",
                             mode, k, magnus_status_string(s), magnus_last_error());
                cr_assert_null(C);
                failures[mode]++;
            }
            cr_assert_eq(ctx->memory_in_use, 0, "mode %d, limit %d/12: %llu bytes still held",
                         mode, k, (unsigned long long)ctx->memory_in_use);
            magnus_csr_free(&C);
            magnus_context_free(&ctx);
        }
    }
    cr_assert_geq(failures[0], 6, "limits below the peak should fail the whole product");
    cr_assert_leq(failures[1], failures[0], "row blocks failed under %d limits, the whole "
                  "product under %d", failures[1], failures[0]);
    cr_assert_gt(batched, 0, "no limit made the product run in row blocks");
    magnus_csr_free(&A);
}

/* Host allocation failures at every point of a heavy-path multiply (leaks show under the
 * sanitizer build). */
Test(gmagnus_errors, host_allocation_failures) {
    magnus_context ctx = magnus_test_budget_context(SMALL_BUDGET);
    magnus_csr A = magnus_test_rmat(8, 8, 103, MAGNUS_FLOAT32);
    int ok = 0, failures = 0;
    magnus_spgemm_options gm = algorithm_options(MAGNUS_ALGORITHM_MAGNUS);
    for (int64_t n = 0; n < 400 && !ok; n++) {
        magnus_csr C = NULL;
        magnus_host_alloc_fail_after(n);
        magnus_status s = magnus_spgemm(&C, ctx, A, A, &gm, NULL);
        magnus_host_alloc_fail_after(-1);
        if (s == MAGNUS_SUCCESS) {
            ok = 1;
        } else {
            cr_assert(s == MAGNUS_ERROR_OUT_OF_HOST_MEMORY || s == MAGNUS_ERROR_DEVICE ||
                          s == MAGNUS_ERROR_KERNEL_LAUNCH,
                      "fail after %lld: %s (%s)", (long long)n, magnus_status_string(s),
                      magnus_last_error());
            cr_assert_null(C);
            failures++;
        }
        cr_assert_eq(ctx->memory_in_use, 0, "fail after %lld: device memory still held",
                     (long long)n);
        magnus_csr_free(&C);
    }
    cr_assert(ok, "no run succeeded within 400 host allocations");
    cr_assert_geq(failures, 5, "only %d injected failures", failures);
    printf("host allocation failures: %d injected before success\n", failures);
    magnus_csr_free(&A);
    magnus_context_free(&ctx);
}
