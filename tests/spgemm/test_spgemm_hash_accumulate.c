/*
 * The reusable hash accumulator on row subsets and chunks (part of spgemm_hash:
 * test_spgemm_hash.c), on the device and against the host's accumulation, with budgets that
 * send steps to the global path.
 */
#include <math.h>
#include <stdlib.h>

#include "device_csr.h"
#include "device_test_util.h"
#include "hash_accumulate.h"
#include "hash_chunks_test_util.h"
#include "spgemm_hash_test_util.h"
#include "status_test_util.h"

Test(hash_accumulate, row_subset) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(64, 64, 6, 71, MAGNUS_FLOAT32), B = uniform(64, 80, 5, 72, MAGNUS_FLOAT32);
    magnus_csr ref, mag;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, B));
    magnus_device_csr dA, dB;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&dB, ctx, B));
    /* the odd rows, after two unused ids (ids_offset = 2) */
    uint32_t ids[2 + 32];
    ids[0] = ids[1] = 12345;
    for (int i = 0; i < 32; i++) ids[2 + i] = (uint32_t)(2 * i + 1);
    magnus_dbuf dids, counts;
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof ids, &dids));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dids, 0, ids, sizeof ids));
    int64_t sentinel[65];
    for (int i = 0; i < 65; i++) sentinel[i] = -7;
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof sentinel, &counts));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &counts, 0, sentinel, sizeof sentinel));
    magnus_hash_config cfg;
    magnus_hash_config_init(&cfg, MAGNUS_QUEUE_LIGHT);
    magnus_hash_stats st = {0};
    ASSERT_OK(
        magnus_hash_rows_products(ctx, MAGNUS_QUEUE_LIGHT, dA, dB, &dids, 2, 32, &counts, &st));
    ASSERT_OK(magnus_hash_rows_symbolic_sync(ctx, &cfg, dA, dB, &dids, 2, 32, &counts, &st));
    int64_t got[65];
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, got, &counts, 0, sizeof got));
    for (int r = 0; r < 64; r++) {
        int64_t want = r % 2 ? ref->row_ptr[r + 1] - ref->row_ptr[r] : -7;
        cr_assert_eq(got[r], want, "row %d: %lld, expected %lld", r, (long long)got[r],
                     (long long)want);
    }
    cr_assert_eq(st.items, 32);
    /* numeric of the odd rows into a full-size C laid out as the reference */
    magnus_dbuf crp, ccol, cval;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 65 * 8, &crp));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)ref->nnz * 4, &ccol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)ref->nnz * 4, &cval));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_LIGHT, &crp, 0, ref->row_ptr, 65 * 8));
    int32_t *col = calloc((size_t)ref->nnz, 4);
    for (int64_t e = 0; e < ref->nnz; e++) col[e] = -1;
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_LIGHT, &ccol, 0, col, (size_t)ref->nnz * 4));
    ASSERT_OK(magnus_hash_rows_numeric_sync(ctx, &cfg, dA, dB, &dids, 2, 32, &crp, &ccol, &cval,
                                            NULL));
    float *val = calloc((size_t)ref->nnz, 4);
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, col, &ccol, 0, (size_t)ref->nnz * 4));
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, val, &cval, 0, (size_t)ref->nnz * 4));
    for (int r = 0; r < 64; r++)
        for (int64_t e = ref->row_ptr[r]; e < ref->row_ptr[r + 1]; e++) {
            if (r % 2 == 0) {
                cr_assert_eq(col[e], -1, "even row %d was written", r);
                continue;
            }
            cr_assert_eq(col[e], ref->col_idx[e], "row %d entry %lld", r, (long long)e);
            double want = ((float *)ref->values)[e], scale = ((float *)mag->values)[e];
            cr_assert_leq(fabs(val[e] - want), 1e-4 * scale + 1e-30, "row %d col %d", r,
                          col[e]);
        }
    free(col);
    free(val);
    magnus_dbuf_free(ctx, &crp);
    magnus_dbuf_free(ctx, &ccol);
    magnus_dbuf_free(ctx, &cval);
    magnus_dbuf_free(ctx, &dids);
    magnus_dbuf_free(ctx, &counts);
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_OK(magnus_device_csr_free(&dB));
    MAGNUS_TEST_FREE_CSRS(&A, &B, &ref, &mag);
}

