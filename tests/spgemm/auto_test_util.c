/*
 * The helpers of AUTO's tests (auto_test_util.h): the rule on the host, the built inputs,
 * the check of one product.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dense_rows_knobs.h"
#include "device_test_util.h"
#include "hash_private.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

#include "auto_test_util.h"

int type_supported(magnus_context ctx, magnus_value_type t) {
    return t == MAGNUS_FLOAT32 || ctx->device.fp64;
}

/* ---- the rule on the host ------------------------------------------------------------------ */

/* Products of row i of A·B: the lengths of the rows of B that A's row names. */
int64_t row_products(const magnus_csr_s *A, const magnus_csr_s *B, int64_t i) {
    int64_t n = 0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
        n += B->row_ptr[A->col_idx[p] + 1] - B->row_ptr[A->col_idx[p]];
    return n;
}


host_share share_of(const magnus_csr_s *A, const magnus_csr_s *B, int64_t threshold) {
    host_share h = {0, 0, 0, 0};
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t n = row_products(A, B, i);
        h.total += n;
        if (n > threshold) {
            h.long_products += n;
            h.long_rows++;
        }
    }
    h.share = h.total ? (double)h.long_products / (double)h.total : 0;
    return h;
}

/* The algorithm the rule picks for that share. */
magnus_algorithm rule_for(const host_share *h) {
    return h->share < MAGNUS_AUTO_HASH_MAX_LONG_SHARE ? MAGNUS_ALGORITHM_HASH
                                                      : MAGNUS_ALGORITHM_MAGNUS;
}

/* The largest key magnus_hash_bin_shape_of gives a local table of the phase (numeric 0:
 * symbolic, 1: numeric) within ctx's budget (past it, a global one), with the wide bins
 * (local tables past the budget, the context's hash_wide_bins) off, as AUTO counts them. */
static int64_t local_table_capacity(const magnus_context_s *ctx, magnus_value_type type,
                                    int numeric) {
    magnus_context_s c = *ctx; /* read by the host arithmetic only */
    magnus_accumulate_knobs_edit(&c)->hash_wide_bins = false;
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, numeric, 1));
    if (sh.table == 0) return 0;
    int64_t lo = 1, hi = (int64_t)1 << 40; /* lo is kept locally, hi is not */
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, numeric, hi));
    cr_assert_eq(sh.table, 0, "a key of 2^40 in a local table");
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, numeric, mid));
        if (sh.table) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The symbolic products the hash accumulator keeps in a local table within ctx's budget. */
int64_t binned_capacity(const magnus_context_s *ctx, magnus_value_type type) {
    return local_table_capacity(ctx, type, 0);
}

/* The numeric tables' entries: the largest entry count a local numeric table holds. */
int64_t numeric_capacity(const magnus_context_s *ctx, magnus_value_type type) {
    return local_table_capacity(ctx, type, 1);
}


host_overflow overflow_of(const magnus_csr_s *A, const magnus_csr_s *B,
                          const magnus_csr_s *C, int64_t N, int64_t L, int64_t total) {
    host_overflow o = {0, 0, 0};
    int64_t products = 0, runs = 0;
    bool in_run = false;
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t n = row_products(A, B, i);
        bool over = n > N && n <= L && C->row_ptr[i + 1] - C->row_ptr[i] > N;
        if (over) {
            products += n;
            o.rows++;
            if (!in_run) runs++;
        }
        in_run = over;
    }
    o.share = total ? (double)products / (double)total : 0;
    o.bound = (double)(2 * runs + 2) / MAGNUS_AUTO_OVERFLOW_SAMPLES;
    return o;
}

/* The same from the accumulator's rule for its symbolic tables: the largest power of two of
 * MG_HASH_KEY_BYTES-byte keys (at least 4) that fits, beside its HASH_ITEM_EXTRA-byte count,
 * in the budget less HASH_LOCAL_RESERVE, filled to 3/4. */
int64_t rule_capacity(uint64_t budget) {
    uint64_t reserved = HASH_LOCAL_RESERVE + HASH_ITEM_EXTRA;
    uint64_t keys = budget > reserved ? (budget - reserved) / MG_HASH_KEY_BYTES : 0, t = 1;
    while (2 * t <= keys) t *= 2;
    if (keys < 4) return 0;
    return (int64_t)(t - t / 4);
}

