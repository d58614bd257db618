/*
 * C = alpha·A·B (magnus_spgemm_options.alpha) with both algorithms, and the reusable plan
 * (magnus_spgemm_plan_*: symbolic once, numeric many), compared with the CPU reference on
 * the device chosen by MAGNUS_BACKENDS.
 */
#include <math.h>
#include <string.h>

#include "device_test_main.h"
#include "status_test_util.h"

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

/* The plan's product of dA·dB, executed and downloaded, against A·B by the CPU reference (A and B
 * the host matrices with dA's and dB's values); the product freed after. */
static void expect_plan_product(const magnus_spgemm_plan plan, const magnus_device_csr dA,
                                const magnus_device_csr dB, const magnus_csr_s *A,
                                const magnus_csr_s *B, const char *label) {
    magnus_device_csr dC = NULL;
    ASSERT_OK(magnus_spgemm_plan_execute(&dC, plan, dA, dB, NULL));
    magnus_csr C;
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    expect_scaled_product(C, A, B, 1.0, label);
    magnus_csr_free(&C);
    ASSERT_OK(magnus_device_csr_free(&dC));
}

static const double alphas[] = {0.0, -1.0, 2.5, -0.375, 1.0};

static void alpha_case(magnus_value_type type) {
    magnus_context ctx = magnus_test_context();
    if (type == MAGNUS_FLOAT64) magnus_test_require_fp64(ctx);
    uint64_t before = ctx->memory_in_use;
    magnus_csr A = magnus_test_rmat(8, 6, 3, type), B = uniform(256, 90, 4, 4, type);
    /* both algorithms, and AUTO (the default: alpha is applied after whichever it picks) */
    const magnus_algorithm algs[] = {MAGNUS_ALGORITHM_MAGNUS, MAGNUS_ALGORITHM_HASH,
                                     MAGNUS_ALGORITHM_AUTO};
    const char *names[] = {"gmagnus", "hash", "auto"}, *shared[] = {"gmagnus A*A", "hash A*A",
                                                                   "auto A*A"};
    for (int alg = 0; alg < 3; alg++)
        for (size_t i = 0; i < sizeof alphas / sizeof alphas[0]; i++) {
            magnus_spgemm_options opt;
            ASSERT_OK(magnus_spgemm_options_init(&opt));
            cr_assert_eq(opt.alpha, 1.0, "alpha defaults to 1");
            opt.algorithm = algs[alg];
            opt.alpha = alphas[i];
            magnus_csr C;
            ASSERT_OK(magnus_spgemm(&C, ctx, A, B, &opt, NULL));
            expect_scaled_product(C, A, B, alphas[i], names[alg]);
            magnus_csr_free(&C);
            /* B is A: the shared operand */
            ASSERT_OK(magnus_spgemm(&C, ctx, A, A, &opt, NULL));
            expect_scaled_product(C, A, A, alphas[i], shared[alg]);
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
    MAGNUS_TEST_FREE_CSRS(&C0, &C1, &A, &B);
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
        ASSERT_STATUS(magnus_spgemm(&C, ctx, A, A, &opt, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
        cr_assert_null(C);
        cr_assert(strstr(magnus_last_error(), "alpha") != NULL, "%s", magnus_last_error());
    }
    magnus_csr_free(&A);
}

/* ---- plans -------------------------------------------------------------------------------- */

/* A copy of X with new values (the same structure). */
static magnus_csr revalue(const magnus_csr_s *X, uint64_t seed) {
    magnus_csr Y;
    ASSERT_OK(magnus_csr_copy(&Y, X));
    uint64_t st = seed * 2654435761ULL + 1;
    for (int64_t p = 0; p < Y->nnz; p++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        set_value(Y, p, (double)(st >> 40) / (double)(1u << 24) * 4.0 - 2.0);
    }
    return Y;
}

static magnus_device_csr upload(magnus_context ctx, const magnus_csr_s *X) {
    magnus_device_csr d;
    ASSERT_OK(magnus_device_csr_upload(&d, ctx, X));
    return d;
}

/* The products of A·B (what a positions plan keeps one position for), counted on the host. */
static uint64_t host_products(const magnus_csr_s *A, const magnus_csr_s *B) {
    uint64_t n = 0;
    for (int64_t p = 0; p < A->nnz; p++) {
        const int32_t k = A->col_idx[p];
        n += (uint64_t)(B->row_ptr[k + 1] - B->row_ptr[k]);
    }
    return n;
}

/* The plan kinds (magnus.h, magnus_spgemm_plan_create): MAGNUS_PLAN_POSITIONS picks one. */
typedef enum { KIND_POSITIONS, KIND_HASH } plan_kind;

static void set_kind(plan_kind kind) {
    if (kind == KIND_HASH) setenv("MAGNUS_PLAN_POSITIONS", "0", 1);
    else unsetenv("MAGNUS_PLAN_POSITIONS");
}

/* The plan's C equals a fresh multiply's (and the reference) for new values, twice, for a plan
 * of `kind` made with `algorithm` (AUTO, gMAGNUS or hash: the algorithm that makes C's
 * structure for a positions plan). */
static void plan_case(magnus_value_type type, int shared, double alpha, plan_kind kind,
                      magnus_algorithm algorithm) {
    magnus_context ctx = magnus_test_context();
    if (type == MAGNUS_FLOAT64) magnus_test_require_fp64(ctx);
    set_kind(kind);
    uint64_t before = ctx->memory_in_use;
    magnus_csr A = magnus_test_rmat(8, 6, 11, type);
    magnus_csr B = shared ? A : uniform(256, 70, 5, 12, type);
    magnus_device_csr dA = upload(ctx, A), dB = shared ? dA : upload(ctx, B);
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.alpha = alpha;
    opt.algorithm = algorithm;
    magnus_spgemm_plan plan = (magnus_spgemm_plan)&opt; /* an output only */
    ASSERT_OK(magnus_spgemm_plan_create(&plan, ctx, dA, dB, &opt));
    cr_assert_not_null(plan);
    ASSERT_OK(magnus_device_csr_free(&dA));
    if (!shared) ASSERT_OK(magnus_device_csr_free(&dB));
    magnus_spgemm_plan_info info;
    ASSERT_OK(magnus_spgemm_plan_info_get(&info, plan));
    cr_assert_eq(info.rows, A->rows);
    cr_assert_eq(info.cols, B->cols);
    cr_assert_eq(info.type, type);
    cr_assert_eq(info.alpha, alpha);
    cr_assert_eq(info.symbolic.nnz_c, info.nnz);
    uint64_t held = (uint64_t)(A->rows + 1) * sizeof(int64_t);
    if (kind == KIND_POSITIONS) {
        /* one position per product, C's columns and one offset per entry of A beside the row
         * pointers; the structure made by the algorithm asked for (AUTO: the one it chose) */
        const uint64_t products = host_products(A, B);
        cr_assert_eq(info.positions, products);
        held += products * 4 + (uint64_t)info.nnz * 4 + (uint64_t)(A->nnz + 1) * 8;
        cr_assert_eq(info.symbolic.algorithm_requested, algorithm);
        if (algorithm != MAGNUS_ALGORITHM_AUTO) cr_assert_eq(info.algorithm, algorithm);
        cr_assert_eq(info.algorithm, info.symbolic.algorithm);
        cr_assert(strstr(info.symbolic.algorithm_reason, "positions") != NULL, "%s",
                  info.symbolic.algorithm_reason);
    } else {
        cr_assert_eq(info.positions, 0);
        cr_assert_eq(info.algorithm, MAGNUS_ALGORITHM_HASH);
        cr_assert_eq(info.symbolic.algorithm, MAGNUS_ALGORITHM_HASH);
        cr_assert(strstr(info.symbolic.algorithm_reason, "MAGNUS_PLAN_POSITIONS") != NULL,
                  "%s", info.symbolic.algorithm_reason);
    }
    cr_assert_eq(info.device_bytes, held);
    cr_assert_eq(ctx->memory_in_use - before, info.device_bytes,
                 "the plan holds what its info says");
    cr_assert_eq(info.symbolic.algorithm_requested, algorithm);

    for (uint64_t round = 1; round <= 2; round++) {
        magnus_csr A2 = revalue(A, round), B2 = shared ? A2 : revalue(B, round + 100);
        magnus_device_csr dA2 = upload(ctx, A2), dB2 = shared ? dA2 : upload(ctx, B2), dC = NULL;
        magnus_report rep;
        ASSERT_OK(magnus_spgemm_plan_execute(&dC, plan, dA2, dB2, &rep));
        cr_assert_eq(rep.nnz_c, info.nnz);
        cr_assert(rep.peak_device_bytes >= info.device_bytes);
        cr_assert_eq(rep.algorithm, info.algorithm);
        cr_assert_eq(rep.algorithm_requested, algorithm);
        cr_assert(rep.algorithm_reason && rep.algorithm_reason[0]);
        magnus_csr C, F;
        ASSERT_OK(magnus_device_csr_download(&C, dC));
        cr_assert_eq(C->nnz, info.nnz);
        expect_scaled_product(C, A2, B2, alpha, shared ? "plan, B is A" : "plan");
        /* a fresh multiply with those values: the same structure, values within tolerance */
        magnus_algorithm algs[] = {MAGNUS_ALGORITHM_MAGNUS, MAGNUS_ALGORITHM_HASH,
                                   MAGNUS_ALGORITHM_AUTO};
        for (int alg = 0; alg < 3; alg++) {
            opt.algorithm = algs[alg];
            ASSERT_OK(magnus_spgemm(&F, ctx, A2, B2, &opt, NULL));
            ASSERT_OK(magnus_csr_compare(NULL, C, F, NULL, type == MAGNUS_FLOAT32 ? 1e-3 : 1e-9));
            magnus_csr_free(&F);
        }
        magnus_csr_free(&C);
        ASSERT_OK(magnus_device_csr_free(&dC));
        ASSERT_OK(magnus_device_csr_free(&dA2));
        if (!shared) ASSERT_OK(magnus_device_csr_free(&dB2));
        magnus_csr_free(&A2);
        if (!shared) magnus_csr_free(&B2);
    }
    ASSERT_OK(magnus_spgemm_plan_free(&plan));
    cr_assert_null(plan);
    ASSERT_OK(magnus_spgemm_plan_free(&plan)); /* *plan NULL: no-op */
    ASSERT_OK(magnus_spgemm_plan_free(NULL));
    cr_assert_eq(ctx->memory_in_use, before, "the plan's memory is given back");
    magnus_csr_free(&A);
    if (!shared) magnus_csr_free(&B);
    set_kind(KIND_POSITIONS);
}

#define AUTO MAGNUS_ALGORITHM_AUTO
Test(spgemm_plan, float32) { plan_case(MAGNUS_FLOAT32, 0, 1.0, KIND_POSITIONS, AUTO); }
Test(spgemm_plan, float64) { plan_case(MAGNUS_FLOAT64, 0, 1.0, KIND_POSITIONS, AUTO); }
Test(spgemm_plan, float32_shared_alpha) {
    plan_case(MAGNUS_FLOAT32, 1, -2.5, KIND_POSITIONS, AUTO);
}
Test(spgemm_plan, float64_shared_alpha) {
    plan_case(MAGNUS_FLOAT64, 1, 2.5, KIND_POSITIONS, AUTO);
}
/* the structure from either algorithm: positions index the C each one makes */
Test(spgemm_plan, gmagnus_structure) {
    plan_case(MAGNUS_FLOAT32, 0, 1.0, KIND_POSITIONS, MAGNUS_ALGORITHM_MAGNUS);
}
Test(spgemm_plan, hash_structure_float64) {
    plan_case(MAGNUS_FLOAT64, 1, -1.5, KIND_POSITIONS, MAGNUS_ALGORITHM_HASH);
}
/* the hash kind (MAGNUS_PLAN_POSITIONS=0) */
Test(spgemm_plan, hash_kind_float32) { plan_case(MAGNUS_FLOAT32, 0, 1.0, KIND_HASH, AUTO); }
Test(spgemm_plan, hash_kind_float64_shared_alpha) {
    plan_case(MAGNUS_FLOAT64, 1, 2.5, KIND_HASH, AUTO);
}

/* Positions that find no device memory (the context's limit) give a plan of the hash kind
 * that still multiplies right; a bad MAGNUS_PLAN_POSITIONS is refused by name. */
Test(spgemm_plan, positions_fall_back_without_memory) {
    magnus_context ctx = magnus_test_context();
    /* every row 30 consecutive of 40 columns: 600 products per row into 40 entries, so the
     * positions (4 bytes a product) outweigh everything the multiply holds */
    const int64_t n = 2000;
    magnus_csr A;
    ASSERT_OK(magnus_csr_new(&A, n, 40, n * 30, MAGNUS_FLOAT32));
    for (int64_t r = 0; r <= n; r++) A->row_ptr[r] = r * 30;
    for (int64_t p = 0; p < n * 30; p++) {
        A->col_idx[p] = (int32_t)(p % 30 + (p / 30) % 11);
        ((float *)A->values)[p] = (float)(p % 7) - 3.0f;
    }
    magnus_csr B = uniform(40, 40, 20, 5, MAGNUS_FLOAT32);
    magnus_device_csr dA = upload(ctx, A), dB = upload(ctx, B), dC = NULL;
    const uint64_t products = host_products(A, B);
    magnus_report rep;
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dB, NULL, &rep));
    ASSERT_OK(magnus_device_csr_free(&dC));
    const uint64_t limit0 = ctx->memory_limit;
    ctx->memory_limit = rep.peak_device_bytes + products * 2; /* half the positions' bytes */
    magnus_spgemm_plan plan;
    ASSERT_OK(magnus_spgemm_plan_create(&plan, ctx, dA, dB, NULL));
    magnus_spgemm_plan_info info;
    ASSERT_OK(magnus_spgemm_plan_info_get(&info, plan));
    cr_assert_eq(info.positions, 0, "the positions (%llu bytes) cannot fit",
                 (unsigned long long)products * 4);
    cr_assert_eq(info.algorithm, MAGNUS_ALGORITHM_HASH);
    cr_assert(strstr(info.symbolic.algorithm_reason, "no device memory") != NULL, "%s",
              info.symbolic.algorithm_reason);
    cr_assert_eq(info.device_bytes, (uint64_t)(n + 1) * sizeof(int64_t));
    expect_plan_product(plan, dA, dB, A, B, "fallback plan");
    ASSERT_OK(magnus_spgemm_plan_free(&plan));
    ctx->memory_limit = limit0;

    setenv("MAGNUS_PLAN_POSITIONS", "2", 1);
    ASSERT_STATUS(magnus_spgemm_plan_create(&plan, ctx, dA, dB, NULL),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_null(plan);
    cr_assert(strstr(magnus_last_error(), "MAGNUS_PLAN_POSITIONS") != NULL, "%s",
              magnus_last_error());
    unsetenv("MAGNUS_PLAN_POSITIONS");
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_OK(magnus_device_csr_free(&dB));
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

/* The set-up of the tests below: float32 A (rows x inner, 4 per row) and B (inner x cols,
 * b_per_row per row) from seeds seed and seed + 1, both on the device, and a plan on them. */
typedef struct {
    magnus_context ctx;
    magnus_csr A, B;
    magnus_device_csr dA, dB;
    magnus_spgemm_plan plan;
} plan_fixture;

static plan_fixture plan_fixture_open(int64_t rows, int64_t inner, int64_t cols, double b_per_row,
                                      uint64_t seed, const magnus_spgemm_options *opt) {
    plan_fixture f = {.ctx = magnus_test_context()};
    f.A = uniform(rows, inner, 4, seed, MAGNUS_FLOAT32);
    f.B = uniform(inner, cols, b_per_row, seed + 1, MAGNUS_FLOAT32);
    f.dA = upload(f.ctx, f.A);
    f.dB = upload(f.ctx, f.B);
    ASSERT_OK(magnus_spgemm_plan_create(&f.plan, f.ctx, f.dA, f.dB, opt));
    return f;
}

/* Frees what plan_fixture_open made (the plan, unless the test freed it already). */
static void plan_fixture_close(plan_fixture *f) {
    ASSERT_OK(magnus_spgemm_plan_free(&f->plan));
    MAGNUS_TEST_FREE_DEVICE_CSRS(&f->dA, &f->dB);
    MAGNUS_TEST_FREE_CSRS(&f->A, &f->B);
}

/* Operands of another structure, shape, type or nnz are refused; the plan still works after. */
Test(spgemm_plan, mismatch_refused) {
    plan_fixture f = plan_fixture_open(60, 50, 40, 3, 21, NULL);
    magnus_device_csr dC = NULL;

    /* the same nnz, one column moved within a row: only the fingerprint tells */
    magnus_csr A2;
    ASSERT_OK(magnus_csr_copy(&A2, f.A));
    int moved = 0;
    for (int64_t r = 0; r < A2->rows && !moved; r++) {
        int64_t e = A2->row_ptr[r + 1] - 1;
        if (e < A2->row_ptr[r]) continue;
        int32_t next = e > A2->row_ptr[r] ? A2->col_idx[e - 1] : -1;
        for (int32_t c = A2->col_idx[e] + 1; c < A2->cols && !moved; c++) {
            A2->col_idx[e] = c, moved = 1;
        }
        if (!moved && A2->col_idx[e] - 1 > next) A2->col_idx[e]--, moved = 1;
    }
    cr_assert(moved);
    ASSERT_OK(magnus_csr_validate(A2));
    magnus_device_csr dA2 = upload(f.ctx, A2);
    magnus_report rep;
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, f.plan, dA2, f.dB, &rep),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert_null(dC);
    cr_assert(strstr(magnus_last_error(), "structure") != NULL, "%s", magnus_last_error());
    /* B's structure is checked too (A in B's place has another shape) */
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, f.plan, f.dA, f.dA, NULL),
                  MAGNUS_ERROR_DIMENSION_MISMATCH);
    /* another nnz */
    magnus_csr B3 = uniform(50, 40, 2, 23, MAGNUS_FLOAT32);
    magnus_device_csr dB3 = upload(f.ctx, B3);
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, f.plan, f.dA, dB3, NULL),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    /* another value type */
    if (f.ctx->device.fp64) {
        magnus_csr A64;
        ASSERT_OK(magnus_csr_convert(&A64, f.A, MAGNUS_FLOAT64));
        magnus_device_csr dA64 = upload(f.ctx, A64);
        ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, f.plan, dA64, f.dB, NULL),
                      MAGNUS_ERROR_UNSUPPORTED_TYPE);
        magnus_device_csr_free(&dA64);
        magnus_csr_free(&A64);
    }
    /* NULLs and freed handles */
    ASSERT_STATUS(magnus_spgemm_plan_execute(NULL, f.plan, f.dA, f.dB, NULL),
                  MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, NULL, f.dA, f.dB, NULL),
                  MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, f.plan, NULL, f.dB, NULL),
                  MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_spgemm_plan_create(NULL, f.ctx, f.dA, f.dB, NULL),
                  MAGNUS_ERROR_NULL_POINTER);
    magnus_spgemm_plan bad;
    ASSERT_STATUS(magnus_spgemm_plan_create(&bad, f.ctx, f.dB, f.dB, NULL),
                  MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_null(bad);
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.alpha = NAN;
    ASSERT_STATUS(magnus_spgemm_plan_create(&bad, f.ctx, f.dA, f.dB, &opt),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    /* still usable after the refusals */
    expect_plan_product(f.plan, f.dA, f.dB, f.A, f.B, "plan after refusals");
    ASSERT_OK(magnus_spgemm_plan_free(&f.plan));
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, (magnus_spgemm_plan)&opt, f.dA, f.dB, NULL),
                  MAGNUS_ERROR_INVALID_HANDLE);
    MAGNUS_TEST_FREE_DEVICE_CSRS(&dA2, &dB3);
    MAGNUS_TEST_FREE_CSRS(&A2, &B3);
    plan_fixture_close(&f);
}

