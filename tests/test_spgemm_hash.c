/*
 * The SpGEMM entry points with MAGNUS_ALGORITHM_HASH, device-resident matrices, and the
 * reusable hash accumulator (rows subsets and chunks), on the device chosen by
 * MAGNUS_BACKENDS. Every product is compared with the CPU reference (structure exact, values
 * within the magnitude-scaled tolerance); global-table paths are forced with small local
 * memory budgets and checked through the report and the accumulator's statistics.
 */
#include <math.h>
#include <stdio.h>

#include "device_csr.h"
#include "device_test_main.h"
#include "hash_accumulate.h"
#include "hash_chunks_test_util.h"
#include "reference_test_util.h"
#include "spgemm_test_util.h"
#include "status_test_util.h"

#define EXPECT_STATUS(call, status)                                                              \
    do {                                                                                         \
        magnus_status ex_s_ = (call);                                                            \
        cr_assert_eq(ex_s_, (status), "%s returned %s (%s), expected %s", #call,                 \
                     magnus_status_string(ex_s_), magnus_last_error(),                           \
                     magnus_status_string(status));                                              \
    } while (0)

/* ---- helpers ------------------------------------------------------------------------------ */

static magnus_csr uniform(int64_t rows, int64_t cols, double per_row, uint64_t seed,
                          magnus_value_type type) {
    magnus_csr A;
    ASSERT_OK(magnus_gen_uniform(&A, rows, cols, per_row, magnus_test_seed(seed), type));
    return A;
}

/*
 * C = A·B with the hash algorithm through magnus_spgemm, checked against the CPU reference
 * and the report; no device memory may stay in use. Returns the report.
 */
static magnus_report check_product(magnus_context ctx, const magnus_csr_s *A,
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

static void check_square(magnus_context ctx, const magnus_csr_s *A, const char *label) {
    check_product(ctx, A, A, label);
}

/* ---- small cases -------------------------------------------------------------------------- */

Test(hash_spgemm, hand_computed) {
    magnus_context ctx = magnus_test_context();
    /* A = [1 2 0; 0 0 3; 4 0 5], B = [0 1 0; 2 0 0; 0 0 6]: C = [4 1 0; 0 0 18; 0 4 30] */
    const int64_t arp[] = {0, 2, 3, 5}, brp[] = {0, 1, 2, 3};
    const int32_t aci[] = {0, 1, 2, 0, 2}, bci[] = {1, 0, 2};
    const double av[] = {1, 2, 3, 4, 5}, bv[] = {1, 2, 6};
    const int64_t crp[] = {0, 2, 3, 5};
    const int32_t cci[] = {0, 1, 2, 1, 2};
    const double cv[] = {4, 1, 18, 4, 30};
    for (int t = 0; t < 2; t++) {
        magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        if (type == MAGNUS_FLOAT64 && !ctx->device.fp64) continue;
        magnus_csr A = ref_make(3, 3, arp, aci, av, type);
        magnus_csr B = ref_make(3, 3, brp, bci, bv, type);
        magnus_csr C = NULL, E = ref_make(3, 3, crp, cci, cv, type);
        magnus_spgemm_options opt;
        ASSERT_OK(magnus_spgemm_options_init(&opt));
        opt.algorithm = MAGNUS_ALGORITHM_HASH;
        ASSERT_OK(magnus_spgemm(&C, ctx, A, B, &opt, NULL));
        ASSERT_OK(magnus_csr_compare(NULL, C, E, NULL, 0));
        check_product(ctx, A, B, "hand");
        magnus_csr_free(&A);
        magnus_csr_free(&B);
        magnus_csr_free(&C);
        magnus_csr_free(&E);
    }
}

Test(hash_spgemm, cancellation_keeps_explicit_zeros) {
    magnus_context ctx = magnus_test_context();
    /* [1 1] · [1; -1] = [0], stored */
    const int64_t arp[] = {0, 2}, brp[] = {0, 1, 2};
    const int32_t aci[] = {0, 1}, bci[] = {0, 0};
    const double av[] = {1, 1}, bv[] = {1, -1};
    magnus_csr A = ref_make(1, 2, arp, aci, av, MAGNUS_FLOAT32);
    magnus_csr B = ref_make(2, 1, brp, bci, bv, MAGNUS_FLOAT32);
    magnus_csr C = NULL;
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = MAGNUS_ALGORITHM_HASH;
    ASSERT_OK(magnus_spgemm(&C, ctx, A, B, &opt, NULL));
    cr_assert_eq(C->nnz, 1);
    cr_assert_eq(C->col_idx[0], 0);
    cr_assert_eq(((float *)C->values)[0], 0.0f);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&C);
}

