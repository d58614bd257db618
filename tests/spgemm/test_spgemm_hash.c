/*
 * The SpGEMM entry points with MAGNUS_ALGORITHM_HASH, device-resident matrices, and the
 * reusable hash accumulator (rows subsets and chunks), on the device chosen by
 * MAGNUS_BACKENDS. Every product is compared with the CPU reference (structure exact, values
 * within the magnitude-scaled tolerance); global-table paths are forced with small local
 * memory budgets and checked through the report and the accumulator's statistics.
 *
 * One executable (spgemm_hash), a file per job: this one (main, and products of small,
 * generated and shared real matrices), test_spgemm_hash_global.c (the global-table path),
 * test_spgemm_hash_device_csr.c (device-resident matrices), test_spgemm_hash_errors.c (error
 * statuses), test_spgemm_hash_accumulate.c (the accumulator API on subsets and chunks); their
 * helpers are in spgemm_hash_test_util.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "device_test_main.h"
#include "reference_test_util.h"
#include "spgemm_hash_test_util.h"
#include "status_test_util.h"

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
        MAGNUS_TEST_FREE_CSRS(&A, &B, &C, &E);
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
    MAGNUS_TEST_FREE_CSRS(&A, &B, &C);
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
    if (!f) magnus_test_no_shared("%s not found", path);
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
