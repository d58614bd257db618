/*
 * MAGNUS_ALGORITHM_AUTO, the default (runtime/spgemm/spgemm_choice.c): which algorithm it runs
 * and why, against the rule computed here on the host from A and B alone. A row's products
 * are the sum of the lengths of the rows of B its columns name; a row is long when it has more
 * products than the hash accumulator's symbolic table holds within the context's budget
 * (auto_long_row_products, derived below from the context's probed budget, never assumed: the
 * machine's PoCL sizes its local memory from the host); the hash algorithm runs when the long
 * rows' share of the products plus MAGNUS_AUTO_OVERFLOW_WEIGHT times that of the overflow rows
 * (fewer products, more entries of C than the numeric tables hold: auto_numeric_row_nnz) is
 * less than MAGNUS_AUTO_HASH_MAX_LONG_SHARE, gMAGNUS otherwise. The overflow share is estimated on the device from rows drawn
 * at evenly spaced product positions; the host computes it exactly from C (check_overflow),
 * with the bound that such a sample guarantees. Every product is compared with the CPU
 * reference (multiply_and_compare).
 *
 * The inputs are built for the threshold L of the context at hand: B's rows have FULL entries
 * but for FULL - 1 rows of 1 .. FULL - 1, so that a row of A reaches any number of products
 * exactly (build_pair), and the share sits where a test wants it: well below the limit, well
 * above, one product either side of it, a row of exactly L products and one of L + 1.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "device_test_main.h"
#include "hash_private.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

#define FULL 8      /* entries of B's full rows */
#define B_COLS 512  /* columns of B (and C) */
#define SHORT 40    /* products of the short rows of the built inputs */

static const magnus_value_type both_types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};

static int type_supported(magnus_context ctx, magnus_value_type t) {
    return t == MAGNUS_FLOAT32 || ctx->device.fp64;
}

/* ---- the rule on the host ------------------------------------------------------------------ */

/* Products of row i of A·B: the lengths of the rows of B that A's row names. */
static int64_t row_products(const magnus_csr_s *A, const magnus_csr_s *B, int64_t i) {
    int64_t n = 0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
        n += B->row_ptr[A->col_idx[p] + 1] - B->row_ptr[A->col_idx[p]];
    return n;
}

typedef struct host_share {
    int64_t total;         /* products of A·B */
    int64_t long_products; /* those of rows with more than the threshold */
    int64_t long_rows;
    double share;          /* long_products / total (0 without products) */
} host_share;

static host_share share_of(const magnus_csr_s *A, const magnus_csr_s *B, int64_t threshold) {
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
static magnus_algorithm rule_for(const host_share *h) {
    return h->share < MAGNUS_AUTO_HASH_MAX_LONG_SHARE ? MAGNUS_ALGORITHM_HASH
                                                      : MAGNUS_ALGORITHM_MAGNUS;
}

/* The symbolic products the hash accumulator keeps in a local table within ctx's budget: the
 * largest binning key magnus_hash_bin_shape_of gives a local table (past it, a global one),
 * with the wide bins (local tables past the budget, the context's hash_wide_bins) off, as AUTO counts
 * them. */
static int64_t binned_capacity(const magnus_context_s *ctx, magnus_value_type type) {
    magnus_context_s c = *ctx; /* read by the host arithmetic only */
    magnus_accumulate_knobs_edit(&c)->hash_wide_bins = false;
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, 0, 1));
    if (sh.table == 0) return 0;
    int64_t lo = 1, hi = (int64_t)1 << 40; /* lo is kept locally, hi is not */
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, 0, hi));
    cr_assert_eq(sh.table, 0, "a key of 2^40 products in a local table");
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, 0, mid));
        if (sh.table) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The numeric tables' entries: the largest entry count magnus_hash_bin_shape_of gives a
 * local numeric table, without the wide bins. */
static int64_t numeric_capacity(const magnus_context_s *ctx, magnus_value_type type) {
    magnus_context_s c = *ctx;
    magnus_accumulate_knobs_edit(&c)->hash_wide_bins = false;
    magnus_hash_bin_shape sh;
    ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, 1, 1));
    if (sh.table == 0) return 0;
    int64_t lo = 1, hi = (int64_t)1 << 40;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        ASSERT_OK(magnus_hash_bin_shape_of(&sh, &c, type, 1, mid));
        if (sh.table) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The overflow rows of A·B from C: rows of (N, L] products with more than N entries. `share`
 * is their products over the total; `bound` what the device's sample of S evenly spaced
 * product positions may differ from it by: each maximal run of consecutive overflow rows is
 * one interval of positions, whose sample count is within one of its length times S / total,
 * and the positions are rounded to whole products (one more each side). */