/* ---- inputs -------------------------------------------------------------------------------- */


double value_of(uint64_t a, uint64_t b) {
    return 0.25 + (double)((a * 2654435761u + b * 40503u) % 97) / 32.0;
}

pair build_pair_in(const int64_t *products, int64_t rows, magnus_value_type type,
                   int64_t width, bool tiled) {
    int64_t k_full = 64;
    for (int64_t i = 0; i < rows; i++)
        if (products[i] / FULL > k_full) k_full = products[i] / FULL;
    const int64_t k = k_full + FULL - 1;
    pair P;
    /* B: row r < k_full has FULL entries, row k_full + j - 1 has j */
    int64_t b_nnz = k_full * FULL + (FULL - 1) * FULL / 2;
    cr_assert(width >= (tiled ? FULL : B_COLS), "a B of %lld columns", (long long)width);
    ASSERT_OK(magnus_csr_new(&P.B, k, width, b_nnz, type));
    int64_t q = 0;
    for (int64_t r = 0; r < k; r++) {
        int64_t len = r < k_full ? FULL : r - k_full + 1;
        int64_t start = tiled ? (r * FULL) % width : (r * 37) % width, step = tiled ? 1 : 11;
        P.B->row_ptr[r] = q;
        /* columns start + step j (mod width), distinct, in increasing order */
        int32_t cols[FULL];
        for (int64_t j = 0; j < len; j++) cols[j] = (int32_t)((start + step * j) % width);
        for (int64_t j = 1; j < len; j++)
            for (int64_t t = j; t > 0 && cols[t - 1] > cols[t]; t--) {
                int32_t x = cols[t];
                cols[t] = cols[t - 1];
                cols[t - 1] = x;
            }
        for (int64_t j = 0; j < len; j++, q++) {
            P.B->col_idx[q] = cols[j];
            ref_set_value(P.B, q, value_of((uint64_t)r, (uint64_t)j));
        }
    }
    P.B->row_ptr[k] = q;
    cr_assert_eq(q, b_nnz);
    int64_t a_nnz = 0;
    for (int64_t i = 0; i < rows; i++) a_nnz += products[i] / FULL + (products[i] % FULL != 0);
    ASSERT_OK(magnus_csr_new(&P.A, rows, k, a_nnz, type));
    q = 0;
    for (int64_t i = 0; i < rows; i++) {
        int64_t full = products[i] / FULL, rest = products[i] % FULL;
        int64_t start = (i * 53) % k_full;
        P.A->row_ptr[i] = q;
        /* the consecutive full rows wrap at k_full: the wrapped ones first, in order */
        int64_t wrapped = start + full > k_full ? start + full - k_full : 0;
        for (int64_t j = 0; j < wrapped; j++) P.A->col_idx[q++] = (int32_t)j;
        for (int64_t j = start; j < start + full - wrapped; j++) P.A->col_idx[q++] = (int32_t)j;
        if (rest) P.A->col_idx[q++] = (int32_t)(k_full + rest - 1);
        for (int64_t p = P.A->row_ptr[i]; p < q; p++)
            ref_set_value(P.A, p, value_of((uint64_t)i + 7, (uint64_t)p));
    }
    P.A->row_ptr[rows] = q;
    cr_assert_eq(q, a_nnz);
    ASSERT_OK(magnus_csr_validate(P.A));
    ASSERT_OK(magnus_csr_validate(P.B));
    for (int64_t i = 0; i < rows; i++)
        cr_assert_eq(row_products(P.A, P.B, i), products[i], "built row %lld", (long long)i);
    return P;
}

pair build_pair(const int64_t *products, int64_t rows, magnus_value_type type) {
    return build_pair_in(products, rows, type, B_COLS, false);
}

pair build_tiled_pair(const int64_t *products, int64_t rows, magnus_value_type type,
                      int64_t width) {
    return build_pair_in(products, rows, type, width, true);
}

void pair_free(pair *P) {
    magnus_csr_free(&P->A);
    magnus_csr_free(&P->B);
}

/* Row products: n_long rows of `long_products` each, spread among short rows of SHORT
 * products (the last one shorter) that carry `short_total` products together. *rows gets the
 * count; the caller frees the array. */
