/*
 * CPU reference SpGEMM: hand-computed products, products checked against a naive dense
 * triple loop, empty and degenerate shapes, argument errors, allocation failures, and nnz of
 * A·A for every shared real matrix against the independent counts of INDEX.tsv.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csr_products.h"
#include "internal.h"
#include "magnus/magnus.h"
#include "reference_spgemm.h"
#include "reference_test_util.h"
#include "matrix_index_test_util.h"
#include "require_test_util.h"

static const magnus_value_type both_types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};

/* ---- hand-computed products ---------------------------------------------------------- */

/* A = [1 0 2; 0 3 0] (2x3), B = [1 2; 0 1; 4 0] (3x2): C = [9 2; 0 3], so row 1 has only
 * column 1 (A[1,1]*B[1,:] = 3*[0 1]). */
Test(reference, hand_rectangular) {
    for (int t = 0; t < 2; t++) {
        magnus_csr A = ref_make(2, 3, (int64_t[]){0, 2, 3}, (int32_t[]){0, 2, 1},
                                (double[]){1, 2, 3}, both_types[t]);
        magnus_csr B = ref_make(3, 2, (int64_t[]){0, 2, 3, 4}, (int32_t[]){0, 1, 1, 0},
                                (double[]){1, 2, 1, 4}, both_types[t]);
        magnus_csr C = NULL;
        REF_OK(magnus_reference_spgemm(&C, NULL, A, B));
        cr_assert_eq(C->type, both_types[t]);
        ref_expect_csr(C, 2, 2, (int64_t[]){0, 2, 3}, (int32_t[]){0, 1, 1}, (double[]){9, 2, 3}, 0);
        MAGNUS_TEST_FREE_CSRS(&A, &B, &C);
    }
}

/* The products of A·B (runtime/host/csr_products.h) for the matrices above: row 0 of A
 * names B rows 0 (2 entries) and 2 (1), row 1 names B row 1 (1): 3 + 1 products; split at
 * 1, row 0 is above. An empty A has none. */
Test(reference, products_count_by_row) {
    magnus_csr A = ref_make(2, 3, (int64_t[]){0, 2, 3}, (int32_t[]){0, 2, 1},
                            (double[]){1, 2, 3}, MAGNUS_FLOAT32);
    magnus_csr B = ref_make(3, 2, (int64_t[]){0, 2, 3, 4}, (int32_t[]){0, 1, 1, 0},
                            (double[]){1, 2, 1, 4}, MAGNUS_FLOAT32);
    magnus_products n;
    REF_OK(magnus_products_count(&n, A, B, 1));
    cr_expect_eq(n.total, 4);
    cr_expect_eq(n.row_max, 3);
    cr_expect_eq(n.rows_above, 1);
    cr_expect_eq(n.products_above, 3);
    REF_OK(magnus_products_count(&n, A, B, INT64_MAX));
    cr_expect_eq(n.total, 4);
    cr_expect_eq(n.rows_above, 0);
    cr_expect_eq(n.products_above, 0);
    REF_OK(magnus_products_count(&n, A, B, 0));
    cr_expect_eq(n.rows_above, 2);
    cr_expect_eq(n.products_above, 4);
    magnus_csr E = ref_make(0, 3, (int64_t[]){0}, (int32_t[]){0}, (double[]){0}, MAGNUS_FLOAT32);
    REF_OK(magnus_products_count(&n, E, B, 0));
    cr_expect_eq(n.total, 0);
    cr_expect_eq(n.row_max, 0);
    cr_expect_eq(n.rows_above, 0);
    MAGNUS_TEST_FREE_CSRS(&A, &B, &E);
}

/* A = [1 1], B = [1 0; -1 2]: C[0,0] = 1*1 + 1*(-1) = 0 stays as an explicit zero;
 * |A|·|B| = [2 2]. */