Test(hash_spgemm, empty_shapes) {
    magnus_context ctx = magnus_test_context();
    /* 0x0·0x0, 0x5·5x3, 4x0·0x3, 3x4·4x0, nnz = 0 in both, and empty rows */
    const int64_t shapes[][3] = {{0, 0, 0}, {0, 5, 3}, {4, 0, 3}, {3, 4, 0}, {5, 5, 5}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        magnus_csr A, B;
        ASSERT_OK(magnus_csr_new(&A, shapes[i][0], shapes[i][1], 0, MAGNUS_FLOAT32));
        ASSERT_OK(magnus_csr_new(&B, shapes[i][1], shapes[i][2], 0, MAGNUS_FLOAT32));
        char label[64];
        snprintf(label, sizeof label, "empty %lldx%lld·%lldx%lld", (long long)shapes[i][0],
                 (long long)shapes[i][1], (long long)shapes[i][1], (long long)shapes[i][2]);
        magnus_report rep = check_product(ctx, A, B, label);
        cr_assert_eq(rep.nnz_c, 0);
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
    /* A with entries times an empty B, and the reverse */
    magnus_csr A = uniform(20, 30, 3, 5, MAGNUS_FLOAT32), Z;
    ASSERT_OK(magnus_csr_new(&Z, 30, 10, 0, MAGNUS_FLOAT32));
    check_product(ctx, A, Z, "A·0");
    magnus_csr_free(&Z);
    ASSERT_OK(magnus_csr_new(&Z, 7, 20, 0, MAGNUS_FLOAT32));
    check_product(ctx, Z, A, "0·A");
    magnus_csr_free(&Z);
    magnus_csr_free(&A);
    /* rows 0, 2 and 4 empty */
    const int64_t rp[] = {0, 0, 2, 2, 3, 3};
    const int32_t ci[] = {1, 4, 0};
    const double v[] = {1.5, -2, 3};
    magnus_csr E = ref_make(5, 5, rp, ci, v, MAGNUS_FLOAT32);
    check_square(ctx, E, "empty rows");
    magnus_csr_free(&E);
}

Test(hash_spgemm, one_by_one_dense_row_and_column) {
    magnus_context ctx = magnus_test_context();
    const int64_t rp[] = {0, 1};
    const int32_t ci[] = {0};
    const double v[] = {-3};
    magnus_csr A = ref_make(1, 1, rp, ci, v, MAGNUS_FLOAT32);
    check_square(ctx, A, "1x1");
    magnus_csr_free(&A);

    /* one dense row of 700 times a random 700 x 900 matrix: a single long row of C */
    magnus_csr R = uniform(1, 700, 700, 11, MAGNUS_FLOAT32);
    cr_assert_eq(R->nnz, 700, "gen_uniform gave %lld entries", (long long)R->nnz);
    magnus_csr B = uniform(700, 900, 6, 12, MAGNUS_FLOAT32);
    check_product(ctx, R, B, "dense row");
    magnus_csr_free(&R);
    magnus_csr_free(&B);

    /* dense column (300x1) times dense row (1x300): C is dense 300 x 300 */
    magnus_csr col = uniform(300, 1, 1, 13, MAGNUS_FLOAT32);
    magnus_csr row = uniform(1, 300, 300, 14, MAGNUS_FLOAT32);
    magnus_report rep = check_product(ctx, col, row, "dense column x dense row");
    cr_assert_eq(rep.nnz_c, 300 * 300);
    magnus_csr_free(&col);
    magnus_csr_free(&row);
}

/* ---- generated matrices ------------------------------------------------------------------- */

Test(hash_spgemm, rectangular_uniform) {
    magnus_context ctx = magnus_test_context();
    const struct {
        int64_t m, k, n;
        double a_per_row, b_per_row;
    } cases[] = {{50, 80, 30, 4, 3},     {1, 1000, 7, 300, 2},    {300, 20, 500, 5, 40},
                 {1000, 1000, 1000, 2, 2}, {64, 3000, 2000, 60, 30}, {500, 40, 40, 20, 20}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int t = 0; t < 2; t++) {
            magnus_value_type type = t ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
            if (type == MAGNUS_FLOAT64 && (!ctx->device.fp64 || i % 2)) continue;
            magnus_csr A = uniform(cases[i].m, cases[i].k, cases[i].a_per_row, 100 + i, type);
            magnus_csr B = uniform(cases[i].k, cases[i].n, cases[i].b_per_row, 200 + i, type);
            char label[64];
            snprintf(label, sizeof label, "uniform case %zu", i);
            check_product(ctx, A, B, label);
            magnus_csr_free(&A);
            magnus_csr_free(&B);
        }
    }
}

