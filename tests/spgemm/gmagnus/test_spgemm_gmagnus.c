/*
 * gMAGNUS end to end on a device: every product is compared with the CPU reference
 * (magnus_reference_spgemm with the |A|·|B| magnitude, magnus_csr_compare) and the report's
 * sizes with the host-side plan (magnus_gmagnus_plan_compute, a separate count). Inputs:
 * R-MAT pairs, structured generators, random rectangular products, empty and degenerate
 * shapes, a dense row, a dense column, both value types, each with the default budget
 * (min(device, 48 KiB), or MAGNUS_LOCAL_MEM_BYTES), the device's whole local memory where a
 * test says so, and a small local-memory budget per work group that sends rows down the heavy
 * path.
 *
 * The level tests prove the heavy path ran: for three inputs whose heavy rows concentrate
 * their products (so some chunk stays heavy at every level), a budget is searched for which
 * the parameters plan 1, 2 and 3 multisplit levels, and the report must show heavy rows and
 * exactly that many levels run.
 *
 * The shared real matrices (gmagnus_shared/..., their own ctest entry) are in
 * test_gmagnus_shared.c, part of this executable.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_test_main.h"
#include "csr_products.h"
#include "magnus/magnus.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

static const magnus_value_type both_types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};
#define SMALL_BUDGET 2048 /* bytes of local memory per work group: tau 128 (fp32) / 85 (fp64) */

/* ---- helpers ------------------------------------------------------------------------------ */

/* Skips fp64 cases on devices without it. */
static int type_supported(magnus_context ctx, magnus_value_type t) {
    return t == MAGNUS_FLOAT32 || ctx->device.fp64;
}

/* C = A·B with gMAGNUS on ctx, checked against the reference and the host plan; returns the
 * report. */
static magnus_report multiply_checked(magnus_context ctx, const magnus_csr_s *A,
                                      const magnus_csr_s *B, const char *what) {
    magnus_report rep;
    int64_t reference_nnz;
    magnus_csr C =
        multiply_and_compare(&rep, &reference_nnz, ctx, A, B, MAGNUS_ALGORITHM_MAGNUS, what);
    cr_assert_eq(C->type, A->type);

    /* the report against an independent host count */
    magnus_device_info dev;
    ASSERT_OK(magnus_context_device(&dev, ctx));
    magnus_gmagnus_plan plan;
    ASSERT_OK(magnus_gmagnus_plan_compute(&plan, &dev, A, B));
    cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS);
    cr_assert_eq(rep.nnz_c, reference_nnz, "%s: nnz_c %lld, reference %lld", what,
                 (long long)rep.nnz_c, (long long)reference_nnz);
    cr_assert_eq(rep.rows_total, A->rows);
    cr_assert_eq(rep.local_mem_bytes, dev.local_mem_bytes);
    cr_assert_eq(rep.tau, plan.params.tau);
    cr_assert_eq(rep.chunks_required, plan.params.chunks_required);
    cr_assert_eq(rep.products_total, plan.products, "%s: products %lld, host %lld", what,
                 (long long)rep.products_total, (long long)plan.products);
    /* the heavy rows: those above the report's threshold (tau or more), counted on the host */
    cr_assert_geq(rep.heavy_row_products, rep.tau, "%s", what);
    cr_assert(rep.heavy_row_rule && *rep.heavy_row_rule, "%s: no heavy_row_rule", what);
    magnus_products heavy;
    ASSERT_OK(magnus_products_count(&heavy, A, B, rep.heavy_row_products));
    cr_assert_eq(rep.rows_heavy, heavy.rows_above, "%s: heavy rows %lld, host %lld", what,
                 (long long)rep.rows_heavy, (long long)heavy.rows_above);
    cr_assert_eq(rep.products_heavy, heavy.products_above);
    uint64_t chat_bytes = (uint64_t)heavy.products_above * (4 + magnus_value_size(A->type)) +
                          ((uint64_t)heavy.rows_above + 1) * 8;
    cr_assert_eq(rep.chat_bytes, heavy.rows_above ? chat_bytes : 0);
    if (rep.heavy_row_products == rep.tau) { /* the paper's split: the host plan's too */
        cr_assert_eq(rep.rows_heavy, plan.rows_heavy);
        cr_assert_eq(rep.light_rows_global, 0, "%s: light rows in global tables", what);
    }
    cr_assert_leq(rep.levels, plan.params.levels);
    for (int i = 0; i < plan.params.levels; i++)
        cr_assert_eq(rep.chunks_per_level[i], plan.params.chunks_per_level[i]);
    if (rep.rows_heavy == 0) cr_assert_eq(rep.levels, 0);
    cr_assert_gt(rep.peak_device_bytes, 0);
    cr_assert(rep.time_setup_ms >= 0 && rep.time_symbolic_ms >= 0 && rep.time_numeric_ms >= 0 &&
              rep.time_alloc_ms >= 0 && rep.time_outer_product_ms >= 0);
    magnus_csr_free(&C);
    return rep;
}

