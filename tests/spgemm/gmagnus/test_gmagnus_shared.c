/*
 * The shared real matrices (INDEX.tsv and NAME.mtx.gz in the directory the environment's
 * MAGNUS_SHARED_MATRICES names, else the build's, beside the checkout) multiplied by gMAGNUS on the device and checked entry by entry against the CPU
 * reference: A·A, or A·Aᵀ for a matrix that is not square, at a 4 KiB local-memory budget
 * (tau is small there, so most rows are heavy and the outer product, multisplit and chunks run
 * on real structures), and at the default budget. Part of the spgemm_gmagnus executable; runs
 * with MAGNUS_TEST_SHARED=1 only (the entries spgemm_gmagnus_shared_*).
 *
 * Every matrix INDEX.tsv lists runs. One with more intermediate products than the limit
 * (MAGNUS_TEST_SHARED_MAX_PRODUCTS, default 5M, what PoCL on 2 cores multiplies in about a
 * second; MAGNUS_TEST_LARGE=1: no limit) is multiplied through a sample of its rows: every
 * s-th row and the row of most products (s = ceil(products / limit) + 1, so the sample stays
 * near the limit), times the whole A (or Aᵀ), at the 4 KiB budget only. Whole products of square
 * matrices are also checked against INDEX.tsv's nnz_AxA (an independent count).
 * A missing directory or file skips the test (fails it with MAGNUS_REQUIRE_SHARED_MATRICES=1).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device_test_util.h"
#include "magnus/magnus.h"
#include "matrix_index_test_util.h"
#include "require_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

#define SHARED_BUDGET 4096 /* bytes of local memory per work group */

static int shared_enabled(void) {
    const char *e = getenv("MAGNUS_TEST_SHARED");
    return e && *e && strcmp(e, "0") != 0;
}

/* ---- the operands ------------------------------------------------------------------------- */

/* Aᵀ (a counting sort by column: rows of Aᵀ come out sorted). */
static magnus_csr transpose(const magnus_csr_s *A) {
    magnus_csr T = NULL;
    ASSERT_OK(magnus_csr_new(&T, A->cols, A->rows, A->nnz, A->type));
    const size_t vs = magnus_value_size(A->type);
    memset(T->row_ptr, 0, ((size_t)A->cols + 1) * sizeof *T->row_ptr);
    for (int64_t k = 0; k < A->nnz; k++) T->row_ptr[A->col_idx[k] + 1]++;
    for (int64_t c = 0; c < A->cols; c++) T->row_ptr[c + 1] += T->row_ptr[c];
    int64_t *next = malloc(((size_t)A->cols + 1) * sizeof *next);
    cr_assert_not_null(next);
    memcpy(next, T->row_ptr, ((size_t)A->cols + 1) * sizeof *next);
    for (int64_t r = 0; r < A->rows; r++)
        for (int64_t k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            int64_t q = next[A->col_idx[k]]++;
            T->col_idx[q] = (int32_t)r;
            memcpy((char *)T->values + (size_t)q * vs, (const char *)A->values + (size_t)k * vs, vs);
        }
    free(next);
    ASSERT_OK(magnus_csr_validate(T));
    return T;
}

/* Intermediate products of row r of A times B. */
static int64_t row_products(const magnus_csr_s *A, const magnus_csr_s *B, int64_t r) {
    int64_t p = 0;
    for (int64_t k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++)
        p += B->row_ptr[A->col_idx[k] + 1] - B->row_ptr[A->col_idx[k]];
    return p;
}

/* The rows of A with r % step == 0, and the row of most products (against B) wherever it is:
 * a sample of A's structure for A·B within a product limit. */
static magnus_csr sample_rows(const magnus_csr_s *A, const magnus_csr_s *B, int64_t step) {
    int64_t heaviest = 0, most = -1;
    for (int64_t r = 0; r < A->rows; r++) {
        int64_t p = row_products(A, B, r);
        if (p > most) most = p, heaviest = r;
    }
    int64_t rows = 0, nnz = 0;
    for (int64_t r = 0; r < A->rows; r++)
        if (r % step == 0 || r == heaviest) rows++, nnz += A->row_ptr[r + 1] - A->row_ptr[r];
    magnus_csr S = NULL;
    ASSERT_OK(magnus_csr_new(&S, rows, A->cols, nnz, A->type));
    const size_t vs = magnus_value_size(A->type);
    int64_t i = 0, q = 0;
    for (int64_t r = 0; r < A->rows; r++) {
        if (r % step != 0 && r != heaviest) continue;
        int64_t n = A->row_ptr[r + 1] - A->row_ptr[r];
        S->row_ptr[i++] = q;
        memcpy(S->col_idx + q, A->col_idx + A->row_ptr[r], (size_t)n * sizeof *S->col_idx);
        memcpy((char *)S->values + (size_t)q * vs, (const char *)A->values + A->row_ptr[r] * vs,
               (size_t)n * vs);
        q += n;
    }
    S->row_ptr[rows] = q;
    return S;
}

static int64_t all_products(const magnus_csr_s *A, const magnus_csr_s *B) {
    int64_t p = 0;
    for (int64_t r = 0; r < A->rows; r++) p += row_products(A, B, r);
    return p;
}

/* ---- the tests ---------------------------------------------------------------------------- */

