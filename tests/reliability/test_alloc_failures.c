/*
 * Host allocation failure sweeps: for n = 0, 1, 2, ... the (n+1)-th host allocation of a call
 * fails (magnus_host_alloc_fail_after), until the call needs no more than n and succeeds.
 * Each failing call must report MAGNUS_ERROR_OUT_OF_HOST_MEMORY with a message, leave its
 * output NULL, release every host allocation (the sanitizer build's leak check) and every
 * device buffer (the context's accounted memory returns to where it was), and leave the
 * library working: the next call succeeds with the right answer.
 *
 * Sweeps that live beside their components are not repeated here: magnus_mm_read
 * (test_mm_read.c), the reference SpGEMM (test_reference.c), the generators
 * (test_generators.c), probe and context creation (test_probe.c).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "context_test_util.h"
#include "device_runtime.h"

#define SWEEP_MAX 20000 /* more allocations than any call here makes */

/* Runs `call` with the n-th allocation failing for n = 0.. until it succeeds; `undo` frees a
 * successful result. Returns how many failures were checked. */
#define SWEEP(what, call, output, undo)                                                         \
    ({                                                                                           \
        int64_t n_ = 0;                                                                          \
        int failures_ = 0;                                                                       \
        for (;; n_++) {                                                                          \
            cr_assert_lt(n_, SWEEP_MAX, "%s: never succeeded", what);                           \
            magnus_host_alloc_fail_after(n_);                                                    \
            magnus_status s_ = (call);                                                           \
            magnus_host_alloc_fail_after(-1);                                                    \
            if (s_ == MAGNUS_SUCCESS) break;                                                     \
            cr_assert_eq(s_, MAGNUS_ERROR_OUT_OF_HOST_MEMORY,                                    \
                         "%s, allocation %lld failing: status %d (%s): %s", what,                \
                         (long long)n_, s_, magnus_status_string(s_), magnus_last_error());      \
            cr_assert_neq(magnus_last_error()[0], '\0', "%s: no message", what);                 \
            cr_assert_null(output, "%s, allocation %lld failing: output left", what,             \
                           (long long)n_);                                                       \
            failures_++;                                                                         \
        }                                                                                        \
        undo;                                                                                    \
        failures_;                                                                               \
    })

