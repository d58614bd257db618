/*
 * MAGNUS_DENSE_MIN_ELEMENTS: the last level's chunks with more elements than the knob go to
 * the dense accumulator, the others to the hash accumulator (default: min(tau, dense width /
 * 16)). Checked here:
 *   - every product against the CPU reference whatever the threshold (tau: the paper's rule;
 *     unset: the default; 1: every non-empty chunk dense);
 *   - the report's chunks_dense / chunks_hash against a host count of the chunks' elements
 *     (one multisplit level: heavy row i's chunk c holds its products whose column lies in
 *     [c·width, (c+1)·width)), so the knob provably moves chunks between the accumulators;
 *   - a malformed value is refused with MAGNUS_ERROR_INVALID_ARGUMENT (by magnus_context_create,
 *     which reads the variable once, or the context option dense_min_elements), values above
 *     tau mean tau.
 * The whole gMAGNUS suite also runs with MAGNUS_DENSE_MIN_ELEMENTS=1 as its own ctest entry
 * (tests/spgemm/gmagnus/gmagnus.cmake).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_test_main.h"
#include "gmagnus_knobs.h"
#include "magnus/magnus.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

/* Host count of one-level chunks: heavy rows (products > tau) split into chunks of `width`
 * columns; chunks with more than `threshold` products are "dense". */
typedef struct chunk_count {
    int64_t dense, hash;
} chunk_count;
static chunk_count count_chunks(const magnus_csr_s *A, const magnus_csr_s *B, int64_t tau,
                                int64_t width, int64_t nchunks, int64_t threshold) {
    chunk_count n = {0, 0};
    int64_t *per_chunk = calloc((size_t)nchunks, sizeof *per_chunk);
    cr_assert_not_null(per_chunk);
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t products = 0;
        for (int64_t a = A->row_ptr[i]; a < A->row_ptr[i + 1]; a++) {
            int32_t k = A->col_idx[a];
            products += B->row_ptr[k + 1] - B->row_ptr[k];
        }
        if (products <= tau) continue;
        memset(per_chunk, 0, (size_t)nchunks * sizeof *per_chunk);
        for (int64_t a = A->row_ptr[i]; a < A->row_ptr[i + 1]; a++) {
            int32_t k = A->col_idx[a];
            for (int64_t b = B->row_ptr[k]; b < B->row_ptr[k + 1]; b++)
                per_chunk[B->col_idx[b] / width]++;
        }
        for (int64_t c = 0; c < nchunks; c++) {
            if (per_chunk[c] > threshold)
                n.dense++;
            else
                n.hash++;
        }
    }
    free(per_chunk);
    return n;
}

/* C = A·B by gMAGNUS, checked against the reference; returns the report. */
static magnus_report multiply_checked(magnus_context ctx, const magnus_csr_s *A,
                                      const magnus_csr_s *B, const char *what) {
    magnus_report rep;
    int64_t reference_nnz = 0;
    magnus_csr C = multiply_and_compare(&rep, &reference_nnz, ctx, A, B,
                                        MAGNUS_ALGORITHM_MAGNUS, what);
    cr_assert_eq(rep.nnz_c, reference_nnz, "%s: report nnz %lld, reference %lld", what,
                 (long long)rep.nnz_c, (long long)reference_nnz);
    magnus_csr_free(&C);
    return rep;
}

static void thresholds_case(magnus_value_type type) {
    magnus_context probe = magnus_test_context();
    if (type == MAGNUS_FLOAT64 && !probe->device.fp64) cr_skip_test("no fp64");
    magnus_csr A = magnus_test_rmat(13, 8, 5, type), B = magnus_test_rmat(13, 8, 6, type);
    const uint64_t budget = magnus_test_budget_for_levels(probe, B->cols, type, 1);
    cr_assert_gt(budget, 0, "no budget gives one level for %lld columns", (long long)B->cols);
    magnus_context ctx = magnus_test_budget_context(budget);
    magnus_device_info dev;
    ASSERT_OK(magnus_context_device(&dev, ctx));
    magnus_context_free(&ctx);
    magnus_gmagnus_params p;
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, B->cols, type));
    cr_assert_eq(p.levels, 1, "budget %llu: %d levels", (unsigned long long)budget, p.levels);
    int64_t by_width = p.dense_width / 16 > 0 ? p.dense_width / 16 : 1;
    cr_assert_eq(p.dense_min_elements, by_width < p.tau ? by_width : p.tau,
                 "default threshold %lld, tau %lld, dense width %lld",
                 (long long)p.dense_min_elements, (long long)p.tau, (long long)p.dense_width);
    const int64_t width = p.chunk_width[0], nchunks = p.chunks_per_level[0];
    /* tau (the paper's rule), unset (the default), 1 (every non-empty chunk) */
    const int64_t thresholds[] = {p.tau, 0, 1};
    int64_t dense_before = -1, prev_threshold = INT64_MAX;
    for (size_t t = 0; t < sizeof thresholds / sizeof *thresholds; t++) {
        char value[32], what[96];
        if (thresholds[t] == 0) {
            unsetenv("MAGNUS_DENSE_MIN_ELEMENTS");
        } else {
            snprintf(value, sizeof value, "%lld", (long long)thresholds[t]);
            setenv("MAGNUS_DENSE_MIN_ELEMENTS", value, 1);
        }
        /* a context reads the knob when it is created */
        ctx = magnus_test_budget_context(budget);
        const int64_t threshold = thresholds[t] ? thresholds[t] : p.dense_min_elements;
        snprintf(what, sizeof what, "rmat13 x rmat13, %s, dense above %lld",
                 type == MAGNUS_FLOAT32 ? "f32" : "f64", (long long)threshold);
        magnus_report r = multiply_checked(ctx, A, B, what);
        chunk_count want = count_chunks(A, B, p.tau, width, nchunks, threshold);
        cr_assert_eq(r.levels, 1, "%s: %d levels", what, r.levels);
        cr_assert_eq(r.dense_min_elements, threshold, "%s: report says %lld", what,
                     (long long)r.dense_min_elements);
        cr_assert_eq(r.chunks_dense, want.dense, "%s: %lld dense chunks, host count %lld", what,
                     (long long)r.chunks_dense, (long long)want.dense);
        cr_assert_eq(r.chunks_hash, want.hash, "%s: %lld hash chunks, host count %lld", what,
                     (long long)r.chunks_hash, (long long)want.hash);
        if (threshold < prev_threshold) /* the default may equal tau on some budgets */
            cr_assert_gt(r.chunks_dense, dense_before,
                         "%s: lowering the threshold moved no chunk", what);
        prev_threshold = threshold;
        dense_before = r.chunks_dense;
        magnus_context_free(&ctx);
    }
    cr_assert_gt(dense_before, 0);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