typedef struct host_overflow {
    int64_t rows;
    double share, bound;
} host_overflow;

static host_overflow overflow_of(const magnus_csr_s *A, const magnus_csr_s *B,
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
static int64_t rule_capacity(uint64_t budget) {
    uint64_t reserved = HASH_LOCAL_RESERVE + HASH_ITEM_EXTRA;
    uint64_t keys = budget > reserved ? (budget - reserved) / MG_HASH_KEY_BYTES : 0, t = 1;
    while (2 * t <= keys) t *= 2;
    if (keys < 4) return 0;
    return (int64_t)(t - t / 4);
}

/* ---- inputs -------------------------------------------------------------------------------- */

/* Rows of A (each its number of products in A·B) and B: B has k_full rows of FULL entries,
 * then rows of 1 .. FULL - 1 entries; a row of p products takes p / FULL consecutive full rows
 * (from a start that moves with the row, so that C's rows differ) and the row of p % FULL.
 * build_pair spreads B's rows over B_COLS columns (C's rows have at most B_COLS entries);
 * build_tiled_pair tiles `width` columns with them, B's row r at columns r * FULL + j (mod
 * width), so that a row of p consecutive full rows has min(p, width) entries. */
typedef struct pair {
    magnus_csr A, B;
} pair;

static double value_of(uint64_t a, uint64_t b) {
    return 0.25 + (double)((a * 2654435761u + b * 40503u) % 97) / 32.0;
}

static pair build_pair_in(const int64_t *products, int64_t rows, magnus_value_type type,
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

static pair build_pair(const int64_t *products, int64_t rows, magnus_value_type type) {
    return build_pair_in(products, rows, type, B_COLS, false);
}

static pair build_tiled_pair(const int64_t *products, int64_t rows, magnus_value_type type,
                             int64_t width) {
    return build_pair_in(products, rows, type, width, true);
}

static void pair_free(pair *P) {
    magnus_csr_free(&P->A);
    magnus_csr_free(&P->B);
}

/* Row products: n_long rows of `long_products` each, spread among short rows of SHORT
 * products (the last one shorter) that carry `short_total` products together. *rows gets the
 * count; the caller frees the array. */
static int64_t *row_plan(int64_t n_long, int64_t long_products, int64_t short_total,
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

/* ---- the check of one product ------------------------------------------------------------ */

/* AUTO multiplies A·B on ctx (options from magnus_spgemm_options_init, or NULL), correctly,
 * and reports the threshold, the share and the algorithm of the host's rule. Returns the
 * report and the host's count. */
static magnus_report check_auto_overflow(magnus_context ctx, const magnus_csr_s *A,
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
    /* (column stripes of a dense row, MAGNUS_DENSE_STRIPES, leave the choice to the shares) */
    const bool fits = D > 0 && B->cols <= D;
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

static magnus_report check_auto(magnus_context ctx, const magnus_csr_s *A, const magnus_csr_s *B,
                                host_share *out, const char *label) {
    return check_auto_overflow(ctx, A, B, out, NULL, label);
}

/* The share rule alone: dense rows off in this test's process (each test runs in its own),
 * before its context is created; (e) tests the rule with them. */
static void share_rule_only(void) { setenv("MAGNUS_DENSE_ROWS", "0", 1); }

/* ---- the default ----------------------------------------------------------------------------- */

Test(spgemm_auto, is_the_default) {
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    cr_assert_eq(opt.algorithm, MAGNUS_ALGORITHM_AUTO);
    cr_assert_str_eq(magnus_algorithm_name(MAGNUS_ALGORITHM_AUTO), "auto");
    cr_assert_str_eq(magnus_algorithm_name(MAGNUS_ALGORITHM_MAGNUS), "magnus");
    cr_assert_str_eq(magnus_algorithm_name(MAGNUS_ALGORITHM_HASH), "hash");
    cr_assert_null(magnus_algorithm_name((magnus_algorithm)3));
    /* NULL options choose the same, through the host and the device entry points */
    magnus_context ctx = magnus_test_context();
    magnus_csr A = NULL;
    ASSERT_OK(magnus_gen_uniform(&A, 300, 300, 5, magnus_test_seed(71), MAGNUS_FLOAT32));
    magnus_report with, without, device;
    magnus_csr C = NULL;
    ASSERT_OK(magnus_spgemm(&C, ctx, A, A, &opt, &with));
    magnus_csr_free(&C);
    ASSERT_OK(magnus_spgemm(&C, ctx, A, A, NULL, &without));
    magnus_csr_free(&C);
    magnus_device_csr dA = NULL, dC = NULL;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dA, NULL, &device));
    magnus_report *r[] = {&with, &without, &device};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(r[i]->algorithm_requested, MAGNUS_ALGORITHM_AUTO, "report %d", i);
        cr_assert_eq(r[i]->algorithm, with.algorithm, "report %d", i);
        cr_assert_eq(r[i]->auto_long_row_products, with.auto_long_row_products, "report %d", i);
        cr_assert_eq(r[i]->auto_long_share, with.auto_long_share, "report %d", i);
        cr_assert(r[i]->algorithm_reason && r[i]->algorithm_reason[0], "report %d", i);
    }
    magnus_csr D = NULL, R = NULL, M = NULL;
    ASSERT_OK(magnus_device_csr_download(&D, dC));
    ASSERT_OK(magnus_reference_spgemm(&R, &M, A, A));
    ASSERT_OK(magnus_csr_compare(NULL, D, R, M, 0));
    /* a forced algorithm says so, and has no choice to report */
    for (int a = 0; a < 2; a++) {
        opt.algorithm = a ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
        magnus_report forced;
        ASSERT_OK(magnus_spgemm(&C, ctx, A, A, &opt, &forced));
        magnus_csr_free(&C);
        cr_assert_eq(forced.algorithm, opt.algorithm);
        cr_assert_eq(forced.algorithm_requested, opt.algorithm);
        cr_assert(forced.algorithm_reason && forced.algorithm_reason[0]);
        cr_assert_eq(forced.time_choice_ms, 0.0);
    }
    magnus_csr_free(&D);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
    ASSERT_OK(magnus_device_csr_free(&dC));
    ASSERT_OK(magnus_device_csr_free(&dA));
    magnus_csr_free(&A);
}

/* ---- (a) long rows carry well under the limit: the hash algorithm ------------------------ */

Test(spgemm_auto, hash_when_long_rows_carry_little) {
    share_rule_only(); /* B_COLS columns would fit dense rows */
    magnus_context ctx = magnus_test_context();
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = both_types[t];
        if (!type_supported(ctx, type)) continue;
        const int64_t L = binned_capacity(ctx, type);
        if (L < SHORT) /* the inputs are built from L: a device this small cannot take them */
            cr_skip_test("a %llu-byte budget holds tables of %lld products (this test needs %d)",
                         (unsigned long long)ctx->device.local_mem_bytes, (long long)L, SHORT);
        /* one long row of 2L products among short rows that carry nine times as many: 10 % */
        int64_t rows;
        int64_t *products = row_plan(1, 2 * L, 18 * L, &rows);
        pair P = build_pair(products, rows, type);
        host_share h;
        check_auto(ctx, P.A, P.B, &h, "one long row, 10 %");
        cr_assert_eq(h.long_rows, 1);
        cr_assert(h.share > 0.05 && h.share < 0.15, "share %g", h.share);
        free(products);
        pair_free(&P);
        /* a uniform random matrix squared and a banded one: no row long at all */
        magnus_csr U = NULL;
        ASSERT_OK(magnus_gen_uniform(&U, 2000, 2000, 6, magnus_test_seed(72), type));
        magnus_report rep = check_auto(ctx, U, U, &h, "uniform 6 per row squared");
        cr_assert(h.total > 0 && h.long_rows == 0, "%lld long rows", (long long)h.long_rows);
        cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH);
        cr_assert_eq(rep.auto_long_share, 0.0);
        magnus_csr_free(&U);
        ASSERT_OK(magnus_gen_banded(&U, 3000, 3, 4, magnus_test_seed(73), type));
        rep = check_auto(ctx, U, U, &h, "banded squared");
        cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH);
        magnus_csr_free(&U);
    }
}