Test(reference, cancellation_keeps_explicit_zero) {
    for (int t = 0; t < 2; t++) {
        magnus_csr A =
            ref_make(1, 2, (int64_t[]){0, 2}, (int32_t[]){0, 1}, (double[]){1, 1}, both_types[t]);
        magnus_csr B = ref_make(2, 2, (int64_t[]){0, 1, 3}, (int32_t[]){0, 0, 1},
                                (double[]){1, -1, 2}, both_types[t]);
        magnus_csr C = NULL, M = NULL;
        REF_OK(magnus_reference_spgemm(&C, &M, A, B));
        ref_expect_csr(C, 1, 2, (int64_t[]){0, 2}, (int32_t[]){0, 1}, (double[]){0, 2}, 0);
        ref_expect_csr(M, 1, 2, (int64_t[]){0, 2}, (int32_t[]){0, 1}, (double[]){2, 2}, 0);
        cr_assert_eq(M->type, C->type);
        MAGNUS_TEST_FREE_CSRS(&A, &B, &C, &M);
    }
}

/* A = [0 1 0; 0 0 0; 1 0 1], B = [2 0 0; 0 0 0; 0 0 3]: row 0 of C hits B's empty row 1, row 1
 * of A is empty, row 2 = B[0,:] + B[2,:] = [2 0 3]. */
Test(reference, empty_rows) {
    magnus_csr A = ref_make(3, 3, (int64_t[]){0, 1, 1, 3}, (int32_t[]){1, 0, 2},
                            (double[]){1, 1, 1}, MAGNUS_FLOAT64);
    magnus_csr B = ref_make(3, 3, (int64_t[]){0, 1, 1, 2}, (int32_t[]){0, 2}, (double[]){2, 3},
                            MAGNUS_FLOAT64);
    magnus_csr C = NULL;
    REF_OK(magnus_reference_spgemm(&C, NULL, A, B));
    ref_expect_csr(C, 3, 3, (int64_t[]){0, 0, 0, 2}, (int32_t[]){0, 2}, (double[]){2, 3}, 0);
    MAGNUS_TEST_FREE_CSRS(&A, &B, &C);
}

Test(reference, one_by_one) {
    for (int t = 0; t < 2; t++) {
        magnus_csr A =
            ref_make(1, 1, (int64_t[]){0, 1}, (int32_t[]){0}, (double[]){2}, both_types[t]);
        magnus_csr B =
            ref_make(1, 1, (int64_t[]){0, 1}, (int32_t[]){0}, (double[]){-3}, both_types[t]);
        magnus_csr C = NULL, M = NULL;
        REF_OK(magnus_reference_spgemm(&C, &M, A, B));
        ref_expect_csr(C, 1, 1, (int64_t[]){0, 1}, (int32_t[]){0}, (double[]){-6}, 0);
        ref_expect_csr(M, 1, 1, (int64_t[]){0, 1}, (int32_t[]){0}, (double[]){6}, 0);
        MAGNUS_TEST_FREE_CSRS(&A, &B, &C, &M);
    }
}

/* Values are accumulated in double and rounded once: in float32, 1 + 2^-24 + 2^-24 sums to
 * 1 + 2^-23 (representable), whereas float accumulation would round 1 + 2^-24 back to 1
 * twice. */
Test(reference, accumulates_in_double) {
    double tiny = ldexp(1.0, -24);
    magnus_csr A = ref_make(1, 3, (int64_t[]){0, 3}, (int32_t[]){0, 1, 2}, (double[]){1, 1, 1},
                            MAGNUS_FLOAT32);
    magnus_csr B = ref_make(3, 1, (int64_t[]){0, 1, 2, 3}, (int32_t[]){0, 0, 0},
                            (double[]){1, tiny, tiny}, MAGNUS_FLOAT32);
    magnus_csr C = NULL;
    REF_OK(magnus_reference_spgemm(&C, NULL, A, B));
    cr_assert_eq(((float *)C->values)[0], 1.0f + ldexpf(1.0f, -23));
    MAGNUS_TEST_FREE_CSRS(&A, &B, &C);
}

/* ---- degenerate shapes ------------------------------------------------------------------ */

