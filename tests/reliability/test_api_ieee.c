/*
 * How NaN, Inf and explicit zeros go through a product, by the CPU reference and on the device
 * with both algorithms (part of test_api_errors: test_api_errors.c): IEEE rules, and an entry
 * is never dropped for its value. The device test skips where no device exists.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api_errors_test_util.h"
#include "context_test_util.h"

/* ---- NaN, Inf and explicit zeros through a product ------------------------------------------ */

/*
 * A (3x3) has NaN, +Inf, -Inf and an explicit zero; B (3x2) too. Each entry of C is checked
 * against the IEEE result of its sum, formed in the same order (A's row, then B's row).
 */
static void ieee_operands(magnus_csr *A, magnus_csr *B, magnus_value_type type) {
    const double inf = INFINITY;
    /* A: row 0 {0: NaN, 1: 1}, row 1 {0: +Inf, 2: 0}, row 2 {1: -Inf, 2: +Inf} */
    static const int64_t arp[4] = {0, 2, 4, 6};
    static const int32_t aci[6] = {0, 1, 0, 2, 1, 2};
    const double av[6] = {NAN, 1, inf, 0, -inf, inf};
    /* B: row 0 {0: 2}, row 1 {0: 0, 1: 3}, row 2 {0: 1, 1: 5} */
    static const int64_t brp[4] = {0, 1, 3, 5};
    static const int32_t bci[5] = {0, 0, 1, 0, 1};
    const double bv[5] = {2, 0, 3, 1, 5};
    cr_assert_eq(magnus_csr_new(A, 3, 3, 6, type), MAGNUS_SUCCESS);
    cr_assert_eq(magnus_csr_new(B, 3, 2, 5, type), MAGNUS_SUCCESS);
    memcpy((*A)->row_ptr, arp, sizeof arp);
    memcpy((*A)->col_idx, aci, sizeof aci);
    memcpy((*B)->row_ptr, brp, sizeof brp);
    memcpy((*B)->col_idx, bci, sizeof bci);
    for (int k = 0; k < 6; k++) {
        if (type == MAGNUS_FLOAT32) ((float *)(*A)->values)[k] = (float)av[k];
        else ((double *)(*A)->values)[k] = av[k];
    }
    for (int k = 0; k < 5; k++) {
        if (type == MAGNUS_FLOAT32) ((float *)(*B)->values)[k] = (float)bv[k];
        else ((double *)(*B)->values)[k] = bv[k];
    }
}

/* What C must be: structure of every product, values by IEEE arithmetic. */
static void ieee_expect(const magnus_csr_s *C, const char *who) {
    const double inf = INFINITY;
    /* row 0: c0 = NaN*2 + 1*0 = NaN; c1 = 1*3 = 3
     * row 1: c0 = Inf*2 + 0*1 = Inf; c1 = 0*5 = 0 (explicit zero stays)
     * row 2: c0 = -Inf*0 + Inf*1 = NaN (Inf*0); c1 = -Inf*3 + Inf*5 = NaN (Inf - Inf) */
    const double want[3][2] = {{NAN, 3}, {inf, 0}, {NAN, NAN}};
    cr_assert_eq(C->rows, 3, "%s", who);
    cr_assert_eq(C->nnz, 6, "%s: every product leaves an entry, whatever its value", who);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(C->row_ptr[i + 1] - C->row_ptr[i], 2, "%s row %d", who, i);
        for (int j = 0; j < 2; j++) {
            int64_t p = C->row_ptr[i] + j;
            cr_assert_eq(C->col_idx[p], j, "%s (%d,%d)", who, i, j);
            double v = C->type == MAGNUS_FLOAT32 ? ((float *)C->values)[p]
                                                 : ((double *)C->values)[p];
            double w = want[i][j];
            if (isnan(w)) cr_expect(isnan(v), "%s (%d,%d): %g, want NaN", who, i, j, v);
            else cr_expect(v == w && signbit(v) == signbit(w), "%s (%d,%d): %g, want %g", who, i,
                           j, v, w);
        }
    }
}

Test(ieee, nan_inf_and_explicit_zeros_through_the_reference) {
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        magnus_csr A = NULL, B = NULL, C = NULL;
        ieee_operands(&A, &B, type);
        cr_assert_eq(magnus_reference_spgemm(&C, NULL, A, B), MAGNUS_SUCCESS, "%s",
                     magnus_last_error());
        ieee_expect(C, type == MAGNUS_FLOAT32 ? "reference float32" : "reference float64");
        /* compare: NaN matches NaN at the same place, Inf only itself */
        EXPECT_STATUS(magnus_csr_compare(NULL, C, C, NULL, 0), MAGNUS_SUCCESS, "compare self");
        magnus_csr D = NULL;
        cr_assert_eq(magnus_csr_copy(&D, C), MAGNUS_SUCCESS);
        if (type == MAGNUS_FLOAT32) ((float *)D->values)[2] = -INFINITY;
        else ((double *)D->values)[2] = -INFINITY;
        EXPECT_STATUS(magnus_csr_compare(NULL, D, C, NULL, 0), MAGNUS_ERROR_MISMATCH,
                      "compare -Inf against +Inf");
        magnus_csr_free(&D);
        magnus_csr_free(&A);
        magnus_csr_free(&B);
        magnus_csr_free(&C);
    }
}

Test(ieee, nan_inf_and_explicit_zeros_on_the_device, .timeout = 300) {
    magnus_context ctx = context_or_skip(0);
    magnus_device_info info;
    cr_assert_eq(magnus_context_device(&info, ctx), MAGNUS_SUCCESS);
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        if (type == MAGNUS_FLOAT64 && !info.fp64) continue;
        magnus_csr A = NULL, B = NULL;
        ieee_operands(&A, &B, type);
        for (int alg = 0; alg < 2; alg++) {
            magnus_spgemm_options opt;
            magnus_spgemm_options_init(&opt);
            opt.algorithm = alg ? MAGNUS_ALGORITHM_HASH : MAGNUS_ALGORITHM_MAGNUS;
            magnus_csr C = NULL;
            cr_assert_eq(magnus_spgemm(&C, ctx, A, B, &opt, NULL), MAGNUS_SUCCESS, "%s",
                         magnus_last_error());
            char who[64];
            snprintf(who, sizeof who, "%s %s", alg ? "hash" : "gMAGNUS",
                     type == MAGNUS_FLOAT32 ? "float32" : "float64");
            ieee_expect(C, who);
            magnus_csr_free(&C);
        }
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
    magnus_context_free(&ctx);
}