/* multiply_checked, then frees A and B: for the cases that only look at the report. */
static magnus_report multiply_checked_and_free(magnus_context ctx, magnus_csr *A, magnus_csr *B,
                                               const char *what) {
    magnus_report rep = multiply_checked(ctx, *A, *B, what);
    magnus_csr_free(A);
    magnus_csr_free(B);
    return rep;
}

/* The first `rows` rows of M (M is freed). */
static magnus_csr first_rows(magnus_csr M, int64_t rows) {
    magnus_csr R = NULL;
    int64_t nnz = M->row_ptr[rows];
    ASSERT_OK(magnus_csr_new(&R, rows, M->cols, nnz, M->type));
    memcpy(R->row_ptr, M->row_ptr, ((size_t)rows + 1) * sizeof *R->row_ptr);
    memcpy(R->col_idx, M->col_idx, (size_t)nnz * sizeof *R->col_idx);
    memcpy(R->values, M->values, (size_t)nnz * magnus_value_size(M->type));
    magnus_csr_free(&M);
    return R;
}

/* splitmix64: the tests' own deterministic numbers. */
static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* A rows x cols matrix whose row i holds the columns `pick` marks; values in +-[0.5, 1.5). */
typedef void (*row_picker)(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed);
static magnus_csr build(int64_t rows, int64_t cols, magnus_value_type type, row_picker pick,
                        uint64_t seed) {
    unsigned char *mark = calloc((size_t)cols + 1, 1);
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows; i++) {
        memset(mark, 0, (size_t)cols);
        pick(i, cols, mark, seed);
        for (int64_t j = 0; j < cols; j++) nnz += mark[j] != 0;
    }
    magnus_csr A = NULL;
    ASSERT_OK(magnus_csr_new(&A, rows, cols, nnz, type));
    int64_t p = 0;
    for (int64_t i = 0; i < rows; i++) {
        memset(mark, 0, (size_t)cols);
        pick(i, cols, mark, seed);
        for (int64_t j = 0; j < cols; j++) {
            if (!mark[j]) continue;
            uint64_t h = mix(seed ^ mix((uint64_t)i * 1000003u + (uint64_t)j));
            double v = 0.5 + (double)(h >> 11) / 9007199254740992.0;
            if (h & 1) v = -v;
            A->col_idx[p] = (int32_t)j;
            if (type == MAGNUS_FLOAT32)
                ((float *)A->values)[p] = (float)v;
            else
                ((double *)A->values)[p] = v;
            p++;
        }
        A->row_ptr[i + 1] = p;
    }
    free(mark);
    return A;
}

static void mark_random(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed, int n,
                        int64_t lo, int64_t hi) {
    if (hi <= lo) return;
    for (int k = 0; k < n; k++)
        mark[lo + (int64_t)(mix(seed ^ mix((uint64_t)row * 7919u + (uint64_t)k)) %
                            (uint64_t)(hi - lo))] = 1;
    (void)cols;
}

/* The whole row when `full`, else n random columns: the pickers of a dense row (or a few)
 * among sparse ones. */
static void mark_full_or_random(bool full, int64_t row, int64_t cols, unsigned char *mark,
                                uint64_t seed, int n) {
    if (full) memset(mark, 1, (size_t)cols);
    else mark_random(row, cols, mark, seed, n, 0, cols);
}

/* ---- small and degenerate shapes ---------------------------------------------------------- */