static magnus_csr matrix(int64_t rows, int64_t cols, double per_row, uint64_t seed,
                         magnus_value_type type) {
    magnus_csr A = NULL;
    cr_assert_eq(magnus_gen_uniform(&A, rows, cols, per_row, seed, type), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    return A;
}

Test(alloc_failures, host_csr_functions) {
    magnus_csr A = matrix(30, 20, 4, 1, MAGNUS_FLOAT64), out = NULL;
    int f = SWEEP("csr_new", magnus_csr_new(&out, 30, 20, 50, MAGNUS_FLOAT32), out,
                  magnus_csr_free(&out));
    cr_expect_geq(f, 4, "csr_new: %d allocations", f);
    f = SWEEP("csr_copy", magnus_csr_copy(&out, A), out, magnus_csr_free(&out));
    cr_expect_geq(f, 4);
    f = SWEEP("csr_convert", magnus_csr_convert(&out, A, MAGNUS_FLOAT32), out,
              magnus_csr_free(&out));
    cr_expect_geq(f, 4);
    magnus_csr_free(&A);
}

Test(alloc_failures, compare_and_write) {
    magnus_csr A = matrix(25, 25, 3, 2, MAGNUS_FLOAT64), C = NULL, M = NULL;
    cr_assert_eq(magnus_reference_spgemm(&C, &M, A, A), MAGNUS_SUCCESS, "%s", magnus_last_error());
    magnus_compare_result res;
    void *none = NULL;
    SWEEP("csr_compare", magnus_csr_compare(&res, C, C, M, 0), none, (void)0);
    cr_expect_eq(res.row, -1);
    char path[256];
    for (int gz = 0; gz < 2; gz++) {
        snprintf(path, sizeof path, "%s/alloc_failures_%d.mtx%s", MAGNUS_BINARY_DIR, (int)getpid(),
                 gz ? ".gz" : "");
        SWEEP(gz ? "mm_write gzip" : "mm_write", magnus_mm_write(path, C), none, (void)0);
        magnus_csr back = NULL;
        cr_assert_eq(magnus_mm_read(&back, path, MAGNUS_FLOAT64, NULL, NULL), MAGNUS_SUCCESS, "%s",
                     magnus_last_error());
        cr_expect_eq(magnus_csr_compare(NULL, back, C, NULL, 0), MAGNUS_SUCCESS, "%s",
                     magnus_last_error());
        magnus_csr_free(&back);
        unlink(path);
    }
    magnus_csr_free(&A);
    magnus_csr_free(&C);
    magnus_csr_free(&M);
}

/* ---- device paths (PoCL in CI; skipped without a device) ----------------------------------- */

/* Every host allocation of a multiply, for both algorithms and AUTO; heavy rows included so
 * that gMAGNUS runs its outer-product and multisplit path with a small local-memory budget. */
static void spgemm_sweep(magnus_algorithm algorithm, uint64_t local_mem) {
    magnus_context ctx = context_or_skip(local_mem);
    /* a row of A hitting many rows of B makes heavy rows */
    magnus_csr A = matrix(40, 300, 6, 3, MAGNUS_FLOAT32);
    magnus_csr B = matrix(300, 2000, 40, 4, MAGNUS_FLOAT32);
    magnus_csr R = NULL, M = NULL, C = NULL;
    cr_assert_eq(magnus_reference_spgemm(&R, &M, A, B), MAGNUS_SUCCESS);
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);
    opt.algorithm = algorithm;
    const uint64_t before = ctx->memory_in_use;
    int64_t n = 0;
    int failures = 0;
    for (;; n++) {
        cr_assert_lt(n, SWEEP_MAX);
        magnus_host_alloc_fail_after(n);
        magnus_status s = magnus_spgemm(&C, ctx, A, B, &opt, NULL);
        magnus_host_alloc_fail_after(-1);
        cr_assert_eq(ctx->memory_in_use, before,
                     "algorithm %d, allocation %lld failing: %llu device bytes still held",
                     (int)algorithm, (long long)n, (unsigned long long)ctx->memory_in_use);
        if (s == MAGNUS_SUCCESS) break;
        cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                     "algorithm %d, allocation %lld failing: status %d (%s): %s", (int)algorithm,
                     (long long)n, s, magnus_status_string(s), magnus_last_error());
        cr_assert_null(C);
        failures++;
        /* the context still works right after a failure (every few n, to keep it quick) */
        if (n % 8 == 0) {
            magnus_csr D = NULL;
            cr_assert_eq(magnus_spgemm(&D, ctx, A, B, &opt, NULL), MAGNUS_SUCCESS,
                         "after allocation %lld failed: %s", (long long)n, magnus_last_error());
            cr_assert_eq(magnus_csr_compare(NULL, D, R, M, 0), MAGNUS_SUCCESS, "%s",
                         magnus_last_error());
            magnus_csr_free(&D);
        }
    }
    cr_assert_eq(magnus_csr_compare(NULL, C, R, M, 0), MAGNUS_SUCCESS, "%s", magnus_last_error());
    cr_log_info("algorithm %d: %d host allocation failures checked", (int)algorithm, failures);
    cr_expect_geq(failures, 5);
    magnus_csr_free(&C);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_context_free(&ctx);
}

Test(alloc_failures, spgemm_gmagnus, .timeout = 600) { spgemm_sweep(MAGNUS_ALGORITHM_MAGNUS, 8192); }
Test(alloc_failures, spgemm_hash, .timeout = 600) { spgemm_sweep(MAGNUS_ALGORITHM_HASH, 8192); }
/* AUTO (the default): its choice's statistics first, then whichever algorithm it picks */
Test(alloc_failures, spgemm_auto, .timeout = 600) { spgemm_sweep(MAGNUS_ALGORITHM_AUTO, 8192); }

