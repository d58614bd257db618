/*
 * The fake cuSPARSE's SpMV (bench --op spmv; fake_cusparse.c says what the fake is): y =
 * alpha*A*x + beta*y on the host memory the fake driver hands out, summed in double, from a
 * CSR, a COO or a sliced ELL whose layout is checked.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fake_cusparse.h"

struct cusparseDnVecDescr {
    int64_t size;
    void *values;
    cudaDataType type;
};

EXPORT cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *d, int64_t size, void *values,
                                            cudaDataType type) {
    if ((type != CUDA_R_32F && type != CUDA_R_64F) || (size > 0 && !values))
        return CUSPARSE_STATUS_INVALID_VALUE;
    *d = calloc(1, sizeof **d);
    if (!*d) return CUSPARSE_STATUS_ALLOC_FAILED;
    **d = (struct cusparseDnVecDescr){size, values, type};
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t d) {
    free((void *)d);
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseCreateCoo(cusparseSpMatDescr_t *d, int64_t rows, int64_t cols,
                                          int64_t nnz, void *row_idx, void *col_idx, void *values,
                                          cusparseIndexType_t idx_type, cusparseIndexBase_t base,
                                          cudaDataType type) {
    if (idx_type != CUSPARSE_INDEX_32I || base != CUSPARSE_INDEX_BASE_ZERO ||
        (type != CUDA_R_32F && type != CUDA_R_64F) || (nnz > 0 && (!row_idx || !col_idx)))
        return CUSPARSE_STATUS_INVALID_VALUE;
    *d = calloc(1, sizeof **d);
    if (!*d) return CUSPARSE_STATUS_ALLOC_FAILED;
    **d = (struct cusparseSpMatDescr){.rows = rows, .cols = cols, .nnz = nnz, .col_idx = col_idx,
                                      .values = values, .type = type, .coo_row = row_idx};
    return CUSPARSE_STATUS_SUCCESS;
}

#ifndef FAKE_CUSPARSE_OLD
EXPORT cusparseStatus_t cusparseGetStream(cusparseHandle_t h, cudaStream_t *stream) {
    if (!h || !stream) return CUSPARSE_STATUS_INVALID_VALUE;
    *stream = NULL; /* a new handle's: the default stream */
    return CUSPARSE_STATUS_SUCCESS;
}

EXPORT cusparseStatus_t cusparseCreateSlicedEll(
    cusparseSpMatDescr_t *d, int64_t rows, int64_t cols, int64_t nnz, int64_t values_size,
    int64_t slice, void *offsets, void *col_idx, void *values, cusparseIndexType_t offsets_type,
    cusparseIndexType_t col_type, cusparseIndexBase_t base, cudaDataType type) {
    if (offsets_type != CUSPARSE_INDEX_32I || col_type != CUSPARSE_INDEX_32I ||
        base != CUSPARSE_INDEX_BASE_ZERO || (type != CUDA_R_32F && type != CUDA_R_64F) ||
        slice <= 0 || values_size < nnz || !offsets || (values_size > 0 && (!col_idx || !values)))
        return CUSPARSE_STATUS_INVALID_VALUE;
    *d = calloc(1, sizeof **d);
    if (!*d) return CUSPARSE_STATUS_ALLOC_FAILED;
    **d = (struct cusparseSpMatDescr){.rows = rows, .cols = cols, .nnz = nnz, .row_ptr = offsets,
                                      .col_idx = col_idx, .values = values, .type = type,
                                      .slice = slice, .sell_size = values_size};
    return CUSPARSE_STATUS_SUCCESS;
}
#endif

/* What a product takes on the fake device, us: a fixed cost per algorithm, 1 less after
 * cusparseSpMV_preprocess, 1 for a product that writes nothing (fast, and wrong). Distinct,
 * so that the fastest variant is known: COO ALG1 with preprocess. */
static double spmv_cost_us(cusparseSpMVAlg_t alg, bool preprocessed, bool silent) {
    if (silent) return 1;
    double us = alg == CUSPARSE_SPMV_ALG_DEFAULT ? 8
                : alg == CUSPARSE_SPMV_CSR_ALG1  ? 6
                : alg == CUSPARSE_SPMV_CSR_ALG2  ? 10
                : alg == CUSPARSE_SPMV_COO_ALG1  ? 4
                : alg == CUSPARSE_SPMV_COO_ALG2  ? 12
                                                 : 14;
    return preprocessed ? us - 1 : us;
}