int64_t *row_plan(int64_t n_long, int64_t long_products, int64_t short_total,
                  int64_t *rows) {
    int64_t n_short = short_total / SHORT + (short_total % SHORT != 0);
    *rows = n_long + n_short;
    int64_t *products = calloc((size_t)(*rows ? *rows : 1), sizeof *products);
    cr_assert_not_null(products);
    int64_t every = n_long ? *rows / n_long : 0, placed = 0, left = short_total;
    for (int64_t i = 0; i < *rows; i++) {
        if (n_long && placed < n_long && i % every == every / 2) {
            products[i] = long_products;
            placed++;
        } else {
            products[i] = left < SHORT ? left : SHORT;
            left -= products[i];
        }
    }
    cr_assert_eq(placed, n_long);
    cr_assert_eq(left, 0);
    return products;
}

/* The pair (build_pair) whose rows of A have row_plan(n_long, long_products, short_total)'s
 * products. */
pair planned_pair(int64_t n_long, int64_t long_products, int64_t short_total,
                  magnus_value_type type) {
    int64_t rows;
    int64_t *products = row_plan(n_long, long_products, short_total, &rows);
    pair P = build_pair(products, rows, type);
    free(products);
    return P;
}

/* body(ctx, type, L) for each value type the default context's device supports, L the
 * context's long-row threshold for that type (binned_capacity), on the share rule alone
 * (share_rule_only). */
void for_each_type_on_share_rule(void (*body)(magnus_context ctx, magnus_value_type type,
                                              int64_t L)) {
    share_rule_only();
    magnus_context ctx = magnus_test_context();
    const magnus_value_type types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};
    for (int t = 0; t < 2; t++)
        if (type_supported(ctx, types[t])) body(ctx, types[t], binned_capacity(ctx, types[t]));
}

/* ---- the check of one product ------------------------------------------------------------ */

/* AUTO multiplies A·B on ctx (options from magnus_spgemm_options_init, or NULL), correctly,
 * and reports the threshold, the share and the algorithm of the host's rule. Returns the
 * report and the host's count. */
