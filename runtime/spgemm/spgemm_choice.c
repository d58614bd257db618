/*
 * MAGNUS_ALGORITHM_AUTO: which algorithm multiplies a product, from statistics of A and B
 * that cost a pass over A's structure on the device (products per row, their scan, the long
 * rows' share, a sample of rows; one host wait):
 *
 *   long rows      rows with more products than the hash accumulator's symbolic table holds
 *                  within the budget (6144 at 48 KiB): the hash algorithm counts them in
 *                  global-memory tables, one work group per row; gMAGNUS expands them and
 *                  splits them by column range across the whole device.
 *   overflow rows  rows of fewer products whose entries exceed the numeric table (2048 f64
 *                  or 3072 f32 entries at 48 KiB): the hash algorithm fills them in global
 *                  tables. A row's products only bound its entries (finite-element rows merge
 *                  18 products into one entry, others hardly any), so their share is
 *                  estimated from MAGNUS_AUTO_OVERFLOW_SAMPLES rows drawn in proportion to
 *                  their products, each counted exactly (magnus_hash_rows_overflow_sample).
 *   dense rows     when C's columns fit a dense row in the local memory the context allows
 *                  (magnus_hash_dense_row_columns), the hash accumulator takes both kinds of
 *                  rows above in local memory, over C's whole width, instead of in global
 *                  tables: the hash algorithm then runs whatever the shares, which
 *                  are not counted (docs/performance.md, "Dense rows"). Where C is narrower
 *                  than the symbolic table's products (f64 at 48 KiB: dense rows of 5,291
 *                  columns, tables of 6,144), a long row's key, capped at C's width, fits a
 *                  local table: such a row goes dense in the numeric phase only, past the
 *                  cut on its entries (magnus_dense_rows_numeric_cut). Where C is wider than a dense
 *                  row but fits in at most MAGNUS_DENSE_STRIPES column stripes of one, the
 *                  rule below still decides: the stripes (a pass over a row's A entries each)
 *                  replace the hash algorithm's global tables, which they beat on every input
 *                  that ran hash on the H200, but lost to gMAGNUS where the shares chose it
 *                  (ca-HepPh, email-Enron, soc-Slashdot0902: docs/performance.md, "Dense rows
 *                  in column stripes"). MAGNUS_AUTO_STRIPES (default 0, an experiment) makes
 *                  C's fitting that many stripes choose hash outright too.
 *   rule           otherwise, hash when the long rows' share of the products plus
 *                  MAGNUS_AUTO_OVERFLOW_WEIGHT (2) times the overflow rows' share is less than
 *                  MAGNUS_AUTO_HASH_MAX_LONG_SHARE, gMAGNUS otherwise. The weight: an
 *                  overflow row has at most 3 products per entry (6144 products at most, more
 *                  than 2048 entries), which gMAGNUS expands at little cost, while the hash
 *                  algorithm fills it in a global table; a long row may merge 18 products
 *                  into one entry (bcsstk16), where the expansion costs gMAGNUS most.
 *
 * Measured on the H200 (docs/performance.md, "The method per input"): the hash algorithm
 * was faster on every shared matrix whose long rows carry under 20 % of the products
 * (0-18 %: EX5, bcsstk16, astro-ph, vsp_sctap1-2b; up to 2.7x) and gMAGNUS on every input
 * with more than 45 % (R-MAT, soc-Slashdot0902, email-Enron, ego-Facebook, ca-HepPh,
 * vsp_befref: up to 10x); the one input between (ca-AstroPh_cc1, 40 %) was within 11 %
 * either way. The overflow rows were the one miss: vsp_sctap1-2b in f64 (long share 0.004,
 * overflow share 0.244, counted on the host from C) ran the hash algorithm in 4.7 ms where
 * gMAGNUS takes 3.7 ms (docs/performance.md, "Products per row by whole groups; the overflow
 * rows in the choice").
 */
#include <string.h>

#include "hash_accumulate.h"
#include "primitives.h"
#include "spgemm_dispatch.h"

const char *magnus_algorithm_name(magnus_algorithm algorithm) {
    switch (algorithm) {
    case MAGNUS_ALGORITHM_AUTO: return "auto";
    case MAGNUS_ALGORITHM_GMAGNUS: return "gmagnus";
    case MAGNUS_ALGORITHM_HASH: return "hash";
    }
    return NULL;
}