/* ---- (b) long rows carry most products: gMAGNUS ------------------------------------------ */

Test(spgemm_auto, gmagnus_when_long_rows_carry_most) {
    share_rule_only(); /* B_COLS columns would fit dense rows */
    magnus_context ctx = magnus_test_context();
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = both_types[t];
        if (!type_supported(ctx, type)) continue;
        const int64_t L = binned_capacity(ctx, type);
        /* four rows of 3L products among short rows of 2L together: 6/7 of the products */
        int64_t rows;
        int64_t *products = row_plan(4, 3 * L, 2 * L, &rows);
        pair P = build_pair(products, rows, type);
        host_share h;
        magnus_report rep = check_auto(ctx, P.A, P.B, &h, "four long rows, 86 %");
        cr_assert_eq(h.long_rows, 4);
        cr_assert(h.share > 0.8 && h.share < 0.9, "share %g", h.share);
        cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS);
        cr_assert_gt(rep.rows_heavy, 0, "gMAGNUS ran with no heavy row");
        free(products);
        pair_free(&P);
    }
}

/* R-MAT squared (power-law rows) and a uniform product, on the default budget and on small
 * ones (where far more rows are long): whatever the share, the algorithm of the host's rule. */
Test(spgemm_auto, rule_on_generated_inputs) {
    const uint64_t budgets[] = {0, 1024, 4096};
    int ran[2] = {0, 0};
    for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
        magnus_context ctx = magnus_test_budget_context(budgets[b]);
        for (int t = 0; t < 2; t++) {
            magnus_value_type type = both_types[t];
            if (!type_supported(ctx, type)) continue;
            magnus_csr R = magnus_test_rmat(10, 16, 74, type), U = NULL;
            ASSERT_OK(magnus_gen_uniform(&U, 1000, 1000, 12, magnus_test_seed(75), type));
            char label[96];
            snprintf(label, sizeof label, "R-MAT 2^10 x 16, budget %llu",
                     (unsigned long long)ctx->device.local_mem_bytes);
            magnus_report rep = check_auto(ctx, R, R, NULL, label);
            ran[rep.algorithm == MAGNUS_ALGORITHM_HASH]++;
            snprintf(label, sizeof label, "uniform 12 per row, budget %llu",
                     (unsigned long long)ctx->device.local_mem_bytes);
            rep = check_auto(ctx, U, U, NULL, label);
            ran[rep.algorithm == MAGNUS_ALGORITHM_HASH]++;
            magnus_csr_free(&R);
            magnus_csr_free(&U);
        }
        magnus_context_free(&ctx);
    }
    /* a 1 KiB budget holds tables of under a hundred products: R-MAT's rows are long there */
    cr_assert_gt(ran[0], 0, "gMAGNUS never ran");
    cr_assert_gt(ran[1], 0, "the hash algorithm never ran");
}