/* A = [1 0 2; 0 3 0], B = [1 2; 0 1; 4 0]: C = [9 2; 0 3], checked value by value too. */
Test(gmagnus, hand_computed) {
    magnus_context ctx = magnus_test_context();
    for (int t = 0; t < 2; t++) {
        if (!type_supported(ctx, both_types[t])) continue;
        magnus_csr A = ref_make(2, 3, (int64_t[]){0, 2, 3}, (int32_t[]){0, 2, 1},
                                (double[]){1, 2, 3}, both_types[t]);
        magnus_csr B = ref_make(3, 2, (int64_t[]){0, 2, 3, 4}, (int32_t[]){0, 1, 1, 0},
                                (double[]){1, 2, 1, 4}, both_types[t]);
        multiply_checked(ctx, A, B, "hand");
        magnus_csr C = NULL;
        magnus_spgemm_options gm = algorithm_options(MAGNUS_ALGORITHM_MAGNUS);
        ASSERT_OK(magnus_spgemm(&C, ctx, A, B, &gm, NULL));
        cr_assert_eq(C->nnz, 3);
        cr_assert_eq(C->row_ptr[1], 2);
        cr_assert_eq(C->col_idx[0], 0);
        cr_assert_eq(C->col_idx[2], 1);
        double c0 = t ? ((double *)C->values)[0] : ((float *)C->values)[0];
        cr_assert_eq(c0, 9.0);
        MAGNUS_TEST_FREE_CSRS(&A, &B, &C);
    }
}

