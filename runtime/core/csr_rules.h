/*
 * The structure rules of a CSR matrix, one function per rule with its status and message, in
 * the order magnus_csr_validate applies them (runtime/host/csr.c): row_ptr[0], then row by row
 * (its two row pointers, then its entries in order), then row_ptr[rows]. The first rule broken
 * in that order is the matrix's error. Written once for the two places that report a broken
 * structure: magnus_csr_validate on host arrays, and the device check of a wrapped matrix
 * (runtime/device/device_csr_structure.c), which finds the first broken rule on the device and
 * reads back only the few values these messages name.
 */
#ifndef MAGNUS_CSR_RULES_H
#define MAGNUS_CSR_RULES_H

#include "internal.h"

/* row_ptr[0] is 0. */
static inline magnus_status magnus_csr_rule_first(int64_t first) {
    if (first != 0)
        return magnus_error(MAGNUS_ERROR_ROWPTR_INVALID, "row_ptr[0] = %lld, expected 0",
                            (long long)first);
    return MAGNUS_SUCCESS;
}

/* Row i's pointers b = row_ptr[i], e = row_ptr[i + 1]: b <= e <= nnz. */
static inline magnus_status magnus_csr_rule_row(int64_t i, int64_t b, int64_t e, int64_t nnz) {
    if (e < b)
        return magnus_error(MAGNUS_ERROR_ROWPTR_NOT_MONOTONE,
                            "row_ptr not monotone at row %lld: %lld then %lld", (long long)i,
                            (long long)b, (long long)e);
    if (e > nnz)
        return magnus_error(MAGNUS_ERROR_ROWPTR_INVALID, "row_ptr[%lld] = %lld exceeds nnz = %lld",
                            (long long)(i + 1), (long long)e, (long long)nnz);
    return MAGNUS_SUCCESS;
}

/* Entry p of row i, column c: 0 <= c < cols and, unless it is the row's first entry
 * (has_prev 0), above the column before it (prev). */
static inline magnus_status magnus_csr_rule_entry(int64_t i, int64_t p, int32_t c, int64_t cols,
                                                  int has_prev, int32_t prev) {
    if (c < 0 || c >= cols)
        return magnus_error(MAGNUS_ERROR_COLUMN_OUT_OF_RANGE,
                            "row %lld entry %lld: column %d outside 0..%lld", (long long)i,
                            (long long)p, c, (long long)cols - 1);
    if (has_prev && c == prev)
        return magnus_error(MAGNUS_ERROR_DUPLICATE_COLUMN,
                            "row %lld entry %lld: duplicate column %d", (long long)i,
                            (long long)p, c);
    if (has_prev && c < prev)
        return magnus_error(MAGNUS_ERROR_COLUMNS_UNSORTED,
                            "row %lld entry %lld: column %d after column %d", (long long)i,
                            (long long)p, c, prev);
    return MAGNUS_SUCCESS;
}

/* row_ptr[rows] is nnz (checked after every row: a row pointer past nnz is its row's error). */
static inline magnus_status magnus_csr_rule_last(int64_t last, int64_t nnz) {
    if (last != nnz)
        return magnus_error(MAGNUS_ERROR_ROWPTR_INVALID,
                            "row_ptr[rows] = %lld, expected nnz = %lld", (long long)last,
                            (long long)nnz);
    return MAGNUS_SUCCESS;
}

#endif