Test(hash_spgemm, rmat_pairs_and_laplacians) {
    magnus_context ctx = magnus_test_context();
    const struct {
        int scale;
        int64_t a, b;
    } pairs[] = {{8, 16, 4}, {10, 8, 8}, {11, 4, 12}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        magnus_value_type type = (i == 1 && ctx->device.fp64) ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32;
        magnus_csr A = magnus_test_rmat(pairs[i].scale, pairs[i].a, 300 + i, type);
        magnus_csr B = magnus_test_rmat(pairs[i].scale, pairs[i].b, 400 + i, type);
        check_product(ctx, A, B, "rmat");
        magnus_csr_free(&A);
        magnus_csr_free(&B);
    }
    magnus_csr L;
    ASSERT_OK(magnus_gen_laplacian_2d(&L, 40, 30, MAGNUS_FLOAT32));
    check_square(ctx, L, "laplacian 2d");
    magnus_csr_free(&L);
    ASSERT_OK(magnus_gen_laplacian_3d(&L, 9, 8, 7,
                                      ctx->device.fp64 ? MAGNUS_FLOAT64 : MAGNUS_FLOAT32));
    check_square(ctx, L, "laplacian 3d");
    magnus_csr_free(&L);
}

/* ---- shared real matrices ----------------------------------------------------------------- */

static void check_shared(magnus_context ctx, const char *name, magnus_value_type type,
                         int64_t expected_nnz) {
    char path[1024];
    const char *dir = getenv("MAGNUS_SHARED_MATRICES"); /* a copy elsewhere (GPU machines) */
    snprintf(path, sizeof path, "%s/%s.mtx.gz", dir && *dir ? dir : MAGNUS_SHARED_MATRICES, name);
    FILE *f = fopen(path, "rb");
    if (!f) cr_skip_test("%s not found", path);
    fclose(f);
    magnus_csr A;
    ASSERT_OK(magnus_mm_read(&A, path, type, NULL, NULL));
    magnus_report rep = check_product(ctx, A, A, name);
    cr_assert_eq(rep.nnz_c, expected_nnz, "%s: nnz(A·A) %lld, INDEX.tsv says %lld", name,
                 (long long)rep.nnz_c, (long long)expected_nnz);
    magnus_csr_free(&A);
}

/* nnz_AxA from shared/matrices/INDEX.tsv, an independent check of the structure */
Test(hash_shared, hangGlider_2) {
    check_shared(magnus_test_context(), "hangGlider_2", MAGNUS_FLOAT64, 2144559);
}
Test(hash_shared, wiki_Vote) {
    check_shared(magnus_test_context(), "wiki-Vote", MAGNUS_FLOAT32, 1831112);
}
Test(hash_shared, ca_CondMat) {
    check_shared(magnus_test_context(), "ca-CondMat", MAGNUS_FLOAT32, 2355437);
}
Test(hash_shared, rajat19_small_local) {
    /* a circuit matrix with one long row, on a 4 KiB budget: global tables in both phases */
    magnus_context ctx = magnus_test_budget_context(4096);
    check_shared(ctx, "rajat19", MAGNUS_FLOAT32, 137616);
    magnus_context_free(&ctx);
}

/* ---- global-table path -------------------------------------------------------------------- */

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

/* A·B through magnus_hash_spgemm_ex on ctx, compared with the reference; returns the stats. */
static void run_ex(magnus_context ctx, const magnus_csr_s *A, const magnus_csr_s *B,
                   const magnus_hash_config *cfg, magnus_hash_stats *sym, magnus_hash_stats *num,
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
    run_ex(ctx, A, B, NULL, &sym, &num, &rep);
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
    run_ex(ctx, A, B, &cfg, &sym1, &num1, &rep);
    cr_assert_eq(sym1.global_batches, sym1.items_global);
    cr_assert_eq(num1.global_batches, num1.items_global);
    cr_assert_gt(num1.global_batches, 1);
    magnus_csr_free(&A);
    magnus_csr_free(&B);

    if (ctx->device.fp64) {
        magnus_csr A64 = magnus_test_rmat(10, 16, 23, MAGNUS_FLOAT64);
        magnus_csr B64 = magnus_test_rmat(10, 8, 24, MAGNUS_FLOAT64);
        magnus_hash_stats s64 = {0}, n64 = {0};
        run_ex(ctx, A64, B64, NULL, &s64, &n64, &rep);
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
        run_ex(ctx, A, B, NULL, &sym, &num, &rep);
        cr_assert_gt(sym.items_global, 0);
        cr_assert_gt(num.items_global, 0);
        check_product(ctx, A, B, "tiny budget");
        magnus_csr_free(&A);
        magnus_csr_free(&B);
        magnus_context_free(&ctx);
    }
}