/* Chunks with duplicate local columns, accumulated on the device and on the host. */
static magnus_hash_stats check_chunks(magnus_context ctx, magnus_value_type type, int64_t width,
                                      uint64_t seed, int *nonempty) {
    enum { NCHUNKS = 40 };
    const int64_t period = 4; /* 4 chunks per "row": shift (c % 4) * width */
    int64_t ptr[NCHUNKS + 1];
    ptr[0] = 0;
    uint64_t x = seed * 2654435761u + 1;
    for (int c = 0; c < NCHUNKS; c++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int64_t len = c == 3 ? 0 : c == 7 ? 3000 : (int64_t)((x >> 33) % 300);
        ptr[c + 1] = ptr[c] + len;
    }
    int64_t n = ptr[NCHUNKS];
    if (nonempty) {
        *nonempty = 0;
        for (int c = 0; c < NCHUNKS; c++) *nonempty += ptr[c + 1] > ptr[c];
    }
    int32_t *col = malloc((size_t)n * 4);
    double *val = malloc((size_t)n * 8);
    for (int64_t e = 0; e < n; e++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        col[e] = (int32_t)((x >> 33) % (uint64_t)width);
        val[e] = (double)((x >> 20) % 1000) / 250.0 - 2.0;
    }
    /* host: distinct count, sorted entries with sums */
    int64_t counts[NCHUNKS], offs[NCHUNKS + 1];
    int32_t *hcol = malloc((size_t)n * 4 + 4);
    double *hval = malloc((size_t)n * 8 + 8);
    hash_chunks_host(NCHUNKS, ptr, col, val, width, period, counts, offs, hcol, hval);
    /* device */
    size_t vb = magnus_value_size(type);
    void *vals = malloc((size_t)n * vb + 8);
    for (int64_t e = 0; e < n; e++) {
        if (type == MAGNUS_FLOAT32)
            ((float *)vals)[e] = (float)val[e];
        else
            ((double *)vals)[e] = val[e];
    }
    magnus_dbuf dptr, dcol, dval, dcounts, doffs, dccol, dcval, dids;
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof ptr, &dptr));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * 4, &dcol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * vb, &dval));
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof counts, &dcounts));
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof offs, &doffs));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)offs[NCHUNKS] * 4, &dccol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)offs[NCHUNKS] * vb, &dcval));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dptr, 0, ptr, sizeof ptr));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dcol, 0, col, (size_t)n * 4));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dval, 0, vals, (size_t)n * vb));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &doffs, 0, offs, sizeof offs));
    /* all chunks in reverse order, as an id list */
    uint32_t ids[NCHUNKS];
    for (int c = 0; c < NCHUNKS; c++) ids[c] = (uint32_t)(NCHUNKS - 1 - c);
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof ids, &dids));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dids, 0, ids, sizeof ids));
    int64_t minus[NCHUNKS];
    for (int c = 0; c < NCHUNKS; c++) minus[c] = -1;
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dcounts, 0, minus, sizeof minus));

    magnus_hash_segments seg = {.ptr = &dptr, .col = &dcol, .val = &dval, .col_range = width,
                                .type = type};
    magnus_hash_stats st = {0};
    ASSERT_OK(magnus_hash_chunks_symbolic_sync(ctx, NULL, &seg, &dids, 0, NCHUNKS, &dcounts, &st));
    int64_t got[NCHUNKS];
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, &dcounts, 0, sizeof got));
    for (int c = 0; c < NCHUNKS; c++)
        cr_assert_eq(got[c], counts[c], "chunk %d: %lld distinct, expected %lld", c,
                     (long long)got[c], (long long)counts[c]);
    cr_assert_eq(st.key_total, n);

    /* numeric, once with nnz from the offsets and once from the counts */
    for (int pass = 0; pass < 2; pass++) {
        magnus_hash_chunk_output out = {.offset = &doffs,
                                        .nnz = pass ? &dcounts : NULL,
                                        .shift_period = period,
                                        .shift_step = width,
                                        .C_col = &dccol,
                                        .C_val = &dcval};
        ASSERT_OK(magnus_hash_chunks_numeric_sync(ctx, NULL, &seg, &dids, 0, NCHUNKS, &out, &st));
        hash_chunks_expect_output(ctx, &dccol, &dcval, type, hcol, hval, offs[NCHUNKS]);
    }
    magnus_dbuf *all[] = {&dptr, &dcol, &dval, &dcounts, &doffs, &dccol, &dcval, &dids};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) magnus_dbuf_free(ctx, all[i]);
    free(col);
    free(val);
    free(vals);
    free(hcol);
    free(hval);
    return st;
}