/* A matrix made on the device (an earlier C) has its fingerprint computed there; an uploaded copy
 * of it with other values matches, a plan on it runs, and the empty case works. */
Test(spgemm_plan, device_made_operand_and_empty) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(40, 40, 3, 31, MAGNUS_FLOAT32);
    magnus_device_csr dA = upload(ctx, A), dC = NULL, dD = NULL;
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dA, NULL, NULL));
    magnus_spgemm_plan plan;
    ASSERT_OK(magnus_spgemm_plan_create(&plan, ctx, dC, dA, NULL));
    magnus_csr C, C2;
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    C2 = revalue(C, 5);
    magnus_device_csr dC2 = upload(ctx, C2);
    expect_plan_product(plan, dC2, dA, C2, A, "plan on a device-made operand");
    ASSERT_OK(magnus_spgemm_plan_free(&plan));

    /* empty: 0 x 40 times 40 x 40, and 40 x 40 of no entries */
    magnus_csr E, Z;
    ASSERT_OK(magnus_csr_new(&E, 0, 40, 0, MAGNUS_FLOAT32));
    ASSERT_OK(magnus_csr_new(&Z, 40, 40, 0, MAGNUS_FLOAT32));
    magnus_device_csr dE = upload(ctx, E), dZ = upload(ctx, Z);
    ASSERT_OK(magnus_spgemm_plan_create(&plan, ctx, dE, dA, NULL));
    ASSERT_OK(magnus_spgemm_plan_execute(&dD, plan, dE, dA, NULL));
    int64_t r, c, n;
    ASSERT_OK(magnus_device_csr_shape(&r, &c, &n, dD));
    cr_assert(r == 0 && c == 40 && n == 0);
    magnus_device_csr_free(&dD);
    ASSERT_OK(magnus_spgemm_plan_free(&plan));
    ASSERT_OK(magnus_spgemm_plan_create(&plan, ctx, dZ, dA, NULL));
    ASSERT_OK(magnus_spgemm_plan_execute(&dD, plan, dZ, dA, NULL));
    ASSERT_OK(magnus_device_csr_shape(&r, &c, &n, dD));
    cr_assert(r == 40 && c == 40 && n == 0);
    magnus_device_csr_free(&dD);
    ASSERT_OK(magnus_spgemm_plan_free(&plan));
    MAGNUS_TEST_FREE_DEVICE_CSRS(&dE, &dZ, &dC, &dC2, &dA);
    MAGNUS_TEST_FREE_CSRS(&A, &C, &C2, &E, &Z);
}