/* ---- (c) just around the thresholds ---------------------------------------------------------- */

/* Two long rows of L + 1 products (PL together) and short rows of 3 PL + delta: the share is
 * PL / (4 PL + delta), just below the limit for delta 1, the limit itself for 0 (gMAGNUS: "the
 * limit or more") and just above for -1. */
Test(spgemm_auto, share_one_product_either_side_of_the_limit) {
    share_rule_only(); /* B_COLS columns would fit dense rows */
    magnus_context ctx = magnus_test_context();
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = both_types[t];
        if (!type_supported(ctx, type)) continue;
        const int64_t L = binned_capacity(ctx, type), PL = 2 * (L + 1);
        const int64_t deltas[] = {1, 0, -1};
        const magnus_algorithm expect[] = {MAGNUS_ALGORITHM_HASH, MAGNUS_ALGORITHM_MAGNUS,
                                           MAGNUS_ALGORITHM_MAGNUS};
        for (int d = 0; d < 3; d++) {
            int64_t rows;
            int64_t *products = row_plan(2, L + 1, 3 * PL + deltas[d], &rows);
            pair P = build_pair(products, rows, type);
            /* the host's count from A and B alone, before the device's */
            host_share h = share_of(P.A, P.B, L);
            cr_assert_eq(h.long_rows, 2);
            cr_assert_eq(h.long_products, PL);
            cr_assert_eq(h.total, 4 * PL + deltas[d]);
            cr_assert(deltas[d] > 0 ? h.share < MAGNUS_AUTO_HASH_MAX_LONG_SHARE
                      : deltas[d] == 0 ? h.share == MAGNUS_AUTO_HASH_MAX_LONG_SHARE
                                       : h.share > MAGNUS_AUTO_HASH_MAX_LONG_SHARE,
                      "share %.17g for delta %lld", h.share, (long long)deltas[d]);
            char label[64];
            snprintf(label, sizeof label, "share %lld / %lld", (long long)h.long_products,
                     (long long)h.total);
            magnus_report rep = check_auto(ctx, P.A, P.B, NULL, label);
            cr_assert_eq(rep.algorithm, expect[d], "%s ran %s", label,
                         magnus_algorithm_name(rep.algorithm));
            free(products);
            pair_free(&P);
        }
    }
}