Test(hash_accumulate, chunks) {
    magnus_context ctx = magnus_test_context();
    check_chunks(ctx, MAGNUS_FLOAT32, 512, 1, NULL);
    if (ctx->device.fp64) check_chunks(ctx, MAGNUS_FLOAT64, 100, 2, NULL);
}

Test(hash_accumulate, chunks_tiny_local) {
    /* 24 bytes: no table, and a sort staging block of a single entry (all steps global) */
    magnus_context ctx = magnus_test_budget_context(24);
    int nonempty;
    magnus_hash_stats st = check_chunks(ctx, MAGNUS_FLOAT32, 300, 4, &nonempty);
    /* symbolic: all 40 chunks; each of the two numeric passes: the non-empty ones */
    cr_assert_eq(st.items_global, 40 + 2 * nonempty, "global items: %lld, non-empty chunks %d",
                 (long long)st.items_global, nonempty);
    magnus_context_free(&ctx);
}

Test(hash_accumulate, chunks_small_local) {
    /* 4 KiB: the 3000-element chunk (and others) take the global path */
    magnus_context ctx = magnus_test_budget_context(4096);
    magnus_hash_stats st = check_chunks(ctx, MAGNUS_FLOAT32, 4096, 3, NULL);
    cr_assert_gt(st.items_global, 0, "no chunk took the global path");
    magnus_context_free(&ctx);
}

/* Products per row (hash_row_products) exactly as the host counts them, for rows of every
 * length around the kernel's split (MG_HASH_PRODUCTS_SHORT entries: one work item; longer:
 * the whole group), for a group of only long rows, a group with one row of 700 entries among
 * empty ones, and through an id list (reversed, after an offset). */