magnus_report check_auto_overflow(magnus_context ctx, const magnus_csr_s *A,
                                  const magnus_csr_s *B, host_share *out,
                                  host_overflow *over_out, const char *label) {
    magnus_report rep;
    int64_t reference_nnz;
    const uint64_t before = ctx->memory_in_use;
    magnus_csr C =
        multiply_and_compare(&rep, &reference_nnz, ctx, A, B, MAGNUS_ALGORITHM_AUTO, label);
    cr_assert_eq(ctx->memory_in_use, before, "%s: %llu device bytes still held", label,
                 (unsigned long long)(ctx->memory_in_use - before));
    cr_assert_eq(rep.nnz_c, reference_nnz, "%s", label);
    /* C narrow enough for dense rows: hash, decided from C's width alone (no shares) */
    const int64_t D = magnus_hash_dense_row_columns(ctx, A->type);
    cr_assert_eq(rep.dense_row_columns, D, "%s: dense rows up to %lld columns, expected %lld",
                 label, (long long)rep.dense_row_columns, (long long)D);
    /* (column stripes of a dense row, MAGNUS_DENSE_STRIPES, leave the choice to the shares,
     * unless C fits MAGNUS_AUTO_STRIPES of them) */
    const int64_t stripes = magnus_hash_dense_row_stripes(ctx, A->type, B->cols);
    const bool fits = (D > 0 && B->cols <= D) ||
                      (stripes > 1 && stripes <= magnus_dense_rows_knobs_of(ctx)->auto_stripes);
    cr_assert_eq(rep.auto_dense_rows, fits, "%s: %lld columns, dense rows up to %lld", label,
                 (long long)B->cols, (long long)D);
    if (fits) {
        cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH, "%s: %lld columns fit dense rows of "
                     "%lld, ran %s", label, (long long)B->cols, (long long)D,
                     magnus_algorithm_name(rep.algorithm));
        cr_assert(rep.algorithm_reason && strstr(rep.algorithm_reason, "dense row"), "%s: %s",
                  label, rep.algorithm_reason ? rep.algorithm_reason : "(null)");
        cr_assert(rep.auto_long_share == 0 && rep.auto_overflow_share == 0 &&
                      rep.auto_long_row_products == 0, "%s: shares counted", label);
        host_share h = share_of(A, B, binned_capacity(ctx, A->type));
        cr_assert_eq(rep.products_total, h.total, "%s", label);
        magnus_csr_free(&C);
        if (out) *out = h;
        if (over_out) memset(over_out, 0, sizeof *over_out);
        return rep;
    }
    const int64_t L = binned_capacity(ctx, A->type);
    cr_assert_eq(rep.auto_long_row_products, L, "%s: threshold %lld, the hash tables hold %lld",
                 label, (long long)rep.auto_long_row_products, (long long)L);
    host_share h = share_of(A, B, rep.auto_long_row_products);
    cr_assert_eq(rep.products_total, h.total, "%s: %lld products, host %lld", label,
                 (long long)rep.products_total, (long long)h.total);
    /* exact: the same ratio of the same two integers */
    cr_assert_eq(rep.auto_long_share, h.share,
                 "%s: long share %.17g, host %.17g (%lld of %lld products in %lld long rows)",
                 label, rep.auto_long_share, h.share, (long long)h.long_products,
                 (long long)h.total, (long long)h.long_rows);
    const int64_t N = numeric_capacity(ctx, A->type);
    cr_assert_eq(rep.auto_numeric_row_nnz, N, "%s: numeric capacity %lld, the tables hold %lld",
                 label, (long long)rep.auto_numeric_row_nnz, (long long)N);
    host_overflow o = overflow_of(A, B, C, N, L, h.total);
    magnus_csr_free(&C);
    cr_assert(fabs(rep.auto_overflow_share - o.share) <= o.bound,
              "%s: overflow share %.6f, host %.6f (%lld rows, bound %.6f)", label,
              rep.auto_overflow_share, o.share, (long long)o.rows, o.bound);
    /* the rule on what the device reported, and on the exact shares where the sample's error
     * cannot cross the limit */
    const double w = MAGNUS_AUTO_OVERFLOW_WEIGHT;
    const double reported = rep.auto_long_share + w * rep.auto_overflow_share;
    cr_assert_eq(rep.algorithm,
                 reported < MAGNUS_AUTO_HASH_MAX_LONG_SHARE ? MAGNUS_ALGORITHM_HASH
                                                            : MAGNUS_ALGORITHM_MAGNUS,
                 "%s: shares %.6f + %.6f ran %s (%s)", label, rep.auto_long_share,
                 rep.auto_overflow_share, magnus_algorithm_name(rep.algorithm),
                 rep.algorithm_reason);
    if (o.rows == 0)
        cr_assert_eq(rep.algorithm, rule_for(&h), "%s: share %.6f ran %s (%s)", label, h.share,
                     magnus_algorithm_name(rep.algorithm), rep.algorithm_reason);
    else if (fabs(h.share + w * o.share - MAGNUS_AUTO_HASH_MAX_LONG_SHARE) > w * o.bound)
        cr_assert_eq(rep.algorithm,
                     h.share + w * o.share < MAGNUS_AUTO_HASH_MAX_LONG_SHARE
                         ? MAGNUS_ALGORITHM_HASH
                         : MAGNUS_ALGORITHM_MAGNUS,
                     "%s: exact shares %.6f + %.6f ran %s", label, h.share, o.share,
                     magnus_algorithm_name(rep.algorithm));
    cr_assert_eq(rep.algorithm_requested, MAGNUS_ALGORITHM_AUTO, "%s", label);
    cr_assert(rep.algorithm_reason && strncmp(rep.algorithm_reason, "auto", 4) == 0,
              "%s: reason \"%s\"", label, rep.algorithm_reason ? rep.algorithm_reason : "(null)");
    cr_assert(rep.time_choice_ms >= 0 && rep.time_choice_ms <= rep.time_total_ms, "%s", label);
    if (out) *out = h;
    if (over_out) *over_out = o;
    return rep;
}

magnus_report check_auto(magnus_context ctx, const magnus_csr_s *A, const magnus_csr_s *B,
                         host_share *out, const char *label) {
    return check_auto_overflow(ctx, A, B, out, NULL, label);
}

/* The share rule alone: dense rows off in this test's process (each test runs in its own),
 * before its context is created; (e) tests the rule with them. */
void share_rule_only(void) { setenv("MAGNUS_DENSE_ROWS", "0", 1); }