static const char *spmv_alg_name(cusparseSpMVAlg_t alg) {
    switch (alg) {
    case CUSPARSE_SPMV_ALG_DEFAULT: return "ALG_DEFAULT";
    case CUSPARSE_SPMV_CSR_ALG1: return "CSR_ALG1";
    case CUSPARSE_SPMV_CSR_ALG2: return "CSR_ALG2";
    case CUSPARSE_SPMV_COO_ALG1: return "COO_ALG1";
    case CUSPARSE_SPMV_COO_ALG2: return "COO_ALG2";
    case CUSPARSE_SPMV_SELL_ALG1: return "SELL_ALG1";
    default: return "?";
    }
}

/* The algorithms a format takes (cuSPARSE refuses the others: CUSPARSE_STATUS_INVALID_VALUE). */
static bool alg_fits(cusparseConstSpMatDescr_t A, cusparseSpMVAlg_t alg) {
    if (alg == CUSPARSE_SPMV_ALG_DEFAULT) return true;
    if (A->coo_row) return alg == CUSPARSE_SPMV_COO_ALG1 || alg == CUSPARSE_SPMV_COO_ALG2;
    if (A->slice) return alg == CUSPARSE_SPMV_SELL_ALG1;
    return alg == CUSPARSE_SPMV_CSR_ALG1 || alg == CUSPARSE_SPMV_CSR_ALG2;
}

static bool spmv_args_fit(cusparseHandle_t h, cusparseOperation_t op, const void *alpha,
                          cusparseConstSpMatDescr_t A, cusparseConstDnVecDescr_t x,
                          const void *beta, cusparseDnVecDescr_t y, cudaDataType type,
                          cusparseSpMVAlg_t alg) {
    return h && alpha && beta && A && x && y && op == CUSPARSE_OPERATION_NON_TRANSPOSE &&
           A->cols == x->size && A->rows == y->size && type == A->type && type == x->type &&
           type == y->type && alg_fits(A, alg);
}

EXPORT cusparseStatus_t cusparseSpMV_bufferSize(cusparseHandle_t h, cusparseOperation_t op,
                                                const void *alpha, cusparseConstSpMatDescr_t A,
                                                cusparseConstDnVecDescr_t x, const void *beta,
                                                cusparseDnVecDescr_t y, cudaDataType type,
                                                cusparseSpMVAlg_t alg, size_t *bytes) {
    if (!spmv_args_fit(h, op, alpha, A, x, beta, y, type, alg) || !bytes)
        return CUSPARSE_STATUS_INVALID_VALUE;
    *bytes = 64;
    return CUSPARSE_STATUS_SUCCESS;
}

#ifndef FAKE_CUSPARSE_OLD
EXPORT cusparseStatus_t cusparseSpMV_preprocess(cusparseHandle_t h, cusparseOperation_t op,
                                                const void *alpha, cusparseConstSpMatDescr_t A,
                                                cusparseConstDnVecDescr_t x, const void *beta,
                                                cusparseDnVecDescr_t y, cudaDataType type,
                                                cusparseSpMVAlg_t alg, void *buffer) {
    if (!spmv_args_fit(h, op, alpha, A, x, beta, y, type, alg) || !buffer)
        return CUSPARSE_STATUS_INVALID_VALUE;
    if (fake_listed(getenv("FAKE_CUSPARSE_NO_PREPROCESS"), spmv_alg_name(alg)))
        return CUSPARSE_STATUS_NOT_SUPPORTED;
    fake_device_clock_ms += 0.02; /* the analysis takes 20 us */
    struct cusparseSpMatDescr *M = (struct cusparseSpMatDescr *)A; /* its analysis lives there */
    M->preprocessed = true;
    M->pre_alg = alg;
    M->pre_buffer = buffer;
    return CUSPARSE_STATUS_SUCCESS;
}
#endif

