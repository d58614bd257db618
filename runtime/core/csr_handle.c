/* A host CSR handle around arrays made by its caller: magnus_csr_new (runtime/host/csr.c) and
 * the Matrix Market reader (runtime/io/mm_build.c) make theirs in their own ways. */
#include "internal.h"

magnus_csr magnus_csr_handle_of(int64_t rows, int64_t cols, int64_t nnz, magnus_value_type type,
                                int64_t *row_ptr, int32_t *col_idx, void *values) {
    magnus_csr A = magnus_host_calloc(1, sizeof *A);
    if (!A) return NULL;
    A->magic = MAGNUS_MAGIC_CSR;
    A->rows = rows;
    A->cols = cols;
    A->nnz = nnz;
    A->type = type;
    A->row_ptr = row_ptr;
    A->col_idx = col_idx;
    A->values = values;
    return A;
}