static void expect_empty_product(int64_t m, int64_t k, int64_t n) {
    magnus_csr A = NULL, B = NULL, C = NULL, M = NULL;
    REF_OK(magnus_csr_new(&A, m, k, 0, MAGNUS_FLOAT64));
    REF_OK(magnus_csr_new(&B, k, n, 0, MAGNUS_FLOAT64));
    REF_OK(magnus_reference_spgemm(&C, &M, A, B));
    cr_assert_eq(C->rows, m, "%lld x %lld times %lld x %lld", (long long)m, (long long)k,
                 (long long)k, (long long)n);
    cr_assert_eq(C->cols, n);
    cr_assert_eq(C->nnz, 0);
    cr_assert_eq(M->nnz, 0);
    REF_OK(magnus_csr_validate(C));
    MAGNUS_TEST_FREE_CSRS(&A, &B, &C, &M);
}

Test(reference, empty_shapes) {
    expect_empty_product(0, 0, 0);
    expect_empty_product(0, 5, 3);
    expect_empty_product(4, 0, 3);
    expect_empty_product(4, 3, 0);
    expect_empty_product(3, 4, 2); /* all rows empty */
}

/* ---- against a naive dense product -------------------------------------------------------- */

/* C = A·B with A m x k, B k x n from the uniform generator, checked entry by entry against a
 * dense triple loop: an entry is stored iff some product A[i,l]*B[l,j] exists. */
static void check_against_dense(int64_t m, int64_t k, int64_t n, double a_per_row, double b_per_row,
                                magnus_value_type type, uint64_t seed) {
    magnus_csr A = NULL, B = NULL, C = NULL, M = NULL;
    REF_OK(magnus_gen_uniform(&A, m, k, a_per_row, seed, type));
    REF_OK(magnus_gen_uniform(&B, k, n, b_per_row, seed + 1, type));
    /* Negative values too, so magnitude differs from |C|. */
    for (int64_t p = 0; p < A->nnz; p += 3) ref_set_value(A, p, -ref_value(A, p));
    REF_OK(magnus_reference_spgemm(&C, &M, A, B));
    REF_OK(magnus_csr_validate(C));

    double *da, *db;
    unsigned char *pa, *pb;
    ref_dense(A, &da, &pa);
    ref_dense(B, &db, &pb);
    double *dc = calloc((size_t)(m * n) + 1, sizeof *dc),
           *dm = calloc((size_t)(m * n) + 1, sizeof *dm);
    unsigned char *pc = calloc((size_t)(m * n) + 1, 1);
    cr_assert(dc && dm && pc);
    for (int64_t i = 0; i < m; i++)
        for (int64_t l = 0; l < k; l++)
            if (pa[i * k + l])
                for (int64_t j = 0; j < n; j++)
                    if (pb[l * n + j]) {
                        dc[i * n + j] += da[i * k + l] * db[l * n + j];
                        dm[i * n + j] += fabs(da[i * k + l] * db[l * n + j]);
                        pc[i * n + j] = 1;
                    }
    double *cv, *mv;
    unsigned char *cp, *mp;
    ref_dense(C, &cv, &cp);
    ref_dense(M, &mv, &mp);
    double tol = type == MAGNUS_FLOAT32 ? 1e-6 : 1e-14;
    int64_t stored = 0;
    for (int64_t x = 0; x < m * n; x++) {
        cr_assert_eq(cp[x], pc[x], "%lldx%lldx%lld: entry (%lld,%lld) stored %d, expected %d",
                     (long long)m, (long long)k, (long long)n, (long long)(x / n),
                     (long long)(x % n), cp[x], pc[x]);
        cr_assert_eq(mp[x], pc[x]);
        cr_assert(fabs(cv[x] - dc[x]) <= tol * dm[x], "(%lld,%lld): %.17g vs %.17g",
                  (long long)(x / n), (long long)(x % n), cv[x], dc[x]);
        cr_assert(fabs(mv[x] - dm[x]) <= tol * dm[x]);
        stored += pc[x];
    }
    cr_assert_eq(C->nnz, stored);
    free(da), free(db), free(pa), free(pb), free(dc), free(dm), free(pc);
    free(cv), free(mv), free(cp), free(mp);
    MAGNUS_TEST_FREE_CSRS(&A, &B, &C, &M);
}

