/*
 * A product whose C cannot fit is refused before any phase runs (runtime/spgemm/
 * spgemm_c_bound.c), and one whose C fits is not, however many entries its shapes would
 * allow. The device memory is a limit set on each context here, far below any device's.
 *
 *   outer product  A (n x 1) times B (1 x n), all ones: C has n^2 entries, each row all of
 *                  B's one row; under a limit C cannot meet it fails at once, naming C, by
 *                  both entry points, every algorithm and the plan, and nothing stays held;
 *   fitting        a product whose shapes allow far more entries than the limit holds (the
 *                  pass over A runs), while C has two per row: it multiplies, against the
 *                  CPU reference, under the same kind of limit.
 */
#include <string.h>

#include "device_csr.h"
#include "device_test_main.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

static magnus_context limited_context(uint64_t limit) {
    magnus_context_options opt;
    magnus_context ctx = NULL;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.device_memory_limit = limit;
    ASSERT_OK(magnus_context_create(&ctx, NULL, &opt));
    return ctx;
}

/* n x 1 (column) or 1 x n (row) of ones. */
static magnus_csr ones(int64_t n, bool column, magnus_value_type type) {
    magnus_csr M = NULL;
    ASSERT_OK(magnus_csr_new(&M, column ? n : 1, column ? 1 : n, n, type));
    for (int64_t i = 0; i < n; i++) {
        if (column) M->row_ptr[i + 1] = i + 1;
        M->col_idx[i] = column ? 0 : (int32_t)i;
        ref_set_value(M, i, 1.0);
    }
    if (!column) M->row_ptr[1] = n;
    return M;
}

static void expect_refusal_naming_c(magnus_status s, const char *what, int64_t n) {
    char want[128];
    snprintf(want, sizeof want, "C = A·B (%lld x %lld) has at least %lld entries", (long long)n,
             (long long)n, (long long)(n * n));
    cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY, "%s: %s (%s)", what,
                 magnus_status_string(s), magnus_last_error());
    cr_assert(strstr(magnus_last_error(), want) &&
                  strstr(magnus_last_error(), "refused before multiplying"),
              "%s: %s", what, magnus_last_error());
}

Test(spgemm_c_bound, an_outer_product_too_large_is_refused_at_once) {
    const int64_t n = 2000; /* C: 4,000,000 entries, 32 MB in float32 */
    const uint64_t limit = 4u << 20;
    magnus_context ctx = limited_context(limit);
    magnus_csr A = ones(n, true, MAGNUS_FLOAT32), B = ones(n, false, MAGNUS_FLOAT32);
    const magnus_algorithm algorithms[] = {MAGNUS_ALGORITHM_AUTO, MAGNUS_ALGORITHM_MAGNUS,
                                           MAGNUS_ALGORITHM_HASH};
    magnus_device_csr dA = NULL, dB = NULL;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&dB, ctx, B));
    const uint64_t held = ctx->memory_in_use;
    for (int a = 0; a < 3; a++) {
        magnus_spgemm_options opt;
        ASSERT_OK(magnus_spgemm_options_init(&opt));
        opt.algorithm = algorithms[a];
        magnus_report rep;
        magnus_csr C = (magnus_csr)1;
        magnus_context_reset_peak(ctx);
        expect_refusal_naming_c(magnus_spgemm(&C, ctx, A, B, &opt, &rep), "magnus_spgemm", n);
        cr_assert_null(C);
        /* no phase ran (the symbolic one would have counted C's entries), and none of C's
         * arrays was asked for */
        cr_assert_eq(rep.time_symbolic_ms, 0);
        cr_assert_eq(rep.nnz_c, 0);
        cr_assert_lt(ctx->memory_peak, (uint64_t)(n * n) * 4, "peak %llu bytes",
                     (unsigned long long)ctx->memory_peak);
        magnus_device_csr dC = (magnus_device_csr)1;
        expect_refusal_naming_c(magnus_spgemm_device(&dC, ctx, dA, dB, &opt, &rep),
                                "magnus_spgemm_device", n);
        cr_assert_null(dC);
        cr_assert_eq(ctx->memory_in_use, held, "device memory held after the refusal");
        magnus_spgemm_plan plan = (magnus_spgemm_plan)1;
        expect_refusal_naming_c(magnus_spgemm_plan_create(&plan, ctx, dA, dB, &opt),
                                "magnus_spgemm_plan_create", n);
        cr_assert_null(plan);
        cr_assert_eq(ctx->memory_in_use, held);
    }
    /* the plan of the hash algorithm's phases checks it too */
    setenv("MAGNUS_PLAN_POSITIONS", "0", 1);
    magnus_spgemm_plan plan = NULL;
    expect_refusal_naming_c(magnus_spgemm_plan_create(&plan, ctx, dA, dB, NULL),
                            "magnus_spgemm_plan_create (hash phases)", n);
    unsetenv("MAGNUS_PLAN_POSITIONS");
    /* the same context multiplies a product that fits: a 200 x 200 C */
    magnus_csr a = ones(200, true, MAGNUS_FLOAT32), b = ones(200, false, MAGNUS_FLOAT32);
    magnus_report rep;
    int64_t nnz = 0;
    magnus_csr C = multiply_and_compare(&rep, &nnz, ctx, a, b, MAGNUS_ALGORITHM_AUTO, "200^2");
    cr_assert_eq(C->nnz, 40000);
    magnus_csr_free(&C);
    magnus_csr_free(&a);
    magnus_csr_free(&b);
    magnus_device_csr_free(&dA);
    magnus_device_csr_free(&dB);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_context_free(&ctx);
}

/* A (rows x 50) with one entry a row, in column i mod 50; B (50 x 2000) with two entries a
 * row: C has 2 entries a row. Its shapes allow rows x nnz(B) = 100 rows' worth per row (16 MB
 * at 20,000 rows in float32), above the 4 MiB limit, so the pass over A runs and finds C's 2
 * a row: the multiply goes on and matches the reference, with both algorithms. */
Test(spgemm_c_bound, a_product_that_fits_is_not_refused) {
    const int64_t rows = 20000, k = 50, cols = 2000;
    magnus_context ctx = limited_context(4u << 20);
    magnus_csr A = NULL, B = NULL;
    ASSERT_OK(magnus_csr_new(&A, rows, k, rows, MAGNUS_FLOAT32));
    for (int64_t i = 0; i < rows; i++) {
        A->row_ptr[i + 1] = i + 1;
        A->col_idx[i] = (int32_t)(i % k);
        ref_set_value(A, i, 1.0 + (double)(i % 7));
    }
    ASSERT_OK(magnus_csr_new(&B, k, cols, 2 * k, MAGNUS_FLOAT32));
    for (int64_t r = 0; r < k; r++) {
        B->row_ptr[r + 1] = 2 * (r + 1);
        B->col_idx[2 * r] = (int32_t)r;
        B->col_idx[2 * r + 1] = (int32_t)(r + 1000);
        ref_set_value(B, 2 * r, 0.5);
        ref_set_value(B, 2 * r + 1, -2.0);
    }
    const magnus_algorithm algorithms[] = {MAGNUS_ALGORITHM_AUTO, MAGNUS_ALGORITHM_MAGNUS,
                                           MAGNUS_ALGORITHM_HASH};
    for (int a = 0; a < 3; a++) {
        magnus_report rep;
        int64_t nnz = 0;
        magnus_csr C = multiply_and_compare(&rep, &nnz, ctx, A, B, algorithms[a], "fitting");
        cr_assert_eq(C->nnz, 2 * rows);
        magnus_csr_free(&C);
    }
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_context_free(&ctx);
}
