/*
 * AUTO's choice on rows the share rule alone would misjudge (test_spgemm_auto.c has the rule):
 * overflow rows, whose few products per entry pass the numeric tables, and C narrow enough for
 * dense rows. Part of the spgemm_auto executable.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "device_test_util.h"
#include "hash_private.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

#include "auto_test_util.h"

static const magnus_value_type both_types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};

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

/* The rows of A·B that go dense (runtime/accumulate/dense/dense_rows.c), with C as wide as dense rows hold, from
 * the context's own thresholds: in the symbolic phase a row whose key, its products capped at
 * B's columns, exceeds what a local table counts (S); in the numeric phase a row of more
 * entries than max(width / dense_row_share, MAGNUS_DENSE_MIN_ENTRIES) or than a local table
 * holds (N). The report counts the larger phase. */
static int64_t expected_dense_rows(const magnus_context_s *ctx, const magnus_csr_s *A,
                                   const magnus_csr_s *B) {
    int64_t S = 0, N = 0;
    magnus_hash_local_capacity(ctx, A->type, &S, &N);
    const uint32_t share = magnus_dense_rows_knobs_of(ctx)->dense_row_share;
    int64_t cut = share ? B->cols / share : INT64_MAX;
    if (cut < MAGNUS_DENSE_MIN_ENTRIES) cut = MAGNUS_DENSE_MIN_ENTRIES;
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
         * is below D when D exceeds MAGNUS_DENSE_MIN_ENTRIES */
        if (D < FULL || (D <= L && D <= MAGNUS_DENSE_MIN_ENTRIES)) continue;
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
            magnus_dense_rows_knobs_edit(ctx)->dense_row_stripes = stripes;
            rep = check_auto(ctx, P.A, P.B, NULL, "C one column wider");
            cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS, "%s, one column wider, %u "
                         "stripes", label, stripes);
            cr_assert_eq(rep.auto_dense_rows, 0, "%s, one column wider", label);
        }
        /* MAGNUS_AUTO_STRIPES at least the stripes C needs (2 where this device's dense rows
         * take stripes): hash outright, saying so; below: the shares */
        const int64_t S = magnus_hash_dense_row_stripes(ctx, type, D + 1);
        for (uint32_t auto_stripes = 1; auto_stripes <= 2; auto_stripes++) {
            magnus_dense_rows_knobs_edit(ctx)->auto_stripes = auto_stripes;
            rep = check_auto(ctx, P.A, P.B, NULL, "C one column wider, AUTO by stripes");
            const bool by_stripes = S > 1 && S <= (int64_t)auto_stripes;
            cr_assert_eq(rep.algorithm,
                         by_stripes ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_GMAGNUS,
                         "%s, one column wider, MAGNUS_AUTO_STRIPES=%u", label, auto_stripes);
            cr_assert_eq(rep.auto_dense_rows, by_stripes, "%s, MAGNUS_AUTO_STRIPES=%u", label,
                         auto_stripes);
            cr_assert_eq(strstr(rep.algorithm_reason, "MAGNUS_AUTO_STRIPES") != NULL, by_stripes,
                         "%s: %s", label, rep.algorithm_reason);
        }
        magnus_dense_rows_knobs_edit(ctx)->auto_stripes = 0;
        magnus_dense_rows_knobs_edit(ctx)->dense_row_stripes = MAGNUS_DENSE_STRIPES_DEFAULT;
        free(products);
        pair_free(&P);
        ran++;
    }
    if (!ran)
        cr_skip_test("this device's dense rows hold at most %d columns, within its hash tables",
                     MAGNUS_DENSE_MIN_ENTRIES);
}
