/*
 * gMAGNUS in row blocks (runtime/spgemm/gmagnus/gmagnus_batches.c) and the device matrices' row
 * blocks beneath it (runtime/device/device_csr_rows.c).
 *
 * The batch budget of each context here is derived from the product at hand (its products
 * counted on the host, times the element size), never from the device's sizes: a budget of a
 * third of the products' bytes must give exactly three blocks. Every product is compared with
 * the CPU reference (multiply_and_compare); the row blocks are compared entry by entry with
 * the host matrix they came from.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "csr_products.h"
#include "device_csr.h"
#include "device_test_main.h"
#include "gmagnus_knobs.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

static int type_supported(magnus_context ctx, magnus_value_type t) {
    return t == MAGNUS_FLOAT32 || ctx->device.fp64;
}

/* A context on the default device whose gMAGNUS batches hold at most `bytes` of C-hat (0:
 * the default), with `local` bytes of local memory per work group (0: the default) and a
 * device memory limit (0: none). */
static magnus_context batch_context(uint64_t bytes, uint64_t local, uint64_t limit) {
    magnus_context_options opt;
    magnus_context ctx = NULL;
    ASSERT_OK(magnus_context_options_init(&opt));
    opt.chat_batch_bytes = bytes;
    opt.local_mem_bytes = local;
    opt.device_memory_limit = limit;
    magnus_status s = magnus_context_create(&ctx, NULL, &opt);
    cr_assert_eq(s, MAGNUS_SUCCESS, "context with a %llu-byte batch budget: %s: %s",
                 (unsigned long long)bytes, magnus_status_string(s), magnus_last_error());
    return ctx;
}

/* The smallest local budget of one multisplit level for B's columns: a small tau, so that
 * most of the products of the R-MAT inputs here take the heavy path. */
static uint64_t heavy_budget(const magnus_csr_s *B) {
    uint64_t local = magnus_test_budget_for_levels(magnus_test_context(), B->cols, B->type, 1);
    cr_assert_gt(local, 0, "no local budget plans one level for %lld columns", (long long)B->cols);
    return local;
}

static int64_t products_of(const magnus_csr_s *A, const magnus_csr_s *B) {
    magnus_products n;
    ASSERT_OK(magnus_products_count(&n, A, B, INT64_MAX));
    return n.total;
}

/* The budget under which A·B's products need exactly k blocks: ceil(products / k) elements. */
static uint64_t budget_for_blocks(const magnus_csr_s *A, const magnus_csr_s *B, int k) {
    const uint64_t total = (uint64_t)products_of(A, B);
    const uint64_t element = 4 + (A->type == MAGNUS_FLOAT64 ? 8 : 4);
    return (total + (uint64_t)k - 1) / (uint64_t)k * element;
}

/* R-MAT inputs of 2^10 rows of `type`, *A of 8 entries per row and *B of 4 (from seeds sa and sb),
 * and a context whose batches cut A·B into three blocks, on the heavy path's small local budget
 * (heavy_budget) when `heavy`, else on the default one. */
static magnus_context three_block_product(magnus_csr *A, magnus_csr *B, uint64_t sa, uint64_t sb,
                                          magnus_value_type type, bool heavy) {
    *A = magnus_test_rmat(10, 8, sa, type);
    *B = magnus_test_rmat(10, 4, sb, type);
    return batch_context(budget_for_blocks(*A, *B, 3), heavy ? heavy_budget(*B) : 0, 0);
}

/* ---- row blocks of device matrices --------------------------------------------------------- */

/* Host rows r0 .. r1 - 1 of d, downloaded, equal entry by entry to those of H. */
static void expect_rows(const magnus_csr_s *H, const struct magnus_device_csr_s *d, int64_t r0,
                        int64_t r1) {
    magnus_csr h = NULL;
    ASSERT_OK(magnus_device_csr_download(&h, (magnus_device_csr)d));
    const int64_t base = H->row_ptr[r0];
    cr_assert_eq(h->rows, r1 - r0, "rows %lld..%lld: %lld rows", (long long)r0, (long long)r1,
                 (long long)h->rows);
    cr_assert_eq(h->cols, H->cols);
    cr_assert_eq(h->nnz, H->row_ptr[r1] - base, "rows %lld..%lld: nnz %lld", (long long)r0,
                 (long long)r1, (long long)h->nnz);
    for (int64_t r = 0; r <= h->rows; r++)
        cr_assert_eq(h->row_ptr[r], H->row_ptr[r0 + r] - base, "row pointer %lld of block %lld",
                     (long long)r, (long long)r0);
    const size_t vsize = H->type == MAGNUS_FLOAT64 ? 8 : 4;
    cr_assert(h->nnz == 0 || !memcmp(h->col_idx, H->col_idx + base, (size_t)h->nnz * 4),
              "columns of block %lld", (long long)r0);
    cr_assert(h->nnz == 0 || !memcmp(h->values, (const char *)H->values + (size_t)base * vsize,
                                     (size_t)h->nnz * vsize),
              "values of block %lld", (long long)r0);
    magnus_csr_free(&h);
}

