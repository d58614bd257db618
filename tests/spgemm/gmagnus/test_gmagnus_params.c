/*
 * gMAGNUS parameters against the paper's published tables: Table VI (R-MAT, chunks per row by
 * scale on H200 and PVC) and Table V (SuiteSparse matrices, chunk counts for C.m of the
 * matrix), plus the invariants every parameter set must satisfy, the plan's heavy split
 * against a direct count, and the refusals for budgets too small.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <stdlib.h>

#include "device_runtime.h"
#include "gmagnus_knobs.h"
#include "gmagnus_params.h"
#include "internal.h"
#include "magnus/magnus.h"
#include "status_test_util.h"

/* The machines of the paper's evaluation, as the doc's worked check spells them out. */
static magnus_gmagnus_params_input machine(uint64_t slm, size_t vbytes, int subgroup_size,
                                           int64_t c_cols) {
    magnus_gmagnus_params_input in = {
        .local_mem_bytes = slm,
        .c_cols = c_cols,
        .value_bytes = vbytes,
        .multisplit_group_size = 1024,
        .subgroup_size = subgroup_size,
        .outer_group_size = 256,
        .dense_group_size = 256,
    };
    return in;
}
#define H200(cm) machine(48 * 1024, 4, 32, (cm))     /* 1024 items, 32 warps of 32 */
#define PVC64(cm) machine(64 * 1024, 8, 16, (cm))    /* 1024 items, 64 subgroups of 16 */
#define PVC32(cm) machine(32 * 1024, 4, 32, (cm))    /* the alternative reading of PVC */

/* Expected "required: l0, l1, ..." with levels = number of listed levels. */
static void expect_chunks(magnus_gmagnus_params_input in, int64_t required, int levels,
                          const int64_t *per_level) {
    magnus_gmagnus_params p;
    ASSERT_OK(magnus_gmagnus_params_from_input(&p, &in));
    cr_expect_eq(p.chunks_required, required, "C.m=%lld sLM=%llu: required %lld, expected %lld",
                 (long long)in.c_cols, (unsigned long long)in.local_mem_bytes,
                 (long long)p.chunks_required, (long long)required);
    cr_expect_eq(p.levels, levels, "C.m=%lld: %d levels, expected %d", (long long)in.c_cols,
                 p.levels, levels);
    for (int i = 0; i < levels && i < p.levels; i++)
        cr_expect_eq(p.chunks_per_level[i], per_level[i], "C.m=%lld level %d: %lld, expected %lld",
                     (long long)in.c_cols, i, (long long)p.chunks_per_level[i],
                     (long long)per_level[i]);
}

/* Table VI, H200 column: scales 15..20 give 4, 8, 16, 32, 64, "128: 64, 2". */
Test(gmagnus_params, table6_h200) {
    expect_chunks(H200(1 << 15), 4, 1, (int64_t[]){4});
    expect_chunks(H200(1 << 16), 8, 1, (int64_t[]){8});
    expect_chunks(H200(1 << 17), 16, 1, (int64_t[]){16});
    expect_chunks(H200(1 << 18), 32, 1, (int64_t[]){32});
    expect_chunks(H200(1 << 19), 64, 1, (int64_t[]){64});
    expect_chunks(H200(1 << 20), 128, 2, (int64_t[]){64, 2});
}

/* Table VI, PVC column: scales 15..19 give 8, 16, 32, "64: 32, 2", "128: 32, 4", with either
 * reading of the PVC budget. */
Test(gmagnus_params, table6_pvc) {
    for (int r = 0; r < 2; r++) {
        for (int scale = 15; scale <= 19; scale++) {
            int64_t cm = (int64_t)1 << scale;
            magnus_gmagnus_params_input in = r == 0 ? PVC64(cm) : PVC32(cm);
            switch (scale) {
            case 15: expect_chunks(in, 8, 1, (int64_t[]){8}); break;
            case 16: expect_chunks(in, 16, 1, (int64_t[]){16}); break;
            case 17: expect_chunks(in, 32, 1, (int64_t[]){32}); break;
            case 18: expect_chunks(in, 64, 2, (int64_t[]){32, 2}); break;
            case 19: expect_chunks(in, 128, 2, (int64_t[]){32, 4}); break;
            }
        }
    }
}

