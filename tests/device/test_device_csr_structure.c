/*
 * A device matrix's structure checked and fingerprinted on the device (prim_csr_structure,
 * runtime/device/device_csr_structure.c), on every backend. The arrays, valid or broken, are
 * written into device buffers of a matrix of the library's own (no validation on the way) and
 * wrapped through their native handles (magnus_device_csr_native), so no vendor API is needed.
 *
 *   - every broken rule gives the wrap magnus_csr_validate's status and message for the same
 *     arrays, after "wrapped matrix: ", naming the row (or row pointer), on an R-MAT matrix of
 *     many work groups' rows, rows longer than a team's lanes, rows that whole groups check
 *     (the longest) and faults in the middle;
 *   - when several rules are broken, the first in magnus_csr_validate's order is the one
 *     reported (rows in different groups, entries of one row in different lanes);
 *   - the device fingerprint equals the host's for the same arrays (upload vs wrap, and a
 *     matrix made on the device), on shapes that take every launch geometry (one lane per
 *     row to whole groups per row, one group to 256 striding, groups of 16 under a small
 *     budget), and a column or a row pointer moved changes it;
 *   - a plan made on wrapped operands runs on an upload of the same structure and refuses one
 *     with a column moved.
 */
#include <stdio.h>
#include <string.h>

#include "device_csr.h"
#include "device_test_main.h"
#include "shared/csr_structure.h"
#include "status_test_util.h"

/* A's arrays as they are, valid or not, in a device matrix of the library's own (*owner),
 * wrapped again through their native handles: the wrap's status (*w the wrapper on success).
 * Free *w before *owner. */
static magnus_status wrap_arrays(magnus_context ctx, const magnus_csr_s *A,
                                 magnus_device_csr *owner, magnus_device_csr *w) {
    ASSERT_OK(magnus_device_csr_new(owner, ctx, A->rows, A->cols, A->type));
    ASSERT_OK(magnus_device_csr_alloc_entries(*owner, A->nnz));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &(*owner)->row_ptr, 0, A->row_ptr,
                                (size_t)(A->rows + 1) * sizeof(int64_t)));
    if (A->nnz > 0) {
        ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &(*owner)->col_idx, 0, A->col_idx,
                                    (size_t)A->nnz * sizeof(int32_t)));
        ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &(*owner)->values, 0, A->values,
                                    (size_t)A->nnz * magnus_value_size(A->type)));
    }
    magnus_device_csr_buffers b;
    ASSERT_OK(magnus_device_csr_native(&b, *owner));
    return magnus_device_csr_wrap(w, ctx, b.rows, b.cols, b.nnz, b.type, b.row_ptr, b.col_idx,
                                  b.values);
}

/* The row of A with the most entries (ties: the lowest), away from the first and last rows. */
static int64_t longest_row(const magnus_csr_s *A) {
    int64_t best = 1;
    for (int64_t i = 1; i + 1 < A->rows; i++)
        if (A->row_ptr[i + 1] - A->row_ptr[i] > A->row_ptr[best + 1] - A->row_ptr[best]) best = i;
    return best;
}

/* A row at or after `from` with at least `min_len` entries. */
static int64_t row_with(const magnus_csr_s *A, int64_t from, int64_t min_len) {
    for (int64_t i = from; i < A->rows; i++)
        if (A->row_ptr[i + 1] - A->row_ptr[i] >= min_len) return i;
    cr_assert_fail("no row of %lld entries from row %lld", (long long)min_len, (long long)from);
    return -1;
}

/* The wrap of X's arrays fails as magnus_csr_validate(X) does: the same status, `want`, and
 * the same message after "wrapped matrix: ", which contains `names` (the row it names). */
