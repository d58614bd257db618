/*
 * A's sliced ELL on the host, for the SpMV baseline's SELL ALG1 rows (bench_cusparse_spmv.c),
 * in the layout bench_cusparse_internal.h describes. Made from the CSR and uploaded outside the
 * timing, as the COO rows' row indices are.
 */
#include <stdlib.h>
#include <string.h>

#include "bench_cusparse_internal.h"

/* The longest row of slice s. */
static int64_t slice_width(const magnus_csr_s *A, int64_t slice, int64_t s) {
    int64_t width = 0;
    const int64_t end = (s + 1) * slice < A->rows ? (s + 1) * slice : A->rows;
    for (int64_t i = s * slice; i < end; i++) {
        const int64_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        if (len > width) width = len;
    }
    return width;
}

int64_t bench_sell_values_size(const magnus_csr_s *A, int64_t slice) {
    const int64_t slices = (A->rows + slice - 1) / slice;
    int64_t size = 0;
    for (int64_t s = 0; s < slices; s++) size += slice * slice_width(A, slice, s);
    return size;
}

void bench_sell_free(bench_sell *s) {
    free(s->offsets);
    free(s->cols);
    free(s->values);
    memset(s, 0, sizeof *s);
}

bool bench_sell_build(bench_sell *out, const magnus_csr_s *A, int64_t slice, char *why,
                      size_t n) {
    memset(out, 0, sizeof *out);
    out->slice = slice;
    out->slices = (A->rows + slice - 1) / slice;
    out->values_size = bench_sell_values_size(A, slice);
    if (out->values_size > INT32_MAX) {
        snprintf(why, n, "sliced ELL of %lld entries (padding included) passes 32-bit offsets",
                 (long long)out->values_size);
        return false;
    }
    const size_t vb = magnus_value_size(A->type);
    const size_t size = (size_t)out->values_size;
    out->offsets = malloc(((size_t)out->slices + 1) * sizeof *out->offsets);
    out->cols = malloc((size ? size : 1) * sizeof *out->cols);
    out->values = calloc(size ? size : 1, vb); /* padding's value: 0 */
    if (!out->offsets || !out->cols || !out->values) {
        bench_sell_free(out);
        snprintf(why, n, "out of host memory for the sliced ELL");
        return false;
    }
    int64_t at = 0;
    out->offsets[0] = 0;
    for (int64_t s = 0; s < out->slices; s++) {
        const int64_t width = slice_width(A, slice, s);
        for (int64_t r = 0; r < slice; r++) {
            const int64_t i = s * slice + r;
            const int64_t start = i < A->rows ? A->row_ptr[i] : 0;
            const int64_t len = i < A->rows ? A->row_ptr[i + 1] - start : 0;
            for (int64_t k = 0; k < width; k++) {
                const int64_t dst = at + k * slice + r; /* column-major within the slice */
                if (k >= len) {
                    out->cols[dst] = -1;
                    continue;
                }
                out->cols[dst] = A->col_idx[start + k];
                memcpy((char *)out->values + (size_t)dst * vb,
                       (const char *)A->values + (size_t)(start + k) * vb, vb);
            }
        }
        at += slice * width;
        out->offsets[s + 1] = (int32_t)at;
    }
    return true;
}
