/*
 * The products of A·B: the multiply-adds a row-by-row SpGEMM performs, row i having the sum
 * over A's row i of the lengths of the B rows it names (an upper bound on the row's nnz in C).
 * One count for everyone who needs it: the SpGEMM entry points (refusing a product past
 * 2^63), the matrix statistics, the gMAGNUS plan's heavy split, the CPU reference's choice of
 * threads.
 */
#ifndef MAGNUS_CSR_PRODUCTS_H
#define MAGNUS_CSR_PRODUCTS_H

#include <stdint.h>

#include "magnus/magnus.h"

typedef struct magnus_products {
    int64_t total;          /* products of A·B */
    int64_t row_max;        /* the largest row's (0 without rows) */
    int64_t rows_above;     /* rows with more than the threshold */
    int64_t products_above; /* the products of those rows */
} magnus_products;

/*
 * Counts the products of A·B into *out, splitting the rows at `threshold` (rows_above and
 * products_above; INT64_MAX: no split). A and B must be valid (magnus_csr_validate) with
 * A->cols == B->rows: the count follows A's columns into B's row pointers unchecked.
 * MAGNUS_ERROR_SIZE_OVERFLOW when a row or the total passes 2^63 - 1 (the message says which).
 */
magnus_status magnus_products_count(magnus_products *out, const magnus_csr_s *A,
                                    const magnus_csr_s *B, int64_t threshold);

#endif