/* New values written into the plan's own device matrices: the structure (and fingerprint)
 * stays, so the plan accepts them; wrong sizes and types are refused. */
Test(spgemm_plan, write_values) {
    plan_fixture f = plan_fixture_open(70, 60, 50, 4, 41, NULL);
    magnus_device_csr dC = NULL;
    for (uint64_t round = 1; round <= 2; round++) {
        magnus_csr A2 = revalue(f.A, round * 7), B2 = revalue(f.B, round * 7 + 1);
        ASSERT_OK(magnus_device_csr_write_values(f.dA, A2->values, A2->nnz, MAGNUS_FLOAT32));
        ASSERT_OK(magnus_device_csr_write_values(f.dB, B2->values, B2->nnz, MAGNUS_FLOAT32));
        ASSERT_OK(magnus_spgemm_plan_execute(&dC, f.plan, f.dA, f.dB, NULL));
        magnus_csr C, back;
        ASSERT_OK(magnus_device_csr_download(&C, dC));
        expect_scaled_product(C, A2, B2, 1.0, "written values");
        ASSERT_OK(magnus_device_csr_download(&back, f.dA));
        ASSERT_OK(magnus_csr_compare(NULL, back, A2, NULL, 0));
        magnus_device_csr_free(&dC);
        MAGNUS_TEST_FREE_CSRS(&back, &C, &A2, &B2);
    }
    ASSERT_STATUS(magnus_device_csr_write_values(f.dA, f.A->values, f.A->nnz - 1, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    ASSERT_STATUS(magnus_device_csr_write_values(f.dA, f.A->values, f.A->nnz, MAGNUS_FLOAT64),
                  MAGNUS_ERROR_UNSUPPORTED_TYPE);
    ASSERT_STATUS(magnus_device_csr_write_values(f.dA, NULL, f.A->nnz, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER);
    ASSERT_STATUS(magnus_device_csr_write_values(NULL, f.A->values, f.A->nnz, MAGNUS_FLOAT32),
                  MAGNUS_ERROR_NULL_POINTER);
    plan_fixture_close(&f);
}

/* Executing into an existing C reuses its buffers: no allocation for C, the right product for
 * new values each time; a C of another shape, type or nnz, or an operand as C, is refused. */
Test(spgemm_plan, execute_into) {
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.alpha = 0.5;
    plan_fixture f = plan_fixture_open(80, 60, 50, 4, 51, &opt);
    magnus_device_csr dC = NULL;
    ASSERT_OK(magnus_spgemm_plan_execute(&dC, f.plan, f.dA, f.dB, NULL));
    const uint64_t with_c = f.ctx->memory_in_use;
    for (uint64_t round = 1; round <= 2; round++) {
        magnus_csr A2 = revalue(f.A, round + 60), B2 = revalue(f.B, round + 70);
        ASSERT_OK(magnus_device_csr_write_values(f.dA, A2->values, A2->nnz, MAGNUS_FLOAT32));
        ASSERT_OK(magnus_device_csr_write_values(f.dB, B2->values, B2->nnz, MAGNUS_FLOAT32));
        magnus_report rep;
        ASSERT_OK(magnus_spgemm_plan_execute_into(dC, f.plan, f.dA, f.dB, &rep));
        cr_assert_eq(f.ctx->memory_in_use, with_c, "nothing kept beyond C");
        magnus_csr C;
        ASSERT_OK(magnus_device_csr_download(&C, dC));
        expect_scaled_product(C, A2, B2, 0.5, "execute into");
        MAGNUS_TEST_FREE_CSRS(&C, &A2, &B2);
    }
    /* C as the operand of a later plan: its fingerprint is computed afresh from the device */
    magnus_csr I;
    ASSERT_OK(magnus_gen_banded(&I, 50, 0, 0, 1, MAGNUS_FLOAT32)); /* diagonal, 50 x 50 */
    magnus_device_csr dI = upload(f.ctx, I), dD = NULL;
    magnus_spgemm_plan plan2;
    ASSERT_OK(magnus_spgemm_plan_create(&plan2, f.ctx, dC, dI, NULL));
    ASSERT_OK(magnus_spgemm_plan_execute(&dD, plan2, dC, dI, NULL));
    magnus_csr Cd, D;
    ASSERT_OK(magnus_device_csr_download(&Cd, dC));
    ASSERT_OK(magnus_device_csr_download(&D, dD));
    expect_scaled_product(D, Cd, I, 1.0, "C as an operand");
    magnus_csr_free(&Cd);
    magnus_csr_free(&D);
    magnus_device_csr_free(&dD);
    magnus_device_csr_free(&dI);
    magnus_csr_free(&I);
    ASSERT_OK(magnus_spgemm_plan_free(&plan2));
    ASSERT_STATUS(magnus_spgemm_plan_execute_into(f.dA, f.plan, f.dA, f.dB, NULL),
                  MAGNUS_ERROR_DIMENSION_MISMATCH); /* A's shape is not C's (nor may it be C) */
    magnus_csr Z;
    ASSERT_OK(magnus_csr_new(&Z, 80, 50, 0, MAGNUS_FLOAT32));
    magnus_device_csr dZ = upload(f.ctx, Z);
    ASSERT_STATUS(magnus_spgemm_plan_execute_into(dZ, f.plan, f.dA, f.dB, NULL),
                  MAGNUS_ERROR_INVALID_ARGUMENT); /* no room for C's entries */
    ASSERT_STATUS(magnus_spgemm_plan_execute_into(NULL, f.plan, f.dA, f.dB, NULL),
                  MAGNUS_ERROR_NULL_POINTER);
    magnus_device_csr_free(&dZ);
    magnus_csr_free(&Z);
    magnus_device_csr_free(&dC);
    plan_fixture_close(&f);
}