/* A row of exactly L products is not long (share 0: hash); one of L + 1 is (with short rows
 * of 400 products beside it, it carries more than the limit: gMAGNUS). */
Test(spgemm_auto, row_of_exactly_the_threshold_is_not_long) {
    share_rule_only(); /* B_COLS columns would fit dense rows */
    magnus_context ctx = magnus_test_context();
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = both_types[t];
        if (!type_supported(ctx, type)) continue;
        const int64_t L = binned_capacity(ctx, type);
        if (L < 400) /* the short rows beside the long one have 400 products */
            cr_skip_test("the budget's tables hold only %lld products (this test needs 400)",
                         (long long)L);
        for (int64_t extra = 0; extra < 2; extra++) {
            int64_t rows;
            int64_t *products = row_plan(1, L + extra, 400, &rows);
            pair P = build_pair(products, rows, type);
            host_share h;
            char label[64];
            snprintf(label, sizeof label, "a row of L + %lld products", (long long)extra);
            magnus_report rep = check_auto(ctx, P.A, P.B, &h, label);
            cr_assert_eq(h.long_rows, extra);
            cr_assert_eq(rep.algorithm, extra ? MAGNUS_ALGORITHM_MAGNUS : MAGNUS_ALGORITHM_HASH,
                         "%s", label);
            if (!extra) cr_assert_eq(rep.auto_long_share, 0.0);
            free(products);
            pair_free(&P);
        }
    }
}

/* ---- (d) the threshold is what the hash tables hold within the budget ----------------------- */

static void check_threshold(magnus_context ctx, uint64_t budget, const char *which) {
    cr_assert_eq(ctx->device.local_mem_bytes, budget, "%s: budget %llu, expected %llu", which,
                 (unsigned long long)ctx->device.local_mem_bytes, (unsigned long long)budget);
    magnus_csr A = NULL;
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = both_types[t];
        if (!type_supported(ctx, type)) continue;
        ASSERT_OK(magnus_gen_uniform(&A, 200, 200, 4, magnus_test_seed(76), type));
        magnus_report rep = check_auto(ctx, A, A, NULL, which); /* the bins' boundary */
        cr_assert_eq(rep.local_mem_bytes, budget, "%s", which);
        cr_assert_eq(rep.auto_long_row_products, rule_capacity(budget),
                     "%s (%llu bytes): threshold %lld, the rule gives %lld", which,
                     (unsigned long long)budget, (long long)rep.auto_long_row_products,
                     (long long)rule_capacity(budget));
        magnus_csr_free(&A);
    }
}

Test(spgemm_auto, threshold_from_the_budget) {
    share_rule_only(); /* a 200-column C would fit dense rows: no threshold counted */
    magnus_device_info dev;
    ASSERT_OK(magnus_device_select(&dev)); /* the probe's: the device's own local memory */
    /* the default budget: MAGNUS_LOCAL_MEM_BYTES where a variant sets it, else
     * min(device, MAGNUS_DEFAULT_LOCAL_MEM_BUDGET) */
    const char *env = getenv("MAGNUS_LOCAL_MEM_BYTES");
    uint64_t def = env && *env ? strtoull(env, NULL, 0)
                   : dev.local_mem_bytes < MAGNUS_DEFAULT_LOCAL_MEM_BUDGET
                       ? dev.local_mem_bytes
                       : MAGNUS_DEFAULT_LOCAL_MEM_BUDGET;
    check_threshold(magnus_test_context(), def, "default budget");
    check_threshold(magnus_test_whole_budget_context(), dev.local_mem_bytes, "whole device");
    const uint64_t budgets[] = {1024, 4096, 20000};
    for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
        if (budgets[i] > dev.local_mem_bytes) continue; /* more than this device has */
        magnus_context ctx = magnus_test_budget_context(budgets[i]);
        char which[48];
        snprintf(which, sizeof which, "a %llu-byte budget", (unsigned long long)budgets[i]);
        check_threshold(ctx, budgets[i], which);
        magnus_context_free(&ctx);
    }
}

/* ---- degenerate inputs and budgets ----------------------------------------------------------- */

