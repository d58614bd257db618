/* Host CSR matrices: creation, copy, conversion, free, validation and row statistics. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csr_products.h"
#include "csr_rules.h"
#include "host_limit.h"
#include "internal.h"

size_t magnus_value_size(magnus_value_type type) {
    switch (type) {
    case MAGNUS_FLOAT32: return sizeof(float);
    case MAGNUS_FLOAT64: return sizeof(double);
    }
    return 0;
}

magnus_status magnus_csr_check_handle(const magnus_csr_s *A, const char *name) {
    if (!A) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "matrix %s is NULL", name);
    if (A->magic != MAGNUS_MAGIC_CSR)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE,
                            "matrix %s is not a live magnus_csr (freed or never created)", name);
    if (magnus_value_size(A->type) == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "matrix %s has unsupported value type %d",
                            name, (int)A->type);
    return MAGNUS_SUCCESS;
}

magnus_status magnus_csr_new(magnus_csr *out, int64_t rows, int64_t cols, int64_t nnz,
                             magnus_value_type type) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_csr_new: output is NULL");
    *out = NULL;
    size_t vsize = magnus_value_size(type);
    if (vsize == 0)
        return magnus_error(MAGNUS_ERROR_UNSUPPORTED_TYPE, "new matrix: value type %d", (int)type);
    if (rows < 0 || cols < 0 || nnz < 0 || rows > INT32_MAX || cols > INT32_MAX)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT,
                            "new matrix: %lld x %lld with %lld entries is out of range "
                            "(rows and cols at most 2^31-1)",
                            (long long)rows, (long long)cols, (long long)nnz);
    size_t ptr_bytes, col_bytes, val_bytes;
    if (!magnus_mul_size((size_t)rows + 1, sizeof(int64_t), &ptr_bytes) ||
        !magnus_mul_size((size_t)nnz, sizeof(int32_t), &col_bytes) ||
        !magnus_mul_size((size_t)nnz, vsize, &val_bytes))
        return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW, "new matrix: %lld entries overflow",
                            (long long)nnz);
    char what[160];
    snprintf(what, sizeof what, "a %lld x %lld CSR matrix with %lld entries", (long long)rows,
             (long long)cols, (long long)nnz);
    magnus_status limit = magnus_host_memory_check(
        (uint64_t)ptr_bytes + (uint64_t)col_bytes + (uint64_t)val_bytes, what);
    if (limit) return limit;
    int64_t *row_ptr = magnus_host_calloc((size_t)rows + 1, sizeof(int64_t));
    int32_t *col_idx = magnus_host_malloc(col_bytes);
    void *values = magnus_host_malloc(val_bytes);
    if (row_ptr && col_idx && values &&
        (*out = magnus_csr_handle_of(rows, cols, nnz, type, row_ptr, col_idx, values)))
        return MAGNUS_SUCCESS;
    magnus_host_free(row_ptr);
    magnus_host_free(col_idx);
    magnus_host_free(values);
    return magnus_error(MAGNUS_ERROR_OUT_OF_HOST_MEMORY,
                        "new matrix: cannot allocate %lld x %lld with %lld entries",
                        (long long)rows, (long long)cols, (long long)nnz);
}

magnus_status magnus_csr_convert(magnus_csr *out, const magnus_csr_s *in, magnus_value_type type) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_csr_convert: output is NULL");
    *out = NULL;
    /* Validated, as every entry point taking a matrix is: the copy reads row_ptr and nnz
     * entries, which a broken matrix may not have. */
    magnus_status s = magnus_csr_validate(in);
    if (s) return s;
    magnus_csr A;
    if ((s = magnus_csr_new(&A, in->rows, in->cols, in->nnz, type))) return s;
    memcpy(A->row_ptr, in->row_ptr, ((size_t)in->rows + 1) * sizeof(int64_t));
    memcpy(A->col_idx, in->col_idx, (size_t)in->nnz * sizeof(int32_t));
    if (in->type == type) {
        memcpy(A->values, in->values, (size_t)in->nnz * magnus_value_size(type));
    } else if (type == MAGNUS_FLOAT64) {
        const float *src = in->values;
        double *dst = A->values;
        for (int64_t i = 0; i < in->nnz; i++) dst[i] = src[i];
    } else {
        const double *src = in->values;
        float *dst = A->values;
        for (int64_t i = 0; i < in->nnz; i++) dst[i] = (float)src[i];
    }
    *out = A;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_csr_copy(magnus_csr *out, const magnus_csr_s *in) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_csr_copy: output is NULL");
    *out = NULL;
    magnus_status s = magnus_csr_check_handle(in, "in");
    if (s) return s;
    return magnus_csr_convert(out, in, in->type);
}

