/*
 * CSR_BALANCED's hot x (runtime/spmv/spmv_hot.c, MAGNUS_SPMV_HOT_BYTES): the columns chosen
 * are the most frequent ones (ties by column order, each recurring at least twice), their
 * count and entry share are reported exactly, and y is bit for bit the y of the plan without
 * them (the same products, summed in the same order). The whole SpMV set also runs with hot
 * x on (tests/spmv/spmv.cmake, the `hot` entries).
 */
#include <stdlib.h>
#include <string.h>

#include "device_test_util.h"
#include "status_test_util.h"

enum { ROWS = 2000, COLS = 1000, RANKED = 10 };

/* MAGNUS_SPMV_HOT_BYTES = value (unset when NULL). */
static void knob_set(const char *value) {
    if (value) setenv("MAGNUS_SPMV_HOT_BYTES", value, 1);
    else unsetenv("MAGNUS_SPMV_HOT_BYTES");
}

/* Column j < RANKED in every (j+1)-th row (so ceil(ROWS / (j+1)) entries: the most frequent
 * first), and one more column per row, RANKED + r % (COLS - RANKED): each of those twice or
 * three times. want_counts[j]: column j's entries. */
static magnus_csr ranked(magnus_value_type t, int64_t *want_counts) {
    int64_t nnz = 0;
    for (int64_t r = 0; r < ROWS; r++)
        for (int64_t j = 0; j <= RANKED; j++) nnz += j == RANKED || r % (j + 1) == 0;
    magnus_csr A;
    ASSERT_OK(magnus_csr_new(&A, ROWS, COLS, nnz, t));
    memset(want_counts, 0, COLS * sizeof *want_counts);
    int64_t k = 0;
    for (int64_t r = 0; r < ROWS; r++) {
        for (int64_t j = 0; j <= RANKED; j++) {
            if (j < RANKED && r % (j + 1) != 0) continue;
            const int32_t c = (int32_t)(j < RANKED ? j : RANKED + r % (COLS - RANKED));
            A->col_idx[k] = c;
            want_counts[c]++;
            const double v = (double)((r * 7 + c * 3) % 13) / 4.0 - 1.5;
            if (t == MAGNUS_FLOAT64) ((double *)A->values)[k] = v;
            else ((float *)A->values)[k] = (float)v;
            k++;
        }
        A->row_ptr[r + 1] = k;
    }
    ASSERT_OK(magnus_csr_validate(A));
    return A;
}

/* y = 1.5*A*x + 0.5*y by CSR_BALANCED with the knob at `value`, and its report. */
static void product(void *y, magnus_spmv_report *rep, const char *value, const magnus_csr_s *A,
                    const void *x) {
    for (int64_t r = 0; r < A->rows; r++) { /* the same y before each product */
        if (A->type == MAGNUS_FLOAT64) ((double *)y)[r] = 0.25 * (double)(r % 7);
        else ((float *)y)[r] = 0.25f * (float)(r % 7);
    }
    magnus_spmv_options o;
    ASSERT_OK(magnus_spmv_options_init(&o));
    o.format = MAGNUS_SPMV_CSR_BALANCED;
    knob_set(value);
    magnus_status s = magnus_spmv_host(y, magnus_test_context(), 1.5, A, x, 0.5, &o, rep);
    knob_set(NULL);
    ASSERT_OK(s);
}

static void the_most_frequent(magnus_value_type t) {
    magnus_context c = magnus_test_context();
    if (t == MAGNUS_FLOAT64 && !c->device.fp64) return;
    int64_t *counts = malloc(COLS * sizeof *counts);
    cr_assert_not_null(counts);
    magnus_csr A = ranked(t, counts);
    const size_t vb = magnus_value_size(t);
    unsigned char *x = malloc(COLS * vb), *y0 = malloc(ROWS * vb), *y1 = malloc(ROWS * vb);
    cr_assert(x && y0 && y1);
    for (int i = 0; i < COLS; i++) {
        if (t == MAGNUS_FLOAT64) ((double *)x)[i] = 1.0 + (i % 9) * 0.125;
        else ((float *)x)[i] = 1.0f + (float)(i % 9) * 0.125f;
    }
    magnus_spmv_report r0, r1;
    product(y0, &r0, NULL, A, x);
    cr_assert_eq(r0.hot_columns, 0, "hot columns without the knob: %lld",
                 (long long)r0.hot_columns);
    /* room for every column: only those of two or more entries are kept, as many as the
     * device's launch limit and compute units allow (most: this device's capacity here) */
    product(y1, &r1, "1G", A, x);
    int64_t recurring = 0, served = 0;
    for (int j = 0; j < COLS; j++)
        if (counts[j] >= 2) {
            recurring++;
            served += counts[j];
        }
    const int64_t most = r1.hot_columns;
    cr_assert_leq(most, recurring);
    if (most == recurring)
        cr_assert_float_eq(r1.hot_share, (double)served / (double)A->nnz, 1e-12);
    cr_assert(memcmp(y0, y1, ROWS * vb) == 0, "y differs with every column hot");
    /* room for 5 values: columns 0..4, the five most frequent (fewer where the device holds
     * fewer) */
    const int64_t want = most < 5 ? most : 5;
    if (want < 5) cr_log_warn("this device holds %lld hot columns here", (long long)most);
    char value[32];
    snprintf(value, sizeof value, "%zu", 5 * vb);
    product(y1, &r1, value, A, x);
    cr_assert_eq(r1.hot_columns, want, "MAGNUS_SPMV_HOT_BYTES=%s: %lld hot columns, want %lld",
                 value, (long long)r1.hot_columns, (long long)want);
    served = 0;
    for (int j = 0; j < want; j++) served += counts[j];
    const double share = want ? (double)served / (double)A->nnz : 0;
    cr_assert_float_eq(r1.hot_share, share, 1e-12, "hot share %.6f, want %.6f", r1.hot_share,
                       share);
    cr_assert(memcmp(y0, y1, ROWS * vb) == 0, "y differs with hot x (%s)",
              t == MAGNUS_FLOAT64 ? "f64" : "f32");
    free(x);
    free(y0);
    free(y1);
    free(counts);
    magnus_csr_free(&A);
}
Test(spmv_hot, the_most_frequent_columns_f32) { the_most_frequent(MAGNUS_FLOAT32); }
Test(spmv_hot, the_most_frequent_columns_f64) { the_most_frequent(MAGNUS_FLOAT64); }

