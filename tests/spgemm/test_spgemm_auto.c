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
#include "auto_test_util.h"

static const magnus_value_type both_types[] = {MAGNUS_FLOAT32, MAGNUS_FLOAT64};

/* ---- the default ----------------------------------------------------------------------------- */

Test(spgemm_auto, is_the_default) {
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    cr_assert_eq(opt.algorithm, MAGNUS_ALGORITHM_AUTO);
    cr_assert_str_eq(magnus_algorithm_name(MAGNUS_ALGORITHM_AUTO), "auto");
    cr_assert_str_eq(magnus_algorithm_name(MAGNUS_ALGORITHM_GMAGNUS), "gmagnus");
    cr_assert_eq(MAGNUS_ALGORITHM_MAGNUS, MAGNUS_ALGORITHM_GMAGNUS); /* the former name */
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

/* (on the share rule alone, here and below: B_COLS columns would fit dense rows) */
static void hash_when_long_rows_carry_little_for(magnus_context ctx, magnus_value_type type,
                                                 int64_t L) {
    if (L < SHORT) /* the inputs are built from L: a device this small cannot take them */
        cr_skip_test("a %llu-byte budget holds tables of %lld products (this test needs %d)",
                     (unsigned long long)ctx->device.local_mem_bytes, (long long)L, SHORT);
    /* one long row of 2L products among short rows that carry nine times as many: 10 % */
    pair P = planned_pair(1, 2 * L, 18 * L, type);
    host_share h;
    check_auto(ctx, P.A, P.B, &h, "one long row, 10 %");
    cr_assert_eq(h.long_rows, 1);
    cr_assert(h.share > 0.05 && h.share < 0.15, "share %g", h.share);
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

Test(spgemm_auto, hash_when_long_rows_carry_little) {
    for_each_type_on_share_rule(hash_when_long_rows_carry_little_for);
}

/* ---- (b) long rows carry most products: gMAGNUS ------------------------------------------ */

static void gmagnus_when_long_rows_carry_most_for(magnus_context ctx, magnus_value_type type,
                                                  int64_t L) {
    /* four rows of 3L products among short rows of 2L together: 6/7 of the products */
    pair P = planned_pair(4, 3 * L, 2 * L, type);
    host_share h;
    magnus_report rep = check_auto(ctx, P.A, P.B, &h, "four long rows, 86 %");
    cr_assert_eq(h.long_rows, 4);
    cr_assert(h.share > 0.8 && h.share < 0.9, "share %g", h.share);
    cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS);
    cr_assert_gt(rep.rows_heavy, 0, "gMAGNUS ran with no heavy row");
    pair_free(&P);
}

Test(spgemm_auto, gmagnus_when_long_rows_carry_most) {
    for_each_type_on_share_rule(gmagnus_when_long_rows_carry_most_for);
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
static void share_one_product_either_side_of_the_limit_for(magnus_context ctx,
                                                           magnus_value_type type, int64_t L) {
    const int64_t PL = 2 * (L + 1);
    const int64_t deltas[] = {1, 0, -1};
    const magnus_algorithm expect[] = {MAGNUS_ALGORITHM_HASH, MAGNUS_ALGORITHM_MAGNUS,
                                       MAGNUS_ALGORITHM_MAGNUS};
    for (int d = 0; d < 3; d++) {
        pair P = planned_pair(2, L + 1, 3 * PL + deltas[d], type);
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
        pair_free(&P);
    }
}

Test(spgemm_auto, share_one_product_either_side_of_the_limit) {
    for_each_type_on_share_rule(share_one_product_either_side_of_the_limit_for);
}

/* A row of exactly L products is not long (share 0: hash); one of L + 1 is (with short rows
 * of 400 products beside it, it carries more than the limit: gMAGNUS). */
static void row_of_exactly_the_threshold_is_not_long_for(magnus_context ctx,
                                                         magnus_value_type type, int64_t L) {
    if (L < 400) /* the short rows beside the long one have 400 products */
        cr_skip_test("the budget's tables hold only %lld products (this test needs 400)",
                     (long long)L);
    for (int64_t extra = 0; extra < 2; extra++) {
        pair P = planned_pair(1, L + extra, 400, type);
        host_share h;
        char label[64];
        snprintf(label, sizeof label, "a row of L + %lld products", (long long)extra);
        magnus_report rep = check_auto(ctx, P.A, P.B, &h, label);
        cr_assert_eq(h.long_rows, extra);
        cr_assert_eq(rep.algorithm, extra ? MAGNUS_ALGORITHM_MAGNUS : MAGNUS_ALGORITHM_HASH,
                     "%s", label);
        if (!extra) cr_assert_eq(rep.auto_long_share, 0.0);
        pair_free(&P);
    }
}

Test(spgemm_auto, row_of_exactly_the_threshold_is_not_long) {
    for_each_type_on_share_rule(row_of_exactly_the_threshold_is_not_long_for);
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