/* The intermediate quantities of the doc's worked check. */
Test(gmagnus_params, worked_check_quantities) {
    magnus_gmagnus_params p;
    magnus_gmagnus_params_input in = H200(1 << 20);
    ASSERT_OK(magnus_gmagnus_params_from_input(&p, &in));
    cr_expect_eq(p.tau, 3072);            /* 49152 / (2 * 8) */
    cr_expect_eq(p.ndense_numeric, 11915); /* 49152 / 4.125 */
    cr_expect_eq(p.dense_width, 8192);
    cr_expect_eq(p.chunks_max, 64);       /* (49152 - 3072*8 - 4) / (2*32*4 + 8) = 93 -> 64 */
    cr_expect_eq(p.subgroups, 32);
    cr_expect_eq(p.outer_group_elems, 6136); /* (49152 - 64 static bytes) / 8 */
    cr_expect_eq(p.chunk_width[0], 1 << 14);
    cr_expect_eq(p.chunk_width[1], 1 << 13);
    in = PVC64(1 << 19);
    ASSERT_OK(magnus_gmagnus_params_from_input(&p, &in));
    cr_expect_eq(p.tau, 2730);            /* 65536 / 24 */
    cr_expect_eq(p.ndense_numeric, 8065); /* 65536 / 8.125 */
    cr_expect_eq(p.chunks_max, 32);       /* (65536 - 2730*12 - 4) / (2*64*4 + 8) = 63 -> 32 */
}

/* Table V: the chunk counts of SuiteSparse matrices depend only on C.m (their row count). The
 * "4096: 32, 32, 4" / "2048: 64, 32" row is wb-edu (9,845,725 rows). soc-Slashdot0902's
 * 82,168 rows (shared/matrices/INDEX.tsv) give 32 on PVC and 16 on H200, which the literal
 * ceil(C.m / ndenseNumeric) would not (82168 / 8065 -> 16 on PVC): chunk widths must be
 * powers of two. */
Test(gmagnus_params, table5_examples) {
    expect_chunks(PVC64(9845725), 4096, 3, (int64_t[]){32, 32, 4});
    expect_chunks(H200(9845725), 2048, 2, (int64_t[]){64, 32});
    expect_chunks(PVC64(82168), 32, 1, (int64_t[]){32});
    expect_chunks(H200(82168), 16, 1, (int64_t[]){16});
    expect_chunks(PVC64(1382908), 512, 2, (int64_t[]){32, 16}); /* in-2004 */
    expect_chunks(H200(1382908), 256, 2, (int64_t[]){64, 4});
    expect_chunks(PVC64(862664), 256, 2, (int64_t[]){32, 8}); /* eu-2005 */
    expect_chunks(H200(862664), 128, 2, (int64_t[]){64, 2});
}

/* Invariants over a sweep of budgets, types and column counts: the chunks multiply out, each
 * chunk of the last level fits the dense accumulator, widths cover C's columns, every
 * multisplit group fits local memory and touches at most 2 rows (elements <= tau + 2), and
 * the dense accumulator (values + bitmap + scratch) fits too, by the paper's sizes and by the
 * kernels' own layouts. */
Test(gmagnus_params, invariants) {
    const uint64_t budgets[] = {2048, 3000, 4096, 16384, 48 * 1024, 64 * 1024, 100000, 227 * 1024,
                                1 << 20};
    const int64_t cols[] = {0, 1, 2, 255, 256, 257, 4096, 100000, 1 << 20, 9845725, INT32_MAX};
    for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++)
        for (int v = 4; v <= 8; v += 4)
            for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
                magnus_device_info dev;
                memset(&dev, 0, sizeof dev);
                dev.local_mem_bytes = budgets[b];
                dev.max_work_group_size = 1024;
                magnus_gmagnus_params_input in;
                ASSERT_OK(magnus_gmagnus_params_input_for_device(
                    &in, &dev, cols[c], v == 4 ? MAGNUS_FLOAT32 : MAGNUS_FLOAT64));
                magnus_gmagnus_params p;
                magnus_status s = magnus_gmagnus_params_from_input(&p, &in);
                if (s == MAGNUS_ERROR_INVALID_ARGUMENT) {
                    /* only tiny budgets against huge C may be refused */
                    cr_expect(budgets[b] <= 4096 && cols[c] >= (1 << 20), "refused sLM=%llu C.m=%lld: %s",
                              (unsigned long long)budgets[b], (long long)cols[c], magnus_last_error());
                    continue;
                }
                ASSERT_OK(s);
                int64_t prod = 1;
                for (int i = 0; i < p.levels; i++) {
                    prod *= p.chunks_per_level[i];
                    cr_expect_leq(p.chunks_per_level[i], p.chunks_max);
                    cr_expect_geq(p.chunks_per_level[i], 2);
                    cr_expect_leq(magnus_gmagnus_multisplit_local_bytes(
                                      p.chunks_per_level[i], p.subgroups,
                                      p.multisplit_group_elems[i], p.value_bytes) +
                                      MAGNUS_GM_STATIC_LOCAL_BYTES,
                                  budgets[b]);
                    cr_expect_leq(p.multisplit_group_elems[i], p.tau + 2);
                    cr_expect_eq(p.multisplit_group_elems[i] % p.multisplit_group_size, 0);
                    cr_expect_gt(p.multisplit_group_elems[i], 0);
                }
                cr_expect_eq(prod, p.chunks_required);
                cr_expect_geq(p.chunks_required * p.dense_width, cols[c]);
                cr_expect_leq(p.dense_width * v + p.dense_width / 8 + 4 * p.dense_group_size +
                                  MAGNUS_GM_STATIC_LOCAL_BYTES,
                              (int64_t)budgets[b]);
                cr_expect_leq(p.outer_group_elems * 8 + MAGNUS_GM_STATIC_LOCAL_BYTES,
                              (int64_t)budgets[b]);
                /* the same with the layouts the kernels use (kernels/shared/gmagnus_layout.h),
                 * alignment pads included: what the launches ask for */
                const uint64_t dgs = (uint64_t)p.dense_group_size;
                cr_expect_leq(mg_gm_dense_numeric_bytes(p.dense_width, dgs, p.value_bytes) +
                                  MAGNUS_GM_STATIC_LOCAL_BYTES,
                              budgets[b]);
                cr_expect_leq(mg_gm_dense_symbolic_bytes(p.dense_width, dgs) +
                                  MAGNUS_GM_STATIC_LOCAL_BYTES,
                              budgets[b]);
                cr_expect_geq(p.outer_group_elems, 1);
                cr_expect_leq(p.dense_width, p.ndense_numeric);
                if (p.levels > 0)
                    cr_expect_eq(p.chunk_width[p.levels - 1], p.dense_width);
                cr_expect_leq(p.tau * 2 * (4 + v), (int64_t)budgets[b]);
            }
}