Test(alloc_failures, device_matrices, .timeout = 300) {
    magnus_context ctx = context_or_skip(0);
    magnus_csr A = matrix(50, 50, 5, 5, MAGNUS_FLOAT32), back = NULL;
    magnus_device_csr dA = NULL, dC = NULL;
    const uint64_t before = ctx->memory_in_use;
    SWEEP("device_csr_upload", magnus_device_csr_upload(&dA, ctx, A), dA, (void)0);
    cr_expect_eq(ctx->memory_in_use - before >= (uint64_t)A->nnz * 8, 1);
    SWEEP("device_csr_download", magnus_device_csr_download(&back, dA), back, (void)0);
    cr_assert_eq(magnus_csr_compare(NULL, back, A, NULL, 0), MAGNUS_SUCCESS, "%s",
                 magnus_last_error());
    const uint64_t with_a = ctx->memory_in_use;
    const magnus_algorithm algs[] = {MAGNUS_ALGORITHM_MAGNUS, MAGNUS_ALGORITHM_HASH,
                                     MAGNUS_ALGORITHM_AUTO};
    for (int alg = 0; alg < 3; alg++) {
        magnus_spgemm_options opt;
        magnus_spgemm_options_init(&opt);
        opt.algorithm = algs[alg];
        SWEEP("spgemm_device", magnus_spgemm_device(&dC, ctx, dA, dA, &opt, NULL), dC, (void)0);
        cr_expect_gt(ctx->memory_in_use, with_a);
        magnus_device_csr_free(&dC);
        cr_expect_eq(ctx->memory_in_use, with_a, "C freed: %llu bytes still held",
                     (unsigned long long)(ctx->memory_in_use - with_a));
    }
    magnus_device_csr_free(&dA);
    cr_expect_eq(ctx->memory_in_use, before);
    magnus_csr_free(&A);
    magnus_csr_free(&back);
    magnus_context_free(&ctx);
}

/* Plans: creation (including a fingerprint computed on the device for a device-made operand) and
 * execution with alpha; a failure leaves no plan, no C and no device memory held. */
Test(alloc_failures, spgemm_plan, .timeout = 300) {
    magnus_context ctx = context_or_skip(0);
    magnus_csr A = matrix(50, 50, 5, 6, MAGNUS_FLOAT32);
    magnus_device_csr dA = NULL, dAA = NULL, dC = NULL;
    cr_assert_eq(magnus_device_csr_upload(&dA, ctx, A), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_spgemm_device(&dAA, ctx, dA, dA, NULL, NULL), MAGNUS_SUCCESS);
    const uint64_t before = ctx->memory_in_use;
    magnus_spgemm_options opt;
    magnus_spgemm_options_init(&opt);
    opt.alpha = -2.0;
    magnus_spgemm_plan plan = NULL;
    int f = SWEEP("spgemm_plan_create", magnus_spgemm_plan_create(&plan, ctx, dAA, dA, &opt),
                  plan, (void)0);
    cr_expect_geq(f, 2, "plan_create: %d allocations", f);
    magnus_spgemm_plan_info info;
    cr_assert_eq(magnus_spgemm_plan_info_get(&info, plan), MAGNUS_SUCCESS);
    cr_expect_eq(ctx->memory_in_use - before, info.device_bytes);
    const uint64_t with_plan = ctx->memory_in_use;
    f = SWEEP("spgemm_plan_execute", magnus_spgemm_plan_execute(&dC, plan, dAA, dA, NULL), dC,
              (void)0);
    /* at least C's own arrays (a kernel's first use allocates nothing on the host: kernels
     * are cached by id) */
    cr_expect_geq(f, 1, "plan_execute: %d allocations", f);
    magnus_device_csr_free(&dC);
    cr_expect_eq(ctx->memory_in_use, with_plan);
    magnus_spgemm_plan_free(&plan);
    cr_expect_eq(ctx->memory_in_use, before);
    magnus_device_csr_free(&dAA);
    magnus_device_csr_free(&dA);
    magnus_csr_free(&A);
    magnus_context_free(&ctx);
}
