/*
 * Helpers shared by the reference, compare and generator tests (and ref_make by the device
 * SpGEMM tests' hand-computed products): building small CSR matrices from literal arrays,
 * dense copies for naive checks, and a status check that prints the detail message when it
 * fails.
 */
#ifndef MAGNUS_TESTS_REFERENCE_TEST_UTIL_H
#define MAGNUS_TESTS_REFERENCE_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "magnus/magnus.h"

#define REF_EXPECT_STATUS(call, status)                                                            \
    do {                                                                                           \
        magnus_status ref_s_ = (call);                                                             \
        cr_assert_eq(ref_s_, (status), "%s returned %d (%s: %s), expected %d", #call, ref_s_,      \
                     magnus_status_string(ref_s_), magnus_last_error(), (status));                 \
    } while (0)
#define REF_OK(call) REF_EXPECT_STATUS(call, MAGNUS_SUCCESS)

/* Frees every host matrix named (handles set to NULL, NULL ones skipped), for the tests'
 * clean-ups: MAGNUS_TEST_FREE_CSRS(&A, &B, &C). */
static inline void magnus_test_free_csrs(magnus_csr *const *list, size_t n) {
    for (size_t i = 0; i < n; i++) magnus_csr_free(list[i]);
}
#define MAGNUS_TEST_FREE_CSRS(...)                                                               \
    magnus_test_free_csrs((magnus_csr *[]){__VA_ARGS__},                                         \
                          sizeof((magnus_csr *[]){__VA_ARGS__}) / sizeof(magnus_csr *))

/* A rows x cols matrix from CSR arrays (row_ptr has rows+1 entries; values as doubles). */
static inline magnus_csr ref_make(int64_t rows, int64_t cols, const int64_t *row_ptr,
                                  const int32_t *col_idx, const double *values,
                                  magnus_value_type type) {
    int64_t nnz = row_ptr ? row_ptr[rows] : 0;
    magnus_csr A = NULL;
    REF_OK(magnus_csr_new(&A, rows, cols, nnz, type));
    if (row_ptr) memcpy(A->row_ptr, row_ptr, ((size_t)rows + 1) * sizeof *row_ptr);
    if (nnz) memcpy(A->col_idx, col_idx, (size_t)nnz * sizeof *col_idx);
    for (int64_t p = 0; p < nnz; p++) {
        if (type == MAGNUS_FLOAT32)
            ((float *)A->values)[p] = (float)values[p];
        else
            ((double *)A->values)[p] = values[p];
    }
    return A;
}

static inline double ref_value(const magnus_csr_s *A, int64_t p) {
    return A->type == MAGNUS_FLOAT32 ? (double)((const float *)A->values)[p]
                                     : ((const double *)A->values)[p];
}

static inline void ref_set_value(magnus_csr A, int64_t p, double v) {
    if (A->type == MAGNUS_FLOAT32)
        ((float *)A->values)[p] = (float)v;
    else
        ((double *)A->values)[p] = v;
}

/* Dense row-major copy of A (values) and of its pattern (1 where an entry is stored). */
static inline void ref_dense(const magnus_csr_s *A, double **values, unsigned char **pattern) {
    size_t n = (size_t)(A->rows * A->cols);
    *values = calloc(n ? n : 1, sizeof **values);
    *pattern = calloc(n ? n : 1, 1);
    cr_assert(*values && *pattern);
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
            (*values)[i * A->cols + A->col_idx[p]] = ref_value(A, p);
            (*pattern)[i * A->cols + A->col_idx[p]] = 1;
        }
}

/* Checks that A has exactly the given CSR arrays (values within tol, relative). */
static inline void ref_expect_csr(const magnus_csr_s *A, int64_t rows, int64_t cols,
                                  const int64_t *row_ptr, const int32_t *col_idx,
                                  const double *values, double tol) {
    cr_assert_eq(A->rows, rows);
    cr_assert_eq(A->cols, cols);
    cr_assert_eq(A->nnz, row_ptr[rows], "nnz %lld, expected %lld", (long long)A->nnz,
                 (long long)row_ptr[rows]);
    for (int64_t i = 0; i <= rows; i++)
        cr_assert_eq(A->row_ptr[i], row_ptr[i], "row_ptr[%lld]", (long long)i);
    for (int64_t p = 0; p < A->nnz; p++) {
        cr_assert_eq(A->col_idx[p], col_idx[p], "col_idx[%lld]", (long long)p);
        double v = ref_value(A, p), e = values[p];
        cr_assert(v == e || (v - e <= tol * (e < 0 ? -e : e) && e - v <= tol * (e < 0 ? -e : e)),
                  "value[%lld] = %.17g, expected %.17g", (long long)p, v, e);
    }
}

#endif