Test(gmagnus_params, refusals) {
    magnus_gmagnus_params p;
    magnus_gmagnus_params_input in = H200(1000);
    cr_expect_eq(magnus_gmagnus_params_from_input(NULL, &in), MAGNUS_ERROR_NULL_POINTER);
    cr_expect_eq(magnus_gmagnus_params_from_input(&p, NULL), MAGNUS_ERROR_NULL_POINTER);
    in.value_bytes = 2;
    cr_expect_eq(magnus_gmagnus_params_from_input(&p, &in), MAGNUS_ERROR_INVALID_ARGUMENT);
    in = H200(-1);
    cr_expect_eq(magnus_gmagnus_params_from_input(&p, &in), MAGNUS_ERROR_INVALID_ARGUMENT);
    in = H200(1000);
    in.local_mem_bytes = 8; /* no hash entry fits */
    cr_expect_eq(magnus_gmagnus_params_from_input(&p, &in), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_expect(strlen(magnus_last_error()) > 0);
    /* 2 KiB with 1024-item groups: 32 histograms leave no room for 2 chunks a pass */
    in = machine(2048, 4, 32, 1 << 20);
    cr_expect_eq(magnus_gmagnus_params_from_input(&p, &in), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(magnus_last_error(), "chunk") != NULL, "%s", magnus_last_error());
}

/* A described GPU as the paper's: 48 KiB of local memory, groups of up to 1024 items,
 * subgroups of 32. */
static magnus_device_info gpu_48k(void) {
    magnus_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.local_mem_bytes = 48 * 1024;
    dev.max_work_group_size = 1024;
    dev.subgroup_sizes[0] = 32;
    dev.num_subgroup_sizes = 1;
    return dev;
}

/* The device defaults: group sizes shrink with tau, the budget comes from the device. */
Test(gmagnus_params, device_defaults) {
    magnus_device_info dev = gpu_48k();
    magnus_gmagnus_params p;
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, 1 << 20, MAGNUS_FLOAT32));
    cr_expect_eq(p.multisplit_group_size, MAGNUS_GM_MULTISPLIT_GROUP); /* 256, not the paper's 1024 */
    cr_expect_eq(p.subgroups, MAGNUS_GM_MULTISPLIT_GROUP / 32);
    cr_expect_eq(p.chunks_required, 128);
    /* 8 local histograms per chunk instead of the paper's 32 leave room for 256 chunks a
     * pass: one level where the paper's groups need two (64, 2) */
    cr_expect_eq(p.chunks_max, 256);
    cr_expect_eq(p.levels, 1);
    dev.local_mem_bytes = 2048; /* tau = 128: groups of 128 items, 4 subgroups */
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, 1 << 16, MAGNUS_FLOAT32));
    cr_expect_eq(p.tau, 128);
    cr_expect_eq(p.multisplit_group_size, 128);
    cr_expect_eq(p.subgroups, 4);
    cr_expect_geq(p.levels, 2);
    cr_expect_eq(magnus_gmagnus_params_compute(&p, NULL, 10, MAGNUS_FLOAT32),
                 MAGNUS_ERROR_NULL_POINTER);
    cr_expect_eq(magnus_gmagnus_params_compute(&p, &dev, 10, (magnus_value_type)7),
                 MAGNUS_ERROR_UNSUPPORTED_TYPE);
}