Test(hash_accumulate, products_of_short_and_long_rows) {
    magnus_context ctx = magnus_test_context();
    const int64_t rows = 1100, k = 700;
    static const int64_t cycle[] = {0, 1, 16, 17, 63, 64, 65, 300, 2, 699};
    int64_t nnz = 0;
    int64_t *len = calloc((size_t)rows, sizeof *len);
    cr_assert_not_null(len);
    for (int64_t i = 0; i < rows; i++) {
        if (i < 256) len[i] = 65 + i % 300;      /* the first group: only long rows */
        else if (i < 512) len[i] = i == 300 ? k : 0; /* the second: one row of all columns */
        else len[i] = cycle[i % (int64_t)(sizeof cycle / sizeof *cycle)];
        nnz += len[i];
    }
    magnus_csr A = NULL, B = uniform(k, 90, 9, 77, MAGNUS_FLOAT32);
    ASSERT_OK(magnus_csr_new(&A, rows, k, nnz, MAGNUS_FLOAT32));
    int64_t q = 0;
    for (int64_t i = 0; i < rows; i++) {
        A->row_ptr[i] = q;
        for (int64_t j = 0; j < len[i]; j++, q++) {
            A->col_idx[q] = (int32_t)((j * k) / len[i] + (i % 7 < (k / len[i]) ? i % 7 : 0));
            ((float *)A->values)[q] = 1.0f;
        }
    }
    A->row_ptr[rows] = q;
    ASSERT_OK(magnus_csr_validate(A));
    int64_t *want = calloc((size_t)rows, sizeof *want);
    cr_assert_not_null(want);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
            want[i] += B->row_ptr[A->col_idx[p] + 1] - B->row_ptr[A->col_idx[p]];
    magnus_device_csr dA, dB;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&dB, ctx, B));
    magnus_dbuf products, dids;
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)rows * 8, &products));
    uint32_t *ids = calloc((size_t)rows + 3, sizeof *ids);
    int64_t *got = calloc((size_t)rows, sizeof *got);
    cr_assert(ids && got);
    for (int64_t i = 0; i < rows; i++) ids[3 + i] = (uint32_t)(rows - 1 - i);
    ASSERT_OK(magnus_dbuf_alloc(ctx, ((size_t)rows + 3) * 4, &dids));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dids, 0, ids, ((size_t)rows + 3) * 4));
    for (int listed = 0; listed < 2; listed++) {
        ASSERT_OK(magnus_dbuf_fill(ctx, MAGNUS_QUEUE_MAIN, &products, 0, &(int64_t){-1}, 8,
                                   (size_t)rows * 8));
        ASSERT_OK(magnus_hash_rows_products(ctx, MAGNUS_QUEUE_MAIN, dA, dB,
                                            listed ? &dids : NULL, 3, rows, &products, NULL));
        ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, &products, 0, (size_t)rows * 8));
        for (int64_t i = 0; i < rows; i++)
            cr_assert_eq(got[i], want[i], "%s: row %lld of %lld entries: %lld products, host %lld",
                         listed ? "listed" : "all rows", (long long)i, (long long)len[i],
                         (long long)got[i], (long long)want[i]);
    }
    magnus_dbuf_free(ctx, &products);
    magnus_dbuf_free(ctx, &dids);
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_OK(magnus_device_csr_free(&dB));
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    free(len);
    free(ids);
    free(got);
    free(want);
}

/* A tail of nearly empty bins shares one launch (hash_launch.c, MAGNUS_HASH_MERGE_GROUPS): an
 * R-MAT square, whose rows spread over many local bins with the largest nearly empty, first
 * with the merge off, then with every launch free to take in the bins below it. Each bin
 * merged is one launch fewer, in both phases, and C stays the reference's. The context's knob
 * is set here and restored. */
Test(hash_accumulate, tail_bins_share_a_launch) {
    magnus_context ctx = magnus_test_context();
    uint32_t *merge = &magnus_accumulate_knobs_edit(ctx)->hash_merge_groups;
    const uint32_t saved = *merge;
    magnus_csr A = magnus_test_rmat(11, 8, 93, MAGNUS_FLOAT32);
    magnus_hash_stats sym[2], num[2];
    magnus_report rep;
    for (int on = 0; on < 2; on++) {
        memset(&sym[on], 0, sizeof sym[on]);
        memset(&num[on], 0, sizeof num[on]);
        *merge = on ? INT32_MAX : 0;
        hash_run_with_stats(ctx, A, A, NULL, &sym[on], &num[on], &rep);
    }
    *merge = saved;
    cr_assert_eq(sym[0].bins_merged + num[0].bins_merged, 0, "merged with the knob at 0");
    cr_assert_gt(sym[1].bins_merged, 0, "no symbolic bin merged");
    cr_assert_gt(num[1].bins_merged, 0, "no numeric bin merged");
    cr_assert_eq(sym[1].launches + sym[1].bins_merged, sym[0].launches,
                 "symbolic: %lld launches with %lld bins merged, %lld without",
                 (long long)sym[1].launches, (long long)sym[1].bins_merged,
                 (long long)sym[0].launches);
    cr_assert_eq(num[1].launches + num[1].bins_merged, num[0].launches,
                 "numeric: %lld launches with %lld bins merged, %lld without",
                 (long long)num[1].launches, (long long)num[1].bins_merged,
                 (long long)num[0].launches);
    magnus_csr_free(&A);
}
