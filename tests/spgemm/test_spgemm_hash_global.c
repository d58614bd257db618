/*
 * The hash algorithm's global-table path (part of spgemm_hash: test_spgemm_hash.c): the local
 * capacities against gMAGNUS's tau, and small local-memory budgets (options, environment)
 * that send rows to the global tables, checked through the accumulator's statistics.
 */
#include <stdlib.h>
#include <string.h>

#include "device_csr.h"
#include "device_test_util.h"
#include "hash_accumulate.h"
#include "spgemm_hash_test_util.h"
#include "status_test_util.h"

Test(hash_global, capacity_covers_gmagnus_tau) {
    /* pure arithmetic on a context-shaped struct: every budget from 1 KiB to 1 MiB */
    const uint64_t budgets[] = {1024, 4096, 32768, 49152, 49144, 65536, 101376, 232448, 1 << 20};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
        for (int t = 0; t < 2; t++) {
            magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
            uint64_t slot = 4 + magnus_value_size(type);
            magnus_context_s fake;
            memset(&fake, 0, sizeof fake);
            fake.device.local_mem_bytes = budgets[i];
            fake.device.max_work_group_size = 1024;
            int64_t sym, num, tau = (int64_t)(budgets[i] / (2 * slot));
            magnus_hash_local_capacity(&fake, type, &sym, &num);
            cr_assert_geq(num, tau, "budget %llu: numeric capacity %lld < tau %lld",
                          (unsigned long long)budgets[i], (long long)num, (long long)tau);
            cr_assert_lt((uint64_t)num * slot, budgets[i], "numeric table cannot hold %lld",
                         (long long)num);
            cr_assert_geq(sym, tau, "budget %llu: symbolic capacity %lld < tau %lld",
                          (unsigned long long)budgets[i], (long long)sym, (long long)tau);
            cr_assert_lt((uint64_t)sym * 4, budgets[i]);
        }
}

Test(hash_global, small_local_memory_uses_global_tables) {
    magnus_context ctx = magnus_test_budget_context(4096);
    int64_t sym_cap, num_cap;
    magnus_hash_local_capacity(ctx, MAGNUS_FLOAT32, &sym_cap, &num_cap);
    cr_assert_gt(sym_cap, 0);
    cr_assert_geq(num_cap, 4096 / (2 * 8), "numeric capacity %lld below tau", (long long)num_cap);
    cr_assert_leq(num_cap * 2 * 8, 4096);
    /* rows of ~40 x ~30 products, above both capacities, plus light rows */
    magnus_csr A = uniform(200, 400, 40, 21, MAGNUS_FLOAT32);
    magnus_csr B = uniform(400, 5000, 30, 22, MAGNUS_FLOAT32);
    magnus_hash_stats sym = {0}, num = {0};
    magnus_report rep;
    hash_run_with_stats(ctx, A, B, NULL, &sym, &num, &rep);
    cr_assert_gt(sym.items_global, 0, "no row took the symbolic global path");
    cr_assert_gt(num.items_global, 0, "no row took the numeric global path");
    cr_assert_eq(sym.items, 200);
    cr_assert_gt(rep.rows_heavy, 0);
    cr_assert_eq(rep.tau, sym_cap);
    /* the public path sees the same through the report */
    magnus_report r2 = check_product(ctx, A, B, "small local, public");
    cr_assert_gt(r2.rows_heavy, 0);
    cr_assert_eq(r2.local_mem_bytes, 4096);

    /* a scratch bound of one table at a time: one batch per row */
    magnus_hash_config cfg;
    magnus_hash_config_init(&cfg, MAGNUS_QUEUE_MAIN);
    cfg.global_scratch_bytes = 1;
    magnus_hash_stats sym1 = {0}, num1 = {0};
    hash_run_with_stats(ctx, A, B, &cfg, &sym1, &num1, &rep);
    cr_assert_eq(sym1.global_batches, sym1.items_global);
    cr_assert_eq(num1.global_batches, num1.items_global);
    cr_assert_gt(num1.global_batches, 1);
    magnus_csr_free(&A);
    magnus_csr_free(&B);

    if (ctx->device.fp64) {
        magnus_csr A64 = magnus_test_rmat(10, 16, 23, MAGNUS_FLOAT64);
        magnus_csr B64 = magnus_test_rmat(10, 8, 24, MAGNUS_FLOAT64);
        magnus_hash_stats s64 = {0}, n64 = {0};
        hash_run_with_stats(ctx, A64, B64, NULL, &s64, &n64, &rep);
        cr_assert_gt(s64.items_global, 0);
        cr_assert_gt(n64.items_global, 0);
        magnus_csr_free(&A64);
        magnus_csr_free(&B64);
    }
    magnus_context_free(&ctx);
}

Test(hash_global, local_memory_from_environment) {
    /* each Criterion test runs in its own process, so the variable stays here */
    setenv("MAGNUS_LOCAL_MEM_BYTES", "4096", 1);
    magnus_context ctx;
    ASSERT_OK(magnus_context_create(&ctx, NULL, NULL));
    cr_assert_eq(ctx->device.local_mem_bytes, 4096);
    magnus_csr A = magnus_test_rmat(9, 32, 31, MAGNUS_FLOAT32);
    magnus_report rep = check_product(ctx, A, A, "MAGNUS_LOCAL_MEM_BYTES=4096");
    cr_assert_gt(rep.rows_heavy, 0, "no global-table row with a 4 KiB budget");
    magnus_csr_free(&A);
    magnus_context_free(&ctx);
}

Test(hash_global, tiny_local_memory_everything_global) {
    /* 64 bytes hold no table at all: every non-empty row goes global, and its sort is staged
     * through blocks of 4 float32 / float64 entries (hash_accumulate.chunks_tiny_local covers
     * no staging at all: the scan needs more local memory than that) */
    const uint64_t budgets[] = {64, 64};
    for (int i = 0; i < 2; i++) {
        magnus_context ctx = magnus_test_budget_context(budgets[i]);
        magnus_value_type type = i && ctx->device.fp64 ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        magnus_csr A = uniform(60, 50, 3, 41, type);
        magnus_csr B = uniform(50, 70, 6, 42, type);
        magnus_hash_stats sym = {0}, num = {0};
        magnus_report rep;
        hash_run_with_stats(ctx, A, B, NULL, &sym, &num, &rep);
        cr_assert_gt(sym.items_global, 0);
        cr_assert_gt(num.items_global, 0);
        check_product(ctx, A, B, "tiny budget");
        magnus_csr_free(&A);
        magnus_csr_free(&B);
        magnus_context_free(&ctx);
    }
}