Test(spgemm_auto, no_products) {
    magnus_context ctx = magnus_test_context();
    magnus_csr Z = NULL, E = NULL, B = NULL;
    ASSERT_OK(magnus_csr_new(&Z, 0, 0, 0, MAGNUS_FLOAT32));
    ASSERT_OK(magnus_csr_new(&E, 50, 40, 0, MAGNUS_FLOAT32)); /* rows, no entries */
    ASSERT_OK(magnus_gen_uniform(&B, 40, 30, 3, magnus_test_seed(77), MAGNUS_FLOAT32));
    host_share h;
    magnus_report rep = check_auto(ctx, Z, Z, &h, "0 x 0");
    cr_assert_eq(h.total, 0);
    cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH);
    rep = check_auto(ctx, E, B, &h, "empty rows");
    cr_assert_eq(rep.auto_long_share, 0.0);
    cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH);
    magnus_csr_free(&Z);
    magnus_csr_free(&E);
    magnus_csr_free(&B);
}

/* Budgets from far too small up: AUTO either multiplies correctly or refuses with
 * MAGNUS_ERROR_INVALID_ARGUMENT and a message that gives the budget, never crashes, leaves no C
 * and holds no device memory after. */
Test(spgemm_auto, tiny_budgets_refused_cleanly) {
    magnus_csr A = magnus_test_rmat(8, 4, 78, MAGNUS_FLOAT32), R = NULL, M = NULL;
    ASSERT_OK(magnus_reference_spgemm(&R, &M, A, A));
    const uint64_t budgets[] = {16, 32, 64, 100, 200, 512};
    int refused = 0;
    for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
        magnus_context ctx = magnus_test_budget_context(budgets[i]);
        magnus_csr C = (magnus_csr)&budgets; /* an output only: overwritten */
        magnus_report rep;
        magnus_status s = magnus_spgemm(&C, ctx, A, A, NULL, &rep);
        if (s == MAGNUS_SUCCESS) {
            ASSERT_OK(magnus_csr_compare(NULL, C, R, M, 0));
            cr_assert_eq(rep.algorithm_requested, MAGNUS_ALGORITHM_AUTO);
        } else {
            cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "budget %llu: %s (%s)",
                         (unsigned long long)budgets[i], magnus_status_string(s),
                         magnus_last_error());
            cr_assert_null(C);
            char bytes[32];
            snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)budgets[i]);
            cr_assert(strstr(magnus_last_error(), bytes) != NULL, "budget %llu: %s",
                      (unsigned long long)budgets[i], magnus_last_error());
            refused++;
        }
        cr_assert_eq(ctx->memory_in_use, 0, "budget %llu: %llu device bytes still held",
                     (unsigned long long)budgets[i], (unsigned long long)ctx->memory_in_use);
        magnus_csr_free(&C);
        magnus_context_free(&ctx);
    }
    cr_assert_gt(refused, 0, "a 16-byte budget multiplied");
    magnus_csr_free(&A);
    magnus_csr_free(&R);
    magnus_csr_free(&M);
}

/* ---- (d) overflow rows: few products per entry pass the numeric tables --------------------- */

/* B: `k` rows of FULL distinct columns each, no column shared (row r: r * FULL + j), then k rows
 * that all name columns 0 .. FULL - 1. Row i of A takes m[i] rows of the first half from its
 * own start (every product a new entry of C: nothing merges) or, where same[i], m[i] rows of
 * the second (m[i] * FULL products merge into FULL entries). */
static pair build_overflow_pair(const int64_t *m, const bool *same, int64_t rows, int64_t k,
                                magnus_value_type type) {
    pair P;
    ASSERT_OK(magnus_csr_new(&P.B, 2 * k, k * FULL, 2 * k * FULL, type));
    int64_t q = 0;
    for (int64_t r = 0; r < 2 * k; r++) {
        P.B->row_ptr[r] = q;
        for (int64_t j = 0; j < FULL; j++, q++) {
            P.B->col_idx[q] = (int32_t)(r < k ? r * FULL + j : j);
            ref_set_value(P.B, q, value_of((uint64_t)r, (uint64_t)j));
        }
    }
    P.B->row_ptr[2 * k] = q;
    int64_t a_nnz = 0;
    for (int64_t i = 0; i < rows; i++) a_nnz += m[i];
    ASSERT_OK(magnus_csr_new(&P.A, rows, 2 * k, a_nnz, type));
    q = 0;
    for (int64_t i = 0, start = 0; i < rows; i++) {
        cr_assert_leq(m[i], k);
        P.A->row_ptr[i] = q;
        if (start + m[i] > k) start = 0;
        for (int64_t j = 0; j < m[i]; j++, q++) {
            P.A->col_idx[q] = (int32_t)((same[i] ? k : 0) + start + j);
            ref_set_value(P.A, q, value_of((uint64_t)i + 3, (uint64_t)q));
        }
        start += m[i];
    }
    P.A->row_ptr[rows] = q;
    ASSERT_OK(magnus_csr_validate(P.A));
    ASSERT_OK(magnus_csr_validate(P.B));
    return P;
}

