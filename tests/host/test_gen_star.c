/*
 * The star-mixture generator (magnus_gen_star): exact structure counts (L rows of LEN
 * entries, every other row's length from its hub columns), valid sorted distinct columns,
 * every hub a column of at least min(DEG, n-L) short rows, max/mean row length, the wide rows
 * of A*A it is built for, determinism per seed, f32 as f64 truncated, degenerate shapes,
 * argument errors and allocation failures.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "magnus/magnus.h"
#include "reference_test_util.h"

static int64_t row_len(const magnus_csr_s *A, int64_t i) {
    return A->row_ptr[i + 1] - A->row_ptr[i];
}

static bool same_matrix(const magnus_csr_s *A, const magnus_csr_s *B) {
    if (A->rows != B->rows || A->cols != B->cols || A->nnz != B->nnz || A->type != B->type)
        return false;
    return memcmp(A->row_ptr, B->row_ptr, (size_t)(A->rows + 1) * sizeof(int64_t)) == 0 &&
           memcmp(A->col_idx, B->col_idx, (size_t)A->nnz * sizeof(int32_t)) == 0 &&
           memcmp(A->values, B->values, (size_t)A->nnz * magnus_value_size(A->type)) == 0;
}

static bool has_column(const magnus_csr_s *A, int64_t i, int32_t col) {
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
        if (A->col_idx[p] == col) return true;
    return false;
}

/* Checks the whole structure of star(n, L, len, deg) as the generator documents it; the
 * long rows are found as the rows of exactly len entries (len > max(deg, L) makes them the
 * only ones). */
static void expect_star(const magnus_csr_s *A, int64_t n, int64_t L, int64_t len, int64_t deg) {
    cr_assert(len > deg && len > L, "test parameters: LEN must exceed DEG and LONG");
    cr_assert_eq(A->rows, n);
    cr_assert_eq(A->cols, n);
    cr_assert_eq(A->row_ptr[0], 0);
    unsigned char *is_hub = calloc((size_t)n + 1, 1);
    int64_t hubs = 0;
    for (int64_t i = 0; i < n; i++) {
        cr_assert(row_len(A, i) >= 0);
        if (row_len(A, i) == len) {
            is_hub[i] = 1;
            hubs++;
        }
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
            cr_assert(A->col_idx[p] >= 0 && A->col_idx[p] < n, "row %lld col %d", (long long)i,
                      A->col_idx[p]);
            if (p > A->row_ptr[i])
                cr_assert(A->col_idx[p] > A->col_idx[p - 1], "row %lld not strictly sorted",
                          (long long)i);
            double v = ref_value(A, p);
            cr_assert(v >= 0.5 && v < 1.5, "value %.17g outside [0.5, 1.5)", v);
        }
    }
    cr_assert_eq(hubs, L, "rows of %lld entries: %lld, expected %lld", (long long)len,
                 (long long)hubs, (long long)L);
    /* A short row holds DEG entries, or only hub columns when more than DEG hubs chose it. */
    int64_t short_entries = 0;
    for (int64_t i = 0; i < n; i++) {
        if (is_hub[i]) continue;
        int64_t k = row_len(A, i), hub_cols = 0;
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) hub_cols += is_hub[A->col_idx[p]];
        cr_assert(k == deg || (k > deg && hub_cols == k),
                  "short row %lld: %lld entries, %lld hub columns, DEG %lld", (long long)i,
                  (long long)k, (long long)hub_cols, (long long)deg);
        short_entries += k;
    }
    cr_assert_eq(A->nnz, L * len + short_entries);
    if (deg >= L) cr_assert_eq(A->nnz, L * len + (n - L) * deg, "DEG >= LONG: short rows exact");
    /* Every hub is a column of at least min(DEG, n-L) short rows (its spokes; a short row's
     * own random columns may add more). */
    int64_t spokes = deg < n - L ? deg : n - L;
    for (int64_t r = 0; r < n; r++) {
        if (!is_hub[r]) continue;
        int64_t rows_with_r = 0;
        for (int64_t i = 0; i < n; i++) rows_with_r += !is_hub[i] && has_column(A, i, (int32_t)r);
        cr_assert(rows_with_r >= spokes, "hub %lld is a column of %lld short rows, < %lld",
                  (long long)r, (long long)rows_with_r, (long long)spokes);
    }
    free(is_hub);
}

Test(star, structure_counts_exact) {
    struct { int64_t n, L, len, deg; } cases[] = {
        {1000, 3, 400, 4},  /* DEG >= LONG: every short row exactly DEG */
        {500, 9, 120, 2},   /* LONG > DEG: some short rows hold only hub columns */
        {300, 1, 300, 0},   /* DEG 0: no spokes, short rows empty; a long row of every column */
        {64, 0, 5, 3},      /* no long rows: a plain uniform matrix of DEG per row */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int t = 0; t < 2; t++) {
            magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
            magnus_csr A = NULL;
            REF_OK(magnus_gen_star(&A, cases[c].n, cases[c].L, cases[c].len, cases[c].deg,
                                   11 + c, type));
            cr_assert_eq(A->type, type);
            expect_star(A, cases[c].n, cases[c].L, cases[c].len, cases[c].deg);
            magnus_csr_free(&A);
        }
    }
}