/* Row sums of a sliced ELL into sum[], its layout checked: offsets from 0 to sell_size in
 * whole columns of `slice` entries, each row's entries first, then padding (column -1, value
 * 0) to the slice's width, the rows past the last all padding, nnz entries in all. */
static bool sell_sums(cusparseConstSpMatDescr_t A, const void *x, bool f64, double *sum) {
    const int32_t *off = A->row_ptr, *col = A->col_idx;
    const int64_t slices = (A->rows + A->slice - 1) / A->slice;
    if (off[0] != 0 || off[slices] != A->sell_size) return false;
    int64_t entries = 0;
    for (int64_t s = 0; s < slices; s++) {
        const int64_t span = off[s + 1] - off[s];
        if (span < 0 || span % A->slice) return false;
        for (int64_t r = 0; r < A->slice; r++) {
            const int64_t i = s * A->slice + r;
            bool padding = i >= A->rows;
            for (int64_t k = 0; k < span / A->slice; k++) {
                const int64_t at = off[s] + k * A->slice + r;
                const int32_t c = col[at];
                if (c == -1) {
                    if (fake_value(A, at) != 0) return false;
                    padding = true;
                    continue;
                }
                if (padding || c < 0 || c >= A->cols) return false;
                sum[i] += fake_value(A, at) * (f64 ? ((const double *)x)[c] : ((const float *)x)[c]);
                entries++;
            }
        }
    }
    return entries == A->nnz;
}

EXPORT cusparseStatus_t cusparseSpMV(cusparseHandle_t h, cusparseOperation_t op, const void *alpha,
                                     cusparseConstSpMatDescr_t A, cusparseConstDnVecDescr_t x,
                                     const void *beta, cusparseDnVecDescr_t y, cudaDataType type,
                                     cusparseSpMVAlg_t alg, void *buffer) {
    if (fake_listed(getenv("FAKE_CUSPARSE_FAIL"), "SPMV")) return CUSPARSE_STATUS_INTERNAL_ERROR;
    if (!spmv_args_fit(h, op, alpha, A, x, beta, y, type, alg) || !buffer ||
        (A->preprocessed && (alg != A->pre_alg || buffer != A->pre_buffer)))
        return CUSPARSE_STATUS_INVALID_VALUE;
    const bool silent = fake_listed(getenv("FAKE_CUSPARSE_SPMV_SILENT"), spmv_alg_name(alg));
    fake_device_clock_ms += spmv_cost_us(alg, A->preprocessed, silent) * 1e-3;
    if (silent) return CUSPARSE_STATUS_SUCCESS;
    const bool f64 = type == CUDA_R_64F;
    const double a = f64 ? *(const double *)alpha : *(const float *)alpha;
    const double b = f64 ? *(const double *)beta : *(const float *)beta;
    double *sum = calloc((size_t)A->rows + 1, sizeof *sum);
    if (!sum) return CUSPARSE_STATUS_ALLOC_FAILED;
    const int32_t *ptr = A->row_ptr, *col = A->col_idx, *coo_row = A->coo_row;
    if (A->slice && !sell_sums(A, x->values, f64, sum)) {
        free(sum);
        return CUSPARSE_STATUS_INVALID_VALUE;
    }
    for (int64_t e = 0; coo_row && e < A->nnz; e++)
        sum[coo_row[e]] += fake_value(A, e) * (f64 ? ((const double *)x->values)[col[e]]
                                                   : ((const float *)x->values)[col[e]]);
    for (int64_t i = 0; !A->slice && !coo_row && i < A->rows; i++)
        for (int32_t e = ptr[i]; e < ptr[i + 1]; e++)
            sum[i] += fake_value(A, e) * (f64 ? ((const double *)x->values)[col[e]]
                                              : ((const float *)x->values)[col[e]]);
    for (int64_t i = 0; i < A->rows; i++) {
        if (f64) {
            double *yv = y->values;
            yv[i] = a * sum[i] + (b != 0 ? b * yv[i] : 0);
        } else {
            float *yv = y->values;
            yv[i] = (float)(a * sum[i] + (b != 0 ? b * yv[i] : 0));
        }
    }
    free(sum);
    return CUSPARSE_STATUS_SUCCESS;
}