/* n_over rows of P products in (N, L] (N: the numeric tables' entries, L: the symbolic
 * tables' products), every `every`-th row, among rows of FULL products: with distinct
 * columns they overflow the numeric tables, with merging ones they do not. The shares are set
 * well away from the limit (the sample's bound is a few hundredths), so the exact rule is
 * checked (check_auto_overflow). */
Test(spgemm_auto, overflow_rows_count_toward_the_limit) {
    /* a small budget, so that the tables hold hundreds of entries and the inputs stay small */
    magnus_context ctx = magnus_test_budget_context(8192);
    int checked = 0;
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = both_types[t];
        if (!type_supported(ctx, type)) continue;
        const int64_t L = binned_capacity(ctx, type), N = numeric_capacity(ctx, type);
        const int64_t mrow = N / FULL + 1; /* B rows per overflow row: P = mrow * FULL > N */
        if (N <= 0 || mrow * FULL > L) /* the symbolic tables must hold such a row */
            cr_skip_test("budget %llu: numeric %lld, symbolic %lld",
                         (unsigned long long)ctx->device.local_mem_bytes, (long long)N,
                         (long long)L);
        const int64_t P = mrow * FULL;
        /* overflow shares of about 20 % (weighted 40 %: gMAGNUS) and 5 % (weighted 10 %:
         * hash) when distinct; the weighted bound of the sample is about 0.1 */
        const double targets[] = {0.20, 0.05};
        for (int g = 0; g < 2; g++) {
            for (int merge = 0; merge < 2; merge++) {
                const int64_t n_over = 12;
                const int64_t over_products = n_over * P;
                const int64_t n_short =
                    (int64_t)((double)over_products * (1 - targets[g]) / targets[g]) / FULL;
                const int64_t rows = n_over + n_short, every = rows / n_over;
                int64_t *m = calloc((size_t)rows, sizeof *m);
                bool *same = calloc((size_t)rows, sizeof *same);
                cr_assert(m && same);
                int64_t placed = 0;
                for (int64_t i = 0; i < rows; i++) {
                    bool over = placed < n_over && i % every == every / 2;
                    m[i] = over ? mrow : 1;
                    same[i] = over && merge;
                    placed += over;
                }
                pair Q = build_overflow_pair(m, same, rows, mrow * 4 > 64 ? mrow * 4 : 64, type);
                char label[96];
                snprintf(label, sizeof label, "%s, %lld rows of %lld products, %s",
                         type == MAGNUS_FLOAT32 ? "f32" : "f64", (long long)n_over,
                         (long long)P, merge ? "merging" : "distinct");
                host_share h;
                host_overflow o;
                magnus_report rep = check_auto_overflow(ctx, Q.A, Q.B, &h, &o, label);
                cr_assert_eq(h.long_rows, 0, "%s", label);
                if (merge) {
                    cr_assert_eq(o.rows, 0, "%s", label);
                    cr_assert_eq(rep.auto_overflow_share, 0.0, "%s", label);
                    cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH, "%s", label);
                } else {
                    cr_assert_eq(o.rows, n_over, "%s", label);
                    cr_assert(fabs(o.share - targets[g]) < 0.02, "%s: share %g", label, o.share);
                    cr_assert_eq(rep.algorithm,
                                 g == 0 ? MAGNUS_ALGORITHM_MAGNUS : MAGNUS_ALGORITHM_HASH,
                                 "%s ran %s", label, magnus_algorithm_name(rep.algorithm));
                }
                checked++;
                free(m);
                free(same);
                pair_free(&Q);
            }
        }
    }
    cr_assert_gt(checked, 0);
    magnus_context_free(&ctx);
}

/* ---- (e) C narrow enough for dense rows: the hash algorithm, whatever the shares ------------ */

/* Entries of row i of A·B: the distinct columns of the rows of B that A's row names. */
static int64_t row_entries(const magnus_csr_s *A, const magnus_csr_s *B, int64_t i) {
    bool *seen = calloc((size_t)B->cols, sizeof *seen);
    cr_assert_not_null(seen);
    int64_t n = 0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
        for (int64_t q = B->row_ptr[A->col_idx[p]]; q < B->row_ptr[A->col_idx[p] + 1]; q++)
            if (!seen[B->col_idx[q]]) {
                seen[B->col_idx[q]] = true;
                n++;
            }
    free(seen);
    return n;
}