Test(gmagnus_shared, transpose_helper) {
    /* [[1 0 2] [0 3 0]]ᵀ = [[1 0] [0 3] [2 0]] */
    magnus_csr A = NULL;
    ASSERT_OK(magnus_csr_new(&A, 2, 3, 3, MAGNUS_FLOAT64));
    memcpy(A->row_ptr, (int64_t[]){0, 2, 3}, 3 * sizeof(int64_t));
    memcpy(A->col_idx, (int32_t[]){0, 2, 1}, 3 * sizeof(int32_t));
    memcpy(A->values, (double[]){1, 2, 3}, 3 * sizeof(double));
    magnus_csr T = transpose(A);
    cr_assert_eq(T->rows, 3);
    cr_assert_eq(T->cols, 2);
    cr_assert_arr_eq(T->row_ptr, ((int64_t[]){0, 1, 2, 3}), 4 * sizeof(int64_t));
    cr_assert_arr_eq(T->col_idx, ((int32_t[]){0, 1, 0}), 3 * sizeof(int32_t));
    cr_assert_arr_eq(T->values, ((double[]){1, 3, 2}), 3 * sizeof(double));
    magnus_csr_free(&A);
    magnus_csr_free(&T);
}

Test(gmagnus_shared, every_matrix_at_4k, .timeout = 1800) {
    if (!shared_enabled()) cr_skip_test("MAGNUS_TEST_SHARED=1 runs the shared matrices");
    const char *dir = getenv("MAGNUS_SHARED_MATRICES"); /* a copy elsewhere (GPU machines) */
    if (!dir || !*dir) dir = MAGNUS_SHARED_MATRICES;
    char index_path[1024];
    snprintf(index_path, sizeof index_path, "%s/INDEX.tsv", dir);
    FILE *f = fopen(index_path, "r");
    if (!f) magnus_test_no_shared("no shared matrices: %s not found", index_path);
    int64_t limit = magnus_test_large() ? INT64_MAX : 5000000;
    const char *cap = getenv("MAGNUS_TEST_SHARED_MAX_PRODUCTS");
    if (cap && *cap) limit = atoll(cap);
    char line[8192], *fields[64];
    cr_assert_not_null(fgets(line, sizeof line, f));
    int nf = index_split_tabs(line, fields, 64);
    const int cname = index_column_of(fields, nf, "name"), cfile = index_column_of(fields, nf, "file"),
              cnnz = index_column_of(fields, nf, "nnz_AxA");
    magnus_context small = magnus_test_budget_context(SHARED_BUDGET);
    magnus_context dflt = magnus_test_context();
    int done = 0, sampled = 0, missing = 0;
    char first_missing[256] = "";
    while (fgets(line, sizeof line, f)) {
        nf = index_split_tabs(line, fields, 64);
        if (nf <= cname || nf <= cfile || nf <= cnnz || !*fields[cfile]) continue;
        char path[2048];
        if (!index_find_matrix_file(dir, fields[cfile], path, sizeof path)) {
            if (!missing++) snprintf(first_missing, sizeof first_missing, "%s", fields[cfile]);
            continue;
        }
        magnus_value_type type = done % 2 ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        if (type == MAGNUS_FLOAT64 && !small->device.fp64) type = MAGNUS_FLOAT32;
        magnus_csr A = NULL;
        ASSERT_OK(magnus_mm_read(&A, path, type, NULL, NULL));
        const bool square = A->rows == A->cols;
        magnus_csr T = square ? NULL : transpose(A);
        const magnus_csr_s *B = square ? A : T;
        const int64_t products = all_products(A, B);
        char label[512];
        magnus_report rep;
        int64_t ref_nnz;
        magnus_csr C = NULL;
        if (products <= limit) {
            snprintf(label, sizeof label, "%s %s (4 KiB budget)", fields[cname],
                     square ? "A*A" : "A*A^T");
            C = multiply_and_compare(&rep, &ref_nnz, small, A, B, MAGNUS_ALGORITHM_MAGNUS, label);
            if (square)
                cr_expect_eq(rep.nnz_c, atoll(fields[cnnz]), "%s: nnz %lld, INDEX.tsv says %s",
                             label, (long long)rep.nnz_c, fields[cnnz]);
            magnus_csr_free(&C);
            printf("%-28s %s products %lld heavy rows %lld of %lld levels %d\n", fields[cname],
                   square ? "A*A  " : "A*A^T", (long long)products, (long long)rep.rows_heavy,
                   (long long)A->rows, rep.levels);
            snprintf(label, sizeof label, "%s %s (default budget)", fields[cname],
                     square ? "A*A" : "A*A^T");
            C = multiply_and_compare(&rep, &ref_nnz, dflt, A, B, MAGNUS_ALGORITHM_MAGNUS, label);
            magnus_csr_free(&C);
        } else {
            const int64_t step = (products + limit - 1) / limit + 1; /* + 1: the heaviest row */
            magnus_csr S = sample_rows(A, B, step);
            snprintf(label, sizeof label, "%s every %lld-th row %s (4 KiB budget)", fields[cname],
                     (long long)step, square ? "*A" : "*A^T");
            C = multiply_and_compare(&rep, &ref_nnz, small, S, B, MAGNUS_ALGORITHM_MAGNUS, label);
            magnus_csr_free(&C);
            printf("%-28s rows/%-4lld products %lld of %lld heavy rows %lld of %lld levels %d\n",
                   fields[cname], (long long)step, (long long)rep.products_total,
                   (long long)products, (long long)rep.rows_heavy, (long long)S->rows,
                   rep.levels);
            magnus_csr_free(&S);
            sampled++;
        }
        fflush(stdout);
        magnus_csr_free(&T);
        magnus_csr_free(&A);
        done++;
    }
    fclose(f);
    magnus_context_free(&small);
    printf("gmagnus shared: %d matrices multiplied and checked (%d through a sample of rows, "
           "limit %lld products), %d listed but missing\n", done, sampled, (long long)limit,
           missing);
    if (missing)
        magnus_test_no_shared("%d matrices of INDEX.tsv missing from %s (first: %s)", missing,
                              dir, first_missing);
    cr_assert_gt(done, 0, "no shared matrix was multiplied");
}