/* ---- device-resident matrices ------------------------------------------------------------- */

Test(device_csr, round_trip_and_reuse) {
    magnus_context ctx = magnus_test_context();
    uint64_t before = ctx->memory_in_use;
    magnus_csr A = uniform(120, 90, 5, 51, MAGNUS_FLOAT32), B = uniform(90, 70, 4, 52, MAGNUS_FLOAT32);
    magnus_device_csr dA, dB, dC;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&dB, ctx, B));
    int64_t r, c, n;
    ASSERT_OK(magnus_device_csr_shape(&r, &c, &n, dA));
    cr_assert(r == 120 && c == 90 && n == A->nnz);
    ASSERT_OK(magnus_device_csr_shape(NULL, NULL, NULL, dA));
    magnus_csr back;
    ASSERT_OK(magnus_device_csr_download(&back, dA));
    ASSERT_OK(magnus_csr_compare(NULL, back, A, NULL, 0));
    magnus_csr_free(&back);

    magnus_csr ref, mag;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, B));
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    cr_assert_eq(opt.algorithm, MAGNUS_ALGORITHM_MAGNUS, "gMAGNUS is the default");
    opt.algorithm = MAGNUS_ALGORITHM_HASH;
    for (int round = 0; round < 2; round++) {
        magnus_report rep;
        ASSERT_OK(magnus_spgemm_device(&dC, ctx, dA, dB, &opt, &rep));
        ASSERT_OK(magnus_device_csr_shape(&r, &c, &n, dC));
        cr_assert(r == 120 && c == 70 && n == ref->nnz);
        cr_assert_eq(rep.nnz_c, ref->nnz);
        magnus_csr C;
        ASSERT_OK(magnus_device_csr_download(&C, dC));
        ASSERT_OK(magnus_csr_compare(NULL, C, ref, mag, 0));
        magnus_csr_free(&C);
        ASSERT_OK(magnus_device_csr_free(&dC));
        cr_assert_null(dC);
    }
    /* B·A has mismatched shapes */
    EXPECT_STATUS(magnus_spgemm_device(&dC, ctx, dB, dB, &opt, NULL),
                  MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_null(dC);
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_OK(magnus_device_csr_free(&dB));
    ASSERT_OK(magnus_device_csr_free(&dA)); /* NULL: no-op */
    cr_assert_eq(ctx->memory_in_use, before);
    EXPECT_STATUS(magnus_device_csr_shape(&r, &c, &n, NULL), MAGNUS_ERROR_NULL_POINTER);
    /* a stale pointer to a freed handle is caught by its magic number when the memory is
     * still ours; use a fake one to stay defined */
    struct magnus_device_csr_s fake;
    memset(&fake, 0, sizeof fake);
    EXPECT_STATUS(magnus_device_csr_shape(&r, &c, &n, &fake), MAGNUS_ERROR_INVALID_HANDLE);
    EXPECT_STATUS(magnus_device_csr_download(&back, &fake), MAGNUS_ERROR_INVALID_HANDLE);
    magnus_device_csr pf = &fake;
    EXPECT_STATUS(magnus_device_csr_free(&pf), MAGNUS_ERROR_INVALID_HANDLE);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&ref);
    magnus_csr_free(&mag);
}