/* The rows of A·B that go dense (hash_dense_rows.c), with C as wide as dense rows hold, from
 * the context's own thresholds: in the symbolic phase a row whose key, its products capped at
 * B's columns, exceeds what a local table counts (S); in the numeric phase a row of more
 * entries than max(width / dense_row_share, HASH_DENSE_MIN_ENTRIES) or than a local table
 * holds (N). The report counts the larger phase. */
static int64_t expected_dense_rows(const magnus_context_s *ctx, const magnus_csr_s *A,
                                   const magnus_csr_s *B) {
    int64_t S = 0, N = 0;
    magnus_hash_local_capacity(ctx, A->type, &S, &N);
    const uint32_t share = magnus_accumulate_knobs_of(ctx)->dense_row_share;
    int64_t cut = share ? B->cols / share : INT64_MAX;
    if (cut < HASH_DENSE_MIN_ENTRIES) cut = HASH_DENSE_MIN_ENTRIES;
    if (cut > N) cut = N;
    int64_t symbolic = 0, numeric = 0;
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t key = row_products(A, B, i);
        if (key > B->cols) key = B->cols;
        symbolic += key > S;
        numeric += row_entries(A, B, i) > cut;
    }
    return symbolic > numeric ? symbolic : numeric;
}

/* The long rows of (b), 86 % of the products, with C exactly as wide as this context's dense
 * rows hold, D columns (hash: the long rows become dense rows) and one column wider (the share
 * rule: gMAGNUS). The long rows fill C's width (build_tiled_pair), so that they go dense
 * whichever phase's tables they outgrow: where D exceeds the symbolic tables' products (f32 at
 * 48 KiB: 10,670 columns, tables of 6,144), their keys do; where it does not (f64 at 48 KiB,
 * NVIDIA's OpenCL on the H200: 5,291 columns), a local table counts any row of C and the rows
 * go dense in the numeric phase, past max(D / share, 512) entries. */
Test(spgemm_auto, dense_rows_either_side_of_the_width) {
    magnus_context ctx = magnus_test_context();
    int ran = 0;
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = both_types[t];
        if (!type_supported(ctx, type)) continue;
        const int64_t D = magnus_hash_dense_row_columns(ctx, type);
        const int64_t L = binned_capacity(ctx, type);
        /* a row of D entries outgrows the symbolic tables (D > L) or the numeric cut, which
         * is below D when D exceeds HASH_DENSE_MIN_ENTRIES */
        if (D < FULL || (D <= L && D <= HASH_DENSE_MIN_ENTRIES)) continue;
        int64_t rows;
        int64_t *products = row_plan(4, 3 * L, 2 * L, &rows);
        pair P = build_tiled_pair(products, rows, type, D);
        char label[128];
        snprintf(label, sizeof label, "%s, C of %lld columns, symbolic tables of %lld products",
                 type == MAGNUS_FLOAT32 ? "f32" : "f64", (long long)D, (long long)L);
        const int64_t expected = expected_dense_rows(ctx, P.A, P.B);
        cr_assert_eq(expected, 4, "%s: the inputs make %lld dense rows", label,
                     (long long)expected);
        magnus_report rep = check_auto(ctx, P.A, P.B, NULL, label);
        cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH, "%s", label);
        cr_assert_eq(rep.auto_dense_rows, 1, "%s", label);
        cr_assert_eq(rep.rows_dense, 4, "%s: dense rows %lld", label, (long long)rep.rows_dense);
        P.B->cols = D + 1;
        /* stripes off and on (two stripes of D): the shares decide either way */
        for (uint32_t stripes = 0; stripes <= 2; stripes += 2) {
            magnus_accumulate_knobs_edit(ctx)->dense_row_stripes = stripes;
            rep = check_auto(ctx, P.A, P.B, NULL, "C one column wider");
            cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS, "%s, one column wider, %u "
                         "stripes", label, stripes);
            cr_assert_eq(rep.auto_dense_rows, 0, "%s, one column wider", label);
        }
        magnus_accumulate_knobs_edit(ctx)->dense_row_stripes = MAGNUS_DENSE_STRIPES_DEFAULT;
        free(products);
        pair_free(&P);
        ran++;
    }
    if (!ran)
        cr_skip_test("this device's dense rows hold at most %d columns, within its hash tables",
                     HASH_DENSE_MIN_ENTRIES);
}