Test(gmagnus, empty_shapes) {
    magnus_context ctx = magnus_test_context();
    const int64_t shapes[][3] = {{0, 0, 0}, {5, 0, 7}, {0, 4, 3}, {4, 6, 0}, {3, 3, 3}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        magnus_csr A = NULL, B = NULL;
        ASSERT_OK(magnus_csr_new(&A, shapes[i][0], shapes[i][1], 0, MAGNUS_FLOAT32));
        ASSERT_OK(magnus_csr_new(&B, shapes[i][1], shapes[i][2], 0, MAGNUS_FLOAT32));
        magnus_report rep = multiply_checked(ctx, A, B, "empty");
        cr_assert_eq(rep.nnz_c, 0);
        cr_assert_eq(rep.rows_heavy, 0);
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
}

static void pick_sparse_rows(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    if (row % 3 == 1) return; /* every third row empty */
    mark_random(row, cols, mark, seed, 3, 0, cols);
}

/* A's empty rows, B's empty rows (columns of A that lead nowhere), B with no columns. */
Test(gmagnus, empty_rows_and_columns) {
    magnus_context ctx = magnus_test_budget_context(SMALL_BUDGET);
    magnus_csr A = build(60, 40, MAGNUS_FLOAT32, pick_sparse_rows, 3);
    magnus_csr B = build(40, 50, MAGNUS_FLOAT32, pick_sparse_rows, 4);
    multiply_checked(ctx, A, B, "empty rows");
    magnus_csr Z = NULL;
    ASSERT_OK(magnus_csr_new(&Z, 40, 0, 0, MAGNUS_FLOAT32));
    multiply_checked(ctx, A, Z, "B without columns");
    MAGNUS_TEST_FREE_CSRS(&A, &B, &Z);
    magnus_context_free(&ctx);
}

/* ---- generated inputs, default budget and small budget ------------------------------------ */

/* Runs one_case once per budget, the default and SMALL_BUDGET (small_budget true: the case
 * asserts that rows went down the heavy path), and per value type the device supports: the
 * loop of every generated-input test below. */
typedef void (*budget_case)(magnus_context ctx, magnus_value_type type, bool small_budget);
static void run_with_both_budgets_and_types(budget_case one_case) {
    const uint64_t budgets[] = {0, SMALL_BUDGET};
    for (int b = 0; b < 2; b++) {
        magnus_context ctx = magnus_test_budget_context(budgets[b]);
        for (int t = 0; t < 2; t++)
            if (type_supported(ctx, both_types[t])) one_case(ctx, both_types[t], budgets[b] != 0);
        magnus_context_free(&ctx);
    }
}

static void rmat_pairs_case(magnus_context ctx, magnus_value_type type, bool small_budget) {
    uint64_t t = type == MAGNUS_FLOAT64; /* a seed per type */
    magnus_csr A = magnus_test_rmat(10, 8, 11 + t, type);
    magnus_csr B = magnus_test_rmat(10, 4, 21 + t, type);
    magnus_report r1 = multiply_checked(ctx, A, B, "rmat10(8) x rmat10(4)");
    magnus_report r2 = multiply_checked(ctx, A, A, "rmat10(8) squared");
    if (small_budget) cr_assert(r1.rows_heavy > 0 && r2.rows_heavy > 0);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}
Test(gmagnus, rmat_pairs) { run_with_both_budgets_and_types(rmat_pairs_case); }

/* ---- in-place multisplit (gmagnus_levels.c): one C-hat buffer with a gap in front ---------- */

/* C = A·B checked, on a context made with MAGNUS_CHAT_GAP=gap (and no minimum size), which
 * contexts read at creation, and the smallest budget that plans one multisplit level for B's
 * columns on this device (the in-place layout needs exactly one; a small budget makes many rows
 * heavy). */
static magnus_report multiply_with_gap(const char *gap, const magnus_csr_s *A,
                                       const magnus_csr_s *B, const char *what) {
    const uint64_t budget = magnus_test_budget_for_levels(magnus_test_context(), B->cols,
                                                          A->type, 1);
    cr_assert_gt(budget, 0, "no budget plans one level for %lld columns", (long long)B->cols);
    cr_assert_eq(setenv("MAGNUS_CHAT_GAP", gap, 1), 0);
    cr_assert_eq(setenv("MAGNUS_CHAT_GAP_MIN_BYTES", "0", 1), 0);
    magnus_context ctx = magnus_test_budget_context(budget);
    unsetenv("MAGNUS_CHAT_GAP");
    unsetenv("MAGNUS_CHAT_GAP_MIN_BYTES");
    char label[128];
    snprintf(label, sizeof label, "%s, MAGNUS_CHAT_GAP=%s", what, gap);
    magnus_report r = multiply_checked(ctx, A, B, label);
    magnus_context_free(&ctx);
    return r;
}

/* The gap the runtime takes for divisor d: ceil(C-hat / d) elements, rounded up to 256. */
static uint64_t expected_gap_bytes(const magnus_report *r, uint64_t d, size_t value_bytes) {
    uint64_t n = (uint64_t)r->products_heavy, gap = (n + d - 1) / d;
    return ((gap + 255) & ~(uint64_t)255) * (4 + value_bytes);
}

/* Every divisor gives the reference's C (multiply_checked), in place when no heavy row is
 * longer than the gap; the in-place runs hold less device memory than two buffers. Divisor
 * 16 makes a dozen or more batches, so batch boundaries fall inside the rows' sequence many
 * times; both value types. */
Test(gmagnus, in_place_multisplit) {
    for (int t = 0; t < 2; t++) {
        const magnus_value_type type = both_types[t];
        if (!type_supported(magnus_test_context(), type)) continue;
        magnus_csr A = magnus_test_rmat(11, 8, 31 + (uint64_t)t, type);
        magnus_csr B = magnus_test_rmat(11, 8, 41 + (uint64_t)t, type);
        magnus_report off = multiply_with_gap("0", A, B, "rmat11 pair");
        cr_assert_eq(off.levels, 1, "the case needs exactly one multisplit level (%d)", off.levels);
        cr_assert_gt(off.rows_heavy, 0);
        cr_assert_eq(off.chat_gap_bytes, 0);
        const char *divisors[] = {"2", "3", "16"};
        int in_place = 0;
        for (size_t i = 0; i < sizeof divisors / sizeof *divisors; i++) {
            magnus_report r = multiply_with_gap(divisors[i], A, B, "rmat11 pair");
            cr_assert_eq(r.nnz_c, off.nnz_c);
            if (!r.chat_gap_bytes) continue; /* a heavy row longer than this gap */
            in_place++;
            cr_assert_eq(r.chat_gap_bytes,
                         expected_gap_bytes(&r, strtoull(divisors[i], NULL, 10),
                                            magnus_value_size(type)));
            cr_assert_lt(r.peak_device_bytes, off.peak_device_bytes,
                         "divisor %s: peak %llu, two buffers %llu", divisors[i],
                         (unsigned long long)r.peak_device_bytes,
                         (unsigned long long)off.peak_device_bytes);
        }
        cr_assert_geq(in_place, 2, "only %d of the divisors ran in place", in_place);
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
}

/* A heavy row longer than the gap: two buffers as before, and still the reference's C. */
static void pick_full_row0(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    if (row == 0) memset(mark, 1, (size_t)cols);
    else mark_random(row, cols, mark, seed, 3, 0, cols);
}
static void pick_uniform12(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_random(row, cols, mark, seed, 12, 0, cols);
}
Test(gmagnus, in_place_refused_for_a_long_row) {
    magnus_csr A = build(600, 800, MAGNUS_FLOAT32, pick_full_row0, 51);
    magnus_csr B = build(800, 4096, MAGNUS_FLOAT32, pick_uniform12, 52);
    magnus_report r = multiply_with_gap("64", A, B, "a full row");
    cr_assert_eq(r.levels, 1);
    cr_assert_gt(r.rows_heavy, 0);
    cr_assert_eq(r.chat_gap_bytes, 0, "row 0 holds far more than 1/64 of C-hat");
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

static void structured_case(magnus_context ctx, magnus_value_type type, bool small_budget) {
    magnus_csr L2 = NULL, L3 = NULL, W = NULL, N = NULL;
    ASSERT_OK(magnus_gen_laplacian_2d(&L2, 25, 17, type));
    ASSERT_OK(magnus_gen_laplacian_3d(&L3, 7, 6, 5, type));
    ASSERT_OK(magnus_gen_banded(&W, 600, 20, 25, 5, type)); /* 46 per row: 2116 products */
    ASSERT_OK(magnus_gen_banded(&N, 600, 1, 2, 6, type));
    multiply_checked(ctx, L2, L2, "laplace2d squared");
    multiply_checked(ctx, L3, L3, "laplace3d squared");
    magnus_report rw = multiply_checked(ctx, W, W, "wide band squared");
    if (small_budget) cr_assert_gt(rw.rows_heavy, 0);
    multiply_checked(ctx, W, N, "wide band x narrow band");
    multiply_checked(ctx, N, W, "narrow band x wide band");
    MAGNUS_TEST_FREE_CSRS(&L2, &L3, &W, &N);
}
Test(gmagnus, structured) { run_with_both_budgets_and_types(structured_case); }

static void random_rectangular_case(magnus_context ctx, magnus_value_type type,
                                    bool small_budget) {
    magnus_csr A = NULL, B = NULL;
    ASSERT_OK(magnus_gen_uniform(&A, 300, 2000, 20, magnus_test_seed(31), type));
    ASSERT_OK(magnus_gen_uniform(&B, 2000, 5000, 10, magnus_test_seed(32), type));
    magnus_report r = multiply_checked_and_free(ctx, &A, &B, "uniform 300x2000 x 2000x5000");
    if (small_budget) cr_assert_gt(r.rows_heavy, 0);
}
Test(gmagnus, random_rectangular) { run_with_both_budgets_and_types(random_rectangular_case); }

static void pick_dense_row(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_full_or_random(row == 7, row, cols, mark, seed, 3);
}
static void pick_uniform6(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_random(row, cols, mark, seed, 6, 0, cols);
}

/* One dense row of A: one very heavy row among light ones. */
static void single_dense_row_case(magnus_context ctx, magnus_value_type type, bool small_budget) {
    magnus_csr A = build(50, 800, type, pick_dense_row, 41);
    magnus_csr B = build(800, 900, type, pick_uniform6, 42);
    magnus_report r = multiply_checked_and_free(ctx, &A, &B, "dense row");
    if (small_budget) cr_assert_geq(r.rows_heavy, 1);
}
Test(gmagnus, single_dense_row) { run_with_both_budgets_and_types(single_dense_row_case); }

static void pick_dense_row3(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_full_or_random(row == 3, row, cols, mark, seed, 2);
}
static void pick_uniform40(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_random(row, cols, mark, seed, 40, 0, cols);
}

/* The device's whole local memory as the budget (every kernel's local memory at its largest,
 * static arrays included), asked for explicitly since the default is at most 48 KiB, with a
 * row heavy even there: row 3 of A is full, so its products are all of B's entries (about
 * A.cols x 40), and A.cols is derived from this device's tau at that budget (PoCL's local
 * memory follows the host's L2 cache: 1 MiB, 2 MiB, ... differ from machine to machine). */
Test(gmagnus, device_budget_heavy_row) {
    magnus_context ctx = magnus_test_whole_budget_context();
    cr_assert_eq(ctx->device.local_mem_bytes, ctx->device_local_mem_bytes);
    const int64_t b_cols = 100000, b_per_row = 40;
    magnus_gmagnus_params p;
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &ctx->device, b_cols, MAGNUS_FLOAT32));
    /* B's rows hold up to 40 columns (random picks may coincide): a margin, then the count */
    int64_t a_cols = p.tau / (b_per_row - 10) + 1;
    if (a_cols < 2000) a_cols = 2000;
    magnus_csr A = build(8, a_cols, MAGNUS_FLOAT32, pick_dense_row3, 45);
    magnus_csr B = build(a_cols, b_cols, MAGNUS_FLOAT32, pick_uniform40, 46);
    cr_assert_gt(B->row_ptr[a_cols], p.tau, "the full row of A would not be heavy");
    magnus_report r = multiply_checked(ctx, A, B, "dense row, whole device budget");
    cr_assert_eq(r.tau, p.tau);
    cr_assert_geq(r.rows_heavy, 1, "tau %lld, %lld products in the dense row", (long long)r.tau,
                  (long long)B->row_ptr[a_cols]);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

static void pick_with_col5(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark[5] = 1;
    mark_random(row, cols, mark, seed, 2, 0, cols);
}
static void pick_row5_dense(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_full_or_random(row == 5, row, cols, mark, seed, 2);
}

/* One dense column of A meeting a dense row of B: every row is heavy, and one outer-product
 * slice (600 x 1000 elements) spans many work groups. */
Test(gmagnus, single_dense_column) {
    magnus_context ctx = magnus_test_budget_context(SMALL_BUDGET);
    for (int t = 0; t < 2; t++) {
        if (!type_supported(ctx, both_types[t])) continue;
        magnus_csr A = build(600, 400, both_types[t], pick_with_col5, 51);
        magnus_csr B = build(400, 1000, both_types[t], pick_row5_dense, 52);
        magnus_report r = multiply_checked_and_free(ctx, &A, &B, "dense column");
        cr_assert_eq(r.rows_heavy, 600);
        cr_assert_gt(r.levels, 0);
    }
    magnus_context_free(&ctx);
}

/* ---- the heavy path's levels -------------------------------------------------------------- */

/* Heavy rows that pile products into a narrow column range, plus spread-out ones: a chunk
 * stays heavy at every level, and light chunks leave the loop at every level. */
static void pick_clustered_a(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_random(row, cols, mark, seed, row % 10 == 0 ? 160 : 2, 0, cols);
}
static void pick_clustered_b(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_random(row, cols, mark, seed, 12, 0, cols < 96 ? cols : 96);
    mark_random(row, cols, mark, seed ^ 0x55, 6, 0, cols);
}
/* A few dense rows times a band: every column range gets ~band products per column. */
static void pick_dense_rows(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    mark_full_or_random(row % 25 == 3, row, cols, mark, seed, 4);
}
/* A band of 51 columns around row * 22 (B is 3000 x 2^16): dense rows of A spread their
 * products over all of C's columns, ~2.3 per column. */
static void pick_band(int64_t row, int64_t cols, unsigned char *mark, uint64_t seed) {
    (void)seed;
    for (int64_t j = row * 22 - 25; j <= row * 22 + 25; j++)
        if (j >= 0 && j < cols) mark[j] = 1;
}

static void expect_levels(const magnus_csr_s *A, const magnus_csr_s *B, int levels,
                          const char *what) {
    magnus_context probe = magnus_test_context();
    uint64_t budget = magnus_test_budget_for_levels(probe, B->cols, A->type, levels);
    /* The search runs up to min(device, 256 KiB): a device with less local memory (or one
     * whose subgroups make a budget's histograms smaller) may have no such budget; that is
     * the device's shape, said in the skip. Up to the full range it is a failure. */
    if (!budget && probe->device_local_mem_bytes < 256 * 1024)
        cr_skip_test("%s: no budget up to this device's %llu bytes (subgroups of %d) plans %d "
                     "levels", what, (unsigned long long)probe->device_local_mem_bytes,
                     probe->device.subgroup_sizes[0], levels);
    cr_assert_gt(budget, 0, "%s: no budget gives %d levels for %lld columns", what, levels,
                 (long long)B->cols);
    magnus_context ctx = magnus_test_budget_context(budget);
    char label[160];
    snprintf(label, sizeof label, "%s, %d level(s), %llu-byte budget", what, levels,
             (unsigned long long)budget);
    magnus_report r = multiply_checked(ctx, A, B, label);
    cr_assert_gt(r.rows_heavy, 0, "%s: no heavy rows", label);
    cr_assert_eq(r.levels, levels, "%s: %d levels run", label, r.levels);
    cr_assert_gt(r.time_histogram_ms[levels - 1] + r.time_multisplit_ms[levels - 1], 0.0,
                 "%s: last level not timed", label);
    magnus_context_free(&ctx);
}

static void levels_case(int which, magnus_value_type type) {
    magnus_context probe = magnus_test_context();
    if (!type_supported(probe, type)) cr_skip_test("no fp64");
    magnus_csr A = NULL, B = NULL;
    const char *what = "";
    switch (which) {
    case 0: /* clustered products, C 2^15 wide */
        A = build(120, 300, type, pick_clustered_a, 61);
        B = build(300, 1 << 15, type, pick_clustered_b, 62);
        what = "clustered";
        break;
    case 1: /* R-MAT: power-law rows, columns skewed to low ids; B is the first 4096 rows of
             * a scale-16 R-MAT, so C is 2^16 wide (3 levels need a wide C on every device) */
        A = magnus_test_rmat(12, 1, 71, type);
        B = first_rows(magnus_test_rmat(16, 2, 72, type), 4096);
        what = "rmat12(1) x rmat16(2)[0:4096, :]";
        break;
    case 2: /* dense rows times a band */
        A = build(50, 3000, type, pick_dense_rows, 81);
        B = build(3000, 1 << 16, type, pick_band, 82);
        what = "dense rows x band";
        break;
    }
    for (int levels = 1; levels <= 3; levels++) expect_levels(A, B, levels, what);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

Test(gmagnus_levels, clustered_f32) { levels_case(0, MAGNUS_FLOAT32); }
Test(gmagnus_levels, rmat_f32) { levels_case(1, MAGNUS_FLOAT32); }
Test(gmagnus_levels, dense_rows_band_f64) { levels_case(2, MAGNUS_FLOAT64); }
Test(gmagnus_levels, clustered_f64) { levels_case(0, MAGNUS_FLOAT64); }

/* Without multisplit: C narrow enough for one dense accumulator, heavy rows go straight
 * from C-hat to it (levels 0, rows heavy). */
Test(gmagnus_levels, narrow_c_no_levels) {
    magnus_context ctx = magnus_test_budget_context(4096);
    magnus_csr A = build(200, 300, MAGNUS_FLOAT32, pick_clustered_a, 91);
    magnus_csr B = build(300, 200, MAGNUS_FLOAT32, pick_uniform6, 92);
    magnus_report r = multiply_checked_and_free(ctx, &A, &B, "narrow C");
    cr_assert_gt(r.rows_heavy, 0);
    cr_assert_eq(r.levels, 0);
    cr_assert_eq(r.chunks_required, 1);
    magnus_context_free(&ctx);
}

/* A budget too small for gMAGNUS is refused up front, not run with a global accumulator. */
Test(gmagnus, budget_too_small_refused) {
    magnus_context ctx = magnus_test_budget_context(16);
    magnus_csr A = magnus_test_rmat(6, 4, 5, MAGNUS_FLOAT32);
    magnus_csr C = NULL;
    magnus_spgemm_options opt = algorithm_options(MAGNUS_ALGORITHM_MAGNUS);
    magnus_status s = magnus_spgemm(&C, ctx, A, A, &opt, NULL);
    cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "%s", magnus_last_error());
    cr_assert_null(C);
    cr_assert(strstr(magnus_last_error(), "gMAGNUS") != NULL, "%s", magnus_last_error());
    magnus_csr_free(&A);
    magnus_context_free(&ctx);
}