Test(spgemm_batches, rows_and_stack_give_back_the_matrix) {
    magnus_context ctx = magnus_test_context();
    for (int t = 0; t < 2; t++) {
        const magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        if (!type_supported(ctx, type)) continue;
        /* R-MAT rows: many empty ones (an empty block and blocks of one row among them) */
        magnus_csr H = magnus_test_rmat(9, 4, 5 + (uint64_t)t, type);
        magnus_device_csr d = NULL, S = NULL;
        ASSERT_OK(magnus_device_csr_upload(&d, ctx, H));
        const int64_t cut[] = {0, 0, 1, 2, 100, 100, 333, H->rows - 1, H->rows};
        const size_t nblocks = sizeof cut / sizeof *cut - 1;
        magnus_device_csr blocks[sizeof cut / sizeof *cut - 1] = {0};
        for (size_t i = 0; i < nblocks; i++) {
            ASSERT_OK(magnus_device_csr_rows(&blocks[i], d, cut[i], cut[i + 1],
                                             MAGNUS_QUEUE_MAIN));
            expect_rows(H, blocks[i], cut[i], cut[i + 1]);
        }
        ASSERT_OK(magnus_device_csr_stack(&S, ctx, blocks, nblocks, H->cols, type,
                                          MAGNUS_QUEUE_MAIN));
        expect_rows(H, S, 0, H->rows);
        for (size_t i = 0; i < nblocks; i++)
            cr_assert_null(blocks[i], "block %zu not freed by the stack", i);
        /* out of range is refused, not read */
        magnus_device_csr bad = NULL;
        REF_EXPECT_STATUS(magnus_device_csr_rows(&bad, d, 3, 2, MAGNUS_QUEUE_MAIN),
                          MAGNUS_ERROR_INVALID_ARGUMENT);
        REF_EXPECT_STATUS(magnus_device_csr_rows(&bad, d, 0, H->rows + 1, MAGNUS_QUEUE_MAIN),
                          MAGNUS_ERROR_INVALID_ARGUMENT);
        cr_assert_null(bad);
        magnus_device_csr_free(&S);
        magnus_device_csr_free(&d);
        magnus_csr_free(&H);
    }
}

/* ---- products in batches ------------------------------------------------------------------- */

Test(spgemm_batches, three_blocks_match_the_reference) {
    for (int t = 0; t < 2; t++) {
        const magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        magnus_csr A, B;
        magnus_context ctx = three_block_product(&A, &B, 11 + (uint64_t)t, 21 + (uint64_t)t,
                                                 type, true);
        if (!type_supported(ctx, type)) {
            magnus_context_free(&ctx);
            continue;
        }
        const magnus_algorithm algorithms[] = {MAGNUS_ALGORITHM_MAGNUS, MAGNUS_ALGORITHM_AUTO,
                                               MAGNUS_ALGORITHM_HASH};
        for (int a = 0; a < 3; a++) {
            magnus_report rep;
            int64_t ref_nnz = 0;
            char label[96];
            snprintf(label, sizeof label, "three blocks, %s, %s",
                     magnus_algorithm_name(algorithms[a]), type == MAGNUS_FLOAT64 ? "f64" : "f32");
            magnus_csr C = multiply_and_compare(&rep, &ref_nnz, ctx, A, B, algorithms[a], label);
            if (rep.algorithm == MAGNUS_ALGORITHM_MAGNUS) {
                cr_assert_eq(rep.batches, 3, "%s: %lld batches", label, (long long)rep.batches);
                cr_assert_gt(rep.rows_heavy, 0, "%s: no heavy rows (the input should have some)",
                             label);
                cr_assert_eq(rep.products_total, products_of(A, B), "%s: products %lld", label,
                             (long long)rep.products_total);
            } else {
                cr_assert_eq(rep.batches, 0, "%s: the hash algorithm ran %lld batches", label,
                             (long long)rep.batches);
            }
            cr_assert_eq(rep.nnz_c, ref_nnz, "%s: report nnz %lld, reference %lld", label,
                         (long long)rep.nnz_c, (long long)ref_nnz);
            magnus_csr_free(&C);
        }
        magnus_context_free(&ctx);
        MAGNUS_TEST_FREE_CSRS(&A, &B);
    }
}