Test(reference, rectangular_against_dense) {
    for (int t = 0; t < 2; t++) {
        check_against_dense(37, 23, 41, 3.5, 2.5, both_types[t], 11);  /* small, some empty rows */
        check_against_dense(23, 41, 37, 0.7, 5.0, both_types[t], 12);  /* many empty rows of A */
        check_against_dense(40, 200, 5000, 10, 20, both_types[t], 13); /* long rows: radix sort */
        check_against_dense(30, 50, 60, 20, 30, both_types[t], 14);    /* nearly dense rows */
    }
}

/* Rows are independent and summed in a fixed order, so any thread count gives identical bits. */
Test(reference, thread_count_does_not_change_result) {
    magnus_rmat_options opt;
    REF_OK(magnus_rmat_options_init(&opt));
    opt.scale = 11;
    opt.type = MAGNUS_FLOAT64;
    magnus_csr A = NULL, C1 = NULL, C3 = NULL, M1 = NULL, M3 = NULL;
    REF_OK(magnus_gen_rmat(&A, &opt, NULL, NULL));
    REF_OK(magnus_reference_spgemm_threads(&C1, &M1, A, A, 1));
    REF_OK(magnus_reference_spgemm_threads(&C3, &M3, A, A, 3));
    cr_assert_eq(C1->nnz, C3->nnz);
    cr_assert(C1->nnz > 0);
    cr_assert_eq(memcmp(C1->row_ptr, C3->row_ptr, (size_t)(C1->rows + 1) * sizeof(int64_t)), 0);
    cr_assert_eq(memcmp(C1->col_idx, C3->col_idx, (size_t)C1->nnz * sizeof(int32_t)), 0);
    cr_assert_eq(memcmp(C1->values, C3->values, (size_t)C1->nnz * sizeof(double)), 0);
    cr_assert_eq(memcmp(M1->values, M3->values, (size_t)C1->nnz * sizeof(double)), 0);
    int64_t count = 0;
    REF_OK(magnus_reference_count(&count, A, A, 2));
    cr_assert_eq(count, C1->nnz);
    MAGNUS_TEST_FREE_CSRS(&A, &C1, &C3, &M1, &M3);
}

/* ---- wide B: the hash accumulator ------------------------------------------------------- */

/* B of 2^31 - 1 columns holding 3 entries: the accumulators must be sized by the entries, not
 * by the columns (a dense one would take 2^31 slots, 40 GiB over 2 threads). Every host
 * allocation above 1 MiB fails here, as does a limit of 64 MiB on the host memory. */