static void expect_like_validate(magnus_context ctx, magnus_csr_s *X, magnus_status want,
                                 const char *names, const char *label) {
    magnus_status host = magnus_csr_validate(X);
    char host_msg[512];
    snprintf(host_msg, sizeof host_msg, "wrapped matrix: %s", magnus_last_error());
    cr_assert_eq(host, want, "%s: magnus_csr_validate gives %s (%s)", label,
                 magnus_status_string(host), magnus_last_error());
    const uint64_t before = ctx->memory_in_use;
    magnus_device_csr owner = NULL, w = (magnus_device_csr)(uintptr_t)1;
    magnus_status got = wrap_arrays(ctx, X, &owner, &w);
    cr_assert_eq(got, want, "%s: the wrap gives %s (%s), magnus_csr_validate %s (%s)", label,
                 magnus_status_string(got), magnus_last_error(), magnus_status_string(want),
                 host_msg);
    cr_assert_null(w, "%s: no wrapper after a failure", label);
    cr_assert_str_eq(magnus_last_error(), host_msg, "%s", label);
    cr_assert(strstr(magnus_last_error(), names) != NULL, "%s: \"%s\" does not name %s", label,
              magnus_last_error(), names);
    ASSERT_OK(magnus_device_csr_free(&owner));
    cr_assert_eq(ctx->memory_in_use, before, "%s: the check keeps no device memory", label);
}

/* The R-MAT input of the rule tests: 2^15 rows, about 8 entries per row, so the check's
 * groups stride over many rows each, rows longer than a team's lanes take many steps of their
 * team, and the longest rows are checked by whole groups (longer than mg_csr_long_row of the
 * most lanes a team can have: the power of two at or above the mean row length). */
static magnus_csr rule_input(void) {
    magnus_csr A = magnus_test_rmat(15, 8, 21, MAGNUS_FLOAT32);
    uint64_t lanes = 1;
    while (lanes < (uint64_t)(A->nnz / A->rows)) lanes <<= 1;
    const int64_t L = longest_row(A);
    cr_assert_gt(A->row_ptr[L + 1] - A->row_ptr[L], (int64_t)mg_csr_long_row(lanes),
                 "row %lld is long enough for the groups' part of the check", (long long)L);
    return A;
}

static magnus_csr copy_of(const magnus_csr_s *A) {
    magnus_csr X;
    ASSERT_OK(magnus_csr_copy(&X, A));
    return X;
}

Test(device_csr_structure, every_rule_as_validate) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = rule_input();
    ASSERT_OK(magnus_csr_validate(A));
    const int64_t L = longest_row(A), lb = A->row_ptr[L], len = A->row_ptr[L + 1] - lb;
    const int64_t M = row_with(A, A->rows / 2 + 17, 3), mb = A->row_ptr[M];
    cr_assert_gt(len, 64, "the longest row has %lld entries", (long long)len);
    char row_l[64], row_m[64], at_m[64], ptr_m[64];
    snprintf(row_l, sizeof row_l, "row %lld entry", (long long)L);
    snprintf(row_m, sizeof row_m, "row %lld entry", (long long)M);
    snprintf(at_m, sizeof at_m, "at row %lld:", (long long)M);
    snprintf(ptr_m, sizeof ptr_m, "row_ptr[%lld] =", (long long)(M + 1));

    magnus_csr X = copy_of(A);
    X->row_ptr[0] = 1;
    expect_like_validate(ctx, X, MAGNUS_ERROR_ROWPTR_INVALID, "row_ptr[0]", "first row pointer 1");
    magnus_csr_free(&X);

    X = copy_of(A);
    /* the last row with entries loses one, the empty rows after it keep their pointers' order */
    for (int64_t j = X->rows; j > 0 && X->row_ptr[j] == X->nnz; j--) X->row_ptr[j] = X->nnz - 1;
    expect_like_validate(ctx, X, MAGNUS_ERROR_ROWPTR_INVALID, "row_ptr[rows]",
                         "last row pointer below nnz");
    magnus_csr_free(&X);

    X = copy_of(A);
    X->row_ptr[X->rows] = X->nnz + 3;
    char last[64];
    snprintf(last, sizeof last, "row_ptr[%lld] =", (long long)X->rows);
    expect_like_validate(ctx, X, MAGNUS_ERROR_ROWPTR_INVALID, last, "last row pointer past nnz");
    magnus_csr_free(&X);

    X = copy_of(A);
    X->row_ptr[M + 1] = X->row_ptr[M] - 1; /* row M ends before it starts */
    expect_like_validate(ctx, X, MAGNUS_ERROR_ROWPTR_NOT_MONOTONE, at_m, "decreasing row pointer");
    magnus_csr_free(&X);

    X = copy_of(A);
    X->row_ptr[M + 1] = X->nnz + 5;
    expect_like_validate(ctx, X, MAGNUS_ERROR_ROWPTR_INVALID, ptr_m, "a middle pointer past nnz");
    magnus_csr_free(&X);

    X = copy_of(A);
    X->col_idx[lb + len - 2] = (int32_t)X->cols;
    expect_like_validate(ctx, X, MAGNUS_ERROR_COLUMN_OUT_OF_RANGE, row_l, "column == cols");
    magnus_csr_free(&X);

    X = copy_of(A);
    X->col_idx[mb + 1] = -1;
    expect_like_validate(ctx, X, MAGNUS_ERROR_COLUMN_OUT_OF_RANGE, row_m, "negative column");
    magnus_csr_free(&X);

    X = copy_of(A);
    cr_assert_gt(A->row_ptr[1], 0, "row 0 of this input has entries");
    X->col_idx[0] = -7; /* row 0 entry 0 */
    expect_like_validate(ctx, X, MAGNUS_ERROR_COLUMN_OUT_OF_RANGE, "row 0 entry 0",
                         "negative first column");
    magnus_csr_free(&X);

    X = copy_of(A);
    int32_t t = X->col_idx[lb + len / 2];
    X->col_idx[lb + len / 2] = X->col_idx[lb + len / 2 + 1];
    X->col_idx[lb + len / 2 + 1] = t;
    expect_like_validate(ctx, X, MAGNUS_ERROR_COLUMNS_UNSORTED, row_l, "two columns swapped");
    magnus_csr_free(&X);

    X = copy_of(A);
    X->col_idx[lb + len - 1] = X->col_idx[lb + len - 2];
    expect_like_validate(ctx, X, MAGNUS_ERROR_DUPLICATE_COLUMN, row_l, "duplicate at the end");
    magnus_csr_free(&X);

    X = copy_of(A);
    X->col_idx[mb + 1] = X->col_idx[mb];
    expect_like_validate(ctx, X, MAGNUS_ERROR_DUPLICATE_COLUMN, row_m, "duplicate column");
    magnus_csr_free(&X);
    magnus_csr_free(&A);
}