/* A permutation: no column recurs, so nothing is kept, and y is right. */
Test(spmv_hot, no_recurring_column) {
    magnus_csr A;
    ASSERT_OK(magnus_csr_new(&A, 300, 300, 300, MAGNUS_FLOAT32));
    float x[300], y[300];
    for (int r = 0; r < 300; r++) {
        A->row_ptr[r + 1] = r + 1;
        A->col_idx[r] = (r * 7) % 300;
        ((float *)A->values)[r] = 2.0f;
        x[r] = (float)r;
    }
    magnus_spmv_report rep;
    magnus_spmv_options o;
    ASSERT_OK(magnus_spmv_options_init(&o));
    o.format = MAGNUS_SPMV_CSR_BALANCED;
    knob_set("64K");
    magnus_status s = magnus_spmv_host(y, magnus_test_context(), 1.0, A, x, 0.0, &o, &rep);
    knob_set(NULL);
    ASSERT_OK(s);
    cr_assert_eq(rep.hot_columns, 0);
    for (int r = 0; r < 300; r++) cr_assert_eq(y[r], 2.0f * (float)((r * 7) % 300), "y[%d]", r);
    magnus_csr_free(&A);
}

/* A bad size is refused by name. */
Test(spmv_hot, bad_size_refused) {
    int64_t counts[COLS];
    magnus_csr A = ranked(MAGNUS_FLOAT32, counts);
    float x[COLS], y[ROWS];
    for (int i = 0; i < COLS; i++) x[i] = 1.0f;
    magnus_spmv_options o;
    ASSERT_OK(magnus_spmv_options_init(&o));
    o.format = MAGNUS_SPMV_CSR_BALANCED;
    knob_set("lots");
    magnus_status s = magnus_spmv_host(y, magnus_test_context(), 1.0, A, x, 0.0, &o, NULL);
    knob_set(NULL);
    cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "%s", magnus_status_string(s));
    cr_assert(strstr(magnus_last_error(), "MAGNUS_SPMV_HOT_BYTES"), "%s", magnus_last_error());
    magnus_csr_free(&A);
}

/* Without host memory for the counts, the plan goes on without hot x: the same y, no error. */
Test(spmv_hot, no_room_for_the_counts) {
    int64_t *counts = malloc(COLS * sizeof *counts);
    cr_assert_not_null(counts);
    magnus_csr A = ranked(MAGNUS_FLOAT32, counts);
    float x[COLS], y0[ROWS], y1[ROWS];
    for (int i = 0; i < COLS; i++) x[i] = 0.5f + (float)(i % 4);
    magnus_spmv_report r0, r1;
    product(y0, &r0, NULL, A, x);
    magnus_host_alloc_limit(COLS * sizeof(uint32_t) - 1); /* the counts' host copy fails */
    product(y1, &r1, "1K", A, x);
    magnus_host_alloc_limit(0);
    cr_assert_eq(r1.hot_columns, 0, "%lld hot columns without room for the counts",
                 (long long)r1.hot_columns);
    cr_assert_str_empty(magnus_last_error());
    cr_assert(memcmp(y0, y1, sizeof y0) == 0, "y differs");
    cr_assert_eq(r1.format_bytes, r0.format_bytes, "the dropped copy still counts %llu bytes",
                 (unsigned long long)(r1.format_bytes - r0.format_bytes));
    free(counts);
    magnus_csr_free(&A);
}