/* The blocks' reports merged by the field list's rules (magnus_report_fields.h) say what the
 * whole product's says: the counts per row add up to the whole's (SUM), the parameters are
 * the whole's (FIRST), the levels the most any block ran (MAX, here every block's). */
Test(spgemm_batches, blocks_report_what_the_whole_product_does) {
    magnus_csr A, B;
    magnus_context block_ctx = three_block_product(&A, &B, 41, 42, MAGNUS_FLOAT32, true);
    magnus_context whole_ctx = batch_context(0, heavy_budget(B), 0);
    magnus_report whole, blocks;
    int64_t ref_nnz = 0;
    magnus_csr C1 = multiply_and_compare(&whole, &ref_nnz, whole_ctx, A, B,
                                         MAGNUS_ALGORITHM_MAGNUS, "whole");
    magnus_csr C3 = multiply_and_compare(&blocks, &ref_nnz, block_ctx, A, B,
                                         MAGNUS_ALGORITHM_MAGNUS, "three blocks");
    cr_assert_eq(whole.batches, 1);
    cr_assert_eq(blocks.batches, 3);
    cr_assert_gt(whole.rows_heavy, 0, "no heavy rows (the input should have some)");
#define SAME(field) {#field, (int64_t)whole.field, (int64_t)blocks.field}
    const struct {
        const char *name;
        int64_t whole, blocks;
    } same[] = { /* each field by its name: whole, in blocks */
        SAME(rows_total), SAME(rows_heavy), SAME(rows_dense), SAME(light_rows_global),
        SAME(products_total), SAME(products_heavy), SAME(nnz_c), SAME(local_mem_bytes), SAME(tau),
        SAME(heavy_row_products), SAME(chunk_width), SAME(dense_min_elements),
        SAME(dense_row_columns), SAME(levels),
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        cr_assert_eq(same[i].blocks, same[i].whole, "%s: %lld in blocks, %lld whole",
                     same[i].name, (long long)same[i].blocks, (long long)same[i].whole);
#undef SAME
    cr_assert_str_eq(blocks.heavy_row_rule, whole.heavy_row_rule);
    /* a caller with a report gets the phases' device times, in blocks as whole */
    cr_assert_gt(whole.time_outer_product_ms, 0, "the whole's outer product untimed");
    cr_assert_gt(blocks.time_outer_product_ms, 0, "the blocks' outer products untimed");
    cr_assert_eq(blocks.algorithm, MAGNUS_ALGORITHM_MAGNUS);
    cr_assert_gt(blocks.peak_device_bytes, 0);
    magnus_context_free(&whole_ctx);
    magnus_context_free(&block_ctx);
    MAGNUS_TEST_FREE_CSRS(&C1, &C3, &A, &B);
}

/* One row of A carries most of the products: the blocks around it are empty (skipped), the
 * product still right. */
Test(spgemm_batches, one_row_larger_than_a_block) {
    magnus_csr B = magnus_test_rmat(9, 8, 31, MAGNUS_FLOAT32);
    magnus_csr A = NULL;
    const int64_t n = B->rows;
    /* row 7 names every row of B; the others one each */
    ASSERT_OK(magnus_csr_new(&A, n, n, 2 * n - 1, MAGNUS_FLOAT32));
    int64_t p = 0;
    for (int64_t r = 0; r < n; r++) {
        A->row_ptr[r] = p;
        if (r == 7) {
            for (int64_t c = 0; c < n; c++) {
                A->col_idx[p] = (int32_t)c;
                ((float *)A->values)[p++] = 1.0f + (float)(c % 5);
            }
        } else {
            A->col_idx[p] = (int32_t)((r * 37) % n);
            ((float *)A->values)[p++] = 0.5f;
        }
    }
    A->row_ptr[n] = p;
    cr_assert_eq(p, A->nnz);
    magnus_context ctx = batch_context(budget_for_blocks(A, B, 8), heavy_budget(B), 0);
    magnus_report rep;
    int64_t ref_nnz = 0;
    magnus_csr C =
        multiply_and_compare(&rep, &ref_nnz, ctx, A, B, MAGNUS_ALGORITHM_MAGNUS, "one long row");
    cr_assert(rep.batches >= 2 && rep.batches < 8, "%lld batches: expected 2 to 7 (the long "
              "row's neighbours' blocks are empty)", (long long)rep.batches);
    cr_assert_eq(rep.nnz_c, ref_nnz);
    magnus_context_free(&ctx);
    MAGNUS_TEST_FREE_CSRS(&C, &A, &B);
}

/* The point of batches: a product whose C-hat and C do not fit the device's memory together
 * completes in row blocks. The limit is C-hat plus C (what the whole product holds at least
 * when C is allocated, counted from its report), which the whole product must fail; under it
 * the default budget (an eighth of the limit) cuts the product into blocks that fit. */
Test(spgemm_batches, blocks_fit_where_the_whole_product_does_not) {
    magnus_csr A = magnus_test_rmat(10, 32, 41, MAGNUS_FLOAT32);
    magnus_csr B = magnus_test_rmat(10, 16, 42, MAGNUS_FLOAT32);
    const uint64_t local = heavy_budget(B);
    magnus_context ctx = batch_context(UINT64_C(1) << 50, local, 0);
    magnus_report rep;
    int64_t ref_nnz = 0;
    magnus_csr C = multiply_and_compare(&rep, &ref_nnz, ctx, A, B, MAGNUS_ALGORITHM_MAGNUS,
                                        "whole, no limit");
    cr_assert_eq(rep.batches, 1);
    magnus_csr_free(&C);
    magnus_context_free(&ctx);
    const uint64_t c_bytes = (uint64_t)ref_nnz * 8 + ((uint64_t)A->rows + 1) * 8;
    /* the premise: C-hat well above C, as on power-law inputs */
    cr_assert_gt(rep.chat_bytes, 3 * c_bytes, "C-hat %llu bytes, C %llu: the input should "
                 "expand more", (unsigned long long)rep.chat_bytes, (unsigned long long)c_bytes);
    const uint64_t limit = rep.chat_bytes + c_bytes;

    ctx = batch_context(UINT64_C(1) << 50, local, limit);
    magnus_spgemm_options opt = algorithm_options(MAGNUS_ALGORITHM_MAGNUS);
    magnus_status s = magnus_spgemm(&C, ctx, A, B, &opt, &rep);
    cr_assert_eq(s, MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY,
                 "the whole product under a limit of C-hat plus C: %s (%s)",
                 magnus_status_string(s), magnus_last_error());
    cr_assert_null(C);
    magnus_context_free(&ctx);

    ctx = batch_context(0, local, limit);
    cr_assert_eq(magnus_gmagnus_knobs_of(ctx)->chat_batch_bytes,
                 limit / MAGNUS_CHAT_BATCH_FRACTION);
    C = multiply_and_compare(&rep, &ref_nnz, ctx, A, B, MAGNUS_ALGORITHM_MAGNUS,
                             "blocks under the limit");
    cr_assert_geq(rep.batches, 4, "%lld batches", (long long)rep.batches);
    cr_assert_leq(rep.peak_device_bytes, limit);
    magnus_context_free(&ctx);
    MAGNUS_TEST_FREE_CSRS(&C, &A, &B);
}

/* ---- progress and cancellation between blocks ---------------------------------------------- */

typedef struct progress_log {
    int calls, blocks;
    double fraction[32];
    char what[32][64];
    const char *stop_at; /* returns 0 when `what` is this */
} progress_log;

static int log_progress(void *user, double fraction, const char *what) {
    progress_log *log = user;
    if (log->calls < 32) {
        log->fraction[log->calls] = fraction;
        snprintf(log->what[log->calls], sizeof log->what[0], "%s", what);
    }
    log->calls++;
    log->blocks += strstr(what, "row block") != NULL;
    return !(log->stop_at && !strcmp(what, log->stop_at));
}

/* gMAGNUS forced, its progress told to *log (which stops the work at `stop_at`, or never). */
static magnus_spgemm_options logged_options(progress_log *log, const char *stop_at) {
    magnus_spgemm_options opt = algorithm_options(MAGNUS_ALGORITHM_MAGNUS);
    memset(log, 0, sizeof *log);
    log->stop_at = stop_at;
    opt.progress = log_progress;
    opt.progress_user = log;
    return opt;
}

Test(spgemm_batches, progress_tells_each_block) {
    magnus_csr A, B;
    magnus_context ctx = three_block_product(&A, &B, 61, 62, MAGNUS_FLOAT32, false);
    progress_log log;
    magnus_spgemm_options opt = logged_options(&log, NULL);
    magnus_csr C = NULL;
    magnus_report rep;
    ASSERT_OK(magnus_spgemm(&C, ctx, A, B, &opt, &rep));
    cr_assert_eq(rep.batches, 3);
    cr_assert_eq(log.blocks, 3, "%d block calls", log.blocks);
    /* upload, multiply, the three blocks, download, done: in order, fractions growing */
    cr_assert_eq(log.calls, 7, "%d progress calls", log.calls);
    const char *expect[7] = {"upload", "multiply", "multiply: row block 1 of 3",
                             "multiply: row block 2 of 3", "multiply: row block 3 of 3",
                             "download", "done"};
    for (int i = 0; i < 7; i++) {
        cr_assert_str_eq(log.what[i], expect[i], "call %d", i);
        if (i) cr_assert_geq(log.fraction[i], log.fraction[i - 1], "call %d goes back", i);
    }
    cr_assert(log.fraction[3] > 0.1 && log.fraction[4] > log.fraction[3] && log.fraction[4] < 0.9,
              "the blocks' fractions %g, %g lie inside the multiply's share", log.fraction[3],
              log.fraction[4]);
    magnus_context_free(&ctx);
    MAGNUS_TEST_FREE_CSRS(&C, &A, &B);
}

/* A callback that stops before the second block: CANCELLED in its words, nothing half-built
 * returned, nothing held. */
Test(spgemm_batches, cancel_between_blocks) {
    magnus_csr A, B;
    magnus_context ctx = three_block_product(&A, &B, 63, 64, MAGNUS_FLOAT32, false);
    progress_log log;
    magnus_spgemm_options opt = logged_options(&log, "multiply: row block 2 of 3");
    magnus_csr C = NULL;
    REF_EXPECT_STATUS(magnus_spgemm(&C, ctx, A, B, &opt, NULL), MAGNUS_ERROR_CANCELLED);
    cr_assert_null(C);
    cr_assert(strstr(magnus_last_error(), "row block 2 of 3"), "message: %s", magnus_last_error());
    cr_assert_eq(log.blocks, 2, "%d block calls", log.blocks);
    cr_assert_eq(ctx->memory_in_use, 0, "%llu bytes still held",
                 (unsigned long long)ctx->memory_in_use);
    magnus_context_free(&ctx);
    MAGNUS_TEST_FREE_CSRS(&A, &B);
}

Test(spgemm_batches, default_budget_runs_small_products_whole) {
    magnus_context ctx = magnus_test_context();
    cr_assert_geq(magnus_gmagnus_knobs_of(ctx)->chat_batch_bytes,
                  ctx->device.global_mem_bytes / MAGNUS_CHAT_BATCH_FRACTION);
    magnus_csr A = magnus_test_rmat(8, 8, 51, MAGNUS_FLOAT32);
    magnus_report rep;
    int64_t ref_nnz = 0;
    magnus_csr C =
        multiply_and_compare(&rep, &ref_nnz, ctx, A, A, MAGNUS_ALGORITHM_MAGNUS, "default budget");
    cr_assert_eq(rep.batches, 1);
    magnus_csr_free(&C);
    magnus_csr_free(&A);
}

Test(spgemm_batches, budget_from_the_environment) {
    magnus_context ctx = NULL;
    setenv("MAGNUS_CHAT_BATCH_BYTES", "3M", 1);
    ASSERT_OK(magnus_context_create(&ctx, NULL, NULL));
    cr_assert_eq(magnus_gmagnus_knobs_of(ctx)->chat_batch_bytes, UINT64_C(3) << 20);
    magnus_context_free(&ctx);
    setenv("MAGNUS_CHAT_BATCH_BYTES", "lots", 1);
    REF_EXPECT_STATUS(magnus_context_create(&ctx, NULL, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(magnus_last_error(), "MAGNUS_CHAT_BATCH_BYTES"), "message: %s",
              magnus_last_error());
    cr_assert_null(ctx);
    unsetenv("MAGNUS_CHAT_BATCH_BYTES");
}