/* Several broken rules: the first in magnus_csr_validate's order is reported, wherever the
 * check's work items met them. */
Test(device_csr_structure, first_broken_rule_wins) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = rule_input();
    const int64_t L = longest_row(A), lb = A->row_ptr[L], len = A->row_ptr[L + 1] - lb;
    cr_assert_gt(len, 64, "the longest row has %lld entries", (long long)len);
    char row_l[64];
    snprintf(row_l, sizeof row_l, "row %lld entry %lld", (long long)L, (long long)(lb + 1));

    /* one row, its entries met by different lanes: a duplicate early, a swap in the middle and
     * a column out of range at the end; then a column out of range early and a duplicate at
     * the end */
    magnus_csr X = copy_of(A);
    X->col_idx[lb + 1] = X->col_idx[lb];
    int32_t t = X->col_idx[lb + len / 2];
    X->col_idx[lb + len / 2] = X->col_idx[lb + len / 2 + 1];
    X->col_idx[lb + len / 2 + 1] = t;
    X->col_idx[lb + len - 1] = (int32_t)X->cols + 9;
    expect_like_validate(ctx, X, MAGNUS_ERROR_DUPLICATE_COLUMN, row_l, "duplicate, then others");
    magnus_csr_free(&X);
    X = copy_of(A);
    X->col_idx[lb + 2] = -3;
    X->col_idx[lb + len - 1] = X->col_idx[lb + len - 2];
    snprintf(row_l, sizeof row_l, "row %lld entry %lld", (long long)L, (long long)(lb + 2));
    expect_like_validate(ctx, X, MAGNUS_ERROR_COLUMN_OUT_OF_RANGE, row_l, "range, then duplicate");
    magnus_csr_free(&X);

    /* every entry of the row broken, so each lane meets several: still its first */
    cr_assert_lt(len, A->cols);
    X = copy_of(A);
    for (int64_t p = lb + 1; p < lb + len; p++) X->col_idx[p] = X->col_idx[lb];
    snprintf(row_l, sizeof row_l, "row %lld entry %lld", (long long)L, (long long)(lb + 1));
    expect_like_validate(ctx, X, MAGNUS_ERROR_DUPLICATE_COLUMN, row_l, "a row of duplicates");
    for (int64_t p = lb; p < lb + len; p++) X->col_idx[p] = (int32_t)(lb + len - p);
    expect_like_validate(ctx, X, MAGNUS_ERROR_COLUMNS_UNSORTED, row_l, "a row in reverse");
    magnus_csr_free(&X);

    /* two rows far apart or neighbours, the lower one broken by either rule: the lower row
     * wins whichever group or pass of the check met it */
    const int64_t pairs[3][2] = {{5, A->rows - A->rows / 10}, {A->rows / 3, A->rows / 3 + 1},
                                 {A->rows / 7, A->rows / 2}};
    for (int k = 0; k < 6; k++) {
        X = copy_of(A);
        const int64_t lo = row_with(X, pairs[k / 2][0], 2);
        const int64_t hi = row_with(X, pairs[k / 2][1] > lo ? pairs[k / 2][1] : lo + 1, 2);
        const int64_t dup = k % 2 ? hi : lo, range = k % 2 ? lo : hi;
        X->col_idx[X->row_ptr[dup] + 1] = X->col_idx[X->row_ptr[dup]];
        X->col_idx[X->row_ptr[range]] = (int32_t)X->cols;
        char names[64], label[64];
        snprintf(names, sizeof names, "row %lld entry", (long long)lo);
        snprintf(label, sizeof label, "rows %lld and %lld", (long long)lo, (long long)hi);
        expect_like_validate(ctx, X,
                             k % 2 ? MAGNUS_ERROR_COLUMN_OUT_OF_RANGE
                                   : MAGNUS_ERROR_DUPLICATE_COLUMN,
                             names, label);
        magnus_csr_free(&X);
    }

    /* a row pointer rule and a later column rule; row_ptr[0] before everything */
    X = copy_of(A);
    const int64_t M = row_with(X, X->rows / 2, 2);
    X->row_ptr[M + 1] = X->row_ptr[M] - 1;
    X->col_idx[A->row_ptr[row_with(A, M + 2, 1)]] = -1; /* a later row, as it was */
    char row_m[64];
    snprintf(row_m, sizeof row_m, "at row %lld:", (long long)M);
    expect_like_validate(ctx, X, MAGNUS_ERROR_ROWPTR_NOT_MONOTONE, row_m, "pointer then column");
    X->row_ptr[0] = 2;
    expect_like_validate(ctx, X, MAGNUS_ERROR_ROWPTR_INVALID, "row_ptr[0]", "first pointer too");
    magnus_csr_free(&X);

    /* a column rule before the last row pointer's */
    X = copy_of(A);
    for (int64_t j = X->rows; j > 0 && X->row_ptr[j] == X->nnz; j--) X->row_ptr[j] = X->nnz - 1;
    X->col_idx[A->row_ptr[L] + 2] = (int32_t)X->cols;
    snprintf(row_l, sizeof row_l, "row %lld entry", (long long)L);
    expect_like_validate(ctx, X, MAGNUS_ERROR_COLUMN_OUT_OF_RANGE, row_l, "column then last");
    magnus_csr_free(&X);
    magnus_csr_free(&A);
}