Test(reference, wide_columns_take_memory_of_the_entries) {
    const int32_t last = INT32_MAX - 1;
    setenv("MAGNUS_HOST_MEMORY_LIMIT", "64M", 1);
    for (int t = 0; t < 2; t++) {
        /* A = [1 0; 2 3], B = [1 at 0, 2 at last; 4 at 4] */
        magnus_csr A = ref_make(2, 2, (int64_t[]){0, 1, 3}, (int32_t[]){0, 0, 1},
                                (double[]){1, 2, 3}, both_types[t]);
        magnus_csr B = ref_make(2, INT32_MAX, (int64_t[]){0, 2, 3}, (int32_t[]){0, last, 4},
                                (double[]){1, 2, 4}, both_types[t]);
        magnus_host_alloc_limit(1 << 20);
        for (int threads = 1; threads <= 2; threads++) {
            magnus_csr C = NULL, M = NULL;
            REF_OK(magnus_reference_spgemm_threads(&C, &M, A, B, threads));
            ref_expect_csr(C, 2, INT32_MAX, (int64_t[]){0, 2, 5}, (int32_t[]){0, last, 0, 4, last},
                           (double[]){1, 2, 2, 12, 4}, 0);
            ref_expect_csr(M, 2, INT32_MAX, (int64_t[]){0, 2, 5}, (int32_t[]){0, last, 0, 4, last},
                           (double[]){1, 2, 2, 12, 4}, 0);
            int64_t nnz = 0;
            REF_OK(magnus_reference_count(&nnz, A, B, threads));
            cr_assert_eq(nnz, 5);
            magnus_csr_free(&C);
            magnus_csr_free(&M);
        }
        magnus_host_alloc_limit(0);
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
    unsetenv("MAGNUS_HOST_MEMORY_LIMIT");
}

/* The accumulators are checked against the host memory limit before they are allocated:
 * 60,000 columns take a dense accumulator of 700 KiB (1.1 MiB with the magnitude), above a
 * limit of 512 KiB. */
Test(reference, accumulators_respect_the_host_memory_limit) {
    magnus_csr A = ref_make(1, 1, (int64_t[]){0, 1}, (int32_t[]){0}, (double[]){1},
                            MAGNUS_FLOAT64);
    magnus_csr B = ref_make(1, 60000, (int64_t[]){0, 1}, (int32_t[]){59999}, (double[]){2},
                            MAGNUS_FLOAT64);
    magnus_csr C = NULL, M = NULL;
    setenv("MAGNUS_HOST_MEMORY_LIMIT", "512K", 1);
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, &M, A, B), MAGNUS_ERROR_OUT_OF_HOST_MEMORY);
    const char *m = magnus_last_error();
    cr_assert(strstr(m, "CPU reference: the accumulator workspace for 60000 columns") &&
                  strstr(m, "MAGNUS_HOST_MEMORY_LIMIT"),
              "%s", m);
    cr_assert_null(C);
    cr_assert_null(M);
    int64_t nnz = -1;
    REF_EXPECT_STATUS(magnus_reference_count(&nnz, A, B, 1), MAGNUS_ERROR_OUT_OF_HOST_MEMORY);
    unsetenv("MAGNUS_HOST_MEMORY_LIMIT");
    REF_OK(magnus_reference_spgemm(&C, NULL, A, B));
    cr_assert_eq(C->nnz, 1);
    MAGNUS_TEST_FREE_CSRS(&A, &B, &C);
}

/* The same B twice: narrow (dense accumulator) and with its columns spread over 2^31 - 1
 * (hash accumulator; strides of a power of two and of an odd number, so that the hash sees
 * clustered keys too): the same entries in the mapped columns, bit for bit, with 1 and 3
 * threads. Rows of hundreds of products take the radix sort and long probe chains. */
static void expect_spread_product_identical(int64_t stride, magnus_value_type type) {
    magnus_csr A = NULL, B = NULL, Bw = NULL;
    REF_OK(magnus_gen_uniform(&A, 300, 200, 8, 21, type));
    REF_OK(magnus_gen_uniform(&B, 200, 5000, 30, 22, type));
    for (int64_t p = 0; p < A->nnz; p += 3) ref_set_value(A, p, -ref_value(A, p));
    REF_OK(magnus_csr_copy(&Bw, B));
    Bw->cols = INT32_MAX;
    for (int64_t p = 0; p < Bw->nnz; p++) Bw->col_idx[p] = (int32_t)(B->col_idx[p] * stride + 5);
    for (int threads = 1; threads <= 3; threads += 2) {
        magnus_csr C = NULL, M = NULL, Cw = NULL, Mw = NULL;
        REF_OK(magnus_reference_spgemm_threads(&C, &M, A, B, threads));
        REF_OK(magnus_reference_spgemm_threads(&Cw, &Mw, A, Bw, threads));
        cr_assert_eq(Cw->cols, INT32_MAX);
        cr_assert_eq(Cw->nnz, C->nnz);
        cr_assert_gt(C->nnz, 10000);
        cr_assert_eq(memcmp(C->row_ptr, Cw->row_ptr, (size_t)(C->rows + 1) * sizeof(int64_t)), 0);
        for (int64_t p = 0; p < C->nnz; p++) {
            cr_assert_eq((int64_t)Cw->col_idx[p], C->col_idx[p] * stride + 5, "entry %lld",
                         (long long)p);
            cr_assert_eq(Mw->col_idx[p], Cw->col_idx[p]);
        }
        size_t vb = magnus_value_size(type);
        cr_assert_eq(memcmp(C->values, Cw->values, (size_t)C->nnz * vb), 0);
        cr_assert_eq(memcmp(M->values, Mw->values, (size_t)C->nnz * vb), 0);
        int64_t nnz = 0;
        REF_OK(magnus_reference_count(&nnz, A, Bw, threads));
        cr_assert_eq(nnz, C->nnz);
        MAGNUS_TEST_FREE_CSRS(&C, &M, &Cw, &Mw);
    }
    MAGNUS_TEST_FREE_CSRS(&A, &B, &Bw);
}

