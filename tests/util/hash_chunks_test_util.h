/*
 * The host side of the hash accumulator's chunk tests (test_hash_work.c's wide chunks,
 * test_spgemm_hash.c's chunks with id lists): what the device's chunk accumulation must give,
 * computed densely on the host, and the comparison of the device's output with it. One copy,
 * so both tests check against the same independent computation.
 */
#ifndef MAGNUS_TESTS_HASH_CHUNKS_TEST_UTIL_H
#define MAGNUS_TESTS_HASH_CHUNKS_TEST_UTIL_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "device_runtime.h"
#include "status_test_util.h"

/*
 * Chunk c holds entries ptr[c] .. ptr[c+1] of col (local columns < width) and val. Fills, per
 * chunk, its number of distinct columns (counts[c]) and where its output starts (offs[c];
 * offs[nchunks] is the total), and from there its distinct columns in increasing order,
 * shifted by (c % period) * width, with their sums (hcol, hval: room for ptr[nchunks]).
 */
static inline void hash_chunks_host(int nchunks, const int64_t *ptr, const int32_t *col,
                                    const double *val, int64_t width, int64_t period,
                                    int64_t *counts, int64_t *offs, int32_t *hcol, double *hval) {
    double *dense = calloc((size_t)width, sizeof *dense);
    char *seen = calloc((size_t)width, 1);
    cr_assert(dense && seen, "host memory for %lld columns", (long long)width);
    offs[0] = 0;
    for (int c = 0; c < nchunks; c++) {
        memset(seen, 0, (size_t)width);
        memset(dense, 0, (size_t)width * sizeof *dense);
        for (int64_t e = ptr[c]; e < ptr[c + 1]; e++) {
            seen[col[e]] = 1;
            dense[col[e]] += val[e];
        }
        counts[c] = 0;
        for (int64_t j = 0; j < width; j++)
            if (seen[j]) {
                hcol[offs[c] + counts[c]] = (int32_t)(j + (c % period) * width);
                hval[offs[c] + counts[c]] = dense[j];
                counts[c]++;
            }
        offs[c + 1] = offs[c] + counts[c];
    }
    free(dense);
    free(seen);
}

/* The device's chunk output (nnz columns in C_col, values of `type` in C_val) against
 * hash_chunks_host's: columns exactly, values within 1e-3 + 1e-4·|expected| (float32 sums in
 * another order). */
static inline void hash_chunks_expect_output(magnus_context ctx, const magnus_dbuf *C_col,
                                             const magnus_dbuf *C_val, magnus_value_type type,
                                             const int32_t *hcol, const double *hval,
                                             int64_t nnz) {
    size_t vb = magnus_value_size(type);
    int32_t *gcol = malloc((size_t)nnz * 4 + 4);
    void *gval = malloc((size_t)nnz * vb + 8);
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, gcol, C_col, 0, (size_t)nnz * 4));
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, gval, C_val, 0, (size_t)nnz * vb));
    for (int64_t e = 0; e < nnz; e++) {
        cr_assert_eq(gcol[e], hcol[e], "entry %lld: column %d, expected %d", (long long)e,
                     gcol[e], hcol[e]);
        double g = type == MAGNUS_FLOAT32 ? ((float *)gval)[e] : ((double *)gval)[e];
        cr_assert_leq(fabs(g - hval[e]), 1e-3 + 1e-4 * fabs(hval[e]), "entry %lld", (long long)e);
    }
    free(gcol);
    free(gval);
}

#endif