Test(device_csr, empty_and_other_context) {
    magnus_context ctx = magnus_test_context();
    magnus_csr Z;
    ASSERT_OK(magnus_csr_new(&Z, 0, 0, 0, MAGNUS_FLOAT32));
    magnus_device_csr dZ, dC;
    ASSERT_OK(magnus_device_csr_upload(&dZ, ctx, Z));
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = MAGNUS_ALGORITHM_HASH;
    ASSERT_OK(magnus_spgemm_device(&dC, ctx, dZ, dZ, &opt, NULL));
    magnus_csr C;
    ASSERT_OK(magnus_device_csr_download(&C, dC));
    cr_assert(C->rows == 0 && C->cols == 0 && C->nnz == 0);
    magnus_csr_free(&C);
    ASSERT_OK(magnus_device_csr_free(&dC));
    /* a matrix of another context is refused */
    magnus_context other = magnus_test_budget_context(0);
    EXPECT_STATUS(magnus_spgemm_device(&dC, other, dZ, dZ, &opt, NULL), MAGNUS_ERROR_INVALID_HANDLE);
    magnus_context_free(&other);
    ASSERT_OK(magnus_device_csr_free(&dZ));
    magnus_csr_free(&Z);
}

Test(device_csr, default_algorithm_dispatch) {
    /* the default options pick gMAGNUS; a build without it says so instead of guessing */
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(40, 40, 4, 81, MAGNUS_FLOAT32), C = NULL, ref, mag;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, A));
    magnus_report rep;
    magnus_status s = magnus_spgemm(&C, ctx, A, A, NULL, &rep);
    if (s == MAGNUS_ERROR_INVALID_ARGUMENT) {
        cr_assert(strstr(magnus_last_error(), "not built") != NULL, "%s", magnus_last_error());
        cr_assert_null(C);
    } else {
        cr_assert_eq(s, MAGNUS_SUCCESS, "%s", magnus_last_error());
        cr_assert_eq(rep.algorithm, MAGNUS_ALGORITHM_MAGNUS);
        ASSERT_OK(magnus_csr_compare(NULL, C, ref, mag, 0));
    }
    magnus_csr_free(&C);
    magnus_csr_free(&A);
    magnus_csr_free(&ref);
    magnus_csr_free(&mag);
}

/* ---- errors ------------------------------------------------------------------------------- */

static int cancel_at_multiply(void *user, double fraction, const char *what) {
    (void)fraction;
    ++*(int *)user;
    return strcmp(what, "multiply") != 0;
}