/* The device fingerprint of A's arrays equals the host's: A uploaded (the host computes it),
 * wrapped (the check computes it) and uploaded again with the value forgotten (computed on
 * the device on demand). Returns the host value. */
static uint64_t expect_same_fingerprint(magnus_context ctx, const magnus_csr_s *A,
                                        const char *label) {
    const uint64_t host = magnus_csr_structure_fingerprint(A->rows, A->cols, A->nnz, A->row_ptr,
                                                           A->col_idx);
    magnus_device_csr u, owner, w;
    ASSERT_OK(magnus_device_csr_upload(&u, ctx, A));
    cr_assert(u->fingerprint_known);
    cr_assert_eq(u->fingerprint, host, "%s: upload", label);
    ASSERT_OK(wrap_arrays(ctx, A, &owner, &w));
    cr_assert(w->fingerprint_known);
    cr_assert_eq(w->fingerprint, host, "%s: the wrap's %016llx, the host's %016llx", label,
                 (unsigned long long)w->fingerprint, (unsigned long long)host);
    uint64_t f = 0;
    u->fingerprint_known = 0;
    ASSERT_OK(magnus_device_csr_fingerprint(&f, u));
    cr_assert_eq(f, host, "%s: computed on the device", label);
    cr_assert(u->fingerprint_known);
    ASSERT_OK(magnus_device_csr_free(&w));
    ASSERT_OK(magnus_device_csr_free(&owner));
    ASSERT_OK(magnus_device_csr_free(&u));
    return host;
}