Test(reference, hash_accumulator_matches_the_dense_one) {
    for (int t = 0; t < 2; t++) {
        expect_spread_product_identical(1 << 18, both_types[t]); /* 5000 * 2^18 < 2^31 */
        expect_spread_product_identical(429481, both_types[t]);  /* odd, 5000 * it < 2^31 */
    }
}

/* ---- argument errors ------------------------------------------------------------------- */

Test(reference, dimension_mismatch_names_both_shapes) {
    magnus_csr A = NULL, B = NULL, C = (magnus_csr)1;
    REF_OK(magnus_csr_new(&A, 2, 3, 0, MAGNUS_FLOAT64));
    REF_OK(magnus_csr_new(&B, 2, 3, 0, MAGNUS_FLOAT64));
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, NULL, A, B), MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_null(C);
    cr_assert_not_null(strstr(magnus_last_error(), "A is 2 x 3, B is 2 x 3"), "%s",
                       magnus_last_error());
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

Test(reference, mixed_types_rejected) {
    magnus_csr A = NULL, B = NULL, C = NULL;
    REF_OK(magnus_csr_new(&A, 2, 2, 0, MAGNUS_FLOAT32));
    REF_OK(magnus_csr_new(&B, 2, 2, 0, MAGNUS_FLOAT64));
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, NULL, A, B), MAGNUS_ERROR_UNSUPPORTED_TYPE);
    cr_assert_null(C);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

Test(reference, invalid_inputs_rejected) {
    magnus_csr good =
        ref_make(2, 2, (int64_t[]){0, 1, 2}, (int32_t[]){0, 1}, (double[]){1, 1}, MAGNUS_FLOAT64);
    magnus_csr unsorted =
        ref_make(2, 2, (int64_t[]){0, 2, 2}, (int32_t[]){1, 0}, (double[]){1, 1}, MAGNUS_FLOAT64);
    magnus_csr C = NULL, M = (magnus_csr)1;
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, &M, unsorted, good),
                      MAGNUS_ERROR_COLUMNS_UNSORTED);
    cr_assert_null(C);
    cr_assert_null(M);
    cr_assert_not_null(strstr(magnus_last_error(), "A: "), "%s", magnus_last_error());
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, NULL, good, unsorted),
                      MAGNUS_ERROR_COLUMNS_UNSORTED);
    cr_assert_not_null(strstr(magnus_last_error(), "B: "), "%s", magnus_last_error());
    good->col_idx[1] = 2; /* out of range */
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, NULL, good, good),
                      MAGNUS_ERROR_COLUMN_OUT_OF_RANGE);
    good->col_idx[1] = 1;

    REF_EXPECT_STATUS(magnus_reference_spgemm(NULL, NULL, good, good), MAGNUS_ERROR_NULL_POINTER);
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, NULL, NULL, good), MAGNUS_ERROR_NULL_POINTER);
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, NULL, good, NULL), MAGNUS_ERROR_NULL_POINTER);
    magnus_csr_s forged = *good;
    forged.magic = 0;
    REF_EXPECT_STATUS(magnus_reference_spgemm(&C, NULL, &forged, good),
                      MAGNUS_ERROR_INVALID_HANDLE);
    cr_assert_null(C);
    magnus_csr_free(&good);
    magnus_csr_free(&unsorted);
}