Test(hash_errors, statuses_and_no_leaks) {
    magnus_context ctx = magnus_test_context();
    uint64_t before = ctx->memory_in_use;
    magnus_spgemm_options opt;
    ASSERT_OK(magnus_spgemm_options_init(&opt));
    opt.algorithm = MAGNUS_ALGORITHM_HASH;
    magnus_csr A = uniform(10, 20, 3, 61, MAGNUS_FLOAT32), B = uniform(20, 5, 2, 62, MAGNUS_FLOAT32);
    magnus_csr C = (magnus_csr)1;
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A, A, &opt, NULL), MAGNUS_ERROR_DIMENSION_MISMATCH);
    cr_assert_null(C);
    if (ctx->device.fp64) {
        magnus_csr B64;
        ASSERT_OK(magnus_csr_convert(&B64, B, MAGNUS_FLOAT64));
        EXPECT_STATUS(magnus_spgemm(&C, ctx, A, B64, &opt, NULL), MAGNUS_ERROR_UNSUPPORTED_TYPE);
        magnus_csr_free(&B64);
    }
    /* invalid A: unsorted columns in some row; invalid B: a column out of range */
    magnus_csr bad;
    ASSERT_OK(magnus_csr_copy(&bad, A));
    int64_t row = 0;
    while (bad->row_ptr[row + 1] - bad->row_ptr[row] < 2) row++;
    int32_t tmp = bad->col_idx[bad->row_ptr[row]];
    bad->col_idx[bad->row_ptr[row]] = bad->col_idx[bad->row_ptr[row] + 1];
    bad->col_idx[bad->row_ptr[row] + 1] = tmp;
    EXPECT_STATUS(magnus_spgemm(&C, ctx, bad, B, &opt, NULL), MAGNUS_ERROR_COLUMNS_UNSORTED);
    cr_assert(strstr(magnus_last_error(), "A") != NULL, "message: %s", magnus_last_error());
    magnus_csr_free(&bad);
    ASSERT_OK(magnus_csr_copy(&bad, B));
    bad->col_idx[bad->nnz - 1] = 5;
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A, bad, &opt, NULL), MAGNUS_ERROR_COLUMN_OUT_OF_RANGE);
    cr_assert(strstr(magnus_last_error(), "matrix B") != NULL, "message: %s", magnus_last_error());
    magnus_csr_free(&bad);
    /* NULLs, bad options, bad handles */
    EXPECT_STATUS(magnus_spgemm(NULL, ctx, A, B, &opt, NULL), MAGNUS_ERROR_NULL_POINTER);
    EXPECT_STATUS(magnus_spgemm(&C, NULL, A, B, &opt, NULL), MAGNUS_ERROR_NULL_POINTER);
    EXPECT_STATUS(magnus_spgemm(&C, ctx, NULL, B, &opt, NULL), MAGNUS_ERROR_NULL_POINTER);
    EXPECT_STATUS(magnus_spgemm_options_init(NULL), MAGNUS_ERROR_NULL_POINTER);
    magnus_spgemm_options bad_opt = opt;
    bad_opt.algorithm = (magnus_algorithm)7;
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A, B, &bad_opt, NULL), MAGNUS_ERROR_INVALID_ARGUMENT);
    /* a progress callback that stops at "multiply" */
    int calls = 0;
    opt.progress = cancel_at_multiply;
    opt.progress_user = &calls;
    EXPECT_STATUS(magnus_spgemm(&C, ctx, A, B, &opt, NULL), MAGNUS_ERROR_CANCELLED);
    cr_assert_null(C);
    cr_assert_eq(calls, 2);
    cr_assert_eq(ctx->memory_in_use, before, "error paths leaked device memory");
    /* a device memory limit too small for the multiply */
    magnus_context_options o;
    ASSERT_OK(magnus_context_options_init(&o));
    /* room for A and B and a little more, not for C and the work buffers */
    o.device_memory_limit = (uint64_t)(A->rows + 1 + B->rows + 1) * 8 +
                            (uint64_t)(A->nnz + B->nnz) * 8 + 64;
    magnus_context small;
    ASSERT_OK(magnus_context_create(&small, NULL, &o));
    opt.progress = NULL;
    EXPECT_STATUS(magnus_spgemm(&C, small, A, B, &opt, NULL), MAGNUS_ERROR_OUT_OF_DEVICE_MEMORY);
    cr_assert_eq(small->memory_in_use, 0);
    magnus_context_free(&small);
    /* double precision on a device without it (pretended: the context's copy of the device
     * information is what the check reads) */
    magnus_context nofp64 = magnus_test_budget_context(0);
    nofp64->device.fp64 = 0;
    magnus_csr A64, B64;
    ASSERT_OK(magnus_csr_convert(&A64, A, MAGNUS_FLOAT64));
    ASSERT_OK(magnus_csr_convert(&B64, B, MAGNUS_FLOAT64));
    EXPECT_STATUS(magnus_spgemm(&C, nofp64, A64, B64, &opt, NULL), MAGNUS_ERROR_FEATURE_UNSUPPORTED);
    cr_assert_eq(nofp64->memory_in_use, 0);
    magnus_csr_free(&A64);
    magnus_csr_free(&B64);
    magnus_context_free(&nofp64);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
}

/* ---- the accumulator API on subsets and chunks -------------------------------------------- */