/* The multisplit group knob: sets the group (the paper's 1024, or fewer items than the
 * default 256) and its subgroups with it, refuses what is no power of two from 8 to the
 * device's limit, as an option and as MAGNUS_MULTISPLIT_GROUP. */
Test(gmagnus_params, multisplit_group_knob) {
    magnus_device_info dev = gpu_48k();
    magnus_gmagnus_params p;
    setenv("MAGNUS_MULTISPLIT_GROUP", "1024", 1);
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, 1 << 18, MAGNUS_FLOAT32));
    cr_expect_eq(p.multisplit_group_size, 1024);
    cr_expect_eq(p.subgroups, 32);
    cr_expect_eq(p.multisplit_group_elems[0] % 1024, 0);
    dev.local_mem_bytes = 4096; /* tau 256: the group cannot pass it */
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, 1 << 18, MAGNUS_FLOAT32));
    cr_expect_eq(p.multisplit_group_size, 256);
    dev.local_mem_bytes = 48 * 1024;
    setenv("MAGNUS_MULTISPLIT_GROUP", "16", 1); /* below the subgroup: one subgroup */
    ASSERT_OK(magnus_gmagnus_params_compute(&p, &dev, 1 << 18, MAGNUS_FLOAT32));
    cr_expect_eq(p.multisplit_group_size, 16);
    cr_expect_eq(p.subgroups, 1);
    const char *bad[] = {"300", "4", "2048", "x", "-8"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setenv("MAGNUS_MULTISPLIT_GROUP", bad[i], 1);
        cr_expect_eq(magnus_gmagnus_params_compute(&p, &dev, 1 << 18, MAGNUS_FLOAT32),
                     MAGNUS_ERROR_INVALID_ARGUMENT, "%s accepted", bad[i]);
        cr_expect(strstr(magnus_last_error(), "MAGNUS_MULTISPLIT_GROUP"), "%s",
                  magnus_last_error());
    }
    unsetenv("MAGNUS_MULTISPLIT_GROUP");
    uint32_t v = 0;
    cr_expect_eq(magnus_knob_multisplit_group(12, 1024, &v), MAGNUS_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(magnus_last_error(), "multisplit_group=12"), "%s", magnus_last_error());
    ASSERT_OK(magnus_knob_multisplit_group(512, 1024, &v));
    cr_expect_eq(v, 512u);
}

/* The plan's heavy split against a count by hand: A has one row hitting a dense row of B. */
Test(gmagnus_params, plan_heavy_split) {
    magnus_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.local_mem_bytes = 2048; /* tau = 128 for float32 */
    dev.max_work_group_size = 256;
    const int64_t n = 300;
    magnus_csr A = NULL, B = NULL;
    ASSERT_OK(magnus_csr_new(&A, 3, n, 3, MAGNUS_FLOAT32));
    /* row 0 -> B row 0 (n entries: heavy), row 1 -> B row 1 (1 entry), row 2 empty... */
    A->row_ptr[1] = 1;
    A->row_ptr[2] = 2;
    A->row_ptr[3] = 3;
    A->col_idx[0] = 0;
    A->col_idx[1] = 1;
    A->col_idx[2] = 0; /* ...and row 2 -> B row 0 again: heavy */
    for (int k = 0; k < 3; k++) ((float *)A->values)[k] = 1.0f;
    ASSERT_OK(magnus_csr_new(&B, n, n, n + 1, MAGNUS_FLOAT32));
    for (int64_t j = 0; j < n; j++) {
        B->col_idx[j] = (int32_t)j;
        ((float *)B->values)[j] = 1.0f;
    }
    B->col_idx[n] = 5;
    ((float *)B->values)[n] = 1.0f;
    B->row_ptr[1] = n;
    for (int64_t i = 2; i <= n; i++) B->row_ptr[i] = n + 1;
    magnus_gmagnus_plan plan;
    ASSERT_OK(magnus_gmagnus_plan_compute(&plan, &dev, A, B));
    cr_expect_eq(plan.params.tau, 128);
    cr_expect_eq(plan.rows, 3);
    cr_expect_eq(plan.rows_heavy, 2);
    cr_expect_eq(plan.products, 2 * n + 1);
    cr_expect_eq(plan.products_heavy, 2 * n);
    cr_expect_eq(plan.chat_bytes, (uint64_t)(2 * n * 8 + 3 * 8));
    /* B as A's left factor: shapes must agree */
    magnus_csr C = NULL;
    ASSERT_OK(magnus_csr_new(&C, 2, 7, 0, MAGNUS_FLOAT32));
    cr_expect_eq(magnus_gmagnus_plan_compute(&plan, &dev, C, B), MAGNUS_ERROR_DIMENSION_MISMATCH);
    magnus_csr_free(&A);
    magnus_csr_free(&B);
    magnus_csr_free(&C);
}
