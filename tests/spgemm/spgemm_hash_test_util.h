/*
 * The helpers of the spgemm_hash test files (test_spgemm_hash*.c, one executable): the status
 * check, uniform random inputs, and check_product(), the hash product compared with the CPU
 * reference and the report.
 */
#ifndef MAGNUS_TESTS_SPGEMM_HASH_TEST_UTIL_H
#define MAGNUS_TESTS_SPGEMM_HASH_TEST_UTIL_H

#include <criterion/criterion.h>

#include <string.h>

#include "device_csr.h"
#include "device_runtime.h"
#include "hash_accumulate.h"
#include "device_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

static inline magnus_csr uniform(int64_t rows, int64_t cols, double per_row, uint64_t seed,
                                 magnus_value_type type) {
    magnus_csr A;
    ASSERT_OK(magnus_gen_uniform(&A, rows, cols, per_row, magnus_test_seed(seed), type));
    return A;
}

/*
 * C = A·B with the hash algorithm through magnus_spgemm, checked against the CPU reference
 * and the report; no device memory may stay in use. Returns the report.
 */
static inline magnus_report check_product(magnus_context ctx, const magnus_csr_s *A,
                                          const magnus_csr_s *B, const char *label) {
    magnus_report rep;
    int64_t reference_nnz;
    uint64_t before = ctx->memory_in_use;
    magnus_csr C =
        multiply_and_compare(&rep, &reference_nnz, ctx, A, B, MAGNUS_ALGORITHM_HASH, label);
    cr_assert_eq(ctx->memory_in_use, before, "%s: %llu device bytes leaked", label,
                 (unsigned long long)(ctx->memory_in_use - before));
    magnus_csr_stats st;
    ASSERT_OK(magnus_csr_stats_compute(&st, A, B));
    cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_HASH, "%s", label);
    cr_assert_eq(rep.nnz_c, reference_nnz, "%s: report nnz_c %lld, reference %lld", label,
                 (long long)rep.nnz_c, (long long)reference_nnz);
    cr_assert_eq(rep.rows_total, A->rows, "%s", label);
    cr_assert_eq(rep.products_total, st.products, "%s: report products %lld, stats %lld", label,
                 (long long)rep.products_total, (long long)st.products);
    cr_assert_eq(rep.local_mem_bytes, ctx->device.local_mem_bytes, "%s", label);
    uint64_t c_bytes = (uint64_t)(C->rows + 1) * 8 + (uint64_t)C->nnz * (4 + magnus_value_size(C->type));
    cr_assert_geq(rep.peak_device_bytes, c_bytes, "%s: peak %llu below C's %llu bytes", label,
                  (unsigned long long)rep.peak_device_bytes, (unsigned long long)c_bytes);
    cr_assert_geq(rep.time_total_ms, rep.time_upload_ms + rep.time_download_ms, "%s", label);
    magnus_csr_free(&C);
    return rep;
}

/* A·B through magnus_hash_spgemm_ex on ctx (cfg NULL: the default queues and scratch),
 * compared with the reference, nothing left in use; the phases' statistics and the report
 * come back. */
static inline void hash_run_with_stats(magnus_context ctx, const magnus_csr_s *A,
                                       const magnus_csr_s *B, const magnus_hash_config *cfg,
                                       magnus_hash_stats *sym, magnus_hash_stats *num,
                                       magnus_report *rep) {
    magnus_csr ref, mag, C;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, B));
    uint64_t before = ctx->memory_in_use;
    magnus_device_csr dA, dB, dC;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&dB, ctx, B));
    memset(rep, 0, sizeof *rep);
    ASSERT_OK(magnus_hash_spgemm_ex(&dC, ctx, dA, dB, rep, cfg, sym, num));
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    ASSERT_OK(magnus_csr_compare(NULL, C, ref, mag, 0));
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_OK(magnus_device_csr_free(&dB));
    ASSERT_OK(magnus_device_csr_free(&dC));
    cr_assert_eq(ctx->memory_in_use, before);
    magnus_csr_free(&ref);
    magnus_csr_free(&mag);
    magnus_csr_free(&C);
}

static inline void check_square(magnus_context ctx, const magnus_csr_s *A, const char *label) {
    check_product(ctx, A, A, label);
}

#endif