Test(hash_accumulate, row_subset) {
    magnus_context ctx = magnus_test_context();
    magnus_csr A = uniform(64, 64, 6, 71, MAGNUS_FLOAT32), B = uniform(64, 80, 5, 72, MAGNUS_FLOAT32);
    magnus_csr ref, mag;
    ASSERT_OK(magnus_reference_spgemm(&ref, &mag, A, B));
    magnus_device_csr dA, dB;
    ASSERT_OK(magnus_device_csr_upload(&dA, ctx, A));
    ASSERT_OK(magnus_device_csr_upload(&dB, ctx, B));
    /* the odd rows, after two unused ids (ids_offset = 2) */
    uint32_t ids[2 + 32];
    ids[0] = ids[1] = 12345;
    for (int i = 0; i < 32; i++) ids[2 + i] = (uint32_t)(2 * i + 1);
    magnus_dbuf dids, counts;
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof ids, &dids));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dids, 0, ids, sizeof ids));
    int64_t sentinel[65];
    for (int i = 0; i < 65; i++) sentinel[i] = -7;
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof sentinel, &counts));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &counts, 0, sentinel, sizeof sentinel));
    magnus_hash_config cfg;
    magnus_hash_config_init(&cfg, MAGNUS_QUEUE_LIGHT);
    magnus_hash_stats st = {0};
    ASSERT_OK(
        magnus_hash_rows_products(ctx, MAGNUS_QUEUE_LIGHT, dA, dB, &dids, 2, 32, &counts, &st));
    ASSERT_OK(magnus_hash_rows_symbolic_sync(ctx, &cfg, dA, dB, &dids, 2, 32, &counts, &st));
    int64_t got[65];
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, got, &counts, 0, sizeof got));
    for (int r = 0; r < 64; r++) {
        int64_t want = r % 2 ? ref->row_ptr[r + 1] - ref->row_ptr[r] : -7;
        cr_assert_eq(got[r], want, "row %d: %lld, expected %lld", r, (long long)got[r],
                     (long long)want);
    }
    cr_assert_eq(st.items, 32);
    /* numeric of the odd rows into a full-size C laid out as the reference */
    magnus_dbuf crp, ccol, cval;
    ASSERT_OK(magnus_dbuf_alloc(ctx, 65 * 8, &crp));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)ref->nnz * 4, &ccol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)ref->nnz * 4, &cval));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_LIGHT, &crp, 0, ref->row_ptr, 65 * 8));
    int32_t *col = calloc((size_t)ref->nnz, 4);
    for (int64_t e = 0; e < ref->nnz; e++) col[e] = -1;
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_LIGHT, &ccol, 0, col, (size_t)ref->nnz * 4));
    ASSERT_OK(magnus_hash_rows_numeric_sync(ctx, &cfg, dA, dB, &dids, 2, 32, &crp, &ccol, &cval,
                                            NULL));
    float *val = calloc((size_t)ref->nnz, 4);
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, col, &ccol, 0, (size_t)ref->nnz * 4));
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_LIGHT, val, &cval, 0, (size_t)ref->nnz * 4));
    for (int r = 0; r < 64; r++)
        for (int64_t e = ref->row_ptr[r]; e < ref->row_ptr[r + 1]; e++) {
            if (r % 2 == 0) {
                cr_assert_eq(col[e], -1, "even row %d was written", r);
                continue;
            }
            cr_assert_eq(col[e], ref->col_idx[e], "row %d entry %lld", r, (long long)e);
            double want = ((float *)ref->values)[e], scale = ((float *)mag->values)[e];
            cr_assert_leq(fabs(val[e] - want), 1e-4 * scale + 1e-30, "row %d col %d", r,
                          col[e]);
        }
    free(col);
    free(val);
    magnus_dbuf_free(ctx, &crp);
    magnus_dbuf_free(ctx, &ccol);
    magnus_dbuf_free(ctx, &cval);
    magnus_dbuf_free(ctx, &dids);
    magnus_dbuf_free(ctx, &counts);
    ASSERT_OK(magnus_device_csr_free(&dA));
    ASSERT_OK(magnus_device_csr_free(&dB));
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&ref);
    magnus_csr_free(&mag);
}