Test(star, max_over_mean_and_wide_product_rows) {
    /* The shape in small: a few rows of 10^4 entries among rows of 3. */
    const int64_t n = 60000, L = 2, len = 12000, deg = 3;
    magnus_csr A = NULL;
    REF_OK(magnus_gen_star(&A, n, L, len, deg, 5, MAGNUS_FLOAT64));
    magnus_csr_stats st;
    REF_OK(magnus_csr_stats_compute(&st, A, A));
    cr_assert_eq(st.row_nnz_max, len);
    cr_assert_eq(A->nnz, L * len + (n - L) * deg);
    double mean = (double)A->nnz / (double)n;
    cr_assert_float_eq(st.row_nnz_mean, mean, 1e-9);
    cr_assert_geq(st.row_nnz_max / st.row_nnz_mean, 1000.0);
    /* Values are positive, so nothing cancels: a row of C holding hub column r holds all of
     * hub r's LEN columns; the L*DEG spokes and the L hub rows are each at least LEN wide. */
    magnus_csr C = NULL;
    REF_OK(magnus_reference_spgemm(&C, NULL, A, A));
    int64_t wide = 0;
    for (int64_t i = 0; i < n; i++) wide += C->row_ptr[i + 1] - C->row_ptr[i] >= len;
    cr_assert_geq(wide, L + L * deg, "%lld rows of C at least %lld wide", (long long)wide,
                  (long long)len);
    magnus_csr_free(&C);
    magnus_csr_free(&A);
}

Test(star, deterministic_per_seed) {
    magnus_csr A = NULL, B = NULL, D = NULL, A32 = NULL;
    REF_OK(magnus_gen_star(&A, 2000, 4, 700, 5, 42, MAGNUS_FLOAT64));
    REF_OK(magnus_gen_star(&B, 2000, 4, 700, 5, 42, MAGNUS_FLOAT64));
    REF_OK(magnus_gen_star(&D, 2000, 4, 700, 5, 43, MAGNUS_FLOAT64));
    cr_assert(same_matrix(A, B), "the same seed gave different matrices");
    cr_assert_eq(D->nnz, A->nnz, "DEG >= LONG fixes nnz whatever the seed");
    bool rows_differ = memcmp(A->col_idx, D->col_idx, (size_t)A->nnz * sizeof(int32_t)) != 0;
    cr_assert(rows_differ, "seeds 42 and 43 gave the same columns");
    /* f32 is the f64 matrix truncated to float (the values share their random bits). */
    REF_OK(magnus_gen_star(&A32, 2000, 4, 700, 5, 42, MAGNUS_FLOAT32));
    cr_assert_eq(A32->nnz, A->nnz);
    cr_assert(!memcmp(A32->col_idx, A->col_idx, (size_t)A->nnz * sizeof(int32_t)));
    for (int64_t p = 0; p < A->nnz; p++) {
        double v64 = ((const double *)A->values)[p];
        float v32 = ((const float *)A32->values)[p];
        cr_assert(v32 <= v64 && v64 - v32 < 0x1.0p-23, "value %lld: %.9g vs %.17g",
                  (long long)p, v32, v64);
    }
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&D);
    magnus_csr_free(&A32);
}

Test(star, degenerate_shapes) {
    magnus_csr A = NULL;
    REF_OK(magnus_gen_star(&A, 0, 0, 0, 0, 1, MAGNUS_FLOAT32));
    cr_assert_eq(A->rows, 0);
    cr_assert_eq(A->nnz, 0);
    magnus_csr_free(&A);
    /* every row long: no short rows, no spokes */
    REF_OK(magnus_gen_star(&A, 50, 50, 7, 3, 1, MAGNUS_FLOAT32));
    cr_assert_eq(A->nnz, 50 * 7);
    for (int64_t i = 0; i < 50; i++) cr_assert_eq(row_len(A, i), 7);
    magnus_csr_free(&A);
    /* DEG = n: short rows full */
    REF_OK(magnus_gen_star(&A, 20, 2, 20, 20, 1, MAGNUS_FLOAT64));
    cr_assert_eq(A->nnz, 20 * 20);
    magnus_csr_free(&A);
}

Test(star, invalid_arguments) {
    magnus_csr A = (magnus_csr)(uintptr_t)1;
    REF_EXPECT_STATUS(magnus_gen_star(NULL, 10, 1, 2, 2, 1, MAGNUS_FLOAT32),
                      MAGNUS_ERROR_NULL_POINTER);
    const int64_t bad[][4] = {
        {-1, 0, 0, 0}, {10, -1, 2, 2}, {10, 1, -2, 2}, {10, 1, 2, -2},
        {10, 11, 2, 2}, {10, 1, 11, 2}, {10, 1, 2, 11}, {(int64_t)INT32_MAX + 1, 1, 2, 2},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        REF_EXPECT_STATUS(magnus_gen_star(&A, bad[c][0], bad[c][1], bad[c][2], bad[c][3], 1,
                                          MAGNUS_FLOAT32),
                          MAGNUS_ERROR_INVALID_ARGUMENT);
        cr_assert_null(A);
        cr_assert(strstr(magnus_last_error(), "star"), "message: %s", magnus_last_error());
        A = (magnus_csr)(uintptr_t)1;
    }
    REF_EXPECT_STATUS(magnus_gen_star(&A, 10, 1, 2, 2, 1, (magnus_value_type)99),
                      MAGNUS_ERROR_UNSUPPORTED_TYPE);
    cr_assert_null(A);
}

Test(star, allocation_failures) {
    bool succeeded = false;
    for (int64_t n = 0; n < 50 && !succeeded; n++) {
        magnus_csr A = NULL;
        magnus_host_alloc_fail_after(n);
        magnus_status s = magnus_gen_star(&A, 300, 5, 100, 3, 1, MAGNUS_FLOAT64);
        magnus_host_alloc_fail_after(-1);
        if (s == MAGNUS_SUCCESS) {
            succeeded = true;
            magnus_csr_free(&A);
            continue;
        }
        cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "after %lld: %s", (long long)n,
                     magnus_last_error());
        cr_assert_null(A);
    }
    cr_assert(succeeded);
}