/* A row of A whose last column can move one to the right (still sorted, in range). */
static int64_t movable_row(const magnus_csr_s *A) {
    for (int64_t i = A->rows / 2; i < A->rows; i++)
        if (A->row_ptr[i + 1] > A->row_ptr[i] && A->col_idx[A->row_ptr[i + 1] - 1] + 1 < A->cols)
            return i;
    cr_assert_fail("no row with a movable column");
    return -1;
}

Test(device_csr_structure, device_fingerprint_is_the_hosts) {
    magnus_context ctx = magnus_test_context();
    /* many groups striding over rows of every length */
    magnus_csr A = rule_input();
    uint64_t fa = expect_same_fingerprint(ctx, A, "R-MAT 2^15");
    /* one column moved: another fingerprint, on both sides */
    magnus_csr X = copy_of(A);
    X->col_idx[X->row_ptr[movable_row(X) + 1] - 1] += 1;
    ASSERT_OK(magnus_csr_validate(X));
    cr_assert_neq(expect_same_fingerprint(ctx, X, "a column moved"), fa);
    /* one row pointer moved (a row's last entry becomes the next row's first), the columns
     * as they were */
    magnus_csr_free(&X);
    X = copy_of(A);
    int64_t r = 100;
    while (!(X->row_ptr[r + 1] - X->row_ptr[r] >= 2 &&
             (X->row_ptr[r + 2] == X->row_ptr[r + 1] ||
              X->col_idx[X->row_ptr[r + 1] - 1] < X->col_idx[X->row_ptr[r + 1]])))
        r++;
    X->row_ptr[r + 1] -= 1;
    ASSERT_OK(magnus_csr_validate(X));
    cr_assert_neq(expect_same_fingerprint(ctx, X, "an entry moved to the next row"), fa);
    magnus_csr_free(&X);
    magnus_csr_free(&A);

    struct {
        int64_t rows, cols, per_row;
        const char *label;
    } shapes[] = {
        {1000, 700, 3, "uniform, 3 per row"},
        {1, 6000, 5000, "one row of 5000 (whole groups per row)"},
        {3, 300000, 70000, "three rows longer than any group's stride"},
        {70000, 50, 1, "many rows of one entry (one lane per row, many passes)"},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        magnus_csr U;
        ASSERT_OK(magnus_gen_uniform(&U, shapes[k].rows, shapes[k].cols, shapes[k].per_row,
                                     magnus_test_seed(40 + k), MAGNUS_FLOAT32));
        expect_same_fingerprint(ctx, U, shapes[k].label);
        magnus_csr_free(&U);
    }
    /* mostly empty rows, no rows, no entries */
    magnus_csr E;
    ASSERT_OK(magnus_csr_new(&E, 20000, 30, 5, MAGNUS_FLOAT32));
    memset(E->row_ptr, 0, 20001 * sizeof(int64_t));
    for (int64_t i = 0; i < 20000; i++) E->row_ptr[i + 1] = E->row_ptr[i] + (i % 4001 == 7);
    for (int k = 0; k < 5; k++) E->col_idx[k] = 3 * k, ((float *)E->values)[k] = 1.0f;
    ASSERT_OK(magnus_csr_validate(E));
    expect_same_fingerprint(ctx, E, "mostly empty rows");
    magnus_csr_free(&E);
    ASSERT_OK(magnus_csr_new(&E, 0, 5, 0, MAGNUS_FLOAT32));
    uint64_t f0 = expect_same_fingerprint(ctx, E, "0 x 5");
    magnus_csr_free(&E);
    ASSERT_OK(magnus_csr_new(&E, 7, 3, 0, MAGNUS_FLOAT32));
    cr_assert_neq(expect_same_fingerprint(ctx, E, "7 x 3, no entries"), f0);
    magnus_csr_free(&E);
}

/* A local budget of 512 bytes: groups of 16 work items (four words each), so the check's 256
 * groups stride over many more rows each; the same results. */