/* Chunks with duplicate local columns, accumulated on the device and on the host. */
static magnus_hash_stats check_chunks(magnus_context ctx, magnus_value_type type, int64_t width,
                                      uint64_t seed, int *nonempty) {
    enum { NCHUNKS = 40 };
    const int64_t period = 4; /* 4 chunks per "row": shift (c % 4) * width */
    int64_t ptr[NCHUNKS + 1];
    ptr[0] = 0;
    uint64_t x = seed * 2654435761u + 1;
    for (int c = 0; c < NCHUNKS; c++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int64_t len = c == 3 ? 0 : c == 7 ? 3000 : (int64_t)((x >> 33) % 300);
        ptr[c + 1] = ptr[c] + len;
    }
    int64_t n = ptr[NCHUNKS];
    if (nonempty) {
        *nonempty = 0;
        for (int c = 0; c < NCHUNKS; c++) *nonempty += ptr[c + 1] > ptr[c];
    }
    int32_t *col = malloc((size_t)n * 4);
    double *val = malloc((size_t)n * 8);
    for (int64_t e = 0; e < n; e++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        col[e] = (int32_t)((x >> 33) % (uint64_t)width);
        val[e] = (double)((x >> 20) % 1000) / 250.0 - 2.0;
    }
    /* host: distinct count, sorted entries with sums */
    int64_t counts[NCHUNKS], offs[NCHUNKS + 1];
    int32_t *hcol = malloc((size_t)n * 4 + 4);
    double *hval = malloc((size_t)n * 8 + 8);
    hash_chunks_host(NCHUNKS, ptr, col, val, width, period, counts, offs, hcol, hval);
    /* device */
    size_t vb = magnus_value_size(type);
    void *vals = malloc((size_t)n * vb + 8);
    for (int64_t e = 0; e < n; e++) {
        if (type == MAGNUS_FLOAT32)
            ((float *)vals)[e] = (float)val[e];
        else
            ((double *)vals)[e] = val[e];
    }
    magnus_dbuf dptr, dcol, dval, dcounts, doffs, dccol, dcval, dids;
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof ptr, &dptr));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * 4, &dcol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)n * vb, &dval));
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof counts, &dcounts));
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof offs, &doffs));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)offs[NCHUNKS] * 4, &dccol));
    ASSERT_OK(magnus_dbuf_alloc(ctx, (size_t)offs[NCHUNKS] * vb, &dcval));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dptr, 0, ptr, sizeof ptr));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dcol, 0, col, (size_t)n * 4));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dval, 0, vals, (size_t)n * vb));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &doffs, 0, offs, sizeof offs));
    /* all chunks in reverse order, as an id list */
    uint32_t ids[NCHUNKS];
    for (int c = 0; c < NCHUNKS; c++) ids[c] = (uint32_t)(NCHUNKS - 1 - c);
    ASSERT_OK(magnus_dbuf_alloc(ctx, sizeof ids, &dids));
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dids, 0, ids, sizeof ids));
    int64_t minus[NCHUNKS];
    for (int c = 0; c < NCHUNKS; c++) minus[c] = -1;
    ASSERT_OK(magnus_dbuf_write(ctx, MAGNUS_QUEUE_MAIN, &dcounts, 0, minus, sizeof minus));

    magnus_hash_segments seg = {.ptr = &dptr, .col = &dcol, .val = &dval, .col_range = width,
                                .type = type};
    magnus_hash_stats st = {0};
    ASSERT_OK(magnus_hash_chunks_symbolic_sync(ctx, NULL, &seg, &dids, 0, NCHUNKS, &dcounts, &st));
    int64_t got[NCHUNKS];
    ASSERT_OK(magnus_dbuf_read(ctx, MAGNUS_QUEUE_MAIN, got, &dcounts, 0, sizeof got));
    for (int c = 0; c < NCHUNKS; c++)
        cr_assert_eq(got[c], counts[c], "chunk %d: %lld distinct, expected %lld", c,
                     (long long)got[c], (long long)counts[c]);
    cr_assert_eq(st.key_total, n);

    /* numeric, once with nnz from the offsets and once from the counts */
    for (int pass = 0; pass < 2; pass++) {
        magnus_hash_chunk_output out = {.offset = &doffs,
                                        .nnz = pass ? &dcounts : NULL,
                                        .shift_period = period,
                                        .shift_step = width,
                                        .C_col = &dccol,
                                        .C_val = &dcval};
        ASSERT_OK(magnus_hash_chunks_numeric_sync(ctx, NULL, &seg, &dids, 0, NCHUNKS, &out, &st));
        hash_chunks_expect_output(ctx, &dccol, &dcval, type, hcol, hval, offs[NCHUNKS]);
    }
    magnus_dbuf *all[] = {&dptr, &dcol, &dval, &dcounts, &doffs, &dccol, &dcval, &dids};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) magnus_dbuf_free(ctx, all[i]);
    free(col);
    free(val);
    free(vals);
    free(hcol);
    free(hval);
    return st;
}

Test(hash_accumulate, chunks) {
    magnus_context ctx = magnus_test_context();
    check_chunks(ctx, MAGNUS_FLOAT32, 512, 1, NULL);
    if (ctx->device.fp64) check_chunks(ctx, MAGNUS_FLOAT64, 100, 2, NULL);
}

Test(hash_accumulate, chunks_tiny_local) {
    /* 24 bytes: no table, and a sort staging block of a single entry (all steps global) */
    magnus_context ctx = magnus_test_budget_context(24);
    int nonempty;
    magnus_hash_stats st = check_chunks(ctx, MAGNUS_FLOAT32, 300, 4, &nonempty);
    /* symbolic: all 40 chunks; each of the two numeric passes: the non-empty ones */
    cr_assert_eq(st.items_global, 40 + 2 * nonempty, "global items: %lld, non-empty chunks %d",
                 (long long)st.items_global, nonempty);
    magnus_context_free(&ctx);
}

Test(hash_accumulate, chunks_small_local) {
    /* 4 KiB: the 3000-element chunk (and others) take the global path */
    magnus_context ctx = magnus_test_budget_context(4096);
    magnus_hash_stats st = check_chunks(ctx, MAGNUS_FLOAT32, 4096, 3, NULL);
    cr_assert_gt(st.items_global, 0, "no chunk took the global path");
    magnus_context_free(&ctx);
}