magnus_status magnus_csr_free(magnus_csr *A) {
    if (!A || !*A) return MAGNUS_SUCCESS;
    magnus_csr M = *A;
    if (M->magic != MAGNUS_MAGIC_CSR)
        return magnus_error(MAGNUS_ERROR_INVALID_HANDLE, "magnus_csr_free: not a live magnus_csr");
    M->magic = MAGNUS_MAGIC_FREED;
    magnus_host_free(M->row_ptr);
    magnus_host_free(M->col_idx);
    magnus_host_free(M->values);
    magnus_host_free(M);
    *A = NULL;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_csr_validate(const magnus_csr_s *A) {
    magnus_error_clear();
    magnus_status s = magnus_csr_check_handle(A, "A");
    if (s) return s;
    if (A->rows < 0 || A->cols < 0 || A->rows > INT32_MAX || A->cols > INT32_MAX || A->nnz < 0)
        return magnus_error(MAGNUS_ERROR_INVALID_ARGUMENT, "matrix is %lld x %lld with %lld entries",
                            (long long)A->rows, (long long)A->cols, (long long)A->nnz);
    if (!A->row_ptr || ((!A->col_idx || !A->values) && A->nnz > 0))
        return magnus_error(MAGNUS_ERROR_NULL_POINTER, "matrix arrays are NULL");
    /* the rules, in their order: runtime/core/csr_rules.h */
    if ((s = magnus_csr_rule_first(A->row_ptr[0]))) return s;
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t b = A->row_ptr[i], e = A->row_ptr[i + 1];
        if ((s = magnus_csr_rule_row(i, b, e, A->nnz))) return s;
        for (int64_t p = b; p < e; p++)
            if ((s = magnus_csr_rule_entry(i, p, A->col_idx[p], A->cols, p > b,
                                           p > b ? A->col_idx[p - 1] : 0)))
                return s;
    }
    return magnus_csr_rule_last(A->row_ptr[A->rows], A->nnz);
}

magnus_status magnus_csr_validate_operands(const magnus_csr_s *A, const magnus_csr_s *B,
                                           const char *where) {
    const magnus_csr_s *operand[2] = {A, B};
    for (int i = 0; i < 2; i++) {
        magnus_status s = magnus_csr_validate(operand[i]);
        if (s) {
            magnus_error_prefix("%s%c: ", where, "AB"[i]);
            return s;
        }
    }
    return MAGNUS_SUCCESS;
}

magnus_status magnus_csr_stats_compute(magnus_csr_stats *out, const magnus_csr_s *A,
                                       const magnus_csr_s *B) {
    magnus_error_clear();
    if (!out) return magnus_error(MAGNUS_ERROR_NULL_POINTER, "magnus_csr_stats_compute: output is NULL");
    memset(out, 0, sizeof *out);
    magnus_status s;
    if (!B) B = A;
    /* Validated first: the product count follows A's columns into B's row pointers. */
    if ((s = magnus_csr_validate_operands(A, B, ""))) return s;
    if (A->cols != B->rows)
        return magnus_error(MAGNUS_ERROR_DIMENSION_MISMATCH, "A is %lld x %lld, B is %lld x %lld",
                            (long long)A->rows, (long long)A->cols, (long long)B->rows,
                            (long long)B->cols);
    double sum = 0, sum2 = 0;
    out->row_nnz_min = A->rows ? INT64_MAX : 0;
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        if (len < out->row_nnz_min) out->row_nnz_min = len;
        if (len > out->row_nnz_max) out->row_nnz_max = len;
        if (len == 0) out->empty_rows++;
        sum += (double)len;
        sum2 += (double)len * (double)len;
    }
    magnus_products n;
    if ((s = magnus_products_count(&n, A, B, INT64_MAX))) return s;
    out->products = n.total;
    out->row_products_max = n.row_max;
    if (A->rows) {
        out->row_nnz_mean = sum / (double)A->rows;
        double var = sum2 / (double)A->rows - out->row_nnz_mean * out->row_nnz_mean;
        out->row_nnz_std = var > 0 ? sqrt(var) : 0;
    }
    return MAGNUS_SUCCESS;
}
