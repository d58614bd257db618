/*
 * C = alpha·A·B (magnus_spgemm_options.alpha) with both algorithms, and the reusable plan
 * (magnus_spgemm_plan_*: symbolic once, numeric many), compared with the CPU reference on
 * the device chosen by MAGNUS_BACKENDS.
 */
#include <math.h>
#include <string.h>

#include "device_test_main.h"
#include "status_test_util.h"

#define EXPECT_STATUS(call, status)                                                              \
    do {                                                                                         \
        magnus_status ex_s_ = (call);                                                            \
        cr_assert_eq(ex_s_, (status), "%s returned %s (%s), expected %s", #call,                 \
                     magnus_status_string(ex_s_), magnus_last_error(),                           \
                     magnus_status_string(status));                                              \
    } while (0)

static magnus_csr uniform(int64_t rows, int64_t cols, double per_row, uint64_t seed,
                          magnus_value_type type) {
    magnus_csr A;
    ASSERT_OK(magnus_gen_uniform(&A, rows, cols, per_row, magnus_test_seed(seed), type));
    return A;
}

static double value_at(const magnus_csr_s *A, int64_t p) {
    return A->type == MAGNUS_FLOAT64 ? ((const double *)A->values)[p]
                                     : (double)((const float *)A->values)[p];
}

static void set_value(magnus_csr A, int64_t p, double v) {
    if (A->type == MAGNUS_FLOAT64) ((double *)A->values)[p] = v;
    else ((float *)A->values)[p] = (float)v;
}

/* Every value of A times alpha (in double, rounded once to A's type). */
static void scale(magnus_csr A, double alpha) {
    for (int64_t p = 0; p < A->nnz; p++) set_value(A, p, value_at(A, p) * alpha);
}

/* C against alpha·(A·B) by the CPU reference, with |alpha|·|A|·|B| as the scale. */
static void expect_scaled_product(const magnus_csr_s *C, const magnus_csr_s *A,
                                  const magnus_csr_s *B, double alpha, const char *label) {
    magnus_csr R, M;
    ASSERT_OK(magnus_reference_spgemm(&R, &M, A, B));
    scale(R, alpha);
    scale(M, fabs(alpha));
    magnus_compare_result cmp;
    magnus_status s = magnus_csr_compare(&cmp, C, R, M, 0);
    cr_assert_eq(s, MAGNUS_SUCCESS, "%s, alpha %g: %s (row %lld col %lld: %g vs %g)", label,
                 alpha, magnus_last_error(), (long long)cmp.row, (long long)cmp.col, cmp.value,
                 cmp.expected);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
}

static const double alphas[] = {0.0, -1.0, 2.5, -0.375, 1.0};

static void alpha_case(magnus_value_type type) {
    magnus_context ctx = magnus_test_context();
    if (type == MAGNUS_FLOAT64) magnus_test_require_fp64(ctx);
    uint64_t before = ctx->memory_in_use;
    magnus_csr A = magnus_test_rmat(8, 6, 3, type), B = uniform(256, 90, 4, 4, type);
    for (int alg = 0; alg < 2; alg++)
        for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++) {
            magnus_spgemm_options opt;
            ASSERT_OK(magnus_spgemm_options_init(&opt));
            cr_assert_eq(opt.alpha, 1.0, "alpha defaults to 1");
            opt.algorithm = alg ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
            opt.alpha = alphas[i];
            magnus_csr C;
            ASSERT_OK(magnus_spgemm(&C, ctx, A, B, &opt, NULL));
            expect_scaled_product(C, A, B, alphas[i], alg ? "hash" : "gmagnus");
            magnus_csr_free(&C);
            /* B is A: the shared operand */
            ASSERT_OK(magnus_spgemm(&C, ctx, A, A, &opt, NULL));
            expect_scaled_product(C, A, A, alphas[i], alg ? "hash A*A" : "gmagnus A*A");
            magnus_csr_free(&C);
        }
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    cr_assert_eq(ctx->memory_in_use, before, "no device memory left in use");
}

Test(spgemm_alpha, float32) { alpha_case(MAGNUS_FLOAT32); }
Test(spgemm_alpha, float64) { alpha_case(MAGNUS_FLOAT64); }

/* alpha = 0 keeps C's structure (explicit zeros), as the product with alpha = 1 has it. */
Test(spgemm_alpha, zero_keeps_structure) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(50, 40, 3, 7, MAGNUS_FLOAT32);
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    magnus_csr C1, C0;
    magnus_csr B = uniform(40, 30, 3, 8, MAGNUS_FLOAT32);
    ASSERT_OK(magnus_spgemm(&C1, ctx, A, B, NULL, NULL)); /* NULL options: alpha 1 */
    opt.alpha = 0.0;
    ASSERT_OK(magnus_spgemm(&C0, ctx, A, B, &opt, NULL));
    cr_assert_eq(C0->nnz, C1->nnz);
    cr_assert(C1->nnz > 0);
    cr_assert(memcmp(C0->row_ptr, C1->row_ptr, (size_t)(C1->rows + 1) * sizeof(int64_t)) == 0);
    cr_assert(memcmp(C0->col_idx, C1->col_idx, (size_t)C1->nnz * sizeof(int32_t)) == 0);
    for (int64_t p = 0; p < C0->nnz; p++) cr_assert_eq(value_at(C0, p), 0.0);
    expect_scaled_product(C1, A, B, 1.0, "NULL options");
    magnus_csr_free(&C0);
    magnus_csr_free(&C1);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

Test(spgemm_alpha, not_finite_refused) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(20, 20, 3, 9, MAGNUS_FLOAT32);
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        opt.alpha = bad[i];
        magnus_csr C = (magnus_csr)&opt; /* an output only: overwritten with NULL */
        EXPECT_STATUS(magnus_spgemm(&C, ctx, A, A, &opt, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
        cr_assert_null(C);
        cr_assert(strstr(magnus_last_error(), "alpha") != NULL, "%s", magnus_last_error());
    }
    magnus_csr_free(&A);
}