Test(device_csr_structure, small_groups) {
    magnus_context ctx = magnus_test_budget_context(512);
    magnus_csr A = rule_input();
    expect_same_fingerprint(ctx, A, "R-MAT 2^15, 512-byte budget");
    const int64_t L = longest_row(A), lb = A->row_ptr[L], len = A->row_ptr[L + 1] - lb;
    magnus_csr X = copy_of(A);
    X->col_idx[lb + len - 1] = X->col_idx[lb + len - 2];
    X->col_idx[A->row_ptr[row_with(A, L + 1, 1)]] = -1;
    char row_l[64];
    snprintf(row_l, sizeof row_l, "row %lld entry %lld", (long long)L, (long long)(lb + len - 1));
    expect_like_validate(ctx, X, MAGNUS_ERROR_DUPLICATE_COLUMN, row_l, "512-byte budget");
    magnus_csr_free(&X);
    magnus_csr_free(&A);
    magnus_context_free(&ctx);
}

/* A product made on the device has its fingerprint computed there: the host's of its
 * download. */
Test(device_csr_structure, device_made_matrix) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = magnus_test_rmat(10, 6, 23, MAGNUS_FLOAT32), C;
    magnus_device_csr dA, dC = NULL;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dA, NULL, NULL));
    cr_assert(!dC->fingerprint_known);
    uint64_t f;
    ASSERT_OK(magnus_device_csr_fingerprint(&f, dC));
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    cr_assert_eq(f, magnus_csr_structure_fingerprint(C->rows, C->cols, C->nnz, C->row_ptr,
                                                     C->col_idx));
    MAGNUS_TEST_FREE_DEVICE_CSRS(&dC, &dA);
    MAGNUS_TEST_FREE_CSRS(&C, &A);
}

/* A plan made on wrapped operands (fingerprints from the device) runs on uploads of the same
 * structures (fingerprints from the host) and refuses an operand with one column moved,
 * uploaded or wrapped. */
Test(device_csr_structure, plan_on_wrapped_operands) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = magnus_test_rmat(11, 6, 25, MAGNUS_FLOAT32), B;
    ASSERT_OK(magnus_gen_uniform(&B, A->cols, 300, 4, magnus_test_seed(26), MAGNUS_FLOAT32));
    magnus_device_csr oA, oB, wA, wB;
    ASSERT_OK(wrap_arrays(ctx, A, &oA, &wA));
    ASSERT_OK(wrap_arrays(ctx, B, &oB, &wB));
    magnus_spgemm_plan plan;
    ASSERT_OK(magnus_spgemm_plan_create(&plan, ctx, wA, wB, NULL));
    magnus_device_csr uA, uB, dC = NULL;
    ASSERT_OK(magnus_device_csr_upload(&uA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&uB, ctx, B));
    ASSERT_OK(magnus_spgemm_plan_execute(&dC, plan, uA, uB, NULL));
    magnus_csr C, R, M;
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    ASSERT_OK(magnus_reference_spgemm(&R, &M, A, B));
    ASSERT_OK(magnus_csr_compare(NULL, C, R, M, 1e-4));
    magnus_device_csr_free(&dC);

    magnus_csr A2 = copy_of(A);
    A2->col_idx[A2->row_ptr[movable_row(A2) + 1] - 1] += 1; /* same shape and nnz */
    ASSERT_OK(magnus_csr_validate(A2));
    magnus_device_csr uA2, oA2, wA2;
    ASSERT_OK(magnus_device_csr_upload(&uA2, ctx, A2));
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, plan, uA2, uB, NULL),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "A's structure") != NULL, "%s", magnus_last_error());
    cr_assert_null(dC);
    ASSERT_OK(wrap_arrays(ctx, A2, &oA2, &wA2));
    ASSERT_STATUS(magnus_spgemm_plan_execute(&dC, plan, wA2, wB, NULL),
                  MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "A's structure") != NULL, "%s", magnus_last_error());

    magnus_spgemm_plan_free(&plan);
    MAGNUS_TEST_FREE_DEVICE_CSRS(&wA2, &oA2, &uA2, &uA, &uB, &wA, &wB, &oA, &oB);
    MAGNUS_TEST_FREE_CSRS(&A2, &C, &R, &M, &A, &B);
}