/* Every allocation failure is reported as out of host memory and leaks nothing (the
 * sanitizer build checks the leaks). */
Test(reference, allocation_failures) {
    magnus_csr A = NULL;
    REF_OK(magnus_gen_uniform(&A, 50, 50, 4, 3, MAGNUS_FLOAT64));
    bool succeeded = false;
    for (int64_t n = 0; n < 100 && !succeeded; n++) {
        for (int threads = 1; threads <= 2; threads++) {
            magnus_csr C = NULL, M = NULL;
            magnus_host_alloc_fail_after(n);
            magnus_status s = magnus_reference_spgemm_threads(&C, &M, A, A, threads);
            magnus_host_alloc_fail_after(-1);
            if (s == MAGNUS_SUCCESS) {
                succeeded = true;
                magnus_csr_free(&C);
                magnus_csr_free(&M);
                continue;
            }
            cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_HOST_MEMORY, "after %lld allocations: %s",
                         (long long)n, magnus_last_error());
            cr_assert_null(C);
            cr_assert_null(M);
        }
    }
    cr_assert(succeeded);
    magnus_csr_free(&A);
}

/* ---- the shared real matrices ---------------------------------------------------------- */

typedef struct index_columns {
    int name, file, products, nnz_axa;
} index_columns;

Test(reference, shared_matrices_squared, .timeout = 300) {
    const char *dir = MAGNUS_SHARED_MATRICES;
    char index_path[1024];
    snprintf(index_path, sizeof index_path, "%s/INDEX.tsv", dir);
    FILE *f = fopen(index_path, "r");
    if (!f) magnus_test_no_shared("no shared matrices: %s not found", index_path);
    char line[8192];
    char *fields[64];
    cr_assert_not_null(fgets(line, sizeof line, f));
    int nf = index_split_tabs(line, fields, 64);
    index_columns col = {index_column_of(fields, nf, "name"), index_column_of(fields, nf, "file"),
                         index_column_of(fields, nf, "AxA_products"), index_column_of(fields, nf, "nnz_AxA")};
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        nf = index_split_tabs(line, fields, 64);
        if (nf <= col.nnz_axa || nf <= col.products || nf <= col.file) continue;
        char path[2048];
        cr_assert(index_find_matrix_file(dir, fields[col.file], path, sizeof path), "%s: no file %s",
                  fields[col.name], fields[col.file]);
        long long want_nnz = atoll(fields[col.nnz_axa]),
                  want_products = atoll(fields[col.products]);
        magnus_csr A = NULL, C = NULL;
        /* float32 and no magnitude: the largest product (81M entries) stays at 650 MB. */
        REF_OK(magnus_mm_read(&A, path, MAGNUS_FLOAT32, NULL, NULL));
        magnus_csr_stats stats;
        REF_OK(magnus_csr_stats_compute(&stats, A, A));
        cr_expect_eq(stats.products, want_products, "%s: %lld products, INDEX.tsv says %lld",
                     fields[col.name], (long long)stats.products, want_products);
        REF_OK(magnus_reference_spgemm(&C, NULL, A, A));
        REF_OK(magnus_csr_validate(C));
        cr_expect_eq(C->nnz, want_nnz, "%s: nnz(A*A) = %lld, INDEX.tsv says %lld", fields[col.name],
                     (long long)C->nnz, want_nnz);
        cr_log_info("%s: nnz(A*A) = %lld, %lld products", fields[col.name], (long long)C->nnz,
                    (long long)stats.products);
        magnus_csr_free(&A);
        magnus_csr_free(&C);
        checked++;
    }
    fclose(f);
    cr_assert(checked > 0, "INDEX.tsv lists no matrices");
}
