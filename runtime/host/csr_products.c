/* The products of A·B (csr_products.h), overflow-checked in 64 bits. */
#include "csr_products.h"

#include <string.h>

#include "internal.h"

magnus_status magnus_products_count(magnus_products *out, const magnus_csr_s *A,
                                    const magnus_csr_s *B, int64_t threshold) {
    memset(out, 0, sizeof *out);
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t row = 0;
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++) {
            int32_t k = A->col_idx[p]; /* in 0 .. B->rows - 1: A is valid, A->cols == B->rows */
            if (!magnus_add_i64(row, B->row_ptr[k + 1] - B->row_ptr[k], &row))
                return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW,
                                    "row %lld of A·B has more than 2^63 - 1 products",
                                    (long long)i);
        }
        if (!magnus_add_i64(out->total, row, &out->total))
            return magnus_error(MAGNUS_ERROR_SIZE_OVERFLOW,
                                "A·B has more than 2^63 - 1 intermediate products");
        if (row > out->row_max) out->row_max = row;
        if (row > threshold) {
            out->rows_above++;
            out->products_above += row; /* a part of the total: cannot overflow */
        }
    }
    return MAGNUS_SUCCESS;
}