magnus_status magnus_spgemm_choose(magnus_algorithm *out, magnus_row_products *counted,
                                   magnus_context ctx, const struct magnus_device_csr_s *A,
                                   const struct magnus_device_csr_s *B, magnus_report *rep) {
    const magnus_queue_id q = MAGNUS_QUEUE_MAIN;
    double t = magnus_now_ms();
    int64_t long_products = 0, numeric_nnz = 0;
    magnus_hash_budget_capacity(ctx, A->type, &long_products, &numeric_nnz);
    rep->auto_long_row_products = long_products;
    rep->auto_numeric_row_nnz = numeric_nnz;
    *out = MAGNUS_ALGORITHM_GMAGNUS;
    memset(counted, 0, sizeof *counted);
    rep->dense_row_columns = magnus_hash_dense_row_columns(ctx, A->type);
    rep->dense_rows_local_bytes = magnus_hash_dense_rows_local_bytes(ctx, A->type);
    const bool fits = rep->dense_row_columns > 0 && B->cols <= rep->dense_row_columns;
    if (fits || magnus_hash_dense_rows_decide(ctx, A->type, B->cols)) {
        /* the long and overflow rows become dense rows, in local memory: nothing for the
         * hash algorithm to fill in global tables, nothing for gMAGNUS to expand. Decided
         * from C's width alone: no statistics to count (they cost 0.08-0.12 ms, as much as
         * a tenth of such a multiply), so the report's shares stay 0. */
        *out = MAGNUS_ALGORITHM_HASH;
        rep->auto_dense_rows = 1;
        rep->auto_long_row_products = 0;
        rep->auto_numeric_row_nnz = 0;
        rep->algorithm_reason =
            fits ? "auto: C's columns fit a dense row in local memory, which takes the rows "
                   "past the hash tables (hash)"
                 : "auto: C's columns fit MAGNUS_AUTO_STRIPES column stripes of a dense row, "
                   "which take the rows past the hash tables (hash)";
        rep->time_choice_ms = magnus_now_ms() - t;
        return MAGNUS_SUCCESS;
    }
    magnus_dbuf *offsets = &counted->offsets, stats = {0};
    uint64_t sampled[MAGNUS_AUTO_OVERFLOW_SAMPLES + 1] = {0};
    magnus_long_segments longer = {0, 0};
    const uint64_t rows = (uint64_t)A->rows;
    /* the sample is queued before the long rows' count, whose read waits for both */
    magnus_status s;
    if ((s = magnus_row_products_queue(counted, ctx, q, A, B)) ||
        (s = magnus_dbuf_alloc(ctx, sizeof sampled, &stats)) ||
        (s = magnus_hash_rows_overflow_sample(ctx, q, A, B, offsets, MAGNUS_AUTO_OVERFLOW_SAMPLES,
                                              numeric_nnz, long_products, &stats)) ||
        (s = magnus_prim_long_segments(ctx, q, offsets, rows, (uint64_t)long_products,
                                       &longer)) ||
        (s = magnus_dbuf_read(ctx, q, sampled, &stats, 0, sizeof sampled)))
        magnus_context_finish_after_error(ctx, s);
    magnus_dbuf_free(ctx, &stats);
    if (s) {
        magnus_row_products_free(ctx, counted);
        /* the detail names the step (a budget too small for the scan, say); say whose it is */
        magnus_error_prefix("MAGNUS_ALGORITHM_AUTO's choice of algorithm: ");
        return s;
    }
    const uint64_t total = sampled[0];
    rep->auto_long_share = total ? (double)longer.length / (double)total : 0;
    uint64_t overflowing = 0;
    for (int i = 1; i <= MAGNUS_AUTO_OVERFLOW_SAMPLES; i++) overflowing += sampled[i] != 0;
    rep->auto_overflow_share = (double)overflowing / MAGNUS_AUTO_OVERFLOW_SAMPLES;
    counted->total = total;
    if (rep->auto_long_share + MAGNUS_AUTO_OVERFLOW_WEIGHT * rep->auto_overflow_share <
        MAGNUS_AUTO_HASH_MAX_LONG_SHARE) {
        *out = MAGNUS_ALGORITHM_HASH;
        magnus_dbuf_free(ctx, offsets); /* the hash algorithm's setup needs no scan */
        rep->algorithm_reason =
            "auto: rows past the hash tables carry less than the share limit (hash)";
    } else {
        rep->algorithm_reason =
            "auto: rows past the hash tables carry the share limit or more (gMAGNUS)";
    }
    rep->time_choice_ms = magnus_now_ms() - t;
    return MAGNUS_SUCCESS;
}