Test(gmagnus_dense_chunks, thresholds_f32) { thresholds_case(MAGNUS_FLOAT32); }
Test(gmagnus_dense_chunks, thresholds_f64) { thresholds_case(MAGNUS_FLOAT64); }

/* The variable is read (and refused) when a context is created, not at the multiply. */
Test(gmagnus_dense_chunks, malformed_value_refused) {
    magnus_device_info dev;
    ASSERT_OK(magnus_device_select(&dev));
    const char *bad[] = {"0", "-3", "12x", "abc", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setenv("MAGNUS_DENSE_MIN_ELEMENTS", bad[i], 1);
        magnus_context ctx = NULL;
        magnus_status s = magnus_context_create(&ctx, &dev, NULL);
        cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "'%s': %s", bad[i], magnus_status_string(s));
        cr_assert_null(ctx);
        cr_assert_not_null(strstr(magnus_last_error(), "MAGNUS_DENSE_MIN_ELEMENTS"), "'%s': %s",
                           bad[i], magnus_last_error());
    }
    unsetenv("MAGNUS_DENSE_MIN_ELEMENTS");
    /* the option: 0 is the default, a negative value is refused */
    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.dense_min_elements = -3;
    magnus_context ctx = NULL;
    magnus_status s = magnus_context_create(&ctx, &dev, &opt);
    cr_assert_eq(s, MAGNUS_ERROR_INVALID_ARGUMENT, "-3: %s", magnus_status_string(s));
    cr_assert_null(ctx);
    cr_assert_not_null(strstr(magnus_last_error(), "dense_min_elements"), "%s",
                       magnus_last_error());
}

/* The option, where set, wins over the variable; the context keeps what it read. */
Test(gmagnus_dense_chunks, option_over_variable) {
    magnus_device_info dev;
    ASSERT_OK(magnus_device_select(&dev));
    magnus_context_options opt;
    ASSERT_OK(magnus_context_options_init(&opt));
    magnus_context ctx = NULL;
    setenv("MAGNUS_DENSE_MIN_ELEMENTS", "12", 1);
    ASSERT_OK(magnus_context_create(&ctx, &dev, &opt));
    cr_assert_eq(magnus_gmagnus_knobs_of(ctx)->dense_min_elements, 12);
    unsetenv("MAGNUS_DENSE_MIN_ELEMENTS");
    cr_assert_eq(magnus_gmagnus_knobs_of(ctx)->dense_min_elements, 12);
    magnus_context_free(&ctx);
    setenv("MAGNUS_DENSE_MIN_ELEMENTS", "abc", 1);
    opt.dense_min_elements = 5;
    ASSERT_OK(magnus_context_create(&ctx, &dev, &opt));
    cr_assert_eq(magnus_gmagnus_knobs_of(ctx)->dense_min_elements, 5);
    magnus_context_free(&ctx);
    unsetenv("MAGNUS_DENSE_MIN_ELEMENTS");
}

Test(gmagnus_dense_chunks, above_tau_means_tau) {
    magnus_device_info dev;
    ASSERT_OK(magnus_context_device(&dev, magnus_test_context()));
    setenv("MAGNUS_DENSE_MIN_ELEMENTS", "1000000000", 1);
    magnus_gmagnus_params p;
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, 1 << 20, MAGNUS_FLOAT32));
    cr_assert_eq(p.dense_min_elements, p.tau);
    setenv("MAGNUS_DENSE_MIN_ELEMENTS", "7", 1);
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, 1 << 20, MAGNUS_FLOAT32));
    cr_assert_eq(p.dense_min_elements, 7);
}
